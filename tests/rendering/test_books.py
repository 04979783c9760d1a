"""The problem books' HTML on a site built once with their hard cases (support.sites.book_sources): module 1 is
practice, module 2 the same module as an exam, and the course's book gathers both. tests/browser/test_print.py
prints books; tests/browser/test_book_pages.py looks at these in a browser. At the end, how a piece's addresses are
moved from its module's page into a book, which needs no site."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from zadachnik.rendering.book import Mover, book_address
from zadachnik.rendering.i18n import strings

LANGS = {"en": "en/", "ru": ""}
# What a practice module's book prints at the back and an exam's must not: a hint, an explanation, a solution.
BACK = {"en": ["HINT-D1", "EXPLANATION-D1", "Because", "SOLUTION-A", "Free form"],
        "ru": ["ПОДСКАЗКА-Д1", "ОБЪЯСНЕНИЕ-Д1", "Потому что", "SOLUTION-A", "Свободная форма"]}


def book(site: Path, lang: str, module: str | None) -> BeautifulSoup:
    folder = f"demo/{module}" if module else "demo"
    return BeautifulSoup((site / LANGS[lang] / folder / "book/index.html").read_text(encoding="utf-8"), "html.parser")


def ids_of(page: BeautifulSoup, attribute: str) -> list[str]:
    return [element[attribute] for element in page.select(f"[{attribute}]")]


@pytest.mark.parametrize("lang", LANGS)
def test_an_exam_modules_book_prints_its_statements_only_and_says_why(book_site: Path, lang: str) -> None:
    practice, exam = book(book_site, lang, "01-basics"), book(book_site, lang, "02-more")
    # The practice book has every part: the checks below can fail.
    assert practice.select("[data-zq-book-hint]") and practice.select("[data-zq-book-answer]")
    assert all(text in practice.get_text() for text in BACK[lang])
    assert ids_of(exam, "data-zq-book-question") == ids_of(practice, "data-zq-book-question")
    assert ids_of(exam, "data-zq-book-exercise") == ids_of(practice, "data-zq-book-exercise")
    assert exam.select("[data-zq-book-hint], [data-zq-book-hints], [data-zq-book-answer], [data-zq-book-answers]") \
        == []
    assert [text for text in BACK[lang] if text in exam.get_text()] == []
    # Nor does its contents lead to them.
    assert [a["href"] for a in exam.select(".md-nav--secondary a") if "hints" in a["href"] or "answers" in a["href"]] \
        == []
    [line] = exam.select("[data-zq-book-exam]")
    assert line.get_text(strip=True) == strings(lang)["book_exam"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_course_book_leaves_out_the_exam_modules_hints_and_answers(book_site: Path, lang: str) -> None:
    course = book(book_site, lang, None)
    answers = ids_of(course, "data-zq-book-answer")
    hints = [element["id"] for element in course.select("[data-zq-book-hint]")]
    assert answers and hints and all(element.startswith("m1-") for element in hints)
    assert [element["id"] for element in course.select("[data-zq-book-answer]") if element["id"].startswith("m2-")] \
        == []
    assert [element["id"] for element in course.select("[data-zq-book-question]")
            if element["id"].startswith("m2-")], "the exam's statements are printed"
    [line] = course.select("#m2-module ~ [data-zq-book-exam]")
    assert line.get_text(strip=True) == strings(lang)["book_exam"]


BOOKS = ["en/demo/01-basics/book/index.html", "demo/01-basics/book/index.html", "en/demo/book/index.html",
         "demo/book/index.html"]


@pytest.mark.parametrize("page", BOOKS)
def test_every_in_page_link_of_a_book_leads_to_its_one_target(book_site: Path, page: str) -> None:
    """A book holds text from several pages (a module's quiz and exercises, every module in a course's book), each
    of which named its ids alone: a heading's id and its ¶, a link to it, content tabs' inputs and labels. Every
    id is there once, and every link on the page, label of the book and radio group of a tab set finds its own."""
    soup = BeautifulSoup((book_site / page).read_text(encoding="utf-8"), "html.parser")
    ids = [element["id"] for element in soup.select("[id]")]
    assert [anchor for anchor in set(ids) if ids.count(anchor) > 1] == []
    links = [a["href"][1:] for a in soup.select("a[href^='#']") if a["href"] != "#"]
    # The author's own heading and its ¶ are among them: the check covers their ids.
    assert len([link for link in links if link.endswith("rayleigh")]) >= 2
    assert [link for link in links if link not in ids] == []
    labels = [label["for"] for label in soup.select(".zq-book label[for]")]
    assert labels and [label for label in labels if label not in ids] == []
    groups = [{radio["name"] for radio in tabs.select(":scope > input")} for tabs in soup.select(".tabbed-set")]
    assert len(groups) >= 2 and all(len(group) == 1 for group in groups)
    assert len(set.union(*groups)) == len(groups), groups


@pytest.mark.parametrize("page", BOOKS)
def test_a_books_svg_and_raw_html_ids_keep_their_references(book_site: Path, page: str) -> None:
    """An inline SVG's url(#…) and <use href>, and a link to a raw-HTML id in single quotes, find their renamed
    ids: the diagram lost its arrow and gradient, and the link dangled."""
    soup = BeautifulSoup((book_site / page).read_text(encoding="utf-8"), "html.parser")
    ids = {element["id"] for element in soup.select("[id]")}
    svg_references = [found for element in soup.select(".zq-book svg *") for value in element.attrs.values()
                      for found in re.findall(r"url\(#([^)]*)\)", str(value))]
    svg_references += [use["href"][1:] for use in soup.select(".zq-book svg use")]
    assert len(svg_references) >= 3 and [name for name in svg_references if name not in ids] == []
    single = [a["href"][1:] for a in soup.select("a[href^='#']") if a["href"].endswith("single")]
    assert single and [name for name in single if name not in ids] == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_books_gaps_say_their_tolerance_as_the_quiz_page_does(book_site: Path, lang: str) -> None:
    quiz = BeautifulSoup((book_site / LANGS[lang] / "demo/01-basics/quiz/index.html").read_text(encoding="utf-8"),
                         "html.parser")
    on_page = [note.get_text(strip=True) for note in quiz.select("[data-zq-question=B1] .zq-gap-notes li")]
    # The number gap is the second: the first is a choice of words.
    tolerance = strings(lang)["atol"].format(value="0,001" if lang == "ru" else "0.001")
    assert on_page == [strings(lang)["gap_note"].format(number=2, tolerance=tolerance)]
    for module in ("01-basics", "02-more"):
        statement = book(book_site, lang, module).select_one("[data-zq-book-question=B1]")
        assert [note.get_text(strip=True) for note in statement.select(".zq-gap-notes li")] == on_page, module


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("module", ["01-basics", "02-more", None])
def test_a_books_exercise_has_its_criteria_and_room_to_write_up_front(book_site: Path, lang: str,
                                                                       module: str | None) -> None:
    """A project's criteria are read before solving (the page shows them apart from the solution): the book
    printed them only at the back, after the solution. Every exercise gets the box to write in that the
    exercises page prints."""
    t = strings(lang)
    criteria = {"en": "It works and is explained.", "ru": "Работает и объяснено."}[lang]
    page = book(book_site, lang, module)
    exercises = page.select("[data-zq-book-exercise]")
    assert len(exercises) == (4 if module is None else 2)
    for exercise in exercises:
        labels = [label.get_text(strip=True) for label in exercise.select(".zq-book__label")]
        assert labels[-1] == t["exercise_notes_label"], labels
        assert exercise.select(".zq-book__label ~ .zq-book__space")
        has_criteria = exercise["data-zq-book-exercise"] == "E2"
        assert (t["criteria"] in labels) is has_criteria and (criteria in exercise.get_text()) is has_criteria
    assert [answer for answer in page.select("[data-zq-book-answer]") if criteria in answer.get_text()] == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("module", ["01-basics", None])
def test_a_books_notebook_line_names_the_course_files_and_links_them(book_site: Path, lang: str,
                                                                    module: str | None) -> None:
    """"Notebook notebook.ipynb, section 1" named no place to find it: the book names the module's zip, links it
    and says which button of the site's pages downloads it."""
    folder = book_site / LANGS[lang] / (f"demo/{module}" if module else "demo") / "book"
    page = book(book_site, lang, module)
    with_notebooks = [element for element in page.select("[data-zq-book-exercise]") if element.select(".zq-notebooks")]
    slugs = [module] if module else ["01-basics", "02-more"]
    assert len(with_notebooks) == len(slugs)
    for exercise, slug in zip(with_notebooks, slugs, strict=True):
        [link] = exercise.select("a[href$='.zip']")
        assert link.get_text(strip=True) == f"{slug}-files.zip"
        assert (folder / link["href"]).resolve() == (book_site / f"demo/{slug}/{slug}-files.zip").resolve()
        assert strings(lang)["download_files"] in exercise.get_text()


# The module's page as MkDocs writes the book's link to it: relative to the book's address.
@pytest.mark.parametrize("module_page, prefix, address, expected", [
    # A module's own book, beside its pages (folder URLs): references lead into the book, the rest stays.
    ("../quiz/", "", "#q-1", "#q-1"),
    ("../quiz/", "", "../exercises/#e-E1", "#e-E1"),
    # The author's own ids on the page take its name: the exercises page has ids of the same names.
    ("../quiz/", "", "#rayleigh", "#quiz-rayleigh"),
    ("../quiz/", "", "#e-mail", "#quiz-e-mail"),
    ("../quiz/", "", "../exercises/#rayleigh", "../exercises/#rayleigh"),
    ("../quiz/", "", "../files/plot.png", "../files/plot.png"),
    ("../quiz/", "", "../../../authoring/#tolerances", "../../../authoring/#tolerances"),
    ("../quiz/", "", "https://example.org/x", "https://example.org/x"),
    # The course's book, a folder up: each module's anchors carry its number, addresses move with the page.
    ("../09-x/quiz/", "m9-", "#s-9.6", "#m9-s-9.6"),
    ("../09-x/quiz/", "m9-", "#rayleigh", "#m9-quiz-rayleigh"),
    ("../09-x/quiz/", "m9-", "../exercises/#e-E1", "#m9-e-E1"),
    ("../09-x/quiz/", "m9-", "../files/plot.png", "../09-x/files/plot.png"),
    ("../09-x/quiz/", "m9-", "../../../authoring/", "../../authoring/"),
    ("../09-x/quiz/", "m9-", "../../10-y/quiz/#q-1", "../10-y/quiz/#q-1"),
    ("../09-x/quiz/", "m9-", "../../", "../"),
    # .html URLs (the offline copy).
    ("09-x/quiz.html", "m9-", "exercises.html#e-E1", "#m9-e-E1"),
    ("09-x/quiz.html", "m9-", "files/plot.png", "09-x/files/plot.png"),
    ("09-x/quiz.html", "m9-", "../../authoring.html", "../authoring.html"),
    ("quiz.html", "", "exercises.html#e-E1", "#e-E1"),
    ("quiz.html", "", "../../index.html", "../../index.html"),
])
def test_a_books_addresses_are_moved_from_the_module_page(module_page: str, prefix: str, address: str,
                                                          expected: str) -> None:
    mover = Mover(book_address(module_page), module_page, prefix, "quiz-", frozenset({"q-1", "s-9.6", "e-E1"}))
    assert mover.piece(f'<a href="{address}">link</a>') == f'<a href="{expected}">link</a>'


def test_a_books_css_addresses_are_moved_as_its_links_are() -> None:
    """A style's url() to a file of the module is relative to the module's page, as an <img>'s src is."""
    mover = Mover("file:///up/book/", "../09-x/quiz/", "m9-", "quiz-")
    assert mover.piece('<div style="background: url(\'../files/plot.png\')">') == \
        '<div style="background: url(&#x27;../09-x/files/plot.png&#x27;)">'
