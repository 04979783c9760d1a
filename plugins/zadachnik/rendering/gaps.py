"""A question with blanks: its text's gap elements (reading/gaps.py) made into the gap's field on the page, a line
to write on in a problem book, or the right answer in bold where the answer is revealed. Gaps are numbered in
the order the language's text has them, which a screen reader's label and the tolerance notes both follow.

A number gap's revealed answer is marked "≈" when it is a rounding, unless the author's text already says so
right before the gap (`$\rho\approx$ [[gap:rho]]`, `ρ ≈ [[gap:rho]]`): the sign is read once."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from html import escape

from zadachnik.qtypes.blanks import ChoiceGap, Gap
from zadachnik.reading.gaps import GAP_ELEMENT
from zadachnik.reading.model import Question
from zadachnik.rendering.footnotes import without_notes
from zadachnik.rendering.ids import defined_ids, rename_ids

LINE = "display:inline-block;min-width:6em;border-bottom:1px solid"
# How a rounded answer starts (rendering/render.py, field_answer).
ROUNDED = "≈ "
# What a text shown a second time on its page starts the ids it gives with (answer_copy): one start for every
# such text, since the ids of the first showings are the page's, each once, and none starts so. Headings' and
# tabs' slugs hold no ':' (Markdown's and pymdownx's slugify drop it), Markdown's footnotes' ids start with 'fn',
# pymdownx's tabs' and code lines' with '__', the templates' with a letter and '-', a book's text's with its
# page's name. Only an author's own id written with this very start could meet one.
ANSWER_IDS = "answer:"
# An approximation sign ending the HTML before a gap: in the text, or as the last symbol of a formula KaTeX drew
# (its spacing, closing tags and the page's marker of a formula's end after it), then spaces, a line break, or the
# opening of emphasis around the gap (≈ **[[gap:x]]**).
_APPROX_BEFORE = re.compile(r"(?:≈|&asymp;|&#8776;|&#x2248;)"
                            r"(?:\s|&nbsp;|&#160;|</\w+>|<span\b[^>]*></span>|<!--[^>]*-->|<br\s*/?>"
                            r"|<(?:strong|em|b|i|u|mark|span)\b[^>]*>)*\Z", re.IGNORECASE)
# How far back the sign may stand: a formula's closing tags and spacing take far less.
_APPROX_REACH = 400


def gap_order(question: Question, piece: str) -> list[Gap]:
    """The question's gaps in the order this text has them."""
    by_id = {gap.id: gap for gap in question.auto_key.gaps}
    return [by_id[found] for found in GAP_ELEMENT.findall(piece) if found in by_id]


def fill_gaps(question: Question, piece: str, lang: str, mode: str, words: Mapping[str, str],
              answer_of: Callable[[Gap], str], unit_of: Callable[[Gap], str]) -> str:
    """`mode`: "page" (a field or a list to choose from), "paper" (a line, and the words to choose from) or
    "answer" (the right answer in bold)."""
    numbers = {gap.id: index for index, gap in enumerate(gap_order(question, piece), start=1)}
    by_id = {gap.id: gap for gap in question.auto_key.gaps}

    def filled(match) -> str:
        gap = by_id.get(match[1])
        if gap is None:
            return match[0]
        unit = unit_of(gap)
        after = f" {escape(unit)}" if unit else ""
        if mode == "answer":
            answer = answer_of(gap)
            if answer.startswith(ROUNDED) and follows_approx_sign(piece, match.start()):
                answer = answer.removeprefix(ROUNDED)
            return f'<strong class="zq-gap-answer">{escape(answer)}</strong>{after}'
        if mode == "paper":
            choices = ""
            if isinstance(gap, ChoiceGap):
                choices = f' <span class="zq-gap-words">({escape(" / ".join(gap.options[lang]))})</span>'
            return f'<span class="zq-book__line" style="{LINE}"></span>{after}{choices}'
        label = escape(words["gap_label"].format(number=numbers[gap.id]))
        control_id = f"zq-{escape(question.id)}-{escape(gap.id)}"
        if isinstance(gap, ChoiceGap):
            options = "".join(f'<option value="{index}">{escape(word)}</option>'
                              for index, word in enumerate(gap.options[lang], start=1))
            control = (f'<select id="{control_id}" data-zq-input="{escape(gap.id)}" aria-label="{label}">'
                       f'<option value="">{escape(words["matching_choose"])}</option>{options}</select>')
        else:
            # Numbers are written left to right, on a right-to-left page too ("-2.5", not "2.5-").
            control = (f'<input id="{control_id}" type="text" dir="ltr" inputmode="decimal" autocomplete="off" '
                       f'spellcheck="false" size="8" data-zq-input="{escape(gap.id)}" aria-label="{label}" '
                       f'aria-describedby="{control_id}-note">')
        return (f'<span class="zq-gap" data-zq-field="{escape(gap.id)}">{control}{after}'
                f'<span class="zq-mark" data-zq-mark></span></span>')

    return GAP_ELEMENT.sub(filled, piece)


def answer_copy(piece: str) -> str:
    """A question's text as its revealed answer shows it again, after the page or the book showed it first: its
    references lead to the first showing's notes, which it does not list again (footnotes.without_notes), and
    every id it gives is its own, with the links, labels and radio groups in it that name one (the page had each
    id twice, and a content tab's label in the answer switched the question's tab). What it names and does not
    hold, as a note of the first showing, is left as written."""
    shown = without_notes(piece)
    own = defined_ids(shown)
    if not own:
        return shown
    return rename_ids(shown, lambda anchor: ANSWER_IDS + anchor if anchor in own else anchor)


def follows_approx_sign(piece: str, at: int) -> bool:
    """Whether the text up to `at` ends with an approximation sign the author wrote."""
    return _APPROX_BEFORE.search(piece, max(0, at - _APPROX_REACH), at) is not None
