"""Single and multiple choice: options marked 1, 2, … or A, B, …; the key names markers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import Invalid, ListParts, QuestionType, known_markers, marker_list

SCORINGS = ("all-or-nothing", "net-correct")


@dataclass
class ChoiceKey:
    correct: list[str]
    scoring: str = "all-or-nothing"


class SingleChoice(QuestionType):
    name = "single"
    keys = ("answer",)
    list_parts = ("options",)
    template = "choice.html"

    def build(self, config: dict[str, Any], parts: ListParts) -> ChoiceKey:
        if "answer" not in config:
            raise Invalid("single choice needs the correct option", (), "add 'answer: <marker>', e.g. 'answer: B'")
        correct = marker_list(config["answer"], "answer", ("answer",))
        if len(correct) != 1:
            raise Invalid(
                f"single choice has exactly one correct option, not {len(correct)}",
                ("answer",),
                "name one marker, or use 'type: multiple'",
            )
        known_markers(correct, parts["options"], "the correct option", ("answer",))
        return ChoiceKey(correct)

    def spec(self, key: ChoiceKey) -> dict[str, Any]:
        return {"correct": key.correct}


class MultipleChoice(SingleChoice):
    name = "multiple"
    keys = ("answer", "scoring")

    def build(self, config: dict[str, Any], parts: ListParts) -> ChoiceKey:
        if "answer" not in config:
            raise Invalid("multiple choice needs its correct options", (), "add e.g. 'answer: [A, C]'")
        correct = marker_list(config["answer"], "answer", ("answer",))
        if len(set(correct)) != len(correct):
            raise Invalid("an option is named twice in answer", ("answer",), "name each correct option once")
        known_markers(correct, parts["options"], "the correct option", ("answer",))
        scoring = str(config.get("scoring", SCORINGS[0]))
        if scoring not in SCORINGS:
            raise Invalid(f"unknown scoring '{scoring}'", ("scoring",), f"use one of: {', '.join(SCORINGS)}")
        return ChoiceKey(correct, scoring)

    def spec(self, key: ChoiceKey) -> dict[str, Any]:
        return {"correct": key.correct, "scoring": key.scoring}
