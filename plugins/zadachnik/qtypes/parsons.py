"""Parsons problems: the lines of a program, written in YAML in their right order and indentation (`lines: |`),
shown in an order of the learner's own, to be put back in order and, when the solution has indented lines, each
at its depth.

The lines are code, the same in every language, so they live in the YAML; the text around them is per language.
Options: `scoring:` as an ordering question's (the same function grades both: ordering.order_score; a line
counts as in place only at its right depth), `indent:` (true by default when the solution has indented lines: the
learner sets each line's depth too), `distractors: |` (lines that belong nowhere: the learner leaves them out,
and each one left in counts as a line out of place), and `tests:` with `time_limit:` as a code exercise has them:
then the program the lines make is run against the tests, in Pyodide on the page and in CPython at build time,
and the tests alone give the verdict (any arrangement that passes them is right)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from zadachnik.qtypes import Invalid, ListParts, QuestionType
from zadachnik.qtypes.code import DEFAULT_TIME_LIMIT, CodeTest, read_test, read_time_limit
from zadachnik.qtypes.ordering import SCORINGS, order_score

_INDENT = re.compile(r"[ \t]*")


@dataclass
class ParsonsLine:
    # "1", "2", … the solution's lines in their order, then the distractors'.
    key: str
    # Without its indentation.
    text: str
    depth: int


@dataclass
class ParsonsKey:
    lines: list[ParsonsLine]
    distractors: list[ParsonsLine]
    indent: bool
    scoring: str
    # One level of indentation as the author wrote it (four spaces, two, a tab).
    unit: str
    tests: list[CodeTest] = field(default_factory=list)
    time_limit: float = DEFAULT_TIME_LIMIT

    @property
    def solution(self) -> str:
        """The right program, as the author wrote it."""
        return "\n".join(self.unit * line.depth + line.text for line in self.lines)

    @property
    def order(self) -> list[str]:
        """The solution's lines' keys in their right order (as an ordering question's key has them)."""
        return [line.key for line in self.lines]

    @property
    def all_lines(self) -> list[ParsonsLine]:
        return [*self.lines, *self.distractors]

    @property
    def max_depth(self) -> int:
        """The deepest a learner may indent a line: one level past the deepest line there is."""
        return max(line.depth for line in self.all_lines) + 1


def split_lines(value: Any, name: str) -> list[str]:
    """The lines of a `lines: |` or `distractors: |` block; an empty line is an error at its own line."""
    if not isinstance(value, str) or not value.strip():
        raise Invalid(f"'{name}' is code, one line of it per line", (name,),
                      f"write '{name}: |' and below it the lines, indented under it")
    lines = value.rstrip("\n").split("\n")
    for index, text in enumerate(lines):
        if not text.strip():
            raise Invalid(f"line {index + 1} of '{name}' is empty: each line of '{name}' is one the learner places",
                          (name,), "remove the empty line (blank lines between functions are not needed here)",
                          offset=index + 1)
    return lines


def indentation(lines: list[str], name: str, kind: list[str]) -> list[str]:
    """Each line's indentation; all of a problem's are spaces or all are tabs (`kind` holds the first seen)."""
    found = []
    for index, text in enumerate(lines):
        lead = _INDENT.match(text).group()
        if lead and kind and set(lead) != {kind[0]}:
            raise Invalid(f"line {index + 1} of '{name}' mixes tabs and spaces in its indentation", (name,),
                          "indent every line with spaces only (or with tabs only)", offset=index + 1)
        if lead and not kind:
            if len(set(lead)) > 1:
                raise Invalid(f"line {index + 1} of '{name}' mixes tabs and spaces in its indentation", (name,),
                              "indent every line with spaces only (or with tabs only)", offset=index + 1)
            kind.append(lead[0])
        found.append(lead)
    return found


def read_parsons_lines(config: dict[str, Any]) -> tuple[list[ParsonsLine], list[ParsonsLine], str]:
    """The solution's lines and the distractors', each with its depth in units of the smallest indentation."""
    blocks = {name: split_lines(config[name], name) for name in ("lines", "distractors") if name in config}
    if "lines" not in blocks:
        raise Invalid("a Parsons problem needs its lines: the solution, in its right order and indentation", (),
                      "add 'lines: |' and below it the program, one line per line, indented under it")
    kind: list[str] = []
    leads = {name: indentation(lines, name, kind) for name, lines in blocks.items()}
    widths = [len(lead) for found in leads.values() for lead in found if lead]
    unit = (kind[0] * min(widths)) if widths else "    "
    read: dict[str, list[ParsonsLine]] = {}
    count = 0
    for name, lines in blocks.items():
        read[name] = []
        for index, (text, lead) in enumerate(zip(lines, leads[name], strict=True)):
            if len(lead) % len(unit):
                raise Invalid(f"line {index + 1} of '{name}' is indented by {len(lead)}, not a multiple of "
                              f"{len(unit)} (the smallest indentation of the problem's lines)", (name,),
                              "indent each level by the same amount", offset=index + 1)
            count += 1
            read[name].append(ParsonsLine(str(count), text[len(lead):].rstrip(), len(lead) // len(unit)))
    return read["lines"], read.get("distractors", []), unit


class Parsons(QuestionType):
    name = "parsons"
    keys = ("lines", "distractors", "indent", "scoring", "tests", "time_limit")
    template = "parsons.html"
    # Graded by its tests, when it has them: its own `tests:` are its checker.
    takes_checker = False

    def build(self, config: dict[str, Any], parts: ListParts, languages: tuple[str, ...] = ()) -> ParsonsKey:
        lines, distractors, unit = read_parsons_lines(config)
        if len(lines) < 2:
            raise Invalid("a Parsons problem needs at least two lines", ("lines",),
                          "write the program's lines, one per line, under 'lines: |'")
        scoring = config.get("scoring", "subsequence")
        if scoring not in SCORINGS:
            raise Invalid(f"unknown scoring '{scoring}' for a Parsons problem", ("scoring",),
                          f"write one of {', '.join(SCORINGS)}")
        indent = config.get("indent", any(line.depth for line in lines))
        if not isinstance(indent, bool):
            raise Invalid("'indent' is true or false", ("indent",),
                          "write 'indent: true' for the learner to indent the lines too, or 'indent: false'")
        tests = [read_test(test, index, languages) for index, test in enumerate(config.get("tests") or [])]
        if "tests" in config and not tests:
            raise Invalid("'tests' lists the hidden tests the program must pass, and it is empty", ("tests",),
                          "add '- test: f(2) == 4' with its message, or remove 'tests'")
        if "time_limit" in config and not tests:
            raise Invalid("'time_limit' is the time the program's tests may take, and there are no tests",
                          ("time_limit",), "add 'tests:', or remove 'time_limit'")
        limit = read_time_limit(config.get("time_limit", DEFAULT_TIME_LIMIT), ("time_limit",))
        seen: dict[str, tuple[str, int]] = {}
        for name, group in (("lines", lines), ("distractors", distractors)):
            for index, line in enumerate(group):
                first = seen.get(line.text)
                if first is not None and (name == "distractors" or not tests):
                    where = f"line {first[1] + 1} of '{first[0]}'"
                    raise Invalid(
                        f"line {index + 1} of '{name}' repeats {where} ('{line.text}'): the learner could not tell "
                        "them apart", (name,),
                        "make the lines differ" if name == "distractors" else
                        "make the lines differ, or give 'tests:' (then the program is graded by what it does)",
                        offset=index + 1)
                seen.setdefault(line.text, (name, index))
        key = ParsonsKey(lines, distractors, indent, scoring, unit, tests, limit)
        if tests:
            try:
                compile(key.solution + "\n", "<lines>", "exec")
            except SyntaxError as error:
                raise Invalid(f"the lines in their order are not Python: {error.msg} (line {error.lineno})",
                              ("lines",), "the tests run the lines as a program: fix the line",
                              offset=error.lineno or 0) from None
        return key

    def runs_python(self, key: Any) -> bool:
        return isinstance(key, ParsonsKey) and bool(key.tests)

    def spec(self, key: ParsonsKey) -> dict[str, Any]:
        spec: dict[str, Any] = {
            "lines": {line.key: line.text for line in key.all_lines},
            "order": [line.key for line in key.lines],
            "depth": {line.key: line.depth for line in key.all_lines},
            "indent": key.indent, "unit": key.unit, "max_depth": key.max_depth, "scoring": key.scoring,
        }
        if key.tests:
            spec["time_limit"] = key.time_limit
            spec["tests"] = [{"test": test.test, "message": test.message,
                              "time_limit": test.time_limit if test.time_limit is not None else key.time_limit}
                             for test in key.tests]
        return spec

    def grade(self, spec: dict[str, Any], answer: dict[str, Any], lang: str | None = None) -> dict[str, Any]:
        """By the tests when the problem has them (in CPython, as a code exercise is), else by order and depth."""
        placed = arrangement(spec, answer)
        if not placed:
            return {"status": "unanswered"}
        if spec.get("tests"):
            from zadachnik.qtypes.code import Code

            code_spec = {"tests": spec["tests"], "time_limit": spec["time_limit"]}
            return Code().grade(code_spec, {"code": program(spec, placed)}, lang)
        score = order_score(spec["order"], placed_items(spec, placed), spec["scoring"])
        status = "correct" if score == 1 else "partial" if score > 0 else "wrong"
        return {"status": status, "score": score}

    def reference_answer(self, spec: dict[str, Any], show: Any) -> dict[str, Any]:
        return {"order": list(spec["order"]), "indent": [spec["depth"][key] for key in spec["order"]]}


def arrangement(spec: dict[str, Any], answer: dict[str, Any]) -> list[tuple[str, int]] | None:
    """The lines the learner placed, in their order, each with the depth it counts at: the learner's when the
    problem asks for indentation, else its own. None for an answer that is not an arrangement of the lines."""
    order = answer.get("order")
    if not isinstance(order, list) or not all(isinstance(key, str) and key in spec["lines"] for key in order) \
            or len(set(order)) != len(order):
        return None
    if not spec["indent"]:
        return [(key, spec["depth"][key]) for key in order]
    depths = answer.get("indent")
    # A depth is a whole number (JSON may write 1 as 1.0, which the page reads as 1), never a truth value.
    if not isinstance(depths, list) or len(depths) != len(order) or not all(
            isinstance(depth, int | float) and not isinstance(depth, bool) and float(depth).is_integer()
            and 0 <= depth <= spec["max_depth"] for depth in depths):
        return None
    return [(key, int(depth)) for key, depth in zip(order, depths, strict=True)]


def placed_items(spec: dict[str, Any], placed: list[tuple[str, int]]) -> list[str]:
    """What ordering's score reads: a line at its right depth as itself, one at another depth as no line of the
    right order (a distractor is none either)."""
    return [key if depth == spec["depth"][key] else f"{key}@{depth}" for key, depth in placed]


def program(spec: dict[str, Any], placed: list[tuple[str, int]]) -> str:
    """The program the learner's arrangement makes, indented as the author indents."""
    return "\n".join(spec["unit"] * depth + spec["lines"][key] for key, depth in placed) + "\n"
