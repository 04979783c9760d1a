"""Exam mode: `mode: exam` in module.yml, with an optional `time_limit:` in minutes.

The module's quiz then has no Check, hints or revealed answers: the learner answers every question and submits
them all at once, after which the answers are frozen and every verdict and explanation is shown. A time limit
runs from the learner's first answer, is kept across reloads (with their other work) and submits what is there
when it ends."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zadachnik.core.errors import SourceError

MODE, TIME_LIMIT = "mode", "time_limit"
MODES = ("practice", "exam")
MODULE_KEYS = (MODE, TIME_LIMIT)
# A day: anything longer is a slip (seconds written as minutes, say).
MAX_MINUTES = 24 * 60


@dataclass(frozen=True)
class Exam:
    # Seconds from the first answer to the submission the page makes itself; None: no limit.
    time_limit: int | None = None


def exam_of(data: dict[str, Any], path: str, lines: dict[Any, int], has_quiz: bool) -> Exam | None:
    """module.yml's mode, or the SourceError that says what to write instead."""
    mode = data.get(MODE, "practice")
    line = lines.get((MODE,), 0) + 1
    if mode not in MODES:
        raise SourceError(path, line, f"'mode: {mode}' is not a mode", "write 'mode: exam' for one Submit at the "
                          "end and no Check before it, or leave 'mode' out for practice")
    limit = data.get(TIME_LIMIT)
    limit_line = lines.get((TIME_LIMIT,), 0) + 1
    if mode != "exam":
        if limit is not None:
            raise SourceError(path, limit_line, "'time_limit' without 'mode: exam'",
                              "add 'mode: exam', or remove 'time_limit' (practice has no time limit)")
        return None
    if not has_quiz:
        raise SourceError(path, line, "'mode: exam' in a module without quiz.md",
                          "exam mode is for a module's quiz: add quiz.md, or remove 'mode'")
    if limit is None:
        return Exam()
    if type(limit) not in (int, float) or not 0 < limit <= MAX_MINUTES:
        raise SourceError(path, limit_line, f"'time_limit: {limit}' is not a number of minutes",
                          f"write the minutes the learner has, from 1 to {MAX_MINUTES}, e.g. 'time_limit: 45'")
    return Exam(time_limit=round(limit * 60))
