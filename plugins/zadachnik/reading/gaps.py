"""Where a question with blanks has its gaps: `[[gap:name]]` in each language's text, each gap once, becomes an
empty element the page fills with the gap's field (rendering/gaps.py), so Markdown never sees a control."""

from __future__ import annotations

import html
import re
from typing import Any

from zadachnik.core.errors import SourceError
from zadachnik.reading.shuffle import NOT_PROSE

_GAP = re.compile(NOT_PROSE + r"|\[\[\s*gap\s*:\s*(?P<gap>[^\[\]\n]*?)\s*\]\]", re.MULTILINE | re.DOTALL)
EXAMPLE = "[[gap:ratio]]"


def gap_element(gap_id: str) -> str:
    return f'<span class="zq-gap" data-zq-gap="{html.escape(gap_id)}"></span>'


GAP_ELEMENT = re.compile(r'<span class="zq-gap" data-zq-gap="([^"]*)"></span>')


def place_gaps(question: Any, path: str) -> list[SourceError]:
    """Each language's body of a question with blanks holds each of its gaps once, and nothing else does: the
    markers become the elements the page fills; every slip is an error at its line."""
    gap_ids = [gap.id for gap in question.key.gaps] if question.type == "blanks" else []
    errors: list[SourceError] = []
    for lang, fragment in question.body.items():
        seen: list[str] = []
        slips: list[str] = []

        def replace(match: re.Match[str], fragment=fragment, seen=seen, slips=slips, lang=lang) -> str:
            gap = match["gap"]
            if gap is None:
                return match[0]
            line = fragment.line + fragment.markdown.count("\n", 0, match.start())
            if not gap_ids:
                errors.append(SourceError(path, line, f"{match[0]} stands in a question of type '{question.type}'",
                                          "only 'type: blanks' has gaps: write the question as one"))
            elif gap not in gap_ids:
                errors.append(SourceError(path, line, f"{match[0]} names no gap of this question",
                                          f"its gaps are {', '.join(gap_ids)}"))
            elif gap in seen:
                errors.append(SourceError(path, line, f"{match[0]} stands twice in the '{lang}' text",
                                          "each gap stands once: give the second place a gap of its own"))
            else:
                seen.append(gap)
                return gap_element(gap)
            slips.append(gap)
            # Its name alone: no later pass (references) reports the same slip again.
            return html.escape(gap)

        if "[[" in fragment.markdown:
            fragment.markdown = _GAP.sub(replace, fragment.markdown)
        missing = [gap for gap in gap_ids if gap not in seen]
        # A gap misnamed or repeated is the slip already reported, not a gap left out as well.
        if missing and not slips:
            errors.append(SourceError(path, fragment.line, f"the '{lang}' text of question {question.id} has no "
                                      f"place for the gap {', '.join(missing)}",
                                      f"put [[gap:{missing[0]}]] where it stands in the text"))
    return errors
