"""GIFT, as Moodle's question/format/gift/format.php reads it: one question per paragraph, `::name::[html]text{…}`.

GIFT has no several-box question and no grader's information: a numeric question with several fields becomes one
numerical question per field, and an open question's explanation is its general feedback only. Tolerances are
absolute (`{#answer:tolerance}`), so a relative one is written as the distance it allows around its answer."""

from __future__ import annotations

from zadachnik.exports.common import (
    ModuleExport,
    absolute_tolerance,
    auto_part,
    choice_fractions,
    matching_pairs,
    number_text,
    numeric_fields,
    percent_text,
)
from zadachnik.reading.model import Question

# GIFT's reserved characters, each written with a backslash before it (the backslash itself first, doubled).
RESERVED = ("\\", "#", "=", "~", "{", "}", ":")


def gift_text(export: ModuleExport) -> bytes:
    names = [export.course.title[export.lang], export.module.title[export.lang]]
    blocks = ["$CATEGORY: " + "/".join(["$course$", "top", *(name.replace("/", "//") for name in names)])]
    for question in export.questions:
        blocks.extend(question_blocks(export, question))
    return ("\n\n".join(blocks) + "\n").encode("utf-8")


def file_name(export: ModuleExport) -> str:
    return f"{export.course.id}-{export.module.slug}-{export.lang}.gift.txt"


def escape(text: str) -> str:
    """Reserved characters escaped; a line break becomes `\\n`, so a question stays one paragraph."""
    for character in RESERVED:
        text = text.replace(character, "\\" + character)
    return text.replace("\r", "").replace("\n", "\\n")


def html(text: str) -> str:
    """HTML text in GIFT: in a matching pair `->` parts item from option, and in HTML `-&gt;` reads the same."""
    return escape(text.replace("->", "-&gt;"))


def question_blocks(export: ModuleExport, question: Question) -> list[str]:
    auto_type, key = auto_part(question)
    name, body, feedback = export.name(question), export.body(question), export.explanation(question)
    if question.type == "open":
        return [block(question.id, name, body, "", feedback)]
    if auto_type in ("single", "multiple"):
        markers = export.markers(question, "options")
        fractions = ({marker: 1.0 if marker in key.correct else 0.0 for marker in markers} if auto_type == "single"
                     else choice_fractions(key, markers))
        answers = []
        for marker in markers:
            option = html(export.entry_html(question, "options", marker))
            if auto_type == "single":
                answers.append(("=" if fractions[marker] == 1 else "~") + option)
            else:
                answers.append(f"~%{percent_text(fractions[marker])}%{option}")
        blocks = [block(question.id, name, body, "\n".join(f"\t{answer}" for answer in answers), feedback)]
    elif auto_type == "numeric":
        fields = numeric_fields(key)
        blocks = []
        for field in fields:
            label = export.field_label(question, field)
            field_name = name if len(fields) == 1 else f"{name}: {export.field_label_plain(question, field)}"
            answer = f"#{number_text(field.value)}:{number_text(absolute_tolerance(field))}"
            blocks.append(block(f"{question.id} {field.id}", field_name, f"{body}\n<p>{label}</p>", answer,
                                feedback))
    elif auto_type == "matching":
        pairs = matching_pairs(key)
        lines = [f"\t={html(export.entry_html(question, 'items', item))} -> "
                 f"{escape(export.entry_plain(question, 'options', option))}" for item, option in pairs.items()]
        lines += [f"\t= -> {escape(export.entry_plain(question, 'options', option))}"
                  for option in export.markers(question, "options") if option not in pairs.values()]
        blocks = [block(question.id, name, body, "\n".join(lines), feedback)]
    else:
        raise ValueError(f"question {question.id}: no GIFT type for '{auto_type}'")
    if question.type == "mixed":
        label = export.words["explanation_label"]
        blocks.append(block(f"{question.id}-explanation", f"{name}: {label}",
                            f"{body}\n<p><strong>{label}</strong></p>", "", feedback))
    return blocks


def block(question_id: str, name: str, body: str, answers: str, feedback: str) -> str:
    """A comment with the site's id, the name, the text and its answers; the general feedback comes last."""
    general = f"####[html]{html(feedback)}" if feedback else ""
    inside = f"\n{answers}\n\t{general}\n" if answers else general
    return f"// {question_id}\n::{escape(name)}::[html]{html(body)}{{{inside}}}"
