"""Ids in a rendered text renamed with every reference to them (rendering/ids.py), where their names would meet
others of the same names: a module's text in a problem book (rendering/book.py's Mover). The books' moved
addresses are tests/rendering/test_books.py's."""

from __future__ import annotations

import pytest
from zadachnik.rendering.book import Mover


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
