"""How a learner's typed number is read: the reference for the browser's `assets/js/numbers.js`.

Both follow tests/vectors/README.md and are held to the same cases (tests/vectors/cases.json). A page reads
with its locale's conventions (`zadachnik.core.formatting.conventions`, carried by the page for the browser):
its own way of writing is always accepted, and a text that its locale makes ambiguous ("1,538" on an English
page) is never guessed. Without conventions (an author's checker run in the browser's worker, which gets
only what the page's reader let through) no sign is a group sign.

Reading takes time linear in the text's length: no pattern here backtracks over a run it has already scanned
(a learner's paste of 100 000 spaces used to take a minute), and texts past MAX_LENGTH are not read at all.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

# Longer texts are refused unread (error `too_long`), counted in code points as typed, spaces included.
MAX_LENGTH = 200_000
_GROUP_SPACES = "\u0020\u00a0\u2009\u202f"
# Group signs a locale may use besides '.', ',' and spaces (Swiss German's 1’234): read like spaces.
_OTHER_GROUP_SIGNS = "’'"
# JavaScript's \s (and what its trim() removes), spelled out: Python's own idea of whitespace is wider
# (\x1c-\x1f, \x85), so neither str.strip() nor \s is used bare.
_SPACE_CHARS = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
_SPACE = re.escape(_SPACE_CHARS)
_ANY_SPACE = re.compile(f"[{_SPACE}]")
_SPACE_RUN = re.compile(f"[{_SPACE}]+")
_OPERATORS = "/*·×^"
# Pages write powers of ten with superscripts (2,12·10¹²); a learner may copy that.
_SUPERSCRIPT_POWER = re.compile(r"10([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)\Z")
_FROM_SUPERSCRIPT = str.maketrans("⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹", "-+0123456789")
# ASCII digits only, as in JavaScript: full-width digits are not read as numbers. Thousands grouped by spaces
# (or by the page's own other group sign) are followed by nothing, a decimal sign, an exponent or an operator.
_AFTER_GROUPS = "(?=\\Z|[.eE/*·×x])"
_SPACE_GROUPED = {sign: re.compile(rf"^([+-]?)([0-9]{{1,3}}(?:[{_GROUP_SPACES}{sign}][0-9]{{3}})+){_AFTER_GROUPS}")
                  for sign in ("", *_OTHER_GROUP_SIGNS)}
# Thousands written with '.' or ',', before the other sign as the decimal one ("2,629.07", "2.629,07")…
_GROUPED_BEFORE = {sign: re.compile(rf"^([+-]?)([1-9][0-9]{{0,2}}(?:{re.escape(sign)}[0-9]{{3}})+)(?=[.,])")
                   for sign in ".,"}
# …or repeated, without one ("13,983,816"). A first group never starts with 0: "0,123,456" is no number.
_GROUPED_ONLY = {sign: re.compile(rf"^([+-]?)([1-9][0-9]{{0,2}}(?:{re.escape(sign)}[0-9]{{3}}){{2,}})(?=\Z|[eE/*·×x])")
                 for sign in ".,"}
# One group sign of the page's own before three digits: a thousands group, or a decimal sign elsewhere.
_AMBIGUOUS = {sign: re.compile(rf"^([+-]?)([1-9][0-9]{{0,2}}){re.escape(sign)}([0-9]{{3}})\Z") for sign in ".,"}
_MANTISSA = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_DECIMAL = re.compile(rf"^([+-]?)({_MANTISSA})(?:[eE]([+-]?[0-9]+))?\Z")
_TIMES_TEN = re.compile(rf"^([+-]?)(?:({_MANTISSA})[*·×x])?10\^([+-]?[0-9]+)\Z")
_FRACTION = re.compile(rf"^([+-]?)({_MANTISSA})/({_MANTISSA})\Z")
# Exponents are clamped for the digit count only, so absurd ones can't blow up integer conversion.
_EXPONENT_LIMIT = 10**9
# A decimal digit of another script (`\d` is Unicode's Nd), and the full-width forms of ASCII's printable signs.
_OTHER_DIGIT = re.compile(r"(?![0-9])\d")
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}

Reading = dict[str, Any]


_DIRECTION_MARKS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def read_number(text: str, conventions: Mapping[str, Any] | None = None) -> Reading:
    """{"value", "decimals", "significant"} or {"value", "fraction": True}, or {"error": kind}; for a text the
    page's locale makes ambiguous, {"error": "ambiguous", "grouped", "decimal"}: both readings' values."""
    if len(text) > MAX_LENGTH:
        return {"error": "too_long"}
    # str.strip, not a regex: a pattern like `\s+$` would retry from every space of a long inner run (quadratic).
    # Direction marks go first (README rule 2b): right-to-left text, and numbers copied from it, carry them.
    s = without_direction_marks(text).strip(_SPACE_CHARS)
    if not s:
        return {"error": "empty"}
    group_sign = (conventions or {}).get("group", "")
    s = _keyboard(s, (conventions or {}).get("decimal", "."))
    s = s.replace("\u2212", "-")
    s = _SUPERSCRIPT_POWER.sub(lambda m: "10^" + m.group(1).translate(_FROM_SUPERSCRIPT), s)
    s = _SPACE_RUN.sub(_drop_by_operator, s)
    separated = _separators(s, group_sign)
    if isinstance(separated, dict):
        return separated
    s = separated
    grouped = _SPACE_GROUPED[group_sign if group_sign in _OTHER_GROUP_SIGNS else ""].match(s)
    if grouped:
        digits = re.sub(f"[{_GROUP_SPACES}{_OTHER_GROUP_SIGNS}]", "", grouped.group(2))
        s = grouped.group(1) + digits + s[grouped.end():]
    if _ANY_SPACE.search(s):
        return {"error": "unreadable"}
    return _read_form(s)


def typed_ascii(text: str, decimal_sign: str) -> str:
    """A learner's text without direction marks and with what their keyboard typed in ASCII (README rules 2b, 2a):
    as the formula reader reads it too."""
    return _keyboard(without_direction_marks(text), decimal_sign)


def without_direction_marks(text: str) -> str:
    """`text` without the direction marks right-to-left text carries (README rule 2b)."""
    return _DIRECTION_MARKS.sub("", text)


def _keyboard(s: str, decimal_sign: str) -> str:
    """What the learner's own keyboard typed, in ASCII (README rule 2a): other scripts' digits, full-width forms,
    and the Arabic separators as the page's decimal sign and as a group."""
    s = _OTHER_DIGIT.sub(lambda digit: str(unicodedata.decimal(digit.group())), s.translate(_FULL_WIDTH))
    return s.replace("\u066b", decimal_sign).replace("\u066c", "\u2009")


def _separators(s: str, group_sign: str) -> str | Reading:
    """`s` with thousands groups written with '.' or ',' taken out and its decimal sign made '.', or the error.

    Both signs: the last is the decimal sign, and every other must group the leading digits by threes. One sign
    repeated groups by threes, or the text is unreadable. One sign once is the decimal sign, unless it is the
    page's group sign and could be one: then the text is ambiguous."""
    last_point, last_comma = s.rfind("."), s.rfind(",")
    if last_point >= 0 and last_comma >= 0:
        decimal, group = (".", ",") if last_point > last_comma else (",", ".")
        grouped = _GROUPED_BEFORE[group].match(s)
        rest = s[grouped.end():] if grouped else ""
        if not grouped or group in rest or rest.count(decimal) != 1:
            return {"error": "separators"}
        return grouped.group(1) + grouped.group(2).replace(group, "") + rest.replace(decimal, ".")
    sign = "." if last_point >= 0 else "," if last_comma >= 0 else ""
    if not sign:
        return s
    if s.count(sign) > 1:
        grouped = _GROUPED_ONLY[sign].match(s)
        if grouped and sign not in s[grouped.end():]:
            return grouped.group(1) + grouped.group(2).replace(sign, "") + s[grouped.end():]
        return s.replace(",", ".")
    if sign == group_sign:
        ambiguous = _AMBIGUOUS[sign].match(s)
        if ambiguous:
            negative, whole, thousands = ambiguous.groups()
            return {"error": "ambiguous", "grouped": float(f"{negative}{whole}{thousands}"),
                    "decimal": float(f"{negative}{whole}.{thousands}")}
    return s.replace(",", ".")


def _drop_by_operator(run: re.Match[str]) -> str:
    """Spaces next to / * · × ^ go; any others stay, for the thousands groups or the unreadable check. Each run
    is matched once, whole, and its neighbours looked at: linear, where a pattern of spaces, operator, spaces
    would rescan a long run of spaces from each of its spaces."""
    s, start, end = run.string, run.start(), run.end()
    by_operator = (start > 0 and s[start - 1] in _OPERATORS) or (end < len(s) and s[end] in _OPERATORS)
    return "" if by_operator else run.group()


def _read_form(s: str) -> Reading:
    match = _FRACTION.match(s)
    if match:
        sign, numerator_text, denominator_text = match.groups()
        numerator, denominator = float(numerator_text), float(denominator_text)
        if denominator == 0 and not denominator_text.strip("0."):
            return {"error": "zero_division"}
        # A part no double holds: 16/7777…7 is not 16/∞ = 0, and 1/0.000…01 did not divide by zero.
        if denominator == 0 or not (math.isfinite(numerator) and math.isfinite(denominator)):
            return {"error": "too_large"}
        value = numerator / denominator
        return _finite({"value": -value if sign == "-" else value, "fraction": True})
    match = _DECIMAL.match(s)
    if match:
        sign, mantissa, exponent = match.groups()
        return _decimal(sign, mantissa, exponent or "0")
    match = _TIMES_TEN.match(s)
    if match:
        sign, mantissa, exponent = match.groups()
        return _decimal(sign, mantissa or "1", exponent)
    return {"error": "unreadable"}


def _decimal(sign: str, mantissa: str, exponent_text: str) -> Reading:
    value = float(f"{sign}{mantissa}e{exponent_text}")
    digits_only = exponent_text.lstrip("+-").lstrip("0") or "0"
    magnitude = int(digits_only) if len(digits_only) < 10 else _EXPONENT_LIMIT
    exponent = -min(magnitude, _EXPONENT_LIMIT) if exponent_text.startswith("-") else min(magnitude, _EXPONENT_LIMIT)
    fraction = mantissa.split(".")[1] if "." in mantissa else ""
    digits = mantissa.replace(".", "").lstrip("0")
    return _finite({"value": value, "decimals": len(fraction) - exponent, "significant": len(digits)})


def _finite(reading: Reading) -> Reading:
    return reading if math.isfinite(reading["value"]) else {"error": "too_large"}


# How far past a tolerance a value may be and still count: decimal bounds stay inclusive despite binary rounding,
# and an exact answer's revealed rounding (ten significant digits) is accepted. numbers.js has the same rule.
RELATIVE_SLACK = 1e-9


def slack(answer: float, value: float, atol: float) -> float:
    return RELATIVE_SLACK * max(abs(answer), abs(value), atol)


def within(value: float, answer: float, atol: float, rtol: float) -> bool:
    """Inclusive tolerance check, with `slack`."""
    difference = abs(value - answer)
    allowed = slack(answer, value, atol)
    return difference <= atol + allowed or difference <= rtol * abs(answer) + allowed


def too_coarse(reading: Reading, answer: float, atol: float, rtol: float) -> bool:
    """PrairieLearn's precision warning: the reading was typed with fewer digits than the tolerance needs, and
    it is the answer rounded to the learner's last digit. Otherwise more digits would not help: it is just
    wrong ("12" for 84 with atol 1e-6 must not be told to type "12.000000")."""
    if reading.get("fraction"):
        return False
    if atol > 0:
        coarse = reading["decimals"] < needed_decimals(atol)
    elif rtol > 0:
        coarse = reading["significant"] < needed_significant(rtol)
    else:
        return False
    return coarse and within(reading["value"], answer, half_unit(reading["decimals"]), 0)


def half_unit(decimals: int) -> float:
    """Half a unit of the last typed digit: 2 decimals → 0.005, −1 (8e1) → 5. Parsed from text, as the
    browser does, so both get the same double (a power computed in floating point might not)."""
    return float(f"5e{-decimals - 1}")


def needed_decimals(atol: float) -> int:
    """Decimals that resolve an absolute tolerance: ±0.005 → 2, ±1e-6 → 6."""
    return max(0, -math.floor(math.log10(2 * atol)))


def needed_significant(rtol: float) -> int:
    """Significant digits that resolve a relative tolerance: ±1% → 3, ±0.1% → 4."""
    return max(1, -math.floor(math.log10(2 * rtol))) + 1


def grade_field(field: dict[str, Any], text: str, conventions: Mapping[str, Any] | None = None) -> dict[str, Any]:
    reading = read_number(text, conventions)
    if "error" in reading:
        # An ambiguous text keeps both readings, for the message that names them.
        return {"status": "unreadable", **reading}
    atol, rtol = field.get("atol") or 0, field.get("rtol") or 0
    if within(reading["value"], field["answer"], atol, rtol):
        return {"status": "correct", "value": reading["value"]}
    precision = too_coarse(reading, field["answer"], atol, rtol)
    return {"status": "wrong", "value": reading["value"], "precision": precision}
