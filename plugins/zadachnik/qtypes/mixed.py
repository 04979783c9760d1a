"""Mixed: an auto-checked part of another type plus an explanation the learner checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zadachnik.qtypes import Invalid, ListParts, QuestionType

AUTO_TYPES = ("single", "multiple", "numeric", "matching")


@dataclass
class MixedKey:
    auto: QuestionType
    key: Any


class Mixed(QuestionType):
    name = "mixed"
    template = "mixed.html"
    # Its auto part is graded by its own type's rules.
    takes_checker = False

    def auto_type(self, config: dict[str, Any]) -> QuestionType:
        from zadachnik.qtypes import registry

        auto = config.get("auto")
        if auto not in AUTO_TYPES:
            raise Invalid(
                f"unknown auto-checked part '{auto}'" if auto else "a mixed question needs its auto-checked part",
                ("auto",) if "auto" in config else (),
                f"add 'auto:' with one of {', '.join(AUTO_TYPES)}",
            )
        return registry()[auto]

    def allowed_keys(self, config: dict[str, Any]) -> tuple[str, ...]:
        try:
            return ("auto", *self.auto_type(config).keys)
        except Invalid:
            return ("auto",)

    def parts_for(self, config: dict[str, Any]) -> tuple[str, ...]:
        return self.auto_type(config).list_parts

    def build(self, config: dict[str, Any], parts: ListParts, languages: tuple[str, ...] = ()) -> MixedKey:
        auto = self.auto_type(config)
        return MixedKey(auto, auto.build(config, parts, languages))

    def spec(self, key: MixedKey) -> dict[str, Any]:
        return {"auto": key.auto.name, **key.auto.spec(key.key)}

    def grade(self, spec: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        return self.auto_type(spec).grade(spec, answer)

    def reference_answer(self, spec: dict[str, Any], show: Any) -> dict[str, Any]:
        return self.auto_type(spec).reference_answer(spec, show)

    def author_answer(self, value: Any) -> dict[str, Any]:
        raise Invalid("a mixed question's checker takes 'wrong:' answers of its auto part")
