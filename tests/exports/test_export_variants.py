"""Questions with variants in `zadachnik export`: one category (Moodle XML, GIFT) or one section that selects one
item (QTI 2.1) per question, holding one question per variant with that variant's figures, written as the site
writes them in the export's language, and its own key with absolute tolerances. The files are read back as the
importers read them: Moodle's question/format/xml/format.php and question/format/gift/format.php switch the
category for the questions after each `<question type="category">` or `$CATEGORY:` line, and a QTI
assessmentSection with `<selection select="1"/>` gives a candidate one of its children."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as etree
import zipfile
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from support.exports import CLOZE_NUMERICAL, QTI, parse_gift, qti_value, run_export, text_of
from support.sites import ROOT
from zadachnik.cli import main
from zadachnik.core.errors import SourceErrors
from zadachnik.exports import formats
from zadachnik.exports.common import NO_LMS_TYPE, TextRenderer
from zadachnik.qtypes.numeric import NumericField
from zadachnik.reading.model import Course, Module, Question, load_courses
from zadachnik.reading.values import localize
from zadachnik.rendering.i18n import strings

SAMPLE = ROOT / "exercises"
LANGUAGES = ["ru", "en"]
PLAIN = TextRenderer().plain

# A course of one module, written by the tests: a relative tolerance, a mixed question and a choice question
# with variants, and a question without.
TINY_VALUES = '''
def speed(rng):
    distance = rng.choice([100, 150, 200, 250])
    seconds = rng.choice([4, 5, 8])
    return {"d": distance, "t": seconds, "v": distance / seconds}


def pick(rng):
    a = rng.randint(2, 9)
    return {"a": a, "b": a + 1}
'''
TINY_QUIZ = '''/// question | Q1
type: numeric
variants: {from: speed, count: 3}
fields:
  v: {answer: "d/t", rtol: 0.01}

//// en | Speed
A car covers {{ d }} m in {{ t }} s. How fast is it?

fields:
- v: Speed, m/s

explanation:
$v={{ d }}/{{ t }}={{ v:.2f }}$ m/s.
////
///

/// question | Q2
type: mixed
auto: numeric
variants: {from: speed, count: 2}
fields:
  v: {answer: "d/t", atol: 0.01}

//// en | Speed and why
A car covers {{ d }} m in {{ t }} s. Find its speed, and say why it is an average.

fields:
- v: Speed, m/s

explanation:
{{ v:.2f }} m/s, averaged over the whole {{ t }} s.
////
///

/// question | Q3
type: single
answer: B
variants: {from: pick, count: 2}

//// en | Next number
Which number comes right after {{ a }}?

options:
A. {{ a }}
B. {{ b }}

explanation:
{{ b }} is {{ a }} plus one.
////
///

/// question | Q4
type: numeric
fields:
  x: {answer: 2, atol: 0}

//// en | Plain
How much is one plus one?

fields:
- x: Sum

explanation:
Two.
////
///
'''


def tiny_course(root: Path) -> Path:
    module = root / "exercises" / "tiny" / "01-cars"
    module.mkdir(parents=True)
    (module.parent / "course.yml").write_text("id: tiny\ntitle: Tiny / course\nmodules: 1\n", encoding="utf-8")
    (module / "module.yml").write_text("number: 1\ntitle: Cars\nvalues: cars.py\n", encoding="utf-8")
    (module / "cars.py").write_text(TINY_VALUES, encoding="utf-8")
    (module / "quiz.md").write_text(TINY_QUIZ, encoding="utf-8")
    return root / "exercises"


def export_tiny(tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> tuple[str, Path, Module, Course]:
    exercises = tiny_course(tmp_path / "src")
    out = tmp_path / fmt
    status = main(["export", "--format", fmt, "--language", "en", "--languages", "en", "--out", str(out),
                   str(exercises)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    [course] = load_courses(exercises, ["en"], exercises.parent)
    return captured.out, out, course.modules[0], course


def sample_modules() -> list[tuple[Course, Module]]:
    return [(course, module) for course in load_courses(SAMPLE, LANGUAGES, SAMPLE.parent)
            for module in course.modules if any(question.variants for question in module.questions)]


def tolerance(field: NumericField) -> float:
    """What the site accepts around the answer, as one absolute distance (written here, not by the exporter)."""
    return max(field.atol or 0.0, (field.rtol or 0.0) * abs(field.value))


def category_of(course: Course, module: Module, lang: str, *names: str) -> str:
    """The category path the importers read, every slash inside a name doubled."""
    parts = [course.title[lang], module.title[lang], *names]
    return "/".join(["$course$", "top", *(part.replace("/", "//") for part in parts)])


def name_of(question: Question, lang: str) -> str:
    return f"{question.id} {PLAIN(question.title[lang].markdown)}"


def field_label(question: Question, field_id: str, lang: str) -> str:
    entry = next(entry for entry in question.lists["fields"] if entry.key == field_id)
    return PLAIN(entry.text[lang].markdown)


def placed_by_category(path: Path) -> dict[str, list[etree.Element]]:
    """Moodle's XML import: each category question sets where the questions after it go."""
    placed: dict[str, list[etree.Element]] = {}
    current = None
    for element in etree.parse(path).getroot().findall("question"):
        if element.get("type") == "category":
            current = text_of(element, "category")
            continue
        assert current is not None, "a question before any category"
        placed.setdefault(current, []).append(element)
    return placed


def moodle_numbers(element: etree.Element) -> list[tuple[float, float]]:
    """(answer, tolerance) of a numerical question, or of each NUMERICAL part of a cloze one."""
    if element.get("type") == "numerical":
        return [(float(answer.findtext("text")), float(answer.findtext("tolerance")))
                for answer in element.findall("answer")]
    assert element.get("type") == "cloze"
    return [(float(value), float(allowed)) for _, value, allowed in
            CLOZE_NUMERICAL.findall(text_of(element, "questiontext"))]


def expected_numbers(question: Question) -> list[tuple[float, float]]:
    return [(field.value, tolerance(field)) for field in question.key.fields]


def flat(pairs: list[tuple[float, float]]) -> list[float]:
    """(answer, tolerance) pairs in one list, as pytest.approx compares them."""
    return [number for pair in pairs for number in pair]


# -- the sample course: module 12's numeric variants ---------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_moodle_xml_gives_each_question_with_variants_a_category_of_its_variants(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str) -> None:
    status, out, err, folder = run_export(tmp_path, "moodle", lang, "sample", capsys)
    assert status == 0, err
    modules = sample_modules()
    assert modules, "the sample course has questions with variants"
    for course, module in modules:
        placed = placed_by_category(folder / f"{course.id}-{module.slug}-{lang}.moodle.xml")
        own = category_of(course, module, lang)
        # Questions without variants stay in the module's category, as before.
        assert [element.findtext("idnumber") for element in placed.pop(own)] == [
            element_id for question in module.questions
            if question.variants is None and question.type not in NO_LMS_TYPE
            for element_id in ([question.id, f"{question.id}-explanation"] if question.type == "mixed"
                               else [question.id])]
        varied = [question for question in module.questions if question.variants is not None]
        assert sorted(placed) == sorted(category_of(course, module, lang, name_of(question, lang))
                                        for question in varied)
        for question in varied:
            members = placed[category_of(course, module, lang, name_of(question, lang))]
            items = question.variants.items
            assert len(members) == len(items) == question.variants.count
            ids = [element.findtext("idnumber") for element in members]
            # Moodle refuses an id number twice in a category.
            assert ids == [f"{question.id}-v{item.number}" for item in items] and len(set(ids)) == len(ids)
            texts = [text_of(element, "questiontext") for element in members]
            assert len(set(texts)) == len(texts), f"{question.id}: two variants read the same"
            for element, variant in zip(members, question.variant_questions, strict=True):
                assert text_of(element, "name").startswith(f"{question.id}-v")
                assert flat(moodle_numbers(element)) == pytest.approx(flat(expected_numbers(variant)), rel=1e-12,
                                                                       abs=1e-15)
            assert f"{question.id}: its {question.variants.count} variants" in out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_variant_s_figures_are_written_as_the_site_writes_them_in_the_export_s_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str) -> None:
    status, _, err, folder = run_export(tmp_path, "moodle", lang, "sample", capsys)
    assert status == 0, err
    [(course, module)] = sample_modules()
    p02 = next(question for question in module.questions if question.id == "P02")
    placed = placed_by_category(folder / f"{course.id}-{module.slug}-{lang}.moodle.xml")
    members = placed[category_of(course, module, lang, name_of(p02, lang))]
    decimals = {"ru": "{,}", "en": "."}[lang]
    for element, item in zip(members, p02.variants.items, strict=True):
        # The count of parameters in the statement's formula and the GiB in the explanation's.
        assert f"\\({localize(item.values['N_billion'], 'g', lang, True)}\\cdot 10^9\\)" in text_of(
            element, "questiontext")
        gib = localize(item.values["gib"], ".2f", lang, True)
        assert decimals in gib and f"\\approx{gib}\\ \\text{{GiB}}" in text_of(element, "generalfeedback")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_gift_gives_each_variant_field_a_category_of_its_variants(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                  lang: str) -> None:
    status, _, err, folder = run_export(tmp_path, "gift", lang, "sample", capsys)
    assert status == 0, err
    for course, module in sample_modules():
        _, parsed = parse_gift((folder / f"{course.id}-{module.slug}-{lang}.gift.txt").read_text(encoding="utf-8"))
        by_category: dict[str, list] = {}
        for question in parsed:
            by_category.setdefault(question.category, []).append(question)
        own = by_category.pop(category_of(course, module, lang))
        assert not [question.name for question in own if re.match(r"P\d+-v", question.name)]
        expected: dict[str, list[tuple[str, tuple[float, float]]]] = {}
        for question in module.questions:
            if question.variants is None:
                continue
            fields = question.key.fields
            for number, variant in enumerate(question.variant_questions, 1):
                for field, numbers in zip(variant.key.fields, expected_numbers(variant), strict=True):
                    # GIFT has one box per question: several fields are one question each, drawn from their own.
                    names = [name_of(question, lang)] + ([field_label(question, field.id, lang)] if len(fields) > 1
                                                        else [])
                    category = category_of(course, module, lang, ": ".join(names))
                    expected.setdefault(category, []).append((f"{question.id}-v{number}", numbers))
        assert sorted(by_category) == sorted(expected)
        for category, members in expected.items():
            exported = by_category[category]
            assert [item.name.split(" ")[0] for item in exported] == [name for name, _ in members]
            assert all(item.qtype == "numerical" for item in exported)
            for item, (_, numbers) in zip(exported, members, strict=True):
                assert item.answers == [pytest.approx(numbers, rel=1e-12, abs=1e-15)]


def qti_test_and_items(package: Path) -> tuple[etree.Element, dict[str, etree.Element]]:
    with zipfile.ZipFile(package) as archive:
        test = etree.parse(io.BytesIO(archive.read("test.xml"))).getroot()
        manifest = archive.read("imsmanifest.xml").decode("utf-8")
        items = {}
        for name in archive.namelist():
            if name.startswith("items/"):
                assert f'href="{name}"' in manifest, f"{name} is not in the manifest"
                items[name] = etree.parse(io.BytesIO(archive.read(name))).getroot()
    return test, items


def qti_numbers(item: etree.Element) -> list[tuple[float, float]]:
    """Each field's correct value and the tolerance its response rule compares with."""
    # The upper bound's digits are the value's plus the tolerance's, in decimal (qti.tolerance_rule); no bound: exact.
    upper = {rule.find(f"{QTI}variable").get("identifier"): rule.find(f"{QTI}baseValue").text
             for rule in item.iter(f"{QTI}lte")}
    numbers = []
    for declaration in item.findall(f"{QTI}responseDeclaration"):
        if declaration.get("baseType") != "float":
            continue
        [value] = qti_value(declaration)
        bound = upper.get(declaration.get("identifier"))
        allowed = float(Decimal(bound) - Decimal(value)) if bound else 0.0
        numbers.append((float(value), allowed))
    return numbers


@pytest.mark.parametrize("lang", LANGUAGES)
def test_qti_puts_each_question_s_variants_in_a_section_that_selects_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str) -> None:
    status, _, err, folder = run_export(tmp_path, "qti", lang, "sample", capsys)
    assert status == 0, err
    for course, module in sample_modules():
        test, items = qti_test_and_items(folder / f"{course.id}-{module.slug}-{lang}.qti21.zip")
        [outer] = test.iter(f"{QTI}testPart")
        [section] = outer.findall(f"{QTI}assessmentSection")
        children = list(section)
        exported = [question for question in module.questions
                    if question.type not in NO_LMS_TYPE and formats()["qti"].refuses(question) is None]
        assert len(children) == len(exported)
        for child, question in zip(children, exported, strict=True):
            if question.variants is None:
                assert child.tag == f"{QTI}assessmentItemRef" and child.get("identifier") == f"Q-{question.id}"
                continue
            assert child.tag == f"{QTI}assessmentSection"
            assert child.get("title") == name_of(question, lang) and child.get("visible") in ("true", "false")
            selection, *refs = list(child)
            assert selection.tag == f"{QTI}selection" and selection.get("select") == "1"
            assert selection.get("withReplacement") in (None, "false")
            assert [ref.get("identifier") for ref in refs] == [
                f"Q-{question.id}-v{item.number}" for item in question.variants.items]
            for ref, variant in zip(refs, question.variant_questions, strict=True):
                item = items[ref.get("href")]
                assert item.get("identifier") == ref.get("identifier")
                assert flat(qti_numbers(item)) == pytest.approx(flat(expected_numbers(variant)), rel=1e-12, abs=1e-15)


# -- a course of the tests' own: a relative tolerance, a mixed and a choice question with variants ----------------


def test_moodle_xml_tolerances_are_absolute_per_variant_and_explanations_are_never_drawn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, folder, module, course = export_tiny(tmp_path, "moodle", capsys)
    placed = placed_by_category(folder / "tiny-01-cars-en.moodle.xml")
    q1, q2, q3, q4 = module.questions
    assert category_of(course, module, "en").endswith("/Tiny // course/Cars")
    assert [element.findtext("idnumber") for element in placed[category_of(course, module, "en")]] == ["Q4"]
    speeds = placed[category_of(course, module, "en", name_of(q1, "en"))]
    assert [element.get("type") for element in speeds] == ["numerical"] * 3
    for element, item in zip(speeds, q1.variants.items, strict=True):
        speed = item.values["d"] / item.values["t"]
        [(value, allowed)] = moodle_numbers(element)
        assert value == pytest.approx(speed) and allowed == pytest.approx(0.01 * speed)
        assert f"covers {item.values['d']} m in {item.values['t']} s" in text_of(element, "questiontext")
    # A random question drawn from Q2's category is one of its checked parts, never an explanation box.
    label = strings("en")["explanation_label"]
    assert [element.get("type") for element in placed[category_of(course, module, "en", name_of(q2, "en"))]] == [
        "numerical", "numerical"]
    essays = placed[category_of(course, module, "en", f"{name_of(q2, 'en')}: {label}")]
    assert [element.findtext("idnumber") for element in essays] == ["Q2-v1-explanation", "Q2-v2-explanation"]
    for essay, item in zip(essays, q2.variants.items, strict=True):
        assert f"averaged over the whole {item.values['t']} s" in text_of(essay, "graderinfo")
    choices = placed[category_of(course, module, "en", name_of(q3, "en"))]
    for element, item in zip(choices, q3.variants.items, strict=True):
        answers = [(text_of(answer), answer.get("fraction")) for answer in element.findall("answer")]
        assert answers == [(str(item.values["a"]), "0"), (str(item.values["b"]), "100")]
    assert "Q1: its 3 variants" in out and "Q4: its" not in out


def test_gift_and_qti_make_relative_tolerances_absolute_per_variant(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    _, gift_folder, module, course = export_tiny(tmp_path / "gift", "gift", capsys)
    _, qti_folder, _, _ = export_tiny(tmp_path / "qti", "qti", capsys)
    q1, q2, _, _ = module.questions
    speeds = [item.values["d"] / item.values["t"] for item in q1.variants.items]
    _, parsed = parse_gift((gift_folder / "tiny-01-cars-en.gift.txt").read_text(encoding="utf-8"))
    drawn = [question for question in parsed if question.category == category_of(course, module, "en",
                                                                                  name_of(q1, "en"))]
    assert [question.answers for question in drawn] == [[pytest.approx((speed, 0.01 * speed))] for speed in speeds]
    label = strings("en")["explanation_label"]
    explanations = [question for question in parsed
                    if question.category == category_of(course, module, "en", f"{name_of(q2, 'en')}: {label}")]
    assert [question.qtype for question in explanations] == ["essay", "essay"]
    test, items = qti_test_and_items(qti_folder / "tiny-01-cars-en.qti21.zip")
    for speed, number in zip(speeds, (1, 2, 3), strict=True):
        assert qti_numbers(items[f"items/Q-Q1-v{number}.xml"]) == [pytest.approx((speed, 0.01 * speed))]
    # A mixed variant is one item: its checked part and its text box together.
    kinds = sorted(element.tag.removeprefix(QTI) for element in items["items/Q-Q2-v1.xml"].iter()
                   if element.tag.endswith("Interaction"))
    assert kinds == ["extendedTextInteraction", "textEntryInteraction"]
    sections = [section.get("identifier") for section in test.iter(f"{QTI}assessmentSection")]
    assert len(sections) == len(set(sections)) == 4


# -- the guide's worked example ---------------------------------------------------------------------------------

GUIDES = [("docs/authoring.md", "ru", "## Варианты {#variants}"),
          ("docs/en/authoring.md", "en", "## Variants {#variants}")]


def fenced(section: str, language: str, start: str) -> str:
    """The guide's code block in `language` whose text starts with `start`."""
    blocks = [match[1] for match in re.finditer(rf"^```{language}\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)]
    [block] = [block for block in blocks if block.startswith(start)]
    return block


def guide_section(guide: str, heading: str) -> str:
    text = (ROOT / guide).read_text(encoding="utf-8")
    start = text.index(heading)
    return text[start:text.index("\n## ", start + len(heading))]


def write_guide_example(section: str, root: Path, code_edit: Callable[[str], str] = str,
                        quiz_edit: Callable[[str], str] = str) -> Path:
    """The guide's module.yml, variants.py and question as a course of one module (with an author's edits)."""
    module = root / "exercises" / "demo" / "12-infrastructure"
    module.mkdir(parents=True)
    (module.parent / "course.yml").write_text("id: demo\ntitle: Demo\nmodules: 12\n", encoding="utf-8")
    (module / "module.yml").write_text(fenced(section, "yaml", "number: 12"), encoding="utf-8")
    code = fenced(section, "python", "# exercises/rl-for-llm/12-infrastructure/")
    (module / "variants.py").write_text(code_edit(code), encoding="utf-8")
    (module / "quiz.md").write_text(quiz_edit(fenced(section, "text", "/// question | P02")), encoding="utf-8")
    return root / "exercises"


@pytest.mark.parametrize(("guide", "lang", "heading"), GUIDES)
def test_the_guide_s_example_makes_the_variants_its_table_shows_and_exports_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], guide: str, lang: str, heading: str) -> None:
    section = guide_section(guide, heading)
    write_guide_example(section, tmp_path)
    [course] = load_courses(tmp_path / "exercises", LANGUAGES, tmp_path)
    [question] = course.modules[0].questions
    assert question.variants.count == len(question.variants.items) == 10
    # The table of the first variants, as the guide prints it in its own language.
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in section.splitlines()
            if re.match(r"^\| \d+ \|", line)]
    assert len(rows) == 4
    for number, seed, parameters, gradients, moment, gb, gib in rows:
        item = question.variants.items[int(number) - 1]
        assert item.seed == int(seed)
        assert parameters == localize(item.values["N_billion"], "g", lang, False) + "·10⁹"
        assert (int(gradients), int(moment)) == (item.values["G"], item.values["m"])
        assert [gb, gib] == [localize(item.key.fields[0].value, "g", lang, False),
                             localize(item.key.fields[1].value, ".2f", lang, False)]
    # The sample course's P02 is the guide's: the same draws.
    [(_, sample)] = sample_modules()
    p02 = next(question for question in sample.questions if question.id == "P02")
    assert [item.values for item in p02.variants.items] == [item.values for item in question.variants.items]
    # What the guide says of P05: seed 5 was turned down, so variant 5 comes from seed 15.
    p05 = next(question for question in sample.questions if question.id == "P05")
    assert p05.variants.invalid == "skip" and p05.variants.items[4].seed == 15
    status = main(["export", "--format", "moodle", "--language", lang, "--languages", ",".join(LANGUAGES),
                   "--out", str(tmp_path / "out"), str(tmp_path / "exercises")])
    assert status == 0, capsys.readouterr().err
    placed = placed_by_category(tmp_path / "out" / f"demo-12-infrastructure-{lang}.moodle.xml")
    members = placed[category_of(course, course.modules[0], lang, name_of(question, lang))]
    assert [flat(moodle_numbers(element)) for element in members] == [
        pytest.approx(flat(expected_numbers(variant))) for variant in question.variant_questions]


PER_PARAMETER = "    per_parameter = weight_bytes + gradient_bytes + 2 * moment_bytes\n"
# The mistakes the guide's error messages come from, in the order it quotes them: (variants.py, quiz.md) edits.
GUIDE_MISTAKES: list[tuple[Callable[[str], str], Callable[[str], str]]] = [
    (lambda code: code.replace(PER_PARAMETER, PER_PARAMETER
                               + "    moments_per_gradient = 2 * moment_bytes / (moment_bytes - 2)\n"), str),
    (lambda code: code.replace(PER_PARAMETER, PER_PARAMETER
                               + '    assert per_parameter > 16, "more than 16 bytes per parameter"\n'),
     lambda quiz: quiz.replace("variants: p02\n", "variants: {from: p02, invalid: skip}\n")),
    (str, lambda quiz: quiz.replace("variants: p02\n", "variants: p2\n")),
    # The English explanation's last formula: the question's last part.
    (str, lambda quiz: quiz[:quiz.rindex("{{ gib:.2f }}")] + "{{ gibb:.2f }}"
     + quiz[quiz.rindex("{{ gib:.2f }}") + len("{{ gib:.2f }}"):]),
    (str, lambda quiz: quiz.replace('"N*B/1e9"', '"N*BB/1e9"')),
]


@pytest.mark.parametrize(("guide", "lang", "heading"), GUIDES)
def test_the_guide_s_error_messages_are_what_the_build_says(tmp_path: Path, guide: str, lang: str,
                                                           heading: str) -> None:
    section = guide_section(guide, heading)
    errors = section[section.index("{#variant-errors}"):]
    quoted = [line for block in re.findall(r"^```text\n(.*?)^```$", errors, re.MULTILINE | re.DOTALL)
              for line in block.splitlines()]
    said = []
    for number, (code_edit, quiz_edit) in enumerate(GUIDE_MISTAKES):
        exercises = write_guide_example(section, tmp_path / str(number), code_edit, quiz_edit)
        with pytest.raises(SourceErrors) as raised:
            load_courses(exercises, LANGUAGES, exercises.parent)
        said += [str(error) for error in raised.value.errors]
    # The guide writes the module's folder as '…'.
    assert quoted == [re.sub(r"^exercises/demo/12-infrastructure/", "exercises/…/", line) for line in said]
