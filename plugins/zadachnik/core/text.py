"""Text the author wrote in one language, with the line it starts on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zadachnik.core.errors import per_language_hint


@dataclass
class Fragment:
    markdown: str
    line: int


Localized = dict[str, Fragment]


class TextProblem(ValueError):
    """A text an author gave neither once nor once per language, with what to write instead."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


def is_text(value: Any) -> bool:
    """What YAML gives for a text an author wrote: a string, or a whole number such as a label `7`. (A decimal
    such as 1.10 would lose its zero on the way, a boolean is a slip: those are refused.)"""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def per_language(value: Any, languages: Sequence[str], what: str, key: str, example: str = "…") -> dict[str, str]:
    """One text per site language, from a plain string (the same text in every language) or a mapping that
    gives each of them its own. Keys of languages the site does not build are left alone: a course written
    in [ru, en] can be checked or built in English only. `what` names the text in messages ("'title'"), `key`
    and `example` make the hint."""
    if is_text(value):
        if not str(value).strip():
            raise TextProblem(f"{what} is empty", per_language_hint(languages, key, example))
        return dict.fromkeys(languages, str(value).strip())
    if not isinstance(value, dict):
        raise TextProblem(f"{what} must be text", per_language_hint(languages, key, example))
    missing = [lang for lang in languages if not is_text(value.get(lang)) or not str(value[lang]).strip()]
    if missing:
        added = " and ".join(f"'{lang}: …'" for lang in missing)
        hint = (f"add {added}, or write a plain string for the same text in every language" if len(languages) > 1
                else per_language_hint(languages, key, example))
        raise TextProblem(f"{what} has no text in {', '.join(missing)}", hint)
    return {lang: str(value[lang]).strip() for lang in languages}
