"""The build verifies reference solutions, hidden tests and checkers' `wrong:` answers in its own CPython, while
learners run Pyodide's Python in the browser. Here every run the build makes is recorded with CPython's result
and replayed through the same pyrunner.handle inside the vendored Pyodide under Node
(tests/js/pyodide_replay.mjs, which loads the runner as the browser's worker does): a verdict the two Pythons
give differently fails here, before a learner meets it."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.sites import ROOT
from zadachnik import cli
from zadachnik.python.runner import recording_runs, run_isolated
from zadachnik.reading.model import load_courses
from zadachnik.runtime.shipping import PYTHON_MODULES

PACKAGE = ROOT / "plugins" / "zadachnik"
PYODIDE = PACKAGE / "runtime" / "assets" / "vendor" / "pyodide"
REPLAY = ROOT / "tests" / "js" / "pyodide_replay.mjs"
# The sites whose sources hold Python (code exercises and checkers); the python-failures module is left out, for
# a build refuses it, so no learner ever runs it.
SITES = {"sample": ROOT / "mkdocs.yml", "fixture": ROOT / "tests" / "fixtures" / "site" / "mkdocs.yml"}
# What the browser's worker runs; values files run only when the site is built.
BROWSER_KINDS = ("run", "check", "checker")
# Pyodide starting on a busy two-core machine: generous, for this only tells a hang from a start.
STARTUP_LIMIT = 180.0
# A replayed run that takes longer has hung in Pyodide (a difference in itself); speed is not compared.
REPLY_GRACE = 60.0
REPLY_FACTOR = 10.0


class PyodideUnderNode:
    """One Node process holding Pyodide with the runner loaded, started again after a run ends it or hangs."""

    def __init__(self, node: str) -> None:
        self.node = node
        self.process: subprocess.Popen[bytes] | None = None
        # Node's stderr goes to a file: a pipe nobody reads could fill up and stall it.
        self.errors = tempfile.TemporaryFile()
        self.pending = b""
        self.versions: dict[str, str] = {}

    def start(self) -> subprocess.Popen[bytes]:
        if self.process is not None and self.process.poll() is None:
            return self.process
        self.process = subprocess.Popen(
            [self.node, str(REPLAY), str(PYODIDE), str(PACKAGE), *PYTHON_MODULES],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors, cwd=ROOT)
        self.pending = b""
        ready = self.message("ready", STARTUP_LIMIT)
        if ready is None:
            problem = self.stop()
            pytest.fail(f"Pyodide did not start under Node within {STARTUP_LIMIT:g} s: {problem}")
        self.versions = {"python": ready["python"], "pyodide": ready["pyodide"]}
        return self.process

    def replay(self, kind: str, request: dict[str, Any], time_limit: float) -> dict[str, Any]:
        """Pyodide's result for the run, or {"replay": why} when Pyodide ended or did not answer."""
        process = self.start()
        assert process.stdin is not None
        process.stdin.write(json.dumps({"kind": kind, "request": request}).encode() + b"\n")
        process.stdin.flush()
        limit = REPLY_GRACE + REPLY_FACTOR * time_limit
        reply = self.message("reply", limit)
        if reply is None:
            return {"replay": f"no result from Pyodide within {limit:g} s ({self.stop()})"}
        if "fatal" in reply:
            self.stop()
            return {"replay": f"Python in Pyodide ended: {reply['fatal']}"}
        return reply["result"]

    def message(self, key: str, limit: float) -> dict[str, Any] | None:
        """The next line of Node's holding `key` (other lines are skipped), or None when it ended or timed out."""
        assert self.process is not None and self.process.stdout is not None
        stream = self.process.stdout.fileno()
        deadline = time.monotonic() + limit
        while True:
            while b"\n" not in self.pending:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([stream], [], [], left)[0]:
                    return None
                chunk = os.read(stream, 1 << 16)
                if not chunk:
                    return None
                self.pending += chunk
            line, self.pending = self.pending.split(b"\n", 1)
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict) and key in message:
                return message[key] if key == "reply" else message

    def stop(self) -> str:
        """End this Node process; what it said on stderr, or how it ended."""
        process, self.process = self.process, None
        if process is None:
            return "not started"
        if process.poll() is None:
            process.kill()
        process.communicate()
        self.errors.seek(0)
        said = self.errors.read().decode(errors="replace").strip()
        self.errors.seek(0)
        self.errors.truncate()
        return said[-2000:] if said else f"exit status {process.returncode}"


@pytest.fixture(scope="session")
def pyodide() -> Iterator[PyodideUnderNode]:
    node = shutil.which("node")
    assert node, "Node.js (20 or newer) is needed to run the build's Python checks again in Pyodide: install it"
    assert (PYODIDE / "pyodide.mjs").is_file(), (
        f"the vendored Pyodide is missing from {PYODIDE.relative_to(ROOT)}: run 'make setup' "
        "(scripts/vendor_assets.py copies it from node_modules)")
    runtime = PyodideUnderNode(node)
    runtime.start()
    yield runtime
    runtime.stop()
    runtime.errors.close()


def error_verdict(error: dict[str, Any]) -> dict[str, Any]:
    """What decides how an error is shown: its type and the runner's code, not its wording (which each Python
    words its own way)."""
    return {key: error[key] for key in ("type", "code", "exit_status") if key in error}


def verdict(result: dict[str, Any]) -> dict[str, Any]:
    """What a learner is told of a run: the status and score, which tests passed and what stopped them, the
    checker's message, the fields and items an answer lacks; not the output, timings or memory."""
    if "replay" in result:
        return {"replay": result["replay"]}
    told = {key: result[key] for key in ("status", "score", "message", "missing", "timed_out") if key in result}
    if "timeout" in result:
        told["timeout"] = True
    if result.get("error"):
        told["error"] = error_verdict(result["error"])
    if "tests" in result:
        told["tests"] = [{"passed": test["passed"], **({"error": error_verdict(test["error"])}
                                                      if test.get("error") else {})} for test in result["tests"]]
    if isinstance(result.get("fields"), dict):
        told["fields"] = {name: field.get("status") for name, field in result["fields"].items()}
    return told


def disagreements(runs: list[dict[str, Any]], runtime: PyodideUnderNode,
                  places: dict[str, str] | None = None) -> list[str]:
    """Each recorded run whose verdict in Pyodide is not CPython's, said with both verdicts and, from `places`
    (Python text → its question), where the author finds it."""
    found = []
    for run in runs:
        if run["kind"] not in BROWSER_KINDS:
            continue
        in_pyodide = verdict(runtime.replay(run["kind"], run["request"], run["time_limit"]))
        in_cpython = verdict(run["result"])
        if in_pyodide != in_cpython:
            found.append(f"{run['kind']} {describe(run['request'], places or {})}\n"
                         f"  CPython {sys.version.split()[0]}: {json.dumps(in_cpython, ensure_ascii=False)}\n"
                         f"  Pyodide's Python {runtime.versions['python']}: "
                         f"{json.dumps(in_pyodide, ensure_ascii=False)}")
    return found


def describe(request: dict[str, Any], places: dict[str, str]) -> str:
    code = request.get("code") or request.get("source") or ""
    first = next((line for line in code.splitlines() if line.strip().startswith(("def ", "class "))), code[:60])
    answer = f", answer {json.dumps(request['answer'], ensure_ascii=False)}" if "answer" in request else ""
    return f"{places.get(code, first.strip())}{answer}"


def recorded_build_runs(config: Path) -> list[dict[str, Any]]:
    """The runs `zadachnik check` makes, as the build (the same stages), with CPython's results."""
    with recording_runs() as runs:
        # Every module read and checked now, none taken from what a build kept.
        status = cli.main(["check", "--no-cache", "--config", str(config)])
    assert status == 0, f"{config}: its sources are expected to pass the build's checks"
    return runs


def python_questions(config: Path) -> tuple[int, int, dict[str, str]]:
    """The site's code exercises and Parsons problems with tests, the answers its checkers are asked about (one per
    language revealed, one per `wrong:` answer), and each solution's and checker's place: "quiz.md:LINE, question
    ID"."""
    site = cli.read_site_config(config)
    courses = load_courses(config.parent / site.exercises_dir, site.languages, config.parent)
    code = checked = 0
    places = {}
    for course in courses:
        for module in course.modules:
            for question in module.questions:
                place = f"{cli.shown(module.path / 'quiz.md', config.parent)}:{question.line}, question {question.id}"
                if question.type == "code":
                    code += 1
                    places[question.spec["solution"]] = place
                elif question.python and question.checker is None:
                    # A Parsons problem with tests: the program its lines make is what runs.
                    code += 1
                    places[question.key.solution + "\n"] = place
                elif question.checker is not None:
                    checked += len(site.languages) + len(question.checker.wrong)
                    places[question.checker.source] = place
    return code, checked, places


@pytest.mark.parametrize("config", SITES.values(), ids=SITES.keys())
def test_pyodide_gives_the_builds_verdicts(config: Path, pyodide: PyodideUnderNode) -> None:
    """Every reference solution, hidden test and checker answer the build verifies gets the same verdict in the
    learners' Python."""
    runs = recorded_build_runs(config)
    code, checked, places = python_questions(config)
    assert code > 0, f"{config}: a site listed here is expected to have code exercises"
    # Every question with Python was verified by a run this saw (none skipped, none answered from elsewhere).
    assert sum(1 for run in runs if run["kind"] == "check") == code, "a code exercise verified without the runner"
    assert sum(1 for run in runs if run["kind"] == "checker") == checked, "a checker answer verified elsewhere"
    found = disagreements(runs, pyodide, places)
    assert not found, "Pyodide's Python decides otherwise than the build's:\n" + "\n".join(found)


def test_recording_sees_the_runs_inside_its_block_only() -> None:
    """The seam the replay relies on: runs inside the block are recorded as sent, with their result; none before
    or after, and a request changed afterwards leaves its record as it was."""
    request = {"code": "print(1)\n"}
    run_isolated("run", request, 5)
    with recording_runs() as runs:
        result = run_isolated("run", request, 5)
    request["code"] = "print(2)\n"
    run_isolated("run", request, 5)
    assert runs == [{"kind": "run", "request": {"code": "print(1)\n"}, "time_limit": 5, "result": result}]
    assert result["output"] == [{"stream": "stdout", "text": "1\n"}]


def test_the_replay_loads_the_runner_as_the_worker_does() -> None:
    """The worker (python-worker.js) writes the same shipped modules into the same package under the same home
    and calls the same entry point as the replay: else the replay would vouch for another runner."""
    worker = (PACKAGE / "runtime" / "assets" / "js" / "python-worker.js").read_text(encoding="utf-8")
    replay = REPLAY.read_text(encoding="utf-8")
    for name in PYTHON_MODULES:
        assert f'"{name}"' in worker, f"the worker no longer loads {name}"
    for text in ('const HOME = "/home/pyodide"', "${HOME}/zadachnik/__init__.py", "import zadachnik.python.pyrunner",
                 "zadachnik.python.pyrunner.handle"):
        assert text in worker and text in replay, text


def test_pyodide_runs_the_learners_python(pyodide: PyodideUnderNode) -> None:
    """The replay runs Pyodide's own Python (a CPython of the build's would agree with anything)."""
    result = pyodide.replay("run", {"code": "import sys\nprint(sys.platform, sys.version.split()[0])\n"}, 5)
    assert result.get("error") is None, result
    printed = "".join(chunk["text"] for chunk in result["output"])
    assert printed.split() == ["emscripten", pyodide.versions["python"]]


def differences_for(kind: str, request: dict[str, Any], time_limit: float, runtime: PyodideUnderNode) -> list[str]:
    """One run made by the build's runner in CPython, then compared in Pyodide as the build's runs are."""
    run = {"kind": kind, "request": request, "time_limit": time_limit,
           "result": run_isolated(kind, request, time_limit)}
    return disagreements([run], runtime)


def test_a_solution_that_only_cpython_can_run_is_reported(pyodide: PyodideUnderNode) -> None:
    """The comparison can fail: a solution that starts a thread passes in CPython, while Pyodide's Python has no
    threads, so a learner's page would fail the author's own solution."""
    solution = ("import threading\n\n\ndef total(numbers):\n    found = []\n"
                "    worker = threading.Thread(target=lambda: found.append(sum(numbers)))\n"
                "    worker.start()\n    worker.join()\n    return found[0]\n")
    request = {"code": solution, "lang": "en", "time_limit": 3.0,
               "tests": [{"test": "total([1, 2, 3]) == 6", "message": {"en": "total([1, 2, 3]) must be 6"}}]}
    found = differences_for("check", request, 3.0, pyodide)
    assert len(found) == 1, found
    assert '"status": "correct"' in found[0].splitlines()[1], found[0]
    assert '"type": "RuntimeError"' in found[0].splitlines()[2], found[0]


def test_a_checker_written_for_a_newer_python_is_reported(pyodide: PyodideUnderNode) -> None:
    """A checker using Python 3.12's f-strings (quotes of the same kind inside): the build's Python before 3.12
    can't read it, and the comparison says so; from 3.12 on both Pythons agree."""
    checker = 'def check(answer):\n    return f"{answer["choice"]}" == "b"\n'
    request = {"source": checker, "answer": {"choice": "b"}, "lang": "en", "conventions": None}
    found = differences_for("checker", request, 5, pyodide)
    if sys.version_info < (3, 12):
        assert len(found) == 1, found
        assert '"type": "SyntaxError"' in found[0].splitlines()[1], found[0]
        assert '"status": "correct"' in found[0].splitlines()[2], found[0]
    else:
        assert found == []


def test_a_run_that_hangs_in_pyodide_is_reported_and_the_replay_goes_on(
        pyodide: PyodideUnderNode, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pyodide under Node has no timer to stop code: a run that never ends is cut off from here (after 1 s for
    this test), reported as a difference, and the next run gets a new Pyodide."""
    monkeypatch.setattr(sys.modules[__name__], "REPLY_GRACE", 0.0)
    monkeypatch.setattr(sys.modules[__name__], "REPLY_FACTOR", 2.0)
    request = {"code": "def f():\n    return 1\n\nwhile True:\n    pass\n", "lang": "en", "time_limit": 0.5,
               "tests": [{"test": "f() == 1", "message": {"en": "f() must be 1"}}]}
    found = differences_for("check", request, 0.5, pyodide)
    assert len(found) == 1, found
    assert '"timeout": true' in found[0].splitlines()[1], found[0]
    assert "no result from Pyodide within 1 s" in found[0].splitlines()[2], found[0]
    monkeypatch.undo()
    again = pyodide.replay("run", {"code": "print(6 * 7)\n"}, 5)
    assert again["output"] == [{"stream": "stdout", "text": "42\n"}], again
