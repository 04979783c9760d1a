"""Ordering questions (qtypes/ordering.py): grading by the cases the page's grader runs too, the build's checks
of a source, and its place in the exports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.node import run_node_tests
from support.sites import ROOT
from support.sources import QUIZ, block, load, one_error
from zadachnik.qtypes.ordering import Ordering, longest_ordered

CASES = json.loads((ROOT / "tests" / "vectors" / "ordering.json").read_text(encoding="utf-8"))["cases"]
RU = "Расположите по порядку.\n\nitems:\n1. Первый\n2. Второй\n3. Третий\n\nexplanation:\nТак."
EN = "Put them in order.\n\nitems:\n1. First\n2. Second\n3. Third\n\nexplanation:\nSo."


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_python_grades_as_the_shared_cases_say(case: dict) -> None:
    answer = {} if case["given"] is None else {"order": case["given"]}
    verdict = Ordering().grade({"order": case["order"], "scoring": case["scoring"]}, answer)
    assert verdict["status"] == case["status"]
    assert verdict.get("score") == pytest.approx(case["score"]) if case["score"] is not None else "score" not in verdict


def test_the_page_grades_as_the_shared_cases_say() -> None:
    run_node_tests("js_ordering.test.mjs")


def test_the_longest_ordered_run_is_not_only_a_contiguous_one() -> None:
    assert longest_ordered([0, 4, 1, 5, 2, 3]) == 4
    assert longest_ordered([]) == 0


def test_an_ordering_question_is_read_with_its_items_as_the_right_order(tmp_path: Path) -> None:
    [course] = load(tmp_path, quiz=block(yaml="type: ordering\nscoring: pairs", ru=RU, en=EN))
    [question] = course.modules[0].questions
    assert (question.key.order, question.key.scoring) == (["1", "2", "3"], "pairs")


@pytest.mark.parametrize(("yaml", "ru", "en", "message", "hint"), [
    ("type: ordering\nscoring: lcs", RU, EN, "unknown scoring 'lcs' for ordering", "subsequence, pairs, exact"),
    ("type: ordering\nanswer: [2, 1, 3]", RU, EN, "takes no 'answer:'", "write the items in their right order"),
    ("type: ordering", RU.replace("2. Второй\n3. Третий\n", ""), EN.replace("2. Second\n3. Third\n", ""),
     "at least two items", "list the items"),
])
def test_a_slip_in_an_ordering_question_is_reported_at_its_line(tmp_path: Path, yaml: str, ru: str, en: str,
                                                                 message: str, hint: str) -> None:
    error = one_error(tmp_path, quiz=block(yaml=yaml, ru=ru, en=en))
    assert error.path == QUIZ
    assert error.line > 0
    assert message in error.message
    assert hint in error.hint


def test_qti_carries_the_sample_ordering_question_and_moodle_says_why_not(tmp_path: Path, capsys) -> None:
    import xml.etree.ElementTree as etree
    import zipfile

    from support.exports import QTI, run_export

    status, out, _, folder = run_export(tmp_path, "qti", "en", "sample", capsys, "modern-llms/9")
    assert status == 0
    assert "9.4.3: QTI grades the order all or nothing" in out
    [package] = folder.glob("*.zip")
    with zipfile.ZipFile(package) as opened:
        [name] = [name for name in opened.namelist() if name.endswith("Q-9.4.3.xml") or "9.4.3" in name]
        item = etree.fromstring(opened.read(name))
    declaration = item.find(f"{QTI}responseDeclaration")
    assert (declaration.get("cardinality"), declaration.get("baseType")) == ("ordered", "identifier")
    values = [value.text for value in declaration.findall(f"{QTI}correctResponse/{QTI}value")]
    interaction = item.find(f"{QTI}itemBody/{QTI}orderInteraction")
    choices = [choice.get("identifier") for choice in interaction.findall(f"{QTI}simpleChoice")]
    assert len(values) == 6 and values == choices and interaction.get("shuffle") == "true"
    status, out, _, _ = run_export(tmp_path, "moodle", "en", "sample", capsys, "modern-llms/9")
    assert status == 0
    assert "9.4.3" in out and "Ordering question type is a plugin" in out


def test_paper_prints_the_items_in_a_fixed_order_that_is_not_the_right_one() -> None:
    from types import SimpleNamespace

    from zadachnik.qtypes import Entry
    from zadachnik.rendering.render import paper_order

    for count in (2, 3, 6):
        for ident in ("9.4.3", "Q1", "P07"):
            items = [Entry(str(number), {}) for number in range(1, count + 1)]
            question = SimpleNamespace(id=ident, lists={"items": items})
            printed = [entry.key for entry in paper_order(question)]
            assert sorted(printed) == [entry.key for entry in items]
            assert printed != [entry.key for entry in items]
            assert printed == [entry.key for entry in paper_order(question)]
