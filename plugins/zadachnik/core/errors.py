"""Authors' errors: one message per problem, naming the file and line and what to write instead."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass
class SourceError(Exception):
    """A problem in an author's source file."""

    path: str
    line: int
    message: str
    hint: str = ""

    def __str__(self) -> str:
        # Problems with a whole file or folder have no line.
        text = f"{self.path}:{self.line}: {self.message}" if self.line > 0 else f"{self.path}: {self.message}"
        if self.hint:
            text += f" ({self.hint})"
        return text


# The words of the report that the build and `zadachnik check` print alike.
TEX_HEADING = "Zadachnik: KaTeX cannot render:"
TEX_HINT = "(fix the formula; KaTeX's supported functions: katex.org/docs/supported)"


def sources_heading(count: int) -> str:
    return f"Zadachnik: {count} problem{'s' if count > 1 else ''} in the course sources:"


def warnings_heading(count: int) -> str:
    return f"Zadachnik: {count} warning{'s' if count > 1 else ''} about the course sources:"


def tex_problem(place: str, tex: str, message: object) -> str:
    """One bad formula: `place` is its file:line."""
    return f"{place}: invalid TeX '{tex}': {message}"


class SourceErrors(Exception):
    """Several problems found in one pass, reported together."""

    def __init__(self, errors: list[SourceError]):
        super().__init__("\n".join(str(error) for error in errors))
        self.errors = errors


def per_language_hint(languages: Sequence[str], key: str, example: str = "…") -> str:
    """How to write a text that may differ per language, in the site's own languages: on a monolingual site a
    plain string is all there is to write."""
    plain = f"'{key}: {example}'"
    if len(languages) == 1:
        return f"write a plain string: {plain}"
    mapping = "{" + ", ".join(f"{lang}: …" for lang in languages) + "}"
    return f"write '{key}: {mapping}', or a plain string for the same text in every language: {plain}"
