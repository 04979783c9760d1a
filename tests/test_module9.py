"""Module 9 of "Modern LLMs" (pretraining): figures, pages, notebooks and the loaded model.

Every figure on the module's pages is computed by `files/pretrain_calc.py` or `files/pretrain_demo.py`. Here
the same modules are imported and checked against the known results, each figure as the pages write it is
compared with the computed value to the digits shown (in both languages), the four notebooks are run top to
bottom and must print what they have stored, and the module is loaded as the plugin loads it.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
import sys
from pathlib import Path

import pytest
from zadachnik.model import Course, Exercise, Module, Question, Section, load_courses

ROOT = Path(__file__).resolve().parent.parent
MODULE_DIR = ROOT / "exercises" / "modern-llms" / "09-pretraining"
FILES = MODULE_DIR / "files"

sys.dont_write_bytecode = True  # keep __pycache__ out of the course files
if str(FILES) not in sys.path:
    sys.path.insert(0, str(FILES))

import pretrain_calc as pc  # noqa: E402
import pretrain_demo as demo  # noqa: E402

LANGS = ("ru", "en")

# The seed's questions with their correct letters, in page order.
SEED_KEYS = {
    "9.4.1": "A", "9.4.2": "B", "9.5.1": "C", "9.5.2": "A", "9.6.1": "B", "9.7.1": "C", "9.7.2": "A",
    "9.8.1": "B", "9.9.1": "C", "9.10.1": "A", "9.10.2": "B", "9.11.1": "B", "9.11.2": "B", "9.12.1": "C",
    "9.14.1": "A", "9.15.1": "B", "9.15.2": "B", "9.16.1": "C",
}
CODE_EXERCISES = {"9.12.2": "9.12", "9.15.3": "9.15"}
PAGE_ORDER = ["9.4.1", "9.4.2", "9.5.1", "9.5.2", "9.6.1", "9.7.1", "9.7.2", "9.8.1", "9.9.1", "9.10.1", "9.10.2",
              "9.11.1", "9.11.2", "9.12.1", "9.12.2", "9.14.1", "9.15.1", "9.15.2", "9.15.3", "9.16.1"]

# -- the computed figures ---------------------------------------------------------------------------------------

C = pc.train_flops(pc.LLAMA3_8B_PARAMS, pc.LLAMA3_8B_TOKENS)
BEST = pc.optimal_split(C)
L8 = pc.CHINCHILLA.loss(pc.LLAMA3_8B_PARAMS, pc.LLAMA3_8B_TOKENS)
BE = pc.break_even()
RULE = pc.rule_of_thumb_split(C)
EXPONENTS = pc.optimum_exponents()
HALF = pc.isoflop_profile(C, [0.5])[0]
NS_DIAG = pc.newton_schulz([[3.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
GRAM_T, GRAM_N = pc.gram_work(64, 32, True), pc.gram_work(64, 32, False)
STATE_7B = pc.state_bytes(7e9)
ZERO3_64 = pc.zero_state_bytes(7e9, 64, 3)
BASE_RUN = demo.run_pipeline()
REORDERED_RUN = demo.run_pipeline(order=("dedup", "quality", "language"))
ZERO_TABLE = {(row.stage, row.processes): row for row in demo.zero_table(1.0, (1, 2, 8))}


def close(value: float, expected: float, rel: float = 5e-7) -> bool:
    return math.isclose(value, expected, rel_tol=rel)


def test_e1_compute_optimal_split() -> None:
    assert C == pytest.approx(7.227e23, rel=1e-12)
    assert BEST.params == pytest.approx(35.663e9, rel=2e-5)
    assert BEST.tokens == pytest.approx(3.377e12, rel=2e-4)
    assert round(BEST.tokens_per_param, 2) == 94.70
    assert round(L8, 6) == 1.948310
    assert round(BEST.loss, 6) == 1.922505
    assert round(L8 - BEST.loss, 6) == 0.025804
    assert 6 * BEST.params * BEST.tokens == pytest.approx(C, rel=1e-12)


def test_the_bisection_agrees_with_the_closed_form_and_is_the_minimum() -> None:
    closed = pc.optimal_split_closed_form(C)
    assert BEST.params == pytest.approx(closed.params, rel=1e-12)
    # The optimum is the lowest point of the isoFLOP curve.
    around = pc.isoflop_profile(C, [0.99, 1.0, 1.01])
    assert around[1]["loss"] < around[0]["loss"] and around[1]["loss"] < around[2]["loss"]
    law = pc.CHINCHILLA
    assert law.alpha * law.A * BEST.params**-law.alpha == pytest.approx(
        law.beta * law.B * BEST.tokens**-law.beta, rel=1e-12)


def test_e2_break_even() -> None:
    assert BE.target_loss == L8
    assert pc.CHINCHILLA.loss(70e9, BE.big_tokens) == pytest.approx(L8, rel=1e-14)
    assert BE.big_tokens == pytest.approx(1.094026e12, rel=1e-6)
    assert BE.big_compute == pytest.approx(4.59491e23, rel=1e-6)
    assert BE.saved_compute == pytest.approx(2.63209e23, rel=1e-6)
    assert BE.extra_per_token == pytest.approx(1.2394e11, rel=1e-12)
    assert BE.tokens == pytest.approx(2.12368e12, rel=1e-6)
    small, big = BE.total_compute(BE.tokens)
    assert small == pytest.approx(big, rel=1e-12)


def test_e3_state_and_bubble() -> None:
    assert STATE_7B == 112e9
    assert round(STATE_7B / pc.GiB, 3) == 104.308
    assert ZERO3_64 == 1.75e9
    assert round(ZERO3_64 / pc.GiB, 3) == 1.630
    assert pc.zero_state_bytes(7e9, 1, 0) == STATE_7B
    assert pc.bubble_fraction(8, 32) == 7 / 39 and round(100 * 7 / 39, 1) == 17.9
    assert pc.bubble_fraction(8, 128) == 7 / 135 and round(100 * 7 / 135, 1) == 5.2
    assert pc.min_microbatches(8) == 134
    assert pc.bubble_fraction(8, 133) == 0.05 and pc.bubble_fraction(8, 134) < 0.05
    with pytest.raises(ValueError):
        pc.zero_state_bytes(7e9, 64, 4)
    with pytest.raises(ValueError):
        pc.bubble_fraction(0, 4)


def test_newton_schulz_orthogonalises_and_keeps_the_shape() -> None:
    matrix = [[1.0, 2.0, 0.5], [0.0, 1.0, -1.0], [2.0, 0.0, 1.0], [1.0, 1.0, 1.0], [0.0, 3.0, 0.0],
              [1.0, 0.0, -2.0]]
    result = pc.newton_schulz(matrix)
    assert len(result) == 6 and all(len(row) == 3 for row in result)
    assert all(0.6 < s < 1.25 for s in pc.singular_values(result))
    wide = pc.newton_schulz(pc.transpose(matrix))
    for row, other in zip(pc.transpose(wide), result, strict=True):
        assert row == pytest.approx(other, abs=1e-12)
    assert round(NS_DIAG[0][0], 6) == 0.753033 and round(NS_DIAG[1][1], 6) == 1.133706
    # The singular values of M and of M.T agree (9.12.1).
    assert pc.singular_values(matrix) == pytest.approx(pc.singular_values(pc.transpose(matrix)), rel=1e-9)


def test_demo_1_filters() -> None:
    assert BASE_RUN.kept == ["D1", "D6", "D8"]
    assert {doc: d.stage for doc, d in BASE_RUN.dropped.items()} == {
        "D2": "dedup", "D3": "language", "D4": "quality", "D5": "quality", "D7": "language"}
    assert [(s.docs_in, s.docs_out) for s in BASE_RUN.stages] == [(8, 6), (6, 4), (4, 3)]
    assert REORDERED_RUN.kept == ["D1", "D8"]
    assert REORDERED_RUN.dropped["D6"].other == "D5"
    assert demo.run_pipeline(max_similarity=0.5).kept == ["D1", "D6"]
    assert demo.run_pipeline(max_similarity=0.9).kept == ["D1", "D2", "D6", "D8"]
    for lang in LANGS:
        for doc in demo.DOCUMENTS:
            assert demo.reason(BASE_RUN, doc.id, lang)


def test_demo_2_sharded_update_and_memory() -> None:
    weights, inputs, targets = demo.make_problem()
    plain = demo.plain_training(weights, inputs, targets, 5)
    shards = demo.sharded_training(weights, inputs, targets, 5, processes=2)
    assert demo.max_difference(plain, demo.assemble(shards)) < 1e-15
    assert demo.max_difference(plain, weights) > 0.1  # training did move the weights
    assert [len(s.weights) for s in shards] == [2, 2]
    assert [ZERO_TABLE[(0, p)].peak_gb for p in (1, 2, 8)] == [19.0, 19.0, 19.0]
    assert [ZERO_TABLE[(3, p)].peak_gb for p in (1, 2, 8)] == [19.0, 11.25, 5.25]
    assert [ZERO_TABLE[(3, p)].naive_gb for p in (1, 2, 8)] == [16.0, 8.0, 2.0]


# -- every figure on the pages, as written, equals the computed value to the digits shown ---------------------

# (source file, text on the Russian page, text on the English page, computed value)
FIGURES = [
    # quiz.md
    ("quiz.md", r"7{,}23\cdot10^{23}", r"7.23\cdot10^{23}", C),
    ("quiz.md", r"N^*\approx35{,}7", r"N^*\approx35.7", BEST.params / 1e9),
    ("quiz.md", r"D^*\approx3{,}38", r"D^*\approx3.38", BEST.tokens / 1e12),
    ("quiz.md", r"3{,}377\cdot10^{12}", r"3.377\cdot10^{12}", BEST.tokens),
    ("quiz.md", r"35{,}663\cdot10^{9}", r"35.663\cdot10^{9}", BEST.params),
    ("quiz.md", r"\approx94{,}7", r"\approx94.7", BEST.tokens_per_param),
    ("quiz.md", "Около 94,7", "About 94.7", BEST.tokens_per_param),
    ("quiz.md", r"C^{0{,}452}", r"C^{0.452}", EXPONENTS[0]),
    ("quiz.md", r"C^{0{,}548}", r"C^{0.548}", EXPONENTS[1]),
    ("quiz.md", r"C^{0{,}097}", r"C^{0.097}", EXPONENTS[2]),
    ("quiz.md", r"C=7{,}227\cdot10^{23}", r"C=7.227\cdot10^{23}", C),
    ("quiz.md", r"N\approx77{,}6", r"N\approx77.6", RULE.params / 1e9),
    ("quiz.md", r"D\approx1{,}55", r"D\approx1.55", RULE.tokens / 1e12),
    ("quiz.md", r"0{,}0066", r"0.0066", RULE.loss - BEST.loss),
    ("quiz.md", r"0{,}0054", r"0.0054", HALF["excess"]),
    ("quiz.md", r"около $0{,}0258$", r"about $0.0258$", L8 - BEST.loss),
    ("quiz.md", r"\Delta L\approx0{,}0258", r"\Delta L\approx0.0258", L8 - BEST.loss),
    ("quiz.md", "в 4,4 раза", "4.4 times", BEST.params / pc.LLAMA3_8B_PARAMS),
    ("quiz.md", r"\approx1868", r"\approx1868", pc.LLAMA3_8B_TOKENS / pc.LLAMA3_8B_PARAMS),
    ("quiz.md", "в 19,7 раза", "19.7 times", pc.LLAMA3_8B_TOKENS / pc.LLAMA3_8B_PARAMS / BEST.tokens_per_param),
    ("quiz.md", r"1{,}09\cdot10^{12}", r"1.09\cdot10^{12}", BE.big_tokens),
    ("quiz.md", r"2{,}63\cdot10^{23}", r"2.63\cdot10^{23}", BE.saved_compute),
    ("quiz.md", r"1{,}24\cdot10^{11}", r"1.24\cdot10^{11}", BE.extra_per_token),
    ("quiz.md", r"2{,}12\cdot10^{12}", r"2.12\cdot10^{12}", BE.tokens),
    ("quiz.md", r"65\,536", r"65{,}536", GRAM_T["gram_mults"]),
    ("quiz.md", r"131\,072", r"131{,}072", GRAM_N["gram_mults"]),
    ("quiz.md", r"32\,768", r"32{,}768", GRAM_T["square_mults"]),
    ("quiz.md", r"262\,144", r"262{,}144", GRAM_N["square_mults"]),
    ("quiz.md", "1024 элемента", "1024 entries", GRAM_T["entries"]),
    ("quiz.md", "вместо 4096", "instead of 4096", GRAM_N["entries"]),
    ("quiz.md", "получаются 0,753", "yields 0.753", NS_DIAG[0][0]),
    ("quiz.md", "и 1,134", "and 1.134", NS_DIAG[1][1]),
    ("quiz.md", "≈0,753033", "≈0.753033", NS_DIAG[0][0]),
    ("quiz.md", "≈1,133706", "≈1.133706", NS_DIAG[1][1]),
    ("quiz.md", "это 1,75 GB", "that is 1.75 GB", ZERO3_64 / pc.GB),
    ("quiz.md", "пик 5,25 GB", "peaks at 5.25 GB", ZERO_TABLE[(3, 8)].peak_gb),
    ("quiz.md", "границе 2 GB", "bound of 2 GB", ZERO_TABLE[(3, 8)].naive_gb),
    ("quiz.md", r"4{,}965", r"4.965", 100 * pc.bubble_fraction(8, 134)),
    ("quiz.md", r"5{,}19", r"5.19", 100 * pc.bubble_fraction(8, 128)),
    ("quiz.md", "около 20,6", "about 20.6", pc.training_days(C, 1024, 989e12, 0.4)),
    ("quiz.md", "около 27,5", "about 27.5", pc.training_days(C, 1024, 989e12, 0.3)),
    # exercises.md: E1
    ("exercises.md", r"=7{,}227\cdot10^{23}", r"=7.227\cdot10^{23}", C),
    ("exercises.md", r"0{,}174321", r"0.174321", pc.CHINCHILLA.A * pc.LLAMA3_8B_PARAMS ** -pc.CHINCHILLA.alpha),
    ("exercises.md", r"0{,}083988", r"0.083988", pc.CHINCHILLA.B * pc.LLAMA3_8B_TOKENS ** -pc.CHINCHILLA.beta),
    ("exercises.md", r"1{,}948310", r"1.948310", L8),
    ("exercises.md", r"N^*=35{,}663", r"N^*=35.663", BEST.params / 1e9),
    ("exercises.md", r"D^*=3{,}377", r"D^*=3.377", BEST.tokens / 1e12),
    ("exercises.md", r"D^*/N^*=94{,}70", r"D^*/N^*=94.70", BEST.tokens_per_param),
    ("exercises.md", r"0{,}105002", r"0.105002", pc.CHINCHILLA.A * BEST.params ** -pc.CHINCHILLA.alpha),
    ("exercises.md", r"0{,}127503", r"0.127503", pc.CHINCHILLA.B * BEST.tokens ** -pc.CHINCHILLA.beta),
    ("exercises.md", r"\beta/\alpha\approx0{,}824", r"\beta/\alpha\approx0.824",
     pc.CHINCHILLA.beta / pc.CHINCHILLA.alpha),
    ("exercises.md", r"L^*=1{,}922505", r"L^*=1.922505", BEST.loss),
    ("exercises.md", r"\mathbf{0{,}025804}", r"\mathbf{0.025804}", L8 - BEST.loss),
    ("exercises.md", r"$0{,}025805$", r"$0.025805$", round(L8, 6) - round(BEST.loss, 6)),
    # E2
    ("exercises.md", r"0{,}083487", r"0.083487", pc.CHINCHILLA.A * 70e9 ** -pc.CHINCHILLA.alpha),
    ("exercises.md", r"0{,}174822", r"0.174822", L8 - pc.CHINCHILLA.E - pc.CHINCHILLA.A * 70e9 ** -pc.CHINCHILLA.alpha),
    ("exercises.md", r"1{,}094026\cdot10^{12}", r"1.094026\cdot10^{12}", BE.big_tokens),
    ("exercises.md", r"4{,}59491\cdot10^{23}", r"4.59491\cdot10^{23}", BE.big_compute),
    ("exercises.md", r"2{,}63209\cdot10^{23}", r"2.63209\cdot10^{23}", BE.saved_compute),
    ("exercises.md", r"1{,}2394\cdot10^{11}", r"1.2394\cdot10^{11}", BE.extra_per_token),
    ("exercises.md", r"2{,}12368\cdot10^{12}", r"2.12368\cdot10^{12}", BE.tokens),
    ("exercises.md", "через 21,2", "after about 21.2", BE.tokens / 1e11),
    ("exercises.md", "около 20,6", "about 20.6", pc.training_days(C, 1024, 989e12, 0.4)),
    ("exercises.md", "около 13,1", "about 13.1", pc.training_days(BE.big_compute, 1024, 989e12, 0.4)),
    # E3
    ("exercises.md", r"104{,}308", r"104.308", STATE_7B / pc.GiB),
    ("exercises.md", r"=1{,}75$", r"=1.75$", ZERO3_64 / pc.GB),
    ("exercises.md", r"1{,}630", r"1.630", ZERO3_64 / pc.GiB),
    ("exercises.md", "то есть 29,31 GB", "i.e. 29.31 GB", pc.zero_state_bytes(7e9, 64, 1) / pc.GB),
    ("exercises.md", "15,53 GB", "15.53 GB", pc.zero_state_bytes(7e9, 64, 2) / pc.GB),
    ("exercises.md", r"0{,}17949", r"0.17949", pc.bubble_fraction(8, 32)),
    ("exercises.md", r"17{,}9", r"17.9", 100 * pc.bubble_fraction(8, 32)),
    ("exercises.md", r"0{,}05185", r"0.05185", pc.bubble_fraction(8, 128)),
    ("exercises.md", r"\mathbf{5{,}2", r"\mathbf{5.2", 100 * pc.bubble_fraction(8, 128)),
    ("exercises.md", "**134**", "**134**", pc.min_microbatches(8)),
    # E4
    ("exercises.md", "сходство 0,882", "similarity 0.882", BASE_RUN.dropped["D2"].value),
    ("exercises.md", "сходство 0,762", "similarity 0.762", REORDERED_RUN.dropped["D6"].value),
    ("exercises.md", "0,591)", "0.591 with D1", demo.similarity(demo.DOCUMENTS[7].text, demo.DOCUMENTS[0].text)),
    ("exercises.md", "| 66,7 %", "| 66.7%", 100 * 4 / 6),
    ("exercises.md", "| 37,5 %", "| 37.5%", 100 * BASE_RUN.stages[-1].docs_out / BASE_RUN.pool_docs),
    ("exercises.md", "остаётся 40,7 %", "40.7% of the pool", 100 * BASE_RUN.stages[-1].words_out / BASE_RUN.pool_words),
    ("exercises.md", "25,0 % пула", "25.0% of the pool", 100 * len(REORDERED_RUN.kept) / REORDERED_RUN.pool_docs),
    # E5
    ("exercises.md", "19,00 | 19,00 | 19,00 |", "19.00 | 19.00 | 19.00 |", ZERO_TABLE[(0, 8)].peak_gb),
    ("exercises.md", "в 1,19, 1,41 и 2,63", "of 1.19, 1.41 and 2.63", ZERO_TABLE[(3, 1)].peak_gb / 16),
]

# Table rows and lists carry several numbers; these check the rest of them.
ROWS = {
    ("exercises.md", "ru"): [("| 13,00 |", ZERO_TABLE[(1, 2)].peak_gb), ("| 8,50 |", ZERO_TABLE[(1, 8)].peak_gb),
                             ("| 12,00 |", ZERO_TABLE[(2, 2)].peak_gb), ("| 6,75 |", ZERO_TABLE[(2, 8)].peak_gb),
                             ("| 11,25 |", ZERO_TABLE[(3, 2)].peak_gb), ("| 5,25 |", ZERO_TABLE[(3, 8)].peak_gb),
                             ("1,41 и", ZERO_TABLE[(3, 2)].peak_gb / 8), ("и 2,63", ZERO_TABLE[(3, 8)].peak_gb / 2),
                             ("| 75,0 % | 75,0 % |", 100 * 6 / 8), ("| 75,0 % | 37,5 % |", 100 * 3 / 4)],
    ("exercises.md", "en"): [("| 13.00 |", ZERO_TABLE[(1, 2)].peak_gb), ("| 8.50 |", ZERO_TABLE[(1, 8)].peak_gb),
                             ("| 12.00 |", ZERO_TABLE[(2, 2)].peak_gb), ("| 6.75 |", ZERO_TABLE[(2, 8)].peak_gb),
                             ("| 11.25 |", ZERO_TABLE[(3, 2)].peak_gb), ("| 5.25 |", ZERO_TABLE[(3, 8)].peak_gb),
                             ("1.41 and", ZERO_TABLE[(3, 2)].peak_gb / 8), ("and 2.63", ZERO_TABLE[(3, 8)].peak_gb / 2),
                             ("| 75.0% | 75.0% |", 100 * 6 / 8), ("| 75.0% | 37.5% |", 100 * 3 / 4)],
}

_NUMBER = re.compile(r"(\d+(?:\.\d+)?)(?:\\cdot10\^\{?(-?\d+)\}?)?")


def shown_number(text: str, lang: str) -> tuple[float, float]:
    """The first number written in `text` and half a unit of its last digit: the rounding it can hide."""
    if lang == "ru":
        text = text.replace(r"\,", "").replace("{,}", ".").replace(",", ".")
    else:
        text = text.replace("{,}", "").replace(",", "")
    match = _NUMBER.search(text)
    assert match, text
    mantissa, exponent = match.group(1), int(match.group(2) or 0)
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    return float(mantissa) * 10.0**exponent, 0.5 * 10.0 ** (exponent - decimals)


def language_text(module: Module, source: str, lang: str) -> str:
    """Everything one language's page of the module shows, as written in the source."""
    parts: list[str] = []
    if source == "quiz.md":
        for item in module.quiz:
            if isinstance(item, Section):
                parts.append(item.title[lang].markdown)
                continue
            parts += [item.title[lang].markdown, item.body[lang].markdown, item.explanation[lang].markdown]
            parts += [entry.text[lang].markdown for entries in item.lists.values() for entry in entries]
            if item.type == "code":
                parts += [test.message[lang] for test in item.key.tests]
    else:
        for exercise in module.exercises:
            parts += [exercise.title[lang].markdown, exercise.statement[lang].markdown,
                      exercise.solution[lang].markdown]
            if exercise.criteria:
                parts.append(exercise.criteria[lang].markdown)
    return "\n".join(parts)


@pytest.fixture(scope="module")
def course(monkeypatch_module) -> Course:
    monkeypatch_module.chdir(ROOT)
    courses = load_courses(Path("exercises"), ["ru", "en"], Path("."))
    return next(c for c in courses if c.id == "modern-llms")


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.fixture(scope="module")
def module9(course: Course) -> Module:
    return next(m for m in course.modules if m.number == 9)


@pytest.mark.parametrize("source, ru, en, value", FIGURES, ids=[f"{f[0]}:{f[2]}" for f in FIGURES])
def test_page_figure_equals_the_computed_value(module9: Module, source: str, ru: str, en: str, value: float) -> None:
    for lang, text in (("ru", ru), ("en", en)):
        assert text in language_text(module9, source, lang), (lang, text)
        number, slack = shown_number(text, lang)
        assert abs(number - value) <= slack * (1 + 1e-9) + 1e-12 * abs(value), (lang, text, value)


@pytest.mark.parametrize("source, lang", list(ROWS))
def test_table_figures_equal_the_computed_values(module9: Module, source: str, lang: str) -> None:
    written = language_text(module9, source, lang)
    for text, value in ROWS[(source, lang)]:
        assert text in written, (lang, text)
        number, slack = shown_number(text.strip("| "), lang)
        assert abs(number - value) <= slack * (1 + 1e-9), (lang, text, value)


def test_the_seed_defects_are_fixed(module9: Module) -> None:
    """The seed put formulas in the wrong places in 9.11.1, 9.7.2 and 9.16.1 (and N for 2N in 9.8.1)."""
    questions = {q.id: q for q in module9.questions}
    for lang, budget in (("ru", r"$C\approx7{,}23\cdot10^{23}$"), ("en", r"$C\approx7.23\cdot10^{23}$")):
        assert "$W_Q$" in questions["9.11.1"].explanation[lang].markdown
        assert "$W_K$" in questions["9.11.1"].explanation[lang].markdown
        assert budget in questions["9.7.2"].explanation[lang].markdown
        assert questions["9.16.1"].explanation[lang].markdown.split(".", 2)[1].lstrip().startswith("$6ND$")
        assert "$2N$" in questions["9.8.1"].explanation[lang].markdown


# -- the module as the plugin loads it --------------------------------------------------------------------------


def test_course_and_module(course: Course, module9: Module) -> None:
    assert course.modules_total == 20
    assert course.title == {"ru": "Современные LLM", "en": "Modern LLMs"}
    assert module9.slug == "09-pretraining"
    assert all(module9.title[lang] for lang in LANGS)


def test_every_question_in_both_languages(module9: Module) -> None:
    questions = module9.questions
    assert [q.id for q in questions] == PAGE_ORDER
    for question in questions:
        section = question.section.id
        assert question.id.rsplit(".", 1)[0] == section
        for lang in LANGS:
            assert question.section.title[lang]
            for part in (question.title, question.body, question.explanation):
                assert part[lang].markdown.strip(), (question.id, lang)
        if question.id in SEED_KEYS:
            assert question.type == "single"
            assert question.key.correct == [SEED_KEYS[question.id]], question.id
            options = question.lists["options"]
            assert [entry.key for entry in options] == ["A", "B", "C"]
            assert all(entry.text[lang].markdown.strip() for entry in options for lang in LANGS)
        else:
            assert question.type == "code" and CODE_EXERCISES[question.id] == section
            assert question.key.time_limit <= 5
            assert all(test.message.get(lang) for test in question.key.tests for lang in LANGS)


def run_code_exercise(question: Question, code: str) -> list[bool]:
    namespace: dict = {"__name__": "__main__"}
    exec(compile(code, question.id, "exec"), namespace)  # noqa: S102 - the module's own reference solution
    results = []
    for test in question.key.tests:
        try:
            try:
                compiled = compile(test.test, "<test>", "eval")
            except SyntaxError:
                exec(compile(test.test, "<test>", "exec"), namespace)  # noqa: S102
                results.append(True)
            else:
                results.append(bool(eval(compiled, namespace)))  # noqa: S307
        except (AssertionError, Exception):  # noqa: BLE001 - a failing test is a result here
            results.append(False)
    return results


def test_code_exercises_agree_with_the_calc_module(module9: Module) -> None:
    questions = {q.id: q for q in module9.questions}
    namespace: dict = {}
    exec(questions["9.12.2"].key.solution, namespace)  # noqa: S102
    matrix = [[1.0, 2.0, 0.5], [0.0, 1.0, -1.0], [2.0, 0.0, 1.0], [1.0, 1.0, 1.0]]
    assert namespace["newton_schulz"](matrix) == pc.newton_schulz(matrix)
    assert namespace["newton_schulz"](pc.transpose(matrix), 3) == pc.newton_schulz(pc.transpose(matrix), 3)
    namespace = {}
    exec(questions["9.15.3"].key.solution, namespace)  # noqa: S102
    for p, m in ((8, 32), (8, 128), (4, 10), (1, 5)):
        assert namespace["bubble_fraction"](p, m) == pc.bubble_fraction(p, m)
    assert namespace["min_microbatches"](8) == pc.min_microbatches(8) == 134
    # The reference solutions pass their hidden tests, and the starters do not.
    for question_id in CODE_EXERCISES:
        question = questions[question_id]
        assert all(run_code_exercise(question, question.key.solution)), question_id
        assert not all(run_code_exercise(question, question.key.starter)), question_id


def test_exercises_in_both_languages(module9: Module) -> None:
    exercises: list[Exercise] = module9.exercises
    assert [e.id for e in exercises] == ["E1", "E2", "E3", "E4", "E5"]
    for exercise in exercises:
        assert exercise.project == (exercise.id in ("E4", "E5"))
        for lang in LANGS:
            for part in (exercise.title, exercise.statement, exercise.solution):
                assert part[lang].markdown.strip(), (exercise.id, lang)
            if exercise.project:
                assert exercise.criteria[lang].markdown.strip()
        # Each exercise points to both notebooks, Russian and English.
        files = {link.file for link in exercise.notebooks}
        assert any(f.endswith("_ru.ipynb") for f in files) and any(f.endswith("_en.ipynb") for f in files)


def test_notebook_links_name_real_sections(module9: Module) -> None:
    for exercise in module9.exercises:
        for link in exercise.notebooks:
            headings = notebook_headings(FILES / link.file)
            for lang in LANGS:
                assert link.section[lang] in headings, (exercise.id, link.file, link.section[lang])
        if exercise.project:
            demo_sections = [link.section["ru"] for link in exercise.notebooks if link.file.endswith("_ru.ipynb")]
            assert any(section in exercise.criteria["ru"].markdown for section in demo_sections)
            demo_sections = [link.section["en"] for link in exercise.notebooks if link.file.endswith("_en.ipynb")]
            assert any(section in exercise.criteria["en"].markdown for section in demo_sections)


# -- notebooks ---------------------------------------------------------------------------------------------------

NOTEBOOKS = ["module_09_notebook_pretrain_ru.ipynb", "module_09_notebook_pretrain_en.ipynb",
             "module_09_demo_ru.ipynb", "module_09_demo_en.ipynb"]


def load_notebook(path: Path) -> dict:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert notebook["nbformat"] == 4 and notebook["nbformat_minor"] >= 5
    assert notebook["metadata"]["kernelspec"]["language"] == "python"
    ids = [cell["id"] for cell in notebook["cells"]]
    assert len(ids) == len(set(ids))
    for cell in notebook["cells"]:
        assert cell["cell_type"] in ("markdown", "code") and isinstance(cell["source"], list)
        if cell["cell_type"] == "code":
            assert set(cell) == {"cell_type", "execution_count", "id", "metadata", "outputs", "source"}
    return notebook


def notebook_headings(path: Path) -> list[str]:
    headings = []
    for cell in load_notebook(path)["cells"]:
        if cell["cell_type"] == "markdown":
            headings += [line[3:].strip() for line in "".join(cell["source"]).splitlines() if line.startswith("## ")]
    return headings


def run_notebook(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict, list[tuple[str, str]]]:
    """Code cells top to bottom in one fresh namespace, from files/: (namespace, [(printed, stored)])."""
    monkeypatch.chdir(FILES)
    namespace: dict = {"__name__": "__main__"}
    printed = []
    for index, cell in enumerate(load_notebook(path)["cells"]):
        if cell["cell_type"] != "code":
            continue
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(compile("".join(cell["source"]), f"{path.name} cell {index}", "exec"), namespace)  # noqa: S102
        stored = "".join("".join(o["text"]) for o in cell["outputs"] if o.get("name") == "stdout")
        printed.append((output.getvalue(), stored))
    return namespace, printed


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs_and_prints_what_it_stores(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    namespace, printed = run_notebook(FILES / name, monkeypatch)
    for fresh, stored in printed:
        assert fresh == stored
    lang = name.rsplit("_", 1)[1].split(".")[0]
    assert namespace["LANG"] == lang
    if "notebook_pretrain" in name:
        assert namespace["best"] == BEST
        assert namespace["delta_L"] == L8 - BEST.loss
        assert namespace["be"].tokens == BE.tokens
        assert namespace["m_min"] == 134
        text = "".join(fresh for fresh, _ in printed)
        for figure in ("7.227·10^23", "1.948310", "35.663", "3.377", "94.70", "1.922505", "0.025804",
                       "1.094026·10^12", "4.59491·10^23", "2.63209·10^23", "2.12368·10^12", "104.308", "1.630"):
            assert (figure.replace(".", ",") if lang == "ru" else figure) in text, (name, figure)
        assert [h.split(".")[0] for h in notebook_headings(FILES / name)] == ["1", "2", "3", "4", "5", "6", "7"]
    else:
        assert namespace["base"].kept == BASE_RUN.kept
        assert namespace["reordered"].kept == REORDERED_RUN.kept
        assert namespace["gap"] < 1e-15
        assert namespace["table"] == list(ZERO_TABLE.values())
        headings = notebook_headings(FILES / name)
        assert [h.split(".")[0] for h in headings] == (["Демо 1", "Демо 2"] if lang == "ru" else ["Demo 1", "Demo 2"])


def test_course_files_hold_a_readme_in_both_languages() -> None:
    russian, english = (FILES / "README.md").read_text(encoding="utf-8").split("\n---\n")
    assert "## Что здесь лежит" in russian and "## What is here" in english
    for name in NOTEBOOKS + ["pretrain_calc.py", "pretrain_demo.py"]:
        assert f"`{name}`" in russian and f"`{name}`" in english, name
        assert (FILES / name).is_file()
