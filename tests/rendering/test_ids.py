"""Ids in a rendered text renamed with every reference to them (rendering/ids.py), where their names would meet
others of the same names: a module's text in a problem book (rendering/book.py's Mover), and a question with
blanks' text shown a second time, with its answers, on its own page or in a book (rendering/gaps.py's
answer_copy). The books' moved addresses are tests/rendering/test_books.py's."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from support.caching import add_to_config
from support.sites import OWN_IDS, build_site, two_module_site
from zadachnik.rendering.book import Mover
from zadachnik.rendering.gaps import answer_copy


def test_a_books_ids_are_renamed_in_tags_only() -> None:
    """A piece's ids and what names them get the book's prefixes; a code sample's text with the same words is
    left as written."""
    mover = Mover("file:///up/book/", "../quiz/", "m2-", "quiz-", frozenset({"q-1"}))
    piece = ('<h4 id="why">Why<a class="headerlink" href="#why">¶</a></h4><p>Write <code>id="x" href="#x"</code> '
             '<a href="#q-1">Q1</a></p><input id="__tabbed_1_1" name="__tabbed_1" type="radio" />'
             '<label for="__tabbed_1_1">A</label><td headers="a b">')
    assert mover.piece(piece) == (
        '<h4 id="m2-quiz-why">Why<a class="headerlink" href="#m2-quiz-why">¶</a></h4><p>Write <code>id="x" '
        'href="#x"</code> <a href="#m2-q-1">Q1</a></p><input id="m2-quiz-__tabbed_1_1" name="m2-quiz-__tabbed_1" '
        'type="radio" /><label for="m2-quiz-__tabbed_1_1">A</label><td headers="m2-quiz-a m2-quiz-b">')


# An id and each way a piece can name it on its page: an SVG's paint, marker, clip, mask and filter, a style's url()
# in either quotes, a <use>, and the attributes that hold ids (one or a list).
ID_REFERENCES = [
    ('<marker id="arrow"><line marker-end="url(#arrow)"/>',
     '<marker id="m2-quiz-arrow"><line marker-end="url(#m2-quiz-arrow)"/>'),
    ('<line stroke="url(#g)" fill="url( #g )"/>', '<line stroke="url(#m2-quiz-g)" fill="url( #m2-quiz-g )"/>'),
    ('<g clip-path="url(#g)" mask="url(#g)" filter="url(#g)">',
     '<g clip-path="url(#m2-quiz-g)" mask="url(#m2-quiz-g)" filter="url(#m2-quiz-g)">'),
    ('<rect style="fill: url(\'#g\'); stroke: url(&quot;#g&quot;)"/>',
     '<rect style="fill: url(&#x27;#m2-quiz-g&#x27;); stroke: url(&quot;#m2-quiz-g&quot;)"/>'),
    ('<use href="#g"/><use xlink:href="#g"/>', '<use href="#m2-quiz-g"/><use xlink:href="#m2-quiz-g"/>'),
    ('<div aria-labelledby="g h" aria-describedby="g" aria-details="g" aria-flowto="g">',
     '<div aria-labelledby="m2-quiz-g m2-quiz-h" aria-describedby="m2-quiz-g" aria-details="m2-quiz-g" '
     'aria-flowto="m2-quiz-g">'),
    ('<div aria-controls="g" aria-owns="g" aria-errormessage="g" aria-activedescendant="g">',
     '<div aria-controls="m2-quiz-g" aria-owns="m2-quiz-g" aria-errormessage="m2-quiz-g" '
     'aria-activedescendant="m2-quiz-g">'),
    ('<output for="g h"><label for="g">', '<output for="m2-quiz-g m2-quiz-h"><label for="m2-quiz-g">'),
    ('<td headers="g h"><input list="g" form="g">',
     '<td headers="m2-quiz-g m2-quiz-h"><input list="m2-quiz-g" form="m2-quiz-g">'),
    ('<button popovertarget="g" commandfor="g"><div itemref="g h">',
     '<button popovertarget="m2-quiz-g" commandfor="m2-quiz-g"><div itemref="m2-quiz-g m2-quiz-h">'),
]


@pytest.mark.parametrize(("piece", "expected"), ID_REFERENCES)
def test_a_books_references_to_an_id_are_renamed_as_the_id_is(piece: str, expected: str) -> None:
    """An inline SVG's marker and gradient had their ids renamed and not the url(#…) naming them: the diagram
    disappeared from the book. Every reference on the page is renamed as its id is."""
    assert Mover("file:///up/book/", "../quiz/", "m2-", "quiz-").piece(piece) == expected


@pytest.mark.parametrize(("piece", "expected"), [
    ("<span id='single'>", '<span id="quiz-single">'),
    ("<span id=bare>", '<span id="quiz-bare">'),
    ('<span ID = "upper" >', '<span ID="quiz-upper" >'),
    ("<a href='#single' title='x'>", '<a href="#quiz-single" title=\'x\'>'),
    ("<a class=x href=#bare>", '<a class=x href="#quiz-bare">'),
    ("<span title='it&#39;s' id='q&#39;'>", '<span title=\'it&#39;s\' id="quiz-q&#x27;">'),
])
def test_a_books_ids_are_renamed_in_any_quotes(piece: str, expected: str) -> None:
    """A raw-HTML id in single quotes kept its name while the Markdown link to it was renamed: the link dangled."""
    assert Mover("file:///up/book/", "quiz/", "", "quiz-").piece(piece) == expected


@pytest.mark.parametrize("piece", [
    '<abbr title=\'<b id="x">\'>x</abbr>',  # a tag written in an attribute's value is text
    '<!-- <b id="x"> -->',
    '<script>const tag = \'<b id="x">\';</script><style>.a > b { fill: url(#x) }</style>',
    '<p>url(#x) <code>&lt;b id="x"&gt;</code></p>',
    '<span id="x',  # a tag left open is no tag: neither its id nor anything else renamed
])
def test_a_books_text_that_only_looks_like_an_id_is_left_as_written(piece: str) -> None:
    assert Mover("file:///up/book/", "quiz/", "", "quiz-").piece(piece) == piece


# A question with blanks' text as its page renders it: a reference to its note, a heading with its ¶, content tabs
# (inputs, their radio group, labels), and the text's list of notes.
BLANKS_PIECE = (
    '<p>Twice two is <span class="zq-gap" data-zq-gap="n"></span>.<sup id="fnref:m1q3-1">'
    '<a class="footnote-ref" href="#fn:m1q3-1">1</a></sup></p>\n'
    '<h4 id="way">Way<a class="headerlink" href="#way" title="Permanent link">¶</a></h4>\n'
    '<div class="tabbed-set tabbed-alternate" data-tabs="1:2"><input checked="checked" id="__tabbed_1_1" '
    'name="__tabbed_1" type="radio" /><input id="__tabbed_1_2" name="__tabbed_1" type="radio" />'
    '<div class="tabbed-labels"><label for="__tabbed_1_1">A</label><label for="__tabbed_1_2">B</label></div>'
    '<div class="tabbed-content"><div class="tabbed-block"><p>Count.</p></div><div class="tabbed-block">'
    '<p>Fingers.</p></div></div></div>\n'
    '<div class="footnote">\n<hr />\n<ol>\n<li id="fn:m1q3-1">\n<p>Note.&#160;<a class="footnote-backref" '
    'href="#fnref:m1q3-1" title="Jump back to footnote 1 in the text">&#8617;</a></p>\n</li>\n</ol>\n</div>')


def test_a_blanks_answer_copy_names_its_own_ids_and_leads_to_them() -> None:
    """Was a bug: the revealed answer repeated every id of the text shown above it (a heading's, content tabs'),
    and a tab's label in the answer switched the question's tab instead of its own."""
    page = BeautifulSoup(f'<div id="first">{BLANKS_PIECE}</div><div id="copy">{answer_copy(BLANKS_PIECE)}</div>',
                         "html.parser")
    ids = [element["id"] for element in page.select("[id]")]
    assert [anchor for anchor in set(ids) if ids.count(anchor) > 1] == []
    first, copy = page.select_one("#first"), page.select_one("#copy")
    copy_ids = {element["id"] for element in copy.select("[id]")}
    labels = copy.select("label[for]")
    assert len(labels) == 2 and all(label["for"] in {tab["id"] for tab in copy.select("input")} for label in labels)
    assert {tab["name"] for tab in copy.select("input")}.isdisjoint(tab["name"] for tab in first.select("input"))
    [permalink] = copy.select("a.headerlink")
    assert permalink["href"][1:] in copy_ids
    # The reference leads to the note of the first showing, which the copy does not list again.
    assert copy.select_one("a.footnote-ref")["href"] == "#fn:m1q3-1" and not copy.select(".footnote")


def test_a_text_without_ids_is_its_own_answer_copy() -> None:
    piece = '<p>Twice two is <span class="zq-gap" data-zq-gap="n"></span>, see <a href="#q-Q1">Q1</a>.</p>'
    assert answer_copy(piece) is piece


# A question with blanks whose text holds content tabs, a heading, an id of the author's own and the ids an inline
# SVG names, and a note.
TABBED_BLANKS = """
/// question | B7
type: blanks
gaps:
  n: {answer: 4}

//// ru | Вкладки
Дважды два — [[gap:n]].[^why] [К способу](#way)

#### Способ {#way}

=== "Счёт"
    Считаем. [Одинарные](#single)

=== "Пальцы"
    Загибаем пальцы. [Сюда](#fingers)
    {: #fingers }

@@OWN_IDS@@
[^why]: Проверьте.

explanation:
Четыре.
////

//// en | Tabs
Twice two is [[gap:n]].[^why] [To the way](#way)

#### Way

=== "Count"
    We count. [Single](#single)

=== "Fingers"
    We bend fingers. [Here](#fingers)
    {: #fingers }

@@OWN_IDS@@
[^why]: Check it.

explanation:
Four.
////
///
""".replace("@@OWN_IDS@@\n", OWN_IDS)
PAGES = [f"{lang}demo/{page}/index.html" for lang in ("", "en/")
         for page in ("01-basics/quiz", "02-more/quiz", "01-basics/book", "book")]


@pytest.fixture(scope="module")
def tabbed_blanks_site(tmp_path_factory) -> Path:
    """The fixture site with two modules (so a course's book too), footnotes, and TABBED_BLANKS in each quiz."""
    work = tmp_path_factory.mktemp("tabbed-blanks")
    site = two_module_site(work)
    add_to_config(site, "  - attr_list\n", "  - attr_list\n  - footnotes\n")
    for module in ("01-basics", "02-more"):
        quiz = site / "exercises/demo" / module / "quiz.md"
        quiz.write_text(quiz.read_text(encoding="utf-8") + TABBED_BLANKS, encoding="utf-8")
    return build_site(site / "mkdocs.yml", work / "site")


@pytest.mark.parametrize("page", PAGES)
def test_a_blanks_text_with_tabs_has_each_id_once_where_its_answer_repeats_it(tabbed_blanks_site: Path,
                                                                              page: str) -> None:
    """Was a bug: the revealed answer of a question with blanks repeated the ids of its text (content tabs',
    a heading's, the author's, an SVG's), so the page had each twice, and a tab's label in the answer switched
    the question's tab. Every id is there once, and each link, label and radio group finds its own."""
    soup = BeautifulSoup((tabbed_blanks_site / page).read_text(encoding="utf-8"), "html.parser")
    answers = soup.select(".zq-answer--blanks")
    assert answers and any(answer.select(".tabbed-set") for answer in answers), page
    ids = [element["id"] for element in soup.select("[id]")]
    assert [anchor for anchor in set(ids) if ids.count(anchor) > 1] == []
    links = [a["href"][1:] for a in soup.select("a[href^='#']") if a["href"] != "#"]
    assert [link for link in links if link not in ids] == []
    svg_references = [use["href"][1:] for use in soup.select("svg use")]
    assert len(svg_references) >= 2 and [name for name in svg_references if name not in ids] == []
    for tabs in soup.select(".tabbed-set"):
        inputs = {tab["id"] for tab in tabs.select("input")}
        assert [label["for"] for label in tabs.select("label[for]") if label["for"] not in inputs] == []
    groups = [{radio["name"] for radio in tabs.select(":scope > input")} for tabs in soup.select(".tabbed-set")]
    assert len(groups) >= 2 and all(len(group) == 1 for group in groups)
    assert len(set.union(*groups)) == len(groups), groups
