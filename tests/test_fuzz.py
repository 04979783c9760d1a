"""Fuzzing the number readers: never an exception, only a reading or a reading error, and Python and the
browser give the same result for every generated input."""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from zadachnik.numbers import read_number

ROOT = Path(__file__).resolve().parent.parent
ERRORS = {"empty", "unreadable", "separators", "zero_division", "too_large"}
# What people type into number fields, and what breaks readers.
ALPHABET = "0123456789" * 3 + ".,+-−eE/*·×x^ \u00a0\u2009\u202f\t⁰¹²³⁻" + "abkgµ%()_'\"\\" + "１٢\x1c\x85"


def valid(reading: dict) -> bool:
    if "error" in reading:
        return set(reading) == {"error"} and reading["error"] in ERRORS
    return isinstance(reading["value"], float) and math.isfinite(reading["value"])


@pytest.mark.slow
@settings(max_examples=100_000, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(st.text(alphabet=ALPHABET, max_size=24) | st.text(max_size=12))
def test_python_reader_never_raises(text: str) -> None:
    assert valid(read_number(text))


def generated_inputs(count: int, seed: int = 20261130) -> list[str]:
    rng = random.Random(seed)
    shapes = ["{d}", "{s}{d}{p}{d}", "{d}/{d}", "{s}{d}{p}{d}e{s}{d}", "{d}{p}{d}·10^{s}{d}", "{g}", "{r}"]
    inputs = []
    for _ in range(count):
        shape = rng.choice(shapes)
        text = shape.format(
            d="".join(rng.choice("0123456789") for _ in range(rng.randint(0, 4))),
            s=rng.choice(["", "-", "+", "−"]),
            p=rng.choice([".", ",", ""]),
            g=" ".join(str(rng.randint(0, 999)) for _ in range(rng.randint(1, 3))),
            r="".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 12))),
        )
        inputs.append(text)
    return inputs


def test_browser_reader_agrees_on_a_generated_batch() -> None:
    inputs = generated_inputs(100_000)
    node = shutil.which("node")
    assert node, "Node.js is needed"
    result = subprocess.run([node, str(ROOT / "tests/js_fuzz.mjs")], input=json.dumps(inputs), capture_output=True,
                            text=True, cwd=ROOT, timeout=300, check=True)
    browser = json.loads(result.stdout)
    assert len(browser) == len(inputs)
    disagreements = []
    for text, theirs in zip(inputs, browser, strict=True):
        ours = read_number(text)
        assert valid(ours), text
        if "exception" in theirs or theirs != ours:
            disagreements.append((text, ours, theirs))
    assert not disagreements, disagreements[:10]
    # The batch is not all noise: a good share reads as numbers.
    assert sum(1 for reading in browser if "value" in reading) > 20_000
