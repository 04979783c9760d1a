"""Running Python at build time: each run in its own CPython process with a time limit, so a reference
solution that loops forever stops the build with a message instead of hanging it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

PACKAGE_PARENT = Path(__file__).resolve().parent.parent


def run_isolated(kind: str, request: dict[str, Any], time_limit: float) -> dict[str, Any]:
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "zadachnik.pyrunner"], input=json.dumps({"kind": kind, **request}),
            capture_output=True, text=True, timeout=time_limit + 5, cwd=PACKAGE_PARENT,
            env={"PYTHONPATH": str(PACKAGE_PARENT), "PYTHONIOENCODING": "utf-8", "PATH": ""},
        )
    except subprocess.TimeoutExpired:
        return {"status": "wrong", "score": 0, "timeout": time_limit}
    if completed.returncode != 0:
        last = (completed.stderr.strip().splitlines() or ["the Python process failed"])[-1]
        return {"status": "wrong", "score": 0, "error": {"text": last}}
    return json.loads(completed.stdout)
