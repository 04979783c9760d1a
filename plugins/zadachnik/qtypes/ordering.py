"""Ordering: the items, written in their right order, are shown in an order of the learner's own, to be put back.

`scoring:` says how a partly right order counts: `subsequence` (the default; the longest run of items in their
right order relative to each other, not necessarily side by side, as a share of all), `pairs` (each right-hand
neighbour that is the right one, as a share of the n - 1 there are) or `exact` (all or nothing). Fewer than two
items in the right relative order earn nothing."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Any

from zadachnik.qtypes import Invalid, ListParts, QuestionType

SCORINGS = ("subsequence", "pairs", "exact")


@dataclass
class OrderingKey:
    order: list[str]
    scoring: str


def longest_ordered(positions: list[int]) -> int:
    """The length of the longest increasing subsequence of `positions` (patience sorting)."""
    tails: list[int] = []
    for position in positions:
        index = bisect_left(tails, position)
        tails[index:index + 1] = [position]
    return len(tails)


def order_score(order: list[str], given: list[str], scoring: str) -> float:
    """The share of the mark `given` earns against the right `order`, by `scoring`.

    `given` may lack items of `order` and hold items it lacks (a Parsons problem's line at a wrong depth, or one
    that belongs nowhere: parsons.py): such an item is never in its place, and the share is of the longer of the
    two, so each one costs as much as a missing item does. An ordering question's `given` is always `order`
    rearranged."""
    place = {item: index for index, item in enumerate(order)}
    if given == order:
        return 1.0
    if scoring == "exact":
        return 0.0
    positions = [place.get(item) for item in given]
    size = max(len(order), len(given))
    if scoring == "pairs":
        right = sum(1 for first, second in zip(positions, positions[1:], strict=False)
                    if first is not None and second == first + 1)
        return right / (size - 1)
    longest = longest_ordered([position for position in positions if position is not None])
    return longest / size if longest >= 2 else 0.0


class Ordering(QuestionType):
    name = "ordering"
    # `answer` only to be told that the items' order is the answer.
    keys = ("scoring", "answer")
    list_parts = ("items",)
    template = "ordering.html"

    def build(self, config: dict[str, Any], parts: ListParts, languages: tuple[str, ...] = ()) -> OrderingKey:
        if "answer" in config:
            raise Invalid("an ordering question takes no 'answer:': its items, as written, are the right order",
                          ("answer",), "remove 'answer' and write the items in their right order")
        scoring = config.get("scoring", "subsequence")
        if scoring not in SCORINGS:
            raise Invalid(f"unknown scoring '{scoring}' for ordering", ("scoring",),
                          f"write one of {', '.join(SCORINGS)}")
        order = [entry.key for entry in parts["items"]]
        if len(order) < 2:
            raise Invalid("an ordering question needs at least two items", ("items",),
                          "list the items in their right order under 'items:'")
        return OrderingKey(order, scoring)

    def spec(self, key: OrderingKey) -> dict[str, Any]:
        return {"order": key.order, "scoring": key.scoring}

    def grade(self, spec: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        given = answer.get("order")
        if not isinstance(given, list) or sorted(map(str, given)) != sorted(spec["order"]):
            return {"status": "unanswered"}
        score = order_score(spec["order"], [str(item) for item in given], spec["scoring"])
        status = "correct" if score == 1 else "partial" if score > 0 else "wrong"
        return {"status": status, "score": score}

    def reference_answer(self, spec: dict[str, Any], show: Any) -> dict[str, Any]:
        return {"order": list(spec["order"])}
