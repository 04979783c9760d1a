"""The revision of a question's key (`rev` in the page's spec and the progress manifest): a learner's saved
verdict counts only under the key it was given under, so an author's correction withdraws it (the browser's side:
tests/browser/test_browser_edits.py). It must change with whatever a verdict stands on, and with nothing else:
a rebuild, a line moved or the page's language must never withdraw a learner's verdicts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.sources import EN_MATCHING, EN_SINGLE, MODULE, RU_MATCHING, RU_SINGLE, block, code_question, load
from zadachnik.rendering.render import spec_json
from zadachnik.rendering.variants import key_revision


def revision(base: Path, quiz: str, ident: str = "Q1") -> str:
    [course] = load(base, quiz=quiz)
    [question] = [q for q in course.modules[0].questions if q.id == ident]
    return key_revision(question)


SINGLE = block()


def inserted(text: str, first: str) -> str:
    """The options A, B, C with one more put in first: the others marked one letter further."""
    for old, new in (("C. ", "D. "), ("B. ", "C. "), ("A. ", "B. ")):
        text = text.replace(old, new)
    return text.replace("B. ", f"A. {first}\nB. ", 1)


def test_the_same_source_gives_the_same_revision_in_every_build(tmp_path: Path) -> None:
    assert revision(tmp_path / "a", SINGLE) == revision(tmp_path / "b", SINGLE)


def test_a_question_moved_down_the_file_or_its_explanation_reworded_keeps_its_revision(tmp_path: Path) -> None:
    moved = block(ident="Q0", yaml="type: open", ru="Почему?\n\nexplanation:\nТак.",
                  en="Why?\n\nexplanation:\nSo.") + "\n\n" + SINGLE
    reworded = block(ru=RU_SINGLE.replace("Потому что так.", "Потому что 2+2=4."),
                     en=EN_SINGLE.replace("Because it is.", "Since 2+2 is 4."))
    base = revision(tmp_path / "a", SINGLE)
    assert revision(tmp_path / "b", moved) == base
    assert revision(tmp_path / "c", reworded) == base


@pytest.mark.parametrize("changed", [
    block(yaml="type: single\nanswer: C"),
    block(yaml="type: multiple\nanswer: [B]"),
    # An option put in first: "Four" is C now, and a saved "B" names "Three".
    block(yaml="type: single\nanswer: C", ru=inserted(RU_SINGLE, "Два"), en=inserted(EN_SINGLE, "Two")),
    block(en=EN_SINGLE.replace("B. Four", "B. Four (exactly)")),
], ids=["answer", "type", "option inserted", "option text"])
def test_whatever_a_verdict_stands_on_changes_the_revision(tmp_path: Path, changed: str) -> None:
    assert revision(tmp_path / "a", changed) != revision(tmp_path / "b", SINGLE)


def test_a_matching_pair_or_a_tolerance_changes_the_revision(tmp_path: Path) -> None:
    matching = block(yaml="type: matching\nanswer: {1: B, 2: A}", ru=RU_MATCHING, en=EN_MATCHING)
    assert revision(tmp_path / "a", matching) != revision(tmp_path / "b", matching.replace("{1: B, 2: A}",
                                                                                        "{1: A, 2: B}"))
    numeric = block(yaml="type: numeric\nfields:\n  x: {answer: 2.5, rtol: 0.01}",
                    ru="Икс?\n\nfields:\n- x: Икс\n\nexplanation:\nТак.",
                    en="X?\n\nfields:\n- x: Ex\n\nexplanation:\nSo.")
    assert revision(tmp_path / "c", numeric) != revision(tmp_path / "d", numeric.replace("rtol: 0.01", "rtol: 0.001"))


def test_the_pages_spec_carries_the_revision_for_each_variant_too(tmp_path: Path) -> None:
    [course] = load(tmp_path, quiz=SINGLE)
    module = course.modules[0]
    spec = json.loads(spec_json(module))
    assert spec["Q1"]["rev"] == key_revision(module.questions[0])


def manifest_module(base: Path, quiz: str, module: str = MODULE) -> dict:
    from zadachnik.rendering.site import Languages
    from zadachnik.runtime.shipping import progress_manifest

    courses = load(base, quiz=quiz, module=module)
    text = progress_manifest(courses, Languages(["ru", "en"]), lambda uri: uri)
    return json.loads(text.removeprefix("window.__zqProgress = ").removesuffix(";\n"))["modules"][0]


def test_the_progress_manifest_gives_each_questions_revision_and_an_exam_its_mark(tmp_path: Path) -> None:
    """The home page, the navigation and the SCORM bridge count a verdict by these (progress.countedEntry)."""
    entry = manifest_module(tmp_path / "a", SINGLE)
    assert entry["revs"] == {"Q1": revision(tmp_path / "b", SINGLE)}
    assert entry["variants"] == {} and "exam" not in entry
    assert manifest_module(tmp_path / "c", SINGLE, MODULE + "mode: exam\n")["exam"] is True


def test_what_a_code_exercise_only_shows_keeps_its_revision(tmp_path: Path) -> None:
    """Its reference solution, starter and tests' messages grade nothing: a better solution or a reworded message
    withdrew every learner's tick (the review). Its tests do grade."""
    tests = '  - test: f(2) == 4\n    message: "f(2) is 4"\n'
    base = revision(tmp_path / "a", code_question("def f(x):\n    return 2 * x", tests=tests))
    assert revision(tmp_path / "b", code_question("def f(x):\n    return x + x", tests=tests)) == base
    assert revision(tmp_path / "c", code_question("def f(x):\n    return 2 * x",
                                                  tests=tests.replace("f(2) is 4", "f(2) gives 4"))) == base
    assert revision(tmp_path / "d", code_question("def f(x):\n    return 2 * x",
                                                  tests=tests.replace("f(2) == 4", "f(3) == 6"))) != base


def test_figures_that_differ_in_their_last_bits_keep_the_revision(tmp_path: Path) -> None:
    """Figures worked out by the build (arithmetic, values files, variants) may differ in their last bits between
    machines' maths libraries: a build elsewhere must not withdraw every verdict (the review)."""
    numeric = block(yaml="type: numeric\nfields:\n  x: {answer: 0.3, rtol: 0.01}",
                    ru="Икс?\n\nfields:\n- x: Икс\n\nexplanation:\nТак.",
                    en="X?\n\nfields:\n- x: Ex\n\nexplanation:\nSo.")
    assert revision(tmp_path / "a", numeric) == revision(tmp_path / "b", numeric.replace("0.3,", "0.1 + 0.2,"))
    assert revision(tmp_path / "c", numeric) != revision(tmp_path / "d", numeric.replace("0.3,", "0.31,"))


def test_a_choice_gaps_words_are_part_of_the_revision(tmp_path: Path) -> None:
    """A gap's answer is the right word's place in its list: with the words reordered, a saved place names another
    word (the review)."""
    text = ("Закон [[gap:law]].\n\nexplanation:\nТак.", "The law is [[gap:law]].\n\nexplanation:\nSo.")
    gaps = "type: blanks\ngaps:\n  law: {options: {ru: [степенной, линейный], en: [power, linear]}, answer: 1}"
    swapped = gaps.replace("[степенной, линейный]", "[линейный, степенной]").replace("[power, linear]",
                                                                                    "[linear, power]")
    base = revision(tmp_path / "a", block(yaml=gaps, ru=text[0], en=text[1]))
    # The same place, another word: the right answer changed.
    assert revision(tmp_path / "b", block(yaml=swapped, ru=text[0], en=text[1])) != base
    assert revision(tmp_path / "c", block(yaml=gaps, ru=text[0], en=text[1])) == base
