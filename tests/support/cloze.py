"""A cloze question's text read as Moodle's importer reads it (qtype_multianswer_extract_question, in
question/type/multianswer/questiontype.php), for the parts the export writes: which parts it finds, each part's
mark and answers, and what an answer is once stored. Written from Moodle's regular expressions, step by step:

- a part is `{MARK:TYPE:answer~answer…}`, its MARK digits (none: 1), and the question's mark is the sum of its
  parts' marks;
- an answer may start with `=` (right) or `%N%` (N percent), and runs up to the first `~`, `#` or `}` that no
  backslash, `&` or `&amp;` stands before; `#` starts the answer's feedback;
- a NUMERICAL answer that is a number (and `:tolerance`) is taken as numbers; any other answer has its character
  references decoded (html_entity_decode), then `\\}` and `\\#` lose their backslash, and nothing else does.

A drop-down's answer is stored as HTML and shown as HTML (format_text, then html_writer::select puts it into an
<option> as it is): `shown` is the text a learner reads there."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

_WEIGHT = r"=|%(-?[0-9]+)%"
_ANSWER = r".+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$)"
_FEEDBACK = r".*?(?<!\\)(?=[~}]|$)"
_ALTERNATIVE = f"({_WEIGHT})?({_ANSWER})(#({_FEEDBACK}))?"
_TYPES = (r"(NUMERICAL|NM)|(MULTICHOICE|MC)|(MULTICHOICE_V|MCV)|(MULTICHOICE_H|MCH)|(SHORTANSWER|SA|MW)|"
          r"(SHORTANSWER_C|SAC|MWC)")
_PART = re.compile(r"\{([0-9]*):(" + _TYPES + "):(" + _ALTERNATIVE + "(~" + _ALTERNATIVE + r")*)\}", re.DOTALL)
_NEXT_ANSWER = re.compile("~?" + _ALTERNATIVE, re.DOTALL)
_NUMBER = r"-?(?:(?:[0-9]+[.,]?[0-9]*|[.,][0-9]+)(?:[eE][-+]?[0-9]+)?)"
_NUMERICAL_ANSWER = re.compile(f"^({_NUMBER})(?::({_NUMBER}))?$", re.DOTALL)


@dataclass
class ClozeAnswer:
    fraction: float
    # The answer as Moodle stores it: a number for NUMERICAL, else HTML.
    text: str
    tolerance: str | None = None


@dataclass
class ClozePart:
    kind: str
    mark: int
    answers: list[ClozeAnswer] = field(default_factory=list)


def read_cloze(question_text: str) -> tuple[list[ClozePart], str]:
    """The parts in order, and the text left with `{#1}`, `{#2}` … where they stood."""
    parts: list[ClozePart] = []
    while found := _PART.search(question_text):
        kind = "NUMERICAL" if found[3] else "MULTICHOICE" if found[4] or found[5] or found[6] else "SHORTANSWER"
        part = ClozePart(kind, int(found[1]) if found[1] != "" else 1)
        remaining = found[9]
        while answer := _NEXT_ANSWER.search(remaining):
            part.answers.append(stored_answer(kind, answer))
            remaining = remaining.split(answer[0], 1)[1]
        parts.append(part)
        question_text = question_text.replace(found[0], f"{{#{len(parts)}}}", 1)
    return parts, question_text


def stored_answer(kind: str, answer: re.Match[str]) -> ClozeAnswer:
    fraction = 1.0 if answer[1] == "=" else int(answer[2]) / 100 if answer[2] else 0.0
    text = answer[3]
    number = _NUMERICAL_ANSWER.match(text) if kind == "NUMERICAL" else None
    if number:
        return ClozeAnswer(fraction, number[1], number[2] or "0")
    return ClozeAnswer(fraction, html.unescape(text).replace("\\}", "}").replace("\\#", "#"))


def question_mark(parts: list[ClozePart]) -> int:
    """What the question is worth in a quiz: Moodle adds up its parts' marks (defaultmark)."""
    return sum(part.mark for part in parts)


def shown(answer_html: str) -> str:
    """The text a learner reads for a stored answer: it must be text in HTML, no element in it."""
    assert "<" not in answer_html, f"{answer_html!r} holds markup, which the drop-down would not show as written"
    return html.unescape(answer_html)
