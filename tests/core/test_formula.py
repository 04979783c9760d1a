"""Formula answers' reader (core/formula.py): the shared cases the page's reader runs too, and its limits."""

from __future__ import annotations

import json
import math

import pytest
from support.node import run_node_tests
from support.sites import ROOT
from zadachnik.core.formula import FormulaError, evaluate, grade, read, written

VECTORS = json.loads((ROOT / "tests" / "vectors" / "formula.json").read_text(encoding="utf-8"))
READINGS = VECTORS["readings"]
GRADES = VECTORS["grades"]


@pytest.mark.parametrize("case", READINGS, ids=[case["name"] for case in READINGS])
def test_python_reads_as_the_shared_cases_say(case: dict) -> None:
    if "error" in case:
        with pytest.raises(FormulaError) as caught:
            read(case["text"], VECTORS["names"], case["decimal"])
        assert (caught.value.kind, caught.value.detail) == (case["error"], case["detail"])
        return
    tree = read(case["text"], VECTORS["names"], case["decimal"])
    assert written(tree) == case["read"]
    value = evaluate(tree, VECTORS["point"])
    if case["value"] is None:
        assert math.isnan(value)
    else:
        assert value == pytest.approx(case["value"], rel=1e-12)


@pytest.mark.parametrize("case", GRADES, ids=[case["name"] for case in GRADES])
def test_python_grades_as_the_shared_cases_say(case: dict) -> None:
    assert grade(case["spec"], case["text"], case["decimal"])["status"] == case["status"]


def test_the_page_reads_and_grades_as_the_shared_cases_say() -> None:
    run_node_tests("js_formula.test.mjs")


def test_what_was_read_reads_back_to_the_same_tree() -> None:
    """The preview's text is itself a formula that means what the learner's did."""
    for case in READINGS:
        if "read" in case:
            tree = read(case["text"], VECTORS["names"], case["decimal"])
            assert read(written(tree), VECTORS["names"]) == tree, case["name"]


def test_an_unreadable_answer_says_why_and_about_what() -> None:
    verdict = grade({"variables": ["N"], "points": [[1.0]], "values": [16.0], "atol": 0, "rtol": 1e-9}, "16M")
    assert verdict == {"status": "unreadable", "formula": "unknown_name", "detail": "M"}


# -- the question type: what the build reads and refuses --------------------------------------------------------

RU = "Сколько байт занимает состояние обучения модели с $N$ параметрами?\n\nexplanation:\nПо 16 байт на параметр."
EN = "How many bytes does the training state of a model with $N$ parameters take?\n\nexplanation:\n16 bytes each."


def formula_block(yaml: str) -> str:
    from support.sources import block

    return block(yaml="type: formula\n" + yaml, ru=RU, en=EN)


def test_a_formula_question_ships_points_and_the_keys_values_there(tmp_path) -> None:
    from support.sources import load

    [course] = load(tmp_path, quiz=formula_block("answer: 16*N\nvariables: {N: [1e6, 1e12]}\nwrong: [12*N, 16*N^2]"))
    [question] = course.modules[0].questions
    spec = question.spec
    assert spec["type"] == "formula" and spec["variables"] == ["N"] and len(spec["points"]) == 10
    pairs = zip(spec["points"], spec["values"], strict=True)
    assert all(value == pytest.approx(16 * point[0]) for point, value in pairs)
    # Drawn evenly in the logarithm over six orders of magnitude: not all of them near the top.
    assert min(point[0] for point in spec["points"]) < 1e10
    # The same points on every build.
    [again] = load(tmp_path / "again", quiz=formula_block("answer: 16*N\nvariables: {N: [1e6, 1e12]}"))
    assert again.modules[0].questions[0].spec["points"] == spec["points"]


def test_a_formula_question_passes_the_builds_check_of_its_revealed_answer(tmp_path) -> None:
    from support.sources import problems

    assert problems(tmp_path, formula_block("answer: 2n(d+1)\nvariables: [n, d]")) == []


@pytest.mark.parametrize(("yaml", "message", "hint", "at"), [
    ("answer: 16*M\nvariables: {N: [1, 10]}", "'M' is not one of the variables (N)", "formulas take", "answer"),
    ("answer: 16*N", "names its variables", "variables: {N: [1e6, 1e12]}", None),
    ("variables: [N]", "needs its answer", "answer: 16*N", None),
    ("answer: 16*N\nvariables: {N: [10, 1]}", "the range of 'N' is empty", "lower bound first", "variables"),
    # Equal ends were told to write the lower bound first.
    ("answer: 16*N\nvariables: {N: [5, 5]}", "the range of 'N' holds one value (5)", "two different ends",
     "variables"),
    ("answer: 16*N\nvariables: {N: 5}", "needs the range", "N: [low, high]", "variables"),
    ("answer: 16*N\nvariables: {sqrt: [1, 2]}", "'sqrt' is a function or a constant", "another name", "variables"),
    ("answer: 16*N\nvariables: {2N: [1, 2]}", "can't be a variable's name", "a letter", "variables"),
    ("answer: sqrt(-N)\nvariables: [N]", "undefined almost everywhere", "ranges where it has a value", "answer"),
    ("answer: 16*N\nvariables: [N]\nwrong:\n  - 12*N\n  - 16*N+1e-9", "agrees with the answer at every point",
     "widen", "  - 16*N+1e-9"),
    ("answer: 16*N\nvariables: [N]\nwrong: [16*K]", "'K' is not one of the variables", "formulas take", "wrong"),
    ("answer: 16*N\nvariables: [N]\nrtol: -1", "negative", "minus sign", "rtol"),
    ("answer: 16*N\nvariables: [N]\nrtol: 5", "off by 500%", "write 'rtol: 0.05'", "rtol"),
    ("answer: 16*N\nvariables: [N]\nvariants: p02", "a formula question cannot have variants yet", "remove 'variants:'",
     "variants"),
    ("answer: 16*N\nvariables: [N]\ncheck: |\n  def check(answer):\n    return True", "unknown key 'check'", "",
     "check"),
])
def test_a_slip_in_a_formula_question_is_reported_at_its_line(tmp_path, yaml: str, message: str, hint: str,
                                                              at: str | None) -> None:
    from support.sources import QUIZ, one_error

    quiz = formula_block(yaml)
    error = one_error(tmp_path, quiz=quiz)
    assert error.path == QUIZ
    assert message in error.message
    assert hint in error.hint
    # At the line of the key it is about.
    if at is not None:
        assert quiz.split("\n")[error.line - 1].startswith(at), (error.line, quiz)
