"""`mode: exam` in module.yml (reading/exam.py): read into the module, and every slip in it reported at its line
with what to write instead; the quiz page it makes (tests/browser/test_browser_exam.py runs it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.sources import MODULE, MODULE_YML, block, load, one_error
from zadachnik.reading.exam import Exam


def test_an_exam_module_is_read_with_its_time_limit_in_seconds(tmp_path: Path) -> None:
    [course] = load(tmp_path, quiz=block(), module=MODULE + "mode: exam\ntime_limit: 45\n")
    assert course.modules[0].exam == Exam(time_limit=45 * 60)


def test_practice_is_the_default_and_an_exam_needs_no_limit(tmp_path: Path) -> None:
    [course] = load(tmp_path / "a", quiz=block())
    assert course.modules[0].exam is None
    [course] = load(tmp_path / "b", quiz=block(), module=MODULE + "mode: practice\n")
    assert course.modules[0].exam is None
    [course] = load(tmp_path / "c", quiz=block(), module=MODULE + "mode: exam\n")
    assert course.modules[0].exam == Exam()


@pytest.mark.parametrize(("extra", "line", "message", "hint"), [
    ("mode: test\n", 5, "'mode: test' is not a mode", "write 'mode: exam'"),
    ("time_limit: 30\n", 5, "'time_limit' without 'mode: exam'", "add 'mode: exam'"),
    ("mode: exam\ntime_limit: 0\n", 6, "'time_limit: 0' is not a number of minutes", "from 1 to 1440"),
    ("mode: exam\ntime_limit: 90 min\n", 6, "'time_limit: 90 min' is not a number of minutes", "'time_limit: 45'"),
    ("mode: exam\ntime_limit: 100000\n", 6, "is not a number of minutes", "from 1 to 1440"),
    ("mode: exam\ntime_limit: true\n", 6, "is not a number of minutes", "from 1 to 1440"),
    ("mode: Exam\n", 5, "'mode: Exam' is not a mode", "leave 'mode' out for practice"),
])
def test_a_slip_in_the_mode_is_reported_at_its_line(tmp_path: Path, extra: str, line: int, message: str,
                                                      hint: str) -> None:
    error = one_error(tmp_path, quiz=block(), module=MODULE + extra)
    assert (error.path, error.line) == (MODULE_YML, line)
    assert message in error.message
    assert hint in error.hint


def test_an_exam_needs_a_quiz(tmp_path: Path) -> None:
    exercises = block(kind="exercise", ident="E1", yaml="", ru="Задача.\n\nsolution:\nРешение.",
                      en="A task.\n\nsolution:\nA solution.", ru_title="Упражнение", en_title="Exercise")
    error = one_error(tmp_path, exercises=exercises, module=MODULE + "mode: exam\n")
    assert (error.path, error.line) == (MODULE_YML, 5)
    assert "'mode: exam' in a module without quiz.md" in error.message
