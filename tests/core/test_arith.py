"""The safe evaluator of authors' numeric answers: plain arithmetic in, a finite float out, ValueError otherwise."""

from __future__ import annotations

import math
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from zadachnik.core.arith import evaluate

ALLOWED = "(allowed: numbers, + - * / **, parentheses, sqrt, exp, log, log2, log10, pi, e)"


# -- values -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("8*(45+30)", 600.0),
        ("16/7", 16 / 7),
        ("7e9*12/2**30", 7e9 * 12 / 2**30),
        ("sqrt(2*120*28800)", math.sqrt(6_912_000)),
        ("-3/4", -0.75),
        ("2**-3", 0.125),
        ("1e-6", 0.000001),
        ("pi", math.pi),
        ("e", math.e),
        ("log10(1000)", 3.0),
        ("log2(8)", 3.0),
        ("log(e)", 1.0),
        ("exp(0)", 1.0),
        ("sqrt(2*120*8*3600)/60", math.sqrt(2 * 120 * 8 * 3600) / 60),
        ("600/390", 600 / 390),
        ("-(-3)", 3.0),
        ("+2", 2.0),
        ("2**3**2", 512.0),
        ("2**1000", 2.0**1000),
        ("  8 * (45 + 30)  ", 600.0),
        ("0.1+0.2", 0.1 + 0.2),
    ],
)
def test_value(expression: str, expected: float) -> None:
    value = evaluate(expression)
    assert type(value) is float
    assert value == expected


def test_known_values_by_hand() -> None:
    # Independent of Python's own arithmetic on the same text.
    assert evaluate("7e9*12/2**30") == pytest.approx(78.2310962677002, rel=1e-14)
    assert evaluate("sqrt(2*120*28800)") == pytest.approx(2629.0682760248, rel=1e-12)
    assert evaluate("16/7") == pytest.approx(2.285714285714286, rel=1e-15)


@pytest.mark.parametrize(("number", "expected"), [(3, 3.0), (0, 0.0), (-12, -12.0), (2.5, 2.5), (1e-6, 1e-6)])
def test_numbers_passed_directly(number: int | float, expected: float) -> None:
    value = evaluate(number)
    assert type(value) is float
    assert value == expected


# -- refused ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "piece"),
    [
        ("x", "'x'"),
        ("x+1", "'x'"),
        ("inf", "'inf'"),
        ("pi.real", "'pi.real'"),
        ("(1).real", "'(1).real'"),
        ("__import__('os').system('true')", "\"__import__('os').system('true')\""),
        ("__import__('os')", "\"__import__('os')\""),
        ("open('f')", "\"open('f')\""),
        ("abs(-1)", "'abs(-1)'"),
        ("sqrt(4, 2)", "'sqrt(4, 2)'"),
        ("sqrt(x=4)", "'sqrt(x=4)'"),
        ("lambda: 1", "'lambda: 1'"),
        ("(lambda: 1)()", "'(lambda: 1)()'"),
        ("[i for i in range(3)]", "'[i for i in range(3)]'"),
        ("sum(i for i in (1, 2))", "'sum(i for i in (1, 2))'"),
        ("{1: 2}", "'{1: 2}'"),
        ("[1][0]", "'[1][0]'"),
        ("(x := 1)", "'x := 1'"),
        ("2 if 1 else 3", "'2 if 1 else 3'"),
        ("1 < 2", "'1 < 2'"),
        ("7 % 2", "'7 % 2'"),
        ("7 // 2", "'7 // 2'"),
        ("'abc'", "\"'abc'\""),
        ("'1' + '2'", "\"'1'\""),
        ("True", "'True'"),
        ("1 + True", "'True'"),
        ("None", "'None'"),
        ("1j", "'1j'"),
    ],
)
def test_not_plain_arithmetic(expression: str, piece: str) -> None:
    with pytest.raises(ValueError) as info:
        evaluate(expression)
    assert str(info.value) == f"{piece} in {expression!r} is not plain arithmetic {ALLOWED}"


def test_forbidden_call_is_never_run(tmp_path: Path) -> None:
    target = tmp_path / "ran"
    with pytest.raises(ValueError, match="is not plain arithmetic"):
        evaluate(f"__import__('os').system('touch {target}')")
    with pytest.raises(ValueError, match="is not plain arithmetic"):
        evaluate(f"open({str(target)!r}, 'w')")
    assert not target.exists()


@pytest.mark.parametrize("value", [True, False])
def test_booleans_are_not_numbers(value: bool) -> None:
    with pytest.raises(ValueError) as info:
        evaluate(value)
    assert str(info.value) == f"{value!r} is not a number"


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_text(text: str) -> None:
    with pytest.raises(ValueError) as info:
        evaluate(text)
    assert str(info.value) == "the answer is empty"


@pytest.mark.parametrize("text", ["2*(3", "1 +", "2 3", "import os", "x = 1", "8*(45+30))", "1 +\n2"])
def test_syntax_errors(text: str) -> None:
    with pytest.raises(ValueError) as info:
        evaluate(text)
    assert str(info.value) == f"cannot read {text!r} as arithmetic"


def test_decimal_comma_is_refused_not_read_as_a_tuple() -> None:
    # `1,5` parses as a tuple; it must not be taken as a number.
    with pytest.raises(ValueError) as info:
        evaluate("1,5")
    assert str(info.value) == ("'1,5' has a decimal comma: numbers in the sources take a decimal point, whatever "
                               "the site's language (write 1.5)")


@pytest.mark.parametrize("text", ["1/0", "1/(2-2)", "0**-1", "5/0.0"])
def test_division_by_zero(text: str) -> None:
    with pytest.raises(ValueError) as info:
        evaluate(text)
    assert str(info.value) == f"{text!r} divides by zero"


@pytest.mark.parametrize(
    ("text", "exponent"),
    [("10**10**10", "1e+10"), ("9**9**9", "3.8742e+08"), ("2**1001", "1001"), ("2**-1001", "-1001")],
)
def test_huge_exponent_fails_fast(text: str, exponent: str) -> None:
    start = time.perf_counter()
    with pytest.raises(ValueError) as info:
        evaluate(text)
    assert time.perf_counter() - start < 0.5
    assert str(info.value) == f"the exponent {exponent} in {text!r} is too large"


def test_huge_exponent_does_not_hang() -> None:
    """In a child process, so that a regression to integer powers (which cannot be interrupted) cannot hang the run."""
    code = (
        "from zadachnik.core.arith import evaluate\n"
        "try:\n    evaluate('10**10**10')\nexcept ValueError as error:\n    print(error)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "the exponent 1e+10 in '10**10**10' is too large"


@pytest.mark.parametrize(
    ("text", "function"),
    [("sqrt(-1)", "sqrt"), ("log(0)", "log"), ("log10(-5)", "log10"), ("log2(0)", "log2"), ("exp(1000)", "exp")],
)
def test_function_outside_its_domain(text: str, function: str) -> None:
    with pytest.raises(ValueError) as info:
        evaluate(text)
    assert str(info.value) == f"{function}() is undefined for its argument in {text!r}"


@pytest.mark.parametrize("text", ["(10**300)**3", "(-8)**(1/3)", "(-1)**0.5"])
def test_not_a_real_number(text: str) -> None:
    with pytest.raises(ValueError) as info:
        evaluate(text)
    assert str(info.value) == f"{text!r} is not a finite real number"


@pytest.mark.parametrize("text", ["1e999", "-1e999", "1e308*10", "1e999-1e999", "1e308+1e308"])
def test_result_that_is_not_finite(text: str) -> None:
    with pytest.raises(ValueError) as info:
        evaluate(text)
    assert str(info.value) == f"{text!r} is not a finite number"


@pytest.mark.parametrize(("value", "shown"), [(math.inf, "inf"), (-math.inf, "-inf"), (math.nan, "nan")])
def test_number_passed_directly_that_is_not_finite(value: float, shown: str) -> None:
    with pytest.raises(ValueError) as info:
        evaluate(value)
    assert str(info.value) == f"{shown!r} is not a finite number"


# -- properties ---------------------------------------------------------------------------------------

# Small integers and at most 8 leaves keep every intermediate value below 2**53, where floats are exact, so
# the evaluator (which works in floats) must agree exactly with Python's integer arithmetic.
_LEAF = st.integers(min_value=-50, max_value=50).map(str)


def _tree(ops: list[str]) -> st.SearchStrategy[str]:
    return st.recursive(
        _LEAF,
        lambda children: (
            st.tuples(children, st.sampled_from(ops), children).map(lambda parts: f"({parts[0]} {parts[1]} {parts[2]})")
            | children.map(lambda child: f"-{child}")
        ),
        max_leaves=8,
    )


@settings(max_examples=400, deadline=None)
@given(_tree(["+", "-", "*"]))
def test_integer_arithmetic_matches_python(expression: str) -> None:
    expected = eval(expression, {"__builtins__": {}})
    assert isinstance(expected, int) and abs(expected) < 2**53
    value = evaluate(expression)
    assert type(value) is float
    assert value == expected


@settings(max_examples=400, deadline=None)
@given(_tree(["+", "-", "*", "/"]))
def test_arithmetic_with_division_matches_python(expression: str) -> None:
    try:
        expected = eval(expression, {"__builtins__": {}})
    except ZeroDivisionError:
        with pytest.raises(ValueError, match="divides by zero"):
            evaluate(expression)
        return
    assert evaluate(expression) == expected


@given(st.integers(min_value=-(2**53), max_value=2**53))
def test_integer_text_and_integer_value_agree(number: int) -> None:
    assert evaluate(str(number)) == evaluate(number) == float(number)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_float_repr_round_trips(number: float) -> None:
    assert evaluate(repr(number)) == number
    assert evaluate(number) == number


# -- regressions: bugs these tests found, now fixed ------------------------------------------------------


@pytest.mark.parametrize("number", ["1" + "0" * 400, 10**400], ids=["text", "int"])
def test_integer_too_large_for_a_float_is_a_value_error(number: str | int) -> None:
    """Was a bug (arith._value / arith.evaluate): `float(node.value)` and `float(expression)` raise OverflowError for an
    integer beyond the float range (10**400 written out, or a YAML integer that large). evaluate promises
    ValueError, and numeric.read_field catches only ValueError, so the build crashes with a traceback."""
    with pytest.raises(ValueError, match="too large"):
        evaluate(number)


# -- names: a question's variant's figures (issue 15) ------------------------------------------------------------


def test_names_of_a_variant_are_numbers_in_the_arithmetic() -> None:
    names = {"N": 7e9, "B": 12, "e": 3}
    assert evaluate("N*B/1e9", names) == 7e9 * 12 / 1e9
    assert evaluate("sqrt(B*3)", names) == 6.0
    # The variant's own `e` wins over the constant; pi is still pi.
    assert evaluate("e*pi", names) == 3 * math.pi


def test_a_name_no_variant_gives_is_refused_with_a_guess() -> None:
    from zadachnik.core.arith import UnknownName

    with pytest.raises(UnknownName) as info:
        evaluate("N*Bt", {"N": 1.0, "B": 2.0})
    assert str(info.value) == "'Bt' in 'N*Bt' is not a name of the variant"
    assert info.value.hint == "did you mean 'B'?"
    # Without names (a question without variants), a name is what it always was: not plain arithmetic.
    with pytest.raises(ValueError, match="'N' in 'N\\*2' is not plain arithmetic"):
        evaluate("N*2")


def test_a_name_too_large_for_a_number_is_an_error_not_a_crash() -> None:
    with pytest.raises(ValueError, match="'big' in 'big/2' is too large for a number"):
        evaluate("big/2", {"big": 10**400})
