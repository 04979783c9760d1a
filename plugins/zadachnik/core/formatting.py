"""Numbers written the way each page's locale writes them: on pages, and in the answers the checks grade.

One formatter for every number a page shows, from the locale's CLDR data (Babel): its decimal sign, its group
sign (a no-break or narrow no-break space in Russian and French) and its minimum grouping digits. Whatever it
writes reads back through the page's own number reader (`numbers.read_number` with the same conventions): an
integer of exactly one group is written ungrouped where the group sign is '.' or ',', since "2,100" on an
English page could be 2.1. The browser's numbers.js writes from `conventions(lang)`, which the page carries,
exactly as this module does (rounding half away from zero from the double's exact value, as JavaScript's
toFixed and toPrecision do); tests/vectors/cases.json holds both to the same texts.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal
from functools import cache
from typing import Any

from babel import Locale, UnknownLocaleError

from zadachnik.core.numbers import needed_decimals, needed_significant

MINUS = "\u2212"
# On a right-to-left page a left-to-right mark goes before a number's minus, as CLDR writes a negative number in
# Arabic and Hebrew, and before a power of ten's "·": left to the browser, "−2.5" shows as "2.5−" there and
# "6.022·10²³" as "10²³·6.022". Only there: a mark before the whole number would put a "±" or "$" written before
# it on its other side. The readers drop the marks.
LEFT_TO_RIGHT_MARK = "\u200e"
_FALLBACK = "en"
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
# Beyond these magnitudes a number is written as a power of ten: 2,12368·10¹².
_LARGE, _SMALL = 1e9, 1e-6
# Digits past what a double holds are noise (and JavaScript's toFixed stops at 100).
_MOST_DECIMALS = 20
_MOST_PLACES = 16
# Group signs the number reader knows; a locale with another (or a decimal sign other than '.' or ',', which
# comes with digits the reader does not read either) is written with a no-break space and a point.
_GROUP_SIGNS = {",", ".", " ", "\u00a0", "\u202f", "\u2009", "’", "'"}
# CLDR's minimumGroupingDigits, which Babel does not carry: these locales group only from five digits ("1000",
# "10 000"). Taken from ICU; tests/core/test_number_roundtrip.py compares it with Node's Intl for every Babel locale.
_GROUPING_FROM_FIVE = frozenset(
    "be be-BY be-TARASK bg bg-BG es es-EA es-ES es-GQ es-IC es-PH et et-EE hu hu-HU hy hy-AM ia ia-001 ie ie-EE "
    "it it-CH it-IT it-SM it-VA ka ka-GE lv lv-LV pl pl-PL pt-CH pt-CV pt-GQ pt-GW pt-LU pt-MO pt-MZ pt-PT pt-ST "
    "pt-TL ru-UA sl sl-SI sq sq-AL sq-MK sq-XK".split()
)


def conventions(lang: str) -> dict[str, Any]:
    """How a page in `lang` writes and reads numbers: {"lang", "decimal", "group", "minimum_grouping", "rtl"}
    ("rtl": the language is written right to left, and a number's minus and power of ten are marked in it).

    The page carries it (the runtime strings' "number") so that the browser writes and reads as Python does."""
    return dict(_conventions(lang))


@cache
def _conventions(lang: str) -> dict[str, Any]:
    tag = lang.replace("_", "-")
    try:
        locale = Locale.parse(tag, sep="-")
    except (UnknownLocaleError, ValueError):
        locale = Locale.parse(_FALLBACK)
    symbols = locale.number_symbols
    # Babel 2.14 keys the symbols by numbering system; the reader reads Latin digits only.
    latin = symbols["latn"] if "latn" in symbols else symbols
    decimal, group = latin.get("decimal", "."), latin.get("group", ",")
    if decimal not in ".," or group not in _GROUP_SIGNS or group == decimal:
        decimal, group = ".", "\u00a0"
    return {"lang": lang, "decimal": decimal, "group": group,
            "minimum_grouping": 2 if tag in _GROUPING_FROM_FIVE else 1, "rtl": locale.text_direction == "rtl"}


def format_number(value: float, lang: str, decimals: int | None = None, group: bool = True) -> str:
    """`value` as a page in `lang` writes it; trailing zeros dropped, "−" for minus.

    `decimals` rounds to that many places (None: to ten significant digits); `group` groups the integer part
    as the locale does (but never a single group behind '.' or ',')."""
    return write_number(value, conventions(lang), decimals, group)


def write_number(value: float, convention: dict[str, Any], decimals: int | None = None, group: bool = True,
                 significant: int = 10, zeros: bool = False) -> str:
    """`format_number` with the conventions themselves (numbers.js's writeNumber); without `decimals`, rounded
    to `significant` digits. `zeros` keeps the trailing zeros of a rounding: 2.38095 to four places is 2.3810."""
    text = _written(value, convention, decimals, group, significant, zeros)
    return left_to_right(text) if convention.get("rtl") else text


def left_to_right(text: str) -> str:
    """A written number that keeps its order in right-to-left text: its minus and its power of ten marked."""
    marked = text.replace("·10", LEFT_TO_RIGHT_MARK + "·10")
    return LEFT_TO_RIGHT_MARK + marked if marked.startswith(MINUS) else marked


def _written(value: float, convention: dict[str, Any], decimals: int | None, group: bool, significant: int,
             zeros: bool) -> str:
    if not math.isfinite(value):
        return "NaN" if math.isnan(value) else "∞" if value > 0 else MINUS + "∞"
    if value and not _SMALL <= abs(value) < _LARGE:
        mantissa, exponent = _power_of_ten(value, decimals, significant)
        return _localized(mantissa, convention, False, zeros) + "·10" + str(exponent).translate(_SUPERSCRIPT)
    return _localized(_positional(value, decimals, significant), convention, group, zeros)


def shown_exactly(value: float, decimals: int | None = None, significant: int = 10) -> bool:
    """Whether `write_number(value, …, decimals, significant=…)` writes `value` itself, not a rounding of it:
    compared as doubles, so 0.1 is exact and 16/7 is not."""
    if not math.isfinite(value):
        return False
    if value and not _SMALL <= abs(value) < _LARGE:
        mantissa, exponent = _power_of_ten(value, decimals, significant)
        return float(f"{mantissa}e{exponent}") == value
    return float(_positional(value, decimals, significant)) == value


def _positional(value: float, decimals: int | None, significant: int) -> str:
    """The digits as JavaScript's toPrecision(significant) or toFixed(decimals) gives them, without exponent."""
    exact = Decimal(value)
    if decimals is None:
        rounded = Context(prec=significant, rounding=ROUND_HALF_UP).plus(exact)
    else:
        places = min(max(0, decimals), _MOST_DECIMALS)
        # Room for every digit: a double's integer part has up to 309 of them.
        rounded = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP, context=Context(prec=400))
    return f"{rounded:f}"


def _power_of_ten(value: float, decimals: int | None, significant: int) -> tuple[str, int]:
    """Mantissa digits and exponent, as JavaScript's toExponential(places) gives them."""
    exact = Decimal(value)
    if decimals is None:
        places = significant - 1
    else:
        exponent = Context(prec=17, rounding=ROUND_HALF_UP).plus(exact).adjusted()
        places = min(max(0, decimals + exponent), _MOST_PLACES)
    rounded = Context(prec=places + 1, rounding=ROUND_HALF_UP).plus(exact)
    sign, digits, _ = rounded.as_tuple()
    text = "".join(map(str, digits)).ljust(places + 1, "0")
    return ("-" if sign else "") + text[0] + "." + text[1:], rounded.adjusted()


def _localized(text: str, convention: dict[str, Any], group: bool, zeros: bool = False) -> str:
    """Plain digits ("-1234.5600") in the locale's way: its decimal sign, its groups, "−"; no trailing zeros
    unless `zeros`."""
    negative = text.startswith("-")
    whole, _, fraction = text.lstrip("-").partition(".")
    if not zeros:
        fraction = fraction.rstrip("0")
    if not fraction.strip("0") and not whole.strip("0"):
        negative = False  # −0 is 0, and −0.00 is 0.00
    if group:
        whole = convention["group"].join(digit_groups(whole, convention, bool(fraction)))
    return (MINUS if negative else "") + whole + (convention["decimal"] + fraction if fraction else "")


def digit_groups(whole: str, convention: dict[str, Any], has_fraction: bool) -> list[str]:
    """An integer part's digits in the groups the locale writes ("13983816" → 13, 983, 816), or whole."""
    if len(whole) < 3 + convention["minimum_grouping"]:
        return [whole]
    # "2,100" with one group could be read as 2.1: such an integer is written ungrouped where the group sign is
    # '.' or ',' (the reader calls that text ambiguous); "2,629.07" and "13,983,816" can only be grouping.
    if convention["group"] in ".," and len(whole) <= 6 and not has_fraction:
        return [whole]
    head = len(whole) % 3 or 3
    return [whole[:head]] + [whole[start:start + 3] for start in range(head, len(whole), 3)]


@cache
def percent_affixes(lang: str) -> tuple[str, str]:
    """What the locale writes before and after a percentage's number: ("", "%") in English, ("", " %") with a
    no-break space in Russian, German, French and Spanish."""
    try:
        pattern = Locale.parse(lang.replace("_", "-"), sep="-").percent_formats[None]
    except (UnknownLocaleError, ValueError, KeyError):
        return "", "%"
    return pattern.prefix[0], pattern.suffix[0]


def rounded_answer(value: float, atol: float | None, rtol: float | None, lang: str) -> str:
    """A numeric answer as the page reveals it: rounded to what its tolerance resolves. An absolute tolerance
    asks for decimals, and the answer shows them all, zeros included, whether the rounding changed it or not
    (≈ 2.3810 and 2.2000 to ±0.0001, as a statement asking for four decimals wants them; `answer_shown_exactly`
    tells which is a rounding). With only a relative tolerance the digits it resolves are shown without zeros
    to fill them (1.5 to ±0.1%)."""
    return write_number(value, conventions(lang), shown_decimals(atol, rtol, value), zeros=bool(atol))


def answer_shown_exactly(value: float, atol: float | None, rtol: float | None) -> bool:
    """Whether the revealed answer (`rounded_answer`) is the answer itself, so the page writes no "≈"."""
    return shown_exactly(value, shown_decimals(atol, rtol, value))


def shown_decimals(atol: float | None, rtol: float | None, value: float) -> int | None:
    """Enough decimals to show an answer to its tolerance: ±0.005 → 2, ±1e-6 → 6; None when exact.

    The same rule tells a learner's reading that it was typed too coarsely (`numbers.too_coarse`)."""
    if atol:
        return needed_decimals(atol)
    if rtol and value:
        significant = needed_significant(rtol)
        # Negative for large values: 8.4·10²² to three significant digits needs −20 decimals.
        return significant - 1 - math.floor(math.log10(abs(value)))
    return None
