"""Runs learners' code, authors' hidden tests and authors' checkers.

The same file runs in CPython when the site is built (to verify every reference solution and checker) and in
Pyodide in the browser's worker (to run and check what learners write). It uses only the standard library and
`zadachnik.core.numbers`, which travel with it. Values files and variant functions run only at build time: their
kinds of call live in zadachnik.python.values_files, which the build's runner adds to HANDLERS and which never ships.

The entry point is `handle(kind, request_json, report)`. Each call runs in a fresh namespace, and whatever the
code patched (builtins, this module, the number reader, sys.modules, sys.path …) is put back when the call
ends, so a patch never makes a later check pass. At build time zadachnik.python.serve, which stays with the
build, runs it in a process of its own.
"""

from __future__ import annotations

import builtins
import errno
import io
import json
import os
import sys
import traceback
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from zadachnik.core import numbers as _numbers
from zadachnik.core.numbers import grade_field, read_number, within

LEARNER_FILE = "<your code>"
CHECK_FILE = "<check>"
TEST_FILE = "<test>"
# Characters of output kept per call, both streams together: one endless line is cut as surely as many lines.
OUTPUT_LIMIT = 20_000
# Any other text learner code makes (an error's message, a checker's): the worker's MAX_TEXT_CHARS.
TEXT_LIMIT = 2_000
# Processes the code may start with os.fork in one call; the processes it starts may start none.
FORK_LIMIT = 16
DEFAULT_TIME_LIMIT = 5.0
RETURNED_REPR_LIMIT = 80
VERDICT_HINT = "return True or False, or (bool, message)"

# The harness's own references, taken before any learner code runs: patching builtins can't change them.
_bool, _isinstance, _type, _tuple, _len, _str, _repr, _dict, _float, _int, _all = (
    bool, isinstance, type, tuple, len, str, repr, dict, float, int, all)
_AssertionError, _BaseException, _SystemExit = AssertionError, BaseException, SystemExit
_json_dumps, _json_loads = json.dumps, json.loads
_REAL_EXIT: Callable[[int], Any] | None = getattr(os, "_exit", None)
_REAL_FORK: Callable[[], int] | None = getattr(os, "fork", None)

Report = Callable[[str], Any]


class TimeLimit(BaseException):
    """Raised by the build runner's timer; a BaseException, so `except Exception` in learner code can't swallow
    it (and if `except BaseException` does, `Clock.expired` still says the step ran out of time)."""


class NoInput(EOFError):
    """What reading input gives: exercises take their data as arguments, never from the keyboard."""


class BadVerdict(Exception):
    def __init__(self, returned: str):
        super().__init__(f"check() returned {returned}: {VERDICT_HINT}")
        self.returned = returned


class Clock:
    """Set by the host's timer (the build runner's SIGALRM) when a step's time is up."""

    expired = False


def time_is_up(*_signal: Any) -> None:
    Clock.expired = True
    raise TimeLimit


def _still_in_time() -> None:
    if Clock.expired:
        raise TimeLimit


# -- output, input and exits while learner code runs --------------------------------------------------------


class Output:
    """What the code printed, in the order written, adjacent writes to one stream merged, capped in characters."""

    def __init__(self, limit: int = OUTPUT_LIMIT):
        self.chunks: list[tuple[str, list[str]]] = []
        self.room = limit
        self.truncated = False

    def write(self, stream: str, text: str) -> None:
        if not text:
            return
        kept = text[: self.room]
        if _len(kept) < _len(text):
            self.truncated = True
        if not kept:
            return
        self.room -= _len(kept)
        if self.chunks and self.chunks[-1][0] == stream:
            self.chunks[-1][1].append(kept)
        else:
            self.chunks.append((stream, [kept]))

    def result(self) -> dict[str, Any]:
        return {"output": [{"stream": stream, "text": "".join(parts)} for stream, parts in self.chunks],
                "truncated": self.truncated}


class Stream(io.TextIOBase):
    """sys.stdout or sys.stderr for learner code: every write goes to the call's Output."""

    def __init__(self, output: Output, name: str):
        super().__init__()
        self.output = output
        self.name = name

    @property
    def encoding(self) -> str:
        return "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not _isinstance(text, _str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.output.write(self.name, text)
        return _len(text)


class NoStdin(io.TextIOBase):
    """sys.stdin for learner code: reading it says the exercise reads no input."""

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        raise NoInput("the exercise reads no input")

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise NoInput("the exercise reads no input")


def _no_input(prompt: Any = "") -> str:
    raise NoInput("the exercise reads no input")


def _exit_instead(status: int = 0) -> None:
    """os._exit for learner code: an exit it can report instead of the end of the process running it."""
    raise SystemExit(status)


class _Forks:
    pid = 0
    count = 0


def _limited_fork() -> int:
    if _REAL_FORK is None or os.getpid() != _Forks.pid or _Forks.count >= FORK_LIMIT:
        raise BlockingIOError(errno.EAGAIN, f"no more processes: code here may start at most {FORK_LIMIT}")
    _Forks.count += 1
    return _REAL_FORK()


def _refuse_forkpty() -> tuple[int, int]:
    raise BlockingIOError(errno.EAGAIN, "no terminals here")


def _os_modules() -> list[types.ModuleType]:
    return [module for module in (os, sys.modules.get("posix")) if module is not None]


@contextmanager
def learner_process(output: Output) -> Iterator[None]:
    """Learner code's view of the process: printing into `output`, no input, exits that raise, few forks."""
    replaced: list[tuple[Any, str, Any]] = [(sys, "stdout", Stream(output, "stdout")),
                                            (sys, "stderr", Stream(output, "stderr")),
                                            (sys, "stdin", NoStdin()), (builtins, "input", _no_input)]
    for module in _os_modules():
        for name, stand_in in (("_exit", _exit_instead), ("fork", _limited_fork), ("forkpty", _refuse_forkpty)):
            if hasattr(module, name):
                replaced.append((module, name, stand_in))
    saved = [(target, name, getattr(target, name)) for target, name, _ in replaced]
    _Forks.pid, _Forks.count = os.getpid(), 0
    for target, name, stand_in in replaced:
        setattr(target, name, stand_in)
    try:
        yield
    finally:
        for target, name, original in saved:
            setattr(target, name, original)


# -- errors as the learner (or the author) should see them ---------------------------------------------------


def _text_of(value: Any, how: Callable[[Any], str] = _str) -> str:
    """str() or repr() of something learner code made, which may itself raise or lie about its type, cut to
    TEXT_LIMIT: a message of 50 MB would otherwise be copied into the result's JSON, across to the page's worker
    and parsed there (seconds, and hundreds of MB on a phone) only to be cut to the same length by the worker."""
    try:
        text = how(value)
    except _BaseException:  # noqa: BLE001 - a broken __str__ must not break the report
        return f"<{_type(value).__name__} that cannot be shown>"
    if _type(text) is not _str:
        return f"<{_type(value).__name__}>"
    return text if _len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT] + "…"


def describe_error(error: BaseException, filename: str = LEARNER_FILE) -> dict[str, Any]:
    """The error as a learner should see it: its type, message and the lines of *their* code it went through,
    with a `code` for the errors the page explains in its own words."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == filename]
    if _isinstance(error, SyntaxError) and error.filename == filename:
        lines = [error.lineno] if error.lineno else []
    else:
        lines = []
        for frame in frames:
            # A deep recursion repeats the same lines hundreds of times: each line once, in order.
            if frame.lineno and frame.lineno not in lines:
                lines.append(frame.lineno)
    name = _type(error).__name__
    described: dict[str, Any] = {}
    if _isinstance(error, SyntaxError):
        message = _text_of(error.msg or "")
    elif _isinstance(error, _SystemExit):
        status = error.code
        described = {"code": "exit", "exit_status": status if _type(status) is _int else (0 if status is None else 1)}
        message = "" if status is None else _text_of(status)
    elif _isinstance(error, NoInput):
        name, message, described = "EOFError", "the exercise reads no input", {"code": "no_input"}
    elif _isinstance(error, BadVerdict):
        name, message = "TypeError", _text_of(error)
        described = {"code": "bad_verdict", "returned": error.returned}
    else:
        message = _text_of(error)
    return {"type": name, "message": message, "lines": lines,
            "text": (f"{name}: {message}" if message else name) + (f" (line {lines[-1]})" if lines else ""),
            **described}


def _run_source(source: str, filename: str, namespace: dict[str, Any]) -> dict[str, Any] | None:
    """exec() the code; an error it raises (any, exits included) described, the time limit passed on."""
    try:
        exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - running this code is the point
    except TimeLimit:
        raise
    except _BaseException as error:  # noqa: BLE001 - shown to the learner
        _still_in_time()
        return describe_error(error, filename)
    _still_in_time()
    return None


# -- the kinds of call ---------------------------------------------------------------------------------------


def run_code(code: str, report: Report | None = None, **_: Any) -> dict[str, Any]:
    """Run: the learner's code with its printed output."""
    output = Output()
    with learner_process(output):
        error = _run_source(code, LEARNER_FILE, {"__name__": "__main__"})
    return {**output.result(), "error": error}


def check_code(code: str, tests: list[dict[str, Any]], lang: str, time_limit: float = DEFAULT_TIME_LIMIT,
               report: Report | None = None, **_: Any) -> dict[str, Any]:
    """Check: the learner's code, then each hidden test (an expression that must be true, or statements whose
    asserts must hold) in the same namespace, each a step with its own time limit that the host times."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    output = Output()
    results: list[dict[str, Any]] = []
    step: str | int = "code"
    limit = _float(time_limit)

    def announce(event: dict[str, Any]) -> None:
        if report is not None:
            report(_json_dumps(event))

    try:
        with learner_process(output):
            Clock.expired = False
            announce({"event": "step", "step": "code", "time_limit": limit})
            error = _run_source(code, LEARNER_FILE, namespace)
            if error is not None:
                return {**output.result(), "status": "wrong", "score": 0, "error": error, "tests": []}
            for index, test in enumerate(tests):
                step, limit = index, _float(test.get("time_limit", time_limit))
                Clock.expired = False
                announce({"event": "step", "step": index, "time_limit": limit})
                result = _one_test(test, namespace, lang)
                results.append(result)
                announce({"event": "test", "index": index, "result": result})
    except TimeLimit:
        return {**output.result(), "status": "wrong", "score": 0, "timeout": limit, "timed_out": step,
                "tests": results}
    passed = _all(result["passed"] for result in results)
    return {**output.result(), "status": "correct" if passed else "wrong", "score": 1 if passed else 0,
            "tests": results}


def _one_test(test: dict[str, Any], namespace: dict[str, Any], lang: str) -> dict[str, Any]:
    message = test["message"].get(lang) or next(iter(test["message"].values()))
    source = test["test"]
    try:
        try:
            compiled = compile(source, TEST_FILE, "eval")
        except SyntaxError:
            exec(compile(source, TEST_FILE, "exec"), namespace)  # noqa: S102
            passed = True
        else:
            passed = _bool(eval(compiled, namespace))  # noqa: S307
    except TimeLimit:
        raise
    except _AssertionError:
        passed = False
    except _BaseException as error:  # noqa: BLE001
        _still_in_time()
        return {"passed": False, "message": message, "error": describe_error(error)}
    _still_in_time()
    return {"passed": passed, "message": message}


def _verdict(result: Any) -> tuple[bool, Any]:
    """A checker's verdict: True or False, or a (bool, message) pair; anything else is the author's mistake."""
    if _is_bool(result):
        return _bool(result), ""
    if _type(result) is _tuple and _len(result) == 2 and _is_bool(result[0]):
        return _bool(result[0]), result[1]
    text = _text_of(result, _repr)
    raise BadVerdict(text if _len(text) <= RETURNED_REPR_LIMIT else text[: RETURNED_REPR_LIMIT - 1] + "…")


def _is_bool(value: Any) -> bool:
    # NumPy's comparisons give numpy.bool_, which is as much a yes or no as True and False.
    kind = _type(value)
    return kind is _bool or (kind.__name__ == "bool_" and kind.__module__ == "numpy")


def run_checker(source: str, answer: dict[str, Any], lang: str, report: Report | None = None,
                conventions: dict[str, Any] | None = None, **_: Any) -> dict[str, Any]:
    """An author's `check(answer)` on a learner's answer. Numeric fields arrive read: {"text", "value", …},
    as the page reads them (`conventions`, its locale's; the browser's worker may get none, and then reads
    only texts the page's own reader let through). An incomplete or unreadable answer never reaches the
    checker, as with built-in grading."""
    if "choice" in answer and not answer["choice"]:
        return {"status": "unanswered"}
    pairs = answer.get("pairs")
    if _isinstance(pairs, _dict) and not all(pairs.values()):
        return {"status": "unanswered", "missing": [item for item, option in pairs.items() if not option]}
    fields = answer.get("fields")
    given = _dict(answer)
    if _isinstance(fields, _dict):
        given["fields"] = {field: {"text": text, **read_number(_str(text), conventions)}
                           for field, text in fields.items()}
        unreadable = {field: {"status": "unreadable", "error": reading["error"]}
                      for field, reading in given["fields"].items() if "error" in reading}
        if unreadable:
            return {"status": "unreadable", "fields": unreadable}
    def page_read_number(text: str) -> dict[str, Any]:
        return read_number(text, conventions)

    def page_grade_field(field: dict[str, Any], text: str) -> dict[str, Any]:
        return grade_field(field, text, conventions)

    # The checker's read_number and grade_field read as the page does.
    namespace: dict[str, Any] = {"__name__": "checker", "read_number": page_read_number, "within": within,
                                 "grade_field": page_grade_field}
    output = Output()
    with learner_process(output):
        error = _run_source(source, CHECK_FILE, namespace)
        if error is None:
            try:
                verdict, message = _verdict(namespace["check"](given))
                # Every language's text is kept: the verdict is shown on the page's other languages too.
                texts = {_text_of(key): _text_of(text) for key, text in message.items()} \
                    if _isinstance(message, _dict) else None
                message = _text_of(texts.get(lang) or next(iter(texts.values()), "") if texts is not None
                                   else message)
            except TimeLimit:
                raise
            except _BaseException as problem:  # noqa: BLE001 - reported, never raised into the page
                _still_in_time()
                error = describe_error(problem, CHECK_FILE)
    if error is not None:
        return {"status": "unreadable", "error": error}
    result = {"status": "correct" if verdict else "wrong", "score": 1 if verdict else 0, "message": message}
    return {**result, "messages": texts} if texts else result


# What the browser's worker runs. The build's runner adds the build-only kinds (zadachnik.python.values_files) before
# the snapshot is taken, so the snapshot puts those back too.
HANDLERS: dict[str, Callable[..., dict[str, Any]]] = {"run": run_code, "check": check_code, "checker": run_checker}


# -- putting back what a call may have patched ---------------------------------------------------------------


class Snapshot:
    """The interpreter state learner code could patch to fool later checks, taken before the first call and put
    back after every one: a few dictionaries compared by identity, so it costs well under a millisecond."""

    def __init__(self, hosts: tuple[types.ModuleType, ...] = ()) -> None:
        """`hosts`: modules of whoever runs the harness (the build's serve loop), put back as the harness is."""
        import zadachnik
        import zadachnik.core
        import zadachnik.python

        this = sys.modules[__name__]
        harness = [this, _numbers, *hosts]
        self.namespaces = [(module, _dict(vars(module))) for module in
                           (builtins, zadachnik, zadachnik.core, zadachnik.python, *harness, json, json.decoder,
                            json.encoder, json.scanner, traceback, io, os, types)]
        self.sys_values = _dict(vars(sys))
        self.functions = []
        self.classes = []
        for module in harness:
            for value in vars(module).values():
                if _isinstance(value, types.FunctionType):
                    self.functions.append((value, value.__code__, value.__defaults__, value.__kwdefaults__))
                elif _isinstance(value, _type) and value.__module__ == module.__name__:
                    self.classes.append((value, _dict(vars(value))))
        self.modules = _dict(sys.modules)
        # HANDLERS' entries, not only the name: a handler swapped inside it would answer every later call.
        self.handlers = _dict(HANDLERS)
        self.lists = [(listed, list(listed)) for listed in (sys.path, sys.meta_path, sys.path_hooks)]
        self.importer_cache = _dict(sys.path_importer_cache)
        self.recursion_limit = sys.getrecursionlimit()
        self.cwd = os.getcwd()
        # This module's own record of the snapshot is part of the state put back.
        next(saved for module, saved in self.namespaces if module is this)["_snapshot"] = self

    def restore(self) -> None:
        for module, saved in self.namespaces:
            _put_back(vars(module), saved, drop_added=True)
        # sys gains attributes of its own (last_value, …); only what it had is put back.
        _put_back(vars(sys), self.sys_values, drop_added=False)
        for function, code, defaults, kwdefaults in self.functions:
            function.__code__, function.__defaults__, function.__kwdefaults__ = code, defaults, kwdefaults
        for cls, saved in self.classes:
            for name in [name for name in vars(cls) if name not in saved]:
                delattr(cls, name)
            for name, value in saved.items():
                if name not in ("__dict__", "__weakref__") and vars(cls).get(name) is not value:
                    setattr(cls, name, value)
        modules = sys.modules
        for name in [name for name in modules if name not in self.modules and not _genuine(name, modules[name])]:
            del modules[name]
        _put_back(modules, self.modules, drop_added=False)
        _put_back(HANDLERS, self.handlers, drop_added=True)
        for listed, saved in self.lists:
            if listed != saved:
                listed[:] = saved
        _put_back(sys.path_importer_cache, self.importer_cache, drop_added=True)
        sys.setrecursionlimit(self.recursion_limit)
        if os.getcwd() != self.cwd:
            os.chdir(self.cwd)
        sys.settrace(None)
        sys.setprofile(None)


def _put_back(current: dict[str, Any], saved: dict[str, Any], drop_added: bool) -> None:
    if drop_added:
        for name in [name for name in current if name not in saved]:
            del current[name]
    for name, value in saved.items():
        if current.get(name, _put_back) is not value:
            current[name] = value


def _genuine(name: str, module: Any) -> bool:
    """A module the import system made (kept, so NumPy is imported once), not one learner code planted."""
    spec = getattr(module, "__spec__", None) if _isinstance(module, types.ModuleType) else None
    return spec is not None and getattr(spec, "name", None) == name and getattr(module, "__name__", None) == name


_snapshot: Snapshot | None = None


def handle(kind: str, request_json: str, report: Report | None = None, *,
           _restore: Callable[[Snapshot], None] = Snapshot.restore) -> str:
    """The one entry point (the browser's worker and the build's runner both call it): JSON in, JSON out, no
    proxies crossing into JavaScript. `report` gets one JSON event per step of a check."""
    global _snapshot
    if _snapshot is None:
        _snapshot = Snapshot()
    snapshot = _snapshot
    failure: BaseException | None = None
    try:
        request = _json_loads(request_json)
        result = HANDLERS[kind](**request, report=report)
    except TimeLimit:
        raise
    except _BaseException as error:  # noqa: BLE001 - e.g. code that left the harness no recursion depth
        failure = error
    finally:
        _stop_host_clock()
        _restore(snapshot)
    if failure is not None:
        # Described once the state is put back; a result, never an exception, for the page or the build.
        described = describe_error(failure, "<harness>")
        result = {"status": "unreadable", "score": 0, "error": {**described, "text": f"the check could not run: "
                                                                f"{described['text']}"}}
    return json.dumps(result)


def _stop_host_clock() -> None:
    """Replaced by the build's runner: the timer must not fire while the harness puts things back."""
