"""Ids in a piece of rendered HTML, renamed together with every reference to them: a text shown where its ids would
meet others of the same names gets names of its own, and each link, label, list of ids and CSS url() in it follows.
A module's text in the course's problem book is one (book.Mover), a question with blanks' text shown again with its
answers on its own page another (gaps.answer_copy).

Ids and references are found by one reading of the tags, as the HTML tokenizer reads them, so that an id and its
references are renamed together: a tag it cannot read is left whole, a comment or a script's or style's text as
written.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

# A start tag as the HTML tokenizer reads it: a name, then attributes whose values are in double, single or no
# quotes. Possessive, so a tag left open costs one look, not a search. A comment and the text of a <script> or
# <style> are matched to be passed over: a tag written in them is none.
_NAME = r"[^\s/>=][^\s/>=]*+"
_VALUE = r""""[^"]*+"|'[^']*+'|[^\s>]++"""
_TOKEN = re.compile(r"<!--.*?-->|<(?P<raw>script|style)(?=[\s/>]).*?</(?P=raw)\s*>"
                    rf"|(?P<tag><[a-zA-Z][^\s/>]*+(?:[\s/]*+{_NAME}(?:\s*+=\s*+(?:{_VALUE}))?+)*+[\s/]*+>)",
                    re.DOTALL | re.IGNORECASE)
_TAG_NAME = re.compile(r"<[a-zA-Z][^\s/>]*+")
_ATTRIBUTE = re.compile(rf"(?P<space>[\s/]*+)(?P<name>{_NAME})(?:\s*+=\s*+(?P<value>{_VALUE}))?+")
# The attributes of a rendered piece that hold an address (relative to the page it was rendered on, or to an id
# of it), an id of the page, or the ids it points at (a list: ids hold no space).
_ADDRESSES = {"href", "xlink:href", "src", "usemap"}
_IDS = {"id", "name"}
_ID_REFERENCES = {"for", "headers", "list", "form", "itemref", "popovertarget", "commandfor", "aria-labelledby",
                  "aria-describedby", "aria-controls", "aria-owns", "aria-details", "aria-flowto",
                  "aria-activedescendant", "aria-errormessage"}
# Any other attribute may name an address in CSS's url(): an SVG's fill, stroke, marker, clip-path, mask, filter,
# an element's style. Not those that hold words to read, where "url(#x)" is text.
_TEXT = {"title", "alt", "placeholder", "aria-label", "value", "content"}
_URL = re.compile(r"""url\(\s*+(?:"(?P<double>[^"]*+)"|'(?P<single>[^']*+)'|(?P<bare>[^\s"')]*+))\s*+\)""",
                  re.IGNORECASE)

Rename = Callable[[str], str]


def rename_ids(piece: str, anchor: Rename, address: Rename | None = None) -> str:
    """`piece` with each id (and anchor name) and each reference to one renamed by `anchor`, which returns a name
    it keeps as it is, and each address by `address`: by default an in-page one's id only (`#x`, `in_page`).

    Only the tags that change are written anew, and a piece with none is returned as it is (the same object): a
    book holds a text of megabytes once, not once more for each pass over it (test_build_hostile)."""
    renaming = _Renaming(anchor, address or (lambda found: in_page(found, anchor)))
    parts, written = [], 0
    for match in _TOKEN.finditer(piece):
        renamed = renaming.token(match)
        if renamed != match[0]:
            parts += [piece[written:match.start()], renamed]
            written = match.end()
    return "".join([*parts, piece[written:]]) if parts else piece


def defined_ids(piece: str) -> set[str]:
    """The ids and anchor names that the tags of `piece` give, which `rename_ids` renames as ids."""
    found = set()
    for match in _TOKEN.finditer(piece):
        if (tag := match["tag"]) is not None:
            start = _TAG_NAME.match(tag)
            assert start is not None, "a tag starts with its name"
            found.update(_unquoted(attribute["value"]) for attribute in _ATTRIBUTE.finditer(tag, start.end())
                         if attribute["value"] is not None and attribute["name"].lower() in _IDS)
    return found


def in_page(address: str, anchor: Rename) -> str:
    """An address on its own page (`#x`) with its id renamed; any other, and "#" alone, which names none, as it
    is."""
    return "#" + anchor(address[1:]) if address.startswith("#") and address != "#" else address


def _unquoted(raw: str) -> str:
    """An attribute's value as HTML reads it: without its quotes, its character references resolved."""
    return html.unescape(raw[1:-1] if raw[0] in "\"'" else raw)


@dataclass(frozen=True)
class _Renaming:
    anchor: Rename
    address: Rename

    def token(self, match: re.Match[str]) -> str:
        """A start tag with its attributes renamed; a comment or a script's or style's text as it is."""
        tag = match["tag"]
        if tag is None:
            return match[0]
        name = _TAG_NAME.match(tag)
        assert name is not None, "a tag starts with its name"
        return name[0] + _ATTRIBUTE.sub(self.attribute, tag[name.end():])

    def attribute(self, match: re.Match[str]) -> str:
        """The attribute with its value renamed, written in double quotes; one with nothing to rename as
        written."""
        raw = match["value"]
        if raw is None:
            return match[0]
        value = _unquoted(raw)
        renamed = self.value(match["name"].lower(), value)
        return match[0] if renamed == value else f'{match["space"]}{match["name"]}="{html.escape(renamed)}"'

    def value(self, name: str, value: str) -> str:
        if name in _ADDRESSES:
            return self.address(value)
        if name in _IDS:
            return self.anchor(value)
        if name in _ID_REFERENCES:
            return " ".join(self.anchor(one) for one in value.split())
        if name in _TEXT or name.startswith("data-"):
            return value
        return _URL.sub(self.url, value) if "url(" in value.lower() else value

    def url(self, match: re.Match[str]) -> str:
        """A CSS url() with its address renamed, its quotes and spaces kept."""
        group = next(name for name in ("double", "single", "bare") if match[name] is not None)
        start, end = match.start(group) - match.start(), match.end(group) - match.start()
        return match[0][:start] + self.address(match[group]) + match[0][end:]
