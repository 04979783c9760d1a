"""Checks stage: what the model alone can't tell, verified before anything is rendered.

Every auto-checked question is graded by the reference grader with the answer its own page reveals, in every
language: a rounding that falls outside its tolerance, or a key the grader can't accept, stops the build.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from zadachnik.checking.grading import grade
from zadachnik.core.errors import SourceError
from zadachnik.core.formatting import rounded_answer
from zadachnik.core.numbers import without_direction_marks
from zadachnik.python.runner import stop_runner
from zadachnik.reading.model import Course, Module, Question


def check_answer_keys(courses: list[Course], languages: list[str], shown: callable) -> list[SourceError]:
    """Every module's questions checked, then the runner stopped: the build runs no more Python (`mkdocs serve`
    lives on between builds, and anything left of what the runner ran ends here, not at exit)."""
    try:
        return [problem for course in courses for module in course.modules
                for problem in check_module(module, languages, shown)]
    finally:
        stop_runner()


def check_module(module: Module, languages: list[str], shown: callable) -> list[SourceError]:
    """A module's questions: each auto-checked one graded with the answer its page reveals (`check_variants`)."""
    problems = []
    for question in module.questions:
        problem = check_variants(question, languages, module.path / "quiz.md", shown)
        if problem is not None:
            problems.append(problem)
    return problems


def check_variants(question: Question, languages: list[str], path: Path, shown: callable) -> SourceError | None:
    """A question, or each of its variants as a question of its own: the first variant that fails is named."""
    if question.variants is None:
        return check_question(question, languages, path, shown)
    for item, concrete in zip(question.variants.items, question.variant_questions, strict=True):
        problem = check_question(concrete, languages, path, shown)
        if problem is not None:
            return replace(problem, message=f"variant {item.number} of {question.id} (seed {item.seed}): "
                                            f"{problem.message}")
    return None


def check_question(question: Question, languages: list[str], path: Path, shown: callable) -> SourceError | None:
    if not question.qtype.auto:
        return None
    spec = question.spec
    # Graded by hidden tests (a code exercise, a Parsons problem that has them), not by an author's checker.
    if question.python and question.checker is None:
        return check_solution(question, spec, languages, path, shown)
    if question.checker is not None:
        return check_checker(question, spec, languages, path, shown)
    for lang in languages:

        answer = question.qtype.reference_answer(spec, lambda field, lang=lang: revealed(field, lang))
        # Read back as that page reads it.
        verdict = grade(spec, answer, lang)
        if verdict["status"] != "correct":
            return SourceError(
                shown(path), question.line,
                f"question {question.id}: the answer its '{lang}' page reveals ({answer}) is graded "
                f"'{verdict['status']}' by its own key",
                "widen the tolerance to cover the rounding shown, or make it smaller so more digits are shown",
            )
    return None


def check_solution(question: Question, spec: dict, languages: list[str], path: Path, shown: callable):
    """The reference solution (a Parsons problem's lines in their right order and indentation) passes its own
    hidden tests, in CPython, within its time limits (failing tests are named in the site's first language)."""
    answer = question.qtype.reference_answer(spec, None)
    verdict = question.qtype.grade(spec, answer, lang=languages[0])
    if verdict["status"] == "correct":
        return None
    hint = "fix the solution or the test"
    if "timed_out" in verdict and verdict["timed_out"] != "code":
        index = int(verdict["timed_out"])
        what = f"ran out of time in test {index + 1} ({test_message(spec['tests'][index], languages[0])})"
        hint = f"make it faster, or give that test a larger 'time_limit' (now {verdict['timeout']:g} s)"
    elif "timeout" in verdict:
        what = f"did not finish within its time limit of {verdict['timeout']:g} s before its tests ran"
        hint = "the code outside functions must end: move the work into the functions the tests call"
    elif verdict.get("error"):
        what, hint = error_text(verdict["error"], hint)
    else:
        failed = [test for test in verdict.get("tests", []) if not test["passed"]]
        what = "fails its own test: " + "; ".join(
            test["message"] + (f" ({test['error']['text']})" if test.get("error") else "") for test in failed
        )
    solution = "the reference solution" if question.type == "code" else "the program its lines make"
    return SourceError(shown(path), question.line, f"question {question.id}: {solution} {what}", hint)


def test_message(test: dict, lang: str) -> str:
    return test["message"].get(lang) or next(iter(test["message"].values()))


def error_text(error: dict, hint: str, checker: bool = False) -> tuple[str, str]:
    """What an error the runner reports says to the author, and what to do about it (of a `checker`, or of code
    that tests call)."""
    code = error.get("code")
    if code == "exit":
        return f"exits instead of returning ({error['text']})", (
            "remove the exit: check() returns its verdict" if checker
            else "remove the exit: the tests call the functions")
    if code == "no_input":
        return f"reads input ({error['text']})", (
            "a checker reads no input: the answer is its argument" if checker
            else "exercises read no input: take the data as arguments")
    if code == "died":
        return f"crashed the Python process running it ({error['message']})", (
            "it may use too much memory, or end the process itself")
    if error.get("type") == "MemoryError":
        return f"raised {error['text']}", "the build gives Python code 2 GiB of memory: use less"
    return f"raised {error.get('text')}", hint


def revealed(field: dict, lang: str) -> str:
    """A numeric field's answer as its page in `lang` reveals it, as a learner types it: the marks a right-to-left
    page writes before a minus are no keys."""
    return without_direction_marks(rounded_answer(field["answer"], field["atol"], field["rtol"], lang))


def check_checker(question: Question, spec: dict, languages: list[str], path: Path, shown: callable):
    """An author's checker accepts the answer the page reveals and rejects the answers listed as wrong, and
    gives a verdict (never an error or a timeout) for each of them."""
    checker = question.checker
    for lang in languages:

        answer = question.qtype.reference_answer(spec, lambda field, lang=lang: revealed(field, lang))
        verdict = grade(spec, answer, lang)
        failure = checker_failure(question, verdict, answer, path, shown)
        if failure is not None:
            return failure
        if verdict["status"] != "correct":
            return SourceError(shown(path), checker.line,
                               f"question {question.id}: its checker rejects the answer its '{lang}' page reveals "
                               f"({answer}){problem_text(verdict)}", "fix 'check' or the answer key")
    for wrong, line in zip(checker.wrong, checker.wrong_lines, strict=True):
        unknown = unknown_field(question, spec, wrong, line, path, shown)
        if unknown is not None:
            return unknown
        verdict = grade(spec, wrong, languages[0])
        failure = checker_failure(question, verdict, wrong, path, shown)
        if failure is not None:
            return failure
        if verdict["status"] == "correct":
            return SourceError(shown(path), line,
                               f"question {question.id}: its checker accepts {wrong}, listed under 'wrong'",
                               "fix 'check', or remove that answer from 'wrong'")
    return None


def unknown_field(question: Question, spec: dict, wrong: dict, line: int, path: Path, shown: callable):
    """A `wrong:` answer naming a field (or gap) the question lacks: a typo of the answer, not of the checker, whose
    KeyError on the field it asks for was blamed on 'check' at its own line."""
    if "fields" not in wrong or "fields" not in spec:
        return None
    ids = [str(field["id"]) for field in spec["fields"]]
    named = next((name for name in wrong["fields"] if name not in ids), None)
    if named is None:
        return None
    return SourceError(shown(path), line, f"question {question.id}: the answer under 'wrong' names a field "
                       f"'{named}' the question does not have", f"its fields: {', '.join(ids)}")


def checker_failure(question: Question, verdict: dict, answer: dict, path: Path, shown: callable):
    """A checker that returns no verdict, raises, exits or runs out of time: the page would say "The check
    failed" to every learner who gives that answer, so the build stops at the line it happened on."""
    line = question.checker.line
    error = verdict.get("error")
    if "timeout" in verdict:
        return SourceError(shown(path), line, f"question {question.id}: its checker ran out of time "
                           f"({verdict['timeout']:g} s) on {answer}", "make 'check' faster")
    if not error:
        return None
    if error.get("code") == "bad_verdict":
        return SourceError(shown(path), line, f"question {question.id}: {error['message']}")
    what, hint = error_text(error, "fix 'check'", checker=True)
    # Lines of the error count from the first line of the checker's code, the line under 'check: |'.
    where = line + error["lines"][-1] if error.get("lines") else line
    return SourceError(shown(path), where, f"question {question.id}: its checker {what} on {answer}", hint)


def problem_text(verdict: dict) -> str:
    return f": {verdict['message']}" if verdict.get("message") else ""
