"""Footnotes in the author text of generated pages: each piece of text (a question's text, an explanation, a hint,
a statement, a solution, criteria) keeps its own notes, listed at its end.

Markdown's footnotes extension lists a page's notes after all of its text, where `render.split_pieces` never
looks, and knows one note by a name for the whole page, where each piece is a text of its own (two exercises each
with a note [^1]). Here, while a generated page is converted, each note is also kept under its piece; once the
references are made, each piece's are numbered from 1 and lead to its own notes, put after it, and the page's list
is dropped. Ids are unique over a course (`scope`), so a piece goes into the problem books as it is. A reference in
one piece to a note written in another is a problem (`problems`): the note would be shown with the other text,
which a book, a hidden solution or a variant takes elsewhere.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from markdown import Extension, Markdown
from markdown.blockprocessors import BlockProcessor
from markdown.extensions.footnotes import FootnoteExtension
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from zadachnik.rendering.mathtex import PIECE_MARKER

# A note's and a reference's ids, as Markdown's start (the theme styles `[id^="fnref:"]`).
NOTE_ANCHOR = re.compile(r"fn(?:ref\d*)?:")
NOTES_START = '<div class="footnote">'
_MARKER = re.compile(PIECE_MARKER + r"(\d+)")
_REFERENCE_ID = re.compile(r'<sup id="fnref\d*:[^"]*">')


@dataclass
class StrayReference:
    """A reference in piece `piece` to the note `label`, which that piece does not hold."""

    piece: int
    label: str


class PieceFootnotes(Extension):
    """Each piece's notes at its end. The plugin sets `scope` before each page it generates and reads `problems`
    after it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scope = ""
        self.problems: list[StrayReference] = []

    def extendMarkdown(self, md: Markdown) -> None:
        # What one conversion finds, for the processors of this Markdown (MkDocs makes one per page).
        found = _Found(self)
        md.preprocessors.register(_Start(found, md), "zadachnik-footnotes", 1001)
        # Above the piece marker's own processor (200), which takes the block.
        md.parser.blockprocessors.register(_PieceStart(found, md.parser), "zadachnik-footnotes-piece", 201)
        # After the references (inline, 20) and their repeats (footnote-duplicate, 15).
        md.treeprocessors.register(_NotesAfterPieces(found, md), "zadachnik-footnotes", 14)


@dataclass
class _Found:
    extension: PieceFootnotes
    footnotes: FootnoteExtension | None = None
    # The piece whose blocks are being read; -1 before the first marker (a page of the author's own has none).
    piece: int = -1
    # Each piece's notes in the order written, by (piece, label): the name Markdown keeps the piece's text under.
    notes: dict[tuple[int, str], str] = field(default_factory=dict)

    def start(self, md: Markdown) -> None:
        self.piece = -1
        self.notes = {}
        self.extension.problems = []
        if self.footnotes is None:
            # Extensions listed after this one are registered by now.
            self.footnotes = next((found for found in md.registeredExtensions if isinstance(found, FootnoteExtension)),
                                  None)
            if self.footnotes is not None:
                self.footnotes.setFootnote = self.keeping(self.footnotes.setFootnote)

    def keeping(self, set_footnote: Callable[[str, str], None]) -> Callable[[str, str], None]:
        """Markdown's setFootnote that also keeps the note under its piece, for the piece's list."""

        def set_and_keep(label: str, text: str) -> None:
            set_footnote(label, text)
            if self.piece >= 0:
                kept = self.notes.setdefault((self.piece, label), f"\x1f{self.piece}\x1f{label}")
                set_footnote(kept, text)

        return set_and_keep


class _Start(Preprocessor):
    def __init__(self, found: _Found, md: Markdown):
        super().__init__(md)
        self.found = found

    def run(self, lines: list[str]) -> list[str]:
        self.found.start(self.md)
        return lines


class _PieceStart(BlockProcessor):
    """Notes the piece a marker starts; the marker's block is left to the processors below."""

    def __init__(self, found: _Found, parser: Any) -> None:
        super().__init__(parser)
        self.found = found

    def test(self, parent: etree.Element, block: str) -> bool:
        if block.startswith(PIECE_MARKER) and parent is self.parser.root and (marker := _MARKER.fullmatch(block)):
            self.found.piece = int(marker[1])
        return False

    def run(self, parent: etree.Element, blocks: list[str]) -> bool:
        return False


class _NotesAfterPieces(Treeprocessor):
    def __init__(self, found: _Found, md: Markdown):
        super().__init__(md)
        self.found = found

    def run(self, root: etree.Element) -> None:
        footnotes = self.found.footnotes
        if footnotes is None or self.found.piece < 0 or not footnotes.footnotes:
            return
        page_list = take_page_list(root)
        if page_list is None:
            return
        notes = {item.get("id"): item for item in page_list.find("ol")}
        labels = {"#" + footnotes.makeFootnoteId(label): label for label in footnotes.footnotes}
        # From the last piece back, so that a list put after a piece moves none before it.
        for piece, start, end in reversed(piece_bounds(root)):
            kept = {label: notes[footnotes.makeFootnoteId(name)]
                    for (number, label), name in self.found.notes.items() if number == piece}
            listed = PieceNotes(footnotes, f"{self.found.extension.scope}{piece}-", kept)
            elements = root[start:end]
            if kept:
                root.insert(end, listed.element)
                elements.append(listed.element)
            for reference in references(elements):
                label = labels.get(reference.find("a").get("href"))
                if label in kept:
                    listed.refer(reference, label)
                elif label is not None:
                    self.found.extension.problems.append(StrayReference(piece, label))
            listed.finish()
        self.found.extension.problems.sort(key=lambda stray: stray.piece)


def take_page_list(root: etree.Element) -> etree.Element | None:
    """Markdown's list of the page's notes, taken out of the page."""
    for parent in root.iter():
        for child in parent:
            if child.tag == "div" and child.get("class") == "footnote":
                parent.remove(child)
                return child
    return None


def piece_bounds(root: etree.Element) -> list[tuple[int, int, int]]:
    """Each piece's number and the range of the page's top elements it holds, after its marker."""
    markers = [(index, int(found[1])) for index, child in enumerate(root)
               if child.tag == "p" and len(child) == 0 and child.text and (found := _MARKER.fullmatch(child.text))]
    ends = [index for index, _ in markers[1:]] + [len(root)]
    return [(number, index + 1, end) for (index, number), end in zip(markers, ends, strict=True)]


def references(elements: list[etree.Element]) -> list[etree.Element]:
    """The references to notes (`<sup><a class="footnote-ref">`) in `elements`, in the order of the text."""
    return [sup for element in elements for sup in element.iter("sup")
            if (link := sup.find("a")) is not None and link.get("class") == "footnote-ref"]


class PieceNotes:
    """One piece's list of notes (`element`), and its references, numbered from 1 as the site's extension numbers
    a page's: in the notes' order, or in the references' (USE_DEFINITION_ORDER: false)."""

    def __init__(self, footnotes: FootnoteExtension, prefix: str, notes: dict[str, etree.Element]):
        self.footnotes = footnotes
        # What this piece's ids have after 'fn:' or 'fnref:', before a note's label.
        self.prefix = prefix
        self.notes = notes
        self.references: list[tuple[etree.Element, str]] = []
        self.element = etree.Element("div", {"class": "footnote"})
        etree.SubElement(self.element, "hr")
        items = etree.SubElement(self.element, "ol")
        for label, note in notes.items():
            note.set("id", f"fn:{prefix}{label}")
            items.append(note)

    def refer(self, reference: etree.Element, label: str) -> None:
        self.references.append((reference, label))

    def finish(self) -> None:
        """Each reference's id, link and number (a second reference to a note gets fnref2:…), and each note's
        links back to its references."""
        ids: dict[str, list[str]] = {}
        for reference, label in self.references:
            taken = ids.setdefault(label, [])
            taken.append(f"fnref{len(taken) + 1 if taken else ''}:{self.prefix}{label}")
            reference.set("id", taken[-1])
            reference.find("a").set("href", f"#fn:{self.prefix}{label}")
        numbers = self.numbers(list(ids))
        for reference, label in self.references:
            reference.find("a").text = self.footnotes.getConfig("SUPERSCRIPT_TEXT").format(numbers[label])
        for label, note in self.notes.items():
            self.link_back(note, ids.get(label, []), numbers[label])
        self.list_by_number(numbers)

    def list_by_number(self, numbers: dict[str, int]) -> None:
        """The list in the order of its numbers: an <ol> shows item n as "n.", which superscript n leads to.
        Listed in the order written until now, as the references in the notes are searched for there."""
        self.element.find("ol")[:] = [self.notes[label] for label in sorted(self.notes, key=numbers.__getitem__)]

    def numbers(self, referred: list[str]) -> dict[str, int]:
        if self.footnotes.getConfig("USE_DEFINITION_ORDER"):
            order = list(self.notes)
        else:
            order = [*referred, *(label for label in self.notes if label not in referred)]
        return {label: number for number, label in enumerate(order, start=1)}

    def link_back(self, note: etree.Element, reference_ids: list[str], number: int) -> None:
        """The note's links back to its references, made as Markdown makes them: none for a note no reference
        leads to (Markdown's would lead nowhere)."""
        backs = [(parent, link) for parent in note.iter() for link in parent
                 if link.tag == "a" and link.get("class") == "footnote-backref"]
        if not backs:
            return
        holder, model = backs[0]
        for parent, link in backs:
            parent.remove(link)
        for reference_id in reference_ids:
            back = copy.deepcopy(model)
            back.set("href", f"#{reference_id}")
            back.set("title", self.footnotes.getConfig("BACKLINK_TITLE").format(number))
            holder.append(back)


def without_notes(piece: str) -> str:
    """A piece shown a second time on its page (gaps.answer_copy): its references still lead to the notes of its
    first showing, but it lists none, and its references have no ids, which the notes' links back name in the first
    showing."""
    start = piece.find(NOTES_START)
    if start < 0:
        return piece
    return _REFERENCE_ID.sub("<sup>", piece[:start].rstrip())


def has_notes(piece: str) -> bool:
    return NOTES_START in piece
