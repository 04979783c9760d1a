"""The reference grader against the shared vectors; Node runs the browser's grader on the same file."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from support.sites import ROOT
from zadachnik.checking.grading import grade, grade_field, read_number
from zadachnik.core.formatting import conventions, shown_exactly, write_number

CASES = json.loads((ROOT / "tests/vectors/cases.json").read_text(encoding="utf-8"))


def text_of(written: str | list) -> str:
    """An input as written in cases.json: a string, or [piece, times] pairs for one too long to write out."""
    return written if isinstance(written, str) else "".join(piece * times for piece, times in written)


def name_of(written: str | list) -> str:
    if isinstance(written, list):
        return "+".join(f"{piece!r}*{times}" for piece, times in written)
    return repr(written) if len(written) <= 40 else f"{written[:30]!r}…({len(written)} characters)"


LANGUAGES = ("en", "ru", "de", "fr", "es", "he")


def page_conventions(case: dict) -> dict | None:
    """A case with "lang" is read as that page reads; one without, with no conventions at all."""
    return CASES["conventions"][case["lang"]] if "lang" in case else None


def test_enough_cases() -> None:
    groups = [group for name, group in CASES.items() if name != "conventions"]
    assert sum(len(group) for group in groups) >= 300
    for lang in LANGUAGES:
        assert sum(1 for case in CASES["readings"] if case.get("lang") == lang) >= 5, lang
        assert sum(1 for case in CASES["formats"] if case["lang"] == lang) >= 3, lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_conventions_are_the_locales(lang: str) -> None:
    """The hand-written conventions of the vectors are what Babel's CLDR data gives the pages."""
    assert conventions(lang) == CASES["conventions"][lang]


def reading_name(case: dict) -> str:
    return (case["lang"] + ":" if "lang" in case else "") + name_of(case["input"])


@pytest.mark.parametrize("case", CASES["readings"], ids=reading_name)
def test_reading(case: dict) -> None:
    expected = {key: value for key, value in case.items() if key not in ("input", "lang")}
    assert read_number(text_of(case["input"]), page_conventions(case)) == expected


def field_case_name(case: dict) -> str:
    return f"{reading_name(case)}~{case['field']['answer']}"


@pytest.mark.parametrize("case", CASES["formats"], ids=lambda case: f"{case['lang']}:{case['value']!r}")
def test_format(case: dict) -> None:
    written = write_number(case["value"], CASES["conventions"][case["lang"]], case["decimals"], case["group"],
                           case["significant"])
    assert written == case["text"]
    assert shown_exactly(case["value"], case["decimals"], case["significant"]) == case["exact"]
    # What a page writes, it reads back: the value itself, or the rounding shown.
    reading = read_number(written, CASES["conventions"][case["lang"]])
    assert "value" in reading, reading
    assert (reading["value"] == case["value"]) == case["exact"]


@pytest.mark.parametrize("case", CASES["fields"], ids=field_case_name)
def test_field(case: dict) -> None:
    verdict = grade_field(case["field"], text_of(case["input"]), page_conventions(case))
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
    result = subprocess.run([node, "--test", str(ROOT / "tests/js/js_vectors.test.mjs")], capture_output=True,
                            text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
