"""A small, safe evaluator for the arithmetic authors write as numeric answers.

`8*(45+30)`, `16/7`, `7e9*12/2**30`, `sqrt(2*120*28800)`: parsed with `ast` and walked node by node, so
nothing but numbers, the four operations, powers and a few named functions can ever run.
"""

from __future__ import annotations

import ast
import difflib
import math
import operator
import re
from collections.abc import Callable, Mapping

_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[float], float]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}
FUNCTIONS: dict[str, Callable[[float], float]] = {
    "sqrt": math.sqrt,
    "exp": math.exp,
    "log": math.log,
    "log2": math.log2,
    "log10": math.log10,
}
CONSTANTS = {"pi": math.pi, "e": math.e}
# Guards against `10**10**10` freezing the build.
_MAX_EXPONENT = 1000
ALLOWED = "numbers, + - * / **, parentheses, " + ", ".join([*FUNCTIONS, *CONSTANTS])
# "4,75" as an answer: a decimal comma, which Python would read as a pair of numbers.
_DECIMAL_COMMA = re.compile(r"\d,\d")
# The digits, points and commas of one written number ("1,000.5"), and such a number whose commas group thousands.
_NUMBER_TEXT = re.compile(r"[\d.,]+")
_GROUPED = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?")


class CommaInNumber(ValueError):
    """A number written with a comma: the message already says what to write, so no other hint goes with it."""


class UnknownName(ValueError):
    """A name in an answer that the question's variant does not define (with a did-you-mean)."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


def evaluate(expression: str | int | float, names: Mapping[str, float] | None = None) -> float:
    """Value of a number or an arithmetic expression; ValueError says what is not allowed. `names` are the
    figures of a question's variant (`N*B/1e9`): they win over the constants pi and e."""
    if isinstance(expression, bool):
        raise ValueError(f"{expression!r} is not a number")
    if isinstance(expression, (int, float)):
        try:
            return _finite(float(expression), str(expression))
        except OverflowError:
            raise ValueError(f"{expression} is too large for a number") from None
    text = str(expression).strip()
    if not text:
        raise ValueError("the answer is empty")
    if _DECIMAL_COMMA.search(text) and "(" not in text:
        kind, rule, write = comma_advice(text)
        if kind == "decimal":
            raise CommaInNumber(f"{text!r} has a decimal comma: {rule}, whatever the site's language ({write})")
        raise CommaInNumber(f"{text!r} has a comma in a number: {rule} ({write})")
    try:
        tree = ast.parse(text, mode="eval")
        return _finite(_value(tree.body, text, names or {}), text)
    except SyntaxError:
        raise ValueError(f"cannot read {text!r} as arithmetic") from None
    except (RecursionError, MemoryError):
        raise ValueError(f"{text[:40]!r}… is nested too deeply to be an answer") from None


def comma_advice(text: str) -> tuple[str, str, str]:
    """What an author who wrote a comma in a number of `text` meant, as (kind, rule, what to write). "4,75" is a
    decimal comma; "1,000.5" and "1,000,000" group thousands; "2,629" may be either, so both readings are said;
    "79.5,5" is neither, and no number is suggested for it. The build's YAML check and `evaluate` both ask here."""
    decimal, grouped = text, text
    kinds = set()
    for number in reversed([*_NUMBER_TEXT.finditer(text)]):
        written = number.group()
        if not _DECIMAL_COMMA.search(written):
            continue
        as_decimal = written.replace(",", ".") if written.count(",") == 1 and "." not in written else None
        as_grouped = written.replace(",", "") if _GROUPED.fullmatch(written) else None
        if as_decimal is None and as_grouped is None:
            return ("none", "numbers in the sources take at most one decimal point and no comma",
                    f"'{written}' is neither a decimal comma nor groups of thousands: write the number you meant "
                    "without one")
        kinds.add("both" if as_decimal and as_grouped else "decimal" if as_decimal else "grouped")
        start, end = number.span()
        decimal = decimal[:start] + (as_decimal or as_grouped or "") + decimal[end:]
        grouped = grouped[:start] + (as_grouped or as_decimal or "") + grouped[end:]
    if decimal != grouped:
        return ("both", "numbers in the sources take a decimal point and no sign between groups of digits",
                f"write {decimal} for a decimal, or {grouped} if the comma groups thousands")
    if kinds == {"decimal"}:
        return "decimal", "numbers in the sources take a decimal point", f"write {decimal}"
    if kinds == {"grouped"}:
        return "grouped", "numbers in the sources take no sign between groups of digits", f"write {decimal}"
    return "mixed", "numbers in the sources take a decimal point and no sign between groups of digits", \
        f"write {decimal}"


def free_names(expression: str) -> list[str]:
    """The names an expression computes with (`N*B/2**30` gives N and B): neither a function nor pi or e.
    Nothing for text that is not Python: evaluating it says what is wrong."""
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    names = [node.id for node in ast.walk(tree)
             if isinstance(node, ast.Name) and id(node) not in called and node.id not in CONSTANTS]
    return list(dict.fromkeys(names))


def _finite(value: float, text: str) -> float:
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not a finite number")
    return value


def _value(node: ast.expr, text: str, names: Mapping[str, float]) -> float:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        try:
            # 1e999 reads as infinity: refused here, so `1/1e999` can't pass as 0.
            return _finite(float(node.value), text)
        except OverflowError:
            raise ValueError(f"a number in {text!r} is too large") from None
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _value(node.left, text, names), _value(node.right, text, names)
        if isinstance(node.op, ast.Pow) and abs(right) > _MAX_EXPONENT:
            raise ValueError(f"the exponent {right:g} in {text!r} is too large")
        try:
            return _finite(float(_BINARY[type(node.op)](left, right)), text)
        except ZeroDivisionError:
            raise ValueError(f"{text!r} divides by zero") from None
        except (OverflowError, TypeError):
            raise ValueError(f"{text!r} is not a finite real number") from None
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_value(node.operand, text, names))
    if isinstance(node, ast.Name) and node.id in names:
        try:
            return _finite(float(names[node.id]), node.id)
        except OverflowError:
            raise ValueError(f"'{node.id}' in {text!r} is too large for a number") from None
    if isinstance(node, ast.Name) and node.id in CONSTANTS:
        return CONSTANTS[node.id]
    if isinstance(node, ast.Name) and names:
        close = difflib.get_close_matches(node.id, names, n=1)
        raise UnknownName(f"'{node.id}' in {text!r} is not a name of the variant",
                          f"did you mean '{close[0]}'?" if close else "the variant's function returns: "
                          + ", ".join(sorted(names)[:12]))
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in FUNCTIONS
        and len(node.args) == 1
        and not node.keywords
    ):
        try:
            return FUNCTIONS[node.func.id](_value(node.args[0], text, names))
        except (ValueError, OverflowError):
            raise ValueError(f"{node.func.id}() is undefined for its argument in {text!r}") from None
    piece = ast.get_source_segment(text, node) or type(node).__name__
    raise ValueError(f"{piece!r} in {text!r} is not plain arithmetic (allowed: {ALLOWED})")
