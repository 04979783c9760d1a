"""The build grades every question with the answer its own page reveals."""

from __future__ import annotations

from pathlib import Path

from support.sources import QUIZ, block, numeric, problems


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
