"""Our own JavaScript and CSS, minified for the site: comments and indentation out, every name and literal kept.

The package keeps its readable sources; the site gets these copies. The JavaScript minifier reads the source as
tokens (strings, template literals with their substitutions, regular-expression literals, comments), then joins
the tokens with only the whitespace that keeps their meaning: a space where two tokens would run together, and a
line break wherever one could end a statement (automatic semicolons, `return` and the other restricted words). A
template literal's text is copied byte for byte: some hold Python code, whose indentation matters. The result is
read again and must give the same tokens, or the build stops rather than ship a page that does not work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# Longest first: the tokenizer takes the longest punctuator that matches.
PUNCTUATORS = sorted("""
    >>>= ... === !== **= <<= >>= >>> &&= ||= ??= => == != <= >= && || ?? ?. ++ -- += -= *= /= %= &= |= ^= ** << >>
    { } ( ) [ ] ; , < > + - * / % & | ^ ! ~ ? : = . @ #
""".split(), key=len, reverse=True)
# After these words a `/` starts a regular expression; after any other word (a name, `this`) it divides.
REGEX_AFTER_WORDS = {"return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do",
                     "else", "yield", "await"}
# A line break after these words ends the statement (`return` then a new line returns nothing): it always stays.
RESTRICTED_WORDS = {"return", "break", "continue", "throw", "yield", "async", "let", "get", "set", "static"}
# A `)` closing these words' parentheses ends no expression: a `/` after it starts a regular expression.
CONDITION_WORDS = {"if", "while", "for", "with"}
LINE_BREAKS = "\n\r\u2028\u2029"
SPACE = re.compile(r"[\s\ufeff]+")
LINE_BREAK = re.compile(f"[{LINE_BREAKS}]")
LINE_COMMENT = re.compile(f"//[^{LINE_BREAKS}]*")
STRING = re.compile(r"""'(?:[^'\\\n\r]|\\[\s\S])*'|"(?:[^"\\\n\r]|\\[\s\S])*\"""")
# A template literal's text up to its end or its next substitution (the caller reads which).
TEMPLATE_PIECE = re.compile(r"(?:[^`\\$]|\\[\s\S]|\$(?!\{))*")
# A character class may hold an unescaped `/`; flags follow the closing one.
REGEX = re.compile(r"/(?:[^/\\\[\n\r\u2028\u2029]|\\[^\n\r\u2028\u2029]|\[(?:[^\]\\\n\r\u2028\u2029]|"
                   r"\\[^\n\r\u2028\u2029])*\])+/[\w$]*")
# `?.` before a digit is `?` and a number (`a ?.5 : b`).
PUNCTUATOR = re.compile("|".join(r"\?\.(?!\d)" if mark == "?." else re.escape(mark) for mark in PUNCTUATORS))
NUMBER = re.compile(r"0[xXbBoO][0-9a-fA-F_]+n?|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?n?")
WORD = re.compile(r"(?:[\w$]|[^\x00-\x7f\s\ufeff]|\\u[0-9a-fA-F{][0-9a-fA-F}]*)+")


class MinifyError(ValueError):
    """Source the minifier does not read, or would change: named with its line."""


@dataclass
class Token:
    kind: str  # word, number, string, template (a piece of one, between its substitutions), regex, punct
    text: str
    # Whether a line break (or a comment holding one) came before it in the source.
    broken: bool = False
    # For `)`: whether its parentheses held a condition (`if (…)`), after which a `/` starts a regex.
    condition: bool = False


def is_space(char: str) -> bool:
    return char.isspace() or char == "\ufeff"


def word_char(char: str) -> bool:
    return char.isalnum() or char in "_$\\" or ord(char) > 0x7F and not is_space(char)


def tokenize(source: str) -> list[Token]:
    tokens: list[Token] = []
    # One entry per open `{` or `${`: a `}` closes a block or object, or goes back into a template literal.
    braces: list[str] = []
    # One entry per open `(`: whether it follows if/while/for/with.
    parens: list[bool] = []
    position = 0
    broken = False
    length = len(source)

    def fail(message: str) -> MinifyError:
        return MinifyError(f"line {source.count(chr(10), 0, position) + 1}: {message}")

    def regex_allowed() -> bool:
        if not tokens:
            return True
        last = tokens[-1]
        if last.kind == "word":
            return last.text in REGEX_AFTER_WORDS
        if last.kind in ("number", "string", "regex") or last.kind == "template" and last.text.endswith("`"):
            return False
        if last.text == ")":
            return last.condition
        return last.text not in ("]", "++", "--")

    while position < length:
        char = source[position]
        found = SPACE.match(source, position)
        if found:
            broken = broken or LINE_BREAK.search(found.group()) is not None
            position = found.end()
            continue
        if char == "/" and source.startswith("//", position):
            position = LINE_COMMENT.match(source, position).end()  # type: ignore[union-attr]
            continue
        if char == "/" and source.startswith("/*", position):
            end = source.find("*/", position + 2)
            if end < 0:
                raise fail("a comment that never ends")
            broken = broken or LINE_BREAK.search(source, position, end) is not None
            position = end + 2
            continue
        start = position
        if char in "'\"":
            found = STRING.match(source, position)
            if found is None:
                raise fail("a string that runs past its line, or never ends")
            position = found.end()
            token = Token("string", found.group())
        elif char == "`" or char == "}" and braces and braces[-1] == "template":
            if char == "}":
                braces.pop()
            found = TEMPLATE_PIECE.match(source, position + 1)
            assert found is not None  # the piece's pattern also matches no text
            position = found.end()
            if source.startswith("`", position):
                position += 1
            elif source.startswith("${", position):
                braces.append("template")
                position += 2
            else:
                raise fail("a template literal that never ends")
            token = Token("template", source[start:position])
        elif char == "/" and regex_allowed():
            found = REGEX.match(source, position)
            if found is None:
                raise fail("a regular expression that runs past its line, or never ends")
            position = found.end()
            token = Token("regex", found.group())
        elif char.isdigit() or char == "." and source[position + 1:position + 2].isdigit():
            found = NUMBER.match(source, position)
            assert found is not None  # a digit, or a dot and a digit, always starts a number
            position = found.end()
            token = Token("number", found.group())
        elif word_char(char):
            found = WORD.match(source, position)
            if found is None:
                raise fail(f"an unexpected {char!r}")
            position = found.end()
            token = Token("word", found.group())
        else:
            found = PUNCTUATOR.match(source, position)
            if found is None:
                raise fail(f"an unexpected {char!r}")
            punct = found.group()
            position = found.end()
            token = Token("punct", punct)
            if punct == "{":
                braces.append("brace")
            elif punct == "}":
                if not braces:
                    raise fail("a '}' that closes nothing")
                braces.pop()
            elif punct == "(":
                parens.append(bool(tokens) and tokens[-1].kind == "word" and tokens[-1].text in CONDITION_WORDS)
            elif punct == ")":
                if not parens:
                    raise fail("a ')' that closes nothing")
                token.condition = parens.pop()
        token.broken = broken
        broken = False
        tokens.append(token)
    if braces or parens:
        raise fail("a '{' or '(' that is never closed")
    return tokens


def ends_statement(token: Token) -> bool:
    """Whether a statement may end with `token` (so a line break after it may stand for a semicolon)."""
    if token.kind in ("word", "number", "string", "regex"):
        return True
    if token.kind == "template":
        return token.text.endswith("`")
    return token.text in (")", "]", "}", "++", "--")


def starts_statement(token: Token) -> bool:
    """Whether `token` may start a statement that a line break before it would separate from the one before."""
    if token.kind in ("word", "number", "string", "regex"):
        return True
    if token.kind == "template":
        return token.text.startswith("`")
    return token.text in ("{", "!", "~", "#", "@", "...", "++", "--")


def keeps_line_break(before: Token, token: Token) -> bool:
    return (before.kind == "word" and before.text in RESTRICTED_WORDS or token.text in ("++", "--")
            or ends_statement(before) and starts_statement(token))


def needs_space(before: Token, token: Token) -> bool:
    """Whether the two tokens, written together, would read as something else."""
    if word_char(before.text[-1]) and word_char(token.text[0]):
        return True
    if before.kind == "number" and token.text.startswith("."):
        return True
    if before.text.endswith("/") and token.text[0] in "/*":
        return True
    if before.kind == "punct" and token.kind in ("punct", "regex"):
        longest = PUNCTUATOR.match(before.text + token.text[:3])
        return longest is not None and longest.end() > len(before.text)
    return False


def join(tokens: list[Token]) -> str:
    parts: list[str] = []
    before: Token | None = None
    for token in tokens:
        if before is not None:
            if token.broken and keeps_line_break(before, token):
                parts.append("\n")
            elif needs_space(before, token):
                parts.append(" ")
        parts.append(token.text)
        before = token
    return "".join(parts)


@lru_cache(maxsize=64)
def minify_js(source: str) -> str:
    """`source` without comments and without the whitespace its meaning does not need."""
    tokens = tokenize(source)
    result = join(tokens)
    again = tokenize(result)
    if [(token.kind, token.text) for token in again] != [(token.kind, token.text) for token in tokens]:
        raise MinifyError("the minified script reads differently from its source")
    return result + "\n"


CSS_STRING = r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
CSS_TOKEN = re.compile(CSS_STRING + r"|(/\*.*?\*/)|(\s+)|([^\"'/\s]+|/(?!\*))", re.DOTALL)
# Whitespace beside these never matters in CSS (around `:` it may: `a :hover` is not `a:hover`).
CSS_TIGHT = "{};,"


def tighten_css(text: str) -> str:
    """CSS outside its strings: the last declaration of a rule needs no semicolon, a declaration no space after
    its colon."""
    text = text.replace(";}", "}")
    return re.sub(r"(?<=[{;]) ?([\w-]+): ", r"\1:", text)


@lru_cache(maxsize=16)
def minify_css(source: str) -> str:
    """`source` without comments, with one space at most where it had whitespace, and none beside { } ; ,"""
    parts: list[str] = []
    position = 0
    for found in CSS_TOKEN.finditer(source):
        if found.start() != position:
            break
        position = found.end()
        quoted, comment, space, other = found.groups()
        if comment is not None or space is not None:
            # A comment between two words still parts them.
            if parts and parts[-1] != " ":
                parts.append(" ")
        else:
            text = quoted if quoted is not None else other
            if parts and parts[-1] == " " and (text[0] in CSS_TIGHT or len(parts) > 1 and parts[-2][-1] in CSS_TIGHT):
                parts.pop()
            parts.append(text)
    if position != len(source):
        raise MinifyError(f"line {source.count(chr(10), 0, position) + 1}: a string or comment that never ends")
    pieces = re.split(CSS_STRING, "".join(parts).strip())
    # re.split keeps the strings at the odd places: only the text between them is tightened.
    return "".join(piece if index % 2 else tighten_css(piece) for index, piece in enumerate(pieces)) + "\n"
