"""The problem books in a browser, on screen and printed (emulated print, and Chromium's PDF without scripts as
`zadachnik pdf` prints): the site with the books' hard cases (support.sites.book_sources), built once a session.
tests/rendering/test_books.py checks their HTML."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.browser import serve
from support.sites import build_site, right_to_left_site

MODULE_BOOK = "en/demo/01-basics/book/"
COURSE_BOOK = "en/demo/book/"
SHOWN = "(el) => el.checkVisibility({visibilityProperty: true, opacityProperty: true})"


@pytest.fixture(scope="module")
def book_server(book_site: Path):
    url, running = serve(book_site)
    yield url
    running.shutdown()


def blocks_shown(page) -> list[list[bool]]:
    """Each tab set's blocks, whether each is shown."""
    return page.evaluate(f"""() => [...document.querySelectorAll(".tabbed-set")].map((set) =>
      [...set.querySelectorAll(".tabbed-block")].map({SHOWN}))""")


@pytest.mark.parametrize("path", [MODULE_BOOK, COURSE_BOOK])
def test_each_tab_set_of_a_book_shows_its_first_tab_and_switches_alone(page, book_server: str, path: str) -> None:
    """Each page numbered its tab sets from 1: in a book of two pages the sets shared ids and one radio group, so
    all but the last showed no tab, and a click on one switched another."""
    page.goto(book_server + path)
    shown = blocks_shown(page)
    assert len(shown) >= 2 and shown == [[True, False]] * len(shown), shown
    labels = page.evaluate("""() => [...document.querySelectorAll(".tabbed-set")].map((set) =>
      [...set.querySelectorAll(".tabbed-labels label")].map((label) => label.textContent.trim()).join("|"))""")
    for number in range(len(shown)):
        page.locator(".tabbed-set").nth(number).locator(".tabbed-labels label").nth(1).click()
        # Material's linked tabs (content.tabs.link) switch the sets with the same labels too: module 2's copy.
        expected = [[False, True] if names == labels[number] else [True, False] for names in labels]
        assert blocks_shown(page) == expected, number
        page.locator(".tabbed-set").nth(number).locator(".tabbed-labels label").nth(0).click()


def pdf_text(path: Path) -> str:
    import shutil
    import subprocess

    program = shutil.which("pdftotext")
    assert program, "pdftotext is missing: install Debian's poppler-utils ('make poppler')"
    return subprocess.run([program, "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


COLLAPSED = "(selector) => [...document.querySelectorAll(selector)].map((el) => el.checkVisibility())"


@pytest.mark.parametrize("path", [MODULE_BOOK, COURSE_BOOK])
def test_a_books_collapsed_blocks_print_open(page, book_server: str, path: str) -> None:
    """`??? note` is a closed <details>: on paper only its title showed. Emulated print fires no beforeprint, on
    which mkdocs-material opens them: as `zadachnik pdf` prints, with no script."""
    page.goto(book_server + path)
    inside = ".zq-book details:not([open]) > :not(summary)"
    assert page.evaluate(COLLAPSED, inside) and not any(page.evaluate(COLLAPSED, inside))
    page.emulate_media(media="print")
    assert all(page.evaluate(COLLAPSED, inside))


def test_a_book_printed_without_scripts_prints_its_collapsed_blocks(browser, book_server: str,
                                                                    tmp_path: Path) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(book_server + MODULE_BOOK)
        page.pdf(path=str(tmp_path / "book.pdf"))
    finally:
        context.close()
    text = pdf_text(tmp_path / "book.pdf")
    assert "COLLAPSED-TEXT-D1" in text and "COLLAPSED-TEXT-E1" in text


def test_a_parsons_line_with_indentation_prints_two_separate_boxes(page, book_server: str) -> None:
    """A line's number and its indentation went in two cells drawn as one 80 px underline: nothing told them
    apart. Each is a box of its own, with room between them."""
    page.goto(book_server + MODULE_BOOK)
    page.emulate_media(media="print")
    boxes = page.evaluate("""() => [...document.querySelectorAll("[data-zq-book-question=P1] tr")].map((row) =>
      [...row.querySelectorAll(".zq-book__cell")].map((box) => {
        const place = box.getBoundingClientRect(), style = getComputedStyle(box);
        return {left: place.left, right: place.right, top: place.top, bottom: place.bottom,
                sides: [style.borderTopStyle, style.borderRightStyle, style.borderBottomStyle, style.borderLeftStyle]};
      }))""")
    assert len(boxes) == 2, boxes
    for first, second in boxes:
        assert first["sides"] == second["sides"] == ["solid"] * 4, (first, second)
        assert second["left"] - first["right"] >= 4, (first, second)
        assert first["top"] < second["bottom"] and second["top"] < first["bottom"], "on one line"
        assert 20 <= first["right"] - first["left"] <= 80


def test_a_printed_exercises_page_prints_a_projects_criteria_before_the_room_to_write(page,
                                                                                    book_server: str) -> None:
    """The criteria are a reveal of their own on screen, to read before solving; print left out every reveal,
    the criteria with the solution. Emulated print: no script opens them first."""
    page.goto(book_server + "en/demo/01-basics/exercises/")
    page.wait_for_selector("[data-zq-print]:not([hidden])")
    page.emulate_media(media="print")
    found = page.evaluate(f"""() => {{
      const exercise = document.querySelector("[data-zq-exercise=E2]");
      const criteria = exercise.querySelector("[data-zq-reveal=criteria] > :not(summary)");
      return {{criteria: ({SHOWN})(criteria), text: criteria.textContent.trim(),
               solution: ({SHOWN})(exercise.querySelector("[data-zq-reveal=solution] > :not(summary)")),
               before: criteria.getBoundingClientRect().bottom
                 <= exercise.querySelector("[data-zq-notes]").getBoundingClientRect().top,
               collapsed: ({SHOWN})(document.querySelector("[data-zq-exercise=E1] details.note > p"))}};
    }}""")
    assert found == {"criteria": True, "text": "It works and is explained.", "solution": False, "before": True,
                     "collapsed": True}


@pytest.fixture(scope="module")
def right_to_left_server(tmp_path_factory):
    work = tmp_path_factory.mktemp("right-to-left")
    site = build_site(right_to_left_site(work / "src") / "mkdocs.yml", work / "site")
    url, running = serve(site)
    yield url
    running.shutdown()


@pytest.mark.parametrize("lang, backwards", [("he/", True), ("", False)])
def test_a_books_way_back_points_back_in_the_pages_direction(page, right_to_left_server: str, lang: str,
                                                              backwards: bool) -> None:
    """"← Module 1" pointed forward on a page written right to left: there its arrow stands at the right of the
    words and is drawn pointing right, away from them."""
    page.goto(f"{right_to_left_server}{lang}units/01-measures/book/")
    found = page.evaluate("""() => {
      const link = document.querySelector(".zq-book__back a"), arrow = link.querySelector("[aria-hidden=true]");
      const words = document.createRange();
      words.setStart(arrow.nextSibling, 0);
      words.setEnd(link, link.childNodes.length);
      return {direction: getComputedStyle(link).direction, arrow: arrow.textContent,
              transform: getComputedStyle(arrow).transform,
              before: arrow.getBoundingClientRect().left < words.getBoundingClientRect().left};
    }""")
    # The arrow stands before the words, as the page reads: at their left, or at their right right to left.
    assert found["direction"] == ("rtl" if backwards else "ltr") and found["before"] is not backwards, found
    # Drawn the other way round (mirrored) right to left: pointing right, away from the words.
    assert found["arrow"] == "←"
    assert found["transform"] == ("matrix(-1, 0, 0, 1, 0, 0)" if backwards else "none"), found
