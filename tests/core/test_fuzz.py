"""Fuzzing the number readers and writers: never an exception, only a reading or a reading error, and Python
and the browser give the same result for every generated input, with no page's conventions and with each
locale's; what either writes, both write alike and read back."""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.sites import ROOT
from zadachnik.core.formatting import conventions, shown_exactly, write_number
from zadachnik.core.numbers import MAX_LENGTH, grade_field, read_number

ERRORS = {"empty", "unreadable", "separators", "zero_division", "too_large", "too_long", "ambiguous"}
# None: read with no page's conventions (as an author's checker in the browser's worker). Swiss German groups
# with an apostrophe, a sign that is neither a space nor '.' or ','.
LOCALES = [None, "en", "ru", "de", "fr", "es", "de-CH"]
# What people type into number fields, and what breaks readers.
ALPHABET = "0123456789" * 3 + ".,+-−eE/*·×x^ \u00a0\u2009\u202f\t⁰¹²³⁻" + "abkgµ%()_'\"\\" + "１٢\x1c\x85" \
    + "\u3000\ufeff\u2028\u180e\u200b\U0001d7d9⁺⁴⁹’"
# Runs that long pastes are made of: each is repeated hundreds or thousands of times between two short ends.
RUNS = [" ", "\u3000", "\u00a0", "0", "7", "9", " 000", " /", "+-", "⁰", "10", ".", ".,", "1.", "e", "\U0001d7d9"]


def valid(reading: dict) -> bool:
    if reading.get("error") == "ambiguous":
        grouped, decimal = reading["grouped"], reading["decimal"]
        return set(reading) == {"error", "grouped", "decimal"} and math.isclose(grouped, 1000 * decimal)
    if "error" in reading:
        return set(reading) == {"error"} and reading["error"] in ERRORS
    return isinstance(reading["value"], float) and math.isfinite(reading["value"])


# 100,000 inputs in all, a share per locale: one test per locale, so that worker processes share the fuzzing.
@pytest.mark.slow
@pytest.mark.parametrize("lang", LOCALES)
@settings(max_examples=100_000 // len(LOCALES), deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
@given(text=st.text(alphabet=ALPHABET, max_size=24) | st.text(max_size=12))
def test_python_reader_never_raises(text: str, lang: str | None) -> None:
    assert valid(read_number(text, conventions(lang) if lang else None))


def page_conventions(lang: str | None) -> dict | None:
    return conventions(lang) if lang else None


def run_browser(lang: str | None, items: list) -> list:
    node = shutil.which("node")
    assert node, "Node.js is needed"
    data = json.dumps({"conventions": page_conventions(lang), "items": items})
    result = subprocess.run([node, str(ROOT / "tests/js/js_fuzz.mjs")], input=data, capture_output=True, text=True,
                            cwd=ROOT, timeout=300, check=True)
    return json.loads(result.stdout)


def generated_inputs(count: int, seed: int = 20261130) -> list[str]:
    rng = random.Random(seed)
    shapes = ["{d}", "{s}{d}{p}{d}", "{d}/{d}", "{s}{d}{p}{d}e{s}{d}", "{d}{p}{d}·10^{s}{d}", "{g}", "{r}",
              "{s}{t}", "{s}{t}{p}{d}"]
    inputs = []
    for _ in range(count):
        shape = rng.choice(shapes)
        text = shape.format(
            d="".join(rng.choice("0123456789") for _ in range(rng.randint(0, 4))),
            s=rng.choice(["", "-", "+", "−"]),
            p=rng.choice([".", ",", ""]),
            g=" ".join(str(rng.randint(0, 999)) for _ in range(rng.randint(1, 3))),
            # Thousands as pages write them, with a sign a locale groups with, and near misses.
            t=rng.choice([",", ".", "\u00a0", "\u202f", "’", "'"]).join(
                f"{rng.randint(0, 999):0{rng.choice([1, 2, 3, 3, 3])}d}" for _ in range(rng.randint(1, 4))),
            r="".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 12))),
        )
        inputs.append(text)
    return inputs


def long_inputs(count: int, seed: int = 20261201) -> list[str]:
    rng = random.Random(seed)
    ends = ["", "1", "-", "16/", "1e", "1e-", "2·10^", "0.", "10", "x", " ", "/7", "e5", "⁰"]
    return [rng.choice(ends) + rng.choice(RUNS) * rng.randint(100, 3000) + rng.choice(ends) for _ in range(count)]


@pytest.mark.parametrize("lang", LOCALES, ids=str)
@pytest.mark.parametrize("batch", ["short", "long"])
def test_browser_reader_agrees_on_a_generated_batch(batch: str, lang: str | None) -> None:
    inputs = generated_inputs(100_000) if batch == "short" else long_inputs(2_000)
    browser = run_browser(lang, inputs)
    assert len(browser) == len(inputs)
    page = page_conventions(lang)
    disagreements = []
    for text, theirs in zip(inputs, browser, strict=True):
        ours = read_number(text, page)
        assert valid(ours), text
        if "exception" in theirs or theirs != ours:
            disagreements.append((text, ours, theirs))
    assert not disagreements, disagreements[:10]
    # The batch is not all noise: a good share reads as numbers (long pastes mostly do not, but some must).
    assert sum(1 for reading in browser if "value" in reading) > (20_000 if batch == "short" else 100)


def graded_pairs(count: int, lang: str | None = None, seed: int = 20261202) -> list[tuple[dict, str]]:
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
        if lang and rng.random() < 0.3:  # as the page writes it: "2,629.07", "2 629,07"
            text = write_number(near, conventions(lang), digits)
        pairs.append(({"answer": answer, "atol": atol, "rtol": rtol}, text))
    return pairs


@pytest.mark.parametrize("lang", LOCALES, ids=str)
def test_browser_grader_agrees_on_generated_fields(lang: str | None) -> None:
    pairs = graded_pairs(20_000, lang)
    browser = run_browser(lang, pairs)
    ours = [grade_field(field, text, page_conventions(lang)) for field, text in pairs]
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
    "comma groups, then a letter": lambda n: "1" + ",000" * (n // 4) + "x",
    "comma groups, then a short one": lambda n: "1" + ",000" * (n // 4) + ",00",
    "point groups, then two decimal commas": lambda n: "1" + ".000" * (n // 4) + ",5,5",
    "commas and points": lambda n: "1,0." * (n // 4),
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


# Timed as an English page reads, so the ambiguity check is on the way too.
TIMED_LANG = "en"


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_python_reader_is_linear(shape: str) -> None:
    build = SHAPES[shape]
    page = conventions(TIMED_LANG)
    assert growth(lambda text: read_number(text, page), build(SMALL), build(LARGE)) < THRESHOLD


def test_browser_reader_is_linear() -> None:
    node = shutil.which("node")
    assert node, "Node.js is needed"
    pairs = [[build(SMALL), build(LARGE)] for build in SHAPES.values()]
    page = json.dumps(conventions(TIMED_LANG))
    result = subprocess.run([node, str(ROOT / "tests/js/js_timing.mjs"), str(THRESHOLD), str(ROUNDS), page],
                            input=json.dumps(pairs), capture_output=True, text=True, cwd=ROOT, timeout=600, check=True)
    ratios = dict(zip(SHAPES, json.loads(result.stdout), strict=True))
    assert all(ratio < THRESHOLD for ratio in ratios.values()), {name: round(r, 1) for name, r in ratios.items()}


# -- writing ------------------------------------------------------------------------------------------------
def generated_numbers(count: int, seed: int = 20261203) -> list[tuple[float, int | None, bool, int]]:
    """(value, decimals, group, significant) across magnitudes, with ties and values near powers of ten."""
    rng = random.Random(seed)
    items = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.2:  # halves, quarters: ties that round half away from zero
            value = rng.randint(-10**7, 10**7) / rng.choice([2, 4, 8, 20, 200])
        elif kind < 0.3:  # just below or at a power of ten
            value = 10.0 ** rng.randint(-9, 15) * rng.choice([1, 0.9999999999, 0.99999999999999, 1.0000000001])
        elif kind < 0.4:
            value = float(rng.randint(-10**9, 10**9))
        else:
            value = rng.uniform(-1, 1) * 10.0 ** rng.uniform(-12, 16)
        decimals = rng.choice([None, None, -3, 0, 1, 2, 3, 6, 10, 25])
        items.append((value, decimals, rng.random() < 0.8, rng.randint(1, 17)))
    return items


@pytest.mark.parametrize("lang", LOCALES[1:])
def test_browser_writes_as_python_and_both_read_back(lang: str) -> None:
    numbers = generated_numbers(20_000)
    page = conventions(lang)
    browser = run_browser(lang, [{"write": list(item)} for item in numbers])
    disagreements, unreadable = [], []
    for (value, decimals, group, significant), theirs in zip(numbers, browser, strict=True):
        ours = write_number(value, page, decimals, group, significant)
        if ours != theirs:
            disagreements.append((value, decimals, group, significant, ours, theirs))
        reading = read_number(ours, page)
        exact = shown_exactly(value, decimals, significant)
        if "value" not in reading or (reading["value"] == value) != exact:
            unreadable.append((value, decimals, significant, ours, reading, exact))
    assert not disagreements, disagreements[:10]
    assert not unreadable, unreadable[:10]
