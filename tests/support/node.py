"""Running a file of the page runtime's own tests (tests/js) under Node from pytest."""

from __future__ import annotations

import shutil
import subprocess

from support.sites import ROOT


def run_node_tests(name: str) -> None:
    """`node --test tests/js/<name>`, which must pass: its output is the failure's message."""
    node = shutil.which("node")
    assert node, "Node.js is needed"
    result = subprocess.run([node, "--test", str(ROOT / "tests" / "js" / name)], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
