"""Matching: each item gets one option; the key maps item markers to option markers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zadachnik.qtypes import Invalid, ListParts, QuestionType, known_markers


@dataclass
class MatchingKey:
    pairs: dict[str, str]


class Matching(QuestionType):
    name = "matching"
    keys = ("answer",)
    list_parts = ("items", "options")
    template = "matching.html"

    def build(self, config: dict[str, Any], parts: ListParts, languages: tuple[str, ...] = ()) -> MatchingKey:
        answer = config.get("answer")
        if not isinstance(answer, dict) or not answer:
            raise Invalid(
                "matching needs the pairs item → option", ("answer",) if "answer" in config else (),
                "write e.g. 'answer: {1: A, 2: C, 3: B}'",
            )
        pairs = {str(item): str(option) for item, option in answer.items()}
        known_markers(list(pairs), parts["items"], "the item", ("answer",))
        known_markers(list(pairs.values()), parts["options"], "the option", ("answer",))
        missing = [entry.key for entry in parts["items"] if entry.key not in pairs]
        if missing:
            raise Invalid(
                f"item(s) {', '.join(missing)} have no option in answer", ("answer",),
                "give every item its option",
            )
        ordered = {entry.key: pairs[entry.key] for entry in parts["items"]}
        return MatchingKey(ordered)

    def spec(self, key: MatchingKey) -> dict[str, Any]:
        return {"pairs": key.pairs}

    def grade(self, spec: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        given = answer.get("pairs") or {}
        missing = [item for item in spec["pairs"] if not given.get(item)]
        if missing:
            return {"status": "unanswered", "missing": missing}
        wrong = [item for item, option in spec["pairs"].items() if given[item] != option]
        return {"status": "wrong", "score": 0, "wrong": wrong} if wrong else {"status": "correct", "score": 1}

    def reference_answer(self, spec: dict[str, Any], show: Any) -> dict[str, Any]:
        return {"pairs": dict(spec["pairs"])}

    def author_answer(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise Invalid("a wrong matching answer maps items to options", ("wrong",), "write e.g. '- {1: B, 2: A}'")
        return {"pairs": {str(item): str(option) for item, option in value.items()}}
