"""The reference grader: a learner's answer and a question's spec give a verdict.

The spec is the JSON the page carries (`QuestionType.spec`), so Python and the browser grade from the same
data; tests/vectors/cases.json holds both to the same results.
"""

from __future__ import annotations

from typing import Any

from zadachnik.core.formatting import conventions
from zadachnik.core.numbers import grade_field, read_number
from zadachnik.qtypes import registry

COUNTED = ("correct", "wrong", "partial")
CHECKER_TIME_LIMIT = 5

__all__ = ["COUNTED", "grade", "grade_field", "read_number"]


def grade(spec: dict[str, Any], answer: dict[str, Any], lang: str | None = None) -> dict[str, Any]:
    """The verdict for an answer: by the type's rules, or by the author's checker when the spec has one.

    Numbers are read as the page in `lang` reads them; without a language, with no page's conventions."""
    page = conventions(lang) if lang else None
    if "check" in spec:
        from zadachnik.python.runner import run_isolated

        return run_isolated("checker", {"source": spec["check"], "answer": answer, "lang": lang or "en",
                                        "conventions": page}, CHECKER_TIME_LIMIT)
    numeric = spec["type"] in ("numeric", "blanks") or (spec["type"] == "mixed" and spec.get("auto") == "numeric")
    if numeric:
        return registry()[spec["type"] if spec["type"] != "mixed" else "numeric"].grade(spec, answer, page)
    if spec["type"] == "formula":
        return registry()["formula"].grade(spec, answer, (page or {}).get("decimal", "."))
    return registry()[spec["type"]].grade(spec, answer)
