"""The sample course's typography, checked over every built page of its generated content (quizzes, exercises,
books) in both languages, and over the prose of its course files (the notebooks' markdown cells, README.md).

What is checked is what a learner reads: the text of the page's article outside <code>, <pre> and KaTeX's
markup, every variant's text included (kept in <template> elements until a learner draws it), plus the messages
of the code exercises' tests (which the page shows after a check). A formula stands in that text as one mark,
so "$C=90$ с" is still a number before a unit; its TeX, kept in KaTeX's annotation element, is checked
separately, for the digit grouping and the tuple rules. A course file's markdown is read the same way: code
spans and blocks are marks, and so are formulas, whose TeX is checked as a page's is. A notebook's language is
the end of its name (`_ru.ipynb`), a README holds the site's languages in order, parted by a `---` line.

- Russian: a percent sign, a unit (`UNITS`) or an em dash follows a no-break space (U+00A0 or U+202F), never an
  ordinary one or a line break. A "с" after a number is read as seconds: the preposition is written otherwise
  there ("6×3 и пакет", not "6×3 с пакетом").
- English: prose quotes are curly (“…”, ‘…’, and the apostrophe ’); no straight " or ' in running text.
- Russian pages write decimals with a comma, so a tuple of numbers separates its members with semicolons:
  "(1; 1; 1; 5)", `(4;\\,3;\\,2;\\,2)` in TeX; a comma between two numbers in parentheses, or a bare comma
  between digits in TeX (where the decimal comma is `{,}`), is a tuple that reads as decimals.
- Digit grouping, one convention per page, formulas included: every number with four or more digits before its
  decimal sign is written as the page's formatter writes a grouped number (`core/formatting.digit_groups`, the
  rule revealed answers follow): Russian "1 260" with a no-break space and `1\\,260` in TeX; English
  "2,629.07" and "1,073,741,824", `1{,}073{,}741{,}824` in TeX, but a whole number of one group ungrouped,
  "28800", since "28,800" could be read as 28.8. Not numbers to group: a year (four digits from 1900 to 2099,
  no decimals), and digits joined to a letter ("P08", "H100", "fp32", "1F1B"), which are names.
- Python code a Russian page or notebook shows (a starter, a solution, a code cell) has no comment or docstring
  in English: one with Latin words and no Cyrillic letter.
"""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, NavigableString, Tag
from support.sites import ROOT
from zadachnik.core.formatting import conventions, digit_groups

COURSES = ("modern-llms", "rl-for-llm")
FORMULA_ENDING_IN_A_NUMBER, FORMULA, CODE = "\ue000", "\ue001", "\ue002"
# The instruction shows both ways of typing "2 629,07" on purpose: the grouping rule does not hold there.
FURNITURE = {"zq-instruction"}
NO_BREAK = "\u00a0\u202f"
# Units (and the number words that behave like them) that stay on the line of their number in Russian.
UNITS = ("ГБ", "ГиБ", "МБ", "МиБ", "КБ", "КиБ", "ТБ", "GB", "GiB", "MB", "MiB", "KB", "KiB", "TB", "TiB", "байт",
         "байта", "бит", "с", "мс", "мин", "ч", "сут", "суток", "FLOP", "TFLOP", "PFLOP", "млн", "млрд", "трлн",
         "тыс")
UNIT_AFTER_A_NUMBER = re.compile(
    rf"(?:\d|{FORMULA_ENDING_IN_A_NUMBER})(?P<space>\s+)(?P<unit>{'|'.join(UNITS)})(?![\w-])")
SPACE_BEFORE = re.compile(r"\S(?P<space>[ \t\n\r]+)(?P<sign>—)|(?:\d|" + FORMULA_ENDING_IN_A_NUMBER
                          + r")(?P<pspace>[ \t\n\r]+)%")
STRAIGHT_QUOTE = re.compile(r"[\"']")
TEXT_TUPLE = re.compile(r"\([^()]*(?:\d,[ \u00a0]+[-−]?\d|\d,\d+,\d)[^()]*\)")
TEX_TUPLE = re.compile(r"\d\s*,(?:\s|\\[,;: ])*[-\d]")
# A number as each language writes it in text and in TeX: its integer part (with group signs) and decimals.
NUMBERS = {
    ("ru", False): re.compile(r"(?<![\w.,])(?P<whole>\d+(?:[\u00a0\u202f]\d{3})*)(?P<fraction>,\d+)?(?![\w])"),
    ("en", False): re.compile(r"(?<![\w.,])(?P<whole>\d+(?:,\d{3})*)(?P<fraction>\.\d+)?(?![\w])"),
    # TeX commands abut digits ("\\approx0{,}17"): only a digit, a decimal sign or a group sign joins a number.
    ("ru", True): re.compile(r"(?<![\d.])(?<!\{,\})(?<!\d\\,)(?P<whole>\d+(?:\\,\d{3})*)(?P<fraction>\{,\}\d+)?(?!\d)"),
    ("en", True): re.compile(r"(?<![\d.])(?<!\d\{,\})(?P<whole>\d+(?:\{,\}\d{3})*)(?P<fraction>\.\d+)?(?!\d)"),
}
TEX_GROUP = {"ru": "\\,", "en": "{,}"}
LANGS = ("ru", "en")
# Markdown as a page shows it: code blocks and spans, then formulas (a "$" in code is no formula), then links.
MARKDOWN_CODE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[^\n]*\n.*?^[ \t]*(?P=fence)[ \t]*$"
                           r"|(?P<ticks>`+).+?(?P=ticks)", re.MULTILINE | re.DOTALL)
MARKDOWN_MATH = re.compile(r"\$\$(?P<display>.+?)\$\$|\$(?P<inline>[^$\n]+)\$", re.DOTALL)
MARKDOWN_LINK = re.compile(r"\]\([^)\s]*\)")
CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
LATIN_WORDS = re.compile(r"\b[A-Za-z]{2,}\b.*\b[A-Za-z]{2,}\b", re.DOTALL)
# Comments for tools, not for the learner.
PRAGMA = re.compile(r"^\s*(?:noqa|type:|pragma|fmt:)")


def formula_mark(tex: str) -> str:
    """How a formula stands in prose: a mark that says whether it ends in a number (before a unit, a % …)."""
    return FORMULA_ENDING_IN_A_NUMBER if re.search(r"\d\}*\s*$", tex) else FORMULA


class Page:
    """One built page: its prose (formulas and code as marks) and its formulas' TeX."""

    def __init__(self, path: Path, lang: str, name: str):
        # bs4 keeps the text inside a <template> as TemplateString by default; with no string containers every
        # text is a plain NavigableString, so the variants' templates (variants 2 and on) are read too.
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser", string_containers={})
        self.lang, self.name = lang, name
        self.tex: list[str] = []
        self.python: list[str] = []
        article = soup.select_one("article")
        assert article is not None, name
        self.prose = self._flatten(article) + "\n" + "\n".join(self._test_messages(soup))

    def _flatten(self, element: Tag) -> str:
        parts: list[str] = []
        for child in element.children:
            if isinstance(child, NavigableString):
                if type(child) is NavigableString:  # not a comment
                    parts.append(str(child))
            elif "zq-spec" in (child.get("class") or []):
                continue  # the checks' data; its test messages are read by _test_messages
            elif "zq-strings" in (child.get("class") or []):
                continue  # the page's runtime words (words/*.yml), not course text
            elif child.name == "template":
                parts.append("\n" + self._flatten(child) + "\n")  # a variant's text, read as the shown one is
            elif "katex" in (child.get("class") or []):
                tex = child.select_one('annotation[encoding="application/x-tex"]').get_text()
                self.tex.append(tex)
                parts.append(formula_mark(tex))
            elif child.name in ("code", "pre", "script", "style", "textarea", "svg", "kbd", "select") or (
                    FURNITURE & set(child.get("class") or [])):
                if "zq-code__source" in (child.get("class") or []) or child.select_one(".language-python") or (
                        "language-python" in (child.get("class") or [])):
                    self.python.append(child.get_text())  # a starter in its editor, a solution, a code block
                parts.append(CODE)
            else:
                parts.append(self._flatten(child))
        return "".join(parts)

    def _test_messages(self, soup: BeautifulSoup) -> list[str]:
        messages: list[str] = []
        for template in soup.select("template.zq-spec"):
            for spec in json.loads(template.get_text()).values():
                for test in spec.get("tests", []):
                    message = test["message"]
                    messages.append(message[self.lang] if isinstance(message, dict) else message)
        return messages


class CourseFile:
    """One language's prose in a course file (a notebook's markdown cells, or its half of a README), read as a
    page's is, and the Python code it shows."""

    def __init__(self, name: str, lang: str, markdown: list[str], python: list[str]):
        self.lang, self.name, self.python = lang, name, python
        self.tex: list[str] = []
        self.prose = "\n\n".join(self._flatten(text) for text in markdown)

    def _flatten(self, markdown: str) -> str:
        def formula(match: re.Match) -> str:
            tex = match["display"] if match["display"] is not None else match["inline"]
            self.tex.append(tex)
            return formula_mark(tex)

        prose = MARKDOWN_CODE.sub(CODE, markdown)
        return MARKDOWN_LINK.sub("]", MARKDOWN_MATH.sub(formula, prose))


def course_files_of(folder: Path) -> list[CourseFile]:
    found = []
    for path in sorted(folder.rglob("*.ipynb")):
        lang = path.stem.rsplit("_", 1)[-1]
        assert lang in LANGS, f"{path}: a notebook's name ends in its language (_ru.ipynb, _en.ipynb)"
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        texts = {kind: ["".join(cell["source"]) for cell in cells if cell["cell_type"] == kind]
                 for kind in ("markdown", "code")}
        found.append(CourseFile(path.relative_to(folder.parent).as_posix(), lang, texts["markdown"], texts["code"]))
    for path in sorted(folder.rglob("README.md")):
        halves = re.split(r"\n---[ \t]*\n", path.read_text(encoding="utf-8"))
        assert len(halves) == len(LANGS), f"{path}: one part per language, parted by a '---' line"
        found += [CourseFile(f"{path.relative_to(folder.parent).as_posix()} ({lang})", lang, [half], [])
                  for lang, half in zip(LANGS, halves, strict=True)]
    return found


def context(text: str, start: int, end: int) -> str:
    shown = text[max(0, start - 30):end + 30].replace("\n", "⏎")
    return shown.replace(FORMULA_ENDING_IN_A_NUMBER, "$…1$").replace(FORMULA, "$…$").replace(CODE, "`…`")


def found_pages(sample_site: Path) -> list[Page]:
    found = []
    for lang, prefix in (("ru", ""), ("en", "en/")):
        for course in COURSES:
            for path in sorted((sample_site / prefix / course).rglob("index.html")):
                found.append(Page(path, lang, path.relative_to(sample_site).as_posix()))
    # Each course's module: its quiz, exercises and book, in each language (a one-module course has no book of
    # its own).
    assert len(found) >= 10, [page.name for page in found]
    return found


@pytest.fixture(scope="module")
def built_pages(sample_site: Path) -> list[Page]:
    return found_pages(sample_site)


@pytest.fixture(scope="module")
def course_files() -> list[CourseFile]:
    found = [text for course in COURSES for text in course_files_of(ROOT / "exercises" / course)]
    assert len(found) >= 6, [text.name for text in found]
    return found


@pytest.fixture(params=["built pages", "course files"])
def pages(request: pytest.FixtureRequest) -> list[Page | CourseFile]:
    """What a learner reads: the built pages, and in a second run of each check the course files' prose."""
    return request.getfixturevalue("built_pages" if request.param == "built pages" else "course_files")


def russian(pages: list[Page]) -> list[Page]:
    return [page for page in pages if page.lang == "ru"]


def test_russian_percent_units_and_dashes_follow_a_no_break_space(pages: list[Page]) -> None:
    wrong: list[str] = []
    for page in russian(pages):
        for match in SPACE_BEFORE.finditer(page.prose):
            wrong.append(f"{page.name}: «{context(page.prose, match.start(), match.end())}»")
        for match in UNIT_AFTER_A_NUMBER.finditer(page.prose):
            if match["space"] not in NO_BREAK:
                wrong.append(f"{page.name}: {match['unit']}: «{context(page.prose, match.start(), match.end())}»")
    assert not wrong, f"{len(wrong)} ordinary spaces before %, a unit or a dash:\n" + "\n".join(wrong)


def test_english_prose_quotes_are_curly(pages: list[Page]) -> None:
    wrong = [f"{page.name}: «{context(page.prose, m.start(), m.end())}»"
             for page in pages if page.lang == "en" for m in STRAIGHT_QUOTE.finditer(page.prose)]
    assert not wrong, f"{len(wrong)} straight quotes in English prose:\n" + "\n".join(wrong)


def test_russian_tuples_of_numbers_use_semicolons(pages: list[Page]) -> None:
    wrong = [f"{page.name}: «{context(page.prose, m.start(), m.end())}»"
             for page in russian(pages) for m in TEXT_TUPLE.finditer(page.prose)]
    wrong += [f"{page.name}: TeX «{context(tex, m.start(), m.end())}»"
              for page in russian(pages) for tex in page.tex for m in TEX_TUPLE.finditer(tex)]
    assert not wrong, f"{len(wrong)} tuples with commas on a decimal-comma page:\n" + "\n".join(wrong)


def grouped(whole: str, has_fraction: bool, lang: str, math: bool) -> str:
    """An integer part as the page's formatter writes it grouped, in prose or in TeX."""
    convention = conventions(lang)
    return (TEX_GROUP[lang] if math else convention["group"]).join(digit_groups(whole, convention, has_fraction))


def misgrouped(text: str, lang: str, math: bool) -> list[str]:
    wrong = []
    for match in NUMBERS[lang, math].finditer(text):
        written = match["whole"]
        digits = re.sub(r"\D", "", written)
        if len(digits) < 4 or (len(digits) == 4 and not match["fraction"] and 1900 <= int(digits) <= 2099):
            continue
        expected = grouped(digits, bool(match["fraction"]), lang, math)
        if written != expected:
            wrong.append(f"{written!r} for {expected!r} in «{context(text, match.start(), match.end())}»")
    return wrong


@pytest.mark.parametrize(("text", "lang", "math", "count"), [
    ("1\u00a0260 с и 2024 год; P08 и 1260 с", "ru", False, 1),
    (r"1\,260+1260+7{,}5", "ru", True, 1),
    ("28800 s, 2,629.07 s and 2629.07 s", "en", False, 1),
    ("28,800 s", "en", False, 1),
    (r"1{,}073{,}741{,}824=1073741824", "en", True, 1),
])
def test_the_grouping_rule_tells_the_two_ways_apart(text: str, lang: str, math: bool, count: int) -> None:
    assert len(misgrouped(text, lang, math)) == count, misgrouped(text, lang, math)


def test_numbers_are_grouped_one_way_on_every_page(pages: list[Page]) -> None:
    wrong = [f"{page.name}: {problem}" for page in pages for problem in misgrouped(page.prose, page.lang, False)]
    wrong += [f"{page.name}: TeX {problem}"
              for page in pages for tex in page.tex for problem in misgrouped(tex, page.lang, True)]
    assert not wrong, f"{len(wrong)} numbers grouped otherwise than the page's formatter:\n" + "\n".join(wrong)


def english_comments(code: str) -> list[str]:
    """The comments and docstrings of Python `code` written in English: Latin words and no Cyrillic letter."""
    notes = []
    try:
        notes += [token.string.lstrip("#") for token in tokenize.generate_tokens(io.StringIO(code).readline)
                  if token.type == tokenize.COMMENT]
        tree = ast.parse(code)
    except (SyntaxError, tokenize.TokenError):  # not Python after all (a shell line, a sketch)
        tree = None
    definitions = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    notes += [ast.get_docstring(node) or "" for node in ast.walk(tree) if isinstance(node, definitions)] if tree else []
    return [note.strip() for note in notes
            if LATIN_WORDS.search(note) and not CYRILLIC.search(note) and not PRAGMA.match(note)]


@pytest.mark.parametrize(("code", "count"), [
    ('def ess(weights):\n    "Kish’s effective sample size."\n    ...', 1),
    ("x = 1  # the start\ny = 2  # начало, ln N\nz = 3  # noqa: E731\n# N*", 1),
    ("def f():\n    'Считает ESS по весам.'\n    return 'plain English in a string'", 0),
])
def test_the_comment_rule_tells_english_from_russian(code: str, count: int) -> None:
    assert len(english_comments(code)) == count, english_comments(code)


def test_russian_code_has_no_english_comments(pages: list[Page]) -> None:
    wrong = [f"{page.name}: «{note}»" for page in russian(pages) for code in page.python
             for note in english_comments(code)]
    assert not wrong, f"{len(wrong)} English comments in code a Russian page shows:\n" + "\n".join(wrong)
