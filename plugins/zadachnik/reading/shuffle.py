"""Shuffled options, hint notes, and how a question's text names its options.

`shuffle: true` (on a question, or in module.yml for all its choice and matching questions) has the page show a
question's options, or a matching question's right-hand column, in an order of the learner's own. The labels the
page shows follow that order, so author text names an option with `[[option:B]]` (B being the author's marker):
the page shows it as the label the learner sees. Text that names an option by its marker as plain words would be
wrong on the page: in a shuffled question the build refuses it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from zadachnik.core.errors import SourceError
from zadachnik.core.text import Fragment

SHUFFLE = "shuffle"
HINT_NOTE = "hint_note"
QUESTION_OPTIONS = (SHUFFLE, HINT_NOTE)
SHUFFLED_TYPES = ("single", "multiple", "matching")
REFERENCE_EXAMPLE = "[[option:B]]"

# Text that is not prose (a code fence, a code span, math, an escaped $, a link's address, a value placeholder,
# HTML), skipped; or an option reference.
NOT_PROSE = (
    r"^[ \t]*(?P<fence>`{3,}|~{3,})[^\n]*\n.*?^[ \t]*(?P=fence)[ \t]*$"
    r"|(?P<ticks>`+)[^\n]*?(?P=ticks)|\\\$|\$\$.*?\$\$|\$[^$\n]+\$|\{\{.*?\}\}|\]\([^)\n]*\)|<[^>\n]+>"
)
_OPTION_REFERENCE = re.compile(NOT_PROSE + r"|\[\[\s*option\s*:\s*(?P<ref>[^\[\]\n]*?)\s*\]\]",
                               re.MULTILINE | re.DOTALL)
# A reference ([[option:B]], [[E1]]) is no plain name either.
_NOT_PLAIN = NOT_PROSE + r"|\[\[[^\[\]\n]*\]\]"
_PLAIN_LETTER = re.compile(_NOT_PLAIN + r"|(?<![\w\\'’-])(?P<key>[A-Z])(?![\w'’-])(?=\s+(?P<after>\S+)|)",
                           re.MULTILINE | re.DOTALL)
# "option 2", "вариант 2", "Antwort 2": how a numbered option is named in words.
_PLAIN_NUMBER = re.compile(
    _NOT_PLAIN + r"|\b(?:options?|answers?|choices?|вариант[а-я]*|ответ[а-я]*|пункт[а-я]*|antwort|option|réponse"
    r"|opción|respuesta)\s+(?P<key>\d{1,3})\b",
    re.MULTILINE | re.DOTALL | re.IGNORECASE,
)
# After the article "A" comes a noun; after an option's name, words like these.
_AFTER_OPTION = {"is", "are", "was", "were", "and", "or", "also", "too", "would", "will", "does", "gives", "names"}


def can_shuffle(question: Any) -> bool:
    return question.auto_type in SHUFFLED_TYPES


def option_keys(question: Any) -> list[str]:
    return [entry.key for entry in question.lists.get("options", [])]


def flag(value: Any, key: str, path: str, line: int) -> bool | None:
    """A yes/no key of a question or module.yml: absent is None."""
    if value is None:
        return None
    if not isinstance(value, bool):
        raise SourceError(path, line, f"'{key}' is true or false", f"write '{key}: true' or leave it out")
    return value


def check_question_options(question: Any, data: dict[str, Any], path: str, line_of: Any) -> None:
    """A question's own `shuffle:` and `hint_note:`: only where they mean something."""
    shuffle = flag(data.get(SHUFFLE), SHUFFLE, path, line_of((SHUFFLE,)))
    if shuffle and not can_shuffle(question):
        raise SourceError(path, line_of((SHUFFLE,)),
                          f"{article(question.type)} {question.type} question has no options to shuffle",
                          "shuffle applies to single, multiple and matching questions, and to mixed questions whose "
                          "auto part is one of them: remove 'shuffle'")
    note = flag(data.get(HINT_NOTE), HINT_NOTE, path, line_of((HINT_NOTE,)))
    if note and not question.qtype.auto:
        raise SourceError(path, line_of((HINT_NOTE,)),
                          f"{article(question.type)} {question.type} question has no verdict to note hints in",
                          "remove 'hint_note': it only changes what Check says")
    if note and not question.hints:
        raise SourceError(path, line_of((HINT_NOTE,)), "'hint_note' on a question without hints",
                          "add 'hints:' to every language part, or remove 'hint_note'")
    question.shuffle, question.hint_note = shuffle, note


def article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


@dataclass
class ModuleOptions:
    """module.yml's `shuffle:` and `hint_note:`, for its questions that say nothing themselves."""

    shuffle: bool = False
    hint_note: bool = False


def module_options(data: dict[str, Any], path: str, lines: dict[Any, int]) -> ModuleOptions:
    return ModuleOptions(
        shuffle=bool(flag(data.get(SHUFFLE), SHUFFLE, path, lines.get((SHUFFLE,), 0) + 1)),
        hint_note=bool(flag(data.get(HINT_NOTE), HINT_NOTE, path, lines.get((HINT_NOTE,), 0) + 1)),
    )


def settle(question: Any, options: ModuleOptions, path: str) -> list[SourceError]:
    """The question's options after its module's defaults; its option references made into the page's markup;
    and, when it is shuffled, every option its text names as plain words (an error each)."""
    if question.shuffle is None:
        question.shuffle = options.shuffle and can_shuffle(question)
    if question.hint_note is None:
        question.hint_note = options.hint_note and question.qtype.auto and bool(question.hints)
    keys = option_keys(question)
    errors = []
    if question.shuffle:
        errors = [plain for fragment in naming_fragments(question) for plain in plain_names(fragment, keys, path)]
    for fragment in question_fragments(question):
        fragment.markdown = with_references(fragment, keys, path, errors)
    return errors


def question_fragments(question: Any) -> Iterator[Fragment]:
    yield from question.body.values()
    yield from question.explanation.values()
    for hint in question.hints:
        yield from hint.values()
    for entries in question.lists.values():
        for entry in entries:
            yield from entry.text.values()


def naming_fragments(question: Any) -> Iterator[Fragment]:
    """The text that may talk about the options: all of the question's but its title (an option "Both A and B"
    is as wrong as an explanation's "B is correct" once the letters move)."""
    yield from question_fragments(question)


def with_references(fragment: Fragment, keys: list[str], path: str, errors: list[SourceError]) -> str:
    """`[[option:B]]` as the element the page labels with the option's shown label (B, unshuffled or printed); an
    unknown one is reported into `errors` (and left as its text, so no later pass reports it again)."""
    if "[[" not in fragment.markdown:
        return fragment.markdown

    def replace(match: re.Match[str]) -> str:
        key = match["ref"]
        if key is None:
            return match[0]
        if key not in keys:
            line = fragment.line + fragment.markdown.count("\n", 0, match.start())
            known = ", ".join(keys) if keys else "none: this question has no options"
            errors.append(SourceError(path, line, f"{match[0]} names no option of this question",
                                      f"name one of its option markers: {known}"))
            return key
        return option_reference(key)

    return _OPTION_REFERENCE.sub(replace, fragment.markdown)


def option_reference(marker: str) -> str:
    """An option named by its marker, as the page's HTML holds it: shuffle.js writes the label the learner sees
    into it; an export reads it back (`OPTION_REFERENCE_HTML`)."""
    marker = html.escape(marker)
    return f'<span class="zq-option-ref" data-zq-option-ref="{marker}">{marker}</span>'


OPTION_REFERENCE_HTML = re.compile(r'<span class="zq-option-ref" data-zq-option-ref="([^"]*)">[^<]*</span>')


def plain_names(fragment: Fragment, keys: list[str], path: str) -> list[SourceError]:
    """Options of a shuffled question named by their markers as plain text (the page would show other labels)."""
    letters = bool(keys) and not keys[0].isdigit()
    pattern = _PLAIN_LETTER if letters else _PLAIN_NUMBER
    errors = []
    for match in pattern.finditer(fragment.markdown):
        key = match["key"]
        if key is None or key not in keys:
            continue
        after = (match.groupdict().get("after") or "").strip()
        # "A queue", "I think": the article or the pronoun before a word in lower case, not option A.
        if letters and key in ("A", "I") and after[:1].islower() and after.strip(".,;:") not in _AFTER_OPTION:
            continue
        line = fragment.line + fragment.markdown.count("\n", 0, match.start("key"))
        errors.append(SourceError(
            path, line, f"this shuffled question's text names option {key} as plain text",
            f"each learner sees the options in an order of their own, labelled in that order: write "
            f"[[option:{key}]], which the page shows as the label the learner sees",
        ))
    return errors
