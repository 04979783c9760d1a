"""Runs learners' code, authors' hidden tests and authors' checkers.

The same file runs in CPython when the site is built (to verify every reference solution and checker) and in
Pyodide in the browser's worker (to run and check what learners write). It uses only the standard library and
`zadachnik.numbers`, which travel with it.
"""

from __future__ import annotations

import io
import sys
import traceback
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

from zadachnik.numbers import grade_field, read_number, within

LEARNER_FILE = "<your code>"
MAX_LINES = 10_000


class CappedOutput(io.TextIOBase):
    """Collects printed text up to a number of lines, then only counts what it drops."""

    def __init__(self, max_lines: int = MAX_LINES):
        self.parts: list[str] = []
        self.lines = 0
        self.max_lines = max_lines
        self.truncated = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.truncated:
            return len(text)
        room = self.max_lines - self.lines
        pieces = text.split("\n")
        if len(pieces) - 1 >= room:
            self.parts.append("\n".join(pieces[:room]) + "\n" if room else "")
            self.lines = self.max_lines
            self.truncated = True
        else:
            self.parts.append(text)
            self.lines += len(pieces) - 1
        return len(text)

    def text(self) -> str:
        return "".join(self.parts)


def describe_error(error: BaseException) -> dict[str, Any]:
    """The error as a learner should see it: its type, message and the lines of *their* code it went through."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == LEARNER_FILE]
    if isinstance(error, SyntaxError) and error.filename == LEARNER_FILE:
        lines = [error.lineno] if error.lineno else []
    else:
        lines = []
        for frame in frames:
            # A deep recursion repeats the same lines hundreds of times: each line once, in order.
            if frame.lineno and frame.lineno not in lines:
                lines.append(frame.lineno)
    name = type(error).__name__
    message = str(error) if not isinstance(error, SyntaxError) else (error.msg or "")
    return {"type": name, "message": message, "lines": lines,
            "text": f"{name}: {message}" + (f" (line {lines[-1]})" if lines else "")}


def _execute(code: str, namespace: dict[str, Any]) -> dict[str, Any] | None:
    try:
        exec(compile(code, LEARNER_FILE, "exec"), namespace)  # noqa: S102 - running learners' code is the point
    except (Exception, RecursionError, MemoryError) as error:  # noqa: BLE001 - shown to the learner
        return describe_error(error)
    return None


def run_code(code: str, max_lines: int = MAX_LINES) -> dict[str, Any]:
    """Run: the learner's code with its printed output."""
    stdout, stderr = CappedOutput(max_lines), CappedOutput(max_lines)
    with redirect_stdout(stdout), redirect_stderr(stderr):
        error = _execute(code, {"__name__": "__main__"})
    return {"stdout": stdout.text(), "stderr": stderr.text(), "error": error,
            "truncated": stdout.truncated or stderr.truncated}


def check_code(code: str, tests: list[dict[str, Any]], lang: str, max_lines: int = MAX_LINES) -> dict[str, Any]:
    """Check: the learner's code, then each hidden test (an expression that must be true, or statements whose
    asserts must hold) in the same namespace."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    stdout = CappedOutput(max_lines)
    with redirect_stdout(stdout), redirect_stderr(stdout):
        error = _execute(code, namespace)
        results = []
        if error is None:
            for test in tests:
                results.append(_one_test(test, namespace, lang))
    if error is not None:
        return {"status": "wrong", "score": 0, "error": error, "tests": [], "stdout": stdout.text()}
    passed = all(result["passed"] for result in results)
    return {"status": "correct" if passed else "wrong", "score": 1 if passed else 0, "tests": results,
            "stdout": stdout.text(), "truncated": stdout.truncated}


def _one_test(test: dict[str, Any], namespace: dict[str, Any], lang: str) -> dict[str, Any]:
    message = test["message"].get(lang) or next(iter(test["message"].values()))
    source = test["test"]
    try:
        try:
            compiled = compile(source, "<test>", "eval")
        except SyntaxError:
            exec(compile(source, "<test>", "exec"), namespace)  # noqa: S102
            passed = True
        else:
            passed = bool(eval(compiled, namespace))  # noqa: S307
    except AssertionError:
        passed = False
    except (Exception, RecursionError, MemoryError) as error:  # noqa: BLE001
        return {"passed": False, "message": message, "error": describe_error(error)}
    return {"passed": passed, "message": message}


def run_checker(source: str, answer: dict[str, Any], lang: str) -> dict[str, Any]:
    """An author's `check(answer)` on a learner's answer. Numeric fields arrive read: {"text", "value", …}."""
    namespace: dict[str, Any] = {"__name__": "checker", "read_number": read_number, "within": within,
                                 "grade_field": grade_field}
    if "choice" in answer and not answer["choice"]:
        return {"status": "unanswered"}
    pairs = answer.get("pairs")
    if isinstance(pairs, dict) and not all(pairs.values()):
        # As with built-in grading, an incomplete answer is not checked.
        return {"status": "unanswered", "missing": [item for item, option in pairs.items() if not option]}
    fields = answer.get("fields")
    given = dict(answer)
    if isinstance(fields, dict):
        given["fields"] = {field: {"text": text, **read_number(str(text))} for field, text in fields.items()}
        unreadable = {field: {"status": "unreadable", "error": reading["error"]}
                      for field, reading in given["fields"].items() if "error" in reading}
        if unreadable:
            # What the number reader can't read never reaches the checker, as with built-in grading.
            return {"status": "unreadable", "fields": unreadable}
    try:
        exec(compile(source, "<check>", "exec"), namespace)  # noqa: S102 - the author's own code
        result = namespace["check"](given)
        verdict, message = result if isinstance(result, tuple) else (result, "")
    except Exception as error:  # noqa: BLE001 - reported, never raised into the page
        return {"status": "unreadable", "error": describe_error(error)}
    if isinstance(message, dict):
        message = message.get(lang) or next(iter(message.values()), "")
    return {"status": "correct" if verdict else "wrong", "score": 1 if verdict else 0, "message": str(message)}


HANDLERS = {"run": run_code, "check": check_code, "checker": run_checker}


def handle(kind: str, request: str) -> str:
    """The browser's worker calls this with JSON and gets JSON back (no proxies cross into JavaScript)."""
    import json

    return json.dumps(HANDLERS[kind](**json.loads(request)))


class TimeLimit(BaseException):
    """Raised by the timer in the build's runner; a BaseException, so `except Exception` can't swallow it."""


def serve() -> None:
    """The build's runner: one JSON request per line on stdin, one result per line on stdout, each request
    with its own time limit (the parent kills this process if a limit is ever ignored)."""
    import json
    import signal

    def out_of_time(signum: int, frame: Any) -> None:
        raise TimeLimit

    signal.signal(signal.SIGALRM, out_of_time)
    requests, replies = sys.stdin, sys.stdout
    for line in requests:
        request = json.loads(line)
        kind, limit = request.pop("kind"), request.pop("time_limit")
        sys.stdin = io.StringIO("")  # code that reads input must not eat the next request
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            result = HANDLERS[kind](**request)
        except TimeLimit:
            result = {"status": "wrong", "score": 0, "timeout": limit}
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.stdin = requests
        replies.write(json.dumps(result) + "\n")
        replies.flush()


if __name__ == "__main__":
    serve()
