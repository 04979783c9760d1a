"""Formula answers: the learner types an expression in the question's variables ("16*N", "2n(d+1)"), graded by
equivalence: its values at points drawn from the variables' domains must agree with the key's.

The points are drawn at build, from a seed fixed by the key, and shipped with the key's values at them, so the
page and the build grade alike without sharing a random generator. The build also grades each expression the
author lists under `wrong:` and refuses the question if one of them passes (domains too narrow, a tolerance too
wide).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from zadachnik.core import formula
from zadachnik.core.arith import evaluate as arithmetic
from zadachnik.qtypes import Invalid, ListParts, QuestionType
from zadachnik.qtypes.numeric import tolerance_problem

DEFAULT_DOMAIN = (1.0, 10.0)
DEFAULT_RTOL = 1e-6
POINTS = 10
# A domain over this many orders of magnitude is drawn evenly in the logarithm: 1e6..1e12 would otherwise put
# nearly every point above 1e11.
LOG_SPAN = 100
TRIES = 20 * POINTS
ALLOWED = ("numbers, + - * / ^, parentheses, " + ", ".join(f"{name}()" for name in formula.FUNCTIONS)
           + ", pi, e and the variables")


@dataclass
class FormulaKey:
    answer: str
    variables: dict[str, tuple[float, float]]
    atol: float
    rtol: float
    points: list[list[float]]
    values: list[float]


def read_variables(value: Any) -> dict[str, tuple[float, float]]:
    """`variables: [N, d]` (each from 1 to 10) or `variables: {N: [1e6, 1e12], d: [1, 8]}`."""
    if isinstance(value, list):
        value = {name: list(DEFAULT_DOMAIN) for name in value}
    if not isinstance(value, dict) or not value:
        raise Invalid("a formula question names its variables", ("variables",),
                      "write e.g. 'variables: {N: [1e6, 1e12]}' (each with the range its values are drawn from)")
    return {variable_name(name): domain(name, bounds) for name, bounds in value.items()}


def variable_name(name: Any) -> str:
    text = str(name)
    path = ("variables", text)
    if text in formula.FUNCTIONS or text in formula.CONSTANTS:
        raise Invalid(f"'{text}' is a function or a constant of formulas, not a variable", path,
                      "give the variable another name")
    try:
        tree = formula.read(text, [text])
    except formula.FormulaError:
        tree = None
    if tree != ("var", text):
        raise Invalid(f"'{text}' can't be a variable's name", path,
                      "a name is a letter, then letters, digits or '_' (N, d_model, T2)")
    return text


def domain(name: Any, bounds: Any) -> tuple[float, float]:
    path = ("variables", str(name))
    if not isinstance(bounds, list) or len(bounds) != 2:
        raise Invalid(f"the variable '{name}' needs the range its values are drawn from", path,
                      f"write '{name}: [low, high]', e.g. '{name}: [1e6, 1e12]'")
    try:
        low, high = (arithmetic(bound) for bound in bounds)
    except ValueError as error:
        raise Invalid(str(error), path, f"write '{name}: [low, high]' with two numbers") from None
    if low == high:
        # Every point would be drawn at that value: the key could not tell 16*N from 80.
        raise Invalid(f"the range of '{name}' holds one value ({low:g})", path,
                      f"give it two different ends, e.g. '{name}: [1, 10]'; a figure that never changes is written "
                      "into the answer as a number")
    if not low < high:
        raise Invalid(f"the range of '{name}' is empty ({low:g} is not below {high:g})", path,
                      "write the lower bound first")
    return (low, high)


def tolerance(config: dict[str, Any], name: str, default: float) -> float:
    if config.get(name) is None:
        return default
    try:
        value = arithmetic(config[name])
    except ValueError as error:
        raise Invalid(str(error), (name,), f"write a number, e.g. '{name}: 1e-6'") from None
    problem = tolerance_problem(name, value)
    if problem:
        raise Invalid(problem[0], (name,), problem[1])
    return value


def draw(low: float, high: float, rng: random.Random) -> float:
    if low > 0 and high / low >= LOG_SPAN:
        return math.exp(rng.uniform(math.log(low), math.log(high)))
    return rng.uniform(low, high)


def points_for(tree: formula.Node, answer: str, variables: dict[str, tuple[float, float]]):
    """POINTS points where the key is defined, from a seed fixed by the key and the domains."""
    rng = random.Random(f"{answer}|{sorted(variables.items())}")
    names = list(variables)
    points: list[list[float]] = []
    values: list[float] = []
    for _ in range(TRIES):
        point = [draw(*variables[name], rng) for name in names]
        value = formula.evaluate(tree, dict(zip(names, point, strict=True)))
        if math.isfinite(value):
            points.append(point)
            values.append(value)
            if len(points) == POINTS:
                return points, values
    raise Invalid(f"the answer '{answer}' is undefined almost everywhere in the variables' ranges", ("answer",),
                  "give ranges where it has a value (a square root needs a non-negative argument, a logarithm a "
                  "positive one)")


class Formula(QuestionType):
    name = "formula"
    keys = ("answer", "variables", "atol", "rtol", "wrong")
    # `wrong:` here lists expressions the key itself must reject: no checker grades a formula.
    takes_checker = False
    template = "formula.html"

    def build(self, config: dict[str, Any], parts: ListParts, languages: tuple[str, ...] = ()) -> FormulaKey:
        variables = read_variables(config.get("variables"))
        if config.get("answer") is None or isinstance(config["answer"], (bool, dict, list)):
            raise Invalid("a formula question needs its answer", ("answer",) if "answer" in config else (),
                          "write e.g. 'answer: 16*N'")
        answer = str(config["answer"]).strip()
        tree = self.read_key(answer, variables, ("answer",))
        points, values = points_for(tree, answer, variables)
        key = FormulaKey(answer, variables, tolerance(config, "atol", 0.0), tolerance(config, "rtol", DEFAULT_RTOL),
                         points, values)
        self.refuse_wrong(config.get("wrong"), key)
        return key

    def read_key(self, text: str, variables: dict[str, tuple[float, float]], path: tuple[str, ...]) -> formula.Node:
        try:
            return formula.read(text, list(variables))
        except formula.FormulaError as error:
            what = {"unknown_name": f"'{error.detail}' is not one of the variables ({', '.join(variables)})",
                    "unexpected": f"'{error.detail}' can't stand there",
                    "function_paren": f"the function {error.detail} needs parentheses"}.get(error.kind, error.kind)
            raise Invalid(f"cannot read {text!r} as a formula: {what}", path, f"formulas take {ALLOWED}") from None

    def refuse_wrong(self, wrong: Any, key: FormulaKey) -> None:
        if wrong is None:
            return
        if not isinstance(wrong, list):
            raise Invalid("'wrong' is a list of expressions the answer must not accept", ("wrong",),
                          "write e.g. 'wrong: [\"12*N\", \"16*N^2\"]'")
        spec = self.spec(key)
        for index, text in enumerate(wrong):
            path = ("wrong", str(index))
            self.read_key(str(text), key.variables, path)
            if formula.grade(spec, str(text))["status"] == "correct":
                raise Invalid(f"'{text}', listed under 'wrong', agrees with the answer at every point drawn", path,
                              "widen the variables' ranges or tighten the tolerance, or remove it from 'wrong'")

    def spec(self, key: FormulaKey) -> dict[str, Any]:
        return {"answer": key.answer, "variables": list(key.variables), "points": key.points, "values": key.values,
                "atol": key.atol, "rtol": key.rtol}

    def grade(self, spec: dict[str, Any], answer: dict[str, Any], decimal: str = ".") -> dict[str, Any]:
        text = answer.get("expression")
        return formula.grade(spec, text if isinstance(text, str) else "", decimal)

    def reference_answer(self, spec: dict[str, Any], show: Any) -> dict[str, Any]:
        return {"expression": spec["answer"]}

    def author_answer(self, value: Any) -> dict[str, Any]:
        return {"expression": str(value)}
