"""Figures from code: a module's `values:` file computes them, author text writes `{{ name:.3f }}`.

So the numbers on a page come from the same tested code as the course's notebooks and are never typed by hand.
Each placeholder is written the way its language writes numbers: a decimal comma in Russian prose, `{,}` for
it inside Russian math, powers of ten as `·10¹²` in prose and `\\cdot 10^{12}` in math.
"""

from __future__ import annotations

import difflib
import re
import runpy
import sys
from pathlib import Path

PLACEHOLDER = re.compile(r"\{\{\s*(?P<name>[A-Za-z_]\w*)\s*(?::(?P<spec>[^}]*))?\}\}")
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


class PlaceholderError(ValueError):
    def __init__(self, message: str, offset: int, hint: str = ""):
        super().__init__(message)
        self.offset = offset
        self.hint = hint


def load_values(path: Path) -> dict[str, float]:
    """Run the values file (its folder importable, as for its notebooks) and call its `values()`."""
    sys.path.insert(0, str(path.parent))
    try:
        namespace = runpy.run_path(str(path))
        if not callable(namespace.get("values")):
            raise ValueError(f"{path.name} must define a function values() returning a dict of numbers")
        # Called with the folder still importable: values() may import the module's other files.
        result = namespace["values"]()
    finally:
        sys.path.remove(str(path.parent))
    if not isinstance(result, dict) or not all(isinstance(v, (int, float)) for v in result.values()):
        raise ValueError(f"values() in {path.name} must return a dict of names to numbers")
    return {str(name): value for name, value in result.items()}


def substitute(text: str, values: dict[str, float], lang: str) -> str:
    """`text` with every placeholder replaced; PlaceholderError (with its character offset) for a bad one."""

    def replace(match: re.Match[str]) -> str:
        name, spec = match["name"], (match["spec"] or "g").strip()
        if name not in values:
            close = difflib.get_close_matches(name, values, n=1)
            raise PlaceholderError(f"unknown value '{name}'", match.start(),
                                   f"did you mean '{close[0]}'?" if close else "values() defines: "
                                   + ", ".join(sorted(values)[:12]))
        try:
            text_value = format(values[name], spec)
        except ValueError:
            raise PlaceholderError(f"'{spec}' is not a number format", match.start(),
                                   "write a Python format such as .3f, .1%, ,.0f or .3e") from None
        return localize(text_value, lang, in_math(text, match.start()))

    return PLACEHOLDER.sub(replace, text)


def in_math(text: str, offset: int) -> bool:
    """Whether `offset` falls inside $…$ or $$…$$ (an odd number of unescaped dollars before it)."""
    before = re.sub(r"\\\$", "", text[:offset])
    return before.count("$") % 2 == 1 or before.count("$$") % 2 == 1


def localize(number: str, lang: str, math: bool) -> str:
    mantissa, _, exponent = number.partition("e")
    if lang == "ru":
        mantissa = mantissa.replace(",", "\u2009" if not math else "\\,").replace(".", "{,}" if math else ",")
    elif math:
        mantissa = mantissa.replace(",", "{,}")
    if not exponent:
        return mantissa
    power = int(exponent)
    return f"{mantissa}\\cdot 10^{{{power}}}" if math else f"{mantissa}·10{str(power).translate(_SUPERSCRIPT)}"
