"""Open questions: the learner writes notes and compares them with the author's explanation."""

from __future__ import annotations

from typing import Any

from zadachnik.qtypes import ListParts, QuestionType


class Open(QuestionType):
    name = "open"
    auto = False
    template = "open.html"

    def build(self, config: dict[str, Any], parts: ListParts, languages: tuple[str, ...] = ()) -> None:
        return None

    def spec(self, key: None) -> dict[str, Any]:
        return {}
