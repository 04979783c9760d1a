"""Python at build time: reference solutions must pass their hidden tests, checkers must accept the revealed
answer and reject the wrong ones; and pyrunner itself, which the browser's worker runs too."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_checks import problems
from test_format_errors import QUIZ, block, line_with, one_error
from zadachnik.pyrunner import check_code, run_checker, run_code

RU = "Напишите `f`.\n\nexplanation:\nВот так."
EN = "Write `f`.\n\nexplanation:\nLike this."


def code_question(solution: str, tests: str = None, extra: str = "") -> str:
    tests = tests or ('  - test: f(2) == 4\n    message: {ru: "f(2) равно 4", en: "f(2) is 4"}\n')
    indented = "".join(f"  {line}\n" for line in solution.splitlines())
    yaml = f"type: code\nsolution: |\n{indented}tests:\n{tests}{extra}"
    return block(yaml=yaml, ru=RU, en=EN)


def test_passing_solution_is_accepted(tmp_path: Path) -> None:
    assert problems(tmp_path, code_question("def f(x):\n    return 2 * x")) == []


def test_solution_that_fails_its_test_stops_the_build(tmp_path: Path) -> None:
    [problem] = problems(tmp_path, code_question("def f(x):\n    return x + 3"))
    assert (problem.path, problem.line) == (QUIZ, 1)
    # Messages in the site's first language.
    assert problem.message == "question Q1: the reference solution fails its own test: f(2) равно 4"


def test_solution_that_raises_names_the_error(tmp_path: Path) -> None:
    [problem] = problems(tmp_path, code_question("def f(x):\n    return x / 0"))
    assert "fails its own test: f(2) равно 4 (ZeroDivisionError: division by zero (line 2))" in problem.message


def test_solution_that_never_ends_is_stopped(tmp_path: Path) -> None:
    [problem] = problems(tmp_path, code_question("def f(x):\n    while True:\n        pass",
                                                 extra="time_limit: 1\n"))
    assert "did not finish within its time limit of 1 s" in problem.message


def test_syntax_error_in_a_solution_is_reported_at_its_key(tmp_path: Path) -> None:
    quiz = code_question("def f(x)\n    return 2 * x")
    error = one_error(tmp_path, quiz=quiz)
    assert error.line == line_with(quiz, "solution: |")
    assert error.message.startswith("Python syntax error in 'solution' (its line 1)")


def test_test_message_needs_every_language(tmp_path: Path) -> None:
    quiz = code_question("def f(x):\n    return 2 * x", tests='  - test: f(2) == 4\n    message: {en: "f(2) is 4"}\n')
    error = one_error(tmp_path, quiz=quiz)
    assert error.line == line_with(quiz, "message: {en")
    assert error.message == "the test's message has no text in ru"


CHECKER = """check: |
  def check(answer):
      x = answer["fields"]["x"]
      return within(x["value"], 0.5, 1e-9, 0), "half"
"""


def checker_question(check: str = CHECKER, wrong: str = "wrong:\n  - {x: \"0.4\"}\n") -> str:
    yaml = 'type: numeric\nfields:\n  x: {answer: "1/2", atol: 0.01}\n' + check + wrong
    return block(yaml=yaml, ru="Найдите x.\n\nfields:\n- x: Икс\n\nexplanation:\nПоловина.",
                 en="Find x.\n\nfields:\n- x: Ex\n\nexplanation:\nA half.")


def test_checker_accepting_the_answer_and_rejecting_wrong_ones(tmp_path: Path) -> None:
    assert problems(tmp_path, checker_question()) == []


def test_checker_that_accepts_a_wrong_answer_stops_the_build(tmp_path: Path) -> None:
    quiz = checker_question(wrong='wrong:\n  - {x: "0.5"}\n')
    [problem] = problems(tmp_path, quiz)
    assert problem.line == line_with(quiz, "check: |")
    assert problem.message == "question Q1: its checker accepts {'fields': {'x': '0.5'}}, listed under 'wrong'"


def test_checker_that_rejects_the_revealed_answer_stops_the_build(tmp_path: Path) -> None:
    check = CHECKER.replace("0.5, 1e-9", "0.7, 1e-9")
    [problem] = problems(tmp_path, checker_question(check=check, wrong=""))
    assert problem.message.startswith("question Q1: its checker rejects the answer its 'ru' page reveals")


def test_wrong_without_check_and_check_without_function(tmp_path: Path) -> None:
    error = one_error(tmp_path / "a", quiz=checker_question(check=""))
    assert error.message == "'wrong' lists answers a checker must reject, but there is no 'check'"
    no_function = "check: |\n  def verify(answer):\n      return True\n"
    error = one_error(tmp_path / "b", quiz=checker_question(check=no_function))
    assert error.message == "'check' must define a function 'check(answer)'"


# -- pyrunner, as the worker runs it -------------------------------------------------------------


def test_run_code_captures_output_and_learner_lines() -> None:
    result = run_code("print('a')\nimport sys\nprint('b', file=sys.stderr)\n1/0\n")
    assert (result["stdout"], result["stderr"]) == ("a\n", "b\n")
    assert result["error"]["text"] == "ZeroDivisionError: division by zero (line 4)"


def test_run_code_caps_output_floods() -> None:
    result = run_code("for i in range(100):\n    print(i)\n", max_lines=10)
    assert result["truncated"] and result["stdout"].splitlines() == [str(i) for i in range(10)]


def test_check_code_runs_expressions_and_statements() -> None:
    tests = [{"test": "f(1) == 2", "message": {"en": "one"}},
             {"test": "assert f(2) == 5", "message": {"en": "two"}},
             {"test": "f('x')", "message": {"en": "three"}}]
    result = check_code("def f(x):\n    return x * 2\n", tests, "en")
    assert [(t["message"], t["passed"]) for t in result["tests"]] == [("one", True), ("two", False), ("three", True)]
    assert result["status"] == "wrong"


@pytest.mark.parametrize("text, status", [("2/4", "correct"), ("0,4", "wrong"), ("half", "unreadable")])
def test_run_checker_reads_numbers_first(text: str, status: str) -> None:
    source = "def check(answer):\n    return within(answer['fields']['x']['value'], 0.5, 1e-9, 0)\n"
    assert run_checker(source, {"fields": {"x": text}}, "en")["status"] == status


def test_checker_that_raises_is_reported_not_raised() -> None:
    result = run_checker("def check(answer):\n    return answer['nope']\n", {"fields": {"x": "1"}}, "en")
    assert result["status"] == "unreadable" and result["error"]["type"] == "KeyError"


def test_solution_that_swallows_the_time_limit_is_still_stopped(tmp_path: Path) -> None:
    stubborn = ("def f(x):\n    try:\n        while True:\n            pass\n"
                "    except BaseException:\n        while True:\n            pass")
    [problem] = problems(tmp_path, code_question(stubborn, extra="time_limit: 1\n"))
    assert "did not finish within its time limit of 1 s" in problem.message
    # The next run gets a fresh runner.
    assert problems(tmp_path / "next", code_question("def f(x):\n    return 2 * x")) == []


def test_incomplete_answers_never_reach_the_checker() -> None:
    source = "def check(answer):\n    raise AssertionError('must not be called')\n"
    assert run_checker(source, {"choice": []}, "en") == {"status": "unanswered"}
    assert run_checker(source, {"pairs": {"1": "A", "2": ""}}, "en") == {"status": "unanswered", "missing": ["2"]}
    assert run_checker(source, {"fields": {"x": ""}}, "en")["status"] == "unreadable"


def test_checker_may_return_any_truthy_value() -> None:
    assert run_checker("def check(answer):\n    return 1\n", {"choice": ["A"]}, "en")["status"] == "correct"
    assert run_checker("def check(answer):\n    return 0, 'no'\n", {"choice": ["A"]}, "en")["message"] == "no"
