"""The build grades every question with the answer its own page reveals."""

from __future__ import annotations

from pathlib import Path

from support.sources import QUIZ, block, numeric, problems
from zadachnik.checking.checks import revealed
from zadachnik.core.formatting import rounded_answer


def test_shown_answer_outside_its_tolerance_fails(tmp_path: Path, monkeypatch) -> None:
    # The display rule resolves every tolerance; a coarser display (a regression) must stop the build.
    monkeypatch.setattr("zadachnik.checking.checks.rounded_answer", lambda value, atol, rtol, lang: f"{value:.1f}")
    quiz = numeric('  x: {answer: "16/7", atol: 0.0001}\n')
    [problem] = problems(tmp_path, quiz)
    assert (problem.path, problem.line) == (QUIZ, 1)
    assert "question Q1: the answer its 'ru' page reveals ({'fields': {'x': '2.3'}})" in problem.message
    assert "'wrong'" in problem.message


def test_answers_shown_as_powers_of_ten_are_read_back(tmp_path: Path) -> None:
    # 2,124·10¹² on the page: superscript exponents are part of what the reader accepts.
    assert problems(tmp_path, numeric('  x: {answer: "2.12368e12", rtol: 0.001}\n')) == []
    assert problems(tmp_path / "b", numeric('  x: {answer: "1e-6", atol: 1e-9}\n')) == []


def test_tolerance_that_covers_the_shown_rounding_passes(tmp_path: Path) -> None:
    quiz = numeric('  x: {answer: "16/7", atol: 0.0001}\n') + "\n" + block(ident="Q2")
    assert problems(tmp_path, quiz) == []


def test_relative_tolerance_on_a_large_answer_passes(tmp_path: Path) -> None:
    assert problems(tmp_path, numeric('  x: {answer: "2.63209e23/1.2394e11", rtol: 0.001}\n')) == []


def test_an_authors_checker_gets_a_right_to_left_pages_answer_as_a_learner_types_it() -> None:
    """A Hebrew page writes a left-to-right mark before a minus (so that −2.5 does not show as 2.5−); a checker
    that reads the revealed answer with float() or Fraction() would fail on it, on that language's page alone."""
    field = {"answer": -2.5, "atol": 0.01, "rtol": 0}
    assert rounded_answer(-2.5, 0.01, 0, "he").startswith("\u200e"), "the page marks it"
    assert revealed(field, "he") == revealed(field, "en") == "\u22122.50"
