"""Write cases.json: the shared grading vectors, from hand-written tables.

Every expected result below was decided by hand from the rules in README.md; nothing here imports the
plugin. A value is the double of a decimal text (`float`) or the double division of a fraction's two parts.
The script only checks its own tables for consistency before writing (a typo in a hand-written row stops it),
then prints the counts.

Run: python tests/vectors/make_cases.py
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent

MINUS = "\u2212"  # − minus sign
NBSP = "\u00a0"  # no-break space
THIN = "\u2009"  # thin space
NNBSP = "\u202f"  # narrow no-break space
DOT = "\u00b7"  # · middle dot
LRM = "\u200e"  # left-to-right mark: before a minus and a power of ten's dot in right-to-left text
LRI, PDI = "\u2066", "\u2069"  # a left-to-right isolate and its end, as text copied from a web page may carry
TIMES = "\u00d7"  # × multiplication sign
# JavaScript's \s (WhiteSpace and LineTerminator), written out from ECMA-262: what "whitespace" means here.
JS_SPACES = "\t\n\v\f\r \u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) \
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
MAX_LENGTH = 200_000  # code points, README rule 0
EXPONENT_LIMIT = 10**9  # README rule 7

# ---------------------------------------------------------------------------------------------------------
# How an input reads. A hint is one of:
#   "3.14e2"       a decimal: the plain decimal text the input stands for (sign, digits as typed, point,
#                  exponent); the value is float(text), `decimals` and `significant` are written by hand
#   ("16", "7")    a fraction: numerator and denominator texts (numerator signed); value = float(a) / float(b)
#   "!kind"        an error
# ---------------------------------------------------------------------------------------------------------

READINGS: list[tuple] = []  # (input, hint, decimals, significant)


def dec(text: str, plain: str, decimals: int, significant: int) -> None:
    READINGS.append((text, plain, decimals, significant))


def frac(text: str, num: str, den: str) -> None:
    READINGS.append((text, (num, den), None, None))


def err(text: str, kind: str) -> None:
    READINGS.append((text, "!" + kind, None, None))


# Inputs too long to write out: cases.json holds them as [piece, times] pairs (README, "Long inputs").
LONG: dict[str, list[list]] = {}


def long(*pieces: tuple[str, int]) -> str:
    text = "".join(piece * times for piece, times in pieces)
    LONG[text] = [[piece, times] for piece, times in pieces]
    return text


# --- plain decimals: dot, comma, signs ---------------------------------------------------------------------
dec("3.14", "3.14", 2, 3)
dec("3,14", "3.14", 2, 3)
dec("42", "42", 0, 2)
dec("+42", "42", 0, 2)
dec("-42", "-42", 0, 2)
dec(MINUS + "42", "-42", 0, 2)
dec("2.50", "2.50", 2, 3)
dec("2,50", "2.50", 2, 3)
dec("0.0250", "0.0250", 4, 3)
dec("0,0250", "0.0250", 4, 3)
dec(".5", ".5", 1, 1)
dec(",5", ".5", 1, 1)
dec("5.", "5.", 0, 1)
dec("5,", "5.", 0, 1)
dec("-.5", "-.5", 1, 1)
dec("+.5", ".5", 1, 1)
dec(MINUS + "0,5", "-0.5", 1, 1)
dec("+2,75", "2.75", 2, 3)
dec("007", "007", 0, 1)
dec("100", "100", 0, 3)
dec("1,234", "1.234", 3, 4)  # a lone comma is a decimal separator, not a thousands separator
dec("1.234", "1.234", 3, 4)
dec("0.1", "0.1", 1, 1)
dec("123456.789", "123456.789", 3, 9)
dec("9007199254740993", "9007199254740993", 0, 16)  # 2**53 + 1: rounds to even, 9007199254740992
dec("2.2857142857142856", "2.2857142857142856", 16, 17)
dec("-273.15", "-273.15", 2, 5)
dec("0.000120", "0.000120", 6, 3)
dec("  3.14  ", "3.14", 2, 3)
dec("\t2,5\n", "2.5", 1, 2)
dec(NBSP + "7" + NBSP, "7", 0, 1)

# --- exponents -----------------------------------------------------------------------------------------------
dec("2.12e12", "2.12e12", -10, 3)
dec("2,12E-3", "2.12e-3", 5, 3)
dec("2.12E+12", "2.12e12", -10, 3)
dec("1e3", "1e3", -3, 1)
dec("1E3", "1e3", -3, 1)
dec("1e+3", "1e3", -3, 1)
dec("1e-3", "1e-3", 3, 1)
dec("1e" + MINUS + "3", "1e-3", 3, 1)
dec("-1.5e-3", "-1.5e-3", 4, 2)
dec(MINUS + "2,5e" + MINUS + "3", "-2.5e-3", 4, 2)
dec("+6.02e23", "6.02e23", -21, 3)
dec("6,022E23", "6.022e23", -20, 4)
dec(".5e1", ".5e1", 0, 1)
dec("5.e3", "5.e3", -3, 1)
dec("1.23e-5", "1.23e-5", 7, 3)
dec("2.50e0", "2.50e0", 2, 3)
dec("0.0250e2", "0.0250e2", 2, 3)
dec("1e-400", "1e-400", 400, 1)  # underflows to 0: finite, so a value
dec("1.7976931348623157e308", "1.7976931348623157e308", -292, 17)
err("1e999", "too_large")
err("-1e999", "too_large")
err("1e309", "too_large")
err("1.8e308", "too_large")
err("9" * 400, "too_large")

# --- a decimal times a power of ten, and bare powers -----------------------------------------------------------
dec("2.12" + DOT + "10^12", "2.12e12", -10, 3)
dec("2.12" + TIMES + "10^12", "2.12e12", -10, 3)
dec("2.12*10^12", "2.12e12", -10, 3)
dec("2.12x10^12", "2.12e12", -10, 3)
dec("2,12" + DOT + "10^12", "2.12e12", -10, 3)
dec("2,12" + TIMES + "10^12", "2.12e12", -10, 3)
dec("2.12 " + DOT + " 10^12", "2.12e12", -10, 3)
dec("2.12 " + TIMES + " 10^12", "2.12e12", -10, 3)
dec("2.12 * 10^12", "2.12e12", -10, 3)
dec("2.12" + DOT + " 10^12", "2.12e12", -10, 3)
dec("2.12 *10^12", "2.12e12", -10, 3)
dec("2.12" + DOT + "10^-3", "2.12e-3", 5, 3)
dec("2,5 " + TIMES + " 10 ^ -3", "2.5e-3", 4, 2)
dec("1.23" + DOT + "10^-5", "1.23e-5", 7, 3)  # not 1.23 * 10**-5 (1.2299999999999999e-05)
dec("4.35" + TIMES + "10^-7", "4.35e-7", 9, 3)
dec("-4.5*10^6", "-4.5e6", -5, 2)
dec(MINUS + "4,5" + DOT + "10^" + MINUS + "6", "-4.5e-6", 7, 2)
dec("+3x10^8", "3e8", -8, 1)
dec("12,5" + DOT + "10^3", "12.5e3", -2, 3)
dec("0.5" + DOT + "10^2", "0.5e2", -1, 1)
dec(".5" + TIMES + "10^2", ".5e2", -1, 1)
dec("40" + DOT + "10^-1", "40e-1", 1, 2)
dec("10^-3", "1e-3", 3, 1)
dec("10^3", "1e3", -3, 1)
dec("10^0", "1e0", 0, 1)
dec("-10^3", "-1e3", -3, 1)
dec("10 ^ 6", "1e6", -6, 1)
dec("10^" + MINUS + "3", "1e-3", 3, 1)
err("10^999", "too_large")
err("2" + DOT + "10^400", "too_large")
err("-5" + TIMES + "10^309", "too_large")
err("2.12 x 10^12", "unreadable")  # spaces are ignored only next to / * · × ^, not next to x
err("10^", "unreadable")
err("2" + DOT + "10^", "unreadable")
err("2" + DOT + "10", "unreadable")
err("2" + DOT + "10^1.5", "unreadable")
err("2" + DOT + "10^3^2", "unreadable")
err("2" + DOT + "100^3", "unreadable")
err("2^10", "unreadable")
err(DOT + "10^3", "unreadable")
err("2 10^3", "unreadable")
err("2" + DOT + DOT + "10^3", "unreadable")
err("^3", "unreadable")

# --- fractions -----------------------------------------------------------------------------------------------
frac("16/7", "16", "7")
frac("4/7", "4", "7")
frac("-3/4", "-3", "4")
frac(MINUS + "3/4", "-3", "4")
frac("+3/4", "3", "4")
frac("-16/7", "-16", "7")
frac("1.5/2", "1.5", "2")
frac("1,5/2", "1.5", "2")
frac("16 / 7", "16", "7")
frac("16/ 7", "16", "7")
frac("600/390", "600", "390")
frac("0,1/0,3", "0.1", "0.3")  # the double division of the parts: 0.33333333333333337
frac(".5/.25", ".5", ".25")
frac("0/5", "0", "5")
frac("22/7", "22", "7")
frac("1/3", "1", "3")
frac("2,75/1", "2.75", "1")
frac("11/4", "11", "4")
err("1/0", "zero_division")
err("0/0", "zero_division")
err("1/0.0", "zero_division")
err("-5/0", "zero_division")
err("1/0,000", "zero_division")
err("3 / 0", "zero_division")
err("3/-4", "unreadable")
err("3/+4", "unreadable")
err("3/" + MINUS + "4", "unreadable")
err("1/2/3", "unreadable")
err("1e3/2", "unreadable")
err("1/2e3", "unreadable")
err("1/", "unreadable")
err("/2", "unreadable")
err("1//2", "unreadable")
err("(1/2)", "unreadable")
err("1.5/2,5", "separators")

# --- grouped thousands -----------------------------------------------------------------------------------------
dec("1 234", "1234", 0, 4)
dec("1 234,5", "1234.5", 1, 5)
dec("12 345 678", "12345678", 0, 8)
dec("1 234 567,5", "1234567.5", 1, 8)
dec("1" + NBSP + "234,5", "1234.5", 1, 5)
dec("1" + THIN + "234,5", "1234.5", 1, 5)
dec("1" + NNBSP + "234,5", "1234.5", 1, 5)
dec("12" + NBSP + "345" + NBSP + "678", "12345678", 0, 8)
dec("12" + THIN + "345" + THIN + "678", "12345678", 0, 8)
dec("12" + NNBSP + "345" + NNBSP + "678", "12345678", 0, 8)
dec("1 000 000", "1000000", 0, 7)
dec("-1 234,5", "-1234.5", 1, 5)
dec(MINUS + "12 345", "-12345", 0, 5)
dec("123 456.75", "123456.75", 2, 8)
dec("999 999,5", "999999.5", 1, 7)
dec(" 1 234,5 ", "1234.5", 1, 5)
err("12 34", "unreadable")
err("1 2345", "unreadable")
err("1234 567", "unreadable")
err("123 4567", "unreadable")
err("1 23", "unreadable")
err("1  234", "unreadable")
err("1\t234", "unreadable")
err("0,123 456", "unreadable")  # only the integer part may be grouped
err("1 2 3", "unreadable")
err("3 . 14", "unreadable")
err("3 ,14", "unreadable")
err("3, 14", "unreadable")
err("- 5", "unreadable")
err("2.12 e12", "unreadable")
err("1e 3", "unreadable")
err("1'000", "unreadable")
err("1_000", "unreadable")
dec("1.000.000", "1000000", 0, 7)  # one sign repeated by threes can only be grouping (README rule 4)
dec("1,000,000", "1000000", 0, 7)
err("1.000.00", "unreadable")
err("1,00,000", "unreadable")
err("0,123,456", "unreadable")

# --- both separators: the last is the decimal sign, the others group by threes (README rule 4) -----------------
dec("1,234.5", "1234.5", 1, 5)
dec("1.234,5", "1234.5", 1, 5)
dec("1.234.567,8", "1234567.8", 1, 8)
dec("-1,234.5e3", "-1234.5e3", -2, 5)
err("1,2.3", "separators")
err("1,234.567.8", "separators")
err("1,234,5.6", "separators")
err("12,34.5", "separators")
err("1 234,567.8", "separators")
err(".5,5", "separators")
err("-1,5.0", "separators")
err("3.14,15", "separators")

# --- inputs the numeric questions use ---------------------------------------------------------------------------
dec("84", "84", 0, 2)
dec("84,0", "84.0", 1, 3)
dec("85", "85", 0, 2)
dec("600", "600", 0, 3)
dec("390", "390", 0, 3)
dec("360", "360", 0, 3)
dec("4,0", "4.0", 1, 2)
dec("78,235", "78.235", 3, 5)
dec("0,5714", "0.5714", 4, 4)
err("6,0.0", "separators")
err("2629 s", "unreadable")

# --- empty -------------------------------------------------------------------------------------------------------
err("", "empty")
err("   ", "empty")
err("\t", "empty")
err("\n  \t", "empty")
err(NBSP, "empty")

# --- anything else -------------------------------------------------------------------------------------------------
for text in [
    "abc", "five", "5 kg", "5kg", "kg 5", "1,5 m", "2+2", "2-1", "1-", "2*3", "(2)", "$5", "5%",
    "1.2.3", "1,2,3", "3.14.", "--2", "++2", "+-2", "-+2", MINUS + "-2", "-" + MINUS + "2",
    "NaN", "nan", "Infinity", "-Infinity", "inf", "\u221e", "0x10", "0b101", "0o17",
    "\u00bd", "2\u00b2", "\u03c0", "\u221a2",
    "e", ".", ",", "+", "-", MINUS, "/", "e5", "E5", "2,5e", "1e", "1e+", "1e3.5", "1ee3", "1e--3", "2e3e4",
]:
    err(text, "unreadable")

# --- powers of ten in superscript, as the pages print answers ---------------------------------------------------
dec("2,12" + DOT + "10¹²", "2.12e12", -10, 3)
dec("2.12" + TIMES + "10¹²", "2.12e12", -10, 3)
dec("1" + DOT + "10⁻⁶", "1e-6", 6, 1)
dec("2" + DOT + "10⁺³", "2e3", -3, 1)
dec("10⁻³", "1e-3", 3, 1)
dec("10¹²", "1e12", -12, 1)
dec(MINUS + "4,5" + DOT + "10⁻⁶", "-4.5e-6", 7, 2)
dec("2 " + DOT + " 10²³⁴", "2e234", -234, 1)
err("2" + DOT + "10^²", "unreadable")
err("2" + DOT + "10⁻", "unreadable")
err("2" + DOT + "10⁻⁻³", "unreadable")
err("2" + DOT + "10³⁰⁹", "too_large")
err("10²x", "unreadable")

# --- the length cap: 200 000 code points as typed, surrounding spaces included (README rule 0) --------------------
dec(long(("0", 200_000)), "0" * 200_000, 0, 0)
err(long(("0", 200_001)), "too_long")
err(long((" ", 200_001)), "too_long")
dec(long(("1", 1), (" ", 199_999)), "1", 0, 1)
err(long(("1", 1), (" ", 200_000)), "too_long")
# Two UTF-16 units each: the browser must count code points, as Python does.
err(long(("\U0001d7d9", 200_000)), "too_large")  # 200 000 ones (README rule 2a)
err(long(("\U0001d7d9", 200_001)), "too_long")
err(long(("5", 1), ("\U0001f600", 100_000)), "unreadable")

# --- inputs that made the readers quadratic or wrong; each must read in time linear in its length ---------------
err(long(("1", 1), (" ", 100_000), ("1", 1)), "unreadable")
err(long(("1", 1), ("\u3000", 100_000), ("1", 1)), "unreadable")
err(long(("1", 1), (NBSP, 100_000), ("1", 1)), "unreadable")
err(long((" ", 100_000), ("x", 1)), "unreadable")
dec(long((NBSP, 100_000), ("5", 1), ("\t", 99_999)), "5", 0, 1)
err(long(("1", 1), (" /", 50_000)), "unreadable")
frac(long(("16", 1), (" ", 50_000), ("/", 1), (" ", 50_000), ("7", 1)), "16", "7")
err(long(("2", 1), (" ", 50_000), (DOT, 1), (" ", 50_000), ("10^3", 1), (" ", 1), ("x", 1)), "unreadable")
err(long(("1", 1), (" 000", 40_000), ("x", 1)), "unreadable")
err(long(("1", 1), (" 000", 40_000)), "too_large")
dec(long(("0", 1), (" 000", 40_000)), "0" * 120_001, 0, 0)
err(long(("1", 1), (" 000", 40_000), (" 00", 1)), "unreadable")
err(long(("+-", 50_000), ("1", 1)), "unreadable")
err(long((MINUS, 100_000), ("1", 1)), "unreadable")
err(long(("10", 50_000), ("⁰", 1)), "unreadable")
dec(long(("10", 1), ("⁰", 100_000)), "1e0", 0, 1)
err(long(("10", 1), ("⁰", 100_000), ("x", 1)), "unreadable")
err(long(("1", 100_000)), "too_large")
err(long(("1", 100_000), ("x", 1)), "unreadable")
err(long(("1.", 1), ("1", 100_000), ("x", 1)), "unreadable")
err(long(("1", 100_000), (DOT + "10^x", 1)), "unreadable")
dec(long(("0.", 1), ("0", 100_000), ("1", 1)), "0." + "0" * 100_000 + "1", 100_001, 1)  # underflows to 0
dec(long(("1", 1), ("0", 100_000), ("e-100000", 1)), "1" + "0" * 100_000 + "e-100000", 100_000, 100_001)
err(long(("1e", 1), ("1", 100_000), ("x", 1)), "unreadable")
err(long((".,", 50_000)), "separators")
err(long((".", 100_000)), "unreadable")
err(long(("/", 100_000)), "unreadable")
err(long(("e", 100_000)), "unreadable")

# --- exponents beyond any double; `decimals` counts an exponent as at most 10^9 (README rule 7) ------------------
err("1e999999999", "too_large")
err("-1e999999999", "too_large")
dec("1e-999999999", "1e-999999999", 999_999_999, 1)
dec("1e-9999999999", "1e-9999999999", 1_000_000_000, 1)
dec("0e999999999", "0e999999999", -999_999_999, 0)
dec("0e99999999999999999999", "0e99999999999999999999", -1_000_000_000, 0)
err("1" + DOT + "10^999999999", "too_large")
dec("1" + DOT + "10^-999999999", "1e-999999999", 999_999_999, 1)
err(long(("1e", 1), ("9", 100_000)), "too_large")
dec(long(("1e-", 1), ("9", 100_000)), "1e-" + "9" * 100_000, 1_000_000_000, 1)
dec(long(("0e", 1), ("9", 100_000)), "0e" + "9" * 100_000, -1_000_000_000, 0)
dec(long(("1e", 1), ("0", 100_000), ("3", 1)), "1e3", -3, 1)
err(long(("2" + DOT + "10^", 1), ("9", 100_000)), "too_large")
dec(long(("2" + DOT + "10^-", 1), ("9", 100_000)), "2e-" + "9" * 100_000, 1_000_000_000, 1)

# --- fractions with parts no double holds: too large, never 16/∞ = 0 (README rule 5) ----------------------------
err(long(("16/", 1), ("7", 100_000)), "too_large")
err("16/" + "7" * 400, "too_large")
err("7" * 400 + "/16", "too_large")
err("9" * 400 + "/" + "9" * 400, "too_large")
err("1/0." + "0" * 400 + "1", "too_large")  # the denominator is not zero, but its double is
err("0/0." + "0" * 400 + "1", "too_large")
err("-1/0." + "0" * 400 + "1", "too_large")
frac("0." + "0" * 400 + "1/1", "0." + "0" * 400 + "1", "1")  # a numerator that underflows reads as 0, as 1e-400 does
frac("16/" + "7" * 300, "16", "7" * 300)  # 7.8e299 is a double: the quotient is tiny, not zero
err(long(("1/", 1), ("0", 100_000)), "zero_division")
frac(long(("0", 100_000), ("/7", 1)), "0" * 100_000, "7")

# --- spaces and digits from the rest of Unicode -----------------------------------------------------------------
dec("\u30005\u3000", "5", 0, 1)  # ideographic space, as JavaScript's \s
dec("\ufeff5", "5", 0, 1)  # a byte order mark pasted in front
dec("5\u2028", "5", 0, 1)
dec("\u20005\u200a", "5", 0, 1)
for text in [
    "\x1c5", "5\x85", "5\x1f", "\u180e5", "\u200b5", "1\u2000234", "1\u205f234", "1\u3000234", "1\u2028234",
    "5\u0301", "\u00b2", "10\u00b2\u00b2x", "\u0663\u066b\u066b5", "\uff11\uff0e\uff0e5",
]:
    err(text, "unreadable")

# --- digits and signs of the learner's own keyboard (README rule 2a) --------------------------------------------
dec("\uff11\uff12\uff13", "123", 0, 3)  # full-width, as a Chinese input method types
dec("\uff11.\uff15", "1.5", 1, 2)
dec("\uff13\uff15\uff10\uff10\uff0e\uff15", "3500.5", 1, 5)
dec("\uff15\uff45\uff13", "5e3", -3, 1)
dec("\uff15e3", "5e3", -3, 1)
dec("1e\uff13", "1e3", -3, 1)
frac("1/\uff17", "1", "7")
frac("\uff11\uff0f\uff17", "1", "7")
dec("\u0663", "3", 0, 1)  # Arabic-Indic
dec("1\u0662", "12", 0, 2)
frac("\u0663/\u0664", "3", "4")
dec("\u0663\u066b\u0665", "3.5", 1, 2)  # with the Arabic decimal separator
dec("\u0663\u066c\u0665\u0660\u0660\u066b\u0665", "3500.5", 1, 5)  # and its thousands separator
dec("\u06f3\u066b\u06f5", "3.5", 1, 2)  # Persian
dec("\u0969\u096b\u0966\u0966.\u096b", "3500.5", 1, 5)  # Devanagari
dec("\U0001d7d9", "1", 0, 1)  # mathematical double-struck one
dec("\U0001d7ce\U0001d7ff", "09", 0, 1)  # the first and last of five runs of ten in a row
dec("-\u0662\u00b7\u0661\u0660^\u0663", "-2e3", -3, 1)
# Direction marks, which right-to-left text and numbers copied from it carry (README rule 2b)
dec("\u200e-2.5", "-2.5", 1, 2)  # left-to-right mark before the minus, as CLDR writes a negative number in ar, he
dec("\u061c-\u0662\u066b\u0665", "-2.5", 1, 2)  # Arabic letter mark, as ar-EG does
dec("\u2066-2.5\u2069", "-2.5", 1, 2)  # isolated
dec("\u200f1\u202a2\u202c3", "123", 0, 3)
err("\u200e\u200f", "empty")


# ---------------------------------------------------------------------------------------------------------
# Fields: (answer, atol, rtol) then rows (input, hint or None to reuse the readings table, status, precision)
# status: "c" correct, "w" wrong, "u" unreadable (the error kind comes from the hint)
# ---------------------------------------------------------------------------------------------------------

FIELDS: list[tuple] = []  # (field dict, input, hint, status, precision)


def group(field: dict, rows: list[tuple]) -> None:
    for row in rows:
        text, hint, status = row[:3]
        precision = row[3] if len(row) > 3 else None
        FIELDS.append((field, text, hint, status, precision))


def fld(answer: float, atol: float = 0.0, rtol: float = 0.0) -> dict:
    return {"answer": float(answer), "atol": float(atol), "rtol": float(rtol)}


# Decimal boundaries: |1.0 − 1.1| is 0.10000000000000009 in doubles, kept inclusive by the slack.
group(fld(1.1, atol=0.1), [
    ("1.0", "1.0", "c"),
    ("1.2", "1.2", "c"),
    ("1,2", "1.2", "c"),
    ("1", "1", "c"),
    ("1.1", "1.1", "c"),
    ("11/10", ("11", "10"), "c"),
    ("6/5", ("6", "5"), "c"),
    ("1.2000000001", "1.2000000001", "c"),
    ("1.2000001", "1.2000001", "w", False),
    ("0.9999999", "0.9999999", "w", False),
    ("0.9", "0.9", "w", False),
    ("1.3", "1.3", "w", False),
    ("1.21", "1.21", "w", False),
    ("2", "2", "w", False),
    ("13/10", ("13", "10"), "w", False),
])
group(fld(0.3, atol=0.1), [
    ("0.2", "0.2", "c"),
    ("0.4", "0.4", "c"),
    ("0,4", "0.4", "c"),
    ("0.41", "0.41", "w", False),
    ("0.19", "0.19", "w", False),
    ("1", "1", "w", False),
])
group(fld(2.5, atol=0.01), [
    ("2.49", "2.49", "c"),
    ("2.51", "2.51", "c"),
    ("2.5", "2.5", "c"),
    ("2,5", "2.5", "c"),
    ("5/2", ("5", "2"), "c"),
    ("2.5 ", "2.5", "c"),
    ("2.48", "2.48", "w", False),
    ("2.52", "2.52", "w", False),
    ("3", "3", "w", True),  # 2.5 to the nearest unit is 2 or 3: a tie counts as right at that precision
    ("2.6", "2.6", "w", False),
])
group(fld(1e6, atol=0.5), [
    ("1000000.5", "1000000.5", "c"),
    ("999 999,5", "999999.5", "c"),
    ("1 000 000", "1000000", "c"),
    ("1e6", "1e6", "c"),
    ("10^6", "1e6", "c"),
    ("1000000.6", "1000000.6", "w", False),
    ("1000001", "1000001", "w", False),
])
group(fld(0.00012, atol=1e-6), [
    ("1.2e-4", "1.2e-4", "c"),
    ("0,00012", "0.00012", "c"),
    ("0.000121", "0.000121", "c"),
    ("1.3e-4", "1.3e-4", "w", False),
    ("1.23e-4", "1.23e-4", "w", False),
    ("1,3" + DOT + "10^-4", "1.3e-4", "w", False),
])
# rtol only
group(fld(1.1, rtol=0.1), [
    ("0.99", "0.99", "c"),
    ("1.21", "1.21", "c"),
    ("1.2", "1.2", "c"),
    ("0.98", "0.98", "w", False),
    ("1.3", "1.3", "w", False),
    ("2", "2", "w", False),
    ("0.9", "0.9", "w", False),
])
group(fld(200, rtol=0.01), [
    ("202", "202", "c"),
    ("198", "198", "c"),
    ("2e2", "2e2", "c"),
    ("2,02" + DOT + "10^2", "2.02e2", "c"),
    ("202.0001", "202.0001", "w", False),
    ("203", "203", "w", False),
    ("1.97e2", "1.97e2", "w", False),
    ("2.1e2", "2.1e2", "w", False),
    ("3e2", "3e2", "w", False),
])
# both tolerances: either passing is enough; the precision warning follows atol when atol > 0
group(fld(100, atol=0.5, rtol=0.01), [
    ("100.4", "100.4", "c"),
    ("100.8", "100.8", "c"),
    ("99.2", "99.2", "c"),
    ("101", "101", "c"),
    ("101.5", "101.5", "w", False),
    ("98", "98", "w", False),
])
group(fld(0.001, atol=0.01, rtol=0.01), [
    ("0.009", "0.009", "c"),
    ("-0.005", "-0.005", "c"),
    ("0", "0", "c"),
    ("0.02", "0.02", "w", False),
    ("0.1", "0.1", "w", False),
])
group(fld(1000, atol=0.05, rtol=0.1), [
    ("1090", "1090", "c"),
    ("1000.04", "1000.04", "c"),
    ("1200", "1200", "w", False),
    ("1200.0", "1200.0", "w", False),
    ("1.2e3", "1.2e3", "w", False),
])
# zero tolerance: exact up to the slack 1e-9·max(|a|, |x|)
group(fld(16 / 7), [
    ("16/7", ("16", "7"), "c"),
    ("32/14", ("32", "14"), "c"),
    ("2.2857142857142856", "2.2857142857142856", "c"),
    ("2,2857142857142856", "2.2857142857142856", "c"),
    ("2.285714285714286", "2.285714285714286", "c"),
    ("2.2857142857", "2.2857142857", "c"),
    ("2.285714286", "2.285714286", "c"),
    ("2.28571428", "2.28571428", "w", False),
    ("2.2857", "2.2857", "w", False),
    ("2.3", "2.3", "w", False),
    ("15/7", ("15", "7"), "w", False),
    ("-16/7", ("-16", "7"), "w", False),
])
group(fld(2.75), [
    ("2.75", "2.75", "c"),
    ("2,75", "2.75", "c"),
    ("11/4", ("11", "4"), "c"),
    ("2.750", "2.750", "c"),
    ("275" + DOT + "10^-2", "275e-2", "c"),
    ("2.7500000001", "2.7500000001", "c"),
    ("2.7500001", "2.7500001", "w", False),
    ("2.7", "2.7", "w", False),
    ("2.8", "2.8", "w", False),
    ("3", "3", "w", False),
])
group(fld(4), [
    ("4", "4", "c"),
    ("4.0", "4.0", "c"),
    ("4,00", "4.00", "c"),
    ("+4", "4", "c"),
    ("4.", "4.", "c"),
    ("8/2", ("8", "2"), "c"),
    ("4e0", "4e0", "c"),
    ("0.4e1", "0.4e1", "c"),
    ("40" + DOT + "10^-1", "40e-1", "c"),
    ("3.99", "3.99", "w", False),
    ("4.01", "4.01", "w", False),
    (MINUS + "4", "-4", "w", False),
    ("5", "5", "w", False),
])
# answer 0
group(fld(0), [
    ("0", "0", "c"),
    ("0.0", "0.0", "c"),
    ("0,000", "0.000", "c"),
    ("-0", "-0", "c"),
    ("0/5", ("0", "5"), "c"),
    ("0e5", "0e5", "c"),
    ("1e-12", "1e-12", "w", False),
    ("0.001", "0.001", "w", False),
])
group(fld(0, atol=0.01), [
    ("0.01", "0.01", "c"),
    ("-0.01", "-0.01", "c"),
    ("0,005", "0.005", "c"),
    ("0.011", "0.011", "w", False),
    ("0.02", "0.02", "w", False),
    ("1", "1", "w", False),
    ("-0.1", "-0.1", "w", False),
])
group(fld(0, rtol=0.1), [
    ("0", "0", "c"),
    ("0.001", "0.001", "w", False),
    ("0.0010", "0.0010", "w", False),
    ("1e-12", "1e-12", "w", False),
])
# negative answers
group(fld(-1.5, atol=0.1), [
    ("-1.6", "-1.6", "c"),
    (MINUS + "1.4", "-1.4", "c"),
    ("-3/2", ("-3", "2"), "c"),
    (MINUS + "1,55", "-1.55", "c"),
    ("1.5", "1.5", "w", False),
    ("-1.7", "-1.7", "w", False),
    ("-1.6000001", "-1.6000001", "w", False),
    ("-2", "-2", "w", True),
    ("3/2", ("3", "2"), "w", False),
])
group(fld(-273.15, rtol=0.001), [
    ("-273", "-273", "c"),
    ("-273.4", "-273.4", "c"),
    ("-272.8", "-272.8", "w", False),
    ("-272", "-272", "w", False),
    ("-273.43", "-273.43", "w", False),
    ("273.15", "273.15", "w", False),
])
group(fld(-0.0025, atol=0.0001), [
    ("-2.5e-3", "-2.5e-3", "c"),
    (MINUS + "2,5" + DOT + "10^-3", "-2.5e-3", "c"),
    ("-0.0027", "-0.0027", "w", False),
    ("-0.003", "-0.003", "w", True),
    ("-3e-3", "-3e-3", "w", True),
    ("-2.7e-3", "-2.7e-3", "w", False),
])
# tolerance keys left out: 0 when absent
for field, rows in [
    ({"answer": 5.0, "atol": 0.5}, [("5.5", "5.5", "c"), ("5.6", "5.6", "w", False), ("6", "6", "w", False)]),
    ({"answer": 5.0}, [("5", "5", "c"), ("5.1", "5.1", "w", False)]),
    ({"answer": 50.0, "rtol": 0.1}, [("55", "55", "c"), ("56", "56", "w", False), ("6e1", "6e1", "w", False)]),
]:
    group(field, rows)

# --- the sample course's answers -------------------------------------------------------------------------------
GIB = 7e9 * 12 / 2**30  # 78.2310962677002
group(fld(GIB, atol=0.005), [
    ("78.23", "78.23", "c"),
    ("78,23", "78.23", "c"),
    ("78.235", "78.235", "c"),
    ("78.236", "78.236", "c"),
    ("78.227", "78.227", "c"),
    ("78.2311", "78.2311", "c"),
    ("78.2310962677002", "78.2310962677002", "c"),
    ("7.823e1", "7.823e1", "c"),
    ("78.2", "78.2", "w", True),
    ("78", "78", "w", True),
    ("78.3", "78.3", "w", False),
    ("7.82e1", "7.82e1", "w", True),
    ("78.24", "78.24", "w", False),
    ("78.237", "78.237", "w", False),
    ("78.226", "78.226", "w", False),
    ("84e9/2^30", "!unreadable", "u"),
    ("78,231 096", "!unreadable", "u"),
    ("78.23 GiB", "!unreadable", "u"),
    ("78.23GiB", "!unreadable", "u"),
    ("78,23.1", "!separators", "u"),
])
group(fld(600 / 390, atol=0.001), [
    ("1.538", "1.538", "c"),
    ("1,538", "1.538", "c"),
    ("1.539", "1.539", "c"),
    ("1.5385", "1.5385", "c"),
    ("600/390", ("600", "390"), "c"),
    ("20/13", ("20", "13"), "c"),
    ("1.54", "1.54", "w", True),
    ("1.5", "1.5", "w", True),
    ("2", "2", "w", True),
    ("1.537", "1.537", "w", False),
    ("3/2", ("3", "2"), "w", False),
])
group(fld(16 / 7, atol=0.0001), [
    ("2.2857", "2.2857", "c"),
    ("2,2857", "2.2857", "c"),
    ("2.2858", "2.2858", "c"),
    ("2.2856", "2.2856", "w", False),
    ("2.28571", "2.28571", "c"),
    ("16/7", ("16", "7"), "c"),
    ("2.286", "2.286", "w", True),
    ("2.29", "2.29", "w", True),
    ("2", "2", "w", True),
    ("2.2859", "2.2859", "w", False),
    ("2.2855", "2.2855", "w", False),
    ("9/4", ("9", "4"), "w", False),
])
group(fld(4 / 7, atol=0.0001), [
    ("0.5714", "0.5714", "c"),
    ("0,5715", "0.5715", "c"),
    (".5714", ".5714", "c"),
    ("4/7", ("4", "7"), "c"),
    ("8/14", ("8", "14"), "c"),
    ("0.571", "0.571", "w", True),
    ("0.57", "0.57", "w", True),
    ("0.5716", "0.5716", "w", False),
    ("0.5712", "0.5712", "w", False),
    ("1/2", ("1", "2"), "w", False),
])
INTERVAL = math.sqrt(2 * 120 * 28800)  # 2629.0682760247973
group(fld(INTERVAL, atol=0.01), [
    ("2629.07", "2629.07", "c"),
    ("2629,07", "2629.07", "c"),
    ("2 629,07", "2629.07", "c"),
    ("2" + NBSP + "629,07", "2629.07", "c"),
    ("2629.06", "2629.06", "c"),
    ("2629.0683", "2629.0683", "c"),
    ("2,62907" + DOT + "10^3", "2.62907e3", "c"),
    ("2629.1", "2629.1", "w", True),
    ("2629", "2629", "w", True),
    ("2.629e3", "2.629e3", "w", True),
    ("2629.05", "2629.05", "w", False),
])
group(fld(INTERVAL / 60, atol=0.01), [
    ("43.82", "43.82", "c"),
    ("43,81", "43.81", "c"),
    ("43.818", "43.818", "c"),
    ("43.8", "43.8", "w", True),
    ("44", "44", "w", True),
    ("43.83", "43.83", "w", False),
])
group(fld(2.12368e12, rtol=0.001), [
    ("2,124" + DOT + "10^12", "2.124e12", "c"),
    ("2.124e12", "2.124e12", "c"),
    ("2,1237" + DOT + "10^12", "2.1237e12", "c"),
    ("2.123e12", "2.123e12", "c"),
    ("2.122e12", "2.122e12", "c"),
    ("2.12368" + TIMES + "10^12", "2.12368e12", "c"),
    ("2 123 680 000 000", "2123680000000", "c"),
    ("2,12" + DOT + "10^12", "2.12e12", "w", True),
    ("2.12e12", "2.12e12", "w", True),
    ("2,12 " + DOT + " 10^12", "2.12e12", "w", True),
    ("2.13e12", "2.13e12", "w", False),
    ("2.130e12", "2.130e12", "w", False),
    ("2.120e12", "2.120e12", "w", False),
    ("2.126e12", "2.126e12", "w", False),
    ("2130000000000", "2130000000000", "w", False),
])
group(fld(0.8, atol=1e-6), [
    ("0.8", "0.8", "c"),
    ("0,8", "0.8", "c"),
    ("4/5", ("4", "5"), "c"),
    ("8/10", ("8", "10"), "c"),
    ("0.800001", "0.800001", "c"),
    ("0.799999", "0.799999", "c"),
    ("0.8000011", "0.8000011", "w", False),
    ("0.79", "0.79", "w", False),
    ("0.79999", "0.79999", "w", False),
])
# The precision note only when the answer is right at the digits typed: module 12 writes `atol: 0.000001`
# to mean exact, and "12" or "17.18" there is simply wrong, not "too coarse" (it would be wrong at any
# precision). "8e1" for 84 is 84 to the nearest ten, so it is.
group(fld(7e9 * 12 / 1e9, atol=1e-6), [  # P02 gb: 84
    ("84", "84", "c"),
    ("80", "80", "w", False),
    ("12", "12", "w", False),
    ("83.9", "83.9", "w", False),
    ("8e1", "8e1", "w", True),
    ("8,4e1", "8.4e1", "c"),
    ("9e1", "9e1", "w", False),
])
group(fld(2 * 32 * 8 * 128 * 16 * 8192 * 2 / 2**30, atol=1e-6), [  # P03 kv_gib: 16
    ("16", "16", "c"),
    ("16,0", "16.0", "c"),
    ("17.18", "17.18", "w", False),
    ("17,18", "17.18", "w", False),
    ("17", "17", "w", False),
    ("2e1", "2e1", "w", True),
    ("1e1", "1e1", "w", False),
])
group(fld(8 * (45 + 30), atol=1e-6), [  # P05 seq: 600
    ("600", "600", "c"),
    ("6e2", "6e2", "c"),
    ("12", "12", "w", False),
    ("599", "599", "w", False),
    ("601", "601", "w", False),
])
group(fld(45 + 30 + 7 * 45, atol=1e-6), [  # P05 pipe: 390
    ("390", "390", "c"),
    ("4e2", "4e2", "w", True),
    ("3.9e2", "3.9e2", "c"),
    ("3e2", "3e2", "w", False),
    ("391", "391", "w", False),
])
group(fld((4 + 4 + 4 + 12) / (4 * 12), atol=1e-6), [  # P06 util: 0.5
    ("0.5", "0.5", "c"),
    ("1/2", ("1", "2"), "c"),
    ("12", "12", "w", False),
    ("0.4", "0.4", "w", False),
    ("0.50001", "0.50001", "w", False),
    ("0.6", "0.6", "w", False),
])
group(fld(8 * (45 + 30) / (45 + 30 + 7 * 45), atol=0.001), [  # P05 speedup: 1.5384615…
    ("1.54", "1.54", "w", True),
    ("1,5", "1.5", "w", True),
    ("1.6", "1.6", "w", False),
    ("1.53", "1.53", "w", False),
    ("1.55", "1.55", "w", False),
    ("15.4e-1", "15.4e-1", "w", True),
    ("1", "1", "w", False),
    ("2", "2", "w", True),
])
group(fld(INTERVAL, atol=0.01), [  # P10 interval_s: 2629.068…
    ("2630", "2630", "w", False),
    ("2.63e3", "2.63e3", "w", True),
    ("2629.2", "2629.2", "w", False),
    ("2628", "2628", "w", False),
])
group(fld(2.12368e12, rtol=0.001), [
    ("2.1e12", "2.1e12", "w", True),
    ("2.2e12", "2.2e12", "w", False),
    ("2e12", "2e12", "w", True),
    ("3e12", "3e12", "w", False),
])
group(fld(5), [
    (long((NBSP, 100_000), ("5", 1), ("\t", 99_999)), "5", "c"),
    (long(("0", 100_000), ("5", 1)), "5", "c"),
    (long(("0", 100_000), ("4", 1)), "4", "w", False),
])
group(fld(-1.5384, atol=0.0001), [
    ("-1.538", "-1.538", "w", True),
    ("-1.539", "-1.539", "w", False),
    (MINUS + "1,54", "-1.54", "w", True),
    ("1.538", "1.538", "w", False),
])
# unreadable fields: the reading's error
group(fld(1.5), [
    ("abc", "!unreadable", "u"),
    ("", "!empty", "u"),
    ("   ", "!empty", "u"),
    ("1,5.0", "!separators", "u"),
    ("1,2.3", "!separators", "u"),
    ("3/0", "!zero_division", "u"),
    (long(("1,5", 1), (" ", 200_000)), "!too_long", "u"),
    (long(("16/", 1), ("7", 100_000)), "!too_large", "u"),
    (long(("1", 1), (" ", 100_000), ("5", 1)), "!unreadable", "u"),
    ("0/0", "!zero_division", "u"),
    ("1e999", "!too_large", "u"),
    ("1,5 kg", "!unreadable", "u"),
    ("1.5.0", "!unreadable", "u"),
    ("--1.5", "!unreadable", "u"),
    ("3/-2", "!unreadable", "u"),
    ("NaN", "!unreadable", "u"),
    ("Infinity", "!unreadable", "u"),
    ("1 5", "!unreadable", "u"),
])
# the learner's own digits (README rule 2a)
group(fld(1.5), [
    ("\uff11.\uff15", "1.5", "c"),
    ("\u0661\u066b\u0665", "1.5", "c"),
    ("\u0661\u066b\u0666", "1.6", "w", False),
])


# ---------------------------------------------------------------------------------------------------------
# Questions: (spec, answer, expected) — expected written by hand
# ---------------------------------------------------------------------------------------------------------

QUESTIONS: list[tuple] = []


def q(spec: dict, answer: dict, status: str, score: float | None = None, **extra) -> None:
    expected = {"status": status}
    if score is not None:
        expected["score"] = score
    expected.update(extra)
    QUESTIONS.append((spec, answer, expected))


def single(correct: str) -> dict:
    return {"type": "single", "correct": [correct]}


def multiple(correct: list[str], scoring: str) -> dict:
    return {"type": "multiple", "correct": correct, "scoring": scoring}


def matching(pairs: dict[str, str]) -> dict:
    return {"type": "matching", "pairs": pairs}


def numeric(*fields: tuple) -> dict:
    return {"type": "numeric", "fields": [{"id": i, **fld(a, t, r)} for i, a, t, r in fields]}


def mixed(auto: dict) -> dict:
    return {"type": "mixed", "auto": auto["type"], **{key: value for key, value in auto.items() if key != "type"}}


def ch(*markers: str) -> dict:
    return {"choice": list(markers)}


# single
S = single("B")
q(S, ch("B"), "correct", 1)
q(S, ch("A"), "wrong", 0)
q(S, ch("D"), "wrong", 0)
q(S, ch(), "unanswered")
S2 = single("2")
q(S2, ch("2"), "correct", 1)
q(S2, ch("1"), "wrong", 0)
q(S2, ch(), "unanswered")

# multiple, all-or-nothing
M = multiple(["1", "3"], "all-or-nothing")
q(M, ch("1", "3"), "correct", 1)
q(M, ch("3", "1"), "correct", 1)
q(M, ch("1"), "wrong", 0)
q(M, ch("3"), "wrong", 0)
q(M, ch("1", "2", "3"), "wrong", 0)
q(M, ch("2"), "wrong", 0)
q(M, ch("2", "4"), "wrong", 0)
q(M, ch("1", "2", "3", "4"), "wrong", 0)
q(M, ch(), "unanswered")
M1 = multiple(["C"], "all-or-nothing")
q(M1, ch("C"), "correct", 1)
q(M1, ch("C", "D"), "wrong", 0)

# multiple, net-correct: max(0, (right − wrong) / number correct)
N = multiple(["1", "3"], "net-correct")
q(N, ch("1", "3"), "correct", 1)
q(N, ch("3", "1"), "correct", 1)
q(N, ch("1"), "partial", 0.5)
q(N, ch("3"), "partial", 0.5)
q(N, ch("1", "3", "2"), "partial", 0.5)
q(N, ch("1", "2"), "wrong", 0)
q(N, ch("2"), "wrong", 0)
q(N, ch("2", "4"), "wrong", 0)
q(N, ch("1", "2", "4"), "wrong", 0)
q(N, ch("1", "2", "3", "4"), "wrong", 0)
q(N, ch(), "unanswered")
N3 = multiple(["A", "B", "C"], "net-correct")
q(N3, ch("A", "B", "C"), "correct", 1)
q(N3, ch("A"), "partial", 1 / 3)
q(N3, ch("A", "B"), "partial", 2 / 3)
q(N3, ch("A", "B", "D"), "partial", 1 / 3)
q(N3, ch("A", "B", "C", "D"), "partial", 2 / 3)
q(N3, ch("A", "B", "C", "D", "E"), "partial", 1 / 3)
q(N3, ch("A", "D"), "wrong", 0)
q(N3, ch("D", "E"), "wrong", 0)
q(N3, ch(), "unanswered")
N4 = multiple(["1", "2", "3", "4"], "net-correct")
q(N4, ch("1"), "partial", 0.25)
q(N4, ch("1", "2", "3", "5"), "partial", 0.5)
q(N4, ch("1", "2", "3", "4", "5", "6"), "partial", 0.5)
q(N4, ch("1", "2", "3", "4", "5"), "partial", 0.75)
q(N4, ch("1", "2", "5", "6"), "wrong", 0)
q(N4, ch("1", "2", "3", "4"), "correct", 1)
N1 = multiple(["2"], "net-correct")
q(N1, ch("2"), "correct", 1)
q(N1, ch("2", "3"), "wrong", 0)
q(N1, ch("3"), "wrong", 0)

# matching
P = matching({"1": "A", "2": "B", "3": "C", "4": "D"})
q(P, {"pairs": {"1": "A", "2": "B", "3": "C", "4": "D"}}, "correct", 1)
q(P, {"pairs": {"1": "B", "2": "A", "3": "C", "4": "D"}}, "wrong", 0, wrong=["1", "2"])
q(P, {"pairs": {"1": "A", "2": "B", "3": "C", "4": "C"}}, "wrong", 0, wrong=["4"])
q(P, {"pairs": {"1": "D", "2": "C", "3": "B", "4": "A"}}, "wrong", 0, wrong=["1", "2", "3", "4"])
q(P, {"pairs": {"1": "A", "2": "B", "3": "C", "4": "Z"}}, "wrong", 0, wrong=["4"])
q(P, {"pairs": {"1": "A", "2": "B", "3": "", "4": "D"}}, "unanswered", missing=["3"])
q(P, {"pairs": {"1": "A", "2": "B", "4": "D"}}, "unanswered", missing=["3"])
q(P, {"pairs": {"1": "", "2": "B", "3": "C", "4": ""}}, "unanswered", missing=["1", "4"])
q(P, {"pairs": {"1": "B", "2": "", "3": "C", "4": "A"}}, "unanswered", missing=["2"])
q(P, {"pairs": {"1": "", "2": "", "3": "", "4": ""}}, "unanswered", missing=["1", "2", "3", "4"])
q(P, {"pairs": {}}, "unanswered", missing=["1", "2", "3", "4"])
P2 = matching({"1": "B", "2": "A"})
q(P2, {"pairs": {"1": "B", "2": "A"}}, "correct", 1)
q(P2, {"pairs": {"1": "B", "2": ""}}, "unanswered", missing=["2"])
q(P2, {"pairs": {"1": "A", "2": "A"}}, "wrong", 0, wrong=["1"])
q(P2, {"pairs": {"1": "A", "2": "B"}}, "wrong", 0, wrong=["1", "2"])


# numeric: several fields, each with its own tolerance
def nq(spec: dict, values: dict[str, str], status: str, fields: dict[str, str]) -> None:
    score = {"correct": 1, "wrong": 0}.get(status)
    q(spec, {"fields": values}, status, score, fields=fields)


C, W, U = "correct", "wrong", "unreadable"
MEM = numeric(("gb", 7e9 * 12 / 1e9, 0.000001, 0), ("gib", GIB, 0.005, 0))
nq(MEM, {"gb": "84", "gib": "78.23"}, C, {"gb": C, "gib": C})
nq(MEM, {"gb": "84,0", "gib": "78,235"}, C, {"gb": C, "gib": C})
nq(MEM, {"gb": "84", "gib": "78.2"}, W, {"gb": C, "gib": W})
nq(MEM, {"gb": "85", "gib": "78.2"}, W, {"gb": W, "gib": W})
nq(MEM, {"gb": "84", "gib": ""}, U, {"gb": C, "gib": U})
nq(MEM, {"gb": "85", "gib": ""}, U, {"gb": W, "gib": U})
nq(MEM, {"gb": "84", "gib": "abc"}, U, {"gb": C, "gib": U})
nq(MEM, {"gb": "", "gib": "   "}, U, {"gb": U, "gib": U})
nq(MEM, {"gb": "84"}, U, {"gb": C, "gib": U})  # a field left out of the answer is empty
PIPE = numeric(("seq", 8 * (45 + 30), 0.000001, 0), ("pipe", 45 + 30 + 7 * 45, 0.000001, 0),
               ("speedup", 8 * (45 + 30) / (45 + 30 + 7 * 45), 0.001, 0))
nq(PIPE, {"seq": "600", "pipe": "390", "speedup": "1.538"}, C, {"seq": C, "pipe": C, "speedup": C})
nq(PIPE, {"seq": "600", "pipe": "390", "speedup": "600/390"}, C, {"seq": C, "pipe": C, "speedup": C})
nq(PIPE, {"seq": "600", "pipe": "390", "speedup": "1.54"}, W, {"seq": C, "pipe": C, "speedup": W})
nq(PIPE, {"seq": "600", "pipe": "360", "speedup": "1.538"}, W, {"seq": C, "pipe": W, "speedup": C})
nq(PIPE, {"seq": "600", "pipe": "1/0", "speedup": "1.538"}, U, {"seq": C, "pipe": U, "speedup": C})
nq(PIPE, {"seq": "6,0.0", "pipe": "390", "speedup": "2"}, U, {"seq": U, "pipe": C, "speedup": W})
ESS = numeric(("ess", 16 / 7, 0.0001, 0), ("ess_norm", 4 / 7, 0.0001, 0))
nq(ESS, {"ess": "16/7", "ess_norm": "4/7"}, C, {"ess": C, "ess_norm": C})
nq(ESS, {"ess": "2,2857", "ess_norm": "0,5714"}, C, {"ess": C, "ess_norm": C})
nq(ESS, {"ess": "2.2857", "ess_norm": "0.571"}, W, {"ess": C, "ess_norm": W})
nq(ESS, {"ess": "2.29", "ess_norm": "0.57"}, W, {"ess": W, "ess_norm": W})
nq(ESS, {"ess": "1e999", "ess_norm": "0.5714"}, U, {"ess": U, "ess_norm": C})
INT = numeric(("interval_s", INTERVAL, 0.01, 0), ("interval_min", INTERVAL / 60, 0.01, 0))
nq(INT, {"interval_s": "2629.07", "interval_min": "43.82"}, C, {"interval_s": C, "interval_min": C})
nq(INT, {"interval_s": "2 629,07", "interval_min": "43,81"}, C, {"interval_s": C, "interval_min": C})
nq(INT, {"interval_s": "2629.07", "interval_min": "43.8"}, W, {"interval_s": C, "interval_min": W})
nq(INT, {"interval_s": "2629 s", "interval_min": "43.82"}, U, {"interval_s": U, "interval_min": C})
ONE = numeric(("x", 2.5, 0.01, 0))
nq(ONE, {"x": "2,5"}, C, {"x": C})
nq(ONE, {"x": "2.6"}, W, {"x": W})
nq(ONE, {"x": ""}, U, {"x": U})
RATE = numeric(("flops", 2.12368e12, 0, 0.001))
nq(RATE, {"flops": "2,124" + DOT + "10^12"}, C, {"flops": C})
nq(RATE, {"flops": "2.12e12"}, W, {"flops": W})

# mixed: the auto-checked part graded as its own type
RHO = mixed(numeric(("rho", 0.8, 0.000001, 0)))
nq(RHO, {"rho": "4/5"}, C, {"rho": C})
nq(RHO, {"rho": "0,8"}, C, {"rho": C})
nq(RHO, {"rho": "0.79"}, W, {"rho": W})
nq(RHO, {"rho": ""}, U, {"rho": U})
nq(RHO, {"rho": "1/0"}, U, {"rho": U})
LAG = mixed(numeric(("mean_lag", 2.75, 0, 0), ("max_lag", 4, 0, 0)))
nq(LAG, {"mean_lag": "2.75", "max_lag": "4"}, C, {"mean_lag": C, "max_lag": C})
nq(LAG, {"mean_lag": "11/4", "max_lag": "4,0"}, C, {"mean_lag": C, "max_lag": C})
nq(LAG, {"mean_lag": "2.8", "max_lag": "4"}, W, {"mean_lag": W, "max_lag": C})
nq(LAG, {"mean_lag": "2,75", "max_lag": ""}, U, {"mean_lag": C, "max_lag": U})
MS = mixed(single("B"))
q(MS, ch("B"), "correct", 1)
q(MS, ch("C"), "wrong", 0)
q(MS, ch(), "unanswered")
MM = mixed(multiple(["1", "3"], "net-correct"))
q(MM, ch("1", "3"), "correct", 1)
q(MM, ch("1"), "partial", 0.5)
q(MM, ch("1", "2", "4"), "wrong", 0)
q(MM, ch(), "unanswered")
MA = mixed(multiple(["1", "3"], "all-or-nothing"))
q(MA, ch("1", "3"), "correct", 1)
q(MA, ch("1"), "wrong", 0)
MP = mixed(matching({"1": "B", "2": "A", "3": "C"}))
q(MP, {"pairs": {"1": "B", "2": "A", "3": "C"}}, "correct", 1)
q(MP, {"pairs": {"1": "B", "2": "C", "3": "A"}}, "wrong", 0, wrong=["2", "3"])
q(MP, {"pairs": {"1": "B", "2": "", "3": "A"}}, "unanswered", missing=["2"])
q(MP, {"pairs": {}}, "unanswered", missing=["1", "2", "3"])


# ---------------------------------------------------------------------------------------------------------
# Per locale (README, "Numbers per locale"): the conventions a page carries, written out by hand from CLDR;
# readings and fields with a page's conventions; and how each page writes numbers.
# ---------------------------------------------------------------------------------------------------------

CONVENTIONS = {
    "en": {"lang": "en", "decimal": ".", "group": ",", "minimum_grouping": 1, "rtl": False},
    "ru": {"lang": "ru", "decimal": ",", "group": NBSP, "minimum_grouping": 1, "rtl": False},
    "de": {"lang": "de", "decimal": ",", "group": ".", "minimum_grouping": 1, "rtl": False},
    "fr": {"lang": "fr", "decimal": ",", "group": NNBSP, "minimum_grouping": 1, "rtl": False},
    "es": {"lang": "es", "decimal": ",", "group": ".", "minimum_grouping": 2, "rtl": False},
    # Hebrew is written right to left: a number's minus and power of ten are marked left to right in it.
    "he": {"lang": "he", "decimal": ".", "group": ",", "minimum_grouping": 1, "rtl": True},
}
LOCALE_READINGS: list[tuple] = []  # (lang, input, hint, decimals, significant); hint as above, or ("?", a, b)


def ldec(lang: str, text: str, plain: str, decimals: int, significant: int) -> None:
    LOCALE_READINGS.append((lang, text, plain, decimals, significant))


def lerr(lang: str, text: str, kind: str) -> None:
    LOCALE_READINGS.append((lang, text, "!" + kind, None, None))


def lfrac(lang: str, text: str, num: str, den: str) -> None:
    LOCALE_READINGS.append((lang, text, (num, den), None, None))


def lamb(lang: str, text: str, grouped: str, decimal: str) -> None:
    """Ambiguous on that page: `grouped` read as thousands, `decimal` read with a decimal sign."""
    LOCALE_READINGS.append((lang, text, ("?", grouped, decimal), None, None))


# English: ',' groups and '.' is decimal; a lone ',' before three digits could be either.
ldec("en", "2,629.07", "2629.07", 2, 6)
ldec("en", "2629.07", "2629.07", 2, 6)
ldec("en", "13,983,816", "13983816", 0, 8)
ldec("en", "10,000.5", "10000.5", 1, 6)
ldec("en", "1,538.5", "1538.5", 1, 5)
ldec("en", "1.538,5", "1538.5", 1, 5)  # either order: two signs are never ambiguous
ldec("en", "1,538,000", "1538000", 0, 7)
ldec("en", "1.538", "1.538", 3, 4)
ldec("en", "0,538", "0.538", 3, 3)  # a group never starts with 0
ldec("en", "1234,567", "1234.567", 3, 7)  # nor has four digits
ldec("en", "1,5380", "1.5380", 4, 5)
ldec("en", "1,53", "1.53", 2, 3)
ldec("en", ",538", ".538", 3, 3)
ldec("en", "1,538e3", "1.538e3", 0, 4)  # ambiguous only as the whole text
ldec("en", "1 538", "1538", 0, 4)
ldec("en", "1538", "1538", 0, 4)
ldec("en", "2" + NBSP + "629,07", "2629.07", 2, 6)
ldec("en", "2.12368" + DOT + "10¹²", "2.12368e12", -7, 6)
ldec("en", MINUS + "273.15", "-273.15", 2, 5)
lfrac("en", "1,538/7", "1.538", "7")
lamb("en", "1,538", "1538", "1.538")
lamb("en", "1,000", "1000", "1.000")
lamb("en", "-1,538", "-1538", "-1.538")
lamb("en", MINUS + "12,345", "-12345", "-12.345")
lamb("en", "+123,456", "123456", "123.456")
lamb("en", " 1,538 ", "1538", "1.538")
lerr("en", "1,234,56", "unreadable")
lerr("en", "12,34,567", "unreadable")
lerr("en", "1,538.5.0", "separators")
# Russian: a (no-break, thin, narrow) space groups, ',' is decimal; '.' is read as decimal too.
ldec("ru", "2 629,07", "2629.07", 2, 6)
ldec("ru", "2" + NBSP + "629,07", "2629.07", 2, 6)
ldec("ru", "2" + NNBSP + "629,07", "2629.07", 2, 6)
ldec("ru", "2" + THIN + "629,07", "2629.07", 2, 6)
ldec("ru", "2629,07", "2629.07", 2, 6)
ldec("ru", "2629.07", "2629.07", 2, 6)
ldec("ru", "13" + NBSP + "983" + NBSP + "816", "13983816", 0, 8)
ldec("ru", "1,538", "1.538", 3, 4)  # no '.' or ',' groups here: never ambiguous
# The Arabic decimal separator is the page's decimal sign, its thousands separator a group (README rule 2a):
# never ambiguous, on any page.
ldec("de", "\u0663\u066b\u0665\u0660\u0660", "3.500", 3, 4)
ldec("en", "\u0663\u066b\u0665\u0660\u0660", "3.500", 3, 4)
ldec("en", "\u0663\u066c\u0665\u0660\u0660", "3500", 0, 4)
ldec("de", "\u0663\u066c\u0665\u0660\u0660\u066b\u0665", "3500.5", 1, 5)
ldec("de", "\uff13\uff0c\uff15", "3.5", 1, 2)  # a full-width comma is a comma
ldec("ru", "1.538", "1.538", 3, 4)
ldec("ru", "2,629.07", "2629.07", 2, 6)
ldec("ru", "2.629,07", "2629.07", 2, 6)
ldec("ru", "1,538,000", "1538000", 0, 7)
ldec("ru", "2,12368" + DOT + "10¹²", "2.12368e12", -7, 6)
lerr("ru", "2 62,07", "unreadable")
# German: '.' groups and ',' is decimal.
ldec("de", "2.629,07", "2629.07", 2, 6)
ldec("de", "2629,07", "2629.07", 2, 6)
ldec("de", "13.983.816", "13983816", 0, 8)
ldec("de", "1,538", "1.538", 3, 4)
ldec("de", "0.538", "0.538", 3, 3)
ldec("de", "2 629,07", "2629.07", 2, 6)
ldec("de", "2,629.07", "2629.07", 2, 6)
ldec("de", "123.456,789", "123456.789", 3, 9)
lamb("de", "1.538", "1538", "1.538")
lamb("de", "100.000", "100000", "100.000")
lerr("de", "2.629,07,1", "separators")
# French: a narrow no-break space groups (any space is read), ',' is decimal.
ldec("fr", "2" + NNBSP + "629,07", "2629.07", 2, 6)
ldec("fr", "2 629,07", "2629.07", 2, 6)
ldec("fr", "2" + NBSP + "629,07", "2629.07", 2, 6)
ldec("fr", "1,538", "1.538", 3, 4)
ldec("fr", "1.538", "1.538", 3, 4)
ldec("fr", "13" + NNBSP + "983" + NNBSP + "816", "13983816", 0, 8)
# Spanish: as German, though it writes four-digit numbers ungrouped.
ldec("es", "2629,07", "2629.07", 2, 6)
ldec("es", "2.629,07", "2629.07", 2, 6)
ldec("es", "12.345,5", "12345.5", 1, 6)
ldec("es", "1,538", "1.538", 3, 4)
ldec("es", "13.983.816", "13983816", 0, 8)
lamb("es", "1.538", "1538", "1.538")
lamb("es", "12.345", "12345", "12.345")

# Hebrew: as English; what its pages write (marked as CLDR marks a minus) and what is copied isolated reads back.
ldec("he", "2,629.07", "2629.07", 2, 6)
ldec("he", LRI + MINUS + "2.5" + PDI, "-2.5", 1, 2)
ldec("he", LRM + "-2.5", "-2.5", 1, 2)
ldec("he", LRM + MINUS + "2.12368" + LRM + DOT + "10¹²", "-2.12368e12", -7, 6)
ldec("he", "13,983,816", "13983816", 0, 8)
lamb("he", "1,538", "1538", "1.538")

LOCALE_FIELDS: list[tuple] = []  # (lang, field, input, status, error)
LOCALE_FIELDS += [
    ("en", fld(1538), "1,538", "u", "ambiguous"),
    ("en", fld(1538), "1538", "c", None),
    ("en", fld(1538), "1 538", "c", None),
    ("en", fld(2629.0682760247973, atol=0.005), "2,629.07", "c", None),
    ("en", fld(1.538, atol=0.0005), "1.538", "c", None),
    ("ru", fld(1.538, atol=0.0005), "1,538", "c", None),
    ("ru", fld(2629.0682760247973, atol=0.005), "2" + NBSP + "629,07", "c", None),
    ("de", fld(1538), "1.538", "u", "ambiguous"),
    ("de", fld(1.538, atol=0.0005), "1,538", "c", None),
    ("de", fld(2629.0682760247973, atol=0.005), "2.629,07", "c", None),
    ("fr", fld(2629.0682760247973, atol=0.005), "2" + NNBSP + "629,07", "c", None),
    ("es", fld(12345), "12.345", "u", "ambiguous"),
    ("es", fld(12345.5, atol=0.05), "12.345,5", "c", None),
]

# How each page writes a number: (lang, value, decimals, group, significant, text, exact). Rounding is half away
# from zero from the double's exact value (as JavaScript's toFixed, toPrecision and toExponential round).
FORMATS: list[tuple] = [
    ("en", 2100.0, None, True, 10, "2100", True),  # one group behind ',' would read as 2.1
    ("en", 13983816.0, None, True, 10, "13,983,816", True),
    ("en", 2629.0682760247973, 2, True, 10, "2,629.07", False),
    ("en", 1538.0, None, True, 10, "1538", True),
    ("en", 123456.0, None, True, 10, "123456", True),
    ("en", 1234567.0, None, True, 10, "1,234,567", True),
    ("en", 1234.5, None, True, 10, "1,234.5", True),
    ("en", 1234.5, None, False, 10, "1234.5", True),
    ("en", 1.538, None, True, 10, "1.538", True),
    ("en", -273.15, None, True, 10, MINUS + "273.15", True),
    ("en", 0.1, None, True, 10, "0.1", True),
    ("en", 0.0, None, True, 10, "0", True),
    ("en", -0.0, 2, True, 10, "0", True),
    ("en", -0.001, 2, True, 10, "0", False),
    ("en", 0.5, 0, True, 10, "1", False),  # half away from zero
    ("en", 2.5, 0, True, 10, "3", False),
    ("en", -2.5, 0, True, 10, MINUS + "3", False),
    ("en", 16 / 7, None, True, 10, "2.285714286", False),
    ("en", 16 / 7, 3, True, 10, "2.286", False),
    ("en", 16 / 7, None, True, 8, "2.2857143", False),
    ("en", 123456789.0, None, True, 8, "123,456,790", False),
    ("en", 999999999.97, None, True, 10, "1,000,000,000", False),
    ("en", 84.0, 6, True, 10, "84", True),
    ("en", 7e9 * 12 / 2**30, 2, True, 10, "78.23", False),
    ("en", 2.12368e12, None, True, 10, "2.12368" + DOT + "10¹²", True),
    ("en", 2.12368e12, 0, True, 10, "2.12368" + DOT + "10¹²", True),
    ("en", 8.4e22, -20, True, 10, "8.4" + DOT + "10²²", True),
    ("en", 1e-7, None, True, 10, "1" + DOT + "10⁻⁷", True),
    ("en", -4.5e-7, 8, True, 10, MINUS + "4.5" + DOT + "10⁻⁷", True),
    ("en", -4.5e-6, 7, True, 10, MINUS + "0.0000045", True),  # from 10⁻⁶ on, written out
    ("en", 9.9999999999e9, None, True, 10, "1" + DOT + "10¹⁰", False),
    ("en", 0.000123456, 7, True, 10, "0.0001235", False),
    ("en", 0.000123456, 10, True, 10, "0.000123456", True),
    ("ru", 2100.0, None, True, 10, "2" + NBSP + "100", True),
    ("ru", 13983816.0, None, True, 10, "13" + NBSP + "983" + NBSP + "816", True),
    ("ru", 2629.0682760247973, 2, True, 10, "2" + NBSP + "629,07", False),
    ("ru", 12345.0, None, True, 10, "12" + NBSP + "345", True),
    ("ru", 1234.5, None, True, 10, "1" + NBSP + "234,5", True),
    ("ru", 1234.5, None, False, 10, "1234,5", True),
    ("ru", -0.0025, None, True, 10, MINUS + "0,0025", True),
    ("ru", 2.12368e12, None, True, 10, "2,12368" + DOT + "10¹²", True),
    ("ru", 16 / 7, None, True, 8, "2,2857143", False),
    ("de", 2100.0, None, True, 10, "2100", True),
    ("de", 13983816.0, None, True, 10, "13.983.816", True),
    ("de", 2629.0682760247973, 2, True, 10, "2.629,07", False),
    ("de", 1.538, None, True, 10, "1,538", True),
    ("de", 123456.789, None, True, 10, "123.456,789", True),
    ("de", 12345.0, None, True, 10, "12345", True),
    ("de", 2.12368e12, None, True, 10, "2,12368" + DOT + "10¹²", True),
    ("fr", 2100.0, None, True, 10, "2" + NNBSP + "100", True),
    ("fr", 2629.0682760247973, 2, True, 10, "2" + NNBSP + "629,07", False),
    ("fr", 0.5, None, True, 10, "0,5", True),
    ("es", 2100.0, None, True, 10, "2100", True),  # CLDR: Spanish groups from five digits
    ("es", 12345.0, None, True, 10, "12345", True),
    ("es", 1234.5, None, True, 10, "1234,5", True),
    ("es", 12345.5, None, True, 10, "12.345,5", True),
    ("es", 13983816.0, None, True, 10, "13.983.816", True),
    ("es", 2629.0682760247973, 2, True, 10, "2629,07", False),
    ("he", -2.5, None, True, 10, LRM + MINUS + "2.5", True),
    ("he", 2629.0682760247973, 2, True, 10, "2,629.07", False),  # no mark: a "±" or "$" before it stays there
    ("he", 6.022e23, None, True, 10, "6.022" + LRM + DOT + "10²³", True),
    ("he", -4.5e-7, 8, True, 10, LRM + MINUS + "4.5" + LRM + DOT + "10⁻⁷", True),
    ("he", 2100.0, None, True, 10, "2100", True),
]


# ---------------------------------------------------------------------------------------------------------
# Self-checks of the hand-written tables (arithmetic from the README's formulas), then output
# ---------------------------------------------------------------------------------------------------------

PLAIN = re.compile(r"^(-?)(\d*)(?:\.(\d*))?(?:e([-+]?\d+))?$")


def plain_parts(plain: str) -> tuple[int, int]:
    """`decimals` and `significant` of a plain decimal text, to catch typos in the hand-written numbers."""
    match = PLAIN.match(plain)
    assert match and (match[2] or match[3]), plain
    fraction = match[3] or ""
    exponent_text = match[4] or "0"
    digits = exponent_text.lstrip("+-").lstrip("0") or "0"
    magnitude = EXPONENT_LIMIT if len(digits) > 10 else min(int(digits), EXPONENT_LIMIT)
    exponent = -magnitude if exponent_text.startswith("-") else magnitude
    return len(fraction) - exponent, len((match[2] + fraction).lstrip("0"))


SUPERSCRIPT_DIGITS = str.maketrans("⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹", "-+0123456789")


def loose_separators(text: str) -> str:
    if "." in text and "," in text:  # the last sign is the decimal one, the other groups
        decimal = "." if text.rfind(".") > text.rfind(",") else ","
        text = text.replace("," if decimal == "." else ".", "")
    elif text.count(".") + text.count(",") > 1:  # one sign repeated: groups
        text = text.replace(".", "").replace(",", "")
    return text.replace(",", ".")


def keyboard(text: str) -> str:
    """README rules 2a and 2b, crudely: other scripts' digits, full-width forms and the Arabic separators in ASCII,
    direction marks dropped."""
    text = re.sub("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]", "", text)
    text = "".join(str(unicodedata.decimal(char)) if char.isdecimal() else char for char in text)
    text = "".join(chr(ord(char) - 0xFEE0) if "\uff01" <= char <= "\uff5e" else char for char in text)
    return text.replace("\u066b", ".").replace("\u066c", "")


def loose(text: str) -> str:
    """A crude rewrite of an accepted input into plain text, used only to catch mismatched table rows."""
    text = keyboard(text)
    text = "/".join(map(loose_separators, text.strip(JS_SPACES).replace(MINUS, "-").split("/")))
    text = re.sub("10([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)$", lambda m: "10^" + m[1].translate(SUPERSCRIPT_DIGITS), text)
    for space in (" ", NBSP, THIN, NNBSP):
        text = text.replace(space, "")
    text = re.sub(r"[*\u00b7\u00d7x]10\^", "e", text)
    text = re.sub(r"^([-+]?)10\^", r"\g<1>1e", text)
    return text


def reading_of(hint) -> dict:
    if isinstance(hint, tuple):
        return {"value": float(hint[0]) / float(hint[1]), "fraction": True}
    if hint.startswith("!"):
        return {"error": hint[1:]}
    decimals, significant = plain_parts(hint)
    return {"value": float(hint), "decimals": decimals, "significant": significant}


KINDS = {"empty", "unreadable", "separators", "zero_division", "too_large", "too_long"}  # and "ambiguous"
READ: dict[str, object] = {}


def remember(text: str, hint) -> None:
    if text in READ:
        assert READ[text] == hint, f"{text!r} read two ways: {READ[text]!r} and {hint!r}"
    READ[text] = hint
    if isinstance(hint, str) and hint.startswith("!"):
        assert hint[1:] in KINDS, hint
        return
    if isinstance(hint, tuple):
        assert "/" in keyboard(text) and float(hint[1]) != 0, text
        num, den = loose(text).split("/")
        assert float(num) == float(hint[0]) and float(den) == float(hint[1]), text
        return
    assert math.isfinite(float(hint)), text
    assert float(loose(text)) == float(hint), f"{text!r} does not look like {hint!r}"


def beyond_doubles(plain: str) -> bool:
    """README rule 5: not finite; for a fraction, a part that overflows or a denominator that underflows."""
    if "/" not in plain:
        return not math.isfinite(float(plain))
    numerator, denominator = plain.split("/")
    underflows = float(denominator) == 0 and denominator.strip("0.") != ""
    return not math.isfinite(float(numerator)) or not math.isfinite(float(denominator)) or underflows


reading_cases = []
for text, hint, decimals, significant in READINGS:
    remember(text, hint)
    case = {"input": text, **reading_of(hint)}
    if "decimals" in case:
        assert (case["decimals"], case["significant"]) == (decimals, significant), (
            f"{text!r}: hand-written {decimals}, {significant} but the text gives "
            f"{case['decimals']}, {case['significant']}"
        )
    assert (hint == "!too_long") == (len(text) > MAX_LENGTH), f"{text[:40]!r}: length {len(text)}"
    if hint == "!too_large":
        assert beyond_doubles(loose(text)), text[:40]
    reading_cases.append(case)
assert len({c["input"] for c in reading_cases}) == len(reading_cases), "duplicate reading inputs"


def passes(field: dict, x: float) -> bool:
    a, atol, rtol = field["answer"], field.get("atol", 0.0), field.get("rtol", 0.0)
    slack = 1e-9 * max(abs(a), abs(x), atol)
    return abs(x - a) <= atol + slack or abs(x - a) <= rtol * abs(a) + slack


def warns(field: dict, hint, reading: dict) -> bool:
    if reading.get("fraction"):
        return False
    atol, rtol = field.get("atol", 0.0), field.get("rtol", 0.0)
    if atol > 0:
        coarse = reading["decimals"] < max(0, -math.floor(math.log10(2 * atol)))
    elif rtol > 0:
        coarse = reading["significant"] < max(1, -math.floor(math.log10(2 * rtol))) + 1
    else:
        return False
    return coarse and right_at_typed_precision(field["answer"], hint, reading["decimals"])


def right_at_typed_precision(answer: float, plain: str, decimals: int) -> bool:
    """The answer rounded to the learner's last typed digit is the number they typed: it lies within half a
    unit of that digit (a tie counts), in exact arithmetic plus the README's slack."""
    half = Fraction(10) ** -decimals / 2
    typed = Fraction(plain)
    slack = Fraction(1, 10**9) * max(abs(Fraction(answer)), abs(typed), half)
    return abs(Fraction(answer) - typed) <= half + slack


def field_status(field: dict, text: str) -> tuple[str, dict]:
    reading = reading_of(READ[text])
    if "error" in reading:
        return "unreadable", reading
    return ("correct" if passes(field, reading["value"]) else "wrong"), reading


STATUS = {"c": "correct", "w": "wrong", "u": "unreadable"}
field_cases = []
for field, text, hint, status, precision in FIELDS:
    remember(text, hint if hint is not None else READ[text])
    computed, reading = field_status(field, text)
    case = {"field": field, "input": text, "status": STATUS[status]}
    assert computed == case["status"], f"{field} {text!r}: written {case['status']}, formula says {computed}"
    if status == "w":
        assert precision is not None, text
        assert warns(field, READ[text], reading) == precision, f"{field} {text!r}: precision written {precision}"
        case["precision"] = precision
    else:
        assert precision is None, text
    if status == "u":
        case["error"] = reading["error"]
    field_cases.append(case)


def grade(spec: dict, answer: dict) -> dict:
    kind = spec["auto"] if spec["type"] == "mixed" else spec["type"]
    if kind in ("single", "multiple"):
        picks, correct = answer["choice"], spec["correct"]
        if not picks:
            return {"status": "unanswered"}
        if kind == "single" or spec["scoring"] == "all-or-nothing":
            ok = set(picks) == set(correct)
            return {"status": "correct" if ok else "wrong", "score": 1 if ok else 0}
        right = len(set(picks) & set(correct))
        score = max(0, (right - (len(set(picks)) - right)) / len(correct))
        status = "correct" if score == 1 else "wrong" if score == 0 else "partial"
        return {"status": status, "score": score}
    if kind == "matching":
        given = answer["pairs"]
        missing = [item for item in spec["pairs"] if not given.get(item)]
        if missing:
            return {"status": "unanswered", "missing": missing}
        wrong = [item for item, option in spec["pairs"].items() if given[item] != option]
        return {"status": "wrong", "score": 0, "wrong": wrong} if wrong else {"status": "correct", "score": 1}
    statuses = {}
    for field in spec["fields"]:
        text = answer["fields"].get(field["id"], "")
        statuses[field["id"]] = field_status(field, text)[0]
    if "unreadable" in statuses.values():
        return {"status": "unreadable", "fields": statuses}
    ok = all(s == "correct" for s in statuses.values())
    return {"status": "correct" if ok else "wrong", "score": 1 if ok else 0, "fields": statuses}


question_cases = []
for spec, answer, expected in QUESTIONS:
    for text in answer.get("fields", {}).values():
        assert text in READ, f"question field input {text!r} is not judged in the readings or fields tables"
    computed = grade(spec, answer)
    assert computed == expected, f"{spec} {answer}: written {expected}, rules give {computed}"
    question_cases.append({"spec": spec, "answer": answer, **expected})


SUPERSCRIPT_TO_PLAIN = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def ascii_digits(text: str) -> str:
    return "".join(char for char in text.split("e")[0] if char in "0123456789")


locale_reading_cases = []
LOCALE_READ: dict[tuple[str, str], dict] = {}
for lang, text, hint, decimals, significant in LOCALE_READINGS:
    assert (lang, text) not in LOCALE_READ, f"{lang} {text!r} twice"
    if isinstance(hint, tuple) and hint[0] == "?":
        _, grouped, decimal = hint
        assert ascii_digits(grouped) == ascii_digits(decimal) == ascii_digits(text), text
        assert float(grouped) == 1000 * float(decimal), text
        reading = {"error": "ambiguous", "grouped": float(grouped), "decimal": float(decimal)}
    else:
        reading = reading_of(hint)
        if "decimals" in reading:
            assert (reading["decimals"], reading["significant"]) == (decimals, significant), f"{lang} {text!r}"
            assert ascii_digits(keyboard(text).replace("10¹²", "")) == ascii_digits(hint.replace("e12", "")), \
                f"{lang} {text!r}"
    LOCALE_READ[lang, text] = reading
    locale_reading_cases.append({"lang": lang, "input": text, **reading})

for lang, field, text, status, error in LOCALE_FIELDS:
    reading = LOCALE_READ[lang, text]
    if "error" in reading:
        computed = {"status": "unreadable", "error": reading["error"]}
    else:
        computed = {"status": "correct" if passes(field, reading["value"]) else "wrong"}
    case = {"lang": lang, "field": field, "input": text, "status": STATUS[status]}
    if error:
        case["error"] = error
    assert computed == {key: case[key] for key in computed} and set(computed) <= set(case), (lang, text)
    field_cases.append(case)

format_cases = []
for lang, value, decimals, grouping, significant, text, exact in FORMATS:
    convention = CONVENTIONS[lang]
    # A minus and a power of ten marked on a right-to-left page, and nothing else.
    assert (LRM + MINUS in text or LRM + DOT in text or LRM not in text) if convention["rtl"] else LRM not in text
    assert text.startswith(LRM) == (convention["rtl"] and value < 0 and text.lstrip(LRM).startswith(MINUS))
    plain = text.replace(LRM, "").replace(MINUS, "-")
    plain = plain.replace(convention["group"], "").replace(convention["decimal"], ".")
    plain = re.sub(DOT + "10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)$", lambda m: "e" + m[1].translate(SUPERSCRIPT_TO_PLAIN), plain)
    # The text is the value to the digits shown: exact when it is the same double, else within half a unit.
    assert (float(plain) == value) == exact, f"{lang} {value!r}: {text!r} exact {exact}"
    shown = Fraction(plain)
    places = len(plain.split("e")[0].partition(".")[2]) - (int(plain.split("e")[1]) if "e" in plain else 0)
    bound = Fraction(10) ** -places / 2  # of the last digit shown (zeros dropped: looser)
    if decimals is None:  # of the last significant digit
        bound = max(bound, max(abs(Fraction(value)), abs(shown)) * Fraction(10) ** (1 - significant) / 2)
    assert abs(Fraction(value) - shown) <= bound, f"{lang} {value!r}: {text!r}"
    format_cases.append({"lang": lang, "value": value, "decimals": decimals, "group": grouping,
                         "significant": significant, "text": text, "exact": exact})


def as_written(case: dict) -> dict:
    return {**case, "input": LONG[case["input"]]} if case.get("input") in LONG else case


def dump(cases: list[dict]) -> str:
    lines = []
    for case in cases:
        line = json.dumps(as_written(case), ensure_ascii=False)
        # Invisible or look-alike characters stay visible as escapes.
        for char in (MINUS, NBSP, THIN, NNBSP, LRM, LRI, PDI, "\u2000", "\u200a", "\u200b", "\u180e", "\u205f",
                     "\u3000", "\ufeff", "\u2028", "\u0301"):
            line = line.replace(char, f"\\u{ord(char):04x}")
        lines.append("    " + line)
    return "[\n" + ",\n".join(lines) + "\n  ]"


reading_cases += locale_reading_cases
conventions_json = json.dumps(CONVENTIONS, ensure_ascii=True)
document = (
    "{\n"
    f'  "conventions": {conventions_json},\n'
    f'  "readings": {dump(reading_cases)},\n'
    f'  "fields": {dump(field_cases)},\n'
    f'  "questions": {dump(question_cases)},\n'
    f'  "formats": {dump(format_cases)}\n'
    "}\n"
)
groups = (("readings", reading_cases), ("fields", field_cases), ("questions", question_cases),
          ("formats", format_cases))
written = {"conventions": CONVENTIONS, **{name: [as_written(case) for case in cases] for name, cases in groups}}
assert json.loads(document) == written
(HERE / "cases.json").write_text(document, encoding="utf-8")

total = len(reading_cases) + len(field_cases) + len(question_cases) + len(format_cases)
print(f"readings {len(reading_cases)} ({len(locale_reading_cases)} per locale), fields {len(field_cases)}, "
      f"questions {len(question_cases)}, formats {len(format_cases)}, total {total}")
