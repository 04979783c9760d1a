"""Figures from code: a module's `values:` file computes them, author text writes `{{ name:.3f }}`.

So the numbers on a page come from the same tested code as the course's notebooks and are never typed by hand.
The format's type and precision (`.3f`, `.1%`, `.3e`, `g`) round the figure, and the page's locale writes it
(`zadachnik.core.formatting`): its decimal sign, and with `,` (or `_`) in the format its digit groups, so that
what a page prints reads back in its fields. Inside math a decimal comma is `{,}` (a bare comma is
punctuation to TeX, which would space it), a comma group too, a space group `\\,`, the minus `-`, a percent
sign `\\%`; powers of ten are `·10¹²` in prose and `\\cdot 10^{12}` in math.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable
from pathlib import Path

from zadachnik.core.formatting import MINUS, conventions, digit_groups, percent_affixes

PLACEHOLDER = re.compile(r"\{\{\s*(?P<name>[A-Za-z_]\w*)\s*(?::(?P<spec>[^}]*))?\}\}")
# What an author began as a placeholder: two braces, a space and a name (TeX's `{{n}^2}` has no space).
_BEGUN = re.compile(r"\{\{[ \t]+[A-Za-z_]")
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
# Where a Python format spec has its grouping option:
# [[fill]align][sign][z][#][0][width][grouping][.precision][type]
_FORMAT_SPEC = re.compile(r"(?:.?[<>=^])?[-+ ]?z?#?0?[0-9]*(?P<grouping>[,_])?(?:\.[0-9]+)?[A-Za-z%]?\Z", re.DOTALL)
# The number in what format() wrote (padding around it stays as written).
_FORMATTED = re.compile(r"(?P<sign>[-+]?)(?P<whole>[0-9]+)(?:\.(?P<fraction>[0-9]*))?(?:[eE](?P<exponent>[-+]?[0-9]+))?"
                        r"(?P<percent>%?)")


class PlaceholderError(ValueError):
    def __init__(self, message: str, offset: int, hint: str = ""):
        super().__init__(message)
        self.offset = offset
        self.hint = hint


# A values file computes figures for text; a minute is far beyond what that needs.
VALUES_TIME_LIMIT = 60.0


class ValuesError(ValueError):
    def __init__(self, message: str, hint: str = "values() must return a dict of names to numbers",
                 file: Path | None = None, line: int = 0):
        super().__init__(message)
        self.hint = hint
        # Where to fix it, when that is a line of the module's code rather than module.yml's 'values:'.
        self.file = file
        self.line = line


# Python refuses such a file before it runs: its own line is the place to fix, not module.yml.
_SYNTAX_ERRORS = {"SyntaxError": "", "IndentationError": "", "TabError": "indent with spaces only"}


def load_values(path: Path, base: Path | None = None, optional: bool = False) -> dict[str, float]:
    """Run the values file (its folder importable, as for its notebooks) and call its `values()`, in the build's
    Python runner as reference solutions are run: with a time limit and a memory limit, where an exit or a crash
    of the author's code is an error of its file and line, never the end of the build. `base` is the folder
    the places in messages are written from (the module's folder); by default the file's own. `optional`: a
    file without values() (one that defines variant functions only) gives no values."""
    from zadachnik.python.runner import run_isolated

    base = base or path.parent
    # The runner ends whatever the file started once its run is over, and stays for the checks that follow.
    request: dict[str, object] = {"path": str(path.resolve())}
    if optional:
        request["optional"] = True
    result = run_isolated("values", request, VALUES_TIME_LIMIT)
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
    if error.get("type") in _SYNTAX_ERRORS and error.get("file"):
        raise ValuesError(f"Python syntax error: {error.get('message') or error['type']} ({error['type']})",
                          _SYNTAX_ERRORS[error["type"]], Path(error["file"]), error.get("line") or 1)
    if "type" in error:
        message = error.get("message") or error["type"]
        raise ValuesError(f"{message} ({error['type']}{place})")
    raise ValuesError(error.get("text") or "the values file failed")


def shown_from(path: Path, base: Path) -> str:
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return str(path)


def unfinished_placeholder(text: str) -> PlaceholderError | None:
    """A placeholder begun but not ended as one (`{{ x.2f }}`, `{{ x:.2f }`), which the page would show as
    written."""
    for begun in _BEGUN.finditer(text):
        if not PLACEHOLDER.match(text, begun.start()):
            written = text[begun.start():].split("\n", 1)[0]
            written = written[:written.find("}}") + 2] if "}}" in written else written[:20]
            return PlaceholderError(f"'{written}' is not a whole placeholder", begun.start(),
                                    "write {{ name }} or {{ name:FORMAT }}, e.g. {{ ratio:.2f }}")
    return None


def placeholder_without_values(text: str) -> PlaceholderError | None:
    """A placeholder in the text of a module whose module.yml names no values file: nothing would fill it."""
    found = PLACEHOLDER.search(text)
    if found is None:
        return None
    return PlaceholderError(f"'{found.group()}' is a figure from code, but module.yml names no values file",
                            found.start(), "add 'values: values.py' to module.yml, a file in the module's folder "
                            "whose values() returns the figures by name")


def substitute(text: str, values: dict[str, float], lang: str) -> str:
    """`text` with every placeholder replaced; PlaceholderError (with its character offset) for a bad one.
    An approximation sign right before a placeholder (`\\approx{{ x:.2f }}`, `≈ {{ x }}`) becomes `=` where the
    figure is shown exactly: a variant's figures may be round for one draw and not for another."""
    matches = list(PLACEHOLDER.finditer(text))
    in_math = math_offsets(text, [match.start() for match in matches])
    pieces: list[str] = []
    done = 0
    for match in matches:
        name, spec = match["name"], (match["spec"] or "g").strip()
        if name not in values:
            close = difflib.get_close_matches(name, values, n=1)
            raise PlaceholderError(f"unknown value '{name}'", match.start(),
                                   f"did you mean '{close[0]}'?" if close else "values() defines: "
                                   + ", ".join(sorted(values)[:12]))
        try:
            number = localize(values[name], spec, lang, match.start() in in_math)
        except ValueError:
            raise PlaceholderError(f"'{spec}' is not a number format", match.start(),
                                   "write a Python format such as .3f, .1%, ,.0f or .3e") from None
        before = text[done:match.start()]
        sign = _APPROX_BEFORE.search(before)
        if sign is not None and shown_exactly(values[name], spec):
            before = before[:sign.start()] + "=" + sign["space"]
        pieces += [before, number]
        done = match.end()
    return "".join(pieces) + text[done:]


# An approximation sign and the space after it, ending the text before a placeholder.
_APPROX_BEFORE = re.compile(r"(?:\\approx(?![A-Za-z])|≈)(?P<space>[ \t~\u00a0]*)\Z")


def shown_exactly(value: float, spec: str) -> bool:
    """Whether `value` written with the format `spec` is the value itself, not a rounding of it."""
    shape = _FORMAT_SPEC.match(spec)
    plain = spec[:shape.start("grouping")] + spec[shape.end("grouping"):] if shape and shape["grouping"] else spec
    try:
        number = _FORMATTED.search(format(value, plain))
    except ValueError:
        return False
    if number is None:
        return False
    read = float(number[0].rstrip("%")) / (100 if number["percent"] else 1)
    # A percent divided back by 100 may differ in its last bit; no rounding a format does is that small.
    return math.isclose(read, value, rel_tol=1e-12, abs_tol=0.0)


# A dollar, or an escaped one: the escape is not math's and does not end a run of dollars either.
_DOLLAR = re.compile(r"\\\$|\$")


def math_offsets(text: str, offsets: Iterable[int]) -> set[int]:
    """Those of `offsets` (in increasing order) inside $…$ or $$…$$: an odd number of unescaped dollars comes
    before them, or of `$$` pairs among those dollars (a run of them, escaped ones left out, gives one pair for
    each two). One forward scan, so a text with many placeholders costs its length, not length × placeholders."""
    inside: set[int] = set()
    dollars = pairs = run = 0
    run_end = 0
    tokens = _DOLLAR.finditer(text)
    token = next(tokens, None)
    for offset in offsets:
        while token is not None and token.start() < offset:
            if token.start() != run_end:
                run = 0
            if token[0] == "$":
                dollars, run = dollars + 1, run + 1
                pairs += run % 2 == 0
            run_end = token.end()
            token = next(tokens, None)
        if dollars % 2 == 1 or pairs % 2 == 1:
            inside.add(offset)
    return inside


def in_math(text: str, offset: int) -> bool:
    """Whether `offset` falls inside $…$ or $$…$$."""
    return offset in math_offsets(text, [offset])


def localize(value: float, spec: str, lang: str, math: bool) -> str:
    """`value` rounded as the Python format `spec` says and written as the page in `lang` writes numbers (in
    TeX when `math`); ValueError for a spec that is not a number format."""
    shape = _FORMAT_SPEC.match(spec)
    grouping = shape is not None and shape["grouping"] is not None
    # format() rounds; its own grouping (always ',') is left out, the locale groups instead.
    written = format(value, spec[:shape.start("grouping")] + spec[shape.end("grouping"):] if grouping else spec)
    number = _FORMATTED.search(written)
    if number is None:  # nan, inf
        return written
    convention = conventions(lang)
    whole, fraction = number["whole"], number["fraction"]
    groups = digit_groups(whole, convention, bool(fraction)) if grouping else [whole]
    if math:
        group_sign = {",": "{,}", ".": "."}.get(convention["group"], "\\,")
        text = group_sign.join(groups) + ((("{,}" if convention["decimal"] == "," else ".") + fraction)
                                          if fraction is not None else "")
        sign = number["sign"]
    else:
        text = convention["group"].join(groups) + (convention["decimal"] + fraction if fraction is not None else "")
        sign = MINUS if number["sign"] == "-" else number["sign"]
    if number["exponent"]:
        power = int(number["exponent"])
        text += f"\\cdot 10^{{{power}}}" if math else f"·10{str(power).translate(_SUPERSCRIPT)}"
    if number["percent"]:
        prefix, suffix = percent_affixes(lang)
        if math:
            prefix, suffix = (_math_percent(prefix), _math_percent(suffix))
        text = prefix + text + suffix
    return written[:number.start()] + sign + text + written[number.end():]


def _math_percent(affix: str) -> str:
    """A percent sign and its spacing in TeX: `%` starts a comment there."""
    return re.sub(r"\s", r"\\,", affix).replace("%", "\\%")
