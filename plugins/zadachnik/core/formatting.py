"""Numbers written the way each language writes them: on pages, and in the answers the checks grade."""

from __future__ import annotations

import math

from zadachnik.core.numbers import needed_decimals, needed_significant

# Decimal point, thousands separator, and the digit count from which thousands are grouped.
_SEPARATORS = {"ru": (",", "\u00a0", 5), "en": (".", ",", 4)}
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
# Beyond these magnitudes a number is written as a power of ten: 2,12368·10¹².
_LARGE, _SMALL = 1e9, 1e-6


def format_number(
    value: float, lang: str, decimals: int | None = None, group: bool = True, readable: bool = False
) -> str:
    """`value` with the language's decimal separator and digit grouping; trailing zeros dropped.

    `decimals` rounds to that many places (None: up to ten significant digits); `readable` groups digits with
    no-break spaces in every language, so the text reads back through the number reader."""
    if value and not _SMALL <= abs(value) < _LARGE:
        exponent = math.floor(math.log10(abs(value)))
        places = 9 if decimals is None else max(0, decimals + exponent)
        mantissa = f"{value / 10**exponent:.{places}f}"
        if abs(float(mantissa)) >= 10:  # 9.99… rounded up to 10
            exponent += 1
            mantissa = f"{value / 10**exponent:.{places}f}"
        return _plain(mantissa, lang, group=False) + "·10" + str(exponent).translate(_SUPERSCRIPT)
    text = f"{value:.10g}" if decimals is None else f"{value:.{max(0, decimals)}f}"
    if "e" in text:
        text = f"{value:.10f}"
    return _plain(text, lang, group, readable)


def _plain(text: str, lang: str, group: bool, readable: bool = False) -> str:
    point, thousands, group_from = _SEPARATORS.get(lang, _SEPARATORS["en"])
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    whole, _, fraction = text.partition(".")
    sign = "−" if whole.startswith("-") else ""
    whole = whole.lstrip("-")
    if readable:
        # Answers must read back as typed answers, and a comma there is a decimal separator.
        thousands, group_from = "\u00a0", 5
    if group and len(whole) >= group_from:
        whole = f"{int(whole):,}".replace(",", thousands)
    return sign + whole + (point + fraction if fraction else "")


def rounded_answer(value: float, atol: float | None, rtol: float | None, lang: str) -> str:
    """A numeric answer as the page reveals it: rounded to what its tolerance resolves."""
    return format_number(value, lang, shown_decimals(atol, rtol, value), readable=True)


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
