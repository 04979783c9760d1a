"""Source stage: split an author's file into blocks, keeping the line of everything.

A file is a sequence of blocks in the style of pymdown-extensions' blocks:

    /// question | P05          opener: kind and id
    type: numeric               YAML: the language-neutral part
    //// ru | Title             one sub-block per language
    Markdown…
    ////
    ///

A monolingual source may leave the language parts out: the title follows the id (`/// question | P05 | Title`)
and the text follows the YAML, after a blank line (`split_yaml_and_text`).

Nothing here knows what a question is; `model` gives the blocks their meaning.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from zadachnik.core.errors import SourceError

_OPEN = re.compile(r"^///\s+(?P<kind>[^\s|]+)\s*(?:\|\s*(?P<arg>[^|]*?)\s*(?:\|\s*(?P<title>.*?))?)?\s*$")
_CLOSE = re.compile(r"^///\s*$")
_LANG_OPEN = re.compile(r"^////\s*(?P<lang>[A-Za-z][^\s|]*)\s*(?:\|\s*(?P<title>.*?))?\s*$")
_LANG_CLOSE = re.compile(r"^////\s*$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
BYTE_ORDER_MARK = "\ufeff"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BYTE_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
# UTF-32's marks first: UTF-32 LE's starts with UTF-16 LE's.
_WIDE_MARKS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
               (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))
SAVE_AS_UTF8 = "in the editor's 'Save as', choose the encoding UTF-8; Notepad calls UTF-16 'Unicode'"
# A line that starts a YAML key at the margin: `type: single`, `fields:`.
YAML_KEY = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)\s*:(?:\s|$)")


@dataclass
class Line:
    number: int
    text: str


@dataclass
class LangBlock:
    lang: str
    title: str
    line: int
    lines: list[Line] = field(default_factory=list)
    # False: a monolingual block's text, written without a '//// lang | Title' part around it.
    wrapped: bool = True


@dataclass
class Block:
    kind: str
    arg: str
    line: int
    # The title after the id on the opener line (`/// question | Q1 | Title`): a block without language parts.
    title: str = ""
    yaml_lines: list[Line] = field(default_factory=list)
    langs: list[LangBlock] = field(default_factory=list)

    @property
    def yaml_text(self) -> str:
        return "\n".join(line.text for line in self.yaml_lines)

    @property
    def yaml_first_line(self) -> int:
        return self.yaml_lines[0].number if self.yaml_lines else self.line + 1


def read_source(path: Path, shown: str) -> str:
    """An author's file as text, its lines ending in '\n'. Editors on Windows save UTF-16 (Notepad's "Unicode"),
    cp1251 or latin-1: a SourceError at the line of the first byte that is not UTF-8, rather than a
    UnicodeDecodeError's traceback."""
    data = path.read_bytes()
    for mark, name in _WIDE_MARKS:
        if data.startswith(mark):
            raise SourceError(shown, 1, f"the file is not UTF-8 (it starts with a {name} byte order mark): save it "
                              "as UTF-8", SAVE_AS_UTF8)
    # Some tools export UTF-16 without the mark: every character of the Latin range brings a zero byte, which
    # no text in UTF-8 holds (one stray zero is a control character, named at its line further on).
    if data.count(0) * 10 >= len(data) > 0:
        raise SourceError(shown, 1, "the file is not UTF-8 (it looks like UTF-16 or UTF-32, saved without a byte "
                          "order mark): save it as UTF-8", SAVE_AS_UTF8)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[:error.start]
        line_start = max((match.end() for match in _BYTE_LINE_BREAK.finditer(before)), default=0)
        column = len(before[line_start:].decode("utf-8")) + 1
        line = len(_BYTE_LINE_BREAK.findall(before)) + 1
        raise SourceError(shown, line, f"the file is not UTF-8 (byte 0x{data[error.start]:02x} in column {column}): "
                          "save it as UTF-8", SAVE_AS_UTF8) from None
    # Old Mac editors end lines with '\r' alone: every reader below counts lines by '\n', as editors number them.
    return text.replace("\r\n", "\n").replace("\r", "\n")


def split_blocks(text: str, path: str) -> list[Block]:
    """Blocks of a source file; SourceError on the first structural problem."""
    # Editors on Windows start files with a byte order mark: accepted at the start, as MkDocs does for pages;
    # one further on (two files pasted together) would hide, invisible, in a block marker or a text.
    text = text.removeprefix(BYTE_ORDER_MARK)
    inside = text.find(BYTE_ORDER_MARK)
    if inside >= 0:
        raise SourceError(
            path, text.count("\n", 0, inside) + 1,
            "an invisible byte order mark (U+FEFF) inside the file (two files pasted together?)",
            "delete it: most editors show it only with invisible characters on; one at the very start is fine",
        )
    blocks: list[Block] = []
    block: Block | None = None
    lang: LangBlock | None = None
    fence: str | None = None
    fence_line = 0
    # Authors may leave HTML comments between blocks, on one line or several: the line of the one open, or 0.
    comment = 0
    for number, raw in enumerate(lines_of(text), start=1):
        line = raw.rstrip()
        # Every block marker starts so: the other lines, nearly all of a file, skip the markers' patterns.
        marker = line.startswith("///")
        if lang is not None:
            if fence is None:
                fence_line = number
            fence = track_fence(line, fence)
            if fence is None and marker and _LANG_CLOSE.match(line):
                lang = None
                continue
            if fence is None and marker and (_LANG_OPEN.match(line) or _CLOSE.match(line) or _OPEN.match(line)):
                raise SourceError(
                    path,
                    lang.line,
                    f"the '{lang.lang}' part opened here is not closed",
                    "end it with a line '////' before the next language or the end of the block",
                )
            lang.lines.append(Line(number, raw))
            continue
        if block is not None:
            if not block.langs:
                # A block without language parts has its text here: a '///' line in its code is code, as in a part.
                if fence is None:
                    fence_line = number
                fence = track_fence(line, fence)
                if fence is not None:
                    block.yaml_lines.append(Line(number, raw))
                    continue
            if marker and _CLOSE.match(line):
                blocks.append(block)
                block = None
                continue
            match = _LANG_OPEN.match(line) if marker else None
            if match:
                lang = LangBlock(match["lang"], (match["title"] or "").strip(), number)
                block.langs.append(lang)
                fence = None
                continue
            if marker and _OPEN.match(line):
                raise SourceError(
                    path, block.line, f"block '{block.arg or block.kind}' opened here is not closed",
                    "end it with a line '///'",
                )
            if block.langs:
                if line.strip():
                    raise SourceError(
                        path, number, "text between language parts",
                        f"put it inside a '//// {block.langs[-1].lang}' … '////' part, or move YAML keys above "
                        "the first language",
                    )
                continue
            block.yaml_lines.append(Line(number, raw))
            continue
        if comment or line.lstrip().startswith("<!--"):
            comment = (comment or number) if "-->" not in line else 0
            continue
        match = _OPEN.match(line)
        if match:
            block = Block(match["kind"], (match["arg"] or "").strip(), number, (match["title"] or "").strip())
            continue
        if line.strip():
            raise SourceError(
                path, number, "text outside a block",
                "start a block with '/// question | ID' (or section, exercise) and end it with '///'",
            )
    if comment:
        raise SourceError(path, comment, "an HTML comment opened here is not closed",
                          "end it with '-->': until then it hides every block after it")
    if (lang is not None or block is not None) and fence is not None:
        # It swallowed the part's '////' (or the block's '///') and everything after it.
        raise SourceError(path, fence_line, "the code fence opened here is not closed",
                          f"end the code with a line '{fence}'")
    if lang is not None:
        raise SourceError(path, lang.line, f"the '{lang.lang}' part opened here is not closed", "end it with '////'")
    if block is not None:
        raise SourceError(
            path, block.line, f"block '{block.arg or block.kind}' opened here is not closed", "end it with '///'"
        )
    return blocks


def lines_of(text: str) -> list[str]:
    """The lines as editors number them. str.splitlines also breaks at U+2028, U+0085 and the like (pasted from
    the web), which editors show inside a line: every later line number would be off."""
    lines = _LINE_BREAK.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def track_fence(line: str, fence: str | None) -> str | None:
    """The open code fence after this line, so block markers inside code are left alone."""
    if "```" not in line and "~~~" not in line:
        return fence
    match = _FENCE.match(line)
    if not match:
        return fence
    marker = match.group(1)
    if fence is None:
        return marker
    if marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip()[len(marker):].strip():
        return None
    return fence


def split_yaml_and_text(lines: list[Line], yaml_keys: Collection[str] | None) -> tuple[list[Line], list[Line]]:
    """A block without language parts: its YAML lines, then its text. The YAML ends at the first blank line that
    a line at the margin follows: a blank line inside an indented value (code under `solution: |`) does not end
    it. A block whose first line is not one of `yaml_keys` (None: any key) has no YAML, only text."""
    start = next((index for index, line in enumerate(lines) if line.text.strip()), len(lines))
    first = YAML_KEY.match(lines[start].text) if start < len(lines) else None
    if first is None or (yaml_keys is not None and first["key"] not in yaml_keys):
        return [], lines[start:]
    for index in range(start, len(lines)):
        if lines[index].text.strip():
            continue
        following = next((line for line in lines[index + 1:] if line.text.strip()), None)
        if following is None:
            return lines[:index], []
        if not following.text[:1].isspace():
            return lines[:index], lines[index + 1:]
    return lines, []
