"""Code exercises: the learner writes Python, Run shows its output, Check runs the author's hidden tests.

Both run in Pyodide in a Web Worker in the browser; at build time the reference solution must pass its own
tests in CPython (`checks`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from zadachnik.core.errors import per_language_hint
from zadachnik.core.text import TextProblem, per_language
from zadachnik.qtypes import Invalid, ListParts, QuestionType, python_syntax_error

DEFAULT_TIME_LIMIT = 5
MAX_TIME_LIMIT = 60


@dataclass
class CodeTest:
    test: str
    message: dict[str, str]
    # Seconds for this test alone; None: the exercise's time_limit.
    time_limit: float | None = None


@dataclass
class CodeKey:
    solution: str
    starter: str = ""
    tests: list[CodeTest] = field(default_factory=list)
    time_limit: float = DEFAULT_TIME_LIMIT


class Code(QuestionType):
    name = "code"
    keys = ("starter", "solution", "tests", "time_limit")
    template = "code.html"
    python = True
    # The code editor's own words (Ace's, for screen readers and its search box).
    word_sections = ("editor",)
    # Shown to the learner (the starter in the editor, the solution once revealed); the tests grade.
    shown_only = ("starter", "solution")

    def build(self, config: dict[str, Any], parts: ListParts, languages: tuple[str, ...] = ()) -> CodeKey:
        solution = config.get("solution")
        if not isinstance(solution, str) or not solution.strip():
            raise Invalid("a code exercise needs its reference solution", ("solution",) if "solution" in config
                          else (), "add 'solution: |' followed by the code, indented")
        starter = config.get("starter", "")
        if not isinstance(starter, str):
            raise Invalid("'starter' is the code the learner starts from", ("starter",), "write 'starter: |' and code")
        for name, code in (("solution", solution), ("starter", starter)):
            syntax_ok(code, (name,))
        tests = [read_test(test, index, languages) for index, test in enumerate(config.get("tests") or [])]
        if not tests:
            raise Invalid("a code exercise needs hidden tests", ("tests",) if "tests" in config else (),
                          f"add 'tests:' with items '- test: f(2) == 4' and, below it, {message_hint(languages)}")
        limit = read_time_limit(config.get("time_limit", DEFAULT_TIME_LIMIT), ("time_limit",))
        return CodeKey(solution, starter, tests, limit)

    def spec(self, key: CodeKey) -> dict[str, Any]:
        """The exercise's time_limit is for the learner's code itself and for each test without its own."""
        return {"starter": key.starter, "solution": key.solution, "time_limit": key.time_limit,
                "tests": [{"test": test.test, "message": test.message,
                           "time_limit": test.time_limit if test.time_limit is not None else key.time_limit}
                          for test in key.tests]}

    def grade(self, spec: dict[str, Any], answer: dict[str, Any], lang: str | None = None) -> dict[str, Any]:
        """The hidden tests in CPython (the browser runs the same pyrunner in Pyodide); test messages in `lang`,
        or in the first language they are written in."""
        from zadachnik.python.runner import run_isolated

        tests = spec["tests"]
        lang = lang or (next(iter(tests[0]["message"])) if tests else "en")
        return run_isolated("check", {"code": str(answer.get("code", "")), "tests": tests, "lang": lang,
                                      "time_limit": spec["time_limit"]}, spec["time_limit"])

    def reference_answer(self, spec: dict[str, Any], show: Any) -> dict[str, Any]:
        return {"code": spec["solution"]}


def syntax_ok(code: str, path: tuple[str, ...]) -> None:
    import warnings

    try:
        # Python's own SyntaxWarnings (an assert on a tuple) reach no author: never_fails says what they mean.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            compile(code, "<source>", "exec")
    except SyntaxError as error:
        raise python_syntax_error(error, path, code) from None


def never_fails(code: str) -> tuple[str, str] | None:
    """Why a test (valid Python) passes whatever the learner's code does, and what to write instead, or None. A
    test is an expression that must be true, or statements that must not raise (pyrunner._one_test)."""
    import ast

    try:
        expression = ast.parse(code, mode="eval").body
    except SyntaxError:
        expression = None
    if isinstance(expression, ast.Tuple) and expression.elts:
        return ("a comma makes it a tuple, which is always true",
                f"write the condition alone, '{ast.unparse(expression.elts[0])}', and its words under 'message:'")
    if expression is not None:
        return None
    for statement in ast.walk(ast.parse(code)):
        if isinstance(statement, ast.Assert) and isinstance(statement.test, ast.Tuple) and statement.test.elts:
            return ("'assert (…, …)' asserts a tuple, which is always true",
                    f"write 'assert {ast.unparse(statement.test.elts[0])}', and its words under 'message:'")
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Compare):
            return (f"'{ast.unparse(statement.value)}' on a line of its own is worked out and dropped",
                    f"write 'assert {ast.unparse(statement.value)}'")
    return None


# What YAML makes of a plain `test: True`, `test: 42` or `test: null`, none of which is the code's text.
_YAML_READS = ((bool, "a boolean"), ((int, float), "a number"), (type(None), "nothing"))


def read_test(test: Any, index: int, languages: tuple[str, ...]) -> CodeTest:
    path = ("tests", str(index))
    if isinstance(test, dict) and "test" in test and not isinstance(test["test"], str):
        kind = next((name for types, name in _YAML_READS if isinstance(test["test"], types)), "a structure")
        raise Invalid(f"YAML reads this 'test:' as {kind}, not as Python code", (*path, "test"),
                      "put the code in quotes, as in 'test: \"True\"', or write it on lines of its own after "
                      "'test: |'")
    if not isinstance(test, dict) or not isinstance(test.get("test"), str):
        raise Invalid("each test needs 'test:' (an expression that must be true, or asserts)", path,
                      f"write '- test: f(2) == 4' and, below it, {message_hint(languages)}")
    extra = set(test) - {"test", "message", "time_limit"}
    if extra:
        raise Invalid(f"unknown key '{sorted(extra)[0]}' in a test", (*path, sorted(extra)[0]),
                      "a test takes 'test', 'message' and 'time_limit'")
    syntax_ok(test["test"], (*path, "test"))
    problem = never_fails(test["test"])
    if problem:
        raise Invalid(f"this test can never fail: {problem[0]}", (*path, "test"), problem[1])
    try:
        # The learner reads it when the test fails.
        message = per_language(test.get("message"), languages, "the test's message", "message", "f(2) is 4")
    except TextProblem as problem:
        raise Invalid(str(problem), (*path, "message"), problem.hint) from None
    limit = read_time_limit(test["time_limit"], (*path, "time_limit")) if "time_limit" in test else None
    return CodeTest(test["test"], message, limit)


def message_hint(languages: tuple[str, ...]) -> str:
    """What to write as a test's message, in the site's languages."""
    return per_language_hint(languages, "message", "f(2) is 4").removeprefix("write ")


def read_time_limit(limit: Any, path: tuple[str, ...]) -> float:
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not 0 < limit <= MAX_TIME_LIMIT:
        raise Invalid(f"'time_limit' is seconds, more than 0 and at most {MAX_TIME_LIMIT}", path,
                      "write e.g. 'time_limit: 5'")
    return float(limit)
