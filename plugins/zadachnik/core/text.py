"""Text the author wrote in one language, with the line it starts on."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Fragment:
    markdown: str
    line: int


Localized = dict[str, Fragment]
