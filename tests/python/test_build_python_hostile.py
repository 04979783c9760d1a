"""Hostile or careless Python at build time: reference solutions, checkers and values files that loop, ignore the
timer, fork, flood the output, exit, read input, write to fd 1, raise BaseException, recurse or eat memory, or
reach for the build itself: signal it, read its environment, write into the installed package.

Each is stopped with file:line and a message, and a build that meets one exits non-zero; nothing the code
started is left running. Most cases grade a small course directly (`problems`); a few run `mkdocs build`, among
them every case that aims at the build's own process.
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import zadachnik
from support.sources import (
    MODULE,
    MODULE_YML,
    QUIZ,
    block,
    checker_question,
    code_question,
    line_with,
    problems,
    write_course,
)
from zadachnik.core.errors import SourceErrors
from zadachnik.python import runner as pythoncheck
from zadachnik.python import serve
from zadachnik.python.runner import run_isolated
from zadachnik.reading.model import load_courses

TESTS_RU = "f(2) равно 4"


@pytest.fixture(autouse=True)
def short_grace(monkeypatch) -> None:
    # Code that ignores its timer is killed this long after its limit; short, so the tests stay quick.
    monkeypatch.setattr(pythoncheck, "GRACE", 1.0)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


def pids_in(folder: Path) -> list[int]:
    return [int(path.read_text()) for path in folder.glob("pid-*")]


@pytest.fixture
def shared() -> Iterator[Path]:
    """A folder in the temp folder that every user may write in: without namespaces a build run by root runs the
    code as another user, who may not write in the tests' own folders."""
    folder = Path(tempfile.mkdtemp(prefix="zadachnik-hostile-"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def noting_pids(folder: Path) -> str:
    """Code for a solution: note(name, pid) writes a pid file whole (written, then renamed), wait_for(name)
    waits until it is there, so no process is killed before the test knows of it. (Without namespaces: in its
    own PID namespace the code's pids are not the test's. In a `shared` folder: the code may run as nobody.)"""
    return (f"import os, time\nfolder = {str(folder)!r}\n"
            "def note(name, pid):\n    with open(f'{folder}/tmp-{name}', 'w') as file:\n        file.write(str(pid))\n"
            "    os.rename(f'{folder}/tmp-{name}', f'{folder}/pid-{name}')\n"
            "def wait_for(name):\n    while not os.path.exists(f'{folder}/pid-{name}'):\n        time.sleep(0.001)\n")


def solution_problem(tmp_path: Path, solution: str, limit: float = 1) -> str:
    [problem] = problems(tmp_path, code_question(solution, extra=f"time_limit: {limit}\n"))
    assert (problem.path, problem.line) == (QUIZ, 1)
    return problem.message


# -- reference solutions ---------------------------------------------------------------------------------------

LOOP = "    while True:\n        pass\n"
TIMED_OUT_IN_TEST = f"question Q1: the reference solution ran out of time in test 1 ({TESTS_RU})"
NEVER_STARTED = "question Q1: the reference solution did not finish within its time limit of 1 s before its tests ran"


@pytest.mark.parametrize("solution, expected", [
    ("def f(x):\n" + LOOP, TIMED_OUT_IN_TEST),
    ("while True:\n    pass\ndef f(x):\n    return 2 * x", NEVER_STARTED),
    ("def f(x):\n    while True:\n        try:\n            while True:\n                pass\n"
     "        except BaseException:\n            pass", TIMED_OUT_IN_TEST),
    ("import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\ndef f(x):\n" + LOOP, TIMED_OUT_IN_TEST),
    ("import signal\ndef f(x):\n    signal.setitimer(signal.ITIMER_REAL, 0)\n" + LOOP, TIMED_OUT_IN_TEST),
    ("import signal\ndef f(x):\n    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})\n" + LOOP,
     TIMED_OUT_IN_TEST),
    ("import time\ndef f(x):\n    time.sleep(1000)", TIMED_OUT_IN_TEST),
    # A partial line on the real stdout, then the timer ignored: once a hang, once a JSONDecodeError traceback.
    ("import os, signal\nos.write(1, b'{\"result\": ')\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
     "def f(x):\n" + LOOP, TIMED_OUT_IN_TEST),
], ids=["loop", "loop-at-top", "swallows-the-limit", "ignores-SIGALRM", "cancels-the-timer", "blocks-SIGALRM",
        "sleeps", "partial-line-on-fd-1"])
def test_solutions_that_never_end_are_stopped(tmp_path: Path, solution: str, expected: str) -> None:
    assert solution_problem(tmp_path, solution) == expected


@pytest.mark.parametrize("solution, expected", [
    ("import sys\nsys.exit(0)\ndef f(x):\n    return 2 * x",
     "exits instead of returning (SystemExit: 0 (line 2))"),
    ("import os\nos._exit(0)", "exits instead of returning (SystemExit: 0 (line 2))"),
    ("import posix\ndef f(x):\n    posix._exit(1)", f"fails its own test: {TESTS_RU} (SystemExit: 1 (line 3))"),
    ("exit(3)", "exits instead of returning (SystemExit: 3 (line 1))"),
    ("data = input()\ndef f(x):\n    return 2 * x", "reads input (EOFError: the exercise reads no input (line 1))"),
    ("import sys\ndef f(x):\n    return int(sys.stdin.readline())",
     f"fails its own test: {TESTS_RU} (EOFError: the exercise reads no input (line 3))"),
    ("raise KeyboardInterrupt", "raised KeyboardInterrupt (line 1)"),
    ("class Escape(BaseException):\n    pass\ndef f(x):\n    raise Escape('out')",
     f"fails its own test: {TESTS_RU} (Escape: out (line 4))"),
    ("raise GeneratorExit('gone')", "raised GeneratorExit: gone (line 1)"),
    ("def f(x):\n    return f(x + 1)",
     f"fails its own test: {TESTS_RU} (RecursionError: maximum recursion depth exceeded (line 2))"),
    ("data = bytearray(10**10)", "raised MemoryError (line 1)"),
    ("def f(x):\n    return len([0] * 10**9)", f"fails its own test: {TESTS_RU} (MemoryError (line 2))"),
], ids=["sys.exit", "os._exit", "posix._exit-in-a-test", "exit", "input", "stdin-in-a-test", "KeyboardInterrupt",
        "BaseException-subclass", "GeneratorExit", "recursion", "memory", "memory-in-a-test"])
def test_solutions_that_exit_read_input_raise_or_eat_memory(tmp_path: Path, solution: str, expected: str) -> None:
    assert solution_problem(tmp_path, solution, limit=5) == f"question Q1: the reference solution {expected}"


def test_memory_error_says_how_much_the_build_gives(tmp_path: Path) -> None:
    [problem] = problems(tmp_path, code_question("data = bytearray(10**10)"))
    assert problem.hint == "the build gives Python code 2 GiB of memory: use less"


@pytest.mark.parametrize("solution", [
    "import os\nos.kill(os.getpid(), 9)",
    "import os\nos.abort()",
    # C recursion past the real stack once the limit is lifted: the runner itself crashes.
    "import sys\nsys.setrecursionlimit(10**7)\nnested = []\nfor _ in range(300_000):\n    nested = [nested]\n"
    "text = repr(nested)",
], ids=["SIGKILL", "abort", "stack-overflow"])
def test_a_runner_the_code_kills_is_reported_and_replaced(tmp_path: Path, solution: str) -> None:
    message = solution_problem(tmp_path / "bad", solution, limit=10)
    assert message.startswith(
        "question Q1: the reference solution crashed the Python process running it (killed by SIG")
    # The next question gets a fresh runner.
    assert problems(tmp_path / "next", code_question("def f(x):\n    return 2 * x")) == []


def test_huge_output_and_writes_to_fd_1_and_2_change_nothing(tmp_path: Path) -> None:
    flood = ("import os, sys\nprint('x' * 50_000_000)\nfor i in range(20_000):\n    print(i, file=sys.stderr)\n"
             "os.write(1, b'{\"result\": {\"status\": \"correct\"}}\\n' * 1000)\nos.write(2, b'y' * 10**6)\n"
             "def f(x):\n    print('z' * 10**6)\n    return 2 * x")
    assert problems(tmp_path / "right", code_question(flood, extra="time_limit: 30\n")) == []
    wrong = flood.replace("return 2 * x", "return x")
    assert solution_problem(tmp_path / "wrong", wrong, limit=30) == (
        f"question Q1: the reference solution fails its own test: {TESTS_RU}")


@pytest.mark.parametrize("isolation", ["plain"], indirect=True)
def test_fork_bomb_is_limited_and_ended(tmp_path: Path, isolation: str, shared: Path) -> None:
    bomb = noting_pids(shared) + (
        "def f(x):\n    while True:\n        pid = os.fork()\n        if pid == 0:\n"
        "            note(os.getpid(), os.getpid())\n            os.fork()\n            time.sleep(300)\n"
        "        wait_for(pid)\n")
    message = solution_problem(tmp_path / "course", bomb, limit=20)
    assert message == (f"question Q1: the reference solution fails its own test: {TESTS_RU} (BlockingIOError: "
                       "[Errno 11] no more processes: code here may start at most 16 (line 12))")
    # The runner started its 16; each of them was refused a fork of its own.
    started = pids_in(shared)
    assert len(started) == 16
    assert not [pid for pid in started if alive(pid)]


@pytest.mark.parametrize("isolation", ["plain"], indirect=True)
def test_processes_that_leave_the_group_are_ended_too(tmp_path: Path, isolation: str, shared: Path) -> None:
    # A child that starts its own session, and a grandchild orphaned by its parent: neither outlives the check.
    code = noting_pids(shared) + (
        "import subprocess\n"
        "def f(x):\n    if os.fork() == 0:\n        os.setsid()\n        note('a', os.getpid())\n"
        "        time.sleep(300)\n"
        # The inner shell notes its own pid ($$ in single quotes), then becomes sleep; the outer one exits.
        "    script = f'echo $$ > {folder}/tmp-b && /bin/mv {folder}/tmp-b {folder}/pid-b && exec /bin/sleep 300'\n"
        "    subprocess.run(['/bin/sh', '-c', f\"(/bin/sh -c '{script}' &)\"])\n"
        "    wait_for('a')\n    wait_for('b')\n    return 2 * x\n")
    assert problems(tmp_path / "course", code_question(code, extra="time_limit: 20\n")) == []
    started = pids_in(shared)
    assert len(started) == 2
    assert not [pid for pid in started if alive(pid)]


def test_a_thread_left_running_cannot_fool_the_next_check(tmp_path: Path) -> None:
    patcher = ("import builtins, threading, time\ndef keep_patching():\n    while True:\n"
               "        builtins.all = lambda results: True\n        time.sleep(0.001)\n"
               "threading.Thread(target=keep_patching, daemon=True).start()\ndef f(x):\n    return 2 * x")
    assert problems(tmp_path / "a", code_question(patcher)) == []
    assert solution_problem(tmp_path / "b", "def f(x):\n    return x", limit=5) == (
        f"question Q1: the reference solution fails its own test: {TESTS_RU}")


# -- checkers --------------------------------------------------------------------------------------------------


def checker_problem(tmp_path: Path, body: str) -> tuple[int, str, str]:
    check = "check: |\n  def check(answer):\n" + "".join(f"      {line}\n" for line in body.splitlines())
    quiz = checker_question(check=check, wrong="")
    [problem] = problems(tmp_path, quiz)
    assert problem.path == QUIZ
    return problem.line - line_with(quiz, "check: |"), problem.message, problem.hint


REVEALED = "{'fields': {'x': '0,50'}}"


@pytest.mark.parametrize("body, expected", [
    ("while True:\n    pass", (0, f"question Q1: its checker ran out of time (0.5 s) on {REVEALED}")),
    ("import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True:\n    pass",
     (0, f"question Q1: its checker ran out of time (0.5 s) on {REVEALED}")),
    ("import os\nos._exit(0)", (3, f"question Q1: its checker exits instead of returning (SystemExit: 0 (line 3)) "
                                   f"on {REVEALED}")),
    ("return input() == '0.5'", (2, "question Q1: its checker reads input (EOFError: the exercise reads no input "
                                    f"(line 2)) on {REVEALED}")),
    ("raise SystemExit", (2, f"question Q1: its checker exits instead of returning (SystemExit (line 2)) "
                             f"on {REVEALED}")),
    ("class Odd(BaseException):\n    pass\nraise Odd('odd')",
     (4, f"question Q1: its checker raised Odd: odd (line 4) on {REVEALED}")),
    ("return 'True'", (0, "question Q1: check() returned 'True': return True or False, or (bool, message)")),
    ("import os\nos.write(1, b'garbage')\nprint('x' * 10**7)\nreturn [True]",
     (0, "question Q1: check() returned [True]: return True or False, or (bool, message)")),
], ids=["loop", "ignores-SIGALRM", "os._exit", "input", "SystemExit", "BaseException", "string", "floods"])
def test_hostile_checkers(tmp_path: Path, monkeypatch, body: str, expected: tuple[int, str]) -> None:
    monkeypatch.setattr("zadachnik.checking.grading.CHECKER_TIME_LIMIT", 0.5)
    offset, message, _hint = checker_problem(tmp_path, body)
    assert (offset, message) == expected


@pytest.mark.parametrize("body, hint", [
    ("raise SystemExit", "remove the exit: check() returns its verdict"),
    ("return input() == '0.5'", "a checker reads no input: the answer is its argument"),
], ids=["exit", "input"])
def test_a_checkers_hint_speaks_of_the_checker(tmp_path: Path, body: str, hint: str) -> None:
    """It spoke of a code exercise's tests, which a checker has none of."""
    assert checker_problem(tmp_path, body)[2] == hint


def test_checker_that_kills_its_runner(tmp_path: Path) -> None:
    offset, message, hint = checker_problem(tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)")
    assert message == ("question Q1: its checker crashed the Python process running it (killed by SIGKILL: out of "
                       f"memory, or stopped from outside) on {REVEALED}")
    assert hint == "it may use too much memory, or end the process itself"


# -- values files ----------------------------------------------------------------------------------------------


def values_error(tmp_path: Path, calc: str, files: dict[str, str] | None = None):
    exercises_dir = write_course(tmp_path, quiz=block(), module=MODULE + "values: calc.py\n")
    module_dir = exercises_dir / "course/01-m"
    (module_dir / "calc.py").write_text(calc, encoding="utf-8")
    for name, text in (files or {}).items():
        (module_dir / name).write_text(text, encoding="utf-8")
    with pytest.raises(SourceErrors) as info:
        load_courses(exercises_dir, ["ru", "en"], tmp_path)
    [error] = info.value.errors
    assert (error.path, error.line) == (MODULE_YML, 5)
    return error


@pytest.mark.parametrize("calc, message, hint", [
    ("import sys\nsys.exit(0)\n", "calc.py exits the process (SystemExit: 0 (line 2) at calc.py:2)",
     "a values file defines values() and returns: remove the exit"),
    ("import os\ndef values():\n    os._exit(0)\n", "calc.py exits the process (SystemExit: 0 (line 3) at calc.py:3)",
     "a values file defines values() and returns: remove the exit"),
    ("def values():\n    return {'x': input()}\n", "calc.py reads input at calc.py:2", "a values file reads no input"),
    ("def values():\n    return {'x': float('nan')}\n",
     "values() in calc.py gives nan for 'x': each value must be a finite number",
     "values() must return a dict of names to numbers"),
    ("def values():\n    return {'x': 1e308 * 10}\n",
     "values() in calc.py gives inf for 'x': each value must be a finite number",
     "values() must return a dict of names to numbers"),
    ("def values():\n    return {'x': '3'}\n", "values() in calc.py gives '3' for 'x': each value must be a number",
     "values() must return a dict of names to numbers"),
    ("def values():\n    return {'x': True}\n", "values() in calc.py gives True for 'x': each value must be a number",
     "values() must return a dict of names to numbers"),
    ("def values():\n    return [1]\n", "values() in calc.py must return a dict of names to numbers, not list",
     "values() must return a dict of names to numbers"),
    ("class Stop(BaseException):\n    pass\nraise Stop('no')\n", "no (Stop at calc.py:3)",
     "values() must return a dict of names to numbers"),
    ("def values():\n    return {'x': len(bytearray(10**10))}\n", "MemoryError (MemoryError at calc.py:2)",
     "values() must return a dict of names to numbers"),
    # Once an OverflowError traceback, from the page that wrote it.
    ("def values():\n    return {'x': -10**400}\n",
     "values() in calc.py gives an integer of 401 digits for 'x': each value must fit in a float (at most 1.8e308)",
     "values() must return a dict of names to numbers"),
    ("from fractions import Fraction\ndef values():\n    return {'x': Fraction(10**400, 3)}\n",
     "values() in calc.py gives Fraction(100000000000000000000000000000000000000000000000000 for 'x': each value "
     "must fit in a float (at most 1.8e308)", "values() must return a dict of names to numbers"),
], ids=["sys.exit", "os._exit", "input", "nan", "inf", "text", "bool", "list", "BaseException", "memory", "huge-int",
        "huge-fraction"])
def test_values_files_that_exit_crash_or_give_no_numbers(tmp_path: Path, calc: str, message: str, hint: str) -> None:
    error = values_error(tmp_path, calc)
    assert (error.message, error.hint) == (f"cannot read the module's values: {message}", hint)


def test_values_file_that_loops_is_stopped(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("zadachnik.reading.values.VALUES_TIME_LIMIT", 0.5)
    error = values_error(tmp_path, "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True:\n"
                                   "    pass\n")
    assert error.message == "cannot read the module's values: calc.py did not finish within 0.5 s"


def test_values_error_in_an_imported_module_names_that_file(tmp_path: Path) -> None:
    error = values_error(tmp_path, "from helper import ratio\ndef values():\n    return {'r': ratio()}\n",
                         {"helper.py": "def ratio():\n    return 1 / 0\n"})
    assert error.message == "cannot read the module's values: division by zero (ZeroDivisionError at helper.py:2)"


def test_values_files_import_their_own_folder_each_its_own(tmp_path: Path) -> None:
    # Two modules, each with a helper.py of its own: neither sees the other's.
    for number, figure in ((1, 10), (2, 20)):
        folder = tmp_path / "exercises/course" / f"0{number}-m"
        folder.mkdir(parents=True)
        (folder / "module.yml").write_text(MODULE.replace("number: 1", f"number: {number}") + "values: calc.py\n")
        (folder / "calc.py").write_text("from helper import FIGURE\ndef values():\n    return {'n': FIGURE}\n")
        (folder / "helper.py").write_text(f"FIGURE = {figure}\n")
        en = "The figure is {{ n }}.\n\nexplanation:\nSo."
        (folder / "quiz.md").write_text(block(yaml="type: open", ident=f"Q{number}", ru=en, en=en))
    (tmp_path / "exercises/course/course.yml").write_text(
        "id: course\ntitle:\n  ru: Курс\n  en: Course\nmodules: 3\n")
    modules = load_courses(tmp_path / "exercises", ["ru", "en"], tmp_path)[0].modules
    assert [module.questions[0].body["en"].markdown for module in modules] == ["The figure is 10.",
                                                                                "The figure is 20."]


def test_values_files_run_in_their_own_folder(tmp_path: Path) -> None:
    exercises_dir = write_course(tmp_path, quiz=block(yaml="type: open", ru="{{ n }}\n\nexplanation:\nДа.",
                                                      en="{{ n }}\n\nexplanation:\nYes."),
                                 module=MODULE + "values: files/calc.py\n")
    files = exercises_dir / "course/01-m/files"
    files.mkdir()
    (files / "calc.py").write_text("def values():\n    return {'n': int(open('data.txt').read())}\n")
    (files / "data.txt").write_text("42\n")
    question = load_courses(exercises_dir, ["ru", "en"], tmp_path)[0].modules[0].questions[0]
    assert question.body["en"].markdown == "42"


# A values file that patches the runner to give its numbers to whatever file runs next.
VALUES_PATCHES = {
    "values runner": "import zadachnik.python.values_files as v\nv._numbers_of = lambda r, w: {'numbers': {'x': 1}}\n",
    "values code object": ("import zadachnik.python.values_files as v\n"
                           "v._numbers_of.__code__ = (lambda r, w: {'numbers': {'x': 1}}).__code__\n"),
    "handlers": ("import zadachnik.python.pyrunner as p\n"
                 "p.HANDLERS['values'] = lambda **k: {'values': {'x': 1}}\n"),
}


@pytest.mark.parametrize("patch", VALUES_PATCHES)
def test_a_values_file_cannot_patch_the_runner_to_fool_the_next_one(tmp_path: Path, patch: str) -> None:
    """The build-only runner (zadachnik.python.values_files) and the kinds of call it adds are put back after every
    call, as the harness is."""
    patching, honest = tmp_path / "a" / "calc.py", tmp_path / "b" / "calc.py"
    for file, text in ((patching, VALUES_PATCHES[patch] + "def values():\n    return {'x': 1}\n"),
                       (honest, "def values():\n    return {'x': 'three'}\n\n\ndef draw(rng):\n    return values()\n")):
        file.parent.mkdir()
        file.write_text(text, encoding="utf-8")
    assert run_isolated("values", {"path": str(patching)}, 10) == {"values": {"x": 1}}
    result = run_isolated("values", {"path": str(honest)}, 10)
    assert result["error"]["text"] == "values() in calc.py gives 'three' for 'x': each value must be a number"
    drawn = run_isolated("variants", {"path": str(honest), "function": "draw", "seeds": [1], "question": "Q"}, 10)
    assert drawn == {"variants": [{"seed": 1, "error": {"text": "draw(rng) gives 'three' for 'x': each value must be a "
                                                                "number"}}]}


@pytest.mark.parametrize("isolation", ["plain"], indirect=True)
def test_processes_a_values_file_starts_end_with_its_run(tmp_path: Path, isolation: str, shared: Path) -> None:
    exercises_dir = write_course(tmp_path / "course", quiz=block(), module=MODULE + "values: calc.py\n")
    calc = (f"import subprocess\nchild = subprocess.Popen(['/bin/sleep', '300'])\n"
            f"open({str(shared)!r} + '/pid-sleep', 'w').write(str(child.pid))\n"
            "def values():\n    return {'x': 1}\n")
    (exercises_dir / "course/01-m/calc.py").write_text(calc)
    load_courses(exercises_dir, ["ru", "en"], tmp_path / "course")
    [pid] = pids_in(shared)
    assert not alive(pid)


# -- the build's Python apart from the build --------------------------------------------------------------------

PACKAGE = Path(zadachnik.__file__).resolve().parent
TEMP = os.path.realpath(tempfile.gettempdir())


def refused_write(path: Path | str) -> str:
    return ("PermissionError: [Errno 13] at build time Python code may write only in the temp folder "
            f"{TEMP}: {str(path)!r}")


@pytest.fixture
def probe() -> Iterator[Path]:
    """A file in the installed package that no run may make (removed if one does, and the test fails)."""
    path = PACKAGE / f"hostile-probe-{uuid.uuid4().hex}.txt"
    yield path
    path.unlink(missing_ok=True)


@pytest.fixture
def isolation(request, monkeypatch) -> Iterator[str]:
    """The build's runner started with only the isolation the test names (it must be available here)."""
    pythoncheck.stop_runner()
    monkeypatch.setattr(pythoncheck, "ISOLATIONS", (request.param,))
    yield request.param
    pythoncheck.stop_runner()


def test_code_runs_in_a_scratch_folder_removed_with_its_runner(tmp_path: Path) -> None:
    # Once the folder holding the package: a relative path wrote beside it.
    solution = (f"import os\nwith open('notes.txt', 'w') as file:\n    file.write('x')\n"
                f"with open({str(tmp_path / 'cwd')!r}, 'w') as file:\n    file.write(os.getcwd())\n"
                "def f(x):\n    return 2 * x if open('notes.txt').read() == 'x' else x")
    beside_the_package = pythoncheck.PACKAGE_PARENT / "notes.txt"
    try:
        assert problems(tmp_path / "course", code_question(solution)) == []
        assert not beside_the_package.exists()
    finally:
        beside_the_package.unlink(missing_ok=True)
    scratch = Path((tmp_path / "cwd").read_text())
    assert scratch.parent == Path(TEMP) and scratch.name.startswith("zadachnik-python-")
    assert not scratch.exists()


@pytest.mark.parametrize("write, refused", [
    ("open(PROBE, 'w')", "PROBE"),
    ("pathlib.Path(PROBE).write_text('x')", "PROBE"),
    ("os.open(PROBE, os.O_WRONLY | os.O_CREAT)", "PROBE"),
    ("open(os.path.join(SITE_PACKAGES, os.path.basename(PROBE)), 'a')", "SITE_PROBE"),
    # Opened for writing, though nothing is written yet.
    ("open(zadachnik.__file__, 'r+')", "PACKAGE_FILE"),
    # A second name in the temp folder for a file of the package, to write through.
    ("os.link(zadachnik.__file__, os.path.join(TEMP, os.path.basename(PROBE)))", "PACKAGE_FILE"),
    ("pathlib.Path(TEMP, 'made').touch(); os.rename(os.path.join(TEMP, 'made'), PROBE)", "PROBE"),
], ids=["open", "write_text", "os.open", "site-packages", "r+", "hard-link", "rename"])
def test_code_cannot_write_into_the_installation(tmp_path: Path, probe: Path, write: str, refused: str) -> None:
    site_packages = sysconfig.get_paths()["purelib"]
    site_probe = Path(site_packages) / probe.name
    places = {"PROBE": probe, "SITE_PROBE": site_probe, "PACKAGE_FILE": Path(zadachnik.__file__).resolve()}
    solution = (f"import os, pathlib, zadachnik\nPROBE, SITE_PACKAGES, TEMP = {str(probe)!r}, {site_packages!r}, "
                f"{str(tmp_path)!r}\n{write}\ndef f(x):\n    return 2 * x")
    try:
        message = solution_problem(tmp_path / "course", solution, limit=5)
        assert not site_probe.exists() and not (tmp_path / probe.name).exists()
    finally:
        site_probe.unlink(missing_ok=True)
    assert message == f"question Q1: the reference solution raised {refused_write(places[refused])} (line 3)"
    assert not probe.exists()
    assert Path(zadachnik.__file__).is_file()


def test_a_values_file_cannot_write_into_the_installation(tmp_path: Path, probe: Path) -> None:
    error = values_error(tmp_path, f"def values():\n    open({str(probe)!r}, 'w')\n    return {{'x': 1}}\n")
    reason = refused_write(probe).removeprefix("PermissionError: ")
    assert error.message == f"cannot read the module's values: {reason} (PermissionError at calc.py:2)"
    assert not probe.exists()


# A values file that loosens the audit hook's limits for the files run after it: by changing what its tables hold
# (refused: they hold nothing a call can change) or by binding them anew (put back after the call).
LOOSENING = {
    "rebound": "serve._limits = serve._limits._replace(writable=('/',), protected=())\n",
    "tables": "serve._WRITES.clear()\n",
}


@pytest.mark.parametrize("how", LOOSENING)
def test_a_values_file_cannot_loosen_the_write_limits_for_the_next_one(tmp_path: Path, probe: Path,
                                                                       how: str) -> None:
    loosening, writing = tmp_path / "a" / "calc.py", tmp_path / "b" / "calc.py"
    for file, text in (
            (loosening, "import sys\nserve = next(m for m in list(sys.modules.values())\n"
                        "             if callable(getattr(m, '_check_write', None)))\n"
                        f"try:\n    {LOOSENING[how]}except (TypeError, AttributeError):\n    pass\n"
                        "def values():\n    return {'x': 1}\n"),
            # os.mkdir is one of the table's events (open is checked apart).
            (writing, f"import os\ndef values():\n    os.mkdir({str(probe)!r})\n    return {{'x': 1}}\n")):
        file.parent.mkdir()
        file.write_text(text, encoding="utf-8")
    try:
        assert run_isolated("values", {"path": str(loosening)}, 10) == {"values": {"x": 1}}
        result = run_isolated("values", {"path": str(writing)}, 10)
        assert "may write only in the temp folder" in result.get("error", {}).get("text", ""), result
    finally:
        if probe.is_dir():
            probe.rmdir()
            raise AssertionError("the second values file made a folder in the installed package")


def test_code_writes_in_the_temp_folder_and_to_dev_null(tmp_path: Path) -> None:
    solution = ("import os, subprocess, tempfile\nwith tempfile.NamedTemporaryFile('w') as file:\n"
                "    file.write('x')\nsubprocess.run(['/bin/true'], stdout=subprocess.DEVNULL)\n"
                f"os.mkdir({str(tmp_path / 'made')!r})\ndef f(x):\n    return 2 * x")
    assert problems(tmp_path / "course", code_question(solution)) == []
    assert (tmp_path / "made").is_dir()


def landlock_abi() -> int:
    """The Landlock version this kernel offers (0: none), as its syscall says."""
    try:
        version = ctypes.CDLL(None, use_errno=True).syscall(444, None, 0, 1)
    except (OSError, AttributeError):
        return 0
    return max(version, 0)


@pytest.mark.parametrize("isolation", ["namespaces", "plain"], indirect=True)
@pytest.mark.parametrize("place", ["package", "/var/tmp"])
def test_no_process_the_code_starts_writes_outside_the_temp_folder(isolation: str, place: str, probe: Path,
                                                                   shared: Path) -> None:
    # Past the audit hook: with namespaces the file system itself is read-only there, without them the kernel's
    # Landlock says no (and a build run by root runs the code as nobody).
    target = probe if place == "package" else Path(f"/var/tmp/{probe.name}")
    if isolation == "plain" and place == "/var/tmp" and not landlock_abi():
        pytest.skip("without Landlock any user may write in /var/tmp, the code's user too")
    solution = (f"import subprocess\nsubprocess.run(['/bin/sh', '-c', 'echo x > {target}'])\n"
                f"subprocess.run(['/bin/sh', '-c', 'echo x > {shared / 'allowed'}'])\ndef f(x):\n    return 2 * x")
    try:
        assert problems(shared / "course", code_question(solution)) == []
        assert not target.exists()
    finally:
        target.unlink(missing_ok=True)
    assert (shared / "allowed").read_text() == "x\n"


# Code that finds the build's pid: its keeper's parent (with namespaces it finds 0, the keeper's parent there).
FIND_THE_BUILD = ("import ctypes, os, signal, subprocess\nwith open(f'/proc/{os.getppid()}/stat', 'rb') as stat:\n"
                  "    BUILD = int(stat.read().rsplit(b')', 1)[1].split()[1])\n")
# Ways to read the build's environment past a check of the path as written; each gives what it read.
ENVIRON_READS = {
    "symlink": "os.symlink(f'/proc/{BUILD}/environ', 'link')\nwith open('link', 'rb') as file:\n"
               "    return file.read()",
    "dir_fd": "proc = os.open('/proc', os.O_RDONLY)\n"
              "return os.read(os.open(f'{BUILD}/environ', os.O_RDONLY, dir_fd=proc), 1 << 16)",
    "program": "return subprocess.run(['/bin/cat', f'/proc/{BUILD}/environ'], capture_output=True).stdout",
}


def attempts(ways: dict[str, str]) -> str:
    """Code that tries each way (a function body) and prints, as JSON, what each gave, or the error it raised."""
    code = FIND_THE_BUILD + "import json\nfound = {}\n"
    for name, body in ways.items():
        code += ("def attempt():\n" + "".join(f"    {line}\n" for line in body.splitlines())
                 + f"try:\n    gave = attempt()\n    found[{name!r}] = f'read {{len(gave)}} bytes' "
                   f"if isinstance(gave, bytes) else repr(gave)\nexcept OSError as error:\n"
                   f"    found[{name!r}] = str(error)\n")
    return code + "print(json.dumps({'build': BUILD, **found}))"


def attempted(result: dict) -> dict:
    assert result["error"] is None, result["error"]
    [printed] = result["output"]
    return json.loads(printed["text"])


@pytest.mark.parametrize("isolation", ["namespaces", "plain"], indirect=True)
def test_code_cannot_read_the_builds_environment_through_a_symlink_a_dir_fd_or_a_program(isolation: str) -> None:
    found = attempted(run_isolated("run", {"code": attempts(ENVIRON_READS)}, 20))
    # Without namespaces the code finds the build (here, the tests' process); with them there is none to find.
    assert found.pop("build") == (os.getpid() if isolation == "plain" else 0)
    assert found["program"] == "read 0 bytes"
    assert not [way for way, gave in found.items() if gave.startswith("read ") and gave != "read 0 bytes"], found
    if isolation == "plain":
        assert found["symlink"] == f"[Errno 13] {serve.PROC_REFUSED}: 'link'"


# Signals to the build's pid (found from the keeper's stat) past the audit hook; each gives what the call returned.
SIGNALS = {
    "kill": "return ctypes.CDLL(None).kill(BUILD, signal.SIGCONT)",
    "killpg": "return ctypes.CDLL(None).killpg(os.getpgid(BUILD), signal.SIGCONT)",
    "kill-program": "return subprocess.run(['/bin/sh', '-c', f'kill -CONT {BUILD}'], stderr=subprocess.DEVNULL)"
                    ".returncode",
}


@pytest.mark.parametrize("isolation", ["plain"], indirect=True)
def test_without_namespaces_code_cannot_signal_the_build_it_finds(isolation: str) -> None:
    # SIGCONT: harmless to the tests' process, should it arrive.
    found = attempted(run_isolated("run", {"code": attempts(SIGNALS)}, 20))
    assert found.pop("build") == os.getpid()
    assert found == {"kill": "-1", "killpg": "-1", "kill-program": "1"}


@pytest.mark.parametrize("isolation", ["plain"], indirect=True)
def test_without_namespaces_the_author_is_told_once_that_isolation_is_weaker(isolation: str, monkeypatch,
                                                                             caplog) -> None:
    # Info, not a warning: a build with --strict on a machine without namespaces must not fail for it.
    monkeypatch.setattr(pythoncheck, "_weaker_isolation_told", False, raising=False)
    caplog.set_level(logging.INFO, logger="mkdocs.plugins.zadachnik")
    for _run in range(2):
        assert run_isolated("run", {"code": "x = 1"}, 10)["error"] is None
        pythoncheck.stop_runner()
    told = [record for record in caplog.records if "weaker isolation" in record.getMessage()]
    assert [record.levelname for record in told] == ["INFO"]
    assert told[0].getMessage().startswith("Python at build time runs with weaker isolation: this system does not "
                                           "permit user namespaces")


# As another user than root, whoever runs the tests: the build's side of a plain runner, with the kernel's means
# it may use (CONFINEMENTS) or none, the audit hook alone. Reads a JSON list of code, prints the runs' results.
AS_ANOTHER_USER = ("import json, os, sys\nimport zadachnik.python.runner as runner\nrunner.ISOLATIONS = ('plain',)\n"
                   "if {confined!r} == 'none':\n    runner.CONFINEMENTS = ()\n"
                   "results = [runner.run_isolated('run', {{'code': code}}, 20) for code in json.load(sys.stdin)]\n"
                   "runner.stop_runner()\nprint(json.dumps({{'build': os.getpid(), 'results': results}}))\n")
PROGRAMS_REFUSED = ("[Errno 1] at build time Python code may not start programs or load C libraries here: this "
                    "system gives it no isolation from the build's user")


def become_nobody_who_reads_everything() -> None:
    """For a child of the tests run by root: the user nobody, with of root's capabilities only the one to read past
    permissions (this Python may be in /root), for the programs it starts too."""
    libc = ctypes.CDLL(None, use_errno=True)
    dac_read_search = 2
    assert libc.prctl(8, 1, 0, 0, 0) == 0  # PR_SET_KEEPCAPS
    os.setgroups([])
    os.setresgid(65534, 65534, 65534)
    os.setresuid(65534, 65534, 65534)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)
    only = (ctypes.c_uint32 * 6)(*[1 << dac_read_search] * 3, 0, 0, 0)
    assert libc.capset(header, only) == 0
    assert libc.prctl(47, 2, dac_read_search, 0, 0) == 0  # PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE


@pytest.mark.parametrize("confined", ["kernel", "none"])
def test_a_build_run_by_another_user_than_root_keeps_its_environment_signals_and_files(confined: str,
                                                                                      shared: Path) -> None:
    """Without root the code runs as the build's user: the build is not dumpable (its /proc files are not for
    others), and signals and writes are kept from it by Landlock where the kernel has it (signals from 6.12 on),
    else by the audit hook, which refuses programs and C libraries."""
    target = f"/var/tmp/zadachnik-hostile-{uuid.uuid4().hex}"
    ways = {**ENVIRON_READS, "open": "with open(f'/proc/{BUILD}/environ', 'rb') as file:\n    return file.read()",
            **SIGNALS, "write": f"subprocess.run(['/bin/sh', '-c', 'echo x > {target}'])\n"
                                f"return os.path.exists({target!r})"}
    # Tests run by root run that build as nobody, reading what root reads (this Python may be in /root).
    other = {"preexec_fn": become_nobody_who_reads_everything} if os.geteuid() == 0 else {}
    try:
        ran = subprocess.run([sys.executable, "-c", AS_ANOTHER_USER.format(confined=confined)],
                             input=json.dumps([attempts(ways), "import ctypes\nctypes.CDLL(None)"]),
                             capture_output=True, text=True, timeout=120, cwd=shared,
                             env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "NO_MKDOCS_2_WARNING": "1"},
                             **other)
    finally:
        Path(target).unlink(missing_ok=True)
    assert ran.returncode == 0, ran.stderr
    printed = json.loads(ran.stdout)
    found = attempted(printed["results"][0])
    assert found.pop("build") == printed["build"]
    if confined == "none" or landlock_abi() < 6:
        started = ("program", "kill", "killpg", "kill-program", "write")
        assert {way: found[way] for way in started} == dict.fromkeys(started, PROGRAMS_REFUSED)
        # Said at the author's line.
        assert printed["results"][1]["error"]["text"] == f"PermissionError: {PROGRAMS_REFUSED} (line 2)"
    else:
        assert printed["results"][1]["error"] is None
    leaked = [way for way, gave in found.items()
              if gave.startswith("read ") and gave != "read 0 bytes" or gave in ("0", "True")]
    assert leaked == [], found


@pytest.mark.parametrize("isolation", ["namespaces"], indirect=True)
def test_with_namespaces_the_code_sees_no_process_but_its_own(isolation: str) -> None:
    # A call leaves a process in a session of its own and an orphan; both end with the call, as without namespaces.
    leaving = ("import os, subprocess, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(300)\n"
               "subprocess.run(['/bin/sh', '-c', '/bin/sleep 300 &'])\n"
               "while len([entry for entry in os.listdir('/proc') if entry.isdigit()]) < 4:\n    time.sleep(0.01)\n")
    assert run_isolated("run", {"code": leaving}, 10)["error"] is None
    code = "import os\nprint(os.getppid(), sorted(int(entry) for entry in os.listdir('/proc') if entry.isdigit()))"
    result = run_isolated("run", {"code": code}, 10)
    # Its runner is process 2 there; process 1 only waits for it.
    assert result["output"] == [{"stream": "stdout", "text": "1 [1, 2]\n"}]
    assert pythoncheck._runner.isolation == "namespaces"


@pytest.mark.parametrize("isolation", ["namespaces"], indirect=True)
def test_with_namespaces_the_code_has_no_capabilities_to_undo_them(isolation: str) -> None:
    code = ("for line in open('/proc/self/status'):\n"
            "    if line.startswith(('CapEff', 'CapBnd', 'CapAmb', 'NoNewPrivs')):\n        print(line.split())")
    result = run_isolated("run", {"code": code}, 10)
    assert result["output"] == [{"stream": "stdout", "text": "['CapEff:', '0000000000000000']\n"
                                 "['CapBnd:', '0000000000000000']\n['CapAmb:', '0000000000000000']\n"
                                 "['NoNewPrivs:', '1']\n"}]


def test_where_namespaces_are_not_permitted_the_runner_starts_without(tmp_path: Path, monkeypatch,
                                                                       probe: Path) -> None:
    # In a user namespace without a mapped user, a process may not make another one: like a machine forbidding them.
    wrapper = tmp_path / "python"
    wrapper.write_text(f"#!/bin/sh\nexec {shutil.which('unshare')} --user {sys.executable} \"$@\"\n")
    wrapper.chmod(0o755)
    pythoncheck.stop_runner()
    monkeypatch.setattr(sys, "executable", str(wrapper))
    try:
        result = run_isolated("run", {"code": f"import os\nprint(os.getppid() > 1)\nopen({str(probe)!r}, 'w')"}, 10)
        assert pythoncheck._runner.isolation == "plain"
    finally:
        pythoncheck.stop_runner()
    assert result["output"] == [{"stream": "stdout", "text": "True\n"}]
    assert result["error"]["text"] == f"{refused_write(probe)} (line 3)"
    assert not probe.exists()


# -- whole builds ----------------------------------------------------------------------------------------------

MKDOCS_YML = """site_name: Hostile
docs_dir: docs
site_dir: {site}
theme:
  name: material
markdown_extensions:
  - pymdownx.superfences
plugins:
  - zadachnik:
      exercises_dir: exercises
      languages: [ru, en]
"""


# Runs mkdocs with only the isolation named (sys.argv: "-c", then mkdocs's arguments).
WITH_ISOLATION = ("import runpy, sys\nimport zadachnik.python.runner as runner\nrunner.ISOLATIONS = ({!r},)\n"
                  "sys.argv[0] = 'mkdocs'\nrunpy.run_module('mkdocs', run_name='__main__', alter_sys=True)")


def mkdocs_build(tmp_path: Path, quiz: str, module: str = MODULE, calc: str | None = None,
                 isolation: str | None = None, env: dict[str, str] | None = None, timeout: float = 120):
    site = tmp_path / "site"
    site.mkdir()
    (site / "old.html").write_text("an earlier build")
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_YML.format(site=site))
    (tmp_path / "docs/en").mkdir(parents=True)
    (tmp_path / "docs/index.md").write_text("# Курсы\n")
    (tmp_path / "docs/en/index.md").write_text("# Courses\n")
    exercises_dir = write_course(tmp_path, quiz=quiz, module=module)
    if calc is not None:
        (exercises_dir / "course/01-m/calc.py").write_text(calc)
    start = ["-m", "mkdocs"] if isolation is None else ["-c", WITH_ISOLATION.format(isolation)]
    # A session of its own: code that signals the build's process group must not reach the tests.
    return subprocess.run([sys.executable, *start, "build", "--strict", "-f", str(tmp_path / "mkdocs.yml")],
                          capture_output=True, text=True, timeout=timeout, cwd=tmp_path, start_new_session=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})})


@pytest.mark.parametrize("call", ["sys.exit(0)", "os._exit(0)"])
def test_a_values_file_that_exits_fails_the_build(tmp_path: Path, call: str) -> None:
    built = mkdocs_build(tmp_path, block(), MODULE + "values: calc.py\n", f"import os, sys\n{call}\n")
    assert built.returncode != 0
    assert (f"{MODULE_YML}:5: cannot read the module's values: calc.py exits the process (SystemExit: 0 (line 2) "
            "at calc.py:2)") in built.stderr


def test_a_build_with_a_solution_that_hangs_on_fd_1_fails_with_its_place_and_leaves_nothing_running(
        tmp_path: Path, shared: Path) -> None:
    solution = noting_pids(shared) + (
        "import signal, subprocess\nos.write(1, b'{\"resu')\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
        "def f(x):\n    if os.fork() == 0:\n        os.setsid()\n        note('a', os.getpid())\n"
        "        time.sleep(300)\n    note('b', subprocess.Popen(['/bin/sleep', '300']).pid)\n    wait_for('a')\n"
        "    while True:\n        pass")
    # The limit leaves time to start both processes; then the loop ignores it.
    built = mkdocs_build(tmp_path, code_question(solution, extra="time_limit: 2\n"), isolation="plain")
    assert built.returncode != 0
    assert f"{QUIZ}:1: question Q1: the reference solution ran out of time in test 1 ({TESTS_RU})" in built.stderr
    assert "Traceback" not in built.stderr
    started = pids_in(shared)
    assert len(started) == 2
    assert not [pid for pid in started if alive(pid)]


THE_BUILD = ("build = int(open(f'/proc/{os.getppid()}/stat', 'rb').read().rsplit(b')', 1)[1].split()[1]) "
             "or os.getppid()")
REFUSED_SIGNAL = ("question Q1: the reference solution raised PermissionError: [Errno 1] at build time Python code "
                  "may signal only the processes it started (line 3)")


@pytest.mark.parametrize("isolation, attack, expected", [
    # Once a build stopped for good, and a build ended by SIGTERM with no word of why.
    ("namespaces", "os.kill(os.getppid(), signal.SIGSTOP)", REFUSED_SIGNAL),
    ("plain", "os.kill(os.getppid(), signal.SIGSTOP)", REFUSED_SIGNAL),
    ("plain", "os.killpg(os.getpgid(os.getppid()), signal.SIGTERM)", REFUSED_SIGNAL),
    # Past the audit hook: with namespaces the build is out of reach, without them the runner's keeper is hit.
    ("namespaces", "libc.kill(os.getppid(), signal.SIGSTOP)", None),
    ("namespaces", "libc.killpg(os.getpgid(os.getppid()), signal.SIGTERM)", None),
    ("plain", "libc.kill(os.getppid(), signal.SIGSTOP)", None),
    # Once the keeper's group ended with SIGTERM, and the build said only that its runner was killed; it waits:
    # the runner would outlive its keeper only as long as the kernel takes to end it.
    ("plain", "libc.killpg(os.getpgid(os.getppid()), signal.SIGTERM); time.sleep(3)", None),
    # The build's own pid, its keeper's parent (with namespaces there is none: its keeper's parent is 0).
    *((isolation, f"{THE_BUILD}; libc.kill(build, signal.SIGSTOP)", None) for isolation in ("namespaces", "plain")),
    *((isolation, f"{THE_BUILD}; libc.killpg(os.getpgid(build), signal.SIGTERM); time.sleep(3)", None)
      for isolation in ("namespaces", "plain")),
], ids=["stop-namespaces", "stop-plain", "killpg-plain", "libc-stop-namespaces", "libc-killpg-namespaces",
        "libc-stop-plain", "libc-killpg-plain", "libc-stop-build-namespaces", "libc-stop-build-plain",
        "libc-killpg-build-namespaces", "libc-killpg-build-plain"])
def test_code_that_signals_the_build_neither_stops_nor_ends_it(tmp_path: Path, isolation: str, attack: str,
                                                              expected: str | None) -> None:
    solution = f"import ctypes, os, signal, time\nlibc = ctypes.CDLL(None)\n{attack}\ndef f(x):\n    return 2 * x"
    built = mkdocs_build(tmp_path, code_question(solution, extra="time_limit: 10\n"), isolation=isolation,
                         timeout=60)
    assert "Traceback" not in built.stderr
    if expected is None:
        assert built.returncode == 0, built.stderr
    else:
        assert built.returncode == 1
        assert f"{QUIZ}:1: {expected}" in built.stderr


SECRET = "ZADACHNIK_HOSTILE_SECRET"
READ_IN_PYTHON = ("import os\ndef environments():\n    for entry in os.listdir('/proc'):\n        try:\n"
                  "            with open(f'/proc/{entry}/environ', 'rb') as file:\n                yield file.read()\n"
                  "        except OSError:\n            pass\n"
                  f"seen = any(b{SECRET!r} in environment for environment in environments())\n")
READ_WITH_A_SHELL = (f"import subprocess\nseen = seen or b{SECRET!r} in subprocess.run(['/bin/sh', '-c', "
                     "'cat /proc/[0-9]*/environ'], capture_output=True).stdout\n")


@pytest.mark.parametrize("isolation, reader", [("namespaces", READ_IN_PYTHON + READ_WITH_A_SHELL),
                                               ("plain", READ_IN_PYTHON)])
def test_code_cannot_read_the_builds_environment(tmp_path: Path, isolation: str, reader: str) -> None:
    # The solution fails its test if it saw the build's variable.
    solution = reader + "def f(x):\n    return x if seen else 2 * x"
    built = mkdocs_build(tmp_path, code_question(solution, extra="time_limit: 10\n"), isolation=isolation,
                         env={SECRET: "1"}, timeout=60)
    assert built.returncode == 0, built.stderr


def test_the_runner_protocol_ignores_what_code_writes_to_fd_1() -> None:
    forged = json.dumps({"result": {"status": "correct", "score": 1}})
    code = f"import os\nos.write(1, {forged!r}.encode() + b'\\n')\nprint('x', flush=True)\n"
    tests = [{"test": "False", "message": {"en": "never"}, "time_limit": 1}]
    result = run_isolated("check", {"code": code, "tests": tests, "lang": "en", "time_limit": 10}, 10)
    assert result["status"] == "wrong" and result["output"] == [{"stream": "stdout", "text": "x\n"}]


def test_the_runner_ends_with_the_check_stage(tmp_path: Path) -> None:
    assert problems(tmp_path, code_question("def f(x):\n    return 2 * x")) == []
    assert pythoncheck._runner.process is None


def test_a_solution_that_closes_the_runner_pipes_is_reported(tmp_path: Path) -> None:
    closer = "import os\nfor fd in range(3, 64):\n    try:\n        os.close(fd)\n    except OSError:\n        pass\n"
    message = solution_problem(tmp_path / "bad", closer + "def f(x):\n    return 2 * x", limit=5)
    assert message == "question Q1: the reference solution crashed the Python process running it (exit status 1)"
    assert problems(tmp_path / "next", code_question("def f(x):\n    return 2 * x")) == []


def test_a_runner_that_cannot_start_is_reported(tmp_path: Path, monkeypatch) -> None:
    pythoncheck.stop_runner()
    monkeypatch.setattr(sys, "executable", "/bin/false")
    message = solution_problem(tmp_path / "course", "def f(x):\n    return 2 * x", limit=5)
    assert message == ("question Q1: the reference solution crashed the Python process running it (the Python "
                       "runner did not start (exit status 1))")
