"""Checks stage: what the model alone can't tell, verified before anything is rendered.

Every auto-checked question is graded by the reference grader with the answer its own page reveals, in every
language: a rounding that falls outside its tolerance, or a key the grader can't accept, stops the build.
"""

from __future__ import annotations

from pathlib import Path

from .errors import SourceError
from .grading import grade
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
    if question.type == "code":
        return check_solution(question, spec, languages, path, shown)
    if question.checker is not None:
        return check_checker(question, spec, languages, path, shown)
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


def check_solution(question: Question, spec: dict, languages: list[str], path: Path, shown: callable):
    """The reference solution passes its own hidden tests, in CPython, within its time limit (failing tests are
    named in the site's first language)."""
    answer = question.qtype.reference_answer(spec, None)
    verdict = question.qtype.grade(spec, answer, lang=languages[0])
    if verdict["status"] == "correct":
        return None
    if "timeout" in verdict:
        what = f"did not finish within its time limit of {verdict['timeout']:g} s"
    elif verdict.get("error"):
        what = f"raised {verdict['error'].get('text')}"
    else:
        failed = [test for test in verdict.get("tests", []) if not test["passed"]]
        what = "fails its own test: " + "; ".join(
            test["message"] + (f" ({test['error']['text']})" if test.get("error") else "") for test in failed
        )
    return SourceError(shown(path), question.line, f"question {question.id}: the reference solution {what}",
                       "fix the solution or the test")


def check_checker(question: Question, spec: dict, languages: list[str], path: Path, shown: callable):
    """An author's checker accepts the answer the page reveals and rejects the answers listed as wrong."""
    checker = question.checker
    for lang in languages:

        def reveal(field: dict, lang: str = lang) -> str:
            return rounded_answer(field["answer"], field["atol"], field["rtol"], lang)

        answer = question.qtype.reference_answer(spec, reveal)
        verdict = grade(spec, answer, lang)
        if verdict["status"] != "correct":
            return SourceError(shown(path), checker.line,
                               f"question {question.id}: its checker rejects the answer its '{lang}' page reveals "
                               f"({answer}){problem_text(verdict)}", "fix 'check' or the answer key")
    for wrong in checker.wrong:
        verdict = grade(spec, wrong, languages[0])
        if verdict["status"] == "correct":
            return SourceError(shown(path), checker.line,
                               f"question {question.id}: its checker accepts {wrong}, listed under 'wrong'",
                               "fix 'check', or remove that answer from 'wrong'")
    return None


def problem_text(verdict: dict) -> str:
    if "timeout" in verdict:
        return f": it ran past {verdict['timeout']:g} s"
    if verdict.get("error"):
        return f": {verdict['error'].get('text')}"
    return f": {verdict['message']}" if verdict.get("message") else ""
