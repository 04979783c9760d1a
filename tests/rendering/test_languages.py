"""Sites in any languages: a monolingual [en] site, [en, de] and [ru, en, fr], each from a small fixture; plain
strings wherever a text may differ per language; the wrapper rule; hints in the site's own languages.

Build-level and reading-level only: the selector, the instruction line and numbers' formatting are tested where
they are made."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from support.sites import ROOT, build_failure, build_site, copy_site
from zadachnik.core.errors import SourceError, SourceErrors, per_language_hint
from zadachnik.core.text import TextProblem, per_language
from zadachnik.reading.model import Course, load_courses

FIXTURES = ROOT / "tests" / "fixtures"
SITES = {"lang-en": ["en"], "lang-en-de": ["en", "de"], "lang-ru-en-fr": ["ru", "en", "fr"]}
MODULE = "units/01-measures"
SOURCES = f"exercises/{MODULE}"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """Each fixture site built once, as `mkdocs build --strict` would."""
    return {name: build_site(FIXTURES / name / "mkdocs.yml", tmp_path_factory.mktemp(name) / "site")
            for name in SITES}


def page(site: Path, lang: str, first: str, kind: str) -> BeautifulSoup:
    prefix = "" if lang == first else f"{lang}/"
    return BeautifulSoup((site / prefix / MODULE / kind / "index.html").read_text(encoding="utf-8"), "html.parser")


# -- the fixture sites build ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(SITES))
def test_each_fixture_site_builds_strict_with_a_page_per_language(built: dict[str, Path], name: str) -> None:
    languages = SITES[name]
    site = built[name]
    for lang in languages:
        quiz = page(site, lang, languages[0], "quiz")
        assert quiz.html["lang"] == lang
        assert [section["data-zq-type"] for section in quiz.select("[data-zq-type]")] == [
            "single", "numeric", "matching"]
        assert page(site, lang, languages[0], "exercises").select("#e-E1")
    # Only the languages asked for: no folder for any other.
    folders = {path.name for path in site.iterdir() if path.is_dir() and len(path.name) == 2}
    assert folders == set(languages[1:])


@pytest.mark.parametrize("name", list(SITES))
def test_each_fixture_has_a_decimal_numeric_answer_with_a_unit(name: str) -> None:
    """Others' browser tests type and reveal it: a decimal (2.5) shows each locale's decimal sign."""
    [course] = load_courses(FIXTURES / name / "exercises", SITES[name], FIXTURES / name)
    [numeric] = [question for question in course.modules[0].questions if question.type == "numeric"]
    [field] = numeric.key.fields
    assert field.value == 2.5 and field.atol
    assert set(field.unit) == set(SITES[name]) and all(field.unit.values())


def test_monolingual_sources_have_no_language_parts() -> None:
    sources = FIXTURES / "lang-en" / SOURCES
    for name in ("quiz.md", "exercises.md"):
        assert not re.search(r"^////", (sources / name).read_text(encoding="utf-8"), re.MULTILINE), name
    for name in ("course.yml", "01-measures/module.yml"):
        text = (FIXTURES / "lang-en" / "exercises" / "units" / name).read_text(encoding="utf-8")
        assert "title: " in text and "en:" not in text, "titles are plain strings"


def test_monolingual_pages_are_in_english(built: dict[str, Path]) -> None:
    site = built["lang-en"]
    quiz = page(site, "en", "en", "quiz")
    text = quiz.get_text(" ")
    for words in ("Units", "An SI base unit", "Which of these units is an SI base unit?", "The kilogram",
                  "Cutting a rope", "Length of a piece", "Quantities and units", "The metre"):
        assert words in text, words
    assert "////" not in text and "| An SI base unit" not in text
    [question] = quiz.select("#q-Q1")
    assert "An SI base unit" in question.get_text(" ")
    exercises = page(site, "en", "en", "exercises").get_text(" ")
    assert "Measure your desk" in exercises and "The area is the length times the width" in exercises
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "Units and measures" in home and "Measuring" in home and "did not run" not in home


# -- reading-level helpers: a small course in any languages --------------------------------------------------

QUESTION = """/// question | Q1
type: single
answer: B
{parts}///
"""
TEXTS = {
    "en": ("A question", "Which one?\n\noptions:\nA. This\nB. That\n\nexplanation:\nThat one."),
    "de": ("Eine Frage", "Welche?\n\noptions:\nA. Diese\nB. Jene\n\nexplanation:\nJene."),
    "ru": ("Вопрос", "Какой?\n\noptions:\nA. Этот\nB. Тот\n\nexplanation:\nТот."),
}


def parts(languages: list[str]) -> str:
    return "".join(f"\n//// {lang} | {TEXTS[lang][0]}\n{TEXTS[lang][1]}\n////\n" for lang in languages)


def course_files(base: Path, languages: list[str], quiz: str | None = None, exercises: str | None = None,
                 course: str = "id: c\ntitle: Course\nmodules: 1\n", module: str = "number: 1\ntitle: M\n") -> Path:
    folder = base / "exercises" / "c" / "01-m"
    folder.mkdir(parents=True)
    (folder.parent / "course.yml").write_text(course, encoding="utf-8")
    (folder / "module.yml").write_text(module, encoding="utf-8")
    (folder / "quiz.md").write_text(quiz if quiz is not None else QUESTION.format(parts=parts(languages)),
                                    encoding="utf-8")
    if exercises is not None:
        (folder / "exercises.md").write_text(exercises, encoding="utf-8")
    return base / "exercises"


def load(base: Path, languages: list[str], **files: str) -> Course:
    [course] = load_courses(course_files(base, languages, **files), languages, base)
    return course


def errors(base: Path, languages: list[str], **files: str) -> list[SourceError]:
    with pytest.raises(SourceErrors) as info:
        load(base, languages, **files)
    return info.value.errors


def one_error(base: Path, languages: list[str], **files: str) -> SourceError:
    found = errors(base, languages, **files)
    assert len(found) == 1, [str(error) for error in found]
    return found[0]


def line_of(text: str, needle: str) -> int:
    [number] = [number for number, line in enumerate(text.splitlines(), start=1) if needle in line]
    return number


# -- the wrapper rule ----------------------------------------------------------------------------------------

WRAPPERLESS = """/// question | Q1 | A question
type: single
answer: B

Which one?

options:
A. This
B. That

explanation:
That one.
///
"""


def test_one_language_source_may_leave_out_the_language_part(tmp_path: Path) -> None:
    question = load(tmp_path, ["en"], quiz=WRAPPERLESS).modules[0].questions[0]
    assert question.title["en"].markdown == "A question"
    assert (question.body["en"].markdown, question.body["en"].line) == ("Which one?", line_of(WRAPPERLESS, "Which"))
    assert question.explanation["en"].markdown == "That one."
    assert [entry.text["en"].markdown for entry in question.lists["options"]] == ["This", "That"]
    assert question.key.correct == ["B"]


def test_one_language_source_may_keep_the_language_part(tmp_path: Path) -> None:
    question = load(tmp_path, ["de"]).modules[0].questions[0]
    assert question.title == {"de": question.title["de"]} and question.title["de"].markdown == "Eine Frage"


@pytest.mark.parametrize("languages", [["en", "de"], ["ru", "en", "fr"]])
def test_a_source_without_language_parts_on_a_multilingual_site_names_every_language(
        tmp_path: Path, languages: list[str]) -> None:
    error = one_error(tmp_path, languages, quiz=WRAPPERLESS)
    assert (error.path, error.line) == ("exercises/c/01-m/quiz.md", 1)
    assert error.message == "question Q1 has no language parts"
    for lang in languages:
        assert f"'//// {lang} | Title'" in error.hint
    assert str(error).startswith("exercises/c/01-m/quiz.md:1: ")


def test_an_en_de_source_missing_german_fails_with_its_line_and_both_languages(tmp_path: Path) -> None:
    quiz = QUESTION.format(parts=parts(["en"]))
    error = one_error(tmp_path, ["en", "de"], quiz=quiz)
    assert (error.path, error.line) == ("exercises/c/01-m/quiz.md", line_of(quiz, "/// question | Q1"))
    assert error.message == "question Q1 has no 'de' text"
    assert "'//// de | Title'" in error.hint and "en, de" in error.hint


def test_an_en_de_site_missing_german_fails_the_build_with_file_and_line(tmp_path: Path, caplog) -> None:
    site = copy_site(FIXTURES / "lang-en-de", tmp_path / "src")
    quiz = site / SOURCES / "quiz.md"
    text = quiz.read_text(encoding="utf-8")
    start = text.index("//// de | Ein Seil teilen")
    text = text[:start] + text[text.index("////\n", start + 5) + 5:]
    quiz.write_text(text, encoding="utf-8")
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    line = line_of(text, "/// question | Q2")
    assert f"{SOURCES}/quiz.md:{line}: question Q2 has no 'de' text" in message
    assert "'//// de | Title'" in message and "en, de" in message
    assert "Traceback" not in message


def test_title_on_the_opener_and_language_parts_are_refused_together(tmp_path: Path) -> None:
    quiz = QUESTION.replace("Q1\n", "Q1 | A title\n", 1).format(parts=parts(["en"]))
    error = one_error(tmp_path, ["en"], quiz=quiz)
    assert (error.line, error.message) == (1, "a title after the id, and language parts")
    assert "'//// en | Title'" in error.hint and "delete ' | A title' after the id" in error.hint


def test_a_wrapperless_block_needs_its_title_after_the_id(tmp_path: Path) -> None:
    quiz = WRAPPERLESS.replace(" | A question", "")
    error = one_error(tmp_path, ["en"], quiz=quiz)
    assert (error.line, error.message) == (1, "question Q1 has no title")
    assert error.hint == "write it after the id: '/// question | Q1 | Title'"


def test_a_blank_line_inside_the_yaml_of_a_wrapperless_block_is_named(tmp_path: Path) -> None:
    quiz = WRAPPERLESS.replace("type: single\n", "type: single\n\n")
    error = one_error(tmp_path, ["en"], quiz=quiz)
    assert (error.line, error.message) == (line_of(quiz, "answer: B"), "'answer:' is below a blank line, in the text")
    blank = line_of(quiz, "answer") - 1
    assert error.hint == f"the first blank line ends the block's YAML: delete the one at line {blank}"


def test_yaml_with_blank_lines_inside_code_stays_yaml(tmp_path: Path) -> None:
    quiz = """/// question | Q1 | Double it
type: code
solution: |
  def f(x):

      return 2 * x
tests:
  - test: f(2) == 4
    message: f(2) is 4

Write f(x) that doubles x.

explanation:
Multiply by two.
///
"""
    question = load(tmp_path, ["en"], quiz=quiz).modules[0].questions[0]
    assert "\n\n" in question.key.solution and question.body["en"].markdown == "Write f(x) that doubles x."
    assert question.key.tests[0].message == {"en": "f(2) is 4"}


def test_a_wrapperless_exercise_without_yaml_starts_with_its_text(tmp_path: Path) -> None:
    text = "/// exercise | E1 | Sum\nNote: add them up.\n\nsolution:\nThey add up.\n///\n"
    exercise = load(tmp_path, ["en"], exercises=text).modules[0].exercises[0]
    assert exercise.title["en"].markdown == "Sum"
    assert (exercise.statement["en"].markdown, exercise.statement["en"].line) == ("Note: add them up.", 2)
    assert exercise.solution["en"].markdown == "They add up." and exercise.label == {"en": "E1"}


def test_a_wrapperless_exercise_with_yaml(tmp_path: Path) -> None:
    text = "/// exercise | E1 | Sum\nlabel: Task 1\n\nAdd them up.\n\nsolution:\nThey add up.\n///\n"
    exercise = load(tmp_path, ["en"], exercises=text).modules[0].exercises[0]
    assert exercise.label == {"en": "Task 1"} and exercise.statement["en"].markdown == "Add them up."


def test_a_wrapperless_block_with_no_text_says_so(tmp_path: Path) -> None:
    quiz = "/// question | Q1 | A question\ntype: single\nanswer: B\n///\n"
    error = one_error(tmp_path, ["en"], quiz=quiz)
    assert (error.line, error.message) == (1, "question Q1 has no text")
    assert "blank line" in error.hint


def test_text_right_after_the_yaml_without_a_blank_line_is_named(tmp_path: Path) -> None:
    quiz = WRAPPERLESS.replace("answer: B\n\n", "answer: B\n")
    error = one_error(tmp_path, ["en"], quiz=quiz)
    # Where YAML notices: at the text's line or just after it.
    assert line_of(quiz, "Which one?") <= error.line <= line_of(quiz, "Which one?") + 1
    assert error.message.startswith("YAML syntax error")
    assert "a blank line between the YAML and the text" in error.hint


def test_a_section_title_may_be_a_plain_string(tmp_path: Path) -> None:
    quiz = "/// section | 1.1\nBasics\n///\n\n" + QUESTION.format(parts=parts(["en", "de"]))
    section = load(tmp_path, ["en", "de"], quiz=quiz).modules[0].quiz[0]
    assert {lang: fragment.markdown for lang, fragment in section.title.items()} == {"en": "Basics", "de": "Basics"}


def test_a_section_with_a_title_after_its_id_is_told_where_it_goes(tmp_path: Path) -> None:
    quiz = "/// section | 1.1 | Basics\n///\n\n" + WRAPPERLESS
    error = one_error(tmp_path, ["en"], quiz=quiz)
    assert (error.line, error.message) == (1, "a section's title is its YAML")
    assert error.hint == "write it on the line below: 'Basics'"


# -- plain strings wherever a per-language text is allowed ---------------------------------------------------

EVERY_TEXT = """/// section | 1.1
Python
///

/// question | Q1
type: numeric
fields:
  x: {answer: 2.5, atol: 0.05, unit: m}
@PARTS@///

/// question | Q2
type: code
solution: |
  def f(x):
      return 2 * x
tests:
  - test: f(2) == 4
    message: f(2) must be 4
@CODE@///
"""
CODE_TEXTS = {"en": ("Double", "Write f.\n\nexplanation:\nTimes two."),
              "de": ("Verdoppeln", "Schreiben Sie f.\n\nexplanation:\nMal zwei.")}
EXERCISE = """/// exercise | E1
label: T1
notebooks:
  - file: nb.ipynb
    section: Loops
@PARTS@///
"""
EX_TEXTS = {"en": ("Sum", "Add.\n\nsolution:\nDone."), "de": ("Summe", "Addieren.\n\nsolution:\nFertig.")}
NUMERIC_TEXTS = {"en": ("Rope", "Half of 5 m?\n\nfields:\n- x: Length\n\nexplanation:\n2.5 m."),
                 "de": ("Seil", "Die Hälfte von 5 m?\n\nfields:\n- x: Länge\n\nexplanation:\n2,5 m.")}


def texts_parts(texts: dict[str, tuple[str, str]], languages: list[str]) -> str:
    return "".join(f"\n//// {lang} | {texts[lang][0]}\n{texts[lang][1]}\n////\n" for lang in languages)


def every_text_sources(languages: list[str]) -> tuple[str, str]:
    quiz = EVERY_TEXT.replace("@PARTS@", texts_parts(NUMERIC_TEXTS, languages)).replace(
        "@CODE@", texts_parts(CODE_TEXTS, languages))
    return quiz, EXERCISE.replace("@PARTS@", texts_parts(EX_TEXTS, languages))


def every_text_course(base: Path, languages: list[str]) -> Course:
    quiz, exercises = every_text_sources(languages)
    files = base / "exercises" / "c" / "01-m" / "files"
    course_root = course_files(base, languages, quiz=quiz, exercises=exercises)
    files.mkdir()
    (files / "nb.ipynb").write_text("{}", encoding="utf-8")
    [course] = load_courses(course_root, languages, base)
    return course


@pytest.mark.parametrize("languages", [["en"], ["en", "de"]])
def test_a_plain_string_is_the_same_text_in_every_language(tmp_path: Path, languages: list[str]) -> None:
    course = every_text_course(tmp_path, languages)
    assert course.title == dict.fromkeys(languages, "Course") and course.modules[0].title == dict.fromkeys(
        languages, "M")
    module = course.modules[0]
    section, numeric, code = module.quiz
    assert {lang: fragment.markdown for lang, fragment in section.title.items()} == dict.fromkeys(languages, "Python")
    assert numeric.key.fields[0].unit == dict.fromkeys(languages, "m")
    assert code.key.tests[0].message == dict.fromkeys(languages, "f(2) must be 4")
    [exercise] = module.exercises
    assert exercise.label == dict.fromkeys(languages, "T1")
    assert exercise.notebooks[0].section == dict.fromkeys(languages, "Loops")
    assert exercise.notebooks[0].file == dict.fromkeys(languages, "nb.ipynb")


def test_a_plain_string_test_message_builds_and_reaches_the_page(tmp_path: Path) -> None:
    site = copy_site(FIXTURES / "lang-en", tmp_path / "src")
    quiz = site / SOURCES / "quiz.md"
    quiz.write_text(quiz.read_text(encoding="utf-8") + """
/// question | Q4 | Double it
type: code
solution: |
  def double(x):
      return 2 * x
tests:
  - test: double(2) == 4
    message: double(2) must be 4

Write `double(x)`, which returns twice `x`.

explanation:
`return 2 * x` is enough.
///
""", encoding="utf-8")
    built = build_site(site / "mkdocs.yml", tmp_path / "out")
    html = (built / MODULE / "quiz" / "index.html").read_text(encoding="utf-8")
    assert '"message": {"en": "double(2) must be 4"}' in html


# What each place accepts, its YAML line in a module's sources, and a wrong value for it.
PLACES = {
    "course title": ("course", "title: {value}"),
    "module title": ("module", "title: {value}"),
    "unit": ("quiz", "  x: {{answer: 2.5, atol: 0.05, unit: {value}}}"),
    "test message": ("quiz", "    message: {value}"),
    "label": ("exercises", "label: {value}"),
    "notebook section": ("exercises", "    section: {value}"),
}


def with_value(base: Path, languages: list[str], place: str, value: str) -> tuple[str, str, int]:
    """Sources where `place` holds `value`: (the file's path as errors show it, its text, the value's line)."""
    where, template = PLACES[place]
    line = template.format(value=value)
    quiz, exercises = every_text_sources(languages)
    course, module = "id: c\ntitle: Course\nmodules: 1\n", "number: 1\ntitle: M\n"
    texts = {"course": course, "module": module, "quiz": quiz, "exercises": exercises}
    defaults = {"course title": "title: Course", "module title": "title: M",
                "unit": "  x: {answer: 2.5, atol: 0.05, unit: m}", "test message": "    message: f(2) must be 4",
                "label": "label: T1",
                "notebook section": "    section: Loops"}
    assert defaults[place] in texts[where]
    texts[where] = texts[where].replace(defaults[place], line)
    course_files(base, languages, quiz=texts["quiz"], exercises=texts["exercises"], course=texts["course"],
                 module=texts["module"])
    files = base / "exercises" / "c" / "01-m" / "files"
    files.mkdir()
    (files / "nb.ipynb").write_text("{}", encoding="utf-8")
    shown = {"course": "exercises/c/course.yml", "module": "exercises/c/01-m/module.yml",
             "quiz": "exercises/c/01-m/quiz.md", "exercises": "exercises/c/01-m/exercises.md"}[where]
    return shown, texts[where], line_of(texts[where], line)


def error_at(base: Path, languages: list[str], place: str, value: str) -> tuple[SourceError, str, int]:
    shown, _, line = with_value(base, languages, place, value)
    with pytest.raises(SourceErrors) as info:
        load_courses(base / "exercises", languages, base)
    [error] = info.value.errors
    assert error.path == shown
    return error, shown, line


@pytest.mark.parametrize("place", list(PLACES))
def test_a_mapping_missing_a_language_names_its_line_and_the_language(tmp_path: Path, place: str) -> None:
    error, _, line = error_at(tmp_path, ["en", "de"], place, "{en: Text}")
    assert error.line == line
    assert error.message.endswith("has no text in de")
    assert "'de: …'" in error.hint


@pytest.mark.parametrize("place", list(PLACES))
def test_a_value_that_is_no_text_gets_a_hint_in_the_sites_languages(tmp_path: Path, place: str) -> None:
    error, _, line = error_at(tmp_path / "two", ["en", "de"], place, "[a, b]")
    assert error.line == line
    assert "{en: …, de: …}" in error.hint and "plain string" in error.hint
    assert "ru" not in error.hint


@pytest.mark.parametrize("place", list(PLACES))
def test_hints_on_a_monolingual_site_suggest_a_plain_string(tmp_path: Path, place: str) -> None:
    error, _, line = error_at(tmp_path, ["en"], place, "[a, b]")
    assert error.line == line
    assert "plain string" in error.hint
    assert "{" not in error.hint and "ru" not in error.hint


def test_per_language_reads_both_forms() -> None:
    assert per_language("Text", ["en", "de"], "'title'", "title") == {"en": "Text", "de": "Text"}
    assert per_language({"en": "A", "de": "B", "fr": "C"}, ["en", "de"], "'title'", "title") == {"en": "A",
                                                                                                 "de": "B"}
    assert per_language(12, ["en"], "'label'", "label") == {"en": "12"}
    for wrong in (None, True, ["a"], {"en": ["a"], "de": "B"}, "  ", 1.5):
        with pytest.raises(TextProblem):
            per_language(wrong, ["en", "de"], "'title'", "title")


def test_per_language_hint_uses_the_sites_languages() -> None:
    assert per_language_hint(["en"], "unit", "m") == "write a plain string: 'unit: m'"
    assert per_language_hint(["en", "de"], "unit", "m") == (
        "write 'unit: {en: …, de: …}', or a plain string for the same text in every language: 'unit: m'")


SCANNED = [*sorted((ROOT / "plugins" / "zadachnik" / "reading").glob("*.py")),
           *sorted((ROOT / "plugins" / "zadachnik" / "qtypes").glob("*.py")),
           ROOT / "plugins" / "zadachnik" / "core" / "errors.py", ROOT / "plugins" / "zadachnik" / "cli.py"]


@pytest.mark.parametrize("path", SCANNED, ids=lambda path: path.name)
def test_no_hint_hard_codes_russian_and_english(path: Path) -> None:
    """Hints name the site's own languages (per_language_hint), never a fixed {ru: …, en: …}."""
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"\{ru:|'ru: |'//// ru|ru: …", text), path.name


# -- the starter site in one language ------------------------------------------------------------------------


def test_the_starter_in_one_language_has_no_language_parts_and_plain_strings(tmp_path: Path) -> None:
    from zadachnik.checking.checks import check_answer_keys
    from zadachnik.starter import QUIZ, starter_files

    for relative, text in starter_files(["en"]).items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if relative.endswith((".md", ".yml")) and relative.startswith("exercises/"):
            assert not re.search(r"^////|\{en:", text, re.MULTILINE), relative
    courses = load_courses(tmp_path / "exercises", ["en"], tmp_path)
    assert check_answer_keys(courses, ["en"], str) == []
    questions = courses[0].modules[0].questions
    assert questions[0].title["en"].markdown == "A prime number" and len(questions) == len(QUIZ)


def test_text_problem_carries_its_hint() -> None:
    problem = TextProblem("'unit' has no text in de", "add 'de: …'")
    assert str(problem) == "'unit' has no text in de" and problem.hint == "add 'de: …'"


@pytest.mark.parametrize("name", list(SITES))
def test_zadachnik_check_passes_on_each_fixture_site(name: str, capsys) -> None:
    from zadachnik.cli import main

    assert main(["check", "--config", str(FIXTURES / name / "mkdocs.yml")]) == 0
    assert f"are fine ({', '.join(SITES[name])})" in capsys.readouterr().out


def test_zadachnik_check_names_a_single_code_written_without_a_list(tmp_path: Path, capsys) -> None:
    from zadachnik.cli import main

    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: S\nplugins:\n  - zadachnik:\n      languages: de\n", encoding="utf-8")
    (tmp_path / "exercises").mkdir()
    assert main(["check", "--config", str(config)]) == 2
    assert "write e.g. 'languages: [de]'; one code makes a monolingual site" in capsys.readouterr().err


def test_a_blank_line_in_the_yaml_of_a_block_without_parts_on_a_multilingual_site_asks_for_the_parts(
        tmp_path: Path) -> None:
    quiz = WRAPPERLESS.replace("type: single\n", "type: single\n\n")
    error = one_error(tmp_path, ["en", "de"], quiz=quiz)
    assert (error.line, error.message) == (1, "question Q1 has no language parts")


def test_a_monolingual_site_with_a_blank_line_in_a_blocks_yaml_fails_the_build_at_its_line(
        tmp_path: Path, caplog) -> None:
    site = copy_site(FIXTURES / "lang-en", tmp_path / "src")
    quiz = site / SOURCES / "quiz.md"
    text = quiz.read_text(encoding="utf-8").replace("type: numeric\nfields:", "type: numeric\n\nfields:")
    quiz.write_text(text, encoding="utf-8")
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    line = line_of(text, "length: {answer: 2.5") - 1
    assert f"{SOURCES}/quiz.md:{line}: 'fields:' is below a blank line, in the text" in message
    assert f"delete the one at line {line - 1}" in message and "Traceback" not in message


def test_a_yaml_mistake_in_a_block_without_parts_gets_no_word_about_blank_lines(tmp_path: Path) -> None:
    quiz = WRAPPERLESS.replace("answer: B\n", "answer: B: C\n")
    error = one_error(tmp_path, ["en"], quiz=quiz)
    assert error.line == line_of(quiz, "answer: B: C") and error.message.startswith("YAML syntax error")
    assert "blank line" not in error.hint


def test_text_between_language_parts_is_told_the_parts_own_language(tmp_path: Path) -> None:
    quiz = QUESTION.format(parts=parts(["en", "de"]).replace("////\n\n//// de", "////\nstray\n//// de"))
    error = one_error(tmp_path, ["en", "de"], quiz=quiz)
    assert (error.line, error.message) == (line_of(quiz, "stray"), "text between language parts")
    assert "'//// en' … '////'" in error.hint and "ru" not in error.hint


def test_a_page_gets_the_words_its_question_types_ask_for_and_no_others() -> None:
    """The code editor's words (Ace's, about 400 bytes) go to quiz pages with a code question only, asked for by
    the type (QuestionType.word_sections), not by a type named in the renderer."""
    from zadachnik.rendering.render import module_has, page_runtime_words, plan_page

    seen = set()
    for course in load_courses(ROOT / "exercises", ["ru", "en"], ROOT):
        for module in course.modules:
            for kind in ("quiz", "exercises"):
                if not module_has(module, kind):
                    continue
                words = page_runtime_words(plan_page(course, module, kind, "en", ["ru", "en"]))
                has_code = kind == "quiz" and any(question.type == "code" for question in module.questions)
                assert ("editor" in words) == has_code, (module.slug, kind)
                if has_code:
                    assert words["editor"]["text-input.aria-roledescription"] == "editor"
                seen.add(has_code)
    assert seen == {True, False}


def test_the_404_page_is_in_the_sites_first_language_when_the_theme_names_none(tmp_path: Path, caplog) -> None:
    source = copy_site(FIXTURES / "lang-en-de", tmp_path / "src")
    config = source / "mkdocs.yml"
    text = config.read_text(encoding="utf-8").replace("  language: en\n", "")
    config.write_text(text.replace("languages: [en, de]", "languages: [de, en]"), encoding="utf-8")
    # German at the root now, English under en/.
    docs = source / "docs"
    docs.joinpath("en").mkdir()
    docs.joinpath("index.md").rename(docs / "en" / "index.md")
    docs.joinpath("de", "index.md").rename(docs / "index.md")
    site = build_site(config, tmp_path / "site")
    assert '<html lang="de"' in (site / "404.html").read_text(encoding="utf-8")
    # A theme language written against the site's first is warned of, which stops a strict build.
    config.write_text(text.replace("languages: [en, de]", "languages: [de, en]").replace(
        "  name: material\n", "  name: material\n  language: en\n", 1), encoding="utf-8")
    from mkdocs.exceptions import Abort

    with pytest.raises(Abort):
        build_site(config, tmp_path / "site2")
    warnings = [record.getMessage() for record in caplog.records if record.levelname == "WARNING"]
    assert any("the theme's 'language' is 'en', but the site's first language is 'de'" in line for line in warnings)
