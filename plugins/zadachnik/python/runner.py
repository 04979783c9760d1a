"""Running Python at build time: reference solutions, checkers and values files in a separate CPython process,
one for the whole build, so a hundred code exercises don't cost a hundred interpreter start-ups.

The runner (zadachnik.python.serve) speaks over two pipes of its own, never over the code's stdout, and runs
apart from the build: below a keeper process of its own, in a session of its own, in a scratch folder, with none
of the build's environment; on Linux, where the system permits, in namespaces where the build's process does not
exist and nothing but the temp folder is writable (ISOLATIONS: tried in order); where they are not permitted, by
what the kernel permits (CONFINEMENTS), and the author is told once. Its fd 1 and 2 go to /dev/null,
its memory is limited, each step of a run has a time limit its own timer enforces, and a watchdog here kills the
keeper and everything below it when code ignores that timer. Whatever happens, the caller gets a result dict,
never an exception.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import select
import shutil
import signal
import site
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from zadachnik.python.serve import UNAVAILABLE, end_strays, inside, not_dumpable

# The folder holding the zadachnik package, for the runner's PYTHONPATH.
PACKAGE_PARENT = Path(__file__).resolve().parents[2]
# Beyond a step's own limit: the runner's timer should fire first; this catches code that blocks or ignores it.
GRACE = 3.0
READ_SIZE = 1 << 16
# For the runner to start and say it is ready (the time limits of runs count only after that).
STARTUP_LIMIT = 60.0
ENDED = object()
# How the runner is kept apart from the build, the first the system permits: "namespaces" (Linux: user, mount and
# PID namespaces of its own), then "plain" (a keeper process between them, and the runner's audit hook).
ISOLATIONS = ("namespaces", "plain") if sys.platform.startswith("linux") else ("plain",)
# What a "plain" runner confines itself by where the kernel permits (zadachnik.python.serve.confine): Landlock, and
# the user nobody when the build runs as root. The tests take them away to see what the audit hook does alone.
CONFINEMENTS = ("landlock", "nobody")
_log = logging.getLogger("mkdocs.plugins.zadachnik")
# Whether the author was told that the build's Python runs with weaker isolation (once a process).
_weaker_isolation_told = False


class Runner:
    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.requests = -1
        self.replies = -1
        self.pending = b""
        self.opened: list[str] | None = None
        self.scratch = ""
        # The isolation the running runner has (ISOLATIONS), once it said it is ready.
        self.isolation = ""

    def start(self) -> subprocess.Popen[bytes]:
        if self.process is not None and self.process.poll() is None:
            return self.process
        self.stop()
        for isolation in ISOLATIONS:
            process = self.launch(isolation)
            message = self.next_message(time.monotonic() + STARTUP_LIMIT)
            if message is ENDED and ends_soon(process) and process.returncode == UNAVAILABLE \
                    and isolation != ISOLATIONS[-1]:
                self.stop()
                continue
            break
        if not isinstance(message, dict) or message.get("event") != "ready":
            self.stop()
            raise NotStarted(f"the Python runner did not start within {STARTUP_LIMIT:g} s"
                             if process.poll() is None or process.returncode == -signal.SIGKILL
                             else f"the Python runner did not start: this system does not permit {isolation}"
                             if process.returncode == UNAVAILABLE
                             else f"the Python runner did not start (exit status {process.returncode})")
        self.isolation = str(message.get("isolation"))
        _log.debug("Python at build time runs with isolation '%s'", self.isolation)
        if self.isolation == "plain":
            tell_weaker_isolation(message.get("confined"))
        return process

    def launch(self, isolation: str) -> subprocess.Popen[bytes]:
        """The keeper, in a scratch folder of its own (its TMPDIR too), with none of the build's environment."""
        to_runner, requests = os.pipe()
        replies, from_runner = os.pipe()
        self.scratch = tempfile.mkdtemp(prefix="zadachnik-python-")
        settings = {"isolation": isolation, "confinements": list(CONFINEMENTS), **writable_places()}
        if isolation == "plain":
            # The build's /proc files (its environment) are then not for the code, even run as the build's user.
            not_dumpable()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "zadachnik.python.serve", str(to_runner), str(from_runner),
                 json.dumps(settings)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                pass_fds=(to_runner, from_runner), cwd=self.scratch, start_new_session=True,
                env={"PYTHONPATH": str(PACKAGE_PARENT), "PYTHONIOENCODING": "utf-8", "PATH": "",
                     "PYTHONDONTWRITEBYTECODE": "1", "TMPDIR": self.scratch,
                     # A BLAS library reserves memory per thread: on a many-core machine, under the runner's
                     # memory limit, NumPy could fail to start at all.
                     "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"},
            )
        finally:
            os.close(to_runner)
            os.close(from_runner)
        self.requests, self.replies, self.pending = requests, replies, b""
        return self.process

    def stop(self) -> None:
        """End the runner and everything it started (its keeper and all below it), and remove its scratch folder."""
        process, self.process = self.process, None
        if process is not None:
            end_group(process.pid)
            process.wait()
            # Processes that left the group's leader behind can still be members: end them too.
            end_group(process.pid)
        for fd in (self.requests, self.replies):
            if fd >= 0:
                os.close(fd)
        self.requests = self.replies = -1
        self.pending = b""
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = ""

    def run(self, kind: str, request: dict[str, Any], time_limit: float) -> dict[str, Any]:
        # What the run opened, as its result message says (None until then: a run that dies cannot tell).
        self.opened = None
        try:
            process = self.start()
        except NotStarted as problem:
            return died(str(problem))
        line = json.dumps({"kind": kind, "time_limit": time_limit, "request": request}).encode() + b"\n"
        try:
            while line:
                line = line[os.write(self.requests, line):]
        except OSError:
            return self.failed(process)
        step: str | int | None = None
        limit = time_limit
        finished: list[dict[str, Any]] = []
        deadline = time.monotonic() + time_limit + GRACE
        while True:
            message = self.next_message(deadline)
            if message is ENDED:
                # The keeper ends as the runner ended, unless the code stopped it: then it is killed.
                ends_soon(process)
                return self.failed(process)
            if message is None and process.poll() is not None:
                return self.failed(process)
            if message is None:
                # The code outlived its limit and the runner's own timer: it is killed, its group with it.
                self.stop()
                timed_out = {"status": "wrong", "score": 0, "timeout": limit}
                return {**timed_out, "timed_out": step, "tests": finished, "output": []} if step is not None \
                    else timed_out
            if not isinstance(message, dict):
                return self.failed(process, "it sent something that is not a result")
            if message.get("event") == "step":
                step, limit = message["step"], float(message["time_limit"])
                deadline = time.monotonic() + limit + GRACE
            elif message.get("event") == "test":
                finished.append(message["result"])
            elif "result" in message:
                if message.get("restart"):
                    self.stop()
                found = message.get("opened")
                self.opened = [str(path) for path in found] if isinstance(found, list) else None
                return message["result"]

    def next_message(self, deadline: float) -> Any:
        """The runner's next JSON line; ENDED when it closed its end (it died), None when the deadline passed."""
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.replies], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.replies, READ_SIZE)
            if not chunk:
                return ENDED
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            return ""

    def failed(self, process: subprocess.Popen[bytes], why: str = "") -> dict[str, Any]:
        """The runner died (or talked nonsense): what killed it, as an error the build reports."""
        self.stop()
        status = process.returncode
        if why:
            cause = why
        elif status is not None and status < 0:
            name = signal.Signals(-status).name if -status in signal.valid_signals() else str(-status)
            cause = f"killed by {name}" + (": out of memory, or stopped from outside" if -status == signal.SIGKILL
                                           else "")
        else:
            cause = f"exit status {status}"
        return died(cause)


class NotStarted(Exception):
    pass


def tell_weaker_isolation(confined: Any) -> None:
    """Once a build process, as information (a warning would fail --strict builds on every such machine)."""
    global _weaker_isolation_told
    if _weaker_isolation_told:
        return
    _weaker_isolation_told = True
    means = ", ".join(str(mean) for mean in confined) if isinstance(confined, list) and confined else "nothing"
    _log.info("Python at build time runs with weaker isolation: this system does not permit user namespaces, so "
              "reference solutions, checkers and values files are kept from the build by %s (see 'Checkers in "
              "Python' in the authoring guide)", means)


def ends_soon(process: subprocess.Popen[bytes]) -> bool:
    """Whether the process ends within GRACE (collected if so)."""
    try:
        process.wait(GRACE)
    except subprocess.TimeoutExpired:
        return False
    return True


def writable_places() -> dict[str, list[str]]:
    """Where the code may write (the temp folder, and shared memory for multiprocessing), and the installation's
    folders (this package, Python's own, the site-packages), which it may not write in even there."""
    writable = [os.path.realpath(tempfile.gettempdir())] + (["/dev/shm"] if os.path.isdir("/dev/shm") else [])
    paths = sysconfig.get_paths()
    installation = {Path(__file__).resolve().parents[1], sys.prefix, sys.exec_prefix, sys.base_prefix,
                    sys.base_exec_prefix, site.getusersitepackages(), *site.getsitepackages(),
                    *(paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths)}
    protected = sorted({os.path.realpath(place) for place in installation})
    # A Python installed at / or in the temp folder's parent protects no more than its own folders can.
    protected = [place for place in protected if not any(inside(folder, place) for folder in writable)]
    return {"writable": writable, "protected": protected}


def died(cause: str) -> dict[str, Any]:
    text = f"the Python process running it stopped ({cause})"
    return {"status": "wrong", "score": 0, "error": {"type": "ProcessDied", "message": cause, "lines": [],
                                                     "text": text, "code": "died"}}


def end_group(leader: int) -> None:
    """Kill the keeper's descendants while it still links them (the runner, and what its code started even when
    it left the group with setsid), then the keeper's whole process group."""
    end_strays(leader)
    try:
        os.killpg(leader, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


_runner = Runner()
atexit.register(_runner.stop)


# The open recordings of `recording_runs`: none unless a test asks.
_recordings: list[list[dict[str, Any]]] = []
# The open records of `files_opened`: the files each run opened, or None for a run that could not tell.
_openings: list[list[str | None]] = []


@contextmanager
def files_opened() -> Iterator[list[str | None]]:
    """The files the runs made inside the block opened (their code's imports included); a None among them for
    a run that could not tell (its runner died or was stopped, or it opened too many)."""
    opened: list[str | None] = []
    _openings.append(opened)
    try:
        yield opened
    finally:
        _openings.remove(opened)


def run_isolated(kind: str, request: dict[str, Any], time_limit: float) -> dict[str, Any]:
    result = _runner.run(kind, request, time_limit)
    for opened in _openings:
        opened.extend(_runner.opened if _runner.opened is not None else [None])
    for runs in _recordings:
        # Copied as the runner got them (JSON): a caller that changes its dicts later changes no record.
        runs.append(json.loads(json.dumps({"kind": kind, "request": request, "time_limit": time_limit,
                                           "result": result})))
    return result


@contextmanager
def recording_runs() -> Iterator[list[dict[str, Any]]]:
    """Every run made inside the block, {kind, request, time_limit, result}: the tests replay the build's runs in
    Pyodide, to catch what the learners' Python would decide otherwise."""
    runs: list[dict[str, Any]] = []
    _recordings.append(runs)
    try:
        yield runs
    finally:
        _recordings.remove(runs)


def stop_runner() -> None:
    """End the runner and whatever the code it ran started; the next run starts a fresh one."""
    _runner.stop()
