"""Parsons problems (qtypes/parsons.py): grading by order and depth by the cases the page's grader runs too,
grading by tests, reading a source and its slips at their own lines, the build's check of the right arrangement,
paper's fixed order, and the exports."""

from __future__ import annotations

import json
import xml.etree.ElementTree as etree
import zipfile
from pathlib import Path

import pytest
from support.exports import QTI
from support.node import run_node_tests
from support.sites import ROOT
from support.sources import QUIZ, block, errors_of, line_with, load, one_error, problems
from zadachnik.exports import export_modules, formats
from zadachnik.qtypes.parsons import Parsons, arrangement, program

VECTORS = json.loads((ROOT / "tests" / "vectors" / "parsons.json").read_text(encoding="utf-8"))
RU = "Соберите функцию.\n\nexplanation:\nТак."
EN = "Assemble the function.\n\nexplanation:\nSo."
LINES = "lines: |\n  def total(xs):\n      s = 0\n      for x in xs:\n          s += x\n      return s\n"
TESTS = ('tests:\n  - test: total([1, 2, 3]) == 6\n    message: {ru: "total([1, 2, 3]) равно 6", '
         'en: "total([1, 2, 3]) is 6"}\n')


def quiz(yaml: str) -> str:
    return block(yaml="type: parsons\n" + yaml.rstrip("\n"), ru=RU, en=EN)


def read(tmp_path: Path, yaml: str):
    [course] = load(tmp_path, quiz=quiz(yaml))
    [question] = course.modules[0].questions
    return question


@pytest.mark.parametrize("case", VECTORS["cases"], ids=[case["name"] for case in VECTORS["cases"]])
def test_python_grades_as_the_shared_cases_say(case: dict) -> None:
    spec = {**VECTORS["specs"][case["spec"]], **({"scoring": case["scoring"]} if "scoring" in case else {})}
    verdict = Parsons().grade(spec, case["answer"] or {})
    assert verdict["status"] == case["status"]
    assert verdict.get("score") == pytest.approx(case["score"]) if case["score"] is not None else "score" not in verdict


def test_the_page_grades_as_the_shared_cases_say() -> None:
    run_node_tests("js_parsons.test.mjs")


def test_the_program_is_the_lines_at_their_depths_in_the_authors_unit() -> None:
    spec = {**VECTORS["specs"]["A"], "unit": "  "}
    placed = arrangement(spec, {"order": ["1", "2", "3", "4", "5"], "indent": [0, 1, 1, 2, 1]})
    # As tests/js/js_parsons.test.mjs expects of the page.
    assert program(spec, placed) == "def total(xs):\n  s = 0\n  for x in xs:\n    s += x\n  return s\n"


def test_a_parsons_problem_is_read_with_its_lines_depths_and_unit(tmp_path: Path) -> None:
    # YAML takes a block's first line's indentation for the block's own: |2 says it is two spaces.
    question = read(tmp_path, LINES + "distractors: |2\n      s = 1\n  return xs\n")
    key = question.key
    assert [(line.key, line.text, line.depth) for line in key.lines] == [
        ("1", "def total(xs):", 0), ("2", "s = 0", 1), ("3", "for x in xs:", 1), ("4", "s += x", 2),
        ("5", "return s", 1)]
    assert [(line.key, line.text, line.depth) for line in key.distractors] == [("6", "s = 1", 1),
                                                                              ("7", "return xs", 0)]
    assert (key.unit, key.indent, key.scoring, key.max_depth, key.tests) == ("    ", True, "subsequence", 3, [])
    assert key.solution == "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s"
    assert not question.python
    spec = question.spec
    assert spec["order"] == ["1", "2", "3", "4", "5"] and spec["depth"]["4"] == 2 and "tests" not in spec
    # The page starts Python for the questions whose spec says so, before their type's module has loaded.
    assert "python" not in spec


def test_indentation_is_asked_only_when_the_solution_has_some_unless_the_author_says(tmp_path: Path) -> None:
    flat = "lines: |\n  a = 1\n  b = a + 1\n  print(b)\n"
    assert read(tmp_path / "flat", flat).key.indent is False
    assert read(tmp_path / "asked", flat + "indent: true").key.indent is True
    assert read(tmp_path / "fixed", LINES + "indent: false").key.indent is False
    two = read(tmp_path / "two", "lines: |\n  if x:\n    y = 1\n  else:\n    y = 2\n").key
    assert (two.unit, [line.depth for line in two.lines]) == ("  ", [0, 1, 0, 1])


def test_with_tests_it_is_graded_by_running_its_program_and_needs_python(tmp_path: Path) -> None:
    question = read(tmp_path, LINES + TESTS + "time_limit: 2")
    assert question.python and question.key.time_limit == 2
    spec = question.spec
    assert spec["python"] is True
    right = Parsons().reference_answer(spec, None)
    assert Parsons().grade(spec, right, "en")["status"] == "correct"
    # Another order that works is right too; one that does not fails the test, with its message.
    moved = {"order": ["1", "3", "4", "2", "5"], "indent": [0, 1, 2, 1, 1]}
    verdict = Parsons().grade(spec, moved, "en")
    assert verdict["status"] == "wrong"
    assert [(test["passed"], test["message"]) for test in verdict["tests"]] == [(False, "total([1, 2, 3]) is 6")]
    assert Parsons().grade(spec, {"order": [], "indent": []}, "en") == {"status": "unanswered"}


def test_the_build_runs_the_right_arrangement_against_its_tests(tmp_path: Path) -> None:
    assert problems(tmp_path / "right", quiz(LINES + TESTS)) == []
    [problem] = problems(tmp_path / "wrong", quiz(LINES.replace("s += x", "s -= x") + TESTS))
    assert problem.path == QUIZ
    assert "the program its lines make fails its own test: total([1, 2, 3]) равно 6" in problem.message


# Each slip with where it is: the line `anchor` starts plus `offset` (a line inside a block of code).
@pytest.mark.parametrize(("yaml", "anchor", "offset", "message", "hint"), [
    ("lines: |\n  def f():\n\n      return 1\n", "lines: |", 2, "line 2 of 'lines' is empty", "remove the empty line"),
    ("lines: |\n  return 1\n", "lines: |", 0, "at least two lines", "one per line"),
    ("lines: |\n  def f():\n    \treturn 1\n", "lines: |", 2, "mixes tabs and spaces", "spaces only"),
    ("lines: |\n  def f():\n  \treturn 1\n  \tpass\n  x = [\n      1]\n", "lines: |", 5, "mixes tabs and spaces",
     "tabs only"),
    ("lines: |\n  if x:\n      y = 1\n        z = 2\n", "lines: |", 3, "indented by 6, not a multiple of 4",
     "same amount"),
    ("lines: |\n  def f():\n  return 1\n" + TESTS, "lines: |", 2,
     "the lines in their order are not Python: expected an indented block", "fix the line"),
    ("lines: |\n  x = 1\n  y = 2\n  x = 1\n", "lines: |", 3, "line 3 of 'lines' repeats line 1 of 'lines'",
     "give 'tests:'"),
    (LINES + "distractors: |\n  return s\n", "distractors: |", 1, "line 1 of 'distractors' repeats line 5",
     "make the lines differ"),
    (LINES + "scoring: lcs", "scoring: lcs", 0, "unknown scoring 'lcs' for a Parsons problem", "subsequence, pairs"),
    (LINES + "indent: sometimes", "indent: sometimes", 0, "'indent' is true or false", "indent: true"),
    (LINES + "time_limit: 2", "time_limit: 2", 0, "there are no tests", "add 'tests:'"),
    (LINES + "tests: []", "tests: []", 0, "'tests' lists the hidden tests", "remove 'tests'"),
    ("indent: true", "type: parsons", 0, "needs its lines", "add 'lines: |'"),
    ("lines: 3", "lines: 3", 0, "'lines' is code", "write 'lines: |'"),
    (LINES + "variants:\n  count: 3", "variants:", 0, "a Parsons problem cannot have variants", ""),
    (LINES + "check: |\n  def check(answer):\n      return True", "check: |", 0, "unknown key 'check'", ""),
])
def test_a_slip_in_a_parsons_problem_is_reported_at_its_line(tmp_path: Path, yaml: str, anchor: str, offset: int,
                                                             message: str, hint: str) -> None:
    source = quiz(yaml)
    error = one_error(tmp_path, quiz=source)
    assert (error.path, error.line) == (QUIZ, line_with(source, anchor) + offset)
    assert message in error.message
    assert hint in error.hint


def test_a_tab_after_spaces_is_refused_where_it_stands(tmp_path: Path) -> None:
    errors = errors_of(tmp_path, quiz=quiz("lines: |\n  def f():\n      x = 1\n  \treturn x\n"))
    assert [(error.line, "mixes tabs and spaces" in error.message) for error in errors] == [(6, True)]


def test_paper_prints_the_lines_in_a_fixed_order_whose_right_ones_are_never_in_order(tmp_path: Path) -> None:
    from zadachnik.rendering.render import paper_order

    for count in (2, 3, 6):
        lines = "".join(f"  x{number} = {number}\n" for number in range(count))
        for extra in ("", "distractors: |\n  y = 0\n"):
            question = read(tmp_path / f"{count}-{bool(extra)}", f"lines: |\n{lines}" + extra)
            for ident in ("9.12.3", "Q1", "P07"):
                question.id = ident
                printed = [line.key for line in paper_order(question)]
                right = [line.key for line in question.key.lines]
                assert sorted(printed) == sorted(line.key for line in question.key.all_lines)
                assert [key for key in printed if key in right] != right
                assert printed == [line.key for line in paper_order(question)]


def export(tmp_path: Path, yaml: str, fmt: str) -> tuple[list, list[str]]:
    [course] = load(tmp_path, quiz=quiz(yaml))
    return export_modules([(course, course.modules[0])], formats()[fmt], "en", tmp_path / "out")


def test_qti_takes_a_problem_graded_by_order_as_an_order_interaction(tmp_path: Path) -> None:
    written, lines = export(tmp_path, LINES, "qti")
    assert "course/01-m: Q1: QTI asks the order alone: its lines go without indentation" in "\n".join(lines)
    assert any("QTI grades the order all or nothing" in line for line in lines)
    with zipfile.ZipFile(written[0].path) as opened:
        [name] = [name for name in opened.namelist() if name.endswith("Q-Q1.xml")]
        item = etree.fromstring(opened.read(name))
    declaration = item.find(f"{QTI}responseDeclaration")
    assert (declaration.get("cardinality"), declaration.get("baseType")) == ("ordered", "identifier")
    values = [value.text for value in declaration.findall(f"{QTI}correctResponse/{QTI}value")]
    choices = item.findall(f"{QTI}itemBody/{QTI}orderInteraction/{QTI}simpleChoice")
    assert values == [choice.get("identifier") for choice in choices] == [f"I-{n}" for n in range(1, 6)]
    # Indentation asked: the lines go without it.
    assert [choice.find(f"{QTI}pre").text for choice in choices] == [
        "def total(xs):", "s = 0", "for x in xs:", "s += x", "return s"]
    _, lines = export(tmp_path / "fixed", LINES + "indent: false\nscoring: exact", "qti")
    # QTI itself carries it whole; what Canvas makes of an order is its own line (exports/qti.py, canvas_notes).
    assert not any("Q1" in line and "Canvas" not in line for line in lines), lines


@pytest.mark.parametrize(("yaml", "fmt", "reason"), [
    (LINES + TESTS, "qti", "graded by running its program"),
    (LINES + "distractors: |\n  s = 1\n", "qti", "lines that belong nowhere cannot be left out"),
    (LINES, "moodle", "Moodle has no Parsons problems"),
    (LINES, "gift", "Moodle has no Parsons problems"),
])
def test_what_a_format_cannot_carry_is_left_out_with_a_line(tmp_path: Path, yaml: str, fmt: str,
                                                            reason: str) -> None:
    written, lines = export(tmp_path, yaml, fmt)
    assert written == []
    assert any(line.startswith("course/01-m: Q1: left out: ") and reason in line for line in lines), lines
