"""Running Python at build time: reference solutions and checkers in a separate CPython process, one for the
whole build, with a time limit per run, so a solution that loops forever stops the build with a message
instead of hanging it, and a hundred code exercises don't cost a hundred interpreter start-ups."""

from __future__ import annotations

import atexit
import json
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

PACKAGE_PARENT = Path(__file__).resolve().parent.parent
# Beyond a run's own limit: the runner's timer should fire first; this catches code that ignores it.
GRACE = 5


class Runner:
    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> subprocess.Popen[str]:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "zadachnik.pyrunner"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, cwd=PACKAGE_PARENT, bufsize=1,
                env={"PYTHONPATH": str(PACKAGE_PARENT), "PYTHONIOENCODING": "utf-8", "PATH": ""},
            )
        return self.process

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def run(self, kind: str, request: dict[str, Any], time_limit: float) -> dict[str, Any]:
        process = self.start()
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps({"kind": kind, "time_limit": time_limit, **request}) + "\n")
            process.stdin.flush()
        except BrokenPipeError:
            return self.failed()
        ready, _, _ = select.select([process.stdout], [], [], time_limit + GRACE)
        if not ready:
            self.stop()
            return {"status": "wrong", "score": 0, "timeout": time_limit}
        line = process.stdout.readline()
        if not line:
            return self.failed()
        return json.loads(line)

    def failed(self) -> dict[str, Any]:
        error = ""
        if self.process is not None and self.process.stderr is not None:
            self.process.wait()
            error = (self.process.stderr.read().strip().splitlines() or [""])[-1]
        self.process = None
        return {"status": "wrong", "score": 0, "error": {"text": error or "the Python process stopped"}}


_runner = Runner()
atexit.register(_runner.stop)


def run_isolated(kind: str, request: dict[str, Any], time_limit: float) -> dict[str, Any]:
    return _runner.run(kind, request, time_limit)
