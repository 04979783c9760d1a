"""Figures from code: a module's `values:` file computes them, author text writes `{{ name:.3f }}`.

So the numbers on a page come from the same tested code as the course's notebooks and are never typed by hand.
Each placeholder is written the way its language writes numbers: a decimal comma in Russian prose, `{,}` for
it inside Russian math, powers of ten as `·10¹²` in prose and `\\cdot 10^{12}` in math.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

PLACEHOLDER = re.compile(r"\{\{\s*(?P<name>[A-Za-z_]\w*)\s*(?::(?P<spec>[^}]*))?\}\}")
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


class PlaceholderError(ValueError):
    def __init__(self, message: str, offset: int, hint: str = ""):
        super().__init__(message)
        self.offset = offset
        self.hint = hint


# A values file computes figures for text; a minute is far beyond what that needs.
VALUES_TIME_LIMIT = 60.0


class ValuesError(ValueError):
    def __init__(self, message: str, hint: str = "values() must return a dict of names to numbers"):
        super().__init__(message)
        self.hint = hint


def load_values(path: Path, base: Path | None = None) -> dict[str, float]:
    """Run the values file (its folder importable, as for its notebooks) and call its `values()`, in the build's
    Python runner as reference solutions are run: with a time limit and a memory limit, where an exit or a crash
    of the author's code is an error of its file and line, never the end of the build. `base` is the folder
    the places in messages are written from (the module's folder); by default the file's own."""
    from zadachnik.python.runner import run_isolated

    base = base or path.parent
    # The runner ends whatever the file started once its run is over, and stays for the checks that follow.
    result = run_isolated("values", {"path": str(path.resolve())}, VALUES_TIME_LIMIT)
    if "values" in result:
        return result["values"]
    if "timeout" in result:
        raise ValuesError(f"{shown_from(path, base)} did not finish within {result['timeout']:g} s",
                          "values() computes figures for the text: make it faster")
    error = result.get("error") or {}
    place = f" at {shown_from(Path(error['file']), base)}:{error['line']}" if error.get("file") else ""
    code = error.get("code")
    if code == "exit":
        raise ValuesError(f"{shown_from(path, base)} exits the process ({error['text']}{place})",
                          "a values file defines values() and returns: remove the exit")
    if code == "no_input":
        raise ValuesError(f"{shown_from(path, base)} reads input{place}", "a values file reads no input")
    if code == "died":
        raise ValuesError(f"{shown_from(path, base)} crashed the Python process running it ({error['message']})",
                          "it may use too much memory (the build gives it 2 GiB), or end the process itself")
    if "type" in error:
        message = error.get("message") or error["type"]
        raise ValuesError(f"{message} ({error['type']}{place})")
    raise ValuesError(error.get("text") or "the values file failed")


def shown_from(path: Path, base: Path) -> str:
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return str(path)


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
