"""Progressive hints: a question's `hints:` part, numbered 1, 2, … in each language, shown one at a time.

A hint list is read as a text part of each language part (it may hold Markdown and math, like an explanation),
then split here into its numbered entries, each keeping its line; every language gives the same number of hints.
"""

from __future__ import annotations

import re

from zadachnik.core.errors import SourceError
from zadachnik.core.text import Fragment, Localized

HINTS = "hints"
_HINT_MARKER = re.compile(r"^(?P<key>\d{1,3}|[A-Za-z])[.)]\s+(?P<text>\S.*)$")
EXAMPLE = "'1. First hint', '2. Second hint', …"


def split_hints(fragment: Fragment, path: str, whose: str) -> list[Fragment]:
    """The numbered entries of one language's `hints:` part. A hint goes on over lines indented by two spaces,
    blank lines between them included (a second paragraph, a formula on its own lines)."""
    entries: list[tuple[str, int, list[str]]] = []
    for offset, text in enumerate(fragment.markdown.split("\n")):
        number = fragment.line + offset
        match = _HINT_MARKER.match(text)
        if match:
            if not match["key"].isdigit():
                raise SourceError(path, number, f"hints are numbered, not lettered: '{match['key']}.'",
                                  f"write {EXAMPLE}, in the order the learner opens them")
            entries.append((match["key"], number, [match["text"]]))
        elif entries and (not text.strip() or text.startswith(("  ", "\t"))):
            entries[-1][2].append(text.strip())
        elif text.strip():
            raise SourceError(path, number, "cannot read this line of 'hints:'",
                              f"write {EXAMPLE}; continue a long hint on lines indented by two spaces")
    if not entries:
        raise SourceError(path, fragment.line, f"{whose} hints list is empty", f"write {EXAMPLE} under 'hints:'")
    keys = [key for key, _, _ in entries]
    expected = [str(index + 1) for index in range(len(keys))]
    if keys != expected:
        raise SourceError(path, entries[0][1], f"hints are numbered {', '.join(keys)}",
                          f"number them {', '.join(expected)}: the order the learner opens them in")
    return [Fragment("\n".join(lines).strip(), number) for _, number, lines in entries]


def merged_hints(per_lang: dict[str, list[Fragment] | None], part_lines: dict[str, int], path: str) -> list[Localized]:
    """Hint n in every language; an error where one language gives another number of hints than the first."""
    languages = list(per_lang)
    first = languages[0]
    count = len(per_lang[first] or [])
    for lang in languages[1:]:
        other = len(per_lang[lang] or [])
        if other != count:
            raise SourceError(
                path, part_lines[lang],
                f"the '{lang}' part has {hint_count(other)} but the '{first}' part has {hint_count(count)}",
                "every language gives the same hints, numbered alike, in the same order" if count and other
                else f"add 'hints:' with {count} hints to the '{lang}' part, or remove them from the others" if count
                else f"add 'hints:' with {other} hints to the '{first}' part, or remove them from the '{lang}' part",
            )
    return [{lang: (per_lang[lang] or [])[index] for lang in languages} for index in range(count)]


def hint_count(count: int) -> str:
    return "no hints" if count == 0 else "1 hint" if count == 1 else f"{count} hints"
