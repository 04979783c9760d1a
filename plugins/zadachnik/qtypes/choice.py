"""Single and multiple choice: options marked 1, 2, … or A, B, …; the key names markers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zadachnik.qtypes import Invalid, ListParts, QuestionType, answer_example, known_markers, marker_list

SCORINGS = ("all-or-nothing", "net-correct")


@dataclass
class ChoiceKey:
    correct: list[str]
    scoring: str = "all-or-nothing"


class SingleChoice(QuestionType):
    name = "single"
    browser_module = "choice"
    keys = ("answer",)
    list_parts = ("options",)
    template = "choice.html"

    def build(self, config: dict[str, Any], parts: ListParts, languages: tuple[str, ...] = ()) -> ChoiceKey:
        example = answer_example(parts["options"], several=False)
        if "answer" not in config:
            raise Invalid("single choice needs the correct option", (), f"add 'answer: <marker>', e.g. {example}")
        correct = marker_list(config["answer"], "answer", ("answer",), f"write e.g. {example}")
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

    def grade(self, spec: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        chosen = list(dict.fromkeys(answer.get("choice") or []))
        if not chosen:
            return {"status": "unanswered"}
        right = chosen == spec["correct"]
        return {"status": "correct" if right else "wrong", "score": 1 if right else 0}

    def reference_answer(self, spec: dict[str, Any], show: Any) -> dict[str, Any]:
        return {"choice": list(spec["correct"])}

    def author_answer(self, value: Any) -> dict[str, Any]:
        # Not an example in markers: the options are not known here, and letters misled under numbered ones.
        return {"choice": marker_list(value, "a wrong answer", ("wrong",), "write each wrong answer as 'answer:' is "
                                      "written: one option's marker, or a list of them")}


class MultipleChoice(SingleChoice):
    name = "multiple"
    keys = ("answer", "scoring")

    def build(self, config: dict[str, Any], parts: ListParts, languages: tuple[str, ...] = ()) -> ChoiceKey:
        example = answer_example(parts["options"], several=True)
        if "answer" not in config:
            raise Invalid("multiple choice needs its correct options", (), f"add e.g. {example}")
        correct = marker_list(config["answer"], "answer", ("answer",), f"write e.g. {example}")
        if len(set(correct)) != len(correct):
            raise Invalid("an option is named twice in answer", ("answer",), "name each correct option once")
        known_markers(correct, parts["options"], "the correct option", ("answer",))
        scoring = str(config.get("scoring", SCORINGS[0]))
        if scoring not in SCORINGS:
            raise Invalid(f"unknown scoring '{scoring}'", ("scoring",), f"use one of: {', '.join(SCORINGS)}")
        return ChoiceKey(correct, scoring)

    def spec(self, key: ChoiceKey) -> dict[str, Any]:
        return {"correct": key.correct, "scoring": key.scoring}

    def grade(self, spec: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        chosen = set(answer.get("choice") or [])
        if not chosen:
            return {"status": "unanswered"}
        correct = set(spec["correct"])
        if spec.get("scoring") == "net-correct":
            # PrairieLearn's net-correct: right picks minus wrong picks, over the number of right options.
            score = max(0, (len(chosen & correct) - len(chosen - correct)) / len(correct))
        else:
            score = 1 if chosen == correct else 0
        status = "correct" if score == 1 else "wrong" if score == 0 else "partial"
        return {"status": status, "score": score}
