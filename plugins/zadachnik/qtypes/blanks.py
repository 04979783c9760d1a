"""Blanks: a text with gaps, `[[gap:name]]` where each stands, each gap a number (with its tolerance, as a
numeric field) or a choice from a list of words (a list per language, or one for all).

Each gap is graded on its own; the question earns the share of gaps filled right. The answer is saved as a
numeric question's is (`fields`: each gap's text, a choice as its option's number), so storage, exports of the
learner's work and the page's field messages treat both alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zadachnik.core.numbers import grade_field
from zadachnik.core.text import is_text
from zadachnik.qtypes import Invalid, ListParts, QuestionType
from zadachnik.qtypes.numeric import NumericField, read_field

CHOICE_KEYS = ("options", "answer")


@dataclass
class ChoiceGap:
    id: str
    # Per language, the words offered, in the author's order.
    options: dict[str, list[str]]
    # 1-based: the right word's place in the list.
    answer: int


Gap = NumericField | ChoiceGap


@dataclass
class BlanksKey:
    gaps: list[Gap]


def read_options(gap_id: str, value: Any, languages: tuple[str, ...]) -> dict[str, list[str]]:
    path = ("gaps", gap_id, "options")
    hint = (f"write '{gap_id}: {{options: [power, linear], answer: 1}}', or per language "
            f"'options: {{{', '.join(f'{lang}: […]' for lang in languages) or 'en: […]'}}}'")

    def words(items: Any) -> list[str]:
        if not isinstance(items, list) or len(items) < 2 or not all(is_text(item) and str(item).strip()
                                                                     for item in items):
            raise Invalid(f"the gap '{gap_id}' offers a list of at least two words", path, hint)
        return [str(item).strip() for item in items]

    if isinstance(value, dict):
        missing = [lang for lang in languages if lang not in value]
        if missing:
            raise Invalid(f"the gap '{gap_id}' has no words in {', '.join(missing)}", path, hint)
        per_lang = {lang: words(value[lang]) for lang in languages}
    else:
        per_lang = dict.fromkeys(languages, words(value))
    counts = {len(items) for items in per_lang.values()}
    if len(counts) > 1:
        raise Invalid(f"the gap '{gap_id}' offers a different number of words in each language", path,
                      "give every language the same words, in the same order")
    return per_lang


def read_gap(gap_id: str, spec: Any, languages: tuple[str, ...]) -> Gap:
    if isinstance(spec, dict) and "options" in spec:
        for key in spec:
            if key not in CHOICE_KEYS:
                raise Invalid(f"unknown key '{key}' in the gap '{gap_id}'", ("gaps", gap_id, str(key)),
                              "a gap with words takes 'options' and 'answer' (the right word's number)")
        options = read_options(gap_id, spec["options"], languages)
        answer = spec.get("answer")
        count = len(next(iter(options.values()))) if options else 0
        if type(answer) is not int or not 1 <= answer <= count:
            raise Invalid(f"the gap '{gap_id}' needs the number of its right word, from 1 to {count}",
                          ("gaps", gap_id, "answer") if "answer" in spec else ("gaps", gap_id),
                          "write e.g. 'answer: 1' for the first word of the list")
        return ChoiceGap(gap_id, options, answer)
    try:
        return read_field(gap_id, spec, languages, "gaps")
    except Invalid as problem:
        if isinstance(spec, dict):
            raise
        raise Invalid(f"the gap '{gap_id}' must be a mapping", ("gaps", gap_id),
                      f"write '{gap_id}: {{answer: 20, atol: 1}}' for a number, or "
                      f"'{gap_id}: {{options: [power, linear], answer: 1}}' for a word") from problem


class Blanks(QuestionType):
    name = "blanks"
    keys = ("gaps",)
    template = "blanks.html"

    def build(self, config: dict[str, Any], parts: ListParts, languages: tuple[str, ...] = ()) -> BlanksKey:
        gaps = config.get("gaps")
        if not isinstance(gaps, dict) or not gaps:
            raise Invalid("a question with blanks needs its gaps", ("gaps",) if "gaps" in config else (),
                          "write e.g. 'gaps: {ratio: {answer: 20, atol: 2}, law: {options: [power, linear], "
                          "answer: 1}}' and put [[gap:ratio]] where each stands in the text")
        return BlanksKey([read_gap(str(gap_id), spec, languages) for gap_id, spec in gaps.items()])

    def marked_words(self, key: BlanksKey) -> dict[str, Any]:
        return {"gaps": {gap.id: gap.options for gap in key.gaps if isinstance(gap, ChoiceGap)}}

    def spec(self, key: BlanksKey) -> dict[str, Any]:
        return {"fields": [
            {"id": gap.id, "options": len(next(iter(gap.options.values()))), "answer": gap.answer}
            if isinstance(gap, ChoiceGap) else
            {"id": gap.id, "answer": gap.value, "atol": gap.atol or 0, "rtol": gap.rtol or 0}
            for gap in key.gaps
        ]}

    def grade(self, spec: dict[str, Any], answer: dict[str, Any],
              conventions: dict[str, Any] | None = None) -> dict[str, Any]:
        typed = answer.get("fields") or {}
        fields = {field["id"]: grade_gap(field, str(typed.get(field["id"], "")), conventions)
                  for field in spec["fields"]}
        statuses = [verdict["status"] for verdict in fields.values()]
        if "unreadable" in statuses or "unanswered" in statuses:
            return {"status": "unreadable", "fields": fields}
        score = statuses.count("correct") / len(statuses)
        status = "correct" if score == 1 else "wrong" if score == 0 else "partial"
        return {"status": status, "score": score, "fields": fields}

    def reference_answer(self, spec: dict[str, Any], show: Any) -> dict[str, Any]:
        return {"fields": {field["id"]: str(field["answer"]) if "options" in field else show(field)
                           for field in spec["fields"]}}

    def author_answer(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise Invalid("a wrong answer to blanks gives each gap's text", ("wrong",),
                          "write e.g. '- {ratio: \"10\", law: \"2\"}'")
        return {"fields": {str(gap): str(text) for gap, text in value.items()}}


def grade_gap(field: dict[str, Any], text: str, conventions: dict[str, Any] | None) -> dict[str, Any]:
    """A choice gap is right with its word's number, unanswered with none; a number gap is a numeric field."""
    if "options" not in field:
        return grade_field(field, text, conventions)
    if not text.strip():
        return {"status": "unanswered"}
    return {"status": "correct" if text.strip() == str(field["answer"]) else "wrong"}

