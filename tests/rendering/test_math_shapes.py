"""Formulas in every shape authors write them (issue 27): a `$$ … $$` right under a line of text, inside a
sentence, in a list item, an admonition or a quote is display math, and a `$$` that opens nothing fails the build
with file:line; a formula keeps the punctuation after it on its line, on a phone too."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest
from bs4 import BeautifulSoup
from support.browser import serve
from support.sites import FIXTURE_SITE, build_failure, build_site, copy_site
from support.sources import line_with
from zadachnik.rendering.mathtex import MathExtension, MathSourceError, formulas_in

# (what the author writes, the TeX of the display formula in it)
DISPLAY_SHAPES = {
    "under a line of text": ("Text line\n$$\na_1 = 1\n$$\n", "a_1 = 1"),
    "under a line, on one line": ("Text line\n$$a_2 = 2$$\n", "a_2 = 2"),
    "between lines of text": ("Text before\n$$\na_3 = 3\n$$\nand text after.\n", "a_3 = 3"),
    "inside a sentence": ("A sentence with $$a_4 = 4$$ inside it.\n", "a_4 = 4"),
    "in a tight list item": ("- item\n  $$\n  a_5 = 5\n  $$\n", "a_5 = 5"),
    "in a loose list item": ("- loose item\n\n    $$\n    a_6 = 6\n    $$\n", "a_6 = 6"),
    "under text in an admonition": ("!!! note\n    Admonition text\n    $$\n    a_7 = 7\n    $$\n", "a_7 = 7"),
    "alone in an admonition": ("!!! note\n\n    $$\n    a_8 = 8\n    $$\n", "a_8 = 8"),
    "under text in a quote": ("> Quoted text\n> $$\n> a_9 = 9\n> $$\n", "a_9 = 9"),
    "over several lines": ("Text line\n$$\n\\begin{aligned}\nb &= 1 \\\\\nc &= 2\n\\end{aligned}\n$$\n",
                           "\\begin{aligned}\nb &= 1 \\\\\nc &= 2\n\\end{aligned}"),
}
PUNCTUATION = ["?", ".", ",", ":", ";", "!", ")", "}", "»", "”", "’", "…", ").", "?»"]
# Each ends in a formula and its '?', a letter longer than the one before: some land with the formula at the edge.
PHONE_LINES = [" ".join(["слово"] * (count // 6)) + "ж" * (count % 6) + " чему равно $x^2$?"
               for count in range(24, 144)]


def convert(text: str) -> str:
    return markdown.Markdown(extensions=[MathExtension(), "admonition"]).convert(text)


def shown_tex(element) -> list[str]:
    return [a.get_text().strip() for a in element.select('annotation[encoding="application/x-tex"]')]


def visible_text(element) -> str:
    """The page's text as a reader sees it: without the formulas' MathML and code."""
    for hidden in element.select(".katex-mathml, code, pre"):
        hidden.decompose()
    return element.get_text()


@pytest.mark.parametrize("shape", DISPLAY_SHAPES)
def test_each_shape_of_display_math_is_rendered(shape: str) -> None:
    source, tex = DISPLAY_SHAPES[shape]
    soup = BeautifulSoup(convert(source), "html.parser")
    assert [shown_tex(display) for display in soup.select(".katex-display")] == [[tex]]
    assert "$" not in visible_text(soup)


@pytest.mark.parametrize("shape", [shape for shape in DISPLAY_SHAPES if "quote" not in shape])
def test_prefetch_finds_each_shape(shape: str) -> None:
    # So the build renders it with the others. (In a quote it sees the '>' marks: a miss, which costs time only.)
    source, tex = DISPLAY_SHAPES[shape]
    assert (tex, True) in formulas_in(source)


def test_text_around_a_display_formula_stays_text_around_it() -> None:
    soup = BeautifulSoup(convert(DISPLAY_SHAPES["between lines of text"][0]), "html.parser")
    paragraph = soup.select_one("p")
    assert paragraph.get_text().startswith("Text before") and paragraph.get_text().endswith("and text after.")
    assert paragraph.select_one(".zq-math .katex-display")


UNCLOSED = {
    # (page text, line of the '$$' that opens nothing)
    "a blank line inside": ("Fine text.\n\n$$\na = 1\n\nb = 2\n$$\n", 3),
    "no closing $$": ("Fine text.\n\nThe sum\n$$\na + b\n\nMore text.\n", 4),
    "in a list item": ("- one\n- two\n  $$ a + b\n", 3),
}


@pytest.mark.parametrize("shape", UNCLOSED)
def test_a_display_formula_left_open_names_its_line(shape: str) -> None:
    source, line = UNCLOSED[shape]
    with pytest.raises(MathSourceError, match=rf"line {line}: invalid TeX '\$\$': .*write \\\$"):
        convert(source)


def test_escaped_and_coded_dollars_are_no_formula() -> None:
    html = convert("Prices: \\$\\$5, `$$` and\n\n    $$ in code\n")
    assert "katex" not in html and "$$" in html


UNCLOSED_INLINE = {
    # (page text, line of the '$' that opens a formula nothing closes, what the message quotes)
    "a sum": ("Fine text.\n\nThe loss is $L = \\sum_i x_i and more text.\n", 3, "$L = \\sum_i x_i and more text."),
    "a power, the line below": ("The loss\nis $x^2 and more\ntext.\n", 2, "$x^2 and more"),
    "after a price": ("It costs $5, and $a_1 = 1 stays open.\n", 1, "$a_1 = 1 stays open."),
    "after a closed formula": ("Both $x$ and $\\alpha in a list:\n\n- item\n", 1, "$\\alpha in a list:"),
    "in a list item": ("- one\n- two $y^{2}\n", 2, "$y^{2}"),
}


@pytest.mark.parametrize("shape", UNCLOSED_INLINE)
def test_an_inline_formula_left_open_names_its_line(shape: str) -> None:
    """The page showed its TeX raw, and the build passed."""
    source, line, quoted = UNCLOSED_INLINE[shape]
    with pytest.raises(MathSourceError) as info:
        convert(source)
    assert f"line {line}: invalid TeX '{quoted}': '$' opens a formula that nothing closes in its paragraph" \
        in str(info.value)
    assert "or write \\$ for a dollar sign" in str(info.value)


UNOPENED_INLINE = {
    # (page text, line of the '$' that closes a formula nothing opened, what the message quotes)
    "a power": ("The area is x^2$ square metres.\n", 1, "x^2$"),
    "a command, the line below": ("Fine text\nwith \\alpha + \\beta$, then more.\n", 2, "\\beta$"),
    "after a closed formula": ("Both $x$ and y_1$ here.\n", 1, "y_1$"),
    "at the paragraph's end": ("- item\n- the sum a_i$\n", 2, "a_i$"),
}


@pytest.mark.parametrize("shape", UNOPENED_INLINE)
def test_an_inline_formula_never_opened_names_its_line(shape: str) -> None:
    """A formula whose opening `$` was left out showed its TeX raw and a stray dollar, and the build passed."""
    source, line, quoted = UNOPENED_INLINE[shape]
    with pytest.raises(MathSourceError) as info:
        convert(source)
    assert f"line {line}: invalid TeX '{quoted}': '$' closes a formula that nothing opened" in str(info.value)
    assert "put '$' right before the formula" in str(info.value)
    assert str(info.value).count("invalid TeX") == 1


PROSE_DOLLARS = [
    "It costs $5, or $10 with tax.",
    "Set $HOME and $PATH first.",
    "A price in US$ and 5 $ too.",
    "Costs $5 for _emphasis_ and __more__.",
    "Costs $5 {: .price }",
    "Costs $5, and $x_1$ is a formula.",
    "Costs \\$x^2 and \\$\\alpha, written as dollars.",
    "Code: `$x^2` and `$\\sum_i`.",
    "Text.\n\n```\n$x^2 and $\\sum\n```\n",
    "Text.\n\n    $x_1 in indented code\n",
    "It costs 5$ a month, 10$, or 20$.",
    "Shell: FOO_BAR and 5$ each.",
    "Escaped: x^2\\$ stays a dollar.",
]


@pytest.mark.parametrize("text", PROSE_DOLLARS)
def test_a_dollar_of_prose_or_code_opens_no_formula(text: str) -> None:
    """A `$` with no TeX after it in its paragraph, or in code, is a dollar sign on the page."""
    assert "$" in BeautifulSoup(convert(text), "html.parser").get_text()


# -- punctuation ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mark", PUNCTUATION)
def test_a_formula_and_its_punctuation_are_one_box(mark: str) -> None:
    soup = BeautifulSoup(convert(f"What is $x^2${mark} Then"), "html.parser")
    kept = soup.select_one(".zq-math-punct")
    assert kept is not None and shown_tex(kept) == ["x^2"]
    assert visible_text(kept).endswith(mark)
    assert soup.select_one("p").get_text().endswith(" Then")


def test_an_ellipsis_and_a_word_after_a_formula_stay_outside_its_box() -> None:
    soup = BeautifulSoup(convert("Then $x$... and $y$ words"), "html.parser")
    assert not soup.select(".zq-math-punct")


def test_a_link_around_a_formula_keeps_its_bracket() -> None:
    soup = BeautifulSoup(convert("See [$x$](#there) and [the $y$?](#here)."), "html.parser")
    assert [(link["href"], shown_tex(link)) for link in soup.select("a")] == [("#there", ["x"]), ("#here", ["y"])]


# -- through the plugin: a built page, its search entry, a phone ----------------------------------------------------

SHAPES_PAGE = "# Shapes\n\n" + "\n".join(source for source, _ in DISPLAY_SHAPES.values())
PHONE_PAGE = "# Phone\n\n" + "\n\n".join(PHONE_LINES) + "\n"


@pytest.fixture(scope="module")
def shapes_site(tmp_path_factory) -> Path:
    source = copy_site(FIXTURE_SITE, tmp_path_factory.mktemp("shapes") / "src")
    (source / "docs" / "shapes.md").write_text(SHAPES_PAGE, encoding="utf-8")
    (source / "docs" / "phone.md").write_text(PHONE_PAGE, encoding="utf-8")
    return build_site(source / "mkdocs.yml", source / "site")


def test_a_built_page_renders_every_shape(shapes_site: Path) -> None:
    soup = BeautifulSoup((shapes_site / "shapes/index.html").read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("article")
    assert [shown_tex(display) for display in article.select(".katex-display")] == [
        [tex] for _, tex in DISPLAY_SHAPES.values()]
    assert "$" not in visible_text(article)


def test_search_holds_a_formula_and_its_punctuation_as_text(shapes_site: Path) -> None:
    index = json.loads((shapes_site / "search/search_index.json").read_text(encoding="utf-8"))
    text = " ".join(doc["text"] for doc in index["docs"] if doc["location"].startswith("phone/"))
    assert re.search(r"чему равно\s+x\^2\s*\?", text)
    assert not re.search(r"katex|zq-|<span|\u2060", text)


def test_the_build_names_the_line_of_a_display_formula_left_open(tmp_path: Path, caplog) -> None:
    source = copy_site(FIXTURE_SITE, tmp_path / "src")
    page, line = UNCLOSED["a blank line inside"]
    (source / "docs" / "open.md").write_text("# Open\n\n" + page, encoding="utf-8")
    message = build_failure(source / "mkdocs.yml", tmp_path / "site", caplog)
    assert f"open.md:{line + 2}: invalid TeX '$$'" in message


def test_the_check_names_the_line_of_a_display_formula_left_open_in_a_question(tmp_path: Path) -> None:
    source = copy_site(FIXTURE_SITE, tmp_path / "src")
    quiz = source / "exercises/demo/01-basics/quiz.md"
    text = quiz.read_text(encoding="utf-8")
    assert text.count("Сколько будет $2+2$?") == 1
    quiz.write_text(text.replace("Сколько будет $2+2$?", "Сколько будет\n$$\n2+2\n\n?"), encoding="utf-8")
    line = text[:text.index("Сколько будет")].count("\n") + 2
    result = subprocess.run([sys.executable, "-m", "zadachnik", "check"], cwd=source, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode != 0
    assert f"exercises/demo/01-basics/quiz.md:{line}: invalid TeX '$$'" in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


LEFT_OPEN_IN_A_QUESTION = {
    "no closing $": ("What is $L = \\sum_i x_i and more text?",
                     "'$L = \\sum_i x_i and more text?': '$' opens a formula that nothing closes in its paragraph"),
    "no opening $": ("What is x^2$ here?", "'x^2$': '$' closes a formula that nothing opened"),
}


@pytest.mark.parametrize("slip", LEFT_OPEN_IN_A_QUESTION)
def test_the_build_and_the_check_name_the_line_of_an_inline_formula_left_open_in_a_question(
        slip: str, tmp_path: Path, caplog) -> None:
    written, said = LEFT_OPEN_IN_A_QUESTION[slip]
    source = copy_site(FIXTURE_SITE, tmp_path / "src")
    quiz = source / "exercises/demo/01-basics/quiz.md"
    text = quiz.read_text(encoding="utf-8")
    assert text.count("What is $2+2$?") == 1
    quiz.write_text(text.replace("What is $2+2$?", written), encoding="utf-8")
    expected = f"exercises/demo/01-basics/quiz.md:{line_with(text, 'What is $2+2$?')}: invalid TeX {said}"
    message = build_failure(source / "mkdocs.yml", tmp_path / "site", caplog)
    assert expected in message, message
    result = subprocess.run([sys.executable, "-m", "zadachnik", "check"], cwd=source, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode != 0
    assert expected in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_dollars_of_prose_in_a_question_still_build(tmp_path: Path) -> None:
    source = copy_site(FIXTURE_SITE, tmp_path / "src")
    quiz = source / "exercises/demo/01-basics/quiz.md"
    text = quiz.read_text(encoding="utf-8")
    quiz.write_text(text.replace("What is $2+2$?", "It costs $5 in $HOME, or \\$10: what is $2+2$?"),
                    encoding="utf-8")
    site = build_site(source / "mkdocs.yml", tmp_path / "site")
    page = (site / "en/demo/01-basics/quiz/index.html").read_text(encoding="utf-8")
    assert "It costs $5 in $HOME, or $10: what is" in page
    result = subprocess.run([sys.executable, "-m", "zadachnik", "check"], cwd=source, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


# The '?' after each formula and the formula's last box, by their rectangles: on the same line or not.
QUESTION_MARK_BELOW = """() => [...document.querySelectorAll("article p")].filter(p => p.querySelector(".katex"))
  .map(p => {
    const boxes = p.querySelectorAll(".katex-html > *");
    const last = boxes[boxes.length - 1].getBoundingClientRect();
    const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    let node, mark = null;
    while ((node = walker.nextNode())) {
      if (!node.parentElement.closest(".katex") && node.data.includes("?")) {
        const range = document.createRange();
        range.setStart(node, node.data.indexOf("?"));
        range.setEnd(node, node.data.indexOf("?") + 1);
        mark = range.getBoundingClientRect();
      }
    }
    return mark.top >= (last.top + last.bottom) / 2;
  })"""


def test_on_a_phone_a_question_mark_stays_on_its_formulas_line(shapes_site: Path, page) -> None:
    url, server = serve(shapes_site)
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(url + "phone/")
        page.evaluate("document.fonts.ready.then(() => true)")
        below = page.evaluate(QUESTION_MARK_BELOW)
        assert len(below) == len(PHONE_LINES) and not any(below)
        # The measure can fail: without the formula's box, some of these lines break before the '?'.
        page.evaluate("""() => document.querySelectorAll(".zq-math-punct").forEach(kept => {
          kept.replaceWith(...kept.childNodes); })""")
        assert any(page.evaluate(QUESTION_MARK_BELOW))
    finally:
        server.shutdown()


def test_on_a_right_to_left_page_a_formula_still_reads_left_to_right(shapes_site: Path, page) -> None:
    """Arabic, Hebrew or Persian pages have dir="rtl", which KaTeX's boxes inherited: `27 = 3^3` showed as
    `3^3 = 27`, the superscripts before their bases."""
    url, server = serve(shapes_site)
    try:
        page.goto(url + "shapes/")
        page.evaluate("document.body.dir = 'rtl'")  # where mkdocs-material sets it
        # KaTeX breaks a formula into boxes after each relation: `a_1 =` and `1`, which must stay in that order.
        order = page.evaluate("""() => [...document.querySelectorAll("article .katex-html")].map(formula =>
          [...formula.querySelectorAll(":scope > .katex-base")].map(box => box.getBoundingClientRect().left))
          .filter(lefts => lefts.length > 1).map(lefts => lefts[0] < lefts[lefts.length - 1])""")
        assert len(order) == len(DISPLAY_SHAPES) - 1 and all(order), order
        # Code is typed left to right too (the editor, which loads later, always was).
        page.goto(url + "demo/01-basics/quiz/")
        page.evaluate("document.body.dir = 'rtl'")
        directions = page.evaluate("""() => [...document.querySelectorAll(".zq-code__source, .zq-handin__code")]
          .map(box => getComputedStyle(box).direction)""")
        assert directions and set(directions) == {"ltr"}, directions
    finally:
        server.shutdown()
