"""`zadachnik export`: Moodle XML, GIFT and QTI 2.1 files that hold every exportable question of a course with its
type, correct answers and tolerances, read back the way the importers read them (Moodle's
question/format/xml/format.php and question/format/gift/format.php, the QTI 2.1 information model)."""

from __future__ import annotations

import html
import io
import json
import math
import re
import shutil
import xml.etree.ElementTree as etree
import zipfile
from pathlib import Path

import pytest
from support import canvas
from support.caching import edit
from support.canvas import canvas_package
from support.cloze import question_mark, read_cloze, shown
from support.exports import (
    CLOZE_NUMERICAL,
    QTI,
    SOURCES,
    GiftQuestion,
    gift_paragraphs,
    parse_gift,
    qti_bounds,
    qti_score,
    qti_value,
    run_export,
    text_of,
)
from support.sites import FIXTURE_SITE, ROOT, copy_site
from zadachnik.cli import main
from zadachnik.exports import formats, write_whole
from zadachnik.exports.common import NO_LMS_TYPE, TextRenderer, absolute_tolerance, number_text
from zadachnik.qtypes.mixed import MixedKey
from zadachnik.reading.model import Question, load_courses
from zadachnik.rendering.i18n import strings

CASES = [(name, lang) for name, (_, languages) in SOURCES.items() for lang in languages]


def questions_of(source: str, export_format: str | None = None) -> dict[str, dict[str, Question]]:
    """Per module file stem (course-module), the questions an export must hold, by id: a question with variants
    as one question per variant, P02-v1, P02-v2 … (test_export_variants.py checks how they are grouped). None of
    the types no LMS takes, nor what the format refuses (Moodle's formats have no ordering questions,
    GIFT no blanks: tests/core/test_ordering.py, test_blanks.py)."""
    refuses = formats()[export_format].refuses if export_format else (lambda question: None)
    exercises, languages = SOURCES[source]
    found = {}
    for course in load_courses(exercises, languages, exercises.parent):
        for module in course.modules:
            exportable: dict[str, Question] = {}
            for question in module.questions:
                if question.type in NO_LMS_TYPE or refuses(question):
                    continue
                if question.variants is None:
                    exportable[question.id] = question
                    continue
                for item, variant in zip(question.variants.items, question.variant_questions, strict=True):
                    exportable[f"{question.id}-v{item.number}"] = variant
            if exportable:
                found[f"{course.id}-{module.slug}"] = exportable
    return found


def auto(question: Question) -> tuple[str, object]:
    if isinstance(question.key, MixedKey):
        return question.key.auto.name, question.key.key
    return question.type, question.key


def expected_fractions(question: Question) -> list[float]:
    """Each option's fraction in the site's order, written independently of the exporter."""
    kind, key = auto(question)
    markers = [entry.key for entry in question.lists["options"]]
    if kind == "single":
        return [1.0 if marker in key.correct else 0.0 for marker in markers]
    share = 1 / len(key.correct)
    wrong = -share if key.scoring == "net-correct" else -1.0
    return [share if marker in key.correct else wrong for marker in markers]


def close(text: str, number: float) -> bool:
    return math.isclose(float(text), number, rel_tol=1e-12, abs_tol=1e-15)


def test_relative_tolerances_become_the_absolute_distance_they_allow() -> None:
    from zadachnik.qtypes.numeric import NumericField

    assert absolute_tolerance(NumericField("x", "78", 78.0, rtol=0.01)) == pytest.approx(0.78)
    assert absolute_tolerance(NumericField("x", "-12.5", -12.5, atol=0.1, rtol=0.02)) == pytest.approx(0.25)
    assert absolute_tolerance(NumericField("x", "2", 2.0, atol=0.5, rtol=0.01)) == 0.5
    assert absolute_tolerance(NumericField("x", "2", 2.0)) == 0
    assert [number_text(value) for value in (84.0, 1e-06, 78.2310962677002, -0.25, 1e20)] == [
        "84", "0.000001", "78.2310962677002", "-0.25", "100000000000000000000"]


def moodle_accepts(value: float, answer: float, tolerance: float) -> bool:
    """Moodle's numerical question: within the tolerance, plus its own 1e-14·max(1, |answer|)."""
    return abs(value - answer) <= tolerance + 1e-14 * max(1.0, abs(answer))


@pytest.mark.parametrize("source", list(SOURCES))
def test_the_answer_each_page_reveals_is_within_the_exported_tolerance(source: str) -> None:
    """What the site reveals (and accepts) as the answer, an LMS grading with the exported tolerance accepts too:
    an exact answer such as 1/3, revealed as 0.3333333333, was exported with tolerance 0."""
    from zadachnik.core.formatting import conventions, rounded_answer
    from zadachnik.core.numbers import read_number

    fields = [(numeric_field, lang) for questions in questions_of(source).values()
              for question in questions.values()
              for numeric_field in (question.auto_key.fields if question.auto_type == "numeric" else [])
              for lang in SOURCES[source][1]]
    assert fields
    for numeric_field, lang in fields:
        shown = rounded_answer(numeric_field.value, numeric_field.atol, numeric_field.rtol, lang)
        revealed = read_number(shown.removeprefix("≈ "), conventions(lang))
        assert moodle_accepts(revealed["value"], numeric_field.value, absolute_tolerance(numeric_field)), (
            numeric_field, lang)


def test_an_exact_answer_the_page_can_only_round_gets_the_sites_slack() -> None:
    from zadachnik.qtypes.numeric import NumericField

    third = NumericField("x", "1/3", 1 / 3)
    assert moodle_accepts(0.3333333333, 1 / 3, absolute_tolerance(third))
    assert not moodle_accepts(0.33333, 1 / 3, absolute_tolerance(third))
    assert absolute_tolerance(NumericField("x", "4", 4.0)) == 0


# -- Moodle XML --------------------------------------------------------------------------------------------------


def moodle_questions(path: Path) -> tuple[str, dict[str, list[etree.Element]]]:
    root = etree.parse(path).getroot()
    assert root.tag == "quiz"
    questions = root.findall("question")
    assert questions[0].get("type") == "category"
    by_id: dict[str, list[etree.Element]] = {}
    for question in questions[1:]:
        if question.get("type") == "category":  # a question's variants, in a category of their own
            continue
        idnumber = question.findtext("idnumber")
        by_id.setdefault(idnumber.removesuffix("-explanation"), []).append(question)
    return text_of(questions[0], "category"), by_id


@pytest.mark.parametrize(("source", "lang"), CASES)
def test_moodle_xml_holds_every_exportable_question_with_its_type_key_and_tolerance(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, lang: str) -> None:
    status, out, err, folder = run_export(tmp_path, "moodle", lang, source, capsys)
    assert status == 0, err
    expected = questions_of(source, "moodle")
    assert sorted(path.name for path in folder.iterdir()) == sorted(f"{stem}-{lang}.moodle.xml" for stem in expected)
    for stem, questions in expected.items():
        category, exported = moodle_questions(folder / f"{stem}-{lang}.moodle.xml")
        assert category.startswith("$course$/top/")
        # References ([[P01]]) and links to the site's own pages become their text: an LMS has no such page.
        texts = [text.text or "" for text in etree.parse(folder / f"{stem}-{lang}.moodle.xml").iter("text")]
        assert not [text for text in texts if re.search(r'href="(?![a-z]+:)', text)]
        assert sorted(exported) == sorted(questions)
        for question_id, question in questions.items():
            elements = exported[question_id]
            first = elements[0]
            assert text_of(first, "name").startswith(question_id)
            assert first.find("questiontext").get("format") == "html"
            kind, key = auto(question)
            if question.type == "open":
                assert [element.get("type") for element in elements] == ["essay"]
                assert text_of(first, "graderinfo") == text_of(first, "generalfeedback") != ""
                continue
            if question.type == "mixed":
                assert elements[1].get("type") == "essay" and text_of(elements[1], "graderinfo")
            if kind in ("single", "multiple"):
                assert first.get("type") == "multichoice"
                assert first.findtext("single") == ("true" if kind == "single" else "false")
                fractions = [float(answer.get("fraction")) / 100 for answer in first.findall("answer")]
                assert fractions == pytest.approx(expected_fractions(question), abs=1e-6)
            elif kind == "numeric":
                if len(key.fields) == 1:
                    assert first.get("type") == "numerical"
                    [answer] = first.findall("answer")
                    parts = [(answer.findtext("text"), answer.findtext("tolerance"))]
                    units = [unit.findtext("unit_name") for unit in first.iter("unit")]
                    unit = key.fields[0].unit
                    assert units == ([unit.get(lang) if isinstance(unit, dict) else unit] if unit else [])
                else:
                    assert first.get("type") == "cloze"
                    assert first.find("defaultgrade") is None
                    parts = [(value, tolerance) for _, value, tolerance in
                             CLOZE_NUMERICAL.findall(text_of(first, "questiontext"))]
                assert len(parts) == len(key.fields)
                for (value, tolerance), numeric in zip(parts, key.fields, strict=True):
                    assert close(value, numeric.value)
                    assert close(tolerance, max(numeric.atol or 0, (numeric.rtol or 0) * abs(numeric.value)))
            elif kind == "matching":
                assert first.get("type") == "matching"
                plain = TextRenderer().plain
                # As HTML: Moodle shows the text through format_string, which strips tags.
                options = {entry.key: html.escape(plain(entry.text[lang].markdown), quote=False)
                           for entry in question.lists["options"]}
                subquestions = first.findall("subquestion")
                # The items with their options, in order, then the options no item takes, with no text.
                distractors = [options[marker] for marker in options if marker not in key.pairs.values()]
                assert [text_of(sub, "answer") for sub in subquestions] == [
                    *(options[option] for option in key.pairs.values()), *distractors]
                assert [bool(text_of(sub)) for sub in subquestions] == [True] * len(key.pairs) + [False] * len(
                    distractors)
            elif kind == "blanks":
                # One cloze part where each gap stands: a number with its tolerance, or a drop-down list.
                assert first.get("type") == "cloze"
                parts, _ = read_cloze(text_of(first, "questiontext"))
                numbers = [part for part in parts if part.kind == "NUMERICAL"]
                lists = [part for part in parts if part.kind == "MULTICHOICE"]
                gaps = key.gaps
                assert len(numbers) + len(lists) == len(parts) == len(gaps)
                for part, gap in zip(numbers, [gap for gap in gaps if hasattr(gap, "value")], strict=True):
                    [answer] = part.answers
                    assert answer.fraction == 1 and close(answer.text, gap.value)
                    assert close(answer.tolerance, gap.atol or 0)
                for part, gap in zip(lists, [gap for gap in gaps if hasattr(gap, "options")], strict=True):
                    assert [(answer.fraction, shown(answer.text)) for answer in part.answers] == [
                        (1.0 if index == gap.answer else 0.0, word)
                        for index, word in enumerate(gap.options[lang], start=1)]
            else:
                pytest.fail(f"{question_id}: unexpected type {kind}")
    lines = [line for line in out.splitlines() if "left out" in line]
    code = [question.id for course in load_courses(*SOURCES[source], SOURCES[source][0].parent)
            for module in course.modules for question in module.questions
            if question.type in NO_LMS_TYPE or formats()["moodle"].refuses(question)]
    assert sorted(line.split(": ")[2] for line in lines) == sorted(code)


def test_moodle_xml_keeps_signs_and_braces_and_math_for_mathjax(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err, folder = run_export(tmp_path, "moodle", "en", "signs", capsys)
    assert status == 0, err
    raw = (folder / "signs-01-signs-en.moodle.xml").read_text(encoding="utf-8")
    category, questions = moodle_questions(folder / "signs-01-signs-en.moodle.xml")
    assert category == "$course$/top/Signs & {braces}/Less < more: a//b"
    single = questions["S1"][0]
    assert text_of(single, "name") == "S1 Is a < b & {c}?"
    body = text_of(single, "questiontext")
    assert "<code>if a &lt; b &amp;&amp; c {</code>" in body
    assert "in prose a &lt; b &amp; {c} = ~d #e: f" in body
    assert r"\(\{x \mid x&lt;1\}\)" in body and "a $5 note" in body
    assert [text_of(answer) for answer in single.findall("answer")] == [
        "a &lt; b &amp; {c}", "{d} = ~e #f: g -&gt; h", "\\ and \\n stay"]
    assert r"\(\{x : x &lt; 1\}\)" in text_of(single, "generalfeedback")
    # The file itself escapes the HTML once more: no raw '<' of the author's text in an XML text node.
    assert "a &amp;lt; b &amp;amp; {c}" in raw
    matching = questions["S4"][0]
    assert [(text_of(sub), text_of(sub, "answer")) for sub in matching.findall("subquestion")] == [
        ("a -&gt; b {1}", "arrow = #1"), ("c &lt; d", "less &amp; {more}"), ("", "unused ~ distractor")]
    [answer] = questions["S3"][0].findall("answer")
    assert (answer.findtext("text"), answer.findtext("tolerance")) == ("-12.5", "0.25")


# -- GIFT --------------------------------------------------------------------------------------------------------


def category_names(path: str) -> list[str]:
    """qformat_default::split_category_path: a single slash parts names, a doubled one is a slash in a name."""
    return [name.replace("//", "/").strip() for name in re.split(r"(?<!/)/(?!/)", path)]


@pytest.mark.parametrize(("source", "lang"), CASES)
def test_gift_round_trip_gives_back_every_key_and_tolerance(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            source: str, lang: str) -> None:
    status, _, err, folder = run_export(tmp_path, "gift", lang, source, capsys)
    assert status == 0, err
    for stem, questions in questions_of(source, "gift").items():
        category, parsed = parse_gift((folder / f"{stem}-{lang}.gift.txt").read_text(encoding="utf-8"))
        assert category.startswith("$course$/top/")
        by_id: dict[str, list[GiftQuestion]] = {}
        for question in parsed:
            by_id.setdefault(question.name.split(" ")[0], []).append(question)
        assert sorted(by_id) == sorted(questions)
        for question_id, question in questions.items():
            exported = by_id[question_id]
            kind, key = auto(question)
            assert all(item.general_feedback for item in exported), question_id
            if question.type == "open":
                assert [item.qtype for item in exported] == ["essay"]
                continue
            if question.type == "mixed":
                assert exported[-1].qtype == "essay"
                exported = exported[:-1]
            if kind in ("single", "multiple"):
                [choice] = exported
                assert choice.qtype == "multichoice" and choice.single == (kind == "single")
                assert [weight for weight, _ in choice.answers] == pytest.approx(expected_fractions(question),
                                                                                  abs=1e-6)
            elif kind == "numeric":
                assert [item.qtype for item in exported] == ["numerical"] * len(key.fields)
                for item, numeric in zip(exported, key.fields, strict=True):
                    [(value, tolerance)] = item.answers
                    assert value == pytest.approx(numeric.value, rel=1e-12)
                    assert tolerance == pytest.approx(max(numeric.atol or 0, (numeric.rtol or 0) * abs(numeric.value)),
                                                      rel=1e-12, abs=1e-15)
            elif kind == "matching":
                [match] = exported
                assert match.qtype == "match"
                options = [entry.key for entry in question.lists["options"]]
                assert len(match.answers) == len(options)
                assert len([item for item, _ in match.answers if item]) == len(key.pairs)


def test_gift_round_trip_keeps_reserved_characters_signs_and_math(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err, folder = run_export(tmp_path, "gift", "en", "signs", capsys)
    assert status == 0, err
    category, parsed = parse_gift((folder / "signs-01-signs-en.gift.txt").read_text(encoding="utf-8"))
    assert category == "$course$/top/Signs & {braces}/Less < more: a//b"
    questions = {question.name.split(" ")[0]: question for question in parsed}
    single = questions["S1"]
    assert single.name == "S1 Is a < b & {c}?"
    assert "<code>if a &lt; b &amp;&amp; c {</code>" in single.text
    assert "in prose a &lt; b &amp; {c} = ~d #e: f" in single.text
    assert r"\(\{x \mid x&lt;1\}\)" in single.text
    assert single.answers == [(0.0, "a &lt; b &amp; {c}"), (1.0, "{d} = ~e #f: g -&gt; h"),
                              (0.0, "\\ and \\n stay")]
    assert single.general_feedback == r"<p>Because \(\{x : x &lt; 1\}\) &amp; {y}.</p>"
    assert questions["S3"].answers == [(-12.5, 0.25)]
    assert "<p>Speed {v} &lt; 0 (m/s)</p>" in questions["S3"].text
    assert questions["S4"].answers == [("a -&gt; b {1}", "arrow = #1"), ("c &lt; d", "less &amp; {more}"),
                                       ("", "unused ~ distractor")]
    assert questions["S5"].qtype == "essay"


# -- QTI 2.1 -----------------------------------------------------------------------------------------------------

CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}"
XSI_LOCATION = "{http://www.w3.org/2001/XMLSchema-instance}schemaLocation"
NCNAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
# The information model's assessmentItem children, in the order the binding requires.
ITEM_ORDER = ["responseDeclaration", "outcomeDeclaration", "templateDeclaration", "templateProcessing",
              "stylesheet", "itemBody", "responseProcessing", "modalFeedback"]
# What QTI 2.1 allows in an itemBody: its XHTML subset and the interactions and blocks the export writes.
XHTML = {"a", "abbr", "acronym", "address", "b", "big", "blockquote", "br", "caption", "cite", "code", "col",
         "colgroup", "dd", "dfn", "div", "dl", "dt", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "kbd",
         "li", "ol", "p", "pre", "q", "samp", "small", "span", "strong", "sub", "sup", "table", "tbody", "td", "tfoot",
         "th", "thead", "tr", "tt", "ul", "var"}
QTI_BODY = {"choiceInteraction", "simpleChoice", "textEntryInteraction", "matchInteraction", "simpleMatchSet",
            "simpleAssociableChoice", "orderInteraction", "extendedTextInteraction", "rubricBlock",
            "inlineChoiceInteraction", "inlineChoice"}
INLINE_PARENTS = {"p", "span", "em", "strong", "li", "td", "th", "div"}


def local(element: etree.Element) -> str:
    assert element.tag.startswith(QTI), f"{element.tag} is not in QTI 2.1's namespace"
    return element.tag[len(QTI):]


def qti_items(package: Path) -> tuple[list[str], dict[str, etree.Element]]:
    """The package read as an importer reads it: the manifest's resources, each file they name."""
    with zipfile.ZipFile(package) as archive:
        names = set(archive.namelist())
        manifest = etree.parse(io.BytesIO(archive.read("imsmanifest.xml"))).getroot()
        assert manifest.tag == f"{CP}manifest"
        assert manifest.findtext(f"{CP}metadata/{CP}schema") == "QTIv2.1 Package"
        resources = manifest.findall(f"{CP}resources/{CP}resource")
        identifiers = {resource.get("identifier") for resource in resources}
        items: dict[str, etree.Element] = {}
        test_refs: list[str] = []
        for resource in resources:
            href = resource.get("href")
            assert href in names and [file.get("href") for file in resource.findall(f"{CP}file")] == [href]
            assert all(dependency.get("identifierref") in identifiers
                       for dependency in resource.findall(f"{CP}dependency"))
            root = etree.parse(io.BytesIO(archive.read(href))).getroot()
            assert root.get(XSI_LOCATION, "").startswith("http://www.imsglobal.org/xsd/imsqti_v2p1 ")
            if resource.get("type") == "imsqti_test_xmlv2p1":
                assert local(root) == "assessmentTest"
                test_refs = [ref.get("href") for ref in root.iter(f"{QTI}assessmentItemRef")]
            else:
                assert resource.get("type") == "imsqti_item_xmlv2p1"
                assert local(root) == "assessmentItem"
                items[href] = root
        assert sorted(test_refs) == sorted(items)
    return test_refs, {item.get("identifier"): item for item in items.values()}


def check_item_structure(item: etree.Element) -> None:
    """What the information model requires of every item the export writes."""
    for attribute in ("identifier", "title", "adaptive", "timeDependent"):
        assert item.get(attribute), f"assessmentItem without {attribute}"
    assert NCNAME.match(item.get("identifier"))
    order = [ITEM_ORDER.index(local(child)) for child in item]
    assert order == sorted(order), [local(child) for child in item]
    responses = {declaration.get("identifier"): declaration
                 for declaration in item.findall(f"{QTI}responseDeclaration")}
    outcomes = {declaration.get("identifier") for declaration in item.findall(f"{QTI}outcomeDeclaration")}
    assert {"SCORE", "MAXSCORE"} <= outcomes
    for declaration in [*responses.values(), *item.findall(f"{QTI}outcomeDeclaration")]:
        assert NCNAME.match(declaration.get("identifier")) and declaration.get("cardinality") and declaration.get(
            "baseType")
    body = item.find(f"{QTI}itemBody")
    interactions = [element for element in body.iter() if local(element).endswith("Interaction")]
    assert interactions
    for interaction in interactions:
        assert interaction.get("responseIdentifier") in responses
    parents = {child: parent for parent in body.iter() for child in parent}
    for element in body.iter():
        if element is not body:
            assert local(element) in XHTML | QTI_BODY, f"{local(element)} is not allowed in an itemBody"
        if local(element) in ("textEntryInteraction", "inlineChoiceInteraction"):
            assert local(parents[element]) in INLINE_PARENTS - {"div"}, "an inline interaction outside a paragraph"
        for choice in ("simpleChoice", "simpleAssociableChoice", "inlineChoice"):
            if local(element) == choice:
                assert NCNAME.match(element.get("identifier"))
    processing = item.find(f"{QTI}responseProcessing")
    for variable in [*processing.iter(f"{QTI}correct"), *processing.iter(f"{QTI}mapResponse")]:
        assert variable.get("identifier") in responses
    # A variable may also be an outcome: a text with gaps adds each right gap's share to SCORE.
    for variable in processing.iter(f"{QTI}variable"):
        assert variable.get("identifier") in responses.keys() | outcomes
    for setter in processing.iter(f"{QTI}setOutcomeValue"):
        assert setter.get("identifier") in outcomes
    for feedback in item.findall(f"{QTI}modalFeedback"):
        assert feedback.get("outcomeIdentifier") in outcomes and feedback.get("showHide") in ("show", "hide")


@pytest.mark.parametrize(("source", "lang"), CASES)
def test_qti_package_holds_every_exportable_question_with_its_interaction_key_and_tolerance(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, lang: str) -> None:
    status, _, err, folder = run_export(tmp_path, "qti", lang, source, capsys)
    assert status == 0, err
    expected = questions_of(source, "qti")
    assert sorted(path.name for path in folder.iterdir()) == sorted(f"{stem}-{lang}.qti21.zip" for stem in expected)
    for stem, questions in expected.items():
        order, items = qti_items(folder / f"{stem}-{lang}.qti21.zip")
        assert sorted(items) == sorted(f"Q-{question_id}" for question_id in questions)
        assert order == [f"items/Q-{question_id}.xml" for question_id in questions]
        for question_id, question in questions.items():
            item = items[f"Q-{question_id}"]
            check_item_structure(item)
            assert item.get("title").startswith(question_id)
            body = item.find(f"{QTI}itemBody")
            responses = {declaration.get("identifier"): declaration
                         for declaration in item.findall(f"{QTI}responseDeclaration")}
            kinds = sorted(local(element) for element in body.iter() if local(element).endswith("Interaction"))
            assert item.find(f"{QTI}modalFeedback") is not None
            if question.type in ("open", "mixed"):
                assert "extendedTextInteraction" in kinds
                rubric = body.find(f"{QTI}rubricBlock")
                assert rubric.get("view") == "scorer" and "".join(rubric.itertext()).strip()
            if question.type == "open":
                assert kinds == ["extendedTextInteraction"]
                continue
            kind, key = auto(question)
            if kind in ("single", "multiple"):
                [interaction] = body.iter(f"{QTI}choiceInteraction")
                markers = [entry.key for entry in question.lists["options"]]
                assert interaction.get("maxChoices") == ("1" if kind == "single" else str(len(markers)))
                assert [choice.get("identifier") for choice in interaction] == [f"C-{marker}" for marker in markers]
                declaration = responses["RESPONSE"]
                assert declaration.get("cardinality") == ("single" if kind == "single" else "multiple")
                assert qti_value(declaration) == [f"C-{marker}" for marker in key.correct]
                mapping = declaration.find(f"{QTI}mapping")
                if kind == "multiple" and key.scoring == "net-correct":
                    assert mapping.get("lowerBound") == "0"
                    mapped = [float(entry.get("mappedValue")) for entry in mapping]
                    assert mapped == pytest.approx(expected_fractions(question))
                else:
                    assert mapping is None
                    assert item.find(f"{QTI}responseProcessing//{QTI}match") is not None
            elif kind == "numeric":
                boxes = list(body.iter(f"{QTI}textEntryInteraction"))
                assert len(boxes) == len(key.fields)
                bounds = qti_bounds(item)
                for box, numeric in zip(boxes, key.fields, strict=True):
                    response = box.get("responseIdentifier")
                    assert responses[response].get("baseType") == "float"
                    [value] = qti_value(responses[response])
                    assert close(value, numeric.value)
                    tolerance = absolute_tolerance(numeric)
                    assert bounds[response] == pytest.approx((numeric.value - tolerance, numeric.value + tolerance),
                                                             rel=1e-12, abs=1e-15)
            elif kind == "matching":
                [interaction] = body.iter(f"{QTI}matchInteraction")
                item_set, option_set = interaction.findall(f"{QTI}simpleMatchSet")
                assert [choice.get("identifier") for choice in item_set] == [
                    f"I-{entry.key}" for entry in question.lists["items"]]
                assert [choice.get("identifier") for choice in option_set] == [
                    f"O-{entry.key}" for entry in question.lists["options"]]
                assert responses["RESPONSE"].get("baseType") == "directedPair"
                assert qti_value(responses["RESPONSE"]) == [f"I-{item_key} O-{option}"
                                                            for item_key, option in key.pairs.items()]
            elif kind == "blanks":
                # Where each gap stands: a box for a number, its words for a choice; each gap right earns its share.
                found = {box.get("responseIdentifier"): box for box in body.iter()
                         if local(box) in ("textEntryInteraction", "inlineChoiceInteraction")}
                assert sorted(found) == sorted(f"RESPONSE-{gap.id}" for gap in key.gaps)
                rules = {rule.find(f"{QTI}variable").get("identifier"): rule
                         for rule in item.iter() if local(rule) in ("equal", "gte", "match")}
                for gap in key.gaps:
                    response = f"RESPONSE-{gap.id}"
                    [value] = qti_value(responses[response])
                    if hasattr(gap, "options"):
                        assert local(found[response]) == "inlineChoiceInteraction"
                        assert [choice.text for choice in found[response]] == gap.options[lang]
                        assert value == f"W-{gap.id}-{gap.answer}"
                        assert local(rules[response]) == "match"
                    else:
                        assert local(found[response]) == "textEntryInteraction"
                        assert responses[response].get("baseType") == "float" and close(value, gap.value)
                        assert local(rules[response]) in ("equal", "gte")
                right = {f"RESPONSE-{gap.id}": f"W-{gap.id}-{gap.answer}" if hasattr(gap, "options") else gap.value
                         for gap in key.gaps}
                assert qti_score(item, right) == (1.0, 1.0)
                score, _ = qti_score(item, {**right, f"RESPONSE-{key.gaps[0].id}": None})
                assert score == pytest.approx(1 - 1 / len(key.gaps), abs=1e-6)


def test_qti_keeps_signs_and_braces_and_math(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err, folder = run_export(tmp_path, "qti", "en", "signs", capsys)
    assert status == 0, err
    _, items = qti_items(folder / "signs-01-signs-en.qti21.zip")
    single = items["Q-S1"]
    assert single.get("title") == "S1 Is a < b & {c}?"
    body = "".join(single.find(f"{QTI}itemBody").itertext())
    assert "if a < b && c {" in body and "in prose a < b & {c} = ~d #e: f" in body
    assert r"\(\{x \mid x<1\}\)" in body
    assert ["".join(choice.itertext()) for choice in single.iter(f"{QTI}simpleChoice")] == [
        "a < b & {c}", "{d} = ~e #f: g -> h", "\\ and \\n stay"]
    [code] = single.iter(f"{QTI}code")
    assert code.text == "if a < b && c {"
    assert list(qti_bounds(items["Q-S3"]).values()) == [(-12.75, -12.25)]



# -- Canvas ------------------------------------------------------------------------------------------------------
# Canvas's importer (support/canvas.py mirrors it) sends each item to a converter by the manifest's hints or by a
# guess from the item's interactions, and each converter keeps only what it reads: the audit found tolerances,
# explanations, orders and the module's section lost or changed without an error.


def canvas_expected(question: Question) -> tuple[str, str | None]:
    """The Canvas converter (and custom type) that keeps a question's meaning, or comes nearest to it."""
    kind, key = auto(question)
    if question.type == "open":
        return "ExtendedTextInteraction", None
    if kind in ("single", "multiple"):
        return "ChoiceInteraction", None
    if kind == "numeric":
        return ("NumericInteraction", "numerical_question") if len(key.fields) == 1 else (
            "FillInTheBlank", "text_entry_interaction")
    if kind == "matching":
        return "AssociateInteraction", None
    if kind in ("ordering", "parsons"):
        return "OrderInteraction", None
    assert kind == "blanks"
    if all(hasattr(gap, "options") for gap in key.gaps):
        return "FillInTheBlank", "inline_choice"
    return "FillInTheBlank", "text_entry_interaction"


def canvas_items(folder: Path, source: str, lang: str):
    for stem, questions in questions_of(source, "qti").items():
        test, items = canvas_package(folder / f"{stem}-{lang}.qti21.zip")
        yield stem, test, [(question, *items[f"Q-{question_id}"]) for question_id, question in questions.items()]


@pytest.mark.parametrize(("source", "lang"), CASES)
def test_canvas_takes_each_item_with_the_converter_of_its_type(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               source: str, lang: str) -> None:
    """An ordering question had no converter (an "Error" question), a lone number went to fill-in-the-blank as
    exact text, a mixed matching question became an essay."""
    status, _, err, folder = run_export(tmp_path, "qti", lang, source, capsys)
    assert status == 0, err
    for _, _, items in canvas_items(folder, source, lang):
        for question, resource, item in items:
            assert canvas.route(resource, item) == canvas_expected(question), question.id


@pytest.mark.parametrize(("source", "lang"), CASES)
def test_canvas_takes_a_lone_number_with_its_tolerance(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       source: str, lang: str) -> None:
    status, _, err, folder = run_export(tmp_path, "qti", lang, source, capsys)
    assert status == 0, err
    checked = 0
    for _, _, items in canvas_items(folder, source, lang):
        for question, _, item in items:
            kind, key = auto(question)
            if kind != "numeric" or len(key.fields) != 1:
                continue
            [numeric] = key.fields
            tolerance = absolute_tolerance(numeric)
            answer_type, start, end = canvas.numeric_answer(item)
            assert answer_type == ("range_answer" if tolerance else "exact_answer"), question.id
            assert start == pytest.approx(numeric.value - tolerance, rel=1e-12, abs=1e-15)
            assert end == pytest.approx(numeric.value + tolerance, rel=1e-12, abs=1e-15)
            checked += 1
    assert checked


@pytest.mark.parametrize(("source", "lang"), CASES)
def test_canvas_shows_every_explanation_to_every_student(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         source: str, lang: str) -> None:
    """get_feedback keeps a modalFeedback by its identifier: EXPLANATION matched none of its patterns."""
    status, _, err, folder = run_export(tmp_path, "qti", lang, source, capsys)
    assert status == 0, err
    for _, _, items in canvas_items(folder, source, lang):
        for question, _, item in items:
            assert canvas.feedback_kinds(item) == ["neutral_comments"], question.id


@pytest.mark.parametrize(("source", "lang"), CASES)
def test_canvas_adds_no_text_only_question_for_the_module(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          source: str, lang: str) -> None:
    status, _, err, folder = run_export(tmp_path, "qti", lang, source, capsys)
    assert status == 0, err
    for stem, test, _ in canvas_items(folder, source, lang):
        assert canvas.text_only_questions(test) == [], stem


def test_canvas_takes_an_order_as_positions_matched_to_lines(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err, folder = run_export(tmp_path, "qti", "en", "sample", capsys)
    assert status == 0, err
    orders = [(question, item) for _, _, items in canvas_items(folder, "sample", "en")
              for question, _, item in items if auto(question)[0] == "ordering"]
    assert orders
    for question, item in orders:
        _, key = auto(question)
        texts = {choice.get("identifier"): "".join(choice.itertext()).strip()
                 for choice in item.iter(f"{QTI}simpleChoice")}
        assert canvas.order_answers(item) == [texts[f"I-{entry}"] for entry in key.order]
        assert f"{question.id}: Canvas takes the order as a matching question" in out + err


PARSONS = ("/// question | P2\ntype: parsons\nindent: false\nlines: |\n  for x in xs:\n      print(x)\n\n"
           "//// en | Loop\nPut them in order.\n\nexplanation:\nE.\n////\n///\n")


def test_canvas_takes_a_parsons_problem_and_a_line_says_its_indentation_goes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines, out = exported(tmp_path, "qti", PARSONS, capsys)
    _, items = canvas_package(out / "c-m-en.qti21.zip")
    resource, item = items["Q-P2"]
    assert canvas.route(resource, item) == ("OrderInteraction", None)
    assert canvas.order_answers(item) == ["for x in xs:", "print(x)"]
    assert "P2: Canvas takes the order as a matching question" in lines
    assert "P2: Canvas shows each line without the indentation" in lines


def multiple(question_id: str, answer: str, scoring: str = "") -> str:
    return (f"/// question | {question_id}\ntype: multiple\nanswer: {answer}\n{scoring}\n//// en | T {question_id}\n"
            "Pick.\n\noptions:\nA. a\nB. b\nC. c\n\nexplanation:\nE.\n////\n///\n")


def test_canvas_multiple_choice_that_grades_otherwise_gets_a_line(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Canvas gives a share for each right option (all-or-nothing is lost), and makes one right option a question
    with round buttons; net-correct is Canvas's own rule."""
    quiz = multiple("M1", "[A, B]") + multiple("M2", "[A]") + multiple("M3", "[A, B]", "scoring: net-correct")
    lines, out = exported(tmp_path, "qti", quiz, capsys)
    _, items = canvas_package(out / "c-m-en.qti21.zip")
    assert [canvas.choice_question_type(items[f"Q-{name}"][1]) for name in ("M1", "M2", "M3")] == [
        "multiple_answers_question", "multiple_choice_question", "multiple_answers_question"]
    assert "M1: Canvas gives a share of the mark for each right option ticked" in lines
    assert "M2: Canvas makes a question with one right option a multiple-choice one" in lines
    assert "M3: Canvas" not in lines


@pytest.mark.parametrize(("source", "lang"), CASES)
def test_what_canvas_takes_otherwise_gets_a_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str,
                                                 lang: str) -> None:
    """Several numbers in one question, numbers in gaps, matching, and a mixed question's explanation box: Canvas
    cannot hold them as the site grades them, so the export says so for each."""
    status, out, err, folder = run_export(tmp_path, "qti", lang, source, capsys)
    assert status == 0, err
    lines = [line.removeprefix("zadachnik export: ") for line in (out + err).splitlines()]
    for stem, _, items in canvas_items(folder, source, lang):
        for question, _, item in items:
            kind, key = auto(question)
            said = [line for line in lines if line.split(": ", 1)[0].replace("/", "-") == stem
                    and f": {question.id}: Canvas" in line]
            if kind == "numeric" and len(key.fields) > 1:
                assert any("Canvas's numerical question holds one number" in line for line in said), question.id
                answers = canvas.text_entry_answers(item)
                assert all(number_text(field.value) in str(answers) for field in key.fields)
            if kind == "blanks" and not all(hasattr(gap, "options") for gap in key.gaps):
                assert any("Canvas has no gap that takes a number" in line for line in said), question.id
            if kind == "matching":
                assert any("Canvas gives a share of the mark for each item matched right" in line
                           for line in said), question.id
            if question.type == "mixed":
                assert any("Canvas takes one answer a question" in line for line in said), question.id
            if question.type == "open" or kind == "single":
                assert not said, said


# -- the command -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "selection", "message"), [
    (["--format", "blackboard", "--language", "en"], [],
     "unknown format 'blackboard': write --format moodle, gift, qti, scorm12, scorm2004"),
    (["--format", "moodle", "--language", "de"], [],
     "the courses have no 'de' text: their languages are ru, en (write e.g. --language ru)"),
    (["--format", "gift", "--language", "en"], ["physics"],
     "no course 'physics' in the sources: the courses are modern-llms, rl-for-llm"),
    (["--format", "qti", "--language", "ru"], ["rl-for-llm/13"],
     "no module '13' in the course 'rl-for-llm': its modules are 12-infrastructure (12)"),
    (["--format", "gift", "--language", "ru", "--config", "no-such-mkdocs.yml"], [],
     "--config no-such-mkdocs.yml: no such file"),
])
def test_bad_input_is_one_line_and_status_2_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], selection: list[str],
        message: str) -> None:
    out = tmp_path / "out"
    status = main(["export", "--out", str(out), *options, str(ROOT / "exercises"), *selection])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err.splitlines() == [f"zadachnik export: {message}"]
    assert not out.exists()


@pytest.mark.parametrize("fmt", ["qti", "scorm12"])
def test_a_sources_folder_without_courses_is_said_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              fmt: str) -> None:
    """An empty folder (or the wrong one) exited 0, printed nothing and wrote nothing."""
    (tmp_path / "exercises").mkdir()
    out = tmp_path / "out"
    status = main(["export", "--format", fmt, "--language", "en", "--languages", "en", "--out", str(out),
                   str(tmp_path / "exercises")])
    assert status == 2
    assert capsys.readouterr().err.splitlines() == [
        f"zadachnik export: no course in {tmp_path / 'exercises'}: a course is a folder there with its course.yml "
        "(give the folder that holds the courses' folders)"]
    assert not out.exists()


@pytest.mark.parametrize("selection", [[], ["c"]])
def test_courses_without_modules_are_said_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     selection: list[str]) -> None:
    exercises = tmp_path / "exercises"
    (exercises / "c").mkdir(parents=True)
    (exercises / "c" / "course.yml").write_text("id: c\ntitle: C\nmodules: 2\n", encoding="utf-8")
    status = main(["export", "--format", "moodle", "--language", "en", "--languages", "en", "--out",
                   str(tmp_path / "out"), str(exercises), *selection])
    assert status == 2
    where = "the course 'c'" if selection else f"the courses of {exercises}"
    assert capsys.readouterr().err.splitlines() == [
        f"zadachnik export: no module in {where} yet: there is nothing to export"]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("below", ["", "sub"])
def test_out_naming_a_file_says_it_must_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    below: str) -> None:
    """It said 'cannot write the export: [Errno 17] File exists', as if the file should not exist."""
    taken = tmp_path / "afile"
    taken.write_text("mine", encoding="utf-8")
    status = main(["export", "--format", "gift", "--language", "en", "--out", str(taken / below),
                   str(ROOT / "exercises")])
    assert status == 2
    assert capsys.readouterr().err.splitlines() == [
        f"zadachnik export: --out {taken / below}: {taken} is a file, not a folder: give a folder for the files (a "
        "new one is made)"]
    assert taken.read_text(encoding="utf-8") == "mine"


def test_one_module_by_number_and_the_site_languages_from_mkdocs_yml(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    status = main(["export", "--format", "moodle", "--language", "ru", "--out", str(out), str(ROOT / "exercises"),
                   "rl-for-llm/12"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert [path.name for path in out.iterdir()] == ["rl-for-llm-12-infrastructure-ru.moodle.xml"]
    assert "P08a: left out: a Python code exercise" in captured.out
    # P02, P03, P05, P08 and P10 go out as ten items each, one per variant; P02a is left out (a formula).
    assert "wrote" in captured.out and "(13 questions, 58 items with their variants)" in captured.out


def test_a_checker_travels_as_its_plain_key_with_a_line_saying_so(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err, folder = run_export(tmp_path, "moodle", "en", "fixture", capsys)
    assert status == 0, err
    assert "demo/01-basics: Q8: its checker (Python) cannot travel: exported with its plain key" in out
    _, questions = moodle_questions(folder / "demo-01-basics-en.moodle.xml")
    [answer] = questions["Q8"][0].findall("answer")
    assert close(answer.findtext("text"), 4 / 7) and answer.findtext("tolerance") == "0.0001"


def test_a_checker_without_a_plain_key_is_left_out_with_its_reason() -> None:
    from dataclasses import replace

    from zadachnik.exports.common import module_export

    exercises, languages = SOURCES["fixture"]
    [course] = load_courses(exercises, languages, exercises.parent)
    module = course.modules[0]
    module.quiz = [replace(item, key=None) if getattr(item, "id", None) == "Q8" else item for item in module.quiz]
    export = module_export(course, module, "en")
    assert "Q8" not in [question.id for question in export.questions]
    assert [str(skipped) for skipped in export.skipped] == [
        "Q7: left out: a Python code exercise has no question type that LMSs share (its hidden tests run only on "
        "the site)", "Q8: left out: its checker (Python) cannot travel and it has no plain key"]


def test_sources_with_a_problem_are_reported_as_the_build_does_and_nothing_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exercises = tmp_path / "exercises" / "c" / "m"
    exercises.mkdir(parents=True)
    (exercises.parent / "course.yml").write_text("id: c\ntitle: C\nmodules: 1\n", encoding="utf-8")
    (exercises / "module.yml").write_text("number: 1\ntitle: M\n", encoding="utf-8")
    (exercises / "quiz.md").write_text("/// question | Q1\ntype: single\nanswer: Z\n\n//// en | T\nText\n\n"
                                       "options:\nA. a\n\nexplanation:\nE\n////\n///\n", encoding="utf-8")
    out = tmp_path / "out"
    status = main(["export", "--format", "gift", "--language", "en", "--languages", "en", "--out", str(out),
                   str(tmp_path / "exercises")])
    captured = capsys.readouterr()
    assert status == 1
    assert "quiz.md:3: the correct option 'Z' does not exist" in captured.err
    assert not out.exists()


def test_sources_the_builds_checks_refuse_are_refused_as_the_build_does_and_nothing_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An LMS grades with the key it is given: the export checks the sources as a build does (the answer each page
    reveals graded by its own key, checkers against their wrong answers, reference solutions against their tests),
    so nothing a site build refuses reaches a course in Moodle or Canvas."""
    exercises = tmp_path / "exercises"
    shutil.copytree(SOURCES["fixture"][0], exercises)
    quiz = exercises / "demo" / "01-basics" / "quiz.md"
    source = quiz.read_text(encoding="utf-8")
    assert '  - {x: "3/7"}\n' in source
    quiz.write_text(source.replace('  - {x: "3/7"}\n', '  - {x: "8/14"}\n'), encoding="utf-8")
    # The wrong answer's own line.
    line = source[:source.index('  - {x: "3/7"}\n')].count("\n") + 1
    out = tmp_path / "out"
    status = main(["export", "--format", "moodle", "--language", "en", "--languages", "ru,en", "--out", str(out),
                   str(exercises)])
    captured = capsys.readouterr()
    assert status == 1
    assert "Zadachnik: 1 problem in the course sources:" in captured.err
    assert f"quiz.md:{line}: question Q8: its checker accepts" in captured.err
    assert not out.exists()


def test_a_file_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "module.xml"
    target.write_bytes(b"old")

    def broken_rename(source: str, destination: Path) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("zadachnik.exports.os.replace", broken_rename)
    with pytest.raises(OSError, match="disk full"):
        write_whole(target, b"new")
    assert target.read_bytes() == b"old"
    assert [path.name for path in tmp_path.iterdir()] == ["module.xml"]
    monkeypatch.undo()
    write_whole(target, b"new")
    assert target.read_bytes() == b"new" and [path.name for path in tmp_path.iterdir()] == ["module.xml"]


def test_every_format_is_registered_once_with_its_own_file_name() -> None:
    registered = formats()
    assert list(registered) == ["moodle", "gift", "qti"]
    suffixes = {name: registered[name].file_name.__module__ for name in registered}
    assert suffixes == {"moodle": "zadachnik.exports.moodle", "gift": "zadachnik.exports.gift",
                        "qti": "zadachnik.exports.qti"}


def test_the_command_runs_as_python_m_zadachnik(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    def command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "zadachnik", "export", *args], cwd=ROOT, capture_output=True,
                              text=True, timeout=120, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})

    result = command("--format", "gift", "--language", "ru", "--out", str(tmp_path), "exercises", "rl-for-llm")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "rl-for-llm-12-infrastructure-ru.gift.txt").is_file()
    refused = command("--format", "gift", "--language", "ru", "--out", str(tmp_path), "missing-folder")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.splitlines() == [
        "zadachnik export: missing-folder is not a folder of course sources: give EXERCISES_DIR"]


# -- what an LMS would grade otherwise, or fail to import (a review's findings) ------------------------------------


def one_module(tmp_path: Path, quiz: str, course_title: str = "C", module_title: str = "M",
               values: str | None = None) -> Path:
    """A one-language course of one module with `quiz` as its quiz.md (and `values` as its values.py); its
    exercises folder."""
    module = tmp_path / "exercises" / "c" / "m"
    module.mkdir(parents=True)
    # JSON's strings are YAML's double-quoted ones: any title, line breaks and all.
    (module.parent / "course.yml").write_text(f"id: c\ntitle: {json.dumps(course_title)}\nmodules: 1\n",
                                              encoding="utf-8")
    (module / "module.yml").write_text(f"number: 1\ntitle: {json.dumps(module_title)}\n"
                                       + ("values: values.py\n" if values else ""), encoding="utf-8")
    if values:
        (module / "values.py").write_text(values, encoding="utf-8")
    (module / "quiz.md").write_text(quiz, encoding="utf-8")
    return tmp_path / "exercises"


def exported(tmp_path: Path, fmt: str, quiz: str, capsys: pytest.CaptureFixture[str]) -> tuple[str, Path]:
    exercises = one_module(tmp_path / fmt, quiz)
    out = tmp_path / fmt / "out"
    status = main(["export", "--format", fmt, "--language", "en", "--languages", "en", "--out", str(out),
                   str(exercises)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return captured.out + captured.err, out


def choice(question_id: str, answer: str, options: list[str], extra: str = "", body: str = "Pick.",
           explanation: str = "E.") -> str:
    listed = "\n".join(f"{chr(65 + index)}. {text}" for index, text in enumerate(options))
    return (f"/// question | {question_id}\ntype: {'single' if ',' not in answer else 'multiple'}\n"
            f"answer: {answer}\n{extra}\n//// en | Title {question_id}\n{body}\n\noptions:\n{listed}\n\n"
            f"explanation:\n{explanation}\n////\n///\n")


def test_qti_response_ids_stay_apart_for_fields_in_any_script(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    quiz = ("/// question | N1\ntype: numeric\nfields:\n  ρ: {answer: 1, atol: 0.1}\n  σ: {answer: 2, atol: 0.1}\n\n"
            "//// en | Two\nGive both.\n\nfields:\n- ρ: Rho\n- σ: Sigma\n\nexplanation:\nE.\n////\n///\n")
    _, out = exported(tmp_path, "qti", quiz, capsys)
    _, items = qti_items(out / "c-m-en.qti21.zip")
    declared = [element.get("identifier") for element in items["Q-N1"].iter(f"{QTI}responseDeclaration")]
    assert len(declared) == len(set(declared)) == 2


def test_a_share_moodle_has_no_grade_for_is_left_out_of_moodle_formats_with_its_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    letters = ", ".join(chr(65 + index) for index in range(11))
    quiz = choice("C11", f"[{letters}]", [f"o{index}" for index in range(12)])
    for fmt in ("moodle", "gift"):
        err, out = exported(tmp_path, fmt, quiz, capsys)
        assert "C11: left out: its 11 right options would earn 1/11 of the mark each" in err
        assert not list(out.glob("c-m-en.*"))
    err, out = exported(tmp_path, "qti", quiz, capsys)
    assert "left out" not in err and (out / "c-m-en.qti21.zip").exists()


def test_control_characters_in_a_text_leave_the_files_readable(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    quiz = choice("S1", "A", ["yes\x0b", "no"], body="Pick\x0c one\x1b.")
    _, out = exported(tmp_path, "moodle", quiz, capsys)
    _, questions = moodle_questions(out / "c-m-en.moodle.xml")
    assert text_of(questions["S1"][0], "questiontext") == "<p>Pick one.</p>"
    _, out = exported(tmp_path, "qti", quiz, capsys)
    _, items = qti_items(out / "c-m-en.qti21.zip")
    assert "Pick one." in "".join(items["Q-S1"].itertext())


def test_a_gift_answer_that_starts_with_a_percent_sign_is_not_read_as_its_weight(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = exported(tmp_path, "gift", choice("S1", "B", ["%5% of the tokens", "all of them"]), capsys)
    _, [question] = parse_gift((out / "c-m-en.gift.txt").read_text(encoding="utf-8"))
    # As Moodle reads it: no weight taken from the text, which is HTML for "%5% of the tokens".
    assert question.answers == [(0.0, "&#37;5% of the tokens"), (1.0, "all of them")]


# What breaks a GIFT file when written raw: a blank line ends a question, a line starting with // is a comment,
# one starting with $CATEGORY: a category, and :: { } = ~ # : end a name, an answer or a text.
TRAPS = "::name:: {=x ~y #z: w} // v"
HOSTILE_TITLE = "Course\n\n$CATEGORY: $course$/top/Elsewhere\n// a comment\n::Fake:: {=x ~y}\n\n"
# A backslash stays one in a category, and a name ending with a slash stays apart from the next.
HOSTILE_MODULE = "Module\n\n" + TRAPS + " \\ \\n \\: /"
HOSTILE_VALUES = "def pick(rng):\n    a = rng.randint(2, 9)\n    return {'a': a, 'b': a + 1}\n"
HOSTILE_QUIZ = f"""/// question | S1
type: single
answer: B

//// en | Pick {TRAPS}
Pick {TRAPS}.

// not a comment
\\$CATEGORY: \\$course\\$/top/Elsewhere

    code {{

    }}

options:
A. // slashes {TRAPS}
B. %50% ~c #d: e -> f

explanation:
Because {TRAPS}.

// again
\\$CATEGORY: z
////
///

/// question | M1
type: matching
answer: {{1: A, 2: B}}

//// en | Match {TRAPS}
Match them.

items:
1. a -> b {TRAPS}
2. // c

options:
A. ~e #f: g {TRAPS}
B. // h
C. $CATEGORY: i

explanation:
Because.

// {TRAPS}
////
///

/// question | N1
type: numeric
variants: {{from: pick, count: 2}}
fields:
  x: {{answer: "a", atol: 0.1, unit: "m\\n\\n// s"}}
  y: {{answer: "b", atol: 0.1, unit: "\\n$CATEGORY: k"}}

//// en | Two {TRAPS}
Give {{{{ a }}}} and one more.

fields:
- x: Label {TRAPS}
- y: // Other

explanation:
They are {{{{ a }}}} and {{{{ b }}}}.
////
///

/// question | O1
type: open

//// en | Why {TRAPS}
Why?

hints:
1. Think {TRAPS}.

explanation:
Since {TRAPS}.

// so
////
///

/// question | X1
type: mixed
auto: single
answer: A

//// en | Mixed {TRAPS}
Pick and say why.

options:
A. yes {TRAPS}
B. no

explanation:
Because {TRAPS}.
////
///
"""


def test_every_author_text_in_a_gift_field_stays_in_its_question_and_comes_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 31: a title holding a blank line was written raw into `$CATEGORY:`, and Moodle read four questions
    where there was one. Every text an author writes, in every field, comes back whole from Moodle's reader."""
    exercises = one_module(tmp_path, HOSTILE_QUIZ, course_title=HOSTILE_TITLE, module_title=HOSTILE_MODULE,
                           values=HOSTILE_VALUES)
    out = tmp_path / "out"
    status = main(["export", "--format", "gift", "--language", "en", "--languages", "en", "--out", str(out),
                   str(exercises)])
    assert status == 0, capsys.readouterr().err
    source = (out / "c-m-en.gift.txt").read_text(encoding="utf-8")
    [course] = load_courses(exercises, ["en"], exercises.parent)
    module = course.modules[0]
    questions = {question.id: question for question in module.questions}
    text = TextRenderer()

    def folded(words: str) -> str:
        return " ".join(words.split())

    def name(question: Question) -> str:
        return f"{question.id} {text.plain(question.title['en'].markdown)}"

    def entries(question: Question, part: str) -> list[str]:
        return [text.inline(entry.text["en"].markdown) for entry in question.lists[part]]

    # Moodle's reader sees 4 categories (the module's, N1's two fields', the module's again) and 9 questions.
    paragraphs = gift_paragraphs(source)
    assert [paragraph[0].startswith("$CATEGORY:") for paragraph in paragraphs].count(True) == 4
    assert len(paragraphs) == 4 + 9, [paragraph[0][:40] for paragraph in paragraphs]
    # Where it puts each question, and under what name.
    _, parsed = parse_gift(source)
    placed = [(category_names(question.category), question.name, question.qtype) for question in parsed]
    home = ["$course$", "top", folded(HOSTILE_TITLE), folded(HOSTILE_MODULE)]
    numeric = questions["N1"]
    labels = {entry.key: text.plain(entry.text["en"].markdown) for entry in numeric.lists["fields"]}
    parts = {field.id: f": {labels[field.id]} ({folded(field.unit['en'])})" for field in numeric.key.fields}
    assert placed == [
        (home, name(questions["S1"]), "multichoice"),
        (home, name(questions["M1"]), "match"),
        *[([*home, name(numeric) + parts[field]], f"N1-v{number} {name(numeric)[3:]}{parts[field]}", "numerical")
          for field in ("x", "y") for number in (1, 2)],
        (home, name(questions["O1"]), "essay"),
        (home, name(questions["X1"]), "multichoice"),
        (home, f"{name(questions['X1'])}: {strings('en')['explanation_label']}", "essay"),
    ]
    # The texts themselves come back whole, each as the page's HTML (an option shown as text, as text).
    by_name = {question.name: question for question in parsed}
    single, match = by_name[name(questions["S1"])], by_name[name(questions["M1"])]
    assert single.text == text.html(questions["S1"].body["en"].markdown)
    assert "{\n\n}" in single.text and "<p>// not a comment\n$CATEGORY:" in single.text
    assert single.general_feedback == text.html(questions["S1"].explanation["en"].markdown)
    options = entries(questions["S1"], "options")
    assert single.answers == [(0.0, options[0]), (1.0, "&#37;" + options[1][1:])]
    items = entries(questions["M1"], "items")
    shown = [text.plain(entry.text["en"].markdown) for entry in questions["M1"].lists["options"]]
    assert match.answers == [(items[0], shown[0]), (items[1], shown[1]), ("", shown[2])]
    field = by_name[f"N1-v1 {name(numeric)[3:]}{parts['x']}"]
    assert field.text.endswith(f"<p>{text.inline(numeric.lists['fields'][0].text['en'].markdown)} (m // s)</p>")
    assert by_name[name(questions["O1"])].general_feedback == text.html(questions["O1"].explanation["en"].markdown)
    assert by_name[name(questions["X1"])].answers[0] == (1.0, entries(questions["X1"], "options")[0])


def test_notes_say_what_an_lms_grades_or_shows_otherwise(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    quiz = ("/// question | M1\ntype: matching\nanswer: {1: A, 2: B}\n\n//// en | Match\nMatch them.\n\n"
            "items:\n1. one\n2. two\n\noptions:\nA. a\nB. b\n\nexplanation:\nE.\n////\n///\n\n"
            "/// question | N2\ntype: numeric\nfields:\n  x: {answer: 1, atol: 0.1}\n  y: {answer: 2, atol: 0.1}\n\n"
            "//// en | Two\nGive both.\n\nfields:\n- x: X\n- y: Y\n\nexplanation:\nE.\n////\n///\n\n"
            "/// question | O1\ntype: open\n\n//// en | Say\nSay why.\n\nhints:\n1. Think.\n\nexplanation:\nE.\n"
            "////\n///\n\n" + choice("S1", "A", ["a", "b"]))
    err, _ = exported(tmp_path, "moodle", quiz, capsys)
    assert "M1: Moodle XML gives a share of the mark for each item matched right" in err
    assert "N2: in Moodle XML its 2 boxes are worth a mark each" in err
    assert "O1: its hints are left out: an essay in an LMS shows none" in err
    # Each format says what concerns it alone: a QTI export printed Moodle's and GIFT's lines.
    assert "GIFT" not in err and "QTI" not in err
    err, _ = exported(tmp_path, "gift", quiz, capsys)
    assert "S1: GIFT cannot say that its options keep their order" in err
    assert "M1: GIFT gives a share of the mark for each item matched right" in err
    assert "N2: GIFT makes a question of each of its 2 boxes" in err
    assert "Moodle XML" not in err and "QTI" not in err
    err, _ = exported(tmp_path, "qti", quiz, capsys)
    assert "O1: its hints are left out" in err
    assert "GIFT" not in err and "Moodle" not in err
    assert "pictures" not in err
    pictured = choice("P1", "A", ["![a cat](cat.png)", "b"]) + "\n" + choice("P2", "A", ["a", "b"],
                                                                                 body='Look: <img src="x.png">')
    err, _ = exported(tmp_path / "pictures", "qti", pictured, capsys)
    assert "P1: its pictures are not carried" in err and "P2: its pictures are not carried" in err


def test_an_option_named_in_a_shuffled_question_is_named_by_its_text(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """In an LMS a shuffled question's letters follow the order it shows: `[[option:B]]` as the letter B pointed at
    another option. An unshuffled question keeps its letters, as the LMS does."""
    quiz = (choice("S1", "B", ["a cat", "a dog"], extra="shuffle: true", explanation="See [[option:B]].")
            + "\n" + choice("S2", "B", ["a cat", "a dog"], explanation="See [[option:B]]."))
    _, out = exported(tmp_path, "moodle", quiz, capsys)
    _, questions = moodle_questions(out / "c-m-en.moodle.xml")
    assert text_of(questions["S1"][0], "generalfeedback") == "<p>See “a dog”.</p>"
    assert ">B</span>" in text_of(questions["S2"][0], "generalfeedback")


def test_net_correct_shares_add_up_to_the_whole_mark_in_qti(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    letters = ", ".join(chr(65 + index) for index in range(6))
    quiz = choice("C6", f"[{letters}]", [f"o{index}" for index in range(7)], extra="scoring: net-correct")
    _, out = exported(tmp_path, "qti", quiz, capsys)
    _, items = qti_items(out / "c-m-en.qti21.zip")
    shares = {entry.get("mapKey"): float(entry.get("mappedValue")) for entry in items["Q-C6"].iter(f"{QTI}mapEntry")}
    assert sum(share for key, share in shares.items() if key != "C-G") >= 1


def blanks(question_id: str, gaps: dict[str, dict], body: str) -> str:
    """A question with blanks; each gap's YAML written as JSON (which YAML reads), any word as it is."""
    listed = "\n".join(f"  {gap}: {json.dumps(spec)}" for gap, spec in gaps.items())
    return (f"/// question | {question_id}\ntype: blanks\ngaps:\n{listed}\n\n//// en | Title {question_id}\n{body}\n\n"
            "explanation:\nE.\n////\n///\n")


# Words that are cloze syntax, HTML, or both: each must reach the learner's drop-down list as written.
CLOZE_WORDS = {"op": ["<", "=", ">"], "unit": ["km/h", "m/s", '"knots"'],
               "signs": ["a<b", "R&", "~x", "#1", "{1}", "%50% off", "back\\slash", "\\}", "&amp;", "a~"]}


def test_a_word_of_a_gap_reaches_moodle_whole_and_shown_as_written(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A word starting with `=` was read by Moodle as the mark of the right answer, so `{1:MULTICHOICE:=<~=~>}`
    offered two words, both right; `km\\/h` kept its backslash, and `a<b` opened a tag in the question's HTML."""
    quiz = blanks("B1", {gap: {"options": words, "answer": len(words)} for gap, words in CLOZE_WORDS.items()},
                  "Pick [[gap:op]], then [[gap:unit]], then [[gap:signs]].")
    _, out = exported(tmp_path, "moodle", quiz, capsys)
    _, questions = moodle_questions(out / "c-m-en.moodle.xml")
    parts, rest = read_cloze(text_of(questions["B1"][0], "questiontext"))
    assert rest == "<p>Pick {#1}, then {#2}, then {#3}.</p>"
    for part, words in zip(parts, CLOZE_WORDS.values(), strict=True):
        assert part.kind == "MULTICHOICE"
        assert [shown(answer.text) for answer in part.answers] == words
        assert [answer.fraction for answer in part.answers] == [0.0] * (len(words) - 1) + [1.0]


def test_a_number_gaps_unit_stands_after_it_in_moodle_as_on_the_site(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The unit was dropped, with no line: the learner no longer knew whether the key wanted km/h or m/s."""
    quiz = blanks("B1", {"v": {"answer": 12, "atol": 0.5, "unit": "m/s"}, "w": {"answer": 3, "unit": "a<b"},
                         "n": {"answer": 2}}, "It goes [[gap:v]], then [[gap:w]], [[gap:n]] times.")
    _, out = exported(tmp_path, "moodle", quiz, capsys)
    _, questions = moodle_questions(out / "c-m-en.moodle.xml")
    parts, rest = read_cloze(text_of(questions["B1"][0], "questiontext"))
    assert rest == "<p>It goes {#1} m/s, then {#2} a&lt;b, {#3} times.</p>"
    assert [(answer.text, answer.tolerance) for part in parts for answer in part.answers] == [
        ("12", "0.5"), ("3", "0"), ("2", "0")]


def test_a_text_with_gaps_worth_more_than_one_mark_in_moodle_gets_a_line(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Moodle adds up a cloze question's parts (a mark per gap) and its XML cannot set the question's own mark: P07a
    weighed 3 marks in a quiz where every other question weighed one, and nothing said so."""
    quiz = (blanks("B3", {"a": {"answer": 1}, "b": {"options": ["x", "y"], "answer": 1}, "c": {"answer": 3}},
                   "[[gap:a]], [[gap:b]], [[gap:c]].")
            + blanks("B1", {"a": {"answer": 1}}, "Only [[gap:a]]."))
    said, out = exported(tmp_path, "moodle", quiz, capsys)
    _, questions = moodle_questions(out / "c-m-en.moodle.xml")
    marks = {question_id: question_mark(read_cloze(text_of(elements[0], "questiontext"))[0])
             for question_id, elements in questions.items()}
    assert marks == {"B3": 3, "B1": 1}
    assert ("zadachnik export: c/m: B3: in Moodle XML its 3 gaps are worth a mark each, 3 marks in a quiz where the "
            "site counts one (a cloze question's mark is its parts', which the file cannot set): give it a mark of 1 "
            "in the quiz" in said.splitlines())
    assert "B1:" not in said


def test_all_or_nothing_multiple_choice_that_moodle_grades_in_shares_gets_a_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Moodle adds up the ticked options' shares: ticking A alone of the right A, B, C earned a third of the mark,
    where the site gives nothing, and the export said nothing of it (as it says of matching)."""
    quiz = (choice("M3", "[A, B, C]", ["one", "two", "three", "four"]) + "\n"
            + choice("N3", "[A, B, C]", ["one", "two", "three", "four"], extra="scoring: net-correct") + "\n"
            + choice("M1", "[A]", ["one", "two"]))
    for fmt, lms in (("moodle", "Moodle XML"), ("gift", "GIFT")):
        line = (f"zadachnik export: c/m: M3: {lms} gives 1/3 of the mark for each right option ticked (a wrong one "
                "takes it all); the site gives the mark only when exactly the right options are")
        said, _ = exported(tmp_path / fmt, fmt, quiz, capsys)
        assert [found for found in said.splitlines() if "for each right option ticked" in found] == [line]
    # QTI itself grades exactly; Canvas, which the guide names for it, does as Moodle does (qti.choice_lines).
    said, _ = exported(tmp_path / "qti", "qti", quiz, capsys)
    assert [found.split(": ", 2)[2] for found in said.splitlines() if "for each right option ticked" in found] == [
        "M3: Canvas gives a share of the mark for each right option ticked and takes one back for each wrong one (it "
        "has no all-or-nothing); the site gives the mark only when exactly the right options are"]


COLLIDING_VALUES = "def pick(rng):\n    return {'a': rng.randint(2, 9)}\n"
COLLIDING_QUIZ = """/// question | P3
type: numeric
variants: {from: pick, count: 2}
fields:
  x: {answer: "a", atol: 0.1}

//// en | Varied
Give {{ a }}.

fields:
- x: X

explanation:
It is {{ a }}.
////
///

/// question | P3-v1
type: numeric
fields:
  x: {answer: 1000, atol: 0.1}

//// en | Named like a variant
Give 1000.

fields:
- x: X

explanation:
It is 1000.
////
///
"""


def test_a_variants_id_never_takes_another_questions_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Variant 1 of P3 and the question P3-v1 were both written to items/Q-P3-v1.xml, the second over the first,
    and the test named that item twice: a learner drawn variant 1 got the other question, graded with its key,
    while the command counted 3 items in a zip of 2."""
    exercises = one_module(tmp_path, COLLIDING_QUIZ, values=COLLIDING_VALUES)
    ids = {}
    for fmt in ("qti", "moodle", "gift"):
        out = tmp_path / fmt
        assert main(["export", "--format", fmt, "--language", "en", "--languages", "en", "--out", str(out),
                     str(exercises)]) == 0
        said = capsys.readouterr().out
        assert "c/m: P3: its variant 1 goes out as P3-v1_2: P3-v1 is another question's id" in said
        if fmt == "moodle":
            _, questions = moodle_questions(out / "c-m-en.moodle.xml")
            ids[fmt] = sorted(questions)
        elif fmt == "gift":
            _, parsed = parse_gift((out / "c-m-en.gift.txt").read_text(encoding="utf-8"))
            ids[fmt] = sorted(question.name.split(" ")[0] for question in parsed)
        else:
            assert "(2 questions, 3 items with their variants)" in said
            order, items = qti_items(out / "c-m-en.qti21.zip")
            assert order == ["items/Q-P3-v1_2.xml", "items/Q-P3-v2.xml", "items/Q-P3-v1.xml"]
            with zipfile.ZipFile(out / "c-m-en.qti21.zip") as archive:
                assert len([name for name in archive.namelist() if name.startswith("items/")]) == 3
            assert [qti_value(declaration) for declaration in items["Q-P3-v1"].iter(f"{QTI}responseDeclaration")
                    ] == [["1000"]]
            ids[fmt] = sorted(identifier.removeprefix("Q-") for identifier in items)
    assert ids["qti"] == ids["moodle"] == ids["gift"] == ["P3-v1", "P3-v1_2", "P3-v2"]


def test_a_variants_id_never_takes_another_questions_id_in_another_case(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """P3's variant 1 and a question p3-V1 were items/Q-P3-v1.xml and items/Q-p3-V1.xml: one file on macOS and
    Windows, where unzipping the package kept one of them; Moodle, whose id numbers ignore case, refused one."""
    exercises = one_module(tmp_path, COLLIDING_QUIZ.replace("/// question | P3-v1", "/// question | p3-V1"),
                           values=COLLIDING_VALUES)
    assert main(["export", "--format", "qti", "--language", "en", "--languages", "en", "--out", str(tmp_path / "q"),
                 str(exercises)]) == 0
    assert "c/m: P3: its variant 1 goes out as P3-v1_2: P3-v1 is another question's id" in capsys.readouterr().out
    with zipfile.ZipFile(tmp_path / "q" / "c-m-en.qti21.zip") as archive:
        names = [name for name in archive.namelist() if name.startswith("items/")]
    assert len({name.casefold() for name in names}) == len(names) == 3


def test_a_mixed_questions_explanation_box_never_takes_another_questions_id(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mixed question's explanation essay was numbered X1-explanation, the id of a question the author had named
    so: Moodle imports one id number once in a category, so one of the two was refused."""
    mixed = ("/// question | X1\ntype: mixed\nauto: single\nanswer: B\n\n//// en | Mixed\nPick.\n\noptions:\n"
             "A. cat\nB. dog\n\nexplanation:\nIt is a dog.\n////\n///\n")
    quiz = "\n".join([mixed, choice("x1-Explanation", "A", ["yes", "no"])])
    said, out = exported(tmp_path, "moodle", quiz, capsys)
    assert ("X1: its explanation box goes into Moodle XML as X1-explanation_2: X1-explanation is another question's "
            "id") in said
    numbers = [element.findtext("idnumber") for element in
               etree.parse(out / "c-m-en.moodle.xml").getroot().findall("question[@type!='category']")]
    assert len(numbers) == 3
    assert len({number.casefold() for number in numbers}) == 3, numbers


def test_an_option_named_in_qti_is_named_by_its_text_as_the_lms_shows_no_letters(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """QTI shows a shuffled question's options, and a matching question's list, without letters, yet its text, its
    scorer's rubric and its feedback named them by letter ('The right one is B, not A'); Moodle XML and GIFT already
    wrote the option's text, through ModuleExport.named_options, which QTI now takes too."""
    matching = ("/// question | M1\ntype: matching\nanswer: {1: A, 2: B}\n\n//// en | Match\nMatch; [[option:B]] is "
                "hard.\n\nitems:\n1. one\n2. two\n\noptions:\nA. uno\nB. dos\n\nexplanation:\nOne is [[option:A]].\n"
                "////\n///\n")
    mixed = ("/// question | X1\ntype: mixed\nauto: single\nanswer: B\nshuffle: true\n\n//// en | Mixed\nPick; "
             "[[option:B]]?\n\noptions:\nA. cat\nB. dog\n\nexplanation:\nIt is [[option:B]].\n////\n///\n")
    quiz = "\n".join([
        choice("S1", "B", ["cat", "dog", "cow"], extra="shuffle: true", body="Note [[option:B]] is tempting.",
               explanation="The right one is [[option:B]], not [[option:A]]."),
        choice("S2", "B", ["cat", "dog"], explanation="See [[option:B]]."), matching, mixed])
    _, out = exported(tmp_path, "qti", quiz, capsys)
    _, items = qti_items(out / "c-m-en.qti21.zip")

    def said(question_id: str, part: str) -> str:
        return " ".join("".join(element.itertext()) for element in items[f"Q-{question_id}"].iter(f"{QTI}{part}"))

    assert "Note “dog” is tempting." in said("S1", "itemBody")
    assert said("S1", "modalFeedback") == "The right one is “dog”, not “cat”."
    # Unshuffled too: a QTI player shows the options without the author's letters.
    assert "See “dog”." in said("S2", "modalFeedback")
    assert "Match; “dos” is hard." in said("M1", "itemBody") and said("M1", "modalFeedback") == "One is “uno”."
    assert "Pick; “dog”?" in said("X1", "itemBody")
    assert said("X1", "rubricBlock") == said("X1", "modalFeedback") == "It is “dog”."


@pytest.mark.parametrize("count", [2, 3, 6, 7])
def test_a_text_with_gaps_all_right_scores_the_maximum_exactly_in_qti(tmp_path: Path, count: int,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Each right gap adds its share rounded up, so three right came to 1.0000002 of a maximum of 1."""
    gaps = {f"g{index}": {"answer": index} for index in range(count)}
    _, out = exported(tmp_path, "qti", blanks("B", gaps, " ".join(f"[[gap:{gap}]]" for gap in gaps)), capsys)
    _, items = qti_items(out / "c-m-en.qti21.zip")
    right = {f"RESPONSE-g{index}": float(index) for index in range(count)}
    assert qti_score(items["Q-B"], right) == (1.0, 1.0)
    assert qti_score(items["Q-B"], {}) == (0.0, 1.0)
    score, _ = qti_score(items["Q-B"], {**right, "RESPONSE-g0": 99.0})
    assert score == pytest.approx((count - 1) / count, abs=1e-6)


def test_the_same_questions_make_the_same_qti_package(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Its entries carried the time of the export: two exports of unchanged sources differed."""
    import time

    quiz = choice("S1", "A", ["a", "b"])
    _, first = exported(tmp_path / "one", "qti", quiz, capsys)
    time.sleep(2.1)  # a zip entry's time counts in steps of two seconds
    _, second = exported(tmp_path / "two", "qti", quiz, capsys)
    assert (first / "c-m-en.qti21.zip").read_bytes() == (second / "c-m-en.qti21.zip").read_bytes()


def moodle_shows(stored: str) -> str:
    """A matching choice as Moodle's format_string shows it (question/type/match/renderer.php format_choices):
    tags stripped as PHP's strip_tags does (a '<' before a letter opens a tag, which runs to '>' or to the end),
    then the HTML's references read."""
    return html.unescape(re.sub(r"<[^\s<][^>]*(>|$)", "", stored))


def test_a_matching_option_that_looks_like_a_tag_is_shown_by_moodle_as_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    written = ["`List<int>`", "x<y", "AT&T", "`<br>` tag"]
    listed = "\n".join(f"{chr(65 + index)}. {text}" for index, text in enumerate(written))
    quiz = ("/// question | M1\ntype: matching\nanswer: {1: A, 2: B, 3: C, 4: D}\n\n//// en | Match\nMatch.\n\n"
            "items:\n1. one\n2. two\n3. three\n4. four\n\noptions:\n" + listed + "\n\nexplanation:\nE.\n////\n///\n")
    shown_as = ["List<int>", "x<y", "AT&T", "<br> tag"]
    _, out = exported(tmp_path, "moodle", quiz, capsys)
    _, questions = moodle_questions(out / "c-m-en.moodle.xml")
    stored = [text_of(sub, "answer") for sub in questions["M1"][0].findall("subquestion")]
    assert [moodle_shows(text) for text in stored] == shown_as
    _, out = exported(tmp_path, "gift", quiz, capsys)
    _, [match] = parse_gift((out / "c-m-en.gift.txt").read_text(encoding="utf-8"))
    assert [moodle_shows(str(option)) for _, option in match.answers] == shown_as


@pytest.mark.parametrize(("field", "noted"), [
    ("{answer: 2e-15}", True),
    ("{answer: 1.6e-19, rtol: 0.01}", True),
    ("{answer: 0.5}", False),
    ("{answer: 3e-9, atol: 1e-10}", False),
    ("{answer: 1e6, rtol: 1e-20}", False),
])
def test_an_answer_so_small_that_moodles_own_margin_swamps_it_gets_a_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, noted: bool) -> None:
    quiz = ("/// question | N1\ntype: numeric\nfields:\n  x: " + field + "\n\n//// en | Tiny\nHow much?\n\n"
            "fields:\n- x: Amount\n\nexplanation:\nE.\n////\n///\n")
    [question] = load_courses(one_module(tmp_path / "source", quiz), ["en"], tmp_path / "source")[0].modules[0].quiz
    [numeric] = question.key.fields
    # What Moodle accepts that the site refuses: 0, or an answer off by a millionth of itself and more.
    wrong = [0.0, numeric.value * (1 + 2e-6)]
    swamped = any(moodle_accepts(value, numeric.value, absolute_tolerance(numeric))
                  and abs(value - numeric.value) > absolute_tolerance(numeric) for value in wrong)
    assert swamped == noted
    for fmt in ("moodle", "gift"):
        err, _ = exported(tmp_path / str(noted), fmt, quiz, capsys)
        assert "(1 question)" in err
        assert ("N1: Moodle accepts any answer within 1e-14" in err) == noted, err
    err, _ = exported(tmp_path / str(noted), "qti", quiz, capsys)
    assert "1e-14" not in err


def test_the_manifest_lists_each_items_interactions_in_qtis_metadata(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    _, out = exported(tmp_path, "qti", choice("S1", "A", ["yes", "no"]), capsys)
    with zipfile.ZipFile(out / "c-m-en.qti21.zip") as package:
        manifest = etree.fromstring(package.read("imsmanifest.xml"))
    metadata = "{http://www.imsglobal.org/xsd/imsqti_metadata_v2p1}"
    [resource] = [found for found in manifest.iter(f"{CP}resource") if found.get("href") == "items/Q-S1.xml"]
    assert [kind.text for kind in resource.iter(f"{metadata}interactionType")] == ["choiceInteraction"]


# -- footnotes ---------------------------------------------------------------------------------------------------


def exported_texts(folder: Path, fmt: str, question_id: str) -> str:
    """A question's text and explanation as the format's importer reads them, joined."""
    if fmt == "moodle":
        _, questions = moodle_questions(folder / "demo-01-basics-en.moodle.xml")
        [question] = questions[question_id]
        return text_of(question, "questiontext") + text_of(question, "generalfeedback")
    if fmt == "gift":
        _, parsed = parse_gift((folder / "demo-01-basics-en.gift.txt").read_text(encoding="utf-8"))
        [question] = [item for item in parsed if item.name.split(" ")[0] == question_id]
        return question.text + question.general_feedback
    _, items = qti_items(folder / "demo-01-basics-en.qti21.zip")
    return html.unescape(etree.tostring(items[f"Q-{question_id}"], encoding="unicode")).replace("ns0:", "")


@pytest.mark.parametrize("fmt", ["moodle", "gift", "qti"])
def test_a_texts_footnotes_go_to_the_lms_as_notes_at_its_end(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               fmt: str) -> None:
    """The site lists each text's notes at its end; an LMS shows many questions on a page, so an export writes
    the notes there too, numbered, without ids or links another question's notes could share."""
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    edit(site / "mkdocs.yml", "  - attr_list\n", "  - attr_list\n  - footnotes\n")
    quiz = site / "exercises/demo/01-basics/quiz.md"
    edit(quiz, "What is $2+2$?\n", "What is $2+2$?[^ten]\n\n[^ten]: In base ten.\n")
    edit(quiz, "Because $2+2=4$.\n", "Because $2+2=4$.[^1]\n\n[^1]: The explanation's note.\n")
    out = tmp_path / "out"
    status = main(["export", "--format", fmt, "--language", "en", "--config", str(site / "mkdocs.yml"),
                   "--out", str(out), str(site / "exercises")])
    assert status == 0, capsys.readouterr().err
    text = exported_texts(out, fmt, "Q1")
    assert "[^" not in text, text
    assert re.search(r"What is .*\?(</span>)?<sup>1</sup>", text), text
    assert re.search(r"<ol>\s*<li>\s*(<p>)?In base ten\.</", text), text
    assert re.search(r"Because .*\.(</span>)?<sup>1</sup>", text), text
    assert "The explanation's note." in text and text.index("In base ten.") < text.index("Because")
    assert not re.search(r"""(id|href)=["']#?fn""", text), text


def test_an_authors_own_id_like_a_notes_stays_in_the_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    """Only the ids the footnotes extension writes go: an author's `{#fn-intro}` or `{#fnref}` is no note's."""
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    edit(site / "mkdocs.yml", "  - attr_list\n", "  - attr_list\n  - footnotes\n")
    quiz = site / "exercises/demo/01-basics/quiz.md"
    edit(quiz, "What is $2+2$?\n", "What is $2+2$?[^ten]\n\nSee the table.\n{: #fn-intro }\n\n"
         "A second paragraph.\n{: #fnref }\n\n[^ten]: In base ten.\n")
    out = tmp_path / "out"
    status = main(["export", "--format", "moodle", "--language", "en", "--config", str(site / "mkdocs.yml"),
                   "--out", str(out), str(site / "exercises")])
    assert status == 0, capsys.readouterr().err
    text = exported_texts(out, "moodle", "Q1")
    assert re.search(r"""<p id=["']fn-intro["']>See the table\.</p>""", text), text
    assert re.search(r"""<p id=["']fnref["']>A second paragraph\.</p>""", text), text
    assert not re.search(r"""(id|href)=["']#?fn(ref)?:""", text), text
