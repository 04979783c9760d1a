"""Authors' errors: one message per problem, naming the file and line and what to write instead."""

from __future__ import annotations

import re
import unicodedata
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
        hint = "; ".join([*([self.hint] if self.hint else []), *unseen_characters(self.message)])
        if hint:
            text += f" ({hint})"
        return text


# A name, key or marker the message quotes; a label with spaces is free text, in whatever script. No-break spaces
# count as part of a name: 'B\u00a0' is the marker B with one typed after it.
_QUOTED = re.compile(r"'((?:[^'\s]|[\u00a0\u2007\u202f]){1,60})'")


def unseen_characters(message: str) -> list[str]:
    """What an author cannot see in the names a message quotes: an invisible character (a zero-width space pasted
    with an id), a letter of another script among Latin ones (a Cyrillic е in 'typе'), or alone where markers
    are Latin (a Cyrillic С). Without it, "unknown type 'singlе'" names what looks like a known type."""
    notes = []
    for name in dict.fromkeys(_QUOTED.findall(message)):
        invisible = [index for index, char in enumerate(name) if _invisible(char)]
        foreign = list(dict.fromkeys(char for char in name if char.isalpha() and _script(char) != "LATIN"))
        if invisible:
            where = f" after '{name[:invisible[0]]}'" if invisible[0] else " before its first character"
            notes.append(f"'{name}' holds an invisible {described(name[invisible[0]])}{where}")
        elif foreign and any(_script(char) == "LATIN" for char in name if char.isalpha()):
            listed = ", ".join(f"{char}, {described(char)}" for char in foreign[:3])
            notes.append(f"'{name}' mixes Latin letters with {listed}")
        elif len(name) == 1 and foreign:
            notes.append(f"'{name}' is {described(name)}, not a Latin letter")
        elif len(name) > 2 and name[0] in TYPOGRAPHIC_QUOTES and name[-1] in TYPOGRAPHIC_QUOTES:
            notes.append(f"'{name}' is in typographic quotes (Word and Google Docs type them): {STRAIGHT_QUOTES}")
    return notes


# Quotes that curl, or point, as Word, Google Docs and Russian typography type them: YAML reads them as text.
TYPOGRAPHIC_QUOTES = "\u201c\u201d\u2018\u2019\u00ab\u00bb\u201e"
STRAIGHT_QUOTES = "YAML quotes a text with straight quotes, '\"' or \"'\""


def _invisible(char: str) -> bool:
    # Unicode's "other" (format, control, unassigned …) and separator categories: nothing shows on the screen.
    return unicodedata.category(char)[0] in "CZ"


def _script(char: str) -> str:
    return unicodedata.name(char, "UNKNOWN").split()[0]


def described(char: str) -> str:
    return f"{unicodedata.name(char, 'unnamed character').lower()} (U+{ord(char):04X})"


def a_described(char: str) -> str:
    """The character named with its article: 'a no-break space (U+00A0)', 'an en dash (U+2013)'."""
    name = described(char)
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


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
