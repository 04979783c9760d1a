"""Footnotes in the author text of generated pages: each text (a question's, an explanation, a statement, a
solution…) keeps its notes, listed at its end, on every language's page and in the problem books."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from support.caching import add_to_config, cold_warm_uncached, edit
from support.sites import FIXTURE_SITE, build_failure, build_site, copy_site, two_module_site
from support.sources import line_with
from zadachnik.cli import main

MODULES = ("01-basics", "02-more")
QUIZ = "exercises/demo/01-basics/quiz.md"
# The texts with notes: (where in the source, what is added after it), in each language.
NOTED = {
    "exercises.md": [
        ("Посчитайте $\\sum_{i=1}^{n} i$.", "[^gauss]\n\n[^gauss]: Гаусс решил это школьником."),
        ("Compute $\\sum_{i=1}^{n} i$.", "[^gauss]\n\n[^gauss]: Gauss did it as a schoolboy."),
        # Another note named 1 in each of two texts of the page: each text its own.
        ("Сделайте проект.", "[^1]\n\n[^1]: Проектная сноска."),
        ("Build a project.", "[^1]\n\n[^1]: The project's note."),
        ("Свободная форма.", "[^1]\n\n[^1]: Сноска решения."),
        ("Free form.", "[^1]\n\n[^1]: The solution's note."),
    ],
    "quiz.md": [
        ("Сколько будет $2+2$?", "[^1]\n\n[^1]: В десятичной системе."),
        ("What is $2+2$?", "[^1]\n\n[^1]: In base ten."),
        ("Because $2+2=4$.", "[^1] [^1]\n\n[^1]: The explanation's note."),
    ],
}
# The note each text's reference leads to, by the words of the text.
EXPECTED = {
    "Посчитайте": "Гаусс решил это школьником.", "Compute": "Gauss did it as a schoolboy.",
    "Сделайте проект.": "Проектная сноска.", "Build a project.": "The project's note.",
    "Свободная форма.": "Сноска решения.", "Free form.": "The solution's note.",
    "Сколько будет": "В десятичной системе.", "What is": "In base ten.", "Because": "The explanation's note.",
}
PAGES = [f"{lang}demo/{module}/{page}/index.html" for lang in ("", "en/") for module in MODULES
         for page in ("quiz", "exercises", "book")] + ["demo/book/index.html", "en/demo/book/index.html"]


# A question with blanks shows its text twice, the second time with the answers filled in.
BLANKS = """
/// question | Q91
type: blanks
gaps:
  n: {answer: 4}

//// ru | Пропуск
Дважды два — [[gap:n]].[^why]

[^why]: Проверьте на пальцах.

explanation:
Четыре.
////

//// en | A blank
Twice two is [[gap:n]].[^why]

[^why]: Count on your fingers.

explanation:
Four.
////
///
"""
# A question whose variants' texts, and notes, differ.
VARIANTS = """
/// question | Q92
type: numeric
variants: {from: p92, count: 3}
fields:
  x: {answer: "x", atol: 0.001}

//// ru | Оценка
Примерно {{ x:.0f }}.[^near]

[^near]: Ближе к {{ x:.0f }}, чем к нулю.

fields:
- x: Число

explanation:
Это {{ x:.0f }}.
////

//// en | An estimate
About {{ x:.0f }}.[^near]

[^near]: Nearer {{ x:.0f }} than zero.

fields:
- x: Number

explanation:
It is {{ x:.0f }}.
////
///
"""
EXPECTED.update({"Дважды два": "Проверьте на пальцах.", "Twice two": "Count on your fingers."})


def footnoted_site(tmp_path: Path) -> Path:
    """The fixture site with two modules, Markdown's footnotes, notes in the texts of NOTED, and a question with
    blanks and one with variants, both with notes."""
    site = two_module_site(tmp_path)
    add_to_config(site, "  - attr_list\n", "  - attr_list\n  - footnotes\n")
    for module in MODULES:
        folder = site / "exercises/demo" / module
        for source, notes in NOTED.items():
            for text, added in notes:
                edit(folder / source, f"{text}\n", f"{text}{added}\n")
        (folder / "variants.py").write_text("def values():\n    return {}\n\n\n"
                                            "def p92(rng):\n    return {'x': rng.randint(10, 10**6)}\n")
        (folder / "module.yml").write_text((folder / "module.yml").read_text() + "values: variants.py\n")
        (folder / "quiz.md").write_text((folder / "quiz.md").read_text() + BLANKS + VARIANTS)
    edit(site / "docs/en/index.md", "$a^2+b^2=c^2$.", "$a^2+b^2=c^2$.[^own]\n\n[^own]: A page of the site's own.")
    return site


def text_of(reference) -> str:
    """The words of the paragraph a reference is in."""
    return reference.find_parent("p").get_text()


def test_each_texts_notes_are_at_its_end_on_every_page_and_in_the_books(tmp_path: Path) -> None:
    """Was a bug: Markdown lists a page's notes after its last text, which the page's assembly drops: the
    references led nowhere, and the notes' text was on no page."""
    out = build_site(footnoted_site(tmp_path) / "mkdocs.yml", tmp_path / "out")
    blank_answers = 0
    for page in PAGES:
        soup = BeautifulSoup((out / page).read_text(encoding="utf-8"), "html.parser")
        # Other variants' texts, which the browser swaps in for the page's own: parsed apart.
        variants = [BeautifulSoup(template.decode_contents(), "html.parser")
                    for template in soup.find_all("template", attrs={"data-zq-variant": True})]
        for template in soup.find_all("template", attrs={"data-zq-variant": True}):
            template.decompose()
        for part in [soup, *variants]:
            notes_lead_to_their_text(part, page)
        # The answer of the question with blanks repeats its text: it links the notes of the text shown first.
        for answer in soup.select(".zq-answer--blanks"):
            assert answer.select("a.footnote-ref") and not answer.select("[id], .footnote"), page
            blank_answers += 1
    # Each module's quiz page, its book and the course's book, in two languages.
    assert blank_answers == 2 * 3 * 2
    # A page of the site's own lists its notes at its end, as Markdown does.
    own = BeautifulSoup((out / "en/index.html").read_text(encoding="utf-8"), "html.parser")
    assert "A page of the site's own" in own.find(id=own.select_one("a.footnote-ref")["href"][1:]).get_text()


def notes_lead_to_their_text(part, page: str) -> None:
    """Each reference in `part` of `page` (the page, a variant's texts) leads to its text's own note, listed in
    `part` after that text, and back; no note's id is given twice."""
    ids = [element["id"] for element in part.select("[id^='fn']")]
    assert len(ids) == len(set(ids)), f"{page}: a note's id twice"
    references = part.select("a.footnote-ref")
    assert references, page
    for reference in references:
        note = part.find(id=reference["href"].removeprefix("#"))
        assert note is not None, f"{page}: {reference} leads nowhere"
        expected = [note_text for words, note_text in EXPECTED.items() if words in text_of(reference)]
        if not expected:
            # A variant's note names the variant's figure.
            figure = re.search(r"\d{2,}", text_of(reference))[0]
            expected = [f"{'Ближе к' if 'Примерно' in text_of(reference) else 'Nearer'} {figure}"]
        assert expected[0] in note.get_text(), f"{page}: {text_of(reference)!r} leads to {note.get_text()!r}"
        # Listed at the end of the text that refers to it, so a solution's note stays with the solution.
        assert reference in note.find_parent("div", class_="footnote").parent.descendants, page
    for back in part.select("a.footnote-backref"):
        assert part.find(id=back["href"].removeprefix("#")) is not None, f"{page}: {back} leads nowhere"


def fixture_with_footnotes(tmp_path: Path) -> Path:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    add_to_config(site, "  - attr_list\n", "  - attr_list\n  - footnotes\n")
    return site


def test_a_reference_to_a_note_of_another_text_stops_the_build_and_the_check_at_its_line(
        tmp_path: Path, caplog, capsys) -> None:
    """A note is listed after the text that holds it: a reference from another text (the explanation, which the
    page hides until checked; a title) would lead elsewhere on the page, or nowhere in a book."""
    site = fixture_with_footnotes(tmp_path)
    quiz = site / QUIZ
    edit(quiz, "What is $2+2$?\n", "What is $2+2$?[^ten]\n\n[^ten]: In base ten.\n")
    edit(quiz, "Because $2+2=4$.\n", "Because $2+2=4$[^ten].\n")
    edit(quiz, "//// en | One answer\n", "//// en | One answer[^ten]\n")
    text = quiz.read_text(encoding="utf-8")
    expected = [f"{QUIZ}:{line_with(text, needle)}: the footnote [^ten] is not written in this text: each text lists "
                "its own notes at its end (write '[^ten]: …' in the text that refers to it; a title, an option or a "
                "field label holds no notes)" for needle in ("One answer[^ten]", "Because $2+2=4$[^ten].")]
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert all(line in message for line in expected), message
    assert main(["check", "--no-cache", "--config", str(site / "mkdocs.yml")]) == 1
    report = capsys.readouterr().err
    assert all(line in report for line in expected), report


def test_a_note_in_an_option_stops_the_build_and_the_check_at_its_line(tmp_path: Path, caplog, capsys) -> None:
    """An option is shown as one line, where no list of notes goes: Markdown reads an option written as a note
    ('A. [^1]: …') as one. Was a bug: the check, which assembles no page, said the source was fine."""
    site = fixture_with_footnotes(tmp_path)
    quiz = site / QUIZ
    edit(quiz, "A. Three\n", "A. [^1]: Three\n")
    line = line_with(quiz.read_text(encoding="utf-8"), "A. [^1]: Three")
    expected = f"{QUIZ}:{line}: a title, an option or a field label holds a footnote's note"
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert expected in message, message
    assert main(["check", "--no-cache", "--config", str(site / "mkdocs.yml")]) == 1
    report = capsys.readouterr().err
    assert expected in report, report


@pytest.mark.parametrize("definition_order", [True, False])
def test_a_texts_notes_are_listed_in_the_order_of_their_numbers(tmp_path: Path, definition_order: bool) -> None:
    """Was a bug: with USE_DEFINITION_ORDER: false a text's references are numbered in the order they come, but
    its notes were listed in the order written: superscript 1 led to item 2 of the list."""
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    add_to_config(site, "  - attr_list\n",
                  f"  - attr_list\n  - footnotes:\n      USE_DEFINITION_ORDER: {str(definition_order).lower()}\n")
    edit(site / QUIZ, "What is $2+2$?\n",
         "What is $2+2$? First B[^b], then A[^a].\n\n[^a]: Note A.\n[^b]: Note B.\n")
    out = build_site(site / "mkdocs.yml", tmp_path / "out")
    soup = BeautifulSoup((out / "en/demo/01-basics/quiz/index.html").read_text(encoding="utf-8"), "html.parser")
    references = soup.find(string=re.compile("First B")).find_parent("p").select("a.footnote-ref")
    listed = references[0].find_parent("div").select(".footnote > ol > li")
    assert [reference.get_text() for reference in references] == (["2", "1"] if definition_order else ["1", "2"])
    for reference in references:
        number = int(reference.get_text())
        assert listed[number - 1]["id"] == reference["href"].removeprefix("#")
        back = listed[number - 1].select_one("a.footnote-backref")
        assert back["title"] == f"Jump back to footnote {number} in the text"


def test_a_warm_build_with_notes_writes_what_a_build_without_the_cache_does(tmp_path: Path) -> None:
    """The course's book is assembled again from a kept module's stored pieces and an edited module's fresh
    ones: their notes and ids are as a build without the cache makes them."""
    site = footnoted_site(tmp_path)
    cold_warm_uncached(site, tmp_path, lambda: edit(site / "exercises/demo/02-more/exercises.md",
                                                    "Gauss did it as a schoolboy.", "Gauss did it at school."))
    assert "Gauss did it at school." in (tmp_path / "warm/en/demo/book/index.html").read_text(encoding="utf-8")
