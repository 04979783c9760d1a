"""Authors' mistakes in exercise sources: each is reported with its file, its exact line and what to write instead.

Every test writes a small course into tmp_path, loads it with `load_courses` and looks at the SourceErrors.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
from support.sites import FIXTURE_SITE
from support.sources import (
    COURSE,
    EN_MATCHING,
    EN_NUMERIC,
    EN_SINGLE,
    LANGS,
    MODULE,
    MODULE_DIR,
    MODULE_YML,
    QUIZ,
    RU_MATCHING,
    RU_NUMERIC,
    RU_SINGLE,
    block,
    errors_of,
    line_with,
    lines_with,
    load,
    numeric,
    one_error,
    write_course,
)
from zadachnik.core.errors import SourceError, SourceErrors
from zadachnik.reading.model import Exercise, Question, Section, load_courses

FIXTURE_EXERCISES = FIXTURE_SITE / "exercises"

# Paths as the errors show them: relative to the `base` folder (tmp_path), as support.sources writes the course.
EXERCISES = f"{MODULE_DIR}/exercises.md"
COURSE_YML = "exercises/course/course.yml"

RU_EXERCISE = "Посчитайте сумму.\n\nsolution:\nСумма равна n(n+1)/2."
EN_EXERCISE = "Compute the sum.\n\nsolution:\nThe sum is n(n+1)/2."


# -- helpers ------------------------------------------------------------------------------------------


def matching(answer: str, ident: str = "Q1") -> str:
    return block(ident=ident, yaml=f"type: matching\nanswer: {answer}", ru=RU_MATCHING, en=EN_MATCHING)


def exercise(yaml: str = "", ru: str | None = RU_EXERCISE, en: str | None = EN_EXERCISE, ident: str = "E1") -> str:
    return block(kind="exercise", ident=ident, yaml=yaml, ru=ru, en=en, ru_title="Упражнение", en_title="Exercise")


def line_is(text: str, exact: str) -> int:
    numbers = [number for number, line in enumerate(text.splitlines(), start=1) if line == exact]
    assert len(numbers) == 1, f"{exact!r} is on lines {numbers}"
    return numbers[0]


# -- sanity of the helpers and of the error format ------------------------------------------------------


def test_valid_course_built_by_the_helpers_loads(tmp_path: Path) -> None:
    quiz = (
        block()
        + "\n"
        + numeric("  x: {answer: 16/7, atol: 0.001}", ident="Q2")
        + "\n"
        + matching("{1: B, 2: A}", ident="Q3")
    )
    courses = load(tmp_path, quiz=quiz, exercises=exercise())
    module = courses[0].modules[0]
    assert [(q.id, q.type) for q in module.questions] == [("Q1", "single"), ("Q2", "numeric"), ("Q3", "matching")]
    assert module.questions[0].key.correct == ["B"]
    assert module.questions[1].key.fields[0].value == pytest.approx(16 / 7)
    assert module.questions[2].key.pairs == {"1": "B", "2": "A"}
    assert [e.id for e in module.exercises] == ["E1"]


def test_source_error_str_is_path_line_message_hint() -> None:
    assert (
        str(SourceError("a/quiz.md", 7, "it is wrong", "write it right")) == "a/quiz.md:7: it is wrong (write it right)"
    )
    assert str(SourceError("a/quiz.md", 7, "it is wrong")) == "a/quiz.md:7: it is wrong"
    errors = SourceErrors([SourceError("a", 1, "x"), SourceError("b", 2, "y", "z")])
    assert str(errors) == "a:1: x\nb:2: y (z)"


# -- YAML ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("yaml", "bad_line", "messages"),
    [
        # libyaml's wording, or PyYAML's own where it was built without libyaml.
        ("type: single\nanswer: B: C", "answer: B: C",
         ("mapping values are not allowed in this context", "mapping values are not allowed here")),
        ("type: single\n\tanswer: B", "\tanswer: B",
         ("found a tab character that violates indentation", "found character '\\t' that cannot start any token")),
    ],
    ids=["colon-in-value", "tab-indent"],
)
def test_yaml_syntax_error_in_question_block(tmp_path: Path, yaml: str, bad_line: str, messages: tuple) -> None:
    quiz = block() + "\n" + block(ident="Q2", yaml=yaml)
    error = one_error(tmp_path, quiz=quiz)
    assert error.path == QUIZ
    assert error.line == line_is(quiz, bad_line)
    # PyYAML's words, then what to write instead (tests/reading/test_author_mistakes.py).
    assert any(error.message.startswith(f"YAML syntax error: {message}: ") for message in messages), error.message


def test_yaml_syntax_error_in_course_yml(tmp_path: Path) -> None:
    course = "id: course\ntitle:\n  ru: Курс\n en: Course\nmodules: 3\n"
    error = one_error(tmp_path, quiz=block(), course=course)
    assert (error.path, error.line) == (COURSE_YML, 4)
    assert error.message.startswith("YAML syntax error: ")
    assert "expected <block end>" in error.message or "did not find expected key" in error.message


def test_yaml_syntax_error_in_module_yml(tmp_path: Path) -> None:
    module = "number: 1\ntitle: {ru: Модуль, en: Module}}\n"
    error = one_error(tmp_path, quiz=block(), module=module)
    assert (error.path, error.line) == (MODULE_YML, 2)
    assert error.message.startswith("YAML syntax error: ")


def test_duplicated_yaml_key_in_question(tmp_path: Path) -> None:
    quiz = block(yaml="type: single\nanswer: A\nanswer: B")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "answer: B"))
    assert error.message == "the key 'answer' is given twice (keep one of them)"


def test_duplicated_yaml_key_in_numeric_field(tmp_path: Path) -> None:
    quiz = numeric("  x:\n    answer: 1\n    atol: 0.1\n    atol: 0.2")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "    atol: 0.2"))
    assert error.message == "the key 'atol' is given twice (keep one of them)"


def test_duplicated_yaml_key_in_course_yml(tmp_path: Path) -> None:
    error = one_error(tmp_path, quiz=block(), course=COURSE + "id: other\n")
    assert (error.path, error.line) == (COURSE_YML, 6)
    assert error.message == "the key 'id' is given twice (keep one of them)"


# -- types and keys -----------------------------------------------------------------------------------


def test_unknown_question_type(tmp_path: Path) -> None:
    quiz = block(yaml="answer: B\ntype: singel")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "type: singel"))
    assert error.message == "unknown question type 'singel'"
    assert error.hint == ("use one of single, multiple, numeric, formula, blanks, matching, ordering, parsons, open, "
                          "mixed, code")


def test_question_without_type(tmp_path: Path) -> None:
    quiz = block() + "\n" + block(ident="Q2", yaml="answer: B")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "/// question | Q2"))
    assert error.message == "question Q2 has no type"
    assert "add 'type:'" in error.hint


def test_unknown_key_in_numeric_field(tmp_path: Path) -> None:
    quiz = numeric("  x:\n    answer: 16/7\n    tolerence: 0.001")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "    tolerence: 0.001"))
    assert error.message == "unknown key 'tolerence' in field 'x'"
    assert error.hint == "a field takes answer, atol, rtol, unit"


def test_unknown_key_in_numeric_field_in_flow_style_is_on_the_fields_line(tmp_path: Path) -> None:
    quiz = numeric("  y: {answer: 1, atol: 0.1}\n  x: {answer: 16/7, tolerence: 0.001}")
    error = one_error(tmp_path, quiz=quiz)
    assert error.line == line_with(quiz, "tolerence")
    assert error.message == "unknown key 'tolerence' in field 'x'"


@pytest.mark.parametrize(
    ("yaml", "ru", "en", "bad_line", "key", "hint"),
    [
        (
            "type: single\nanwser: B",
            RU_SINGLE,
            EN_SINGLE,
            "anwser: B",
            "anwser",
            "did you mean 'answer'? allowed here: type, answer, check, wrong, shuffle, hint_note, variants",
        ),
        (
            "type: multiple\nanswer: [A, B]\nscorring: net-correct",
            RU_SINGLE,
            EN_SINGLE,
            "scorring: net-correct",
            "scorring",
            "did you mean 'scoring'? allowed here: type, answer, scoring, check, wrong, shuffle, hint_note, variants",
        ),
        (
            "type: numeric\nfeilds:\n  x: {answer: 1}",
            RU_NUMERIC,
            EN_NUMERIC,
            "feilds:",
            "feilds",
            "did you mean 'fields'? allowed here: type, fields, check, wrong, shuffle, hint_note, variants",
        ),
        (
            "type: single\nanswer: B\npoints: 3",
            RU_SINGLE,
            EN_SINGLE,
            "points: 3",
            "points",
            "allowed here: type, answer, check, wrong, shuffle, hint_note, variants",
        ),
        (
            "type: open\nanswer: B",
            "Почему?\n\nexplanation:\nПотому.",
            "Why?\n\nexplanation:\nBecause.",
            "answer: B",
            "answer",
            "allowed here: type, shuffle, hint_note, variants",
        ),
    ],
    ids=["anwser", "scorring", "feilds", "no-close-match", "open-has-no-answer"],
)
def test_unknown_top_level_key_in_question(
    tmp_path: Path, yaml: str, ru: str, en: str, bad_line: str, key: str, hint: str
) -> None:
    quiz = block(yaml=yaml, ru=ru, en=en)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, bad_line))
    assert error.message == f"unknown key '{key}'"
    assert error.hint == hint


def test_unknown_key_in_exercise(tmp_path: Path) -> None:
    exercises = exercise(yaml="project: false\nnotebook: []")
    error = one_error(tmp_path, exercises=exercises)
    assert (error.path, error.line) == (EXERCISES, line_is(exercises, "notebook: []"))
    assert error.message == "unknown key 'notebook'"
    assert error.hint.startswith("did you mean 'notebooks'?")


@pytest.mark.parametrize(
    ("course", "module", "path", "line", "key", "suggestion"),
    [
        (COURSE.replace("modules:", "moduls:"), MODULE, COURSE_YML, 5, "moduls", "modules"),
        (COURSE, MODULE.replace("number:", "numbr:"), MODULE_YML, 1, "numbr", "number"),
    ],
    ids=["course.yml", "module.yml"],
)
def test_unknown_key_in_course_and_module_yml(
    tmp_path: Path, course: str, module: str, path: str, line: int, key: str, suggestion: str
) -> None:
    error = one_error(tmp_path, quiz=block(), course=course, module=module)
    assert (error.path, error.line) == (path, line)
    assert error.message == f"unknown key '{key}'"
    assert error.hint.startswith(f"did you mean '{suggestion}'?")


# -- text missing in a language -----------------------------------------------------------------------


def test_missing_title_in_a_language(tmp_path: Path) -> None:
    quiz = block(en_title=None)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "//// en"))
    assert error.message == "the 'en' part has no title"
    assert error.hint == "write '//// en | Title'"


def test_missing_body_in_a_language(tmp_path: Path) -> None:
    en = EN_SINGLE.replace("What is 2+2?\n\n", "")
    quiz = block(en=en)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "//// en | Question") + 1)
    assert error.message == "the 'en' part has no text before its parts"


def test_missing_option_text_in_a_language(tmp_path: Path) -> None:
    quiz = block(en=EN_SINGLE.replace("B. Four", "B."))
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "B."))
    assert error.message == "cannot read this line of 'options:'"
    assert "A. text" in error.hint


def test_missing_option_in_a_language(tmp_path: Path) -> None:
    quiz = block(en=EN_SINGLE.replace("C. Five\n", ""))
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "A. Three"))
    assert error.message == "the 'en' options are A, B but the 'ru' ones are A, B, C"
    assert error.hint == "every language lists the same options"


def test_options_that_differ_between_languages(tmp_path: Path) -> None:
    en = EN_SINGLE.replace("A. Three", "1. Three").replace("B. Four", "2. Four").replace("C. Five", "3. Five")
    quiz = block(en=en)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "1. Three"))
    assert error.message == "the 'en' options are 1, 2, 3 but the 'ru' ones are A, B, C"


def test_missing_field_label_text_in_a_language(tmp_path: Path) -> None:
    quiz = numeric("  x: {answer: 1}", en=EN_NUMERIC.replace("- x: Ex", "- x:"))
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "- x:"))
    assert error.message == "cannot read this line of 'fields:'"
    assert "- id: Label" in error.hint


def test_missing_field_label_in_a_language(tmp_path: Path) -> None:
    ru = RU_NUMERIC.replace("- x: Икс", "- x: Икс\n- y: Игрек")
    quiz = numeric("  x: {answer: 1}\n  y: {answer: 2}", ru=ru)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "- x: Ex"))
    assert error.message == "the 'en' fields are x but the 'ru' ones are x, y"


def test_field_without_label_in_every_language(tmp_path: Path) -> None:
    quiz = numeric("  x: {answer: 1}\n  y: {answer: 2}")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_with(quiz, "  y: {answer: 2}"))
    assert error.message == "the field 'y' has no label"
    assert error.hint == "add '- y: Label' under 'fields:' in every language"


def test_missing_explanation_part_in_a_language(tmp_path: Path) -> None:
    quiz = block(en=EN_SINGLE.replace("\n\nexplanation:\nBecause it is.", ""))
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "//// en | Question"))
    assert error.message == "the 'en' text has no 'explanation:' part"
    assert error.hint == "add a line 'explanation:' followed by the explanation"


def test_empty_explanation_in_a_language(tmp_path: Path) -> None:
    quiz = block(en=EN_SINGLE.replace("Because it is.", ""))
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, lines_with(quiz, "explanation:")[-1])
    assert error.message == "the 'en' explanation is empty"


def test_missing_whole_language_part(tmp_path: Path) -> None:
    quiz = block() + "\n" + block(ident="Q2", en=None)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "/// question | Q2"))
    assert error.message == "question Q2 has no 'en' text"
    assert error.hint == "add '//// en | Title' … '////' inside the block (this site is in ru, en)"


def test_second_part_in_the_same_language(tmp_path: Path) -> None:
    quiz = block().replace("//// en | Question", "//// ru | Вопрос 2")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "//// ru | Вопрос 2"))
    assert error.message == "a second 'ru' part"
    assert error.hint == f"the first is at line {line_is(quiz, '//// ru | Вопрос')}"


def test_missing_section_title_in_a_language(tmp_path: Path) -> None:
    quiz = "/// section | 1.1\nru: Раздел\n///\n\n" + block()
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, 1)
    assert error.message == "the section's title has no text in en"
    assert error.hint == "add 'en: Title'"


def test_missing_course_title_in_a_language(tmp_path: Path) -> None:
    course = COURSE.replace("  en: Course\n", "")
    error = one_error(tmp_path, quiz=block(), course=course)
    # Reported at the key whose value is wrong.
    assert (error.path, error.line) == (COURSE_YML, line_is(course, "title:"))
    assert error.message == "'title' has no text in en"
    assert error.hint == "add 'en: …', or write a plain string for the same text in every language"


def test_bad_module_count_is_reported_at_its_key(tmp_path: Path) -> None:
    course = COURSE.replace("modules: 3", "modules: many")
    error = one_error(tmp_path, quiz=block(), course=course)
    assert (error.path, error.line) == (COURSE_YML, line_is(course, "modules: many"))
    assert "e.g. 'modules: 13'" in error.message


def test_unknown_language_code(tmp_path: Path) -> None:
    quiz = block().removesuffix("///\n") + "\n//// de | Frage\nWas ist 2+2?\n////\n///\n"
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "//// de | Frage"))
    assert error.message == "unknown language 'de'"
    assert error.hint == "this site's languages are ru, en"


# -- ids ----------------------------------------------------------------------------------------------


def test_duplicate_id_in_a_quiz(tmp_path: Path) -> None:
    quiz = block() + "\n" + block(ident="Q2") + "\n" + block(ident="Q1")
    error = one_error(tmp_path, quiz=quiz)
    # Each block written by `block()` is 28 lines long, and blocks are separated by a blank line.
    assert lines_with(quiz, "/// question | Q1") == [1, 59]
    assert (error.path, error.line) == (QUIZ, 59)
    assert error.message == f"the id 'Q1' is already used at {QUIZ}:1"
    assert "unique in the module" in error.hint


def test_duplicate_id_across_quiz_and_exercises(tmp_path: Path) -> None:
    quiz = block(ident="Q1") + "\n" + block(ident="X7")
    exercises = exercise(ident="E1") + "\n" + exercise(ident="X7")
    error = one_error(tmp_path, quiz=quiz, exercises=exercises)
    assert (error.path, error.line) == (EXERCISES, line_is(exercises, "/// exercise | X7"))
    assert error.message == f"the id 'X7' is already used at {QUIZ}:{line_is(quiz, '/// question | X7')}"


def test_ids_that_differ_only_in_case(tmp_path: Path) -> None:
    """q1 and Q1 name one file in an exported QTI package opened on macOS or Windows, and one id number in
    Moodle: they are one id."""
    quiz = block() + "\n" + block(ident="q1")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, 30)
    assert error.message == f"the id 'q1' is already used at {QUIZ}:1, written 'Q1'"
    assert "whatever their case" in error.hint


def test_same_id_in_two_modules_is_allowed(tmp_path: Path) -> None:
    root = write_course(tmp_path, quiz=block())
    other = root / "course" / "02-n"
    other.mkdir()
    (other / "module.yml").write_text(MODULE.replace("number: 1", "number: 2"), encoding="utf-8")
    (other / "quiz.md").write_text(block(), encoding="utf-8")
    courses = load_courses(root, LANGS, tmp_path)
    assert [[q.id for q in module.questions] for module in courses[0].modules] == [["Q1"], ["Q1"]]


def test_id_with_a_space(tmp_path: Path) -> None:
    quiz = block(ident="Q 1")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, 1)
    assert error.message.startswith("'Q 1' cannot be an id")


# -- choice -------------------------------------------------------------------------------------------


def test_single_choice_without_correct_option(tmp_path: Path) -> None:
    quiz = block(yaml="type: single")
    error = one_error(tmp_path, quiz=quiz)
    # Reported at the block's YAML (its first key), as there is no 'answer:' line to point at.
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "type: single"))
    assert error.message == "single choice needs the correct option"
    assert error.hint == "add 'answer: <marker>', e.g. 'answer: B'"


def test_single_choice_with_two_correct_options(tmp_path: Path) -> None:
    quiz = block(yaml="type: single\nanswer: [A, B]")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "answer: [A, B]"))
    assert error.message == "single choice has exactly one correct option, not 2"
    assert error.hint == "name one marker, or use 'type: multiple'"


def test_several_answers_written_as_one_text_are_told_to_be_a_list(tmp_path: Path) -> None:
    quiz = block(yaml='type: multiple\nanswer: "A, C"')
    error = one_error(tmp_path, quiz=quiz)
    assert error.message == "the correct option 'A, C' does not exist"
    assert error.hint == "several markers are a list: write [A, C]"


@pytest.mark.parametrize(
    ("yaml", "bad_line", "missing"),
    [
        ("type: single\nanswer: D", "answer: D", "D"),
        ("type: single\nanswer: 2", "answer: 2", "2"),
        ("type: multiple\nanswer: [A, E]", "answer: [A, E]", "E"),
    ],
    ids=["single-letter", "single-number-for-letters", "multiple"],
)
def test_correct_option_that_does_not_exist(tmp_path: Path, yaml: str, bad_line: str, missing: str) -> None:
    quiz = block(yaml=yaml)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, bad_line))
    assert error.message == f"the correct option '{missing}' does not exist"
    assert error.hint == "use one of the markers A, B, C"


NUMBERED = {"ru": RU_SINGLE.replace("A. ", "1. ").replace("B. ", "2. ").replace("C. ", "3. "),
            "en": EN_SINGLE.replace("A. ", "1. ").replace("B. ", "2. ").replace("C. ", "3. ")}


@pytest.mark.parametrize(
    ("yaml", "message", "hint"),
    [
        ("type: single\nanswer: []", "answer must name option markers", "write e.g. 'answer: 2'"),
        ("type: multiple\nanswer: []", "answer must name option markers", "write e.g. 'answer: [1, 3]'"),
        ("type: single\nanswer: {A: 1}", "answer must name option markers", "write e.g. 'answer: 2'"),
        ("type: single", "single choice needs the correct option", "add 'answer: <marker>', e.g. 'answer: 2'"),
        ("type: multiple", "multiple choice needs its correct options", "add e.g. 'answer: [1, 3]'"),
        ("type: single\nanswer: 2\ncheck: |\n  def check(answer):\n      return True\nwrong: [[]]",
         "a wrong answer must name option markers",
         "write each wrong answer as 'answer:' is written: one option's marker, or a list of them"),
    ],
    ids=["single-empty", "multiple-empty", "single-mapping", "single-missing", "multiple-missing", "wrong-empty"],
)
def test_a_hint_about_the_answer_uses_the_questions_own_markers(tmp_path: Path, yaml: str, message: str,
                                                                 hint: str) -> None:
    """Options numbered 1, 2, 3 were told to write 'answer: B'; a wrong answer, to write 'answer:' at all."""
    error = one_error(tmp_path, quiz=block(yaml=yaml, ru=NUMBERED["ru"], en=NUMBERED["en"]))
    assert (error.message, error.hint) == (message, hint)


def test_multiple_choice_names_an_option_twice(tmp_path: Path) -> None:
    quiz = block(yaml="type: multiple\nanswer: [A, A]")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.line, error.message) == (line_is(quiz, "answer: [A, A]"), "an option is named twice in answer")


def test_options_marked_out_of_order(tmp_path: Path) -> None:
    quiz = block(
        yaml="type: single\nanswer: A",
        ru=RU_SINGLE.replace("B. Четыре\nC. Пять", "C. Пять"),
        en=EN_SINGLE.replace("B. Four\nC. Five", "C. Five"),
    )
    error = one_error(tmp_path, quiz=quiz)
    # The first language is read first, so its list is the one reported.
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "A. Три"))
    assert error.message == "options are marked A, C"
    assert error.hint == "mark them A, B in order"


def test_option_marker_used_twice(tmp_path: Path) -> None:
    quiz = block(ru=RU_SINGLE.replace("C. Пять", "B. Пять"))
    error = one_error(tmp_path, quiz=quiz)
    assert (error.line, error.message) == (line_is(quiz, "B. Пять"), "'B' appears twice in options")


# -- numeric ------------------------------------------------------------------------------------------


def test_numeric_field_without_answer(tmp_path: Path) -> None:
    quiz = numeric("  x:\n    atol: 0.1")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "  x:"))
    assert error.message == "the field 'x' has no answer"
    assert "answer: 8*(45+30)" in error.hint


@pytest.mark.parametrize("name", ["atol", "rtol"])
def test_negative_tolerance(tmp_path: Path, name: str) -> None:
    quiz = numeric(f"  x:\n    answer: 16/7\n    {name}: -0.01")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, f"    {name}: -0.01"))
    assert error.message == f"the tolerance {name} is negative (-0.01)"
    assert "without the minus sign" in error.hint


@pytest.mark.parametrize("name", ["atol", "rtol"])
def test_a_tolerance_written_as_a_percentage_says_to_write_rtol(tmp_path: Path, name: str) -> None:
    quiz = numeric(f'  x:\n    answer: 16/7\n    {name}: "5%"')
    error = one_error(tmp_path, quiz=quiz)
    assert error.line == line_is(quiz, f'    {name}: "5%"')
    assert error.hint == "a share of the answer is a relative tolerance: write 'rtol: 0.05'"


@pytest.mark.parametrize("rtol", ["5", "1"])
def test_a_relative_tolerance_of_100_percent_or_more_is_taken_for_a_percentage(tmp_path: Path, rtol: str) -> None:
    """`rtol: 5` meant 5 % and accepted anything from -4 to 6 times the key, while the page said ±500 %."""
    quiz = numeric(f"  x:\n    answer: 16/7\n    rtol: {rtol}")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, f"    rtol: {rtol}"))
    assert error.message == f"rtol: {rtol} lets an answer be off by {rtol}00% of the key"
    assert f"for {rtol} % write 'rtol: 0.0{rtol}'" in error.hint


@pytest.mark.parametrize("answer", ["0", "1-1", "0.0"])
def test_a_relative_tolerance_of_an_answer_of_zero_says_to_give_atol(tmp_path: Path, answer: str) -> None:
    """A share of 0 is 0: the page said ±1 %, and only 0 itself passed."""
    quiz = numeric(f"  x:\n    answer: {answer}\n    rtol: 0.01")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "    rtol: 0.01"))
    assert "has the answer 0 and only rtol" in error.message
    assert "'atol: 0.01'" in error.hint


def test_a_relative_tolerance_of_an_answer_of_zero_with_atol_is_fine(tmp_path: Path) -> None:
    load(tmp_path, quiz=numeric("  x:\n    answer: 0\n    rtol: 0.01\n    atol: 0.001"))


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("\"__import__('os')\"", "\"__import__('os')\" in \"__import__('os')\" is not plain arithmetic"),
        ("\"__import__('os').system('true')\"", "\"__import__('os').system('true')\" in "),
        ("x+1", "'x' in 'x+1' is not plain arithmetic"),
        ("'open(\"f\")'", "'open(\"f\")' in 'open(\"f\")' is not plain arithmetic"),
        ("1/0", "'1/0' divides by zero"),
        ("2*(3", "cannot read '2*(3' as arithmetic"),
    ],
    ids=["import", "import-system", "name", "open", "zero-division", "syntax"],
)
def test_answer_that_is_not_plain_arithmetic(tmp_path: Path, answer: str, message: str) -> None:
    quiz = numeric(f"  x:\n    answer: {answer}\n    atol: 0.1")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_with(quiz, "    answer: "))
    assert message in error.message
    assert error.hint.startswith("write a number or arithmetic such as 7e9*12/2**30")
    # A name could be one of the module's values: the hint says how, and only then.
    assert ("values: files/values.py" in error.hint) == (answer == "x+1")


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        ("[5, 5]", "a range whose ends are equal is one number: write 'answer: 5'"),
        ("[16/7, 16/7]", "a range whose ends are equal is one number: write 'answer: 16/7'"),
        ("[4, 6]", "for any number from 4 to 6 write 'answer: 5' and 'atol: 1'"),
        ("[0.2, 0.1]", "for any number from 0.1 to 0.2 write 'answer: 0.15' and 'atol: 0.05'"),
        ("[1, 2, 3]", "write one number or arithmetic, e.g. 'answer: 16/7'"),
    ],
    ids=["equal-ends", "equal-arithmetic", "range", "range-reversed", "three"],
)
def test_an_answer_written_as_a_range_is_told_what_to_write(tmp_path: Path, answer: str, hint: str) -> None:
    """It was "'[5, 5]' in '[5, 5]' is not plain arithmetic": a field takes one number, and a range is a tolerance."""
    quiz = numeric(f"  x:\n    answer: {answer}\n")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_with(quiz, "    answer: "))
    assert error.message == f"the answer of the field 'x' is a list, {answer}: a field's answer is one number"
    assert error.hint == hint


def test_tolerance_that_is_not_a_number(tmp_path: Path) -> None:
    quiz = numeric("  x:\n    answer: 1\n    atol: small")
    error = one_error(tmp_path, quiz=quiz)
    assert error.line == line_is(quiz, "    atol: small")
    assert error.hint.startswith("write a number, e.g. 'atol: 0.005'; or, to compute with the module's figures")
    assert "'small'" in error.message


# -- matching -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "message", "hint"),
    [
        ("{1: B, 3: A}", "the item '3' does not exist", "use one of the markers 1, 2"),
        ("{1: B, 2: C}", "the option 'C' does not exist", "use one of the markers A, B"),
        ("{1: B}", "item(s) 2 have no option in answer", "give every item its option"),
    ],
    ids=["unknown-item", "unknown-option", "item-without-pair"],
)
def test_matching_pairs(tmp_path: Path, answer: str, message: str, hint: str) -> None:
    quiz = matching(answer)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, f"answer: {answer}"))
    assert error.message == message
    assert error.hint == hint


def test_matching_without_answer(tmp_path: Path) -> None:
    quiz = block(yaml="type: matching", ru=RU_MATCHING, en=EN_MATCHING)
    error = one_error(tmp_path, quiz=quiz)
    assert error.message == "matching needs the pairs item → option"


# -- files and structure ------------------------------------------------------------------------------


def test_module_folder_with_neither_quiz_nor_exercises(tmp_path: Path) -> None:
    error = one_error(tmp_path)
    assert (error.path, error.line) == (MODULE_DIR, 0)
    assert error.message == "a module folder with neither quiz.md nor exercises.md"
    assert "add quiz.md and/or exercises.md" in error.hint


def test_unclosed_block_at_end_of_file(tmp_path: Path) -> None:
    quiz = block() + "\n" + block(ident="Q2").removesuffix("///\n")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "/// question | Q2"))
    assert error.message == "block 'Q2' opened here is not closed"
    assert error.hint == "end it with '///'"


def test_unclosed_block_before_the_next_block(tmp_path: Path) -> None:
    quiz = block().removesuffix("///\n") + "\n" + block(ident="Q2")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, 1)
    assert error.message == "block 'Q1' opened here is not closed"
    assert error.hint == "end it with a line '///'"


def test_unclosed_language_part_before_the_next_language(tmp_path: Path) -> None:
    quiz = block().replace("Потому что так.\n////\n", "Потому что так.\n", 1)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "//// ru | Вопрос"))
    assert error.message == "the 'ru' part opened here is not closed"
    assert "'////'" in error.hint


def test_unclosed_language_part_before_the_end_of_the_block(tmp_path: Path) -> None:
    quiz = block().replace("Because it is.\n////\n", "Because it is.\n")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "//// en | Question"))
    assert error.message == "the 'en' part opened here is not closed"


def test_unclosed_language_part_at_end_of_file(tmp_path: Path) -> None:
    quiz = block().removesuffix("////\n///\n")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "//// en | Question"))
    assert error.message == "the 'en' part opened here is not closed"
    assert error.hint == "end it with '////'"


def test_text_outside_a_block(tmp_path: Path) -> None:
    quiz = block() + "\nЗабытая строка\n\n" + block(ident="Q2")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, "Забытая строка"))
    assert error.message == "text outside a block"
    assert "/// question | ID" in error.hint


def test_text_between_language_parts(tmp_path: Path) -> None:
    quiz = block().replace("////\n\n//// en", "////\nstray\n//// en")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line, error.message) == (QUIZ, line_is(quiz, "stray"), "text between language parts")


def test_single_line_html_comment_outside_blocks_is_allowed(tmp_path: Path) -> None:
    courses = load(tmp_path, quiz="<!-- draft -->\n" + block())
    assert [q.id for q in courses[0].modules[0].questions] == ["Q1"]


def test_unknown_block_kind_in_a_quiz(tmp_path: Path) -> None:
    quiz = block() + "\n" + block(kind="exercise", ident="E1", ru=RU_EXERCISE, en=EN_EXERCISE)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.line, error.message) == (line_is(quiz, "/// exercise | E1"), "unknown block 'exercise' in a quiz")


# -- exercises ----------------------------------------------------------------------------------------


def test_project_exercise_without_criteria(tmp_path: Path) -> None:
    exercises = exercise(yaml="project: true")
    error = one_error(tmp_path, exercises=exercises)
    assert (error.path, error.line) == (EXERCISES, line_is(exercises, "//// ru | Упражнение"))
    assert error.message == "the 'ru' text has no 'criteria:' part"
    assert error.hint == "add a line 'criteria:' followed by the criteria"


@pytest.mark.parametrize("yaml", ["", "project: false"])
def test_criteria_in_a_non_project_exercise_say_what_makes_it_a_project(tmp_path: Path, yaml: str) -> None:
    """It said "its parts are solution", not that 'project: true' is what takes criteria."""
    exercises = exercise(yaml=yaml, ru=RU_EXERCISE + "\n\ncriteria:\nРаботает.")
    error = one_error(tmp_path, exercises=exercises)
    assert (error.line, error.message) == (line_is(exercises, "criteria:"),
                                           "this exercise has a 'criteria:' part, which only a project has")
    assert error.hint == ("make it a project: write 'project: true' in its YAML, below '/// exercise | E1'; or "
                          "delete 'criteria:' and the criteria")


def test_exercise_without_solution(tmp_path: Path) -> None:
    exercises = exercise(en="Compute the sum.")
    error = one_error(tmp_path, exercises=exercises)
    assert (error.line, error.message) == (
        line_is(exercises, "//// en | Exercise"),
        "the 'en' text has no 'solution:' part",
    )


# -- several problems at once -------------------------------------------------------------------------


def test_all_problems_are_reported_together(tmp_path: Path) -> None:
    quiz = (
        block(ident="Q1", yaml="type: singel")
        + "\n"
        + block(ident="Q2")  # fine
        + "\n"
        + numeric("  x: {answer: 1, atol: -1}", ident="Q3")
        + "\n"
        + block(ident="Q4", en=None)
    )
    exercises = exercise(yaml="project: true")
    errors = errors_of(tmp_path, quiz=quiz, exercises=exercises)
    assert [(error.path, error.line, error.message) for error in errors] == [
        (QUIZ, line_is(quiz, "type: singel"), "unknown question type 'singel'"),
        (QUIZ, line_is(quiz, "  x: {answer: 1, atol: -1}"), "the tolerance atol is negative (-1)"),
        (QUIZ, line_is(quiz, "/// question | Q4"), "question Q4 has no 'en' text"),
        (EXERCISES, line_is(exercises, "//// ru | Упражнение"), "the 'ru' text has no 'criteria:' part"),
    ]


def test_problems_in_several_courses_and_modules_are_reported_together(tmp_path: Path) -> None:
    root = write_course(tmp_path, quiz=block(yaml="type: single\nanswer: Z"))
    empty_module = root / "course" / "02-empty"
    empty_module.mkdir()
    broken_course = root / "other"
    broken_course.mkdir()
    (broken_course / "course.yml").write_text("id: other\ntitle: [\n", encoding="utf-8")
    with pytest.raises(SourceErrors) as info:
        load_courses(root, LANGS, tmp_path)
    found = [(error.path, error.line) for error in info.value.errors]
    assert found == [
        (QUIZ, 3),
        ("exercises/course/02-empty", 0),
        ("exercises/other/course.yml", 3),
    ]


def test_two_courses_with_one_id_are_refused_at_the_second_ones_id(tmp_path: Path) -> None:
    """A copied course that kept its id wrote its pages over the first one's, and shared its learners' saved
    answers, while the build passed."""
    root = write_course(tmp_path, quiz=block())
    shutil.copytree(root / "course", root / "copy")
    (root / "copy" / "course.yml").write_text("title:\n  ru: Копия\n  en: Copy\nid: course\nmodules: 3\n",
                                              encoding="utf-8")
    with pytest.raises(SourceErrors) as info:
        load_courses(root, LANGS, tmp_path)
    [error] = info.value.errors
    assert (error.path, error.line) == ("exercises/course/course.yml", 1)
    assert error.message == "the course id 'course' is also the id of exercises/copy/course.yml"
    assert "an id of its own" in error.hint


def test_course_ids_that_differ_only_in_case_are_refused(tmp_path: Path) -> None:
    """On macOS and Windows, demo/ and Demo/ are one folder of the built site: the second course's pages
    overwrote the first's, while the build passed."""
    root = write_course(tmp_path, quiz=block())
    shutil.copytree(root / "course", root / "copy")
    (root / "copy" / "course.yml").write_text("id: Course\ntitle:\n  ru: Копия\n  en: Copy\nmodules: 3\n",
                                              encoding="utf-8")
    with pytest.raises(SourceErrors) as info:
        load_courses(root, LANGS, tmp_path)
    [error] = info.value.errors
    assert (error.path, error.line) == ("exercises/course/course.yml", 1)
    assert error.message == "the course id 'course' is also the id of exercises/copy/course.yml, written 'Course'"
    assert "whatever their case" in error.hint


def test_module_folders_that_differ_only_in_case_are_refused(tmp_path: Path) -> None:
    """A module's folder is its pages' address: 01-Basics and 01-basics are one folder on macOS and Windows."""
    root = write_course(tmp_path, quiz=block())
    shutil.copytree(root / "course" / "01-m", root / "course" / "01-M")
    meta = root / "course" / "01-m" / "module.yml"
    meta.write_text(meta.read_text(encoding="utf-8").replace("number: 1", "number: 2"), encoding="utf-8")
    with pytest.raises(SourceErrors) as info:
        load_courses(root, LANGS, tmp_path)
    [error] = info.value.errors
    assert (error.path, error.line) == ("exercises/course/01-m", 0)
    assert error.message == "the module folder's name '01-m' is already used at exercises/course/01-M"
    assert "whatever their case" in error.hint


# -- a valid course -----------------------------------------------------------------------------------


def test_fixture_course_loads() -> None:
    courses = load_courses(FIXTURE_EXERCISES, LANGS, FIXTURE_EXERCISES.parent)
    assert [(course.id, course.modules_total) for course in courses] == [("demo", 3)]
    course = courses[0]
    assert course.title == {"ru": "Демокурс", "en": "Demo course"}
    assert [(module.slug, module.number) for module in course.modules] == [("01-basics", 1)]
    module = course.modules[0]
    assert module.title == {"ru": "Основы", "en": "Basics"}

    items = module.quiz
    assert [(type(item).__name__, item.id) for item in items] == [
        ("Section", "1.1"),
        ("Question", "Q1"),
        ("Question", "Q2"),
        ("Section", "1.2"),
        ("Question", "Q3"),
        ("Question", "Q4"),
        ("Question", "Q5"),
        ("Question", "Q6"),
        ("Section", "1.3"),
        ("Question", "Q7"),
        ("Question", "Q8"),
    ]
    questions = {q.id: q for q in module.questions}
    assert {qid: q.type for qid, q in questions.items()} == {
        "Q1": "single",
        "Q2": "multiple",
        "Q3": "numeric",
        "Q4": "matching",
        "Q5": "open",
        "Q6": "mixed",
        "Q7": "code",
        "Q8": "numeric",
    }
    section_11, section_12, _ = (item for item in items if isinstance(item, Section))
    assert section_11.title["en"].markdown == "Choice"
    assert questions["Q1"].section is section_11 and questions["Q3"].section is section_12

    q1 = questions["Q1"]
    assert q1.line == 6
    assert (q1.key.correct, q1.key.scoring) == (["B"], "all-or-nothing")
    assert q1.title["ru"].markdown == "Один ответ" and q1.title["en"].markdown == "One answer"
    assert q1.body["en"].markdown == "What is $2+2$?"
    assert (q1.body["en"].line, q1.explanation["en"].line) == (23, 31)
    assert [(entry.key, entry.text["en"].markdown) for entry in q1.lists["options"]] == [
        ("A", "Three"),
        ("B", "Four"),
        ("C", "Five"),
    ]
    assert q1.qtype.spec(q1.key) == {"correct": ["B"]}

    q2 = questions["Q2"]
    assert (q2.key.correct, q2.key.scoring) == (["1", "3"], "net-correct")

    fields = {field.id: field for field in questions["Q3"].key.fields}
    assert list(fields) == ["ratio", "mem"]
    assert fields["ratio"].value == pytest.approx(16 / 7, rel=1e-15)
    assert (fields["ratio"].atol, fields["ratio"].rtol) == (0.0001, None)
    assert fields["mem"].expression == "7e9*12/2**30"
    assert fields["mem"].value == pytest.approx(7e9 * 12 / 2**30, rel=1e-15)
    assert math.isclose(fields["mem"].value, 78.23109626770020, rel_tol=1e-12)
    assert (fields["mem"].atol, fields["mem"].rtol) == (None, 0.01)
    assert fields["mem"].unit == {"ru": "ГиБ", "en": "GiB"}
    assert [entry.text["ru"].markdown for entry in questions["Q3"].lists["fields"]] == ["Отношение", "Память"]

    assert questions["Q4"].key.pairs == {"1": "B", "2": "A"}
    assert questions["Q5"].key is None
    assert questions["Q5"].qtype.auto is False
    q6 = questions["Q6"]
    assert q6.key.auto.name == "numeric"
    assert [(f.id, f.value, f.atol) for f in q6.key.key.fields] == [("rho", 0.8, 1e-6)]
    assert q6.qtype.spec(q6.key) == {
        "auto": "numeric",
        "fields": [{"id": "rho", "answer": 0.8, "atol": 1e-6, "rtol": 0}],
    }

    exercises = module.exercises
    assert [(e.id, e.project) for e in exercises] == [("E1", False), ("E2", True)]
    e1, e2 = exercises
    assert isinstance(e1, Exercise) and e1.criteria is None
    assert [(link.file, link.section) for link in e1.notebooks] == [
        ({"ru": "notebook.ipynb", "en": "notebook.ipynb"}, {"ru": "1. Начало", "en": "1. Start"}),
    ]
    assert e1.solution["en"].markdown == "$$\n\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\n$$"
    assert e2.criteria is not None and e2.criteria["en"].markdown == "It works and is explained."
    assert module.files_dir == FIXTURE_EXERCISES / "demo" / "01-basics" / "files"


def test_block_marker_inside_a_code_fence_does_not_close_the_block(tmp_path: Path) -> None:
    body = "Look at this source:\n\n```text\n/// question | X\n////\n///\n```\n\nWhich is right?"
    quiz = block(en=EN_SINGLE.replace("What is 2+2?", body)) + "\n" + block(ident="Q2")
    courses = load(tmp_path, quiz=quiz)
    questions = courses[0].modules[0].questions
    assert [q.id for q in questions] == ["Q1", "Q2"]
    assert questions[0].body["en"].markdown == body
    assert questions[0].body["en"].line == line_is(quiz, "Look at this source:")
    assert questions[0].key.correct == ["B"]


@pytest.mark.parametrize("fence", ["```", "~~~~"])
def test_part_word_inside_a_code_fence_stays_body_text(tmp_path: Path, fence: str) -> None:
    body = f"Read the file:\n\n{fence}yaml\noptions:\nexplanation:\nA. not an option\n{fence}\n\nThen answer."
    quiz = block(ru=RU_SINGLE.replace("Сколько будет 2+2?", body))
    courses = load(tmp_path, quiz=quiz)
    question = courses[0].modules[0].questions[0]
    assert question.body["ru"].markdown == body
    assert [entry.key for entry in question.lists["options"]] == ["A", "B", "C"]
    assert question.lists["options"][0].text["ru"].markdown == "Три"
    assert question.explanation["ru"].markdown == "Потому что так."


ONE_LANGUAGE_COURSE = "id: course\ntitle: Course\nmodules: 3\n"
ONE_LANGUAGE_MODULE = "number: 1\ntitle: Module\n"


def one_language_question(body: str, ident: str = "Q1") -> str:
    """A question of a one-language site: no language parts, its title on the opener."""
    return (f"/// question | {ident} | Prime\ntype: single\nanswer: B\n\n{body}\n\noptions:\nA. 21\nB. 29\n\n"
            "explanation:\nSo.\n///\n")


def load_one_language(base: Path, quiz: str) -> list:
    exercises = write_course(base, quiz=quiz, course=ONE_LANGUAGE_COURSE, module=ONE_LANGUAGE_MODULE)
    return load_courses(exercises, ["en"], base)


@pytest.mark.parametrize("fence", ["```", "~~~"])
def test_block_markers_inside_a_code_fence_of_a_one_language_question_are_code(tmp_path: Path, fence: str) -> None:
    """Without language parts a '///' line in the question's code ended the block, and the author was told of text
    outside a block at a later line."""
    body = f"Which is prime?\n\n{fence}text\n///\noptions:\n////\n/// question | X\n{fence}"
    quiz = one_language_question(body) + "\n" + one_language_question("Again?", "Q2")
    questions = load_one_language(tmp_path, quiz)[0].modules[0].questions
    assert [question.id for question in questions] == ["Q1", "Q2"]
    assert questions[0].body["en"].markdown == body
    assert [entry.key for entry in questions[0].lists["options"]] == ["A", "B"]


def test_a_code_fence_never_closed_in_a_one_language_question_is_reported_at_its_line(tmp_path: Path) -> None:
    quiz = one_language_question("Which is prime?\n\n```python\nprint(29)")
    with pytest.raises(SourceErrors) as info:
        load_one_language(tmp_path, quiz)
    [error] = info.value.errors
    assert (error.path, error.line) == (QUIZ, line_with(quiz, "```python"))
    assert error.message == "the code fence opened here is not closed" and "```" in error.hint


def test_option_continued_on_an_indented_line(tmp_path: Path) -> None:
    quiz = block(en=EN_SINGLE.replace("B. Four", "B. Four,\n  as everyone knows"))
    question = load(tmp_path, quiz=quiz)[0].modules[0].questions[0]
    assert question.lists["options"][1].text["en"].markdown == "Four, as everyone knows"
    assert isinstance(question, Question)


# -- regressions: bugs these tests found, now fixed; each describes a real defect ----------------------


@pytest.mark.parametrize("value", ["[single]", "{single: 1}"], ids=["list", "mapping"])
def test_type_that_is_a_list_or_mapping_is_reported_not_a_crash(tmp_path: Path, value: str) -> None:
    """Was a bug (model.BlockReader.question): `type_name not in types` with an unhashable YAML value raises
    TypeError("unhashable type: 'list'"), so the build dies with a traceback instead of file:line."""
    quiz = block(yaml=f"type: {value}\nanswer: B")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_is(quiz, f"type: {value}"))
    assert error.message.startswith("unknown question type")


@pytest.mark.parametrize("where", ["quiz", "course"])
def test_control_character_in_yaml_is_reported_not_a_crash(tmp_path: Path, where: str) -> None:
    """Was a bug (yamlsource.load_with_lines): it catches only yaml.MarkedYAMLError, but a control character pasted
    into YAML (here a backspace, \\x08) raises yaml.reader.ReaderError, which escapes load_courses as is."""
    if where == "quiz":
        quiz = block(yaml="type: single\nanswer: B\x08")
        files = {"quiz": quiz}
        path, line = QUIZ, line_is(quiz, "answer: B\x08")
    else:
        files = {"quiz": block(), "course": COURSE.replace("en: Course", "en: Course\x08")}
        path, line = COURSE_YML, 4
    error = one_error(tmp_path, **files)
    assert (error.path, error.line) == (path, line)


def test_numeric_field_named_by_a_number_matches_its_label(tmp_path: Path) -> None:
    """Was a bug (qtypes.numeric.Numeric.build): field ids are compared as str on one side and as the raw YAML key on
    the other, so a field `1: {answer: 2}` with the label `- 1: First` fails with "the label '1' names no field"."""
    ru = RU_NUMERIC.replace("- x: Икс", "- 1: Первое")
    en = EN_NUMERIC.replace("- x: Ex", "- 1: First")
    courses = load(tmp_path, quiz=numeric("  1: {answer: 2}", ru=ru, en=en))
    assert [(field.id, field.value) for field in courses[0].modules[0].questions[0].key.fields] == [("1", 2.0)]


def test_comments_between_blocks_may_span_lines(tmp_path: Path) -> None:
    quiz = "<!--\nA note for co-authors,\nover three lines.\n-->\n\n" + block()
    question = load(tmp_path, quiz=quiz)[0].modules[0].questions[0]
    assert question.id == "Q1"


def test_a_comment_never_closed_is_reported_where_it_opens_not_taken_for_the_rest_of_the_file(tmp_path: Path) -> None:
    """Everything after `<!--` is a comment until `-->`: one never closed hid every later question, and the build
    said nothing."""
    quiz = block() + "\n<!-- TODO: rewrite Q2\n\n" + block(ident="Q2")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_with(quiz, "<!-- TODO"))
    assert error.message == "an HTML comment opened here is not closed"
    assert "-->" in error.hint


@pytest.mark.parametrize(("written", "meant"), [
    ("hint:", "hints:"), ("Explanation:", "explanation:"), ("explanation :", "explanation:"), ("Hints:", "hints:"),
])
def test_a_part_heading_written_nearly_right_is_reported_at_its_line(tmp_path: Path, written: str, meant: str) -> None:
    """`hint:` was taken for a line of the text, and its hint was shown in the question; `Explanation:` was
    reported as a missing explanation at the part's first line."""
    en = EN_SINGLE.replace("explanation:\nBecause it is.", f"explanation:\nBecause it is.\n\n{written}\nCount.")
    if written.lower().startswith("explanation"):
        en = EN_SINGLE.replace("explanation:", written)
    quiz = block(en=en)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_with(quiz, written)), error
    assert error.message == f"'{written}' is not a part heading" and f"write '{meant}'" in error.hint


def test_a_code_fence_never_closed_is_reported_at_its_line(tmp_path: Path) -> None:
    """The fence swallowed the part's closing '////', and the message pointed at the part, asking for the
    '////' that was there."""
    en = EN_SINGLE.replace("Because it is.", "Because:\n\n```python\nprint(2 + 2)\n")
    quiz = block(en=en)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_with(quiz, "```python"))
    assert error.message == "the code fence opened here is not closed" and "```" in error.hint


def test_language_opener_without_a_space_after_its_slashes(tmp_path: Path) -> None:
    """It was "text between language parts", with advice to put it inside a part."""
    quiz = block().replace("//// en | Question", "////en | Question")
    question = load(tmp_path, quiz=quiz)[0].modules[0].questions[0]
    assert question.title["en"].markdown == "Question"


def test_language_opener_without_spaces_around_the_bar(tmp_path: Path) -> None:
    quiz = block().replace("//// en | Question", "//// en|Question")
    question = load(tmp_path, quiz=quiz)[0].modules[0].questions[0]
    assert question.title["en"].markdown == "Question"


def test_unknown_key_in_a_numeric_field_suggests_the_right_one(tmp_path: Path) -> None:
    quiz = numeric("  x: {answer: 2, atoll: 0.1}\n")
    error = one_error(tmp_path, quiz=quiz)
    assert error.line == line_with(quiz, "atoll")
    assert error.message == "unknown key 'atoll' in field 'x'"
    assert error.hint.startswith("did you mean 'atol'?")


def test_notebook_link_to_a_missing_file(tmp_path: Path) -> None:
    yaml = "notebooks:\n  - file: nowhere.ipynb\n    section: {ru: Раздел, en: Section}"
    text = exercise(yaml=yaml)
    error = one_error(tmp_path, exercises=text)
    assert (error.path, error.line) == (EXERCISES, line_with(text, "- file: nowhere.ipynb"))
    assert error.message == "the notebook 'nowhere.ipynb' is not in this module's files/"


@pytest.mark.parametrize(
    ("file", "wrong", "hint"),
    [
        ("files/nb.ipynb", "files/nb.ipynb", "write 'file: nb.ipynb'"),
        ("./files/nb.ipynb", "./files/nb.ipynb", "write 'file: nb.ipynb'"),
        ("{ru: nb.ipynb, en: files/nb.ipynb}", "files/nb.ipynb", "write 'en: nb.ipynb'"),
        ("files/elsewhere.ipynb", "files/elsewhere.ipynb",
         "write 'file: elsewhere.ipynb', and put the notebook into files/"),
    ],
    ids=["prefixed", "dot-prefixed", "one-language", "missing-too"],
)
def test_a_notebook_named_from_the_modules_folder_is_told_to_drop_files(tmp_path: Path, file: str, wrong: str,
                                                                         hint: str) -> None:
    """It was told to put the notebook into files/, where it was."""
    text = exercise(yaml=f"notebooks:\n  - file: {file}\n    section: {{ru: Раздел, en: Section}}")
    exercises_dir = write_course(tmp_path, exercises=text)
    (exercises_dir / "course/01-m/files").mkdir()
    (exercises_dir / "course/01-m/files/nb.ipynb").write_text("{}")
    with pytest.raises(SourceErrors) as info:
        load_courses(exercises_dir, LANGS, tmp_path)
    [error] = info.value.errors
    assert (error.path, error.line) == (EXERCISES, line_with(text, "- file:"))
    assert error.message == f"the notebook '{wrong}' is named from the module's folder: notebooks are named from files/"
    assert error.hint == hint


@pytest.mark.parametrize(
    ("file", "message", "hint"),
    [
        (".ipynb_checkpoints/notebook-checkpoint.ipynb",
         "the notebook '.ipynb_checkpoints/notebook-checkpoint.ipynb' is in '.ipynb_checkpoints/', which the "
         "course-files zip leaves out (names that start with a dot, and __pycache__)",
         "move the notebook out of '.ipynb_checkpoints/' and name it from files/"),
        ("work/__pycache__/nb.ipynb",
         "the notebook 'work/__pycache__/nb.ipynb' is in 'work/__pycache__/', which the course-files zip leaves "
         "out (names that start with a dot, and __pycache__)",
         "move the notebook out of 'work/__pycache__/' and name it from files/"),
        ("work/.draft.ipynb",
         "the notebook 'work/.draft.ipynb' is left out of the course-files zip: its name starts with a dot",
         "rename it, e.g. 'file: work/draft.ipynb'"),
    ],
    ids=["checkpoint", "pycache", "dot-file"],
)
def test_a_notebook_the_zip_leaves_out_is_refused(tmp_path: Path, file: str, message: str, hint: str) -> None:
    """Was silent: the build and the check passed, and the page named a notebook the zip did not hold."""
    text = exercise(yaml=f"notebooks:\n  - file: {file}\n    section: {{ru: Раздел, en: Section}}")
    exercises_dir = write_course(tmp_path, exercises=text)
    notebook = exercises_dir / "course/01-m/files" / file
    notebook.parent.mkdir(parents=True)
    notebook.write_text("{}")
    with pytest.raises(SourceErrors) as info:
        load_courses(exercises_dir, LANGS, tmp_path)
    [error] = info.value.errors
    assert (error.path, error.line) == (EXERCISES, line_with(text, "- file:"))
    assert (error.message, error.hint) == (message, hint)


def test_a_notebook_named_through_dots_that_stay_in_files_is_taken(tmp_path: Path) -> None:
    """'./' and 'a/../' are no hidden names: the rule reads the path as the file system does."""
    text = exercise(yaml="notebooks:\n  - file: ./work/../nb.ipynb\n    section: {ru: Раздел, en: Section}")
    exercises_dir = write_course(tmp_path, exercises=text)
    (exercises_dir / "course/01-m/files/work").mkdir(parents=True)
    (exercises_dir / "course/01-m/files/nb.ipynb").write_text("{}")
    assert load_courses(exercises_dir, LANGS, tmp_path)[0].modules[0].exercises[0].notebooks


def test_a_notebook_in_a_folder_files_inside_files_is_taken(tmp_path: Path) -> None:
    text = exercise(yaml="notebooks:\n  - file: files/nb.ipynb\n    section: {ru: Раздел, en: Section}")
    exercises_dir = write_course(tmp_path, exercises=text)
    (exercises_dir / "course/01-m/files/files").mkdir(parents=True)
    (exercises_dir / "course/01-m/files/files/nb.ipynb").write_text("{}")
    [link] = load_courses(exercises_dir, LANGS, tmp_path)[0].modules[0].exercises[0].notebooks
    assert link.file == {"ru": "files/nb.ipynb", "en": "files/nb.ipynb"}


VALUES = "def values():\n    return {'ratio': 94.7012, 'tokens': 2.12368e12}\n"


def test_values_fill_placeholders_in_each_language(tmp_path: Path) -> None:
    ru = "Отношение {{ ratio:.2f }}, $T={{ tokens:.3e }}$.\n\nexplanation:\nИтак, {{ ratio:.1f }}."
    en = "The ratio is {{ ratio:.2f }}, $T={{ tokens:.3e }}$.\n\nexplanation:\nSo {{ ratio:.1f }}."
    quiz = block(yaml="type: open", ru=ru, en=en)
    exercises_dir = write_course(tmp_path, quiz=quiz, module=MODULE + "values: calc.py\n")
    (exercises_dir / "course/01-m/calc.py").write_text(VALUES)
    question = load_courses(exercises_dir, LANGS, tmp_path)[0].modules[0].questions[0]
    assert question.body["ru"].markdown == "Отношение 94,70, $T=2{,}124\\cdot 10^{12}$."
    assert question.body["en"].markdown == "The ratio is 94.70, $T=2.124\\cdot 10^{12}$."
    assert question.explanation["ru"].markdown == "Итак, 94,7."


def test_unknown_value_is_reported_at_its_line(tmp_path: Path) -> None:
    en = "Find it.\n\nexplanation:\nIt is {{ ratoi:.2f }}."
    quiz = block(yaml="type: open", ru="Найдите.\n\nexplanation:\nВот.", en=en)
    exercises_dir = write_course(tmp_path, quiz=quiz, module=MODULE + "values: calc.py\n")
    (exercises_dir / "course/01-m/calc.py").write_text(VALUES)
    with pytest.raises(SourceErrors) as info:
        load_courses(exercises_dir, LANGS, tmp_path)
    [error] = info.value.errors
    assert (error.path, error.line) == (QUIZ, line_with(quiz, "{{ ratoi"))
    assert error.message == "unknown value 'ratoi'" and error.hint == "did you mean 'ratio'?"


def test_a_placeholder_in_a_module_without_values_is_reported_at_its_line(tmp_path: Path) -> None:
    """It was printed on the page as written, `{{ mem:.1f }}` and all."""
    en = "Find it.\n\nexplanation:\nIt takes {{ mem:.1f }} GiB."
    quiz = block(yaml="type: open", ru="Найдите.\n\nexplanation:\nВот.", en=en)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_with(quiz, "{{ mem"))
    assert error.message == "'{{ mem:.1f }}' is a figure from code, but module.yml names no values file"
    assert "values: values.py" in error.hint


@pytest.mark.parametrize("written", ["{{ ratio.2f }}", "{{ ratio:.2f }", "{{ ratio:.2f"])
@pytest.mark.parametrize("with_values", [True, False])
def test_a_placeholder_written_wrong_is_reported_at_its_line(tmp_path: Path, written: str, with_values: bool) -> None:
    en = f"Find it.\n\nexplanation:\nIt is {written} in all."
    quiz = block(yaml="type: open", ru="Найдите.\n\nexplanation:\nВот.", en=en)
    exercises_dir = write_course(tmp_path, quiz=quiz, module=MODULE + ("values: calc.py\n" if with_values else ""))
    (exercises_dir / "course/01-m/calc.py").write_text(VALUES)
    with pytest.raises(SourceErrors) as info:
        load_courses(exercises_dir, LANGS, tmp_path)
    [error] = info.value.errors
    assert (error.path, error.line) == (QUIZ, line_with(quiz, written))
    assert error.message.startswith(f"'{written[:8]}") and "is not a whole placeholder" in error.message, error
    assert "{{ name:FORMAT }}" in error.hint


def test_values_file_that_fails_is_reported_on_module_yml(tmp_path: Path) -> None:
    exercises_dir = write_course(tmp_path, quiz=block(), module=MODULE + "values: calc.py\n")
    (exercises_dir / "course/01-m/calc.py").write_text("def values():\n    return 1 / 0\n")
    with pytest.raises(SourceErrors) as info:
        load_courses(exercises_dir, LANGS, tmp_path)
    [error] = info.value.errors
    assert (error.path, error.line) == (MODULE_YML, 5)
    assert "cannot read the module's values: division by zero" in error.message


def test_exercise_label_per_language(tmp_path: Path) -> None:
    exercise_text = exercise(yaml="label: {ru: У1, en: E1}")
    loaded = load(tmp_path / "a", exercises=exercise_text)[0].modules[0].exercises[0]
    assert loaded.label == {"ru": "У1", "en": "E1"}
    assert load(tmp_path / "b", exercises=exercise())[0].modules[0].exercises[0].label == {"ru": "E1", "en": "E1"}
    bad = exercise(yaml="label: {ru: У1}")
    error = one_error(tmp_path / "c", exercises=bad)
    assert (error.line, error.message) == (line_with(bad, "label:"), "'label' has no text in en")
    assert error.hint.startswith("add 'en: …'") and error.hint.endswith("or leave it out to show the id")


def test_notebook_link_may_name_one_file_per_language(tmp_path: Path) -> None:
    yaml = "notebooks:\n  - file: {ru: nb_ru.ipynb, en: nb_en.ipynb}\n    section: {ru: Раздел, en: Section}"
    text = exercise(yaml=yaml)
    error = one_error(tmp_path, exercises=text)
    assert error.message == "the notebook 'nb_ru.ipynb' is not in this module's files/"
    files = tmp_path / MODULE_DIR / "files"
    files.mkdir()
    for name in ("nb_ru.ipynb", "nb_en.ipynb"):
        (files / name).write_text("{}")
    course = load_courses(tmp_path / "exercises", LANGS, tmp_path)[0]
    assert course.modules[0].exercises[0].notebooks[0].file == {"ru": "nb_ru.ipynb", "en": "nb_en.ipynb"}
