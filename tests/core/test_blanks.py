"""Questions with blanks (qtypes/blanks.py, reading/gaps.py): grading by the cases the page's grader runs too, the
gaps' places in each language's text, and the build's errors at their lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.node import run_node_tests
from support.sites import ROOT
from support.sources import QUIZ, block, errors_of, load, one_error, problems
from zadachnik.qtypes.blanks import Blanks

VECTORS = json.loads((ROOT / "tests" / "vectors" / "blanks.json").read_text(encoding="utf-8"))
CONVENTIONS = json.loads((ROOT / "tests" / "vectors" / "cases.json").read_text(encoding="utf-8"))["conventions"]
CASES = VECTORS["cases"]

RU = "По правилу Chinchilla на параметр приходится около [[gap:ratio]] токенов, а закон — [[gap:law]].\n\n" \
     "explanation:\nТак и есть."
EN = "Chinchilla's rule gives about [[gap:ratio]] tokens per parameter, and the law is a [[gap:law]] law.\n\n" \
     "explanation:\nIt is."
GAPS = ("gaps:\n  ratio: {answer: 20, atol: 2}\n"
        "  law: {options: {ru: [степенной, линейный], en: [power, linear]}, answer: 1}")


def blanks(ru: str = RU, en: str = EN, gaps: str = GAPS) -> str:
    return block(yaml="type: blanks\n" + gaps, ru=ru, en=en)


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_python_grades_as_the_shared_cases_say(case: dict) -> None:
    verdict = Blanks().grade(VECTORS["spec"], {"fields": case["fields"]}, CONVENTIONS[case["lang"]])
    assert verdict["status"] == case["status"]
    assert verdict.get("score") == pytest.approx(case["score"]) if case["score"] is not None else "score" not in verdict
    assert {gap: result["status"] for gap, result in verdict["fields"].items()} == case["gaps"]


def test_the_page_grades_as_the_shared_cases_say() -> None:
    run_node_tests("js_blanks.test.mjs")


def test_each_gap_becomes_an_element_in_its_place_in_every_language(tmp_path: Path) -> None:
    [course] = load(tmp_path, quiz=blanks())
    [question] = course.modules[0].questions
    for lang in ("ru", "en"):
        text = question.body[lang].markdown
        assert "[[gap:" not in text
        assert text.index('data-zq-gap="ratio"') < text.index('data-zq-gap="law"')
    assert [gap.id for gap in question.key.gaps] == ["ratio", "law"]
    assert question.key.gaps[1].options == {"ru": ["степенной", "линейный"], "en": ["power", "linear"]}


def test_a_question_with_blanks_passes_the_builds_check_of_its_revealed_answer(tmp_path: Path) -> None:
    assert problems(tmp_path, blanks()) == []


def test_a_gap_in_code_or_math_is_left_as_written(tmp_path: Path) -> None:
    [course] = load(tmp_path, quiz=blanks(ru=RU + "\n\n`[[gap:ratio]]`", en=EN.replace("It is.", "It is `[[gap:x]]`.")))
    explanation = course.modules[0].questions[0].explanation["en"].markdown
    assert "`[[gap:x]]`" in explanation


@pytest.mark.parametrize(("ru", "en", "gaps", "message", "hint", "at"), [
    (RU.replace("[[gap:law]]", "[[gap:lav]]"), EN, GAPS, "[[gap:lav]] names no gap", "its gaps are ratio, law",
     "По правилу"),
    (RU, EN.replace("[[gap:law]] law", "[[gap:ratio]] law"), GAPS, "stands twice in the 'en' text", "once",
     "Chinchilla's"),
    (RU, EN.replace("[[gap:law]]", "power"), GAPS, "has no place for the gap law", "[[gap:law]]", "Chinchilla's"),
    (RU, EN, GAPS.replace("answer: 1}", "answer: 3}"), "from 1 to 2", "answer: 1", "  law"),
    (RU, EN, GAPS.replace("en: [power, linear]", "en: [power, linear, flat]"), "different number of words",
     "same words", "  law"),
    (RU, EN, GAPS.replace("ru: [степенной, линейный], ", ""), "no words in ru", "options", "  law"),
    (RU, EN, "gaps:\n  ratio: 20\n  law: {options: [a, b], answer: 1}", "must be a mapping", "{answer: 20", "  ratio"),
    (RU, EN, "gaps:\n  ratio: {answer: 20, tol: 2}\n  law: {options: [a, b], answer: 1}", "unknown key 'tol'",
     "atol", "  ratio"),
    (RU, EN, "gaps: {}", "needs its gaps", "[[gap:ratio]]", "gaps"),
])
def test_a_slip_in_a_question_with_blanks_is_reported_at_its_line(tmp_path: Path, ru: str, en: str, gaps: str,
                                                                  message: str, hint: str, at: str) -> None:
    quiz = blanks(ru, en, gaps)
    error = one_error(tmp_path, quiz=quiz)
    assert error.path == QUIZ
    assert message in error.message
    assert hint in error.hint
    assert quiz.split("\n")[error.line - 1].startswith(at), (error.line, quiz)


def test_a_gap_in_a_question_of_another_type_is_an_error(tmp_path: Path) -> None:
    quiz = block(ru="Выберите [[gap:x]].\n\noptions:\nA. Один\nB. Два\n\nexplanation:\nТак.",
                 en="Pick one [[gap:x]].\n\noptions:\nA. One\nB. Two\n\nexplanation:\nSo.")
    errors = errors_of(tmp_path, quiz=quiz)
    # One in each language's text.
    assert len(errors) == 2
    for error in errors:
        assert "[[gap:x]] stands in a question of type 'single'" in error.message
        assert "type: blanks" in error.hint
