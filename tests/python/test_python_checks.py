"""Python at build time: reference solutions must pass their hidden tests, checkers must accept the revealed
answer and reject the wrong ones; and pyrunner itself, which the browser's worker runs too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.sources import CHECKER, QUIZ, checker_question, code_question, line_with, one_error, problems
from zadachnik.python.pyrunner import OUTPUT_LIMIT, TEXT_LIMIT, check_code, handle, run_checker, run_code


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
    assert problem.message == "question Q1: the reference solution ran out of time in test 1 (f(2) равно 4)"


@pytest.mark.parametrize(("quiz", "key"), [
    (code_question("def f(x):\n    return 2 * x\n    y = (\n"), "solution"),
    (code_question("def f(x):\n    return 2 * x", extra="starter: |\n  def f(x):\n      return “x”\n"), "starter"),
    (checker_question(CHECKER.replace('return within', 'return “within')), "check"),
])
def test_syntax_error_in_python_code_is_reported_at_its_own_line(tmp_path: Path, quiz: str, key: str) -> None:
    # An editor's "go to file:line" lands on the line to fix; "its line" counts within the code, as Python does.
    error = one_error(tmp_path, quiz=quiz)
    below = {"solution": 3, "starter": 2, "check": 3}[key]
    assert error.line == line_with(quiz, f"{key}: |") + below, str(error)
    assert error.message.startswith(f"Python syntax error in '{key}' (its line {below})"), str(error)


@pytest.mark.parametrize(("test", "says"), [
    # A comparison on a line of its own is computed and dropped: the test could never fail.
    ('  - test: |\n      y = f(2)\n      y == 5\n    message: {ru: "f(2) равно 4", en: "f(2) is 4"}\n',
     "write 'assert y == 5'"),
    # A message after a comma makes a tuple, which is always true.
    ('  - test: f(2) == 5, "f(2) is 4"\n    message: {ru: "f(2) равно 4", en: "f(2) is 4"}\n',
     "write the condition alone, 'f(2) == 5'"),
    ('  - test: |\n      assert (f(2) == 5, "f(2) is 4")\n    message: {ru: "f(2) равно 4", en: "f(2) is 4"}\n',
     "write 'assert f(2) == 5'"),
])
def test_a_test_that_can_never_fail_is_refused_at_its_line(tmp_path: Path, test: str, says: str) -> None:
    """Each passed the build, and any learner's code with it."""
    quiz = code_question("def f(x):\n    return 2 * x", tests=test)
    error = one_error(tmp_path, quiz=quiz)
    assert error.line == line_with(quiz, "- test:"), error
    assert "can never fail" in error.message and says in error.hint, error


@pytest.mark.parametrize(("written", "read_as"), [("True", "a boolean"), ("42", "a number"), ("null", "nothing")])
def test_a_test_yaml_reads_as_no_text_says_so(tmp_path: Path, written: str, read_as: str) -> None:
    """`test: True` was told "each test needs 'test:'", as if the key were missing."""
    quiz = code_question("def f(x):\n    return 2 * x", tests=f'  - test: {written}\n    message: "f(2) is 4"\n')
    error = one_error(tmp_path, quiz=quiz)
    assert error.line == line_with(quiz, "- test:"), error
    assert error.message == f"YAML reads this 'test:' as {read_as}, not as Python code", error
    assert "put the code in quotes" in error.hint, error


def test_test_message_needs_every_language(tmp_path: Path) -> None:
    quiz = code_question("def f(x):\n    return 2 * x", tests='  - test: f(2) == 4\n    message: {en: "f(2) is 4"}\n')
    error = one_error(tmp_path, quiz=quiz)
    assert error.line == line_with(quiz, "message: {en")
    assert error.message == "the test's message has no text in ru"


def test_checker_accepting_the_answer_and_rejecting_wrong_ones(tmp_path: Path) -> None:
    assert problems(tmp_path, checker_question()) == []


def test_checker_that_accepts_a_wrong_answer_stops_the_build_at_that_answers_line(tmp_path: Path) -> None:
    """It was reported at 'check: |', however far below the answer stood."""
    quiz = checker_question(wrong='wrong:\n  - {x: "0.4"}\n  - {x: "0.5"}\n  - {x: "0.3"}\n')
    [problem] = problems(tmp_path, quiz)
    assert problem.line == line_with(quiz, '- {x: "0.5"}')
    assert problem.message == "question Q1: its checker accepts {'fields': {'x': '0.5'}}, listed under 'wrong'"
    assert problem.hint == "fix 'check', or remove that answer from 'wrong'"


def test_a_wrong_answer_naming_a_field_the_question_lacks_is_reported_at_that_answer(tmp_path: Path) -> None:
    """The checker's KeyError was reported at 'check: |', with the advice to fix the checker."""
    quiz = checker_question(wrong='wrong:\n  - {x: "0.4"}\n  - {xx: "0.3"}\n')
    [problem] = problems(tmp_path, quiz)
    assert problem.line == line_with(quiz, '- {xx: "0.3"}')
    assert problem.message == "question Q1: the answer under 'wrong' names a field 'xx' the question does not have"
    assert problem.hint == "its fields: x"


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


def test_checker_that_returns_no_verdict_stops_the_build(tmp_path: Path) -> None:
    quiz = checker_question(check="check: |\n  def check(answer):\n      return 42\n", wrong="")
    [problem] = problems(tmp_path, quiz)
    assert (problem.path, problem.line) == (QUIZ, line_with(quiz, "check: |"))
    assert problem.message == "question Q1: check() returned 42: return True or False, or (bool, message)"


def test_checker_that_gives_no_verdict_on_a_wrong_answer_stops_the_build(tmp_path: Path) -> None:
    # Right for the revealed answer, nothing at all (None) for the others.
    check = ("check: |\n  def check(answer):\n      if within(answer['fields']['x']['value'], 0.5, 0.01, 0):\n"
             "          return True\n")
    [problem] = problems(tmp_path, checker_question(check=check))
    assert problem.message == "question Q1: check() returned None: return True or False, or (bool, message)"


def test_checker_that_raises_on_a_wrong_answer_names_its_line(tmp_path: Path) -> None:
    check = ("check: |\n  def check(answer):\n      value = answer['fields']['x']['value']\n"
             "      if value < 0.45:\n          return 1 / 0\n      return True\n")
    quiz = checker_question(check=check)
    [problem] = problems(tmp_path, quiz)
    assert (problem.path, problem.line) == (QUIZ, line_with(quiz, "return 1 / 0"))
    assert problem.message == ("question Q1: its checker raised ZeroDivisionError: division by zero (line 4) "
                               "on {'fields': {'x': '0.4'}}")


def test_checker_that_loops_is_stopped_with_its_place(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("zadachnik.checking.grading.CHECKER_TIME_LIMIT", 0.5)
    check = "check: |\n  def check(answer):\n      while True:\n          pass\n"
    quiz = checker_question(check=check, wrong="")
    [problem] = problems(tmp_path, quiz)
    assert (problem.path, problem.line) == (QUIZ, line_with(quiz, "check: |"))
    assert problem.message == "question Q1: its checker ran out of time (0.5 s) on {'fields': {'x': '0,50'}}"


def test_each_test_has_its_own_time_limit(tmp_path: Path) -> None:
    tests = ('  - test: f(2) == 4\n    message: {ru: "f(2) равно 4", en: "f(2) is 4"}\n'
             '  - test: slow()\n    time_limit: 0.5\n    message: {ru: "slow() быстрая", en: "slow() is quick"}\n')
    solution = "def f(x):\n    return 2 * x\ndef slow():\n    while True:\n        pass"
    [problem] = problems(tmp_path, code_question(solution, tests=tests))
    assert problem.message == "question Q1: the reference solution ran out of time in test 2 (slow() быстрая)"
    # The test's own half second, not the exercise's five.
    assert problem.hint == "make it faster, or give that test a larger 'time_limit' (now 0.5 s)"


def test_time_limit_counts_per_test_not_for_the_whole_check(tmp_path: Path) -> None:
    # Four tests of 0.8 s each under a limit of 3 s: each is well within it, though together they are not.
    item = '  - test: nap()\n    message: {{ru: "тест {n}", en: "test {n}"}}\n'
    tests = "".join(item.format(n=n) for n in range(4))
    solution = "import time\ndef nap():\n    time.sleep(0.8)\n    return True"
    assert problems(tmp_path, code_question(solution, tests=tests, extra="time_limit: 3\n")) == []


def test_a_test_time_limit_is_validated(tmp_path: Path) -> None:
    tests = '  - test: f(2) == 4\n    time_limit: 0\n    message: {ru: "f(2) равно 4", en: "f(2) is 4"}\n'
    quiz = code_question("def f(x):\n    return 2 * x", tests=tests)
    error = one_error(tmp_path, quiz=quiz)
    assert error.line == line_with(quiz, "time_limit: 0")
    assert error.message == "'time_limit' is seconds, more than 0 and at most 60"


# -- pyrunner, as the worker runs it -------------------------------------------------------------


def test_run_code_captures_output_in_order_and_learner_lines() -> None:
    result = run_code("print('a')\nimport sys\nprint('b', file=sys.stderr)\nprint('c')\nprint('d')\n1/0\n")
    # Adjacent writes to one stream merged, the streams interleaved as written.
    assert result["output"] == [{"stream": "stdout", "text": "a\n"}, {"stream": "stderr", "text": "b\n"},
                                {"stream": "stdout", "text": "c\nd\n"}]
    assert result["error"]["text"] == "ZeroDivisionError: division by zero (line 6)"
    assert result["truncated"] is False


def test_output_is_capped_in_characters_even_in_one_line() -> None:
    result = run_code("print('x' * 50_000_000, end='')\nprint('never shown')\n")
    assert result["truncated"] is True
    assert [chunk["stream"] for chunk in result["output"]] == ["stdout"]
    assert result["output"][0]["text"] == "x" * OUTPUT_LIMIT
    many = run_code("for i in range(100_000):\n    print(i)\n")
    assert many["truncated"] and sum(len(chunk["text"]) for chunk in many["output"]) == OUTPUT_LIMIT


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
    assert problem.message == "question Q1: the reference solution ran out of time in test 1 (f(2) равно 4)"
    # The next run gets a fresh runner.
    assert problems(tmp_path / "next", code_question("def f(x):\n    return 2 * x")) == []


def test_incomplete_answers_never_reach_the_checker() -> None:
    source = "def check(answer):\n    raise AssertionError('must not be called')\n"
    assert run_checker(source, {"choice": []}, "en") == {"status": "unanswered"}
    assert run_checker(source, {"pairs": {"1": "A", "2": ""}}, "en") == {"status": "unanswered", "missing": ["2"]}
    assert run_checker(source, {"fields": {"x": ""}}, "en")["status"] == "unreadable"


@pytest.mark.parametrize("returned, shown", [("42", "42"), ("None", "None"), ("1", "1"), ("(0, 'no')", "(0, 'no')"),
                                             ("'yes'", "'yes'"), ("[True]", "[True]"),
                                             ("(True, 'a', 'b')", "(True, 'a', 'b')"),
                                             ("'x' * 500", "'" + "x" * 78 + "…")])
def test_checker_must_return_a_verdict(returned: str, shown: str) -> None:
    result = run_checker(f"def check(answer):\n    return {returned}\n", {"choice": ["A"]}, "en")
    assert result["status"] == "unreadable"
    assert result["error"]["code"] == "bad_verdict" and result["error"]["returned"] == shown
    assert result["error"]["message"] == f"check() returned {shown}: return True or False, or (bool, message)"


def test_checker_verdicts_true_false_and_pairs() -> None:
    def verdict(returned: str) -> dict:
        return run_checker(f"def check(answer):\n    return {returned}\n", {"choice": ["A"]}, "en")

    assert verdict("True")["status"] == "correct" and verdict("False")["status"] == "wrong"
    assert verdict("False, 'no'") == {"status": "wrong", "score": 0, "message": "no"}
    assert verdict("True, {'ru': 'да', 'en': 'yes'}")["message"] == "yes"
    assert verdict("1 == 1")["status"] == "correct"


# -- the interface the browser's worker and the build's runner share: handle() ------------------------------

TWICE = [{"test": "f(2) == 4", "message": {"en": "f(2) is 4"}, "time_limit": 1},
         {"test": "assert f(3) == 6", "message": {"en": "f(3) is 6"}, "time_limit": 2}]


def check_via_handle(code: str, tests: list | None = None, events: list | None = None) -> dict:
    request = {"code": code, "tests": tests or TWICE, "lang": "en", "time_limit": 3}
    return json.loads(handle("check", json.dumps(request), events.append if events is not None else None))


def test_check_reports_each_step_and_each_test() -> None:
    events: list[str] = []
    result = check_via_handle("def f(x):\n    print(x)\n    return 2 * x\n", events=events)
    assert result["status"] == "correct" and result["output"] == [{"stream": "stdout", "text": "2\n3\n"}]
    assert [json.loads(event) for event in events] == [
        {"event": "step", "step": "code", "time_limit": 3},
        {"event": "step", "step": 0, "time_limit": 1},
        {"event": "test", "index": 0, "result": {"passed": True, "message": "f(2) is 4"}},
        {"event": "step", "step": 1, "time_limit": 2},
        {"event": "test", "index": 1, "result": {"passed": True, "message": "f(3) is 6"}},
    ]


@pytest.mark.parametrize("code, status", [("import sys\nsys.exit(3)", 3), ("import os\nos._exit(2)", 2),
                                          ("import posix\nposix._exit(0)", 0), ("exit()", 0),
                                          ("raise SystemExit('bye')", 1)])
def test_exits_are_errors_with_their_status(code: str, status: int) -> None:
    error = check_via_handle(code)["error"]
    assert (error["code"], error["exit_status"], error["type"]) == ("exit", status, "SystemExit")
    assert error["lines"] == [code.count("\n") + 1]


READERS = ["x = input()", "import sys\nx = sys.stdin.read()", "import sys\nx = sys.stdin.readline()",
           "import sys\nfor line in sys.stdin:\n    pass"]


@pytest.mark.parametrize("code", READERS)
def test_reading_input_says_the_exercise_reads_none(code: str) -> None:
    error = check_via_handle(code)["error"]
    assert error["code"] == "no_input" and error["text"].startswith("EOFError: the exercise reads no input (line")


def test_base_exception_subclasses_and_broken_messages_are_reported() -> None:
    code = "class Odd(BaseException):\n    def __str__(self):\n        raise ValueError\nraise Odd()\n"
    error = check_via_handle(code)["error"]
    assert error["type"] == "Odd" and error["message"] == "<Odd that cannot be shown>" and error["lines"] == [4]
    assert check_via_handle("raise KeyboardInterrupt")["error"]["type"] == "KeyboardInterrupt"


WRONG = "def f(x):\n    return x + 100\n"
PATCHES = {
    "builtins.bool": "import builtins\nbuiltins.bool = lambda value=False: True\n",
    "builtins.isinstance": "import builtins\nbuiltins.isinstance = lambda *args: True\n",
    "builtins.AssertionError": "import builtins\nbuiltins.AssertionError = BaseException\n",
    "builtins.all": "import builtins\nbuiltins.all = lambda results: True\n",
    "builtins.f": "import builtins\nbuiltins.f = lambda x: 2 * x\n",
    "pyrunner function": ("import zadachnik.python.pyrunner as p\n"
                          "p._one_test = lambda t, n, l: {'passed': True, 'message': ''}\n"),
    "pyrunner code object": ("import zadachnik.python.pyrunner as p\n"
                             "p._one_test.__code__ = (lambda t, n, l: {'passed': True, 'message': ''}).__code__\n"),
    "pyrunner handlers": ("import zadachnik.python.pyrunner as p\n"
                          "p.HANDLERS['check'] = lambda **k: {'status': 'correct', 'score': 1}\n"),
    "pyrunner class": ("import zadachnik.python.pyrunner as p, builtins\np.Snapshot.restore = lambda self: None\n"
                       "builtins.all = lambda results: True\n"),
    "json.dumps": "import json\njson.dumps = lambda *a, **k: '{\"status\": \"correct\", \"score\": 1}'\n",
    "sys.modules": ("import sys, types\nfake = types.ModuleType('zadachnik.python.pyrunner')\n"
                    "fake.handle = lambda *a: '{\"status\": \"correct\"}'\n"
                    "sys.modules['zadachnik.python.pyrunner'] = fake\n"
                    "sys.modules['zadachnik_planted'] = fake\n"),
    "meta_path": ("import sys\nclass Finder:\n    def find_spec(self, *args):\n        return None\n"
                  "sys.meta_path.insert(0, Finder())\nsys.path.insert(0, '/nowhere')\n"),
}


@pytest.mark.parametrize("patch", PATCHES)
def test_a_patch_made_in_one_check_cannot_make_the_next_wrong_answer_pass(patch: str) -> None:
    import sys

    before = (list(sys.path), len(sys.meta_path), sys.modules["zadachnik.python.pyrunner"])
    check_via_handle(PATCHES[patch] + "def f(x):\n    return 2 * x\n")
    assert check_via_handle(WRONG)["status"] == "wrong"
    assert check_via_handle("g = 1\n")["status"] == "wrong"
    assert (list(sys.path), len(sys.meta_path), sys.modules["zadachnik.python.pyrunner"]) == before
    assert "zadachnik_planted" not in sys.modules


def test_a_checker_patch_cannot_make_the_next_checker_accept() -> None:
    patch = ("import zadachnik.python.pyrunner as p\np.within = lambda *a: True\n"
             "p.read_number = lambda t: {'value': 0.5}\n"
             "def check(answer):\n    return True\n")
    honest = "def check(answer):\n    return within(answer['fields']['x']['value'], 0.5, 1e-9, 0)\n"
    request = {"answer": {"fields": {"x": "0.4"}}, "lang": "en"}
    json.loads(handle("checker", json.dumps({"source": patch, **request})))
    assert json.loads(handle("checker", json.dumps({"source": honest, **request})))["status"] == "wrong"


def test_recursion_limit_is_put_back() -> None:
    import sys

    limit = sys.getrecursionlimit()
    check_via_handle("import sys\nsys.setrecursionlimit(50)\n" + WRONG)
    assert sys.getrecursionlimit() == limit


def test_the_state_is_taken_once_and_kept() -> None:
    # The snapshot is of the state before any learner code: taking it again after a call would keep a patch.
    from zadachnik.python import pyrunner

    check_via_handle(WRONG)
    first = pyrunner._snapshot
    check_via_handle(WRONG)
    assert first is not None and pyrunner._snapshot is first


def test_code_that_breaks_the_harness_gets_a_result_not_an_exception() -> None:
    # The harness needs traceback to describe the error; the code took it away first.
    result = check_via_handle("import traceback\ntraceback.extract_tb = None\n1 / 0\n")
    assert result["status"] == "unreadable"
    assert result["error"]["text"] == "the check could not run: TypeError: 'NoneType' object is not callable"
    assert check_via_handle("1 / 0\n")["error"]["text"] == "ZeroDivisionError: division by zero (line 1)"


@pytest.mark.parametrize("code", ["raise ValueError('y' * 50_000_000)", "import sys\nsys.exit('z' * 50_000_000)"])
def test_a_huge_error_message_is_cut_before_it_is_copied_into_the_result(code: str) -> None:
    """The page's worker cuts any text to 2,000 characters; pyrunner cuts first, so 50 MB never travel as JSON."""
    error = run_code(code)["error"]
    assert len(error["message"]) == TEXT_LIMIT + 1 and error["message"].endswith("…")
    assert len(json.dumps(run_code(code))) < 3 * TEXT_LIMIT


def test_a_checkers_huge_message_is_cut_too() -> None:
    result = run_checker("def check(answer):\n    return False, 'w' * 10_000_000\n", {"choice": ["A"]}, "en")
    assert result["status"] == "wrong" and len(result["message"]) == TEXT_LIMIT + 1
