"""Variants (issue 15): a question's figures drawn by the author's Python from fixed seeds, each variant a question
of its own, rendered and checked at build in every language."""

from __future__ import annotations

import importlib.util
import json
import logging
import random
import re
from pathlib import Path

import pytest
from support.sites import ROOT, build_failure, build_site, copy_site
from support.variants import FIXTURE, MODULE, fixture_functions
from zadachnik.checking.checks import check_answer_keys
from zadachnik.core.errors import SourceErrors
from zadachnik.python.values_files import variant_seed
from zadachnik.reading.model import load_courses

QUIZ = str(MODULE / "quiz.md")
LANGS = ["ru", "en"]


def course(tmp_path: Path, quiz: str | None = None, functions: str | None = None, module_yml: str | None = None):
    """The fixture's course (changed where asked) as the model reads it."""
    site = copy_site(FIXTURE, tmp_path / "site")
    if quiz is not None:
        (site / MODULE / "quiz.md").write_text(quiz, encoding="utf-8")
    if functions is not None:
        (site / MODULE / "variants.py").write_text(functions, encoding="utf-8")
    if module_yml is not None:
        (site / MODULE / "module.yml").write_text(module_yml, encoding="utf-8")
    return load_courses(site / "exercises", LANGS, site)


def errors(tmp_path: Path, **changes: str) -> list:
    with pytest.raises(SourceErrors) as info:
        course(tmp_path, **changes)
    return info.value.errors


def source() -> str:
    return (FIXTURE / MODULE / "quiz.md").read_text(encoding="utf-8")


def line_with(text: str, needle: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if needle in line)


def rng(question: str, seed: int) -> random.Random:
    """The generator a question's variant function gets for a seed, as the build makes it."""
    return random.Random(variant_seed(question, seed))


# -- the model -----------------------------------------------------------------------------------------------


def test_variant_k_is_drawn_from_seed_k_and_its_key_computed_from_its_names(tmp_path: Path) -> None:
    question = course(tmp_path)[0].modules[0].questions[0]
    variants = question.variants
    assert (variants.function, variants.count, variants.invalid) == ("memory", 6, "error")
    assert variants.line == line_with(source(), "variants:")
    assert [item.number for item in variants.items] == [1, 2, 3, 4, 5, 6]
    assert [item.seed for item in variants.items] == [1, 2, 3, 4, 5, 6]
    for item in variants.items:
        drawn = fixture_functions.memory(rng(question.id, item.seed))
        assert item.values == drawn
        [field] = item.key.fields
        assert field.value == pytest.approx(drawn["N"] * 2 * drawn["B"] / 1e9)
        assert field.atol == 0.5
        assert f"the batch is {drawn['B']}." in item.body["en"].markdown
        assert f"пакет — {drawn['B']}." in item.body["ru"].markdown
    # The figures differ between variants (else a learner's "New variant" would change nothing).
    assert len({json.dumps(item.values) for item in variants.items}) > 1
    # The question itself is variant 1: what the page shows without JavaScript, and what print uses.
    assert question.body == variants.items[0].body and question.key == variants.items[0].key
    concrete = question.variant_questions
    assert [q.key for q in concrete] == [item.key for item in variants.items]
    assert all(q.variants is None for q in concrete)


def test_figures_are_written_per_language_in_text_and_math(tmp_path: Path) -> None:
    functions = "def values():\n    return {'bytes_per_param': 2}\n\n\ndef memory(rng):\n" \
                "    return {'N': 2.5e9, 'B': 4, 'total': 123.5}\n\n\ndef speed(rng):\n" \
                "    return {'T': 2000, 'fast': 20, 'slow': 8}\n"
    question = course(tmp_path, functions=functions)[0].modules[0].questions[0]
    item = question.variants.items[0]
    assert "$N=2{,}5\\cdot 10^{9}$" in item.body["ru"].markdown
    assert "$N=2.5\\cdot 10^{9}$" in item.body["en"].markdown
    assert "= 123{,}5 \\cdot 2$" in item.explanation["ru"].markdown


def test_the_short_form_and_choice_options_with_figures(tmp_path: Path) -> None:
    question = course(tmp_path)[0].modules[0].questions[1]
    assert (question.variants.function, question.variants.count) == ("speed", 10)
    for item in question.variants.items:
        drawn = fixture_functions.speed(rng(question.id, item.seed))
        options = {entry.key: entry.text["en"].markdown for entry in item.lists["options"]}
        assert options == {"A": f"${drawn['fast']}$ s", "B": f"${drawn['slow']}$ s"}
        assert item.key.correct == ["A"]


MIXED = """
/// question | P4
type: mixed
auto: numeric
variants: {from: memory, count: 3}
fields:
  gb: {answer: "N*B/1e9", rtol: "B/1000"}

//// ru | Смешанный
Сколько гигабайт при пакете {{ B }}? Объясните.

fields:
- gb: Гигабайты

explanation:
Умножаем.
////

//// en | Mixed
How many gigabytes for a batch of {{ B }}? Explain.

fields:
- gb: Gigabytes

explanation:
Multiply.
////
///
"""


def test_a_mixed_question_has_variants_and_tolerances_may_use_names(tmp_path: Path) -> None:
    question = course(tmp_path, quiz=source() + MIXED)[0].modules[0].questions[4]
    for item in question.variants.items:
        drawn = fixture_functions.memory(rng(question.id, item.seed))
        [field] = item.key.key.fields
        assert (field.value, field.rtol) == (pytest.approx(drawn["N"] * drawn["B"] / 1e9), drawn["B"] / 1000)
    assert check_answer_keys(course(tmp_path / "again", quiz=source() + MIXED), LANGS, str) == []


MIXED_CHOICE = """
/// question | P5
type: mixed
auto: single
answer: A
shuffle: true
variants: {from: speed, count: 3}

//// ru | Смешанный выбор
Сколько секунд на {{ T }} токенов? Объясните.

options:
A. ${{ fast }}$
B. ${{ slow }}$

explanation:
Делим на 100.
////

//// en | Mixed choice
How many seconds for {{ T }} tokens? Explain.

options:
A. ${{ fast }}$
B. ${{ slow }}$

explanation:
Divide by 100.
////
///
"""


def test_a_shuffled_mixed_choice_question_may_have_variants(tmp_path: Path) -> None:
    question = course(tmp_path, quiz=source() + MIXED_CHOICE)[0].modules[0].questions[4]
    assert question.shuffle is True
    assert [item.key.key.correct for item in question.variants.items] == [["A"]] * 3
    fast = fixture_functions.speed(rng(question.id, 1))["fast"]
    assert question.lists["options"][0].text["en"].markdown == f"${fast}$"


def test_a_question_without_variants_is_untouched(tmp_path: Path) -> None:
    question = course(tmp_path)[0].modules[0].questions[2]
    assert question.variants is None and question.variant_questions == [question]


def test_a_function_that_raises_names_the_variant_the_seed_and_the_line(tmp_path: Path) -> None:
    functions = ("def values():\n    return {'bytes_per_param': 2}\n\n\n"
                 "def memory(rng):\n    share = rng.random()\n"
                 "    if share < 0.3:\n        return {'N': 1 / 0}\n"
                 "    return {'N': 1e9, 'B': 2, 'total': 2e9}\n\n\n"
                 "def speed(rng):\n    return {'T': 1000, 'fast': 10, 'slow': 4}\n")
    failing = next(seed for seed in range(1, 7) if rng("P1", seed).random() < 0.3)
    [error] = errors(tmp_path, functions=functions)
    assert (error.path, error.line) == (QUIZ, line_with(source(), "variants:"))
    assert error.message == (f"variant {failing} of P1 (seed {failing}): memory() raised ZeroDivisionError in "
                             "variants.py:8 (division by zero)")
    assert "invalid: skip" in error.hint


def test_skip_leaves_bad_draws_out_and_draws_seed_k_plus_count(tmp_path: Path) -> None:
    functions = ("def values():\n    return {'bytes_per_param': 2}\n\n\n"
                 "def memory(rng):\n    share = rng.random()\n"
                 "    if share < 0.5:\n        raise ValueError('too small a share')\n"
                 "    return {'N': 1e9, 'B': round(share * 10**6), 'total': 2e9}\n\n\n"
                 "def speed(rng):\n    return {'T': 1000, 'fast': 10, 'slow': 4}\n")
    quiz = source().replace("  count: 6\n", "  count: 6\n  invalid: skip\n")
    question = course(tmp_path, quiz=quiz, functions=functions)[0].modules[0].questions[0]
    expected = [next(seed for seed in range(number, 61, 6) if rng("P1", seed).random() >= 0.5)
                for number in range(1, 7)]
    assert [item.seed for item in question.variants.items] == expected
    assert expected != [1, 2, 3, 4, 5, 6]
    assert [item.number for item in question.variants.items] == [1, 2, 3, 4, 5, 6]


def test_skip_fails_when_no_seed_gives_a_good_draw(tmp_path: Path) -> None:
    functions = ("def values():\n    return {'bytes_per_param': 2}\n\n\n"
                 "def memory(rng):\n    assert rng.random() > 2, 'never'\n\n\n"
                 "def speed(rng):\n    return {'T': 1000, 'fast': 10, 'slow': 4}\n")
    quiz = source().replace("  count: 6\n", "  count: 6\n  invalid: skip\n")
    [error] = errors(tmp_path, quiz=quiz, functions=functions)
    assert error.line == line_with(quiz, "variants:")
    assert error.message.startswith("variant 1 of P1: memory() rejected seeds 1, 7, 13, 19, 25, 31, 37, 43, 49, 55 "
                                    "(the last: memory() raised AssertionError in variants.py:6 (never))")


def test_an_answer_that_cannot_be_computed_is_skipped_or_reported(tmp_path: Path) -> None:
    functions = ("def values():\n    return {'bytes_per_param': 2}\n\n\n"
                 "def memory(rng):\n    return {'N': 1e9, 'B': rng.randint(0, 1), 'total': 2e9}\n\n\n"
                 "def speed(rng):\n    return {'T': 1000, 'fast': 10, 'slow': 4}\n")
    quiz = source().replace('answer: "N*bytes_per_param*B/1e9"', 'answer: "N/B/1e9"')
    first_zero = next(seed for seed in range(1, 7) if rng("P1", seed).randint(0, 1) == 0)
    [error] = errors(tmp_path / "a", quiz=quiz, functions=functions)
    assert (error.line, error.message) == (line_with(quiz, "gb: {answer"),
                                          f"variant {first_zero} of P1 (seed {first_zero}): 'N/B/1e9' divides by zero")
    skipping = quiz.replace("  count: 6\n", "  count: 6\n  invalid: skip\n")
    question = course(tmp_path / "b", quiz=skipping, functions=functions)[0].modules[0].questions[0]
    assert all(item.values["B"] == 1 for item in question.variants.items)


@pytest.mark.parametrize("invalid", ["", "  invalid: skip\n"])
def test_an_answer_written_as_a_range_is_told_what_to_write_whatever_the_draw(tmp_path: Path, invalid: str) -> None:
    """It was "not plain arithmetic" with "check the function's figures for this draw", and skipping left every
    draw out: the list is the source's own problem, not a draw's."""
    quiz = source().replace('answer: "N*bytes_per_param*B/1e9"', "answer: [5, 5]").replace(
        "  count: 6\n", "  count: 6\n" + invalid)
    [error] = errors(tmp_path, quiz=quiz)
    assert error.line == line_with(quiz, "gb: {answer")
    assert error.message == ("variant 1 of P1 (seed 1): the answer of the field 'gb' is a list, [5, 5]: a field's "
                             "answer is one number")
    assert error.hint == "a range whose ends are equal is one number: write 'answer: 5'"


def test_an_unknown_function_gets_a_did_you_mean(tmp_path: Path) -> None:
    quiz = source().replace("from: memory", "from: memroy")
    [error] = errors(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (QUIZ, line_with(quiz, "variants:"))
    assert error.message == "the values file variants.py defines no function memroy"
    assert error.hint == "did you mean 'memory'?"


def test_a_values_file_with_a_byte_order_mark_still_gets_a_did_you_mean(tmp_path: Path) -> None:
    # Notepad on Windows starts a file with one; Python runs the file all the same.
    functions = "\ufeff" + (FIXTURE / MODULE / "variants.py").read_text(encoding="utf-8")
    [error] = errors(tmp_path, quiz=source().replace("from: memory", "from: memroy"), functions=functions)
    assert error.hint == "did you mean 'memory'?", str(error)


def test_a_function_may_be_assigned_or_imported_from_a_helper(tmp_path: Path) -> None:
    functions = ("from helper import memory\n\n\ndef values():\n    return {'bytes_per_param': 2}\n\n\n"
                 "speed = lambda rng: {'T': 1000, 'fast': 10, 'slow': 4}\n")
    site = copy_site(FIXTURE, tmp_path / "site")
    (site / MODULE / "variants.py").write_text(functions, encoding="utf-8")
    (site / MODULE / "helper.py").write_text("def memory(rng):\n    return {'N': 1e9, 'B': rng.randint(2, 9), "
                                             "'total': 1}\n", encoding="utf-8")
    questions = load_courses(site / "exercises", LANGS, site)[0].modules[0].questions
    items = questions[0].variants.items
    assert [item.values["B"] for item in items] == [rng("P1", item.seed).randint(2, 9) for item in items]
    assert questions[1].variants.items[0].values == {"T": 1000, "fast": 10, "slow": 4}


def test_a_name_no_variant_defines(tmp_path: Path) -> None:
    in_text = source().replace("the batch is {{ B }}.", "the batch is {{ Bt }}.")
    [error] = errors(tmp_path / "a", quiz=in_text)
    assert (error.line, error.message) == (line_with(in_text, "{{ Bt }}"),
                                          "variant 1 of P1 (seed 1): no variant defines 'Bt'")
    assert error.hint == "did you mean 'B'?"
    in_answer = source().replace('"N*bytes_per_param*B/1e9"', '"N*bytes_per_param*Bt/1e9"')
    [error] = errors(tmp_path / "b", quiz=in_answer)
    assert error.line == line_with(in_answer, "gb: {answer")
    assert error.message == "variant 1 of P1 (seed 1): 'Bt' in 'N*bytes_per_param*Bt/1e9' is not a name of the variant"
    assert error.hint == "did you mean 'B'?"


@pytest.mark.parametrize("count", ["0", "101", "ten", "2.5"])
def test_count_out_of_range(tmp_path: Path, count: str) -> None:
    quiz = source().replace("  count: 6\n", f"  count: {count}\n")
    [error] = errors(tmp_path, quiz=quiz)
    assert error.line == line_with(quiz, "  count:")
    assert error.message.startswith("'count' is how many variants the build makes, from 1 to 100")


def test_unknown_keys_and_values_under_variants(tmp_path: Path) -> None:
    quiz = source().replace("  count: 6\n", "  cuont: 6\n")
    [error] = errors(tmp_path / "a", quiz=quiz)
    assert (error.line, error.message) == (line_with(quiz, "cuont"), "unknown key 'cuont' in 'variants'")
    assert error.hint.startswith("did you mean 'count'?")
    quiz = source().replace("  count: 6\n", "  invalid: ignore\n")
    [error] = errors(tmp_path / "b", quiz=quiz)
    assert (error.line, error.message) == (line_with(quiz, "invalid:"), "'invalid' is 'error' or 'skip' (not 'ignore')")
    quiz = source().replace("variants: speed", "variants: [speed]")
    [error] = errors(tmp_path / "c", quiz=quiz)
    assert (error.line, error.message) == (line_with(quiz, "variants: [speed]"),
                                          "'variants' names the function that makes them")


def test_variants_need_a_values_file(tmp_path: Path) -> None:
    module_yml = "number: 1\ntitle:\n  ru: Нагрузка\n  en: Load\n"
    found = errors(tmp_path, module_yml=module_yml)
    assert [(error.line, error.message) for error in found] == [
        (line_with(source(), "variants:"), "question P1 has variants, but its module has no values file"),
        (line_with(source(), "variants: speed"), "question P2 has variants, but its module has no values file"),
        (line_with(source(), "variants: {from: speed"), "question N1 has variants, but its module has no values file"),
    ]
    assert "values: variants.py" in found[0].hint


def test_a_values_file_of_variant_functions_only_needs_no_values(tmp_path: Path) -> None:
    functions = ("def memory(rng):\n    return {'N': 1e9, 'B': 2, 'total': 2e9, 'bytes_per_param': 2}\n\n\n"
                 "def speed(rng):\n    return {'T': 1000, 'fast': 10, 'slow': 4}\n")
    question = course(tmp_path, functions=functions)[0].modules[0].questions[0]
    assert question.key.fields[0].value == 4


def test_a_function_that_returns_no_numbers_is_reported_even_when_skipping(tmp_path: Path) -> None:
    functions = ("def values():\n    return {'bytes_per_param': 2}\n\n\n"
                 "def memory(rng):\n    return {'N': 'many'}\n\n\n"
                 "def speed(rng):\n    return {'T': 1000, 'fast': 10, 'slow': 4}\n")
    quiz = source().replace("  count: 6\n", "  count: 6\n  invalid: skip\n")
    [error] = errors(tmp_path, quiz=quiz, functions=functions)
    assert error.message == "variant 1 of P1 (seed 1): memory(rng) gives 'many' for 'N': each value must be a number"
    assert error.hint == "memory(rng) returns a dict of names to finite numbers, e.g. {'N': 7e9, 'B': 12}"


def test_a_figure_too_large_for_a_number_is_reported_even_when_skipping(tmp_path: Path) -> None:
    # Once an OverflowError traceback, from writing the figure into the page.
    functions = ("def values():\n    return {'bytes_per_param': 2}\n\n\n"
                 "def memory(rng):\n    return {'N': 10**400, 'B': 2, 'total': 2e9}\n\n\n"
                 "def speed(rng):\n    return {'T': 1000, 'fast': 10, 'slow': 4}\n")
    quiz = source().replace("  count: 6\n", "  count: 6\n  invalid: skip\n")
    [error] = errors(tmp_path, quiz=quiz, functions=functions)
    assert (error.path, error.line) == (QUIZ, line_with(quiz, "variants:"))
    assert error.message == ("variant 1 of P1 (seed 1): memory(rng) gives an integer of 401 digits for 'N': each "
                             "value must fit in a float (at most 1.8e308)")
    assert error.hint == "memory(rng) returns a dict of names to finite numbers, e.g. {'N': 7e9, 'B': 12}"


def test_a_function_that_never_returns_is_stopped(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("zadachnik.reading.variants.VARIANTS_TIME_LIMIT", 1.0)
    functions = ("def values():\n    return {'bytes_per_param': 2}\n\n\n"
                 "def memory(rng):\n    while True:\n        pass\n\n\n"
                 "def speed(rng):\n    return {'T': 1000, 'fast': 10, 'slow': 4}\n")
    [error] = errors(tmp_path, functions=functions)
    assert (error.line, error.message) == (line_with(source(), "variants:"),
                                          "memory() of P1 did not make its variants within 1 s")


@pytest.mark.parametrize("call", ["import sys; sys.exit(3)", "input()"])
def test_a_function_that_exits_or_reads_input_is_reported_even_when_skipping(tmp_path: Path, call: str) -> None:
    functions = ("def values():\n    return {'bytes_per_param': 2}\n\n\n"
                 f"def memory(rng):\n    {call}\n\n\n"
                 "def speed(rng):\n    return {'T': 1000, 'fast': 10, 'slow': 4}\n")
    quiz = source().replace("  count: 6\n", "  count: 6\n  invalid: skip\n")
    [error] = errors(tmp_path, quiz=quiz, functions=functions)
    expected = {"input()": "memory() reads input at variants.py:6",
                "import sys; sys.exit(3)": "memory() exits the process (SystemExit: 3"}[call]
    assert error.message.startswith(f"variant 1 of P1 (seed 1): {expected}"), error.message


def test_hints_follow_the_variants_figures(tmp_path: Path) -> None:
    """Was refused while the page kept no variants of hints: each variant's hints now have its own figures."""
    question = course(tmp_path, quiz=source())[0].modules[0].questions[0]
    for variant in question.variants.items:
        assert [hint["en"].markdown for hint in variant.hints] == [
            f"Multiply the parameters by 2 and by the batch, {variant.values['B']}."]
        assert variant.hints[0]["ru"].markdown.endswith(f"на размер пакета, {variant.values['B']}.")


def test_a_code_exercise_cannot_have_variants(tmp_path: Path) -> None:
    quiz = source().replace("type: single\nanswer: A\n", "type: code\n")
    [error] = errors(tmp_path, quiz=quiz)
    assert (error.line, error.message) == (line_with(quiz, "variants: speed"),
                                          "a code exercise cannot have variants yet")


# -- the build's check, per variant --------------------------------------------------------------------------


def test_each_variant_is_checked_against_its_own_key(tmp_path: Path) -> None:
    # A checker that accepts small answers only: the variants whose answer is large fail the build's check.
    check = "check: |\n  def check(answer):\n      return answer['fields']['gb']['value'] < 1000\n"
    quiz = source().replace('  gb: {answer: "N*bytes_per_param*B/1e9", atol: 0.5}\n',
                            f'  gb: {{answer: "N*bytes_per_param*B/1e9", atol: 0.5}}\n{check}')
    courses = course(tmp_path, quiz=quiz)
    problems = check_answer_keys(courses, LANGS, str)
    drawn = [fixture_functions.memory(rng("P1", seed)) for seed in range(1, 7)]
    first_large = next(k for k, values in enumerate(drawn, 1) if values["N"] * 2 * values["B"] / 1e9 >= 1000)
    [problem] = problems
    assert problem.message.startswith(f"variant {first_large} of P1 (seed {first_large}): question P1: its checker "
                                      "rejects the answer its 'ru' page reveals")


def test_a_draw_that_repeats_an_earlier_variant_is_drawn_again(tmp_path: Path) -> None:
    """"New variant" must change the question: a variant that would show what an earlier one shows is drawn again
    from seed k+count, k+2·count …, as a bad draw is under `invalid: skip`, here without it."""
    functions = ("def values():\n    return {'bytes_per_param': 2}\n\n\n"
                 "def memory(rng):\n    return {'N': 1e9, 'B': rng.randint(2, 4), 'total': 1}\n\n\n"
                 "def speed(rng):\n    return {'T': rng.randint(100, 999) * 10, 'fast': 10, 'slow': 4}\n")
    quiz = source().replace("  count: 6\n", "  count: 3\n")
    question = course(tmp_path, quiz=quiz, functions=functions)[0].modules[0].questions[0]
    items = question.variants.items
    assert len({rng("P1", seed).randint(2, 4) for seed in (1, 2, 3)}) < 3, "seeds 1-3 repeat a figure"
    assert sorted(item.values["B"] for item in items) == [2, 3, 4]
    for item in items:
        assert (item.seed - item.number) % 3 == 0 and item.values["B"] == rng("P1", item.seed).randint(2, 4)
    assert question.variants.warning == ""


def test_variants_that_repeat_with_every_seed_are_kept_and_warned_of(tmp_path: Path, caplog) -> None:
    functions = ("def values():\n    return {'bytes_per_param': 2}\n\n\n"
                 "def memory(rng):\n    return {'N': 1e9, 'B': rng.choice([2, 3]), 'total': 1}\n\n\n"
                 "def speed(rng):\n    return {'T': rng.randint(100, 999) * 10, 'fast': 10, 'slow': 4}\n")
    quiz = source().replace("  count: 6\n", "  count: 3\n")
    question = course(tmp_path / "a", quiz=quiz, functions=functions)[0].modules[0].questions[0]
    numbers = [item.number for item in question.variants.items]
    assert numbers == [1, 2, 3] and sorted({item.values["B"] for item in question.variants.items}) == [2, 3]
    warning = question.variants.warning
    assert warning.startswith(f"{QUIZ}:{line_with(quiz, 'variants:')}: P1: 1 of its 3 variants show what an earlier "
                              "one shows (3 = ")
    assert warning.endswith("with every seed tried: 'New variant' would not change the question (let memory() draw "
                            "from more figures, or ask for fewer variants with 'count: 2')")
    # The build warns (and `--strict` stops there), and so does `zadachnik check`.
    site = copy_site(FIXTURE, tmp_path / "b")
    (site / MODULE / "quiz.md").write_text(quiz, encoding="utf-8")
    (site / MODULE / "variants.py").write_text(functions, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        build_site(site / "mkdocs.yml", tmp_path / "built", strict=False)
    assert warning in caplog.text
    from zadachnik.cli import main

    assert main(["check", str(site / "exercises"), "--config", str(site / "mkdocs.yml")]) == 1


# -- the built page ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def variants_site(tmp_path_factory) -> Path:
    return build_site(FIXTURE / "mkdocs.yml", tmp_path_factory.mktemp("variants") / "site")


def page(site: Path, lang: str) -> str:
    prefix = "" if lang == "ru" else "en/"
    return (site / f"{prefix}vc/01-load/quiz/index.html").read_text(encoding="utf-8")


def templates_of(html: str, question: str) -> dict[int, str]:
    found = re.findall(rf'<template data-zq-variant-of="{question}" data-zq-variant="(\d+)">(.*?)</template>', html,
                       re.DOTALL)
    return {int(number): content for number, content in found}


def test_the_page_shows_variant_1_and_carries_every_variant(variants_site: Path) -> None:
    html = page(variants_site, "en")
    first = fixture_functions.memory(rng("P1", 1))
    assert f"the batch is {first['B']}." in html
    section = re.search(r'<section class="zq-question" id="q-P1".*?</section>', html, re.DOTALL)[0]
    assert 'data-zq-variants="6"' in section
    templates = templates_of(html, "P1")
    # Variant 1's template holds its own parts where another variant differs: what the page goes back to.
    assert sorted(templates) == [1, 2, 3, 4, 5, 6]
    for number, content in templates.items():
        drawn = fixture_functions.memory(rng("P1", number))
        assert f"the batch is {drawn['B']}." in content
        # Only what differs: the field's input is never repeated, the label (the same in every variant) neither.
        assert "<input" not in content and "Gigabytes</label>" not in content
    specs = json.loads(re.search(r'<template class="zq-spec">(.*?)</template>', html, re.DOTALL)[1])
    answers = [spec["fields"][0]["answer"] for spec in specs["P1"]["variants"]]
    assert answers == pytest.approx([values["N"] * 2 * values["B"] / 1e9 for values in
                                     (fixture_functions.memory(rng("P1", seed)) for seed in range(1, 7))])
    assert specs["P1"]["fields"][0]["answer"] == answers[0]
    assert "variants" not in specs["P3"]


def test_both_languages_carry_the_same_figures(variants_site: Path) -> None:
    ru, en = page(variants_site, "ru"), page(variants_site, "en")
    for number in range(2, 7):
        drawn = fixture_functions.memory(rng("P1", number))
        assert f"пакет — {drawn['B']}." in templates_of(ru, "P1")[number]
        assert f"the batch is {drawn['B']}." in templates_of(en, "P1")[number]
    # The revealed answer, per language: a decimal comma in Russian.
    spec_ru = json.loads(re.search(r'<template class="zq-spec">(.*?)</template>', ru, re.DOTALL)[1])
    spec_en = json.loads(re.search(r'<template class="zq-spec">(.*?)</template>', en, re.DOTALL)[1])
    assert spec_ru["P1"]["variants"] == spec_en["P1"]["variants"]


def test_search_holds_variant_1_only(variants_site: Path) -> None:
    index = (variants_site / "search" / "search_index.json").read_text(encoding="utf-8")
    first, second = (fixture_functions.memory(rng("P1", seed)) for seed in (1, 2))
    assert f"the batch is {first['B']}" in index
    if first["B"] != second["B"]:
        assert f"the batch is {second['B']}." not in index


def test_a_variants_build_failure_names_file_line_and_seed(tmp_path: Path, caplog) -> None:
    site = copy_site(FIXTURE, tmp_path / "site")
    functions = (site / MODULE / "variants.py").read_text(encoding="utf-8")
    (site / MODULE / "variants.py").write_text(functions.replace("batch = rng.randint(2, 64)", "batch = 1 // 0"),
                                               encoding="utf-8")
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert (f"{QUIZ}:{line_with(source(), 'variants:')}: variant 1 of P1 (seed 1): memory() raised "
            "ZeroDivisionError in variants.py:") in message


def test_a_draw_is_seeded_by_its_question_and_the_guides_recipe_reproduces_it() -> None:
    """The guide: variant k of P05 is `p05(random.Random("P05/k"))`. Two questions drawing from one function get
    different figures, which bare seeds 1, 2, 3 … gave them alike."""
    module = ROOT / "exercises" / "rl-for-llm" / "12-infrastructure"
    spec = importlib.util.spec_from_file_location("sample_variants", module / "variants.py")
    functions = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(functions)
    courses = load_courses(ROOT / "exercises", ["ru", "en"], ROOT)
    course = next(course for course in courses if course.id == "rl-for-llm")
    questions = [question for question in course.modules[0].questions if question.variants is not None]
    assert questions
    for question in questions:
        for item in question.variants.items:
            drawn = getattr(functions, question.variants.function)(random.Random(f"{question.id}/{item.seed}"))
            assert {name: item.values[name] for name in drawn} == drawn, (question.id, item.number)
    assert fixture_functions.speed(rng("P2", 1)) != fixture_functions.speed(rng("P4", 1))
