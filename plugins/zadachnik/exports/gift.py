"""GIFT, as Moodle's question/format/gift/format.php reads it: one question per paragraph, `::name::[html]text{…}`.

GIFT has no several-box question and no grader's information: a numeric question with several fields becomes one
numerical question per field, and an open question's explanation is its general feedback only. Tolerances are
absolute (`{#answer:tolerance}`), so a relative one is written as the distance it allows around its answer.

A question with variants gets a `$CATEGORY:` of its own, one question per variant, for a quiz to draw one; with
several fields, each field gets its own such category (GIFT's questions have one box each), and a mixed
question's explanations another."""

from __future__ import annotations

from zadachnik.exports.common import (
    ModuleExport,
    absolute_tolerance,
    auto_part,
    choice_fractions,
    matching_pairs,
    moodle_choice,
    moodle_grading_notes,
    moodle_refuses,
    no_hints_note,
    number_text,
    numeric_fields,
    percent_text,
)
from zadachnik.reading.model import Question

# GIFT's reserved characters, each written with a backslash before it (the backslash itself first, doubled).
RESERVED = ("\\", "#", "=", "~", "{", "}", ":")


def gift_text(export: ModuleExport) -> bytes:
    # The importer puts each question into the category named last before it.
    current = export.category()
    blocks = [category_line(current)]
    for question in export.questions:
        for path, placed in placed_blocks(export, question):
            if path != current:
                blocks.append(category_line(path))
                current = path
            blocks.extend(placed)
    return ("\n\n".join(blocks) + "\n").encode("utf-8")


def placed_blocks(export: ModuleExport, question: Question) -> list[tuple[str, list[str]]]:
    """A question's GIFT questions, each list with the category it goes into: the module's; or, with variants,
    one category per part (the question, or each of its fields, and a mixed question's explanation) holding that
    part of every variant."""
    if question.variants is None:
        return [(export.category(), [block for _, block in question_blocks(export, question)])]
    name = export.name(question)
    by_part: dict[str, list[str]] = {}
    for variant in export.variant_questions(question):
        for part, block in question_blocks(export, variant):
            by_part.setdefault(export.category(name + part), []).append(block)
    return list(by_part.items())


def file_name(export: ModuleExport) -> str:
    return f"{export.course.id}-{export.module.slug}-{export.lang}.gift.txt"


def escape(text: str) -> str:
    """Any author text in a question's field: reserved characters escaped, and each line break written `\\n`, so
    the text stays on its line: it can end no question, nor start a comment or a `$CATEGORY:` line."""
    for character in RESERVED:
        text = text.replace(character, "\\" + character)
    return text.replace("\r", "").replace("\n", "\\n")


def category_line(path: str) -> str:
    """`$CATEGORY:` and its path (common.category's, on one line). Moodle takes the rest of the paragraph as the
    path and unescapes nothing in it but a doubled backslash: `\\:` or `\\n` would stay there as `&&058;`."""
    return "$CATEGORY: " + path.replace("\\", "\\\\")


def html(text: str) -> str:
    """HTML text in GIFT: in a matching pair `->` parts item from option, and in HTML `-&gt;` reads the same."""
    return escape(text.replace("->", "-&gt;"))


def answer_html(text: str) -> str:
    """An answer's HTML: a leading `%` is written as its character reference, as `%5%` there would be read as the
    answer's weight."""
    return html("&#37;" + text[1:] if text.startswith("%") else text)


def refuses(question: Question) -> str | None:
    """Moodle's refusals, and a text with gaps, which GIFT has no way to write."""
    if question.auto_type == "blanks":
        return "GIFT has no gaps inside a text: export it as Moodle XML, where it is a cloze question"
    return moodle_refuses(question)


def notes(export: ModuleExport, question: Question) -> list[str]:
    """What GIFT carries with less than the site: whether options are shuffled, hints, a question's several
    boxes, and what Moodle then grades otherwise."""
    lines = no_hints_note(question, "GIFT")
    if question.auto_type in ("single", "multiple"):
        lines.append(f"{question.id}: GIFT cannot say that its options are shuffled: Moodle's own 'Shuffle the "
                     "choices' setting decides" if question.shuffle else
                     f"{question.id}: GIFT cannot say that its options keep their order: Moodle's 'Shuffle the "
                     "choices' setting decides (on by default), and letters its text names may then point at other "
                     "options")
    if question.auto_type == "numeric" and len(question.auto_key.fields) > 1:
        lines.append(f"{question.id}: GIFT makes a question of each of its {len(question.auto_key.fields)} boxes, "
                     "each worth a mark in a quiz where the site counts one")
    return lines + moodle_grading_notes(question, "GIFT")


def question_blocks(export: ModuleExport, question: Question) -> list[tuple[str, str]]:
    """The question's GIFT questions, each with what its name adds to the question's (a field's label, the
    explanation's): '' for the question itself."""
    auto_type, key = auto_part(question)
    name, body, feedback = export.name(question), export.body(question), export.explanation(question)
    if question.type == "open":
        return [("", block(question.id, name, body, "", feedback))]
    if auto_type in ("single", "multiple"):
        markers = export.markers(question, "options")
        fractions = ({marker: 1.0 if marker in key.correct else 0.0 for marker in markers} if auto_type == "single"
                     else choice_fractions(key, markers))
        answers = []
        for marker in markers:
            option = answer_html(export.entry_html(question, "options", marker))
            if auto_type == "single":
                answers.append(("=" if fractions[marker] == 1 else "~") + option)
            else:
                answers.append(f"~%{percent_text(fractions[marker])}%{option}")
        blocks = [("", block(question.id, name, body, "\n".join(f"\t{answer}" for answer in answers), feedback))]
    elif auto_type == "numeric":
        fields = numeric_fields(key)
        blocks = []
        for field in fields:
            label = export.field_label(question, field)
            part = "" if len(fields) == 1 else f": {export.field_label_plain(question, field)}"
            answer = f"#{number_text(field.value)}:{number_text(absolute_tolerance(field))}"
            blocks.append((part, block(f"{question.id} {field.id}", name + part, f"{body}\n<p>{label}</p>", answer,
                                       feedback)))
    elif auto_type == "matching":
        pairs = matching_pairs(key)
        lines = [f"\t={html(export.entry_html(question, 'items', item))} -> "
                 f"{escape(moodle_choice(export, question, option))}" for item, option in pairs.items()]
        lines += [f"\t= -> {escape(moodle_choice(export, question, option))}"
                  for option in export.markers(question, "options") if option not in pairs.values()]
        blocks = [("", block(question.id, name, body, "\n".join(lines), feedback))]
    else:
        raise ValueError(f"question {question.id}: no GIFT type for '{auto_type}'")
    if question.type == "mixed":
        label = export.words["explanation_label"]
        blocks.append((f": {label}", block(f"{question.id}-explanation", f"{name}: {label}",
                                           f"{body}\n<p><strong>{label}</strong></p>", "", feedback)))
    return blocks


def block(question_id: str, name: str, body: str, answers: str, feedback: str) -> str:
    """A comment with the site's id, the name, the text and its answers; the general feedback comes last."""
    general = f"####[html]{html(feedback)}" if feedback else ""
    inside = f"\n{answers}\n\t{general}\n" if answers else general
    return f"// {escape(question_id)}\n::{escape(name)}::[html]{html(body)}{{{inside}}}"
