"""Fuzzing the number readers: never an exception, only a reading or a reading error, and Python and the
browser give the same result for every generated input."""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from zadachnik.core.numbers import MAX_LENGTH, grade_field, read_number

ROOT = Path(__file__).resolve().parent.parent
ERRORS = {"empty", "unreadable", "separators", "zero_division", "too_large", "too_long"}
# What people type into number fields, and what breaks readers.
ALPHABET = "0123456789" * 3 + ".,+-−eE/*·×x^ \u00a0\u2009\u202f\t⁰¹²³⁻" + "abkgµ%()_'\"\\" + "１٢\x1c\x85" \
    + "\u3000\ufeff\u2028\u180e\u200b\U0001d7d9⁺⁴⁹"
# Runs that long pastes are made of: each is repeated hundreds or thousands of times between two short ends.
RUNS = [" ", "\u3000", "\u00a0", "0", "7", "9", " 000", " /", "+-", "⁰", "10", ".", ".,", "1.", "e", "\U0001d7d9"]


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


def long_inputs(count: int, seed: int = 20261201) -> list[str]:
    rng = random.Random(seed)
    ends = ["", "1", "-", "16/", "1e", "1e-", "2·10^", "0.", "10", "x", " ", "/7", "e5", "⁰"]
    return [rng.choice(ends) + rng.choice(RUNS) * rng.randint(100, 3000) + rng.choice(ends) for _ in range(count)]


@pytest.mark.parametrize("batch", ["short", "long"])
def test_browser_reader_agrees_on_a_generated_batch(batch: str) -> None:
    inputs = generated_inputs(100_000) if batch == "short" else long_inputs(2_000)
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
    # The batch is not all noise: a good share reads as numbers (long pastes mostly do not, but some must).
    assert sum(1 for reading in browser if "value" in reading) > (20_000 if batch == "short" else 100)


def graded_pairs(count: int, seed: int = 20261202) -> list[tuple[dict, str]]:
    """Fields as the sample course writes them, and answers near theirs typed to every precision, so the
    precision note's edges (too coarse, right at the digits typed) are crossed both ways."""
    rng = random.Random(seed)
    answers = [84.0, 7e9 * 12 / 2**30, 16.0, 600.0, 390.0, 600 / 390, 0.5, 0.8, 16 / 7, 4 / 7, 2.75, 4.0,
               2629.0682760247973, 43.81780460041329, 2.12368e12, -273.15, -0.0025, 0.0, 1e-7, 123456.789]
    tolerances = [(1e-6, 0), (0.005, 0), (0.001, 0), (0.0001, 0), (0.01, 0), (0.1, 0), (0.5, 0), (0, 0.001),
                  (0, 0.01), (0, 0.1), (0.05, 0.1), (0, 0)]
    pairs = []
    for _ in range(count):
        answer = rng.choice(answers)
        atol, rtol = rng.choice(tolerances)
        near = answer * (1 + rng.choice([0, 1e-9, 1e-6, 1e-4, 1e-3, 1e-2, 0.1, 1]) * rng.choice([-1, 1]))
        digits = rng.randint(0, 8)
        text = rng.choice([f"{near:.{digits}f}", f"{near:.{digits}e}", f"{near:.{digits + 1}g}"])
        text = text.replace(".", ",") if rng.random() < 0.3 else text
        pairs.append(({"answer": answer, "atol": atol, "rtol": rtol}, text))
    return pairs


def test_browser_grader_agrees_on_generated_fields() -> None:
    pairs = graded_pairs(20_000)
    node = shutil.which("node")
    assert node, "Node.js is needed"
    result = subprocess.run([node, str(ROOT / "tests/js_fuzz.mjs")], input=json.dumps(pairs), capture_output=True,
                            text=True, cwd=ROOT, timeout=300, check=True)
    browser = json.loads(result.stdout)
    ours = [grade_field(field, text) for field, text in pairs]
    disagreements = [(pair, mine, theirs) for pair, mine, theirs in zip(pairs, ours, browser, strict=True)
                     if mine != theirs]
    assert not disagreements, disagreements[:10]
    # Every verdict occurs, the precision note both ways.
    kinds = {(verdict["status"], verdict.get("precision")) for verdict in ours}
    assert {("correct", None), ("wrong", True), ("wrong", False)} <= kinds


# -- time linear in the length -------------------------------------------------------------------------------
# Shapes of text that made a reader quadratic or could: each is built at n and 10n characters. A linear reader
# takes about 10 times longer on the long one, a quadratic one about 100 times (the 100 000-space paste took
# 56 s in Python and 7.5 s in the browser).
SHAPES: dict[str, Callable[[int], str]] = {
    "spaces inside": lambda n: "1" + " " * n + "1",
    "ideographic spaces inside": lambda n: "1" + "\u3000" * n + "1",
    "spaces then a letter": lambda n: " " * n + "x",
    "spaces around operators": lambda n: "1" + " /" * (n // 2),
    "spaces before an operator": lambda n: "16" + " " * n + "/7",
    "many short runs of spaces": lambda n: "\u300010a" * (n // 4),
    "tabs between operators": lambda n: "\t×−" * (n // 3),
    "thousands groups, then a letter": lambda n: "1" + " 000" * (n // 4) + "x",
    "thousands groups, then a short one": lambda n: "1" + " 000" * (n // 4) + " 00",
    "digits, then a letter": lambda n: "1" * n + "x",
    "decimals, then a letter": lambda n: "1." + "1" * n + "x",
    "exponent digits, then a letter": lambda n: "1e" + "1" * n + "x",
    "times ten, then a letter": lambda n: "1" * n + "·10^x",
    "signs": lambda n: "+-" * (n // 2) + "1",
    "tens, then a superscript": lambda n: "10" * (n // 2) + "⁰",
    "superscripts, then a letter": lambda n: "10" + "⁰" * n + "x",
    "points": lambda n: "1.1" * (n // 3),
    "both separators": lambda n: ".," * (n // 2),
    "a long denominator": lambda n: "16/" + "7" * n,
    "a tiny denominator": lambda n: "1/0." + "0" * n + "1",
    "a long negative exponent": lambda n: "1e-" + "9" * n,
}
SMALL, LARGE = 10_000, 100_000
# Linear is about 10 (up to 30 seen on a machine shared with other test runs), quadratic about 100: 50 leaves
# room either way. Up to ROUNDS rounds are timed; a linear reader is done after the first.
THRESHOLD = 50
ROUNDS = 15


def test_the_shapes_fit_under_the_cap() -> None:
    assert all(len(shape(LARGE)) <= MAX_LENGTH for shape in SHAPES.values())
    assert all(len(shape(LARGE)) >= 0.9 * LARGE for shape in SHAPES.values())


def growth(read: Callable[[str], object], small: str, large: str, rounds: int = ROUNDS) -> float:
    """How many times longer the long text takes: the best of interleaved rounds, since a busy machine only
    slows a round down; a round under the threshold ends the search. A microsecond floor under the short
    text's time keeps timer resolution from making a ratio out of nothing."""

    def per_call(text: str, calls: int) -> float:
        start = time.perf_counter()
        for _ in range(calls):
            read(text)
        return (time.perf_counter() - start) / calls

    best_small = best_large = math.inf
    for _ in range(rounds):
        best_small, best_large = min(best_small, per_call(small, 10)), min(best_large, per_call(large, 1))
        if best_large / max(best_small, 1e-6) < THRESHOLD:
            break
    return best_large / max(best_small, 1e-6)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_python_reader_is_linear(shape: str) -> None:
    build = SHAPES[shape]
    assert growth(read_number, build(SMALL), build(LARGE)) < THRESHOLD


def test_browser_reader_is_linear() -> None:
    node = shutil.which("node")
    assert node, "Node.js is needed"
    pairs = [[build(SMALL), build(LARGE)] for build in SHAPES.values()]
    result = subprocess.run([node, str(ROOT / "tests/js_timing.mjs"), str(THRESHOLD), str(ROUNDS)],
                            input=json.dumps(pairs), capture_output=True, text=True, cwd=ROOT, timeout=600, check=True)
    ratios = dict(zip(SHAPES, json.loads(result.stdout), strict=True))
    assert all(ratio < THRESHOLD for ratio in ratios.values()), {name: round(r, 1) for name, r in ratios.items()}
