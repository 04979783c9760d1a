"""Checks stage: what the model alone can't tell, verified before anything is rendered.

Every auto-checked question is graded by the reference grader with the answer its own page reveals, in every
language: a rounding that falls outside its tolerance, or a key the grader can't accept, stops the build.
"""

from __future__ import annotations

from pathlib import Path

from .errors import SourceError
from .i18n import rounded_answer
from .model import Course, Question
from .render import spec_of


def check_answer_keys(courses: list[Course], languages: list[str], shown: callable) -> list[SourceError]:
    problems = []
    for course in courses:
        for module in course.modules:
            for question in module.questions:
                problem = check_question(question, languages, module.path / "quiz.md", shown)
                if problem is not None:
                    problems.append(problem)
    return problems


def check_question(question: Question, languages: list[str], path: Path, shown: callable) -> SourceError | None:
    if not question.qtype.auto:
        return None
    spec = spec_of(question)
    for lang in languages:

        def reveal(field: dict, lang: str = lang) -> str:
            return rounded_answer(field["answer"], field["atol"], field["rtol"], lang)

        answer = question.qtype.reference_answer(spec, reveal)
        verdict = question.qtype.grade(spec, answer)
        if verdict["status"] != "correct":
            return SourceError(
                shown(path), question.line,
                f"question {question.id}: the answer its '{lang}' page reveals ({answer}) is graded "
                f"'{verdict['status']}' by its own key",
                "widen the tolerance to cover the rounding shown, or make it smaller so more digits are shown",
            )
    return None
