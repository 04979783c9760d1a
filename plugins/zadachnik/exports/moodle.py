"""Moodle XML, as Moodle's question/format/xml/format.php reads it: one <quiz> per module, its questions in a
category named after the course and the module. A question with variants gets a category of its own below it, one
question per variant, for a quiz's random question to draw one.

single, multiple → multichoice; numeric → numerical (one field) or cloze (several, one NUMERICAL part each);
matching → matching; open → essay with the explanation as the grader's information; mixed → its checked part as
its own type would be, then an essay for the explanation. Every question's explanation is its general feedback."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree

from zadachnik.exports.common import (
    ModuleExport,
    absolute_tolerance,
    auto_part,
    choice_fractions,
    matching_pairs,
    moodle_choice,
    moodle_grading_notes,
    number_text,
    numeric_fields,
    percent_text,
)
from zadachnik.qtypes.blanks import ChoiceGap
from zadachnik.qtypes.choice import ChoiceKey
from zadachnik.reading.gaps import GAP_ELEMENT
from zadachnik.reading.model import Question

# Moodle's own default: a third of the mark off for each wrong try in adaptive quizzes.
PENALTY = "0.3333333"
NAME_LIMIT = 255
ESSAY_LINES = "15"


def moodle_xml(export: ModuleExport) -> bytes:
    quiz = etree.Element("quiz")
    # The importer puts each question into the category named last before it.
    current = export.category()
    quiz.append(category(current))
    for question in export.questions:
        for path, elements in placed(export, question):
            if path != current:
                quiz.append(category(path))
                current = path
            quiz.extend(elements)
    etree.indent(quiz)
    return etree.tostring(quiz, encoding="UTF-8", xml_declaration=True) + b"\n"


def file_name(export: ModuleExport) -> str:
    return f"{export.course.id}-{export.module.slug}-{export.lang}.moodle.xml"


def category(path: str) -> etree.Element:
    """The category of the course's bank (`$course$/top/Course/Module…`) the questions after it go into."""
    element = etree.Element("question", type="category")
    text(etree.SubElement(element, "category"), path)
    text(etree.SubElement(element, "info", format="html"), "")
    return element


def placed(export: ModuleExport, question: Question) -> list[tuple[str, list[etree.Element]]]:
    """A question's Moodle questions, each list with the category it goes into: the module's; or, with variants,
    a category named after the question holding one question per variant, and a mixed question's explanation
    boxes in a category beside it, so that a random draw from the first never gives one of them."""
    if question.variants is None:
        return [(export.category(), question_elements(export, question))]
    name = export.name(question)
    slots = [export.category(name), export.category(f"{name}: {export.words['explanation_label']}")]
    by_slot: dict[str, list[etree.Element]] = {}
    for variant in export.variant_questions(question):
        # A mixed question gives its checked part, then its explanation box.
        for slot, element in zip(slots, question_elements(export, variant), strict=False):
            by_slot.setdefault(slot, []).append(element)
    return list(by_slot.items())


def question_elements(export: ModuleExport, question: Question) -> list[etree.Element]:
    auto_type, key = auto_part(question)
    if question.type == "open":
        return [essay(export, question, export.name(question), question.id, export.body(question))]
    if auto_type in ("single", "multiple"):
        elements = [multichoice(export, question, key)]
    elif auto_type == "numeric":
        fields = numeric_fields(key)
        elements = [numerical(export, question) if len(fields) == 1 else cloze(export, question)]
    elif auto_type == "matching":
        elements = [matching(export, question)]
    elif auto_type == "blanks":
        elements = [blanks_cloze(export, question)]
    else:
        raise ValueError(f"question {question.id}: no Moodle type for '{auto_type}'")
    # The hints, in order, for Moodle's interactive behaviour to show one after each wrong try.
    for hint in question.hints:
        text(etree.SubElement(elements[0], "hint", format="html"), export.hint(question, hint))
    if question.type == "mixed":
        label = export.words["explanation_label"]
        # A variant's own box (its category holds only boxes) is not in explanation_ids.
        box_id = export.explanation_ids.get(question.id, f"{question.id}-explanation")
        elements.append(essay(export, question, f"{export.name(question)}: {label}", box_id,
                              f"{export.body(question)}\n<p><strong>{label}</strong></p>"))
    return elements


def header(export: ModuleExport, question: Question, qtype: str, name: str, idnumber: str,
           question_text: str) -> etree.Element:
    element = etree.Element("question", type=qtype)
    text(etree.SubElement(element, "name"), name[:NAME_LIMIT])
    text(etree.SubElement(element, "questiontext", format="html"), question_text)
    text(etree.SubElement(element, "generalfeedback", format="html"), export.explanation(question))
    # Moodle reads none for cloze: its mark is its parts' (moodle_cloze_marks, which a line reports).
    if qtype != "cloze":
        etree.SubElement(element, "defaultgrade").text = "1"
    etree.SubElement(element, "penalty").text = PENALTY
    etree.SubElement(element, "hidden").text = "0"
    etree.SubElement(element, "idnumber").text = idnumber
    return element


def multichoice(export: ModuleExport, question: Question, key: ChoiceKey) -> etree.Element:
    element = header(export, question, "multichoice", export.name(question), question.id, export.body(question))
    auto_type, _ = auto_part(question)
    markers = export.markers(question, "options")
    etree.SubElement(element, "single").text = "true" if auto_type == "single" else "false"
    etree.SubElement(element, "shuffleanswers").text = "true" if question.shuffle else "false"
    # The site's markers: 1, 2, … or A, B, …
    etree.SubElement(element, "answernumbering").text = "123" if markers[0].isdigit() else "ABCD"
    etree.SubElement(element, "showstandardinstruction").text = "0"
    for name in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
        text(etree.SubElement(element, name, format="html"), "")
    fractions = ({marker: 1.0 if marker in key.correct else 0.0 for marker in markers} if auto_type == "single"
                 else choice_fractions(key, markers))
    for marker in markers:
        answer = etree.SubElement(element, "answer", fraction=percent_text(fractions[marker]), format="html")
        text(answer, export.entry_html(question, "options", marker))
        text(etree.SubElement(answer, "feedback", format="html"), "")
    return element


def numerical(export: ModuleExport, question: Question) -> etree.Element:
    [field] = numeric_fields(auto_part(question)[1])
    body = f"{export.body(question)}\n<p>{export.field_label(question, field)}</p>"
    element = header(export, question, "numerical", export.name(question), question.id, body)
    answer = etree.SubElement(element, "answer", fraction="100", format="plain_text")
    text(answer, number_text(field.value))
    etree.SubElement(answer, "tolerance").text = number_text(absolute_tolerance(field))
    text(etree.SubElement(answer, "feedback", format="html"), "")
    unit = export.unit(field)
    if unit:
        units = etree.SubElement(etree.SubElement(element, "units"), "unit")
        etree.SubElement(units, "multiplier").text = "1"
        etree.SubElement(units, "unit_name").text = unit
    # Units are optional: the number alone is graded, as on the site, where the unit stands beside the box.
    etree.SubElement(element, "unitgradingtype").text = "0"
    etree.SubElement(element, "unitpenalty").text = "0"
    etree.SubElement(element, "showunits").text = "0" if unit else "3"
    etree.SubElement(element, "unitsleft").text = "0"
    return element


def cloze(export: ModuleExport, question: Question) -> etree.Element:
    """One NUMERICAL part per field after its label: `{1:NUMERICAL:=answer:tolerance}`."""
    lines = [export.body(question)]
    for field in numeric_fields(auto_part(question)[1]):
        part = f"{{1:NUMERICAL:={number_text(field.value)}:{number_text(absolute_tolerance(field))}}}"
        lines.append(f"<p>{export.field_label(question, field)}: {part}</p>")
    return header(export, question, "cloze", export.name(question), question.id, "\n".join(lines))


# Signs Moodle's cloze reader acts on inside an answer: `~ # }` end it, `=` or `%…%` at its start is its mark, `{`
# may open a part, and `&` opens a character reference, which it decodes. Each is written as a reference.
_CLOZE_REFERENCES = {ord(sign): f"&#{ord(sign)};" for sign in "&~#}{=%"}


def cloze_word(word: str) -> str:
    """A drop-down's word as a MULTICHOICE answer. Moodle decodes the answer's references, drops the backslash of
    `\\}` and `\\#`, and stores the rest as the answer's HTML, which the list shows as HTML. So: the word's HTML, a
    backslash as its reference (no `\\}` left to lose it), then every sign the reader acts on as a reference."""
    return html.escape(word, quote=False).replace("\\", "&#92;").translate(_CLOZE_REFERENCES)


def blanks_cloze(export: ModuleExport, question: Question) -> etree.Element:
    """The text with each gap a part where it stands: `{1:NUMERICAL:=answer:tolerance}` (its unit after it), or
    `{1:MULTICHOICE:=right~other}` (a drop-down list, in the author's order)."""
    def part(match: re.Match[str]) -> str:
        gap = gaps.get(match[1])
        if gap is None:
            return match[0]
        if isinstance(gap, ChoiceGap):
            words = [cloze_word(word) for word in gap.options[export.lang]]
            return "{1:MULTICHOICE:" + "~".join(("=" if index == gap.answer else "") + word
                                                 for index, word in enumerate(words, start=1)) + "}"
        unit = export.unit(gap)
        # The unit after the box, as the page shows it: the number alone is graded, and the unit says which.
        after = f" {html.escape(unit, quote=False)}" if unit else ""
        return f"{{1:NUMERICAL:={number_text(gap.value)}:{number_text(absolute_tolerance(gap))}}}{after}"

    gaps = {gap.id: gap for gap in auto_part(question)[1].gaps}
    return header(export, question, "cloze", export.name(question), question.id,
                  GAP_ELEMENT.sub(part, export.body(question)))


def matching(export: ModuleExport, question: Question) -> etree.Element:
    element = header(export, question, "matching", export.name(question), question.id, export.body(question))
    etree.SubElement(element, "shuffleanswers").text = "true" if question.shuffle else "false"
    for name in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
        text(etree.SubElement(element, name, format="html"), "")
    pairs = matching_pairs(auto_part(question)[1])
    for item, option in pairs.items():
        subquestion = etree.SubElement(element, "subquestion", format="html")
        text(subquestion, export.entry_html(question, "items", item))
        text(etree.SubElement(subquestion, "answer"), moodle_choice(export, question, option))
    # Options no item takes: Moodle's distractors, a subquestion without text.
    for option in export.markers(question, "options"):
        if option not in pairs.values():
            subquestion = etree.SubElement(element, "subquestion", format="html")
            text(subquestion, "")
            text(etree.SubElement(subquestion, "answer"), moodle_choice(export, question, option))
    return element


def essay(export: ModuleExport, question: Question, name: str, idnumber: str, question_text: str) -> etree.Element:
    element = header(export, question, "essay", name, idnumber, question_text)
    etree.SubElement(element, "responseformat").text = "editor"
    etree.SubElement(element, "responserequired").text = "1"
    etree.SubElement(element, "responsefieldlines").text = ESSAY_LINES
    etree.SubElement(element, "attachments").text = "0"
    etree.SubElement(element, "attachmentsrequired").text = "0"
    text(etree.SubElement(element, "graderinfo", format="html"), export.explanation(question))
    text(etree.SubElement(element, "responsetemplate", format="html"), "")
    return element


def text(parent: etree.Element, value: str) -> None:
    etree.SubElement(parent, "text").text = value


def notes(export: ModuleExport, question: Question) -> list[str]:
    """What Moodle XML carries with less than the site (a checked question's hints go in as Moodle's hints)."""
    lines = moodle_grading_notes(question, "Moodle XML")
    if moodle_cloze_marks(question) > 1:
        lines.append(cloze_marks_note(question))
    if (box_id := export.explanation_ids.get(question.id)) not in (None, f"{question.id}-explanation"):
        lines.append(f"{question.id}: its explanation box goes into Moodle XML as {box_id}: "
                     f"{question.id}-explanation is another question's id")
    return lines


def moodle_cloze_marks(question: Question) -> int:
    """What a question weighs in a Moodle quiz: Moodle XML makes a cloze question of several numeric fields or of a
    text with gaps, and Moodle adds up its parts' marks, one each (its import reads no <defaultgrade> for cloze, and
    a part's mark is a whole number); any other question weighs 1, as every question does on the site."""
    if question.auto_type == "numeric":
        return len(question.auto_key.fields)
    if question.auto_type == "blanks":
        return len(question.auto_key.gaps)
    return 1


def cloze_marks_note(question: Question) -> str:
    marks = moodle_cloze_marks(question)
    parts = "boxes" if question.auto_type == "numeric" else "gaps"
    return (f"{question.id}: in Moodle XML its {marks} {parts} are worth a mark each, {marks} marks in a quiz where "
            "the site counts one (a cloze question's mark is its parts', which the file cannot set): give it a mark "
            "of 1 in the quiz")
