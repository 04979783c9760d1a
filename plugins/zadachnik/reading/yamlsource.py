"""YAML with line numbers: authors' YAML errors and unknown keys are reported at their own line."""

from __future__ import annotations

import re
from typing import Any

import yaml

from zadachnik.core.arith import comma_advice
from zadachnik.core.errors import STRAIGHT_QUOTES, TYPOGRAPHIC_QUOTES, a_described

KeyPath = tuple[str, ...]


class YamlProblem(ValueError):
    def __init__(self, message: str, line_offset: int):
        super().__init__(message)
        self.line_offset = line_offset


_FastLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Loader(_FastLoader):  # type: ignore[misc,valid-type]
    """libyaml when PyYAML was built with it (parsing every block's YAML was a tenth of a build), with YAML 1.2's
    booleans: only true and false. YAML 1.1 also reads yes/no/on/off as booleans, so a title such as `No` or
    `On` came out as "False" or "True"."""


Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in _FastLoader.yaml_implicit_resolvers.items()
}
Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


# A line of spaces and tabs alone: editors that keep indentation leave them. It carries no YAML, but PyYAML takes
# its tab for indentation.
_BLANK_LINE = re.compile(r"^[ \t]+$", re.MULTILINE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
BYTE_ORDER_MARK = "\ufeff"
_UNUSUAL_BREAK = re.compile("[\x85\u2028\u2029]")
# Deeper than any course source needs, and far below what overflows Python's stack while constructing values.
MAX_DEPTH = 50
# More than any float holds (1.8e308); past 4,300 Python refuses to read the int at all.
MAX_INTEGER_DIGITS = 310
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
# YAML 1.1 reads digits joined by colons as a number in base 60 (a time: 1:30 is 90) and a leading zero as octal
# (010 is 8): never what a course source means, and the value changes without a word.
_OCTAL = re.compile(r"[-+]?0[0-7_]+")


def load_with_lines(text: str) -> tuple[Any, dict[KeyPath, int]]:
    """The YAML's value and, for each key path, its 0-based line within `text`."""
    # Editors on Windows start files with a byte order mark: accepted at the start, as MkDocs does for pages.
    text = _BLANK_LINE.sub("", text.removeprefix(BYTE_ORDER_MARK))
    check_byte_order_marks(text)
    separator = _UNUSUAL_BREAK.search(text)
    if separator:
        raise YamlProblem(
            f"an invisible line separator (U+{ord(separator.group()):04X}, a paste from the web?): delete it "
            "(YAML takes it for a new line, editors don't)", text.count("\n", 0, separator.start()),
        )
    control = _CONTROL.search(text)
    if control:
        raise YamlProblem(
            f"YAML cannot contain the control character {control.group()!r}: delete it (a paste from elsewhere?)",
            text.count("\n", 0, control.start()),
        )
    try:
        # Only a text with '&' or '*' can hold an anchor or an alias: the others skip the second parse.
        if "&" in text or "*" in text:
            refuse_anchors(text)
        loader = Loader(text)
        try:
            node = loader.get_single_node()
            if node is not None:
                check_depth(node)
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "invalid YAML"
        line = mark.line if mark else 0
        typed = typed_slip_near(text, line)
        if typed is not None:
            raise YamlProblem(typed[1], typed[0]) from None
        hint = syntax_hint(problem, character_at(text, line, mark.column if mark else 0))
        raise YamlProblem(f"YAML syntax error: {problem}" + (f": {hint}" if hint else ""), line) from None
    except yaml.reader.ReaderError as error:
        line = text.count("\n", 0, error.position)
        raise YamlProblem(
            f"YAML cannot contain the control character {error.character!r}: delete it (a paste from elsewhere?)",
            line,
        ) from None
    lines: dict[KeyPath, int] = {}
    if node is not None:
        _walk(node, (), lines, text)
    return data, lines


# PyYAML names what it met, not what the author should write: what to write, by the words of its message.
SYNTAX_HINTS = (
    ("mapping values are not allowed", "a ': ' inside a text makes YAML begin a new key there; put the whole text "
     "in quotes, e.g. 'title: \"Método: Newton\"' (or this line is indented deeper than the key above it)"),
    ("found unexpected end of stream", "a quote or bracket opened here is never closed; close it, or write a text "
     "of several lines after '|'"),
    ("expected ',' or '}'", "inside {…} write 'key: value' pairs separated by ', ' and end with '}'; a value "
     "holding a comma or ': ' goes in quotes"),
    ("expected ',' or ']'", "inside […] separate the items by ', ' and end with ']'; an item holding a comma goes "
     "in quotes"),
    ("tab character", "YAML indents with spaces only: replace the tab by spaces"),
    ("expected '-' indicator", "the items of a list each begin with '- ' in the same column"),
    ("did not find expected key", "the keys of one mapping begin in the same column; and a text that goes on "
     "after a closing quote goes in quotes as a whole"),
)
CHARACTER_HINTS = {
    "\t": "YAML indents with spaces only: replace the tab by spaces",
    "@": "a value that begins with '@' goes in quotes",
    "`": "a value that begins with '`' goes in quotes",
    "%": "a value that begins with '%' goes in quotes",
}


def syntax_hint(problem: str, character: str) -> str:
    if "cannot start any token" in problem:
        return CHARACTER_HINTS.get(character, "a value that begins with this character goes in quotes")
    return next((hint for words, hint in SYNTAX_HINTS if words in problem), "")


# What Word, Google Docs and Russian typography type where YAML, or a list of the text, needs its own character:
# no-break and other wide spaces, a full-width colon, a dash or bullet for '-', quotes that curl. PyYAML then
# misreads the line and names the one below it, or says to add the quotes the author wrote.
_ODD_SPACE = "[\u00a0\u2007\u202f\u3000]"
_KEY = r"[^\s:#'\"{}\[\],\uff1a-][^:\uff1a]*?"
_SPACE_SLIPS = (
    (re.compile(rf"^ *(?P<char>{_ODD_SPACE})"), "in the indentation", "YAML indents with ordinary spaces"),
    (re.compile(rf"^\s*(?P<after>-)(?P<char>{_ODD_SPACE})"), "", "YAML needs an ordinary space there"),
    (re.compile(rf"^\s*(?:-\s+)?(?P<after>{_KEY}:)(?P<char>{_ODD_SPACE})"), "", "YAML needs an ordinary space there"),
)
_WIDE_COLON = re.compile(rf"^\s*(?:-\s+)?(?P<after>{_KEY})\s*(?P<char>\uff1a)")
_DASH = re.compile(r"^\s*(?P<char>[\u2013\u2014\u2022])\s")
_CURLY_QUOTE = re.compile(rf"^\s*(?:-\s+)?(?:{_KEY}:\s+)?(?P<char>[{TYPOGRAPHIC_QUOTES}])")


def typed_slip(line: str) -> str | None:
    """What an editor typed on this line where YAML or a list needs its own character, said in words, or None."""
    for pattern, where, needs in _SPACE_SLIPS:
        match = pattern.match(line)
        if match:
            place = where or f"after '{match['after']}'"
            return (f"{a_described(match['char'])} {place}: {needs}; retype it (Word and Google Docs type no-break "
                    "spaces, which look the same)")
    match = _WIDE_COLON.match(line)
    if match:
        return (f"{a_described(match['char'])} after '{match['after'].strip()}': YAML needs ':'; type it on a Latin "
                "keyboard layout")
    return dash_slip(line)


def dash_slip(line: str) -> str | None:
    """A dash or bullet where an entry of a YAML list, or of a text's `fields:`, begins with '-'; or None."""
    match = _DASH.match(line)
    if match is None:
        return None
    return (f"the line begins with {a_described(match['char'])}, where a list entry begins with '-': type '-' "
            "(Word turns a '-' at the start of a line into a dash or a bullet)")


def typed_slip_near(text: str, line: int) -> tuple[int, str] | None:
    """A slip typed on a YAML error's line, or on the line above it, which PyYAML often names instead: its 0-based
    line and what to write. Curly quotes count on the error's own line only: a title in «…» above is fine."""
    lines = text.split("\n")
    for number in (line - 1, line):
        slip = typed_slip(lines[number]) if 0 <= number < len(lines) else None
        if slip is not None:
            return number, slip
    quote = _CURLY_QUOTE.match(lines[line]) if 0 <= line < len(lines) else None
    if quote is not None:
        return line, f"'{quote['char']}' is a typographic quote (Word and Google Docs type them): {STRAIGHT_QUOTES}"
    return None


def character_at(text: str, line: int, column: int) -> str:
    lines = text.split("\n")
    return lines[line][column:column + 1] if 0 <= line < len(lines) else ""


# In double quotes YAML reads a backslash and the next character as an escape: "\\frac" is a form feed and "rac".
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_YAML_LETTER_ESCAPES = set("abefnrtv0")


def check_scalar(node: yaml.ScalarNode, text: str) -> None:
    """Refuse TeX in double quotes, where YAML takes `\\frac`, `\\beta` or `\\nu` for escapes. Only a text with a
    formula ($) holds TeX: elsewhere "one\\ntwo" means the new line it says."""
    if node.style != '"':
        return
    raw = text[node.start_mark.index:node.end_mark.index]
    if "\\" not in raw or "$" not in raw:
        return
    for escape in _ESCAPE.finditer(raw):
        command = re.match(r"[A-Za-z]+", raw[escape.start(1):])
        if escape.group(1) in _YAML_LETTER_ESCAPES and command and len(command.group()) > 1:
            raise YamlProblem(
                f"in double quotes YAML reads the '\\{escape.group(1)}' of '\\{command.group()}' as an escape, "
                "not as TeX: put the text in single quotes instead ('…'), or write each backslash twice",
                node.start_mark.line,
            )


def check_number_form(node: yaml.ScalarNode) -> None:
    """Refuse a plain number YAML 1.1 reads in base 60 or 8 (see _OCTAL), saying what it became."""
    if node.style or node.tag not in (_INT_TAG, _FLOAT_TAG):
        return
    written = node.value
    if ":" in written:
        became = yaml.load(written, Loader=Loader)
        meant = f'"{written.replace(":", "/")}"' if written.replace(":", "").isdigit() else f'"{written}"'
        advice = f"write the number you mean, or put a ratio or a text in quotes, e.g. {meant}"
    elif _OCTAL.fullmatch(written):
        became = yaml.load(written, Loader=Loader)
        digits = written.lstrip("+-").lstrip("0_") or "0"
        advice = f"write {written[0] if written[0] in '+-' else ''}{digits}, or put it in quotes if it is a text"
    else:
        return
    raise YamlProblem(f"'{written}' reads in YAML as {became:g} (a number in base {60 if ':' in written else 8}): "
                      f"{advice}", node.start_mark.line)


# A value and the keys after it that a comma in a number split in a flow mapping ("1,000,000", "45/2,5").
_SPLIT_NUMBER = re.compile(r"[^\s,{}\[\]]*\d(?:,\d[^\s,{}\[\]:]*)+")


def check_decimal_comma(previous: yaml.Node, key: yaml.Node, value: yaml.Node, text: str) -> None:
    """`{answer: 4,75}` reads as `answer: 4` and a key `75` without a value (`45/2,5` as `45/2` and `5`,
    `1,000.5` as `1` and `000.5`)."""
    if (
        isinstance(previous, yaml.ScalarNode) and not previous.style and previous.value[-1:].isdigit()
        and isinstance(key, yaml.ScalarNode) and not key.style and key.value[:1].isdigit()
        and isinstance(value, yaml.ScalarNode) and value.tag == "tag:yaml.org,2002:null" and not value.value
        and text[previous.end_mark.index:key.start_mark.index] == ","
    ):
        split = _SPLIT_NUMBER.match(text, previous.start_mark.index)
        written = split.group() if split else f"{previous.value},{key.value}"
        entries = (f"two entries, '{previous.value}' and a key '{key.value}'" if written.count(",") == 1
                   else f"{written.count(',') + 1} entries, '{previous.value}' and keys without values")
        _, rule, write = comma_advice(written)
        raise YamlProblem(f"'{written}' reads in YAML as {entries}: {rule}, {write}", key.start_mark.line)


def check_byte_order_marks(text: str) -> None:
    """A byte order mark inside the text (two files pasted together) would end up, invisible, in a value."""
    inside = text.find(BYTE_ORDER_MARK)
    if inside >= 0:
        raise YamlProblem(
            "an invisible byte order mark (U+FEFF) inside the file (two files pasted together?): delete it",
            text.count("\n", 0, inside),
        )


def refuse_anchors(text: str) -> None:
    """Anchors (&name) and aliases (*name) let a few hundred bytes stand for billions of values, which every
    later pass would follow; no course source needs them."""
    for event in yaml.parse(text, Loader=Loader):
        if isinstance(event, yaml.AliasEvent):
            raise YamlProblem(
                f"YAML aliases (*{event.anchor}) are not allowed in course sources: write the value out in full "
                "where it is needed", event.start_mark.line,
            )
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise YamlProblem(
                f"YAML anchors (&{anchor}) are not allowed in course sources: remove it and write the value out "
                "in full where it is needed", event.start_mark.line,
            )


def check_depth(root: yaml.Node) -> None:
    """Refuse values nested deeper than MAX_DEPTH, without recursing (so a deep one can't overflow the stack),
    and whole numbers too long to read."""
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise YamlProblem(
                f"values nested more than {MAX_DEPTH} levels deep: write them flatter", node.start_mark.line
            )
        if node.tag == _INT_TAG and len(node.value) > MAX_INTEGER_DIGITS:
            raise YamlProblem(
                f"a whole number of {len(node.value)} digits: no answer needs more than {MAX_INTEGER_DIGITS} "
                "(write it as 1.5e300, or in quotes if it is text)", node.start_mark.line,
            )
        if isinstance(node, yaml.MappingNode):
            stack.extend((child, depth + 1) for pair in node.value for child in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in node.value)


def _walk(node: yaml.Node, path: KeyPath, lines: dict[KeyPath, int], text: str) -> None:
    lines.setdefault(path, node.start_mark.line)
    if isinstance(node, yaml.ScalarNode):
        check_scalar(node, text)
        check_number_form(node)
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        previous: yaml.Node | None = None
        for key_node, value_node in node.value:
            if previous is not None and node.flow_style:
                check_decimal_comma(previous, key_node, value_node, text)
            previous = value_node
            key = str(key_node.value)
            if key in seen:
                raise YamlProblem(
                    f"the key '{key}' is given twice (keep one of them)", key_node.start_mark.line
                )
            seen.add(key)
            lines[(*path, key)] = key_node.start_mark.line
            _walk(value_node, (*path, key), lines, text)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*path, str(index)), lines, text)
