"""The reference grader against the shared vectors; Node runs the browser's grader on the same file."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from zadachnik.checking.grading import grade, grade_field, read_number

ROOT = Path(__file__).resolve().parent.parent
CASES = json.loads((ROOT / "tests/vectors/cases.json").read_text(encoding="utf-8"))


def text_of(written: str | list) -> str:
    """An input as written in cases.json: a string, or [piece, times] pairs for one too long to write out."""
    return written if isinstance(written, str) else "".join(piece * times for piece, times in written)


def name_of(written: str | list) -> str:
    if isinstance(written, list):
        return "+".join(f"{piece!r}*{times}" for piece, times in written)
    return repr(written) if len(written) <= 40 else f"{written[:30]!r}…({len(written)} characters)"


def test_enough_cases() -> None:
    assert sum(len(group) for group in CASES.values()) >= 300


@pytest.mark.parametrize("case", CASES["readings"], ids=lambda case: name_of(case["input"]))
def test_reading(case: dict) -> None:
    expected = {key: value for key, value in case.items() if key != "input"}
    assert read_number(text_of(case["input"])) == expected


def field_case_name(case: dict) -> str:
    return f"{name_of(case['input'])}~{case['field']['answer']}"


@pytest.mark.parametrize("case", CASES["fields"], ids=field_case_name)
def test_field(case: dict) -> None:
    verdict = grade_field(case["field"], text_of(case["input"]))
    assert verdict["status"] == case["status"]
    if case["status"] == "wrong":
        assert verdict["precision"] == case["precision"]
    if case["status"] == "unreadable":
        assert verdict["error"] == case["error"]


@pytest.mark.parametrize("case", CASES["questions"], ids=lambda case: case["spec"]["type"])
def test_question(case: dict) -> None:
    verdict = grade(case["spec"], case["answer"])
    assert verdict["status"] == case["status"]
    for key in ("score", "missing", "wrong"):
        if key in case:
            assert verdict[key] == case[key], key
    if "fields" in case:
        assert {field: result["status"] for field, result in verdict["fields"].items()} == case["fields"]


def test_browser_grader_agrees() -> None:
    """The JS grader on the same vectors, through Node's test runner."""
    node = shutil.which("node")
    assert node, "Node.js is needed for the browser grader's tests"
    result = subprocess.run([node, "--test", str(ROOT / "tests/js_vectors.test.mjs")], capture_output=True,
                            text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
