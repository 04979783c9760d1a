"""Formula answers: an expression a learner types ("16*N", "2n(d+1)", "N/10^9"), read into a tree and evaluated.

The page's reader (runtime/assets/js/formula.js) follows the same rules; both are held to
tests/vectors/formula.json. Only numbers, + - * / and powers, parentheses, the functions in FUNCTIONS, the
constants pi and e, and the question's own variable names are read: anything else is an error with its kind.

- A product may be written without its sign before a name or a parenthesis: "2n(d+1)" is 2*n*(d+1). A run of
  letters that is no name is split into the names it is made of ("nd" is n*d), or refused.
- "^" and "**" are powers, right to left; "-x^2" is -(x^2); "1/2n" is (1/2)*n, as a calculator reads it (the
  preview shows the reading, so a learner sees which was taken).
- "1e9" is a number; the decimal sign is "." and, on a page whose decimal sign is ",", also ",".
- As in a number field (tests/vectors/README.md, rules 2a and 2b): direction marks are dropped, and digits of
  other scripts, full-width forms and the Arabic decimal separator are read as what they stand for ("٢n" is 2*n).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from zadachnik.core.numbers import typed_ascii

FUNCTIONS: dict[str, Callable[[float], float]] = {
    "sqrt": math.sqrt, "exp": math.exp, "ln": math.log, "log": math.log, "log2": math.log2, "log10": math.log10,
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "abs": abs,
}
CONSTANTS = {"pi": math.pi, "π": math.pi, "e": math.e}
# Longer texts are refused unread; deeper nesting too (recursion on both sides, and no answer needs it).
MAX_LENGTH = 500
MAX_DEPTH = 50
_SIGNS = {"+": "+", "-": "-", "\u2212": "-", "*": "*", "·": "*", "×": "*", "/": "/", "÷": "/", "^": "^",
          "(": "(", ")": ")"}
# Spaces a learner may type (the same list as the page's: Python's and JavaScript's own classes differ).
SPACES = " \t\n\r\f\v\u00a0\u2002\u2003\u2009\u202f"
# "x²", "10⁻³": a power written in superscript digits.
SUPERSCRIPTS = {"⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9"}
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "neg": 3, "^": 4}


class FormulaError(ValueError):
    """Why a text is not a formula: `kind` (empty, too_long, too_deep, unexpected, end, paren, unknown_name,
    function_paren, comma) and the piece of text it is about."""

    def __init__(self, kind: str, detail: str = ""):
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind
        self.detail = detail


# A tree is a tuple: ("num", text), ("var", name), ("const", name), ("neg", node), (op, left, right) for + - * / ^,
# ("call", name, node).
Node = tuple


@dataclass
class _Token:
    kind: str  # num, name, func, op
    text: str


def _number_end(text: str, start: int, decimal: str) -> int:
    """Where the number that starts at `start` ends: digits, a decimal part, an exponent."""
    index = start
    while index < len(text) and _is_digit(text[index]):
        index += 1
    if index + 1 < len(text) and (text[index] == "." or text[index] == decimal == ",") and _is_digit(text[index + 1]):
        index += 1
        while index < len(text) and _is_digit(text[index]):
            index += 1
    if index < len(text) and text[index] in "eE":
        after = index + 1
        if after < len(text) and text[after] in "+-":
            after += 1
        if after < len(text) and _is_digit(text[after]):
            index = after
            while index < len(text) and _is_digit(text[index]):
                index += 1
    return index


def _is_digit(char: str) -> bool:
    return "0" <= char <= "9"


def _names_in(word: str, names: Sequence[str]) -> list[str] | None:
    """`word` as a run of known names (the longest first at each place), or None."""
    known = sorted(set(names) | set(CONSTANTS), key=len, reverse=True)
    found: list[str] = []
    index = 0
    while index < len(word):
        name = next((name for name in known if word.startswith(name, index)), None)
        if name is None:
            return None
        found.append(name)
        index += len(name)
    return found


def tokens(text: str, names: Sequence[str], decimal: str = ".") -> list[_Token]:
    found: list[_Token] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char in SPACES:
            index += 1
        elif char in SUPERSCRIPTS or (char in "⁻⁺" and index + 1 < len(text) and text[index + 1] in SUPERSCRIPTS):
            end = index + 1
            while end < len(text) and text[end] in SUPERSCRIPTS:
                end += 1
            found.append(_Token("op", "^"))
            if char in "⁻⁺":
                found.append(_Token("op", "-" if char == "⁻" else "+"))
            found.append(_Token("num", "".join(SUPERSCRIPTS[sign] for sign in text[index:end] if sign in SUPERSCRIPTS)))
            index = end
        elif _is_digit(char) or (char == "." and index + 1 < len(text) and _is_digit(text[index + 1])):
            end = _number_end(text, index, decimal)
            found.append(_Token("num", text[index:end].replace(",", ".")))
            index = end
        elif text.startswith("**", index):
            found.append(_Token("op", "^"))
            index += 2
        elif char in _SIGNS:
            found.append(_Token("op", _SIGNS[char]))
            index += 1
        elif char.isalpha():
            end = index + 1
            while end < len(text) and (text[end].isalpha() or _is_digit(text[end]) or text[end] == "_"):
                end += 1
            found.extend(_word(text[index:end], names))
            index = end
        elif char == ",":
            raise FormulaError("comma")
        else:
            raise FormulaError("unexpected", char)
    return found


def _word(word: str, names: Sequence[str]) -> list[_Token]:
    if word in names:
        return [_Token("name", word)]
    if word in FUNCTIONS:
        return [_Token("func", word)]
    split = _names_in(word, names)
    if split is None:
        raise FormulaError("unknown_name", word)
    return [_Token("name", name) for name in split]


class _Parser:
    def __init__(self, found: list[_Token], names: Sequence[str]):
        self.tokens = found
        self.names = names
        self.index = 0
        self.depth = 0

    def peek(self) -> _Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def is_op(self, *texts: str) -> bool:
        token = self.peek()
        return token is not None and token.kind == "op" and token.text in texts

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise FormulaError("too_deep")

    def expression(self) -> Node:
        self.deeper()
        node = self.term()
        while self.is_op("+", "-"):
            node = (self.take().text, node, self.term())
        self.depth -= 1
        return node

    def term(self) -> Node:
        node = self.unary()
        while True:
            if self.is_op("*", "/"):
                node = (self.take().text, node, self.unary())
            elif self.starts_factor():
                node = ("*", node, self.unary())
            else:
                return node

    def starts_factor(self) -> bool:
        """A name, function or "(" right after a factor: a product written without its sign."""
        token = self.peek()
        return token is not None and (token.kind in ("name", "func") or (token.kind == "op" and token.text == "("))

    def unary(self) -> Node:
        if self.is_op("+", "-"):
            sign = self.take().text
            self.deeper()
            operand = self.unary()
            self.depth -= 1
            return ("neg", operand) if sign == "-" else operand
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        if self.is_op("^"):
            self.take()
            self.deeper()
            exponent = self.unary()
            self.depth -= 1
            return ("^", base, exponent)
        return base

    def atom(self) -> Node:
        token = self.peek()
        if token is None:
            raise FormulaError("end")
        self.take()
        if token.kind == "num":
            return ("num", token.text)
        if token.kind == "name":
            return ("var", token.text) if token.text in self.names else ("const", token.text)
        if token.kind == "func":
            if not self.is_op("("):
                raise FormulaError("function_paren", token.text)
            return ("call", token.text, self.parenthesized())
        if token.text == "(":
            self.index -= 1
            return self.parenthesized()
        raise FormulaError("unexpected", token.text)

    def parenthesized(self) -> Node:
        self.take()
        inner = self.expression()
        if not self.is_op(")"):
            raise FormulaError("paren")
        self.take()
        return inner


def read(text: str, names: Sequence[str], decimal: str = ".") -> Node:
    """The tree of a learner's (or an author's) expression over the variables `names`; FormulaError if it is
    none. `decimal`: the page's decimal sign (',' lets "2,5" be a number)."""
    if len(text) > MAX_LENGTH:
        raise FormulaError("too_long")
    # What a number field reads, a formula reads: digits of the learner's keyboard, no direction marks.
    text = typed_ascii(text, decimal)
    if not text.strip(SPACES):
        raise FormulaError("empty")
    parser = _Parser(tokens(text, names, decimal), names)
    tree = parser.expression()
    extra = parser.peek()
    if extra is not None:
        raise FormulaError("paren" if extra.text == ")" else "unexpected", extra.text)
    return tree


def evaluate(tree: Node, point: Mapping[str, float]) -> float:
    """The tree's value with the variables at `point`; NaN where it is undefined or not finite."""
    kind = tree[0]
    if kind == "num":
        value = float(tree[1])
    elif kind == "var":
        value = float(point[tree[1]])
    elif kind == "const":
        value = CONSTANTS[tree[1]]
    elif kind == "neg":
        value = -evaluate(tree[1], point)
    elif kind == "call":
        value = _apply(FUNCTIONS[tree[1]], evaluate(tree[2], point))
    else:
        value = _binary(kind, evaluate(tree[1], point), evaluate(tree[2], point))
    return value if math.isfinite(value) else math.nan


def _apply(function: Callable[[float], float], argument: float) -> float:
    if not math.isfinite(argument):
        return math.nan
    try:
        return float(function(argument))
    except (ValueError, OverflowError):
        return math.nan


def _binary(op: str, left: float, right: float) -> float:
    if not (math.isfinite(left) and math.isfinite(right)):
        return math.nan
    try:
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        if op == "/":
            return left / right
        return math.pow(left, right)
    except (ValueError, OverflowError, ZeroDivisionError):
        return math.nan


def written(tree: Node) -> str:
    """How the tree was read, every product and power written out: "2*n*(d+1)" for "2n(d+1)"."""
    kind = tree[0]
    if kind in ("num", "var", "const"):
        return tree[1]
    if kind == "call":
        return f"{tree[1]}({written(tree[2])})"
    if kind == "neg":
        operand = tree[1]
        inner = written(operand)
        return f"-({inner})" if _precedence(operand) < _PRECEDENCE["neg"] else f"-{inner}"
    left, right = tree[1], tree[2]
    if kind == "^":
        base = written(left) if _precedence(left) > _PRECEDENCE["^"] else f"({written(left)})"
        exponent = written(right) if _precedence(right) > _PRECEDENCE["^"] else f"({written(right)})"
        return f"{base}^{exponent}"
    mine = _PRECEDENCE[kind]
    # (1/2)*n rather than 1/2*n, which a reader could take for 1/(2n).
    left_needs = _precedence(left) < mine or (kind == "*" and left[0] == "/")
    left_text = f"({written(left)})" if left_needs else written(left)
    # The right side in parentheses where its own operator would bind otherwise: a-(b-c), a/(b*c), a*(-b).
    right_needs = _precedence(right) < mine or (_precedence(right) == mine and kind in "-/") or right[0] == "neg"
    right_text = f"({written(right)})" if right_needs else written(right)
    return f"{left_text}{kind}{right_text}"


def _precedence(tree: Node) -> int:
    """How tightly a tree's top binds; a leaf or a call is a unit (5)."""
    return _PRECEDENCE.get(tree[0], 5)


def variables_in(tree: Node) -> set[str]:
    if tree[0] == "var":
        return {tree[1]}
    return {name for part in tree[1:] if isinstance(part, tuple) for name in variables_in(part)}


def agrees(value: float, expected: float, atol: float, rtol: float) -> bool:
    """A learner's value at one point against the key's there (both finite, or no agreement)."""
    if not (math.isfinite(value) and math.isfinite(expected)):
        return False
    return abs(value - expected) <= atol + rtol * abs(expected)


def grade(spec: Mapping, text: str, decimal: str = ".") -> dict:
    """A typed expression against the key's values at the spec's points: correct where it agrees at every one.
    An expression that can't be read is 'unreadable', with the error's kind (`formula`) and the piece of text it
    is about (`detail`) for the page's words."""
    if not text.strip(SPACES):
        return {"status": "unanswered"}
    names = spec["variables"]
    try:
        tree = read(text, names, decimal)
    except FormulaError as error:
        return {"status": "unreadable", "formula": error.kind, "detail": error.detail}
    right = all(
        agrees(evaluate(tree, dict(zip(names, point, strict=True))), expected, spec["atol"], spec["rtol"])
        for point, expected in zip(spec["points"], spec["values"], strict=True)
    )
    return {"status": "correct" if right else "wrong", "score": 1 if right else 0, "read": written(tree)}
