"""Numeric answers in one or more labelled fields, each with its own tolerance."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from zadachnik.core.arith import CommaInNumber, evaluate
from zadachnik.core.numbers import grade_field
from zadachnik.core.text import TextProblem, per_language
from zadachnik.qtypes import Invalid, ListParts, QuestionType

FIELD_KEYS = ("answer", "atol", "rtol", "unit")


@dataclass
class NumericField:
    id: str
    expression: str
    value: float
    atol: float | None = None
    rtol: float | None = None
    # Per language (an author's one unit for every language is repeated for each).
    unit: dict[str, str] | None = None

    @property
    def exact(self) -> bool:
        return not self.atol and not self.rtol


@dataclass
class NumericKey:
    fields: list[NumericField]


class Numeric(QuestionType):
    name = "numeric"
    keys = ("fields",)
    list_parts = ("fields",)
    template = "numeric.html"

    def build(self, config: dict[str, Any], parts: ListParts, languages: tuple[str, ...] = ()) -> NumericKey:
        fields = config.get("fields")
        if not isinstance(fields, dict) or not fields:
            raise Invalid(
                "a numeric question needs its fields", ("fields",) if "fields" in config else (),
                "write e.g. 'fields: {x: {answer: 16/7, atol: 0.001}}'",
            )
        built = [read_field(str(field_id), spec, languages) for field_id, spec in fields.items()]
        labelled = [entry.key for entry in parts["fields"]]
        for field in built:
            if field.id not in labelled:
                raise Invalid(
                    f"the field '{field.id}' has no label", ("fields", field.id),
                    f"add '- {field.id}: Label' under 'fields:' in every language",
                )
        field_ids = [str(field_id) for field_id in fields]
        for key in labelled:
            if key not in field_ids:
                raise Invalid(
                    f"the label '{key}' names no field", ("fields",),
                    f"fields in YAML: {', '.join(str(f) for f in fields)}",
                )
        return NumericKey(built)

    def grade(self, spec: dict[str, Any], answer: dict[str, Any],
              conventions: dict[str, Any] | None = None) -> dict[str, Any]:
        """Each field read with the page's number `conventions` (none: no sign is a group sign)."""
        typed = answer.get("fields") or {}
        fields = {field["id"]: grade_field(field, str(typed.get(field["id"], "")), conventions)
                  for field in spec["fields"]}
        statuses = [verdict["status"] for verdict in fields.values()]
        if "unreadable" in statuses:
            return {"status": "unreadable", "fields": fields}
        right = all(status == "correct" for status in statuses)
        return {"status": "correct" if right else "wrong", "score": 1 if right else 0, "fields": fields}

    def reference_answer(self, spec: dict[str, Any], show: Any) -> dict[str, Any]:
        return {"fields": {field["id"]: show(field) for field in spec["fields"]}}

    def author_answer(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise Invalid("a wrong numeric answer gives each field's text", ("wrong",), "write e.g. '- {x: \"3/5\"}'")
        return {"fields": {str(field): str(text) for field, text in value.items()}}

    def spec(self, key: NumericKey) -> dict[str, Any]:
        return {
            "fields": [
                {"id": field.id, "answer": field.value, "atol": field.atol or 0, "rtol": field.rtol or 0}
                for field in key.fields
            ]
        }


def read_field(field_id: str, spec: Any, languages: tuple[str, ...] = (), part: str = "fields") -> NumericField:
    """A field under `part` (a numeric question's `fields`, a question with blanks' `gaps`)."""
    path = (part, field_id)
    if not isinstance(spec, dict):
        raise Invalid(
            f"the field '{field_id}' must be a mapping", path,
            f"write '{field_id}: {{answer: 16/7, atol: 0.001}}'",
        )
    for key in spec:
        if key not in FIELD_KEYS:
            close = difflib.get_close_matches(str(key), FIELD_KEYS, n=1, cutoff=0.5)
            guess = f"did you mean '{close[0]}'? " if close else ""
            raise Invalid(
                f"unknown key '{key}' in field '{field_id}'", (*path, str(key)),
                f"{guess}a field takes {', '.join(FIELD_KEYS)}",
            )
    if spec.get("answer") is None:
        raise Invalid(
            f"the field '{field_id}' has no answer", path,
            "add 'answer: <number or arithmetic>', e.g. 'answer: 8*(45+30)'",
        )
    listed = list_problem(spec["answer"])
    if listed:
        raise Invalid(f"the answer of the field '{field_id}' is a list, {listed[0]}", (*path, "answer"), listed[1])
    expression = str(spec["answer"])
    try:
        value = evaluate(spec["answer"])
    except CommaInNumber as error:
        raise Invalid(str(error), (*path, "answer")) from None
    except ValueError as error:
        raise Invalid(str(error), (*path, "answer"), "write a number or arithmetic such as 7e9*12/2**30") from None
    tolerances = {name: read_tolerance(spec, name, path) for name in ("atol", "rtol")}
    if value == 0 and tolerances["rtol"] and not tolerances["atol"]:
        # The page promised "±1 %", and only 0 itself passed.
        raise Invalid(f"the field '{field_id}' has the answer 0 and only rtol, a share of the answer: a share of 0 is "
                      "0, so only 0 itself would pass", (*path, "rtol"),
                      f"give a distance instead: 'atol: {tolerances['rtol']:g}', or another")
    unit = None
    if spec.get("unit") is not None:
        try:
            unit = per_language(spec["unit"], languages, "the unit", "unit", "s")
        except TextProblem as problem:
            raise Invalid(str(problem), (*path, "unit"), problem.hint) from None
    return NumericField(field_id, expression, value, tolerances["atol"], tolerances["rtol"], unit)


def list_problem(written: Any) -> tuple[str, str] | None:
    """What is wrong with an answer written as a list ('[5, 5]', '[4, 6]') and what to write instead; None for
    any other answer. A field's answer is one number and a range around it is its tolerance, so a range says which
    answer and atol it means. (Read as arithmetic, it was "'[5, 5]' in '[5, 5]' is not plain arithmetic".)"""
    if not isinstance(written, list):
        return None
    shown = f"[{', '.join(str(item) for item in written)}]: a field's answer is one number"
    try:
        low, high = sorted(evaluate(item) for item in written) if len(written) == 2 else (None, None)
    except ValueError:
        low = high = None
    if low is None or high is None:
        return shown, "write one number or arithmetic, e.g. 'answer: 16/7'"
    if low == high:
        return shown, f"a range whose ends are equal is one number: write 'answer: {written[0]}'"
    return shown, (f"for any number from {low:.12g} to {high:.12g} write 'answer: {(low + high) / 2:.12g}' and "
                   f"'atol: {(high - low) / 2:.12g}'")


def read_tolerance(spec: dict[str, Any], name: str, path: tuple[str, ...]) -> float | None:
    if spec.get(name) is None:
        return None
    try:
        value = evaluate(spec[name])
    except CommaInNumber as error:
        raise Invalid(str(error), (*path, name)) from None
    except ValueError as error:
        raise Invalid(str(error), (*path, name), percent_hint(spec[name]) or f"write a number, e.g. '{name}: 0.005'"
                      ) from None
    problem = tolerance_problem(name, value)
    if problem:
        raise Invalid(problem[0], (*path, name), problem[1])
    return value


def percent_hint(written: object) -> str | None:
    """What to write for a tolerance written as a percentage ("5%"), or None."""
    text = str(written).strip()
    try:
        share = float(text.removesuffix("%")) / 100 if text.endswith("%") else None
    except ValueError:
        return None
    return None if share is None else f"a share of the answer is a relative tolerance: write 'rtol: {share:g}'"


def tolerance_problem(name: str, value: float) -> tuple[str, str] | None:
    """What is wrong with a tolerance (`atol` or `rtol`) of `value`, and what to write instead; None if nothing."""
    if value < 0:
        return (f"the tolerance {name} is negative ({value:g})",
                "a tolerance is a distance: write it without the minus sign, or 0 for an exact answer")
    if name == "rtol" and value >= 1:
        return (f"rtol: {value:g} lets an answer be off by {value:.0%} of the key",
                f"rtol is a fraction of the answer: for {value:g} % write 'rtol: {value / 100:g}'")
    return None
