"""Issue 16, on paper: a quiz page prints without its controls, reveals or Material's chrome, with a line or a box
where the learner writes (or their saved answers, with "Print my answers"); each module, and each course of two
modules or more, has a problem book, statements first and "Answers and solutions" at the back; `zadachnik pdf`
prints the books as PDF files.

The fixture site's course has one module, so it has no course book; the course book's tests take the fixture site
with a second module (`course_site`)."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from support.browser import serve, shuffled_order
from support.sites import ROOT, build_site, two_module_site
from zadachnik import cli
from zadachnik.reading.model import load_courses

QUIZ = "en/demo/01-basics/quiz/index.html"
EXERCISES = "en/demo/01-basics/exercises/index.html"
BOOKS = {"en": "en/demo/01-basics/book/index.html", "ru": "demo/01-basics/book/index.html"}
HINTS_SHUFFLE = ROOT / "tests" / "fixtures" / "hints-shuffle"
COURSE_BOOKS = {"en": "en/demo/book/index.html", "ru": "demo/book/index.html"}
QUESTION_WORD = {"en": "Question", "ru": "Вопрос"}
ANSWERS_HEADING = {"en": "Answers and solutions", "ru": "Ответы и решения"}
# What a printed quiz page must not show: controls, notices, reveals and Material's chrome. A project's criteria,
# read before solving, are the one reveal that prints (tests/browser/test_book_pages.py).
REVEAL = ".zq-reveal:not([data-zq-reveal=criteria])"
CHROME = ("button, .md-button, input[type=file], .zq-tools, .zq-tools__result, .zq-storage, .zq-progress, .zq-python, "
          f".zq-files, .zq-print, .zq-instruction, .zq-note, .zq-actions, .zq-verdict, {REVEAL}, .zq-code__editor, "
          ".zq-code__buttons, .zq-code__output, .zq-code__tests, .md-header, .md-tabs, .md-sidebar, .md-footer")
SHOWN = "(el) => el.checkVisibility({visibilityProperty: true, opacityProperty: true})"


@pytest.fixture(scope="module")
def course_site(tmp_path_factory) -> Path:
    """The fixture site with a second module (a copy of the first), whose course has a book of its own. The second
    module's first explanation refers to its exercises, a question and a section, which the course's book numbers
    by module."""
    work = tmp_path_factory.mktemp("course-book")
    source = two_module_site(work)
    quiz = source / "exercises/demo/02-more/quiz.md"
    references = " [[E1]], [[E2]], [[Q2]], [[Q3]], [[1.1]]."
    quiz.write_text(quiz.read_text(encoding="utf-8").replace("Потому что $2+2=4$.", "Потому что $2+2=4$." + references)
                    .replace("Because $2+2=4$.", "Because $2+2=4$." + references), encoding="utf-8")
    return build_site(source / "mkdocs.yml", work / "site")


@pytest.fixture(scope="module")
def course_server(course_site: Path):
    url, running = serve(course_site)
    yield url
    running.shutdown()


def soup(site: Path, page: str) -> BeautifulSoup:
    return BeautifulSoup((site / page).read_text(encoding="utf-8"), "html.parser")


def module_ids(site: Path, lang_prefix: str = "en/") -> tuple[list[str], list[str]]:
    """The module's question ids and exercise ids, in the order its own pages show them."""
    quiz = soup(site, QUIZ.replace("en/", lang_prefix, 1))
    exercises = soup(site, EXERCISES.replace("en/", lang_prefix, 1))
    return ([section["data-zq-question"] for section in quiz.select("[data-zq-question]")],
            [section["data-zq-exercise"] for section in exercises.select("[data-zq-exercise]")])


def chrome_shown(page) -> dict:
    return page.evaluate(f"""() => {{
      const chrome = [...document.querySelectorAll({CHROME!r})];
      return {{count: chrome.length, shown: chrome.filter({SHOWN}).map((el) => el.outerHTML.slice(0, 90))}};
    }}""")


def open_quiz(page, fixture_server: str, path: str = QUIZ) -> None:
    page.goto(fixture_server + path.removesuffix("index.html"))
    # The runtime has started: it shows the "Print my answers" button.
    page.wait_for_selector("[data-zq-print]:not([hidden])")


@pytest.mark.parametrize("path", [QUIZ, EXERCISES])
def test_a_printed_page_shows_no_controls_reveals_or_chrome(page, fixture_server: str, path: str) -> None:
    open_quiz(page, fixture_server, path)
    # Reveals opened on screen stay out of the print too.
    page.evaluate("() => document.querySelectorAll('.zq-reveal').forEach((d) => { d.open = true; })")
    on_screen = chrome_shown(page)
    # The same check on screen finds the controls: it can fail.
    assert on_screen["count"] > 10 and len(on_screen["shown"]) > 10, on_screen
    page.emulate_media(media="print")
    printed = chrome_shown(page)
    assert printed["count"] == on_screen["count"] and printed["shown"] == [], printed["shown"]
    # No reveal opens on paper, not even one opened on screen.
    assert page.evaluate(f"() => [...document.querySelectorAll('{REVEAL}')].filter({SHOWN}).length") == 0


def test_a_printed_question_is_never_split_and_leaves_room_to_write(page, fixture_server: str) -> None:
    open_quiz(page, fixture_server)
    page.fill("[data-zq-question=Q3] [data-zq-input]", "42")
    page.fill("[data-zq-question=Q5] [data-zq-notes]", "My own answer")
    before = page.evaluate("() => getComputedStyle(document.querySelector('.zq-question')).breakInside")
    assert before != "avoid"
    page.emulate_media(media="print")
    found = page.evaluate(f"""() => {{
      const style = (selector) => getComputedStyle(document.querySelector(selector));
      return {{
        breaks: [...document.querySelectorAll(".zq-question")].map((q) => getComputedStyle(q).breakInside),
        field: [style("[data-zq-question=Q3] [data-zq-input]").color,
                style("[data-zq-question=Q3] [data-zq-input]").borderBottomStyle],
        notes: [style("[data-zq-question=Q5] [data-zq-notes]").color,
                style("[data-zq-question=Q5] [data-zq-notes]").borderTopStyle,
                ({SHOWN})(document.querySelector("[data-zq-question=Q5] [data-zq-notes]"))],
        option: style("[data-zq-question=Q1] [data-zq-option]").appearance,
        math: [...document.querySelectorAll(".zq-question .katex-html")].filter({SHOWN}).length,
      }};
    }}""")
    assert found["breaks"] and set(found["breaks"]) == {"avoid"}
    # A blank line and a blank box: what the learner typed is not printed unless they ask for it.
    assert found["field"] == ["rgba(0, 0, 0, 0)", "solid"]
    assert found["notes"] == ["rgba(0, 0, 0, 0)", "solid", True]
    assert found["option"] == "none"
    assert found["math"] > 0


def test_print_my_answers_prints_the_saved_answers_then_blank_again(page, fixture_server: str) -> None:
    open_quiz(page, fixture_server)
    page.fill("[data-zq-question=Q3] [data-zq-input]", "42")
    page.check("[data-zq-question=Q1] [data-zq-option]")
    # The dialog itself can't be driven: what the page looks like when print() is called is recorded instead.
    page.evaluate(f"""() => {{
      window.print = () => {{
        const shown = (selector) => getComputedStyle(document.querySelector(selector));
        window.zqPrinted = {{
          field: shown("[data-zq-question=Q3] [data-zq-input]").color,
          option: shown("[data-zq-question=Q1] [data-zq-option]").appearance,
          button: ({SHOWN})(document.querySelector("[data-zq-print]")),
        }};
      }};
    }}""")
    page.emulate_media(media="print")
    page.evaluate("() => document.querySelector('[data-zq-print]').click()")
    assert page.evaluate("() => window.zqPrinted") == {"field": "rgb(0, 0, 0)", "option": "none", "button": False}
    assert page.evaluate("() => document.documentElement.classList.contains('zq-print-answers')")
    page.evaluate("() => window.dispatchEvent(new Event('afterprint'))")
    field = "document.querySelector('[data-zq-question=Q3] [data-zq-input]')"
    assert page.evaluate(f"() => getComputedStyle({field}).color") == "rgba(0, 0, 0, 0)"


def test_formula_and_blanks_print_blank_unless_the_learner_asks(page, sample_server: str) -> None:
    """A formula's box and a text's gaps print as lines to write on, as a numeric field does, and the line that
    says how the formula was read is left out: a sheet printed after trying the quiz showed the answers typed."""
    open_quiz(page, sample_server, "en/rl-for-llm/12-infrastructure/quiz/")
    page.fill("[id='q-P02a'] [data-zq-input='expression']", "16*N/10^9")
    page.fill("#zq-P07a-rho", "0.889")
    page.select_option("#zq-P07a-trend", index=1)
    page.emulate_media(media="print")
    controls = ["[id='q-P02a'] [data-zq-input='expression']", "#zq-P07a-rho", "#zq-P07a-trend"]
    colours = "(selectors) => selectors.map((selector) => getComputedStyle(document.querySelector(selector)).color)"
    assert page.evaluate(colours, controls) == ["rgba(0, 0, 0, 0)"] * 3
    assert not page.evaluate(f"({SHOWN})(document.querySelector(\"[id='q-P02a'] [data-zq-formula-preview]\"))")
    page.evaluate("() => document.documentElement.classList.add('zq-print-answers')")
    assert page.evaluate(colours, controls) == ["rgb(0, 0, 0)"] * 3


@pytest.fixture(scope="module")
def hints_shuffle_server(tmp_path_factory):
    """tests/fixtures/hints-shuffle built and served: SV is drawn in variants and shuffles its options."""
    site = build_site(HINTS_SHUFFLE / "mkdocs.yml", tmp_path_factory.mktemp("print-hints-shuffle") / "site")
    url, running = serve(site)
    yield url
    running.shutdown()


def test_print_my_answers_prints_the_learners_own_variant_and_order(page, hints_shuffle_server: str,
                                                                    tmp_path: Path) -> None:
    """Issue 28: the page shows the learner's variant and order of options, and so does their printed page, while
    the book prints variant 1 in the author's order."""
    [course] = load_courses(HINTS_SHUFFLE / "exercises", ["ru", "en"], HINTS_SHUFFLE)
    [question] = [q for q in course.modules[0].questions if q.id == "SV"]
    count = len(question.variants.items)
    # The last variant, whose figures the book does not print; a seed that does not show the author's order.
    number, values = count, question.variants.items[-1].values
    assert values != question.variants.items[0].values
    seed = next(f"{n:08x}" for n in range(1, 1000) if shuffled_order(list("ABC"), f"{n:08x}", "SV") != list("ABC"))
    order = shuffled_order(list("ABC"), seed, "SV")
    url = hints_shuffle_server + "en/hs/01-hints/quiz/"
    page.goto(url)
    page.evaluate("([seed, entry]) => { localStorage.setItem('zadachnik-seed', seed);"
                  " localStorage.setItem('zadachnik:hs/1/SV', JSON.stringify(entry)); }",
                  [seed, {"v": 1, "variant": number}])
    page.goto(url)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.wait_for_selector("#q-SV[data-zq-shuffled]", state="attached")
    page.check(f"#q-SV .zq-option input[value={order[0]}]")
    page.evaluate("() => { window.print = () => {}; document.querySelector('[data-zq-print]').click(); }")
    page.emulate_media(media="print")
    printed = page.evaluate(f"""() => {{
      const question = document.querySelector("#q-SV");
      const line = question.querySelector("[data-zq-variant-line]");
      return {{
        line: ({SHOWN})(line) ? line.textContent : null,
        body: question.querySelector(".zq-question__body annotation").textContent,
        options: [...question.querySelectorAll(".zq-option")].filter({SHOWN}).map((option) =>
          [option.querySelector("input").value, option.querySelector(".zq-marker").textContent,
           option.querySelector("input").checked]),
      }};
    }}""")
    assert printed["line"] == f"Variant {number} of {count}"
    assert printed["body"] == f"{values['a']} + {values['b']}"
    assert printed["options"] == [[key, f"{'ABC'[place]}.", place == 0] for place, key in enumerate(order)]
    # On paper too: Chromium's own print of the page.
    pdf = tmp_path / "quiz.pdf"
    page.pdf(path=str(pdf))
    assert f"Variant {number} of {count}" in pdf_text(pdf)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_problem_book_has_every_statement_then_every_answer(fixture_site: Path, lang: str) -> None:
    questions, exercises = module_ids(fixture_site, "en/" if lang == "en" else "")
    assert len(questions) == 8 and len(exercises) == 2
    book = soup(fixture_site, BOOKS[lang]).select_one("[data-zq-book]")
    assert book is not None and book["data-zq-lang"] == lang
    answers = book.select_one("[data-zq-book-answers]")
    statements = [el["data-zq-book-question"] for el in book.select("[data-zq-book-question]")]
    assert statements == questions
    assert [el["data-zq-book-exercise"] for el in book.select("[data-zq-book-exercise]")] == exercises
    assert [el["data-zq-book-answer"] for el in answers.select("[data-zq-book-answer]")] == questions + exercises
    # Statements come before the answers; nothing of the answers is up front.
    up_front = book.select("[data-zq-book-question], [data-zq-book-exercise]")
    assert not any(el.find_parent(attrs={"data-zq-book-answers": True}) for el in up_front)
    assert answers.find("h2").get_text() == ANSWERS_HEADING[lang]
    text = book.get_text(" ")
    front, back = text.split(ANSWERS_HEADING[lang], 1)
    shown_ids = [f"{QUESTION_WORD[lang]} {question}" for question in questions]
    assert [front.index(shown) for shown in shown_ids] == sorted(front.index(shown) for shown in shown_ids)
    assert all(shown in back for shown in shown_ids)
    # No controls, no script: a page to read and print.
    assert book.select("[data-zq-option], [data-zq-input], [data-zq-select], [data-zq-notes], [data-zq-source], "
                       "button, script, .zq-reveal") == []
    # Code: the starter up front, the reference solution only at the back.
    code = book.select_one("[data-zq-book-question=Q7]")
    assert code.select_one(".zq-book__starter") is not None and code.select_one(".zq-solution") is None
    assert answers.select_one("[data-zq-book-answer=Q7] .zq-solution") is not None
    # Numeric fields: a line with the unit; choices: a box per option; matching: a table to fill.
    assert book.select("[data-zq-book-question=Q3] .zq-book__line")
    assert len(book.select("[data-zq-book-question=Q1] .zq-book__box")) >= 2
    assert book.select("[data-zq-book-question=Q4] table.zq-book__matching td.zq-book__cell")


def test_the_course_book_gathers_its_modules_books(course_site: Path) -> None:
    questions, exercises = module_ids(course_site)
    book = soup(course_site, COURSE_BOOKS["en"]).select_one("[data-zq-book]")
    assert [el["id"] for el in book.select("[data-zq-book-question]")] \
        == [f"m{module}-q-{q}" for module in (1, 2) for q in questions]
    assert [el["data-zq-book-answer"] for el in book.select("[data-zq-book-answers] [data-zq-book-answer]")] \
        == (questions + exercises) * 2


@pytest.mark.parametrize(("lang", "title"), [("", "Демокурс · Задачник курса"),
                                           ("en/", "Demo course · Course problem book")])
def test_the_course_books_title_names_its_course(course_site: Path, lang: str, title: str) -> None:
    assert soup(course_site, lang + "demo/book/index.html").title.get_text().startswith(title)


@pytest.mark.parametrize("lang", ["", "en/"])
def test_a_course_of_one_module_has_no_book_of_its_own(fixture_site: Path, lang: str) -> None:
    """It would be its module's book again under another title: in the navigation, and printed twice."""
    assert (fixture_site / lang / "demo/01-basics/book/index.html").is_file()
    assert not (fixture_site / lang / "demo/book").exists()
    nav = soup(fixture_site, QUIZ.replace("en/", lang, 1)).select(".md-nav--primary a.md-nav__link[href]")
    assert "../../book/" not in [a["href"] for a in nav]


@pytest.mark.parametrize("page", ["en/modern-llms/09-pretraining/book/index.html",
                                  "modern-llms/09-pretraining/book/index.html", *COURSE_BOOKS.values()])
def test_a_reference_in_a_book_leads_to_its_target_in_the_book(sample_site: Path, course_site: Path,
                                                               page: str) -> None:
    """`[[E1]]` links the quiz to the exercises page; in a book both are on one page, and in a course's book every
    module's ids carry its number. (The way back and the course files' zip lead out of the book.)"""
    book = soup(course_site if page in COURSE_BOOKS.values() else sample_site, page).select_one("[data-zq-book]")
    links = [a["href"] for a in book.select("a[href]") if "headerlink" not in (a.get("class") or [])
             and a.find_parent(class_=["zq-book__back", "zq-book__files"]) is None]
    assert len(links) >= 5 and all(href.startswith("#") for href in links), links
    ids = {element["id"] for element in book.select("[id]")}
    assert {href[1:] for href in links} <= ids


def test_the_books_are_linked_from_the_module_pages_and_the_navigation(course_site: Path) -> None:
    for page in (QUIZ, EXERCISES):
        link = soup(course_site, page).select_one(".zq-print a")
        assert link is not None and link["href"] == "../book/" and link.get_text() == "Problem book to print"
    nav = soup(course_site, QUIZ).select(".md-nav--primary a.md-nav__link[href]")
    hrefs = [a["href"] for a in nav]
    assert "../book/" in hrefs and "../../book/" in hrefs, hrefs


@pytest.mark.parametrize("page, back", [(BOOKS["en"], "../quiz/"), (BOOKS["ru"], "../quiz/"),
                                        (COURSE_BOOKS["en"], None)])
def test_a_book_page_has_no_site_navigation_but_leads_back_to_its_module(course_site: Path, page: str,
                                                                        back: str | None) -> None:
    """A book is read and printed: the site's navigation is left out of its page (at 1,000 questions, rendering it
    beside every book was a sixth of the build); its own contents stay, and a module's book links its module."""
    book = soup(course_site, page)
    assert book.select(".md-nav--primary a.md-nav__link[href]") == []
    assert book.select(".md-nav--secondary a[href^='#']"), "the book's own contents"
    link = book.select_one(".zq-book__back a")
    if back is None:
        assert link is None
    else:
        assert link is not None and link["href"] == back
        assert (course_site / page).parent.joinpath(back, "index.html").resolve().is_file()
        assert link.get_text(strip=True).startswith("←")
    # The header's logo leads to the home page in the book's language (it led to the site's root folder: the
    # first language's home, or a folder listing in a copy opened from disk).
    home = "en/index.html" if page.startswith("en/") else "index.html"
    logo = book.select_one("a.md-logo")["href"]
    assert (course_site / page).parent.joinpath(logo).resolve() in {(course_site / home).resolve(),
                                                                     (course_site / home).parent.resolve()}, logo


def test_the_book_prints_its_answers_from_a_new_page(page, fixture_server: str) -> None:
    page.goto(fixture_server + BOOKS["en"].removesuffix("index.html"))
    page.emulate_media(media="print")
    assert page.evaluate("() => getComputedStyle(document.querySelector('[data-zq-book-answers]')).breakBefore") \
        == "page"
    assert page.evaluate("() => getComputedStyle(document.querySelector('[data-zq-book-answer]')).breakInside") \
        == "avoid"
    assert chrome_shown(page)["shown"] == []


def test_the_book_prints_each_round_of_hints_and_the_answers_from_a_new_page(page, hints_shuffle_server: str,
                                                                            tmp_path: Path) -> None:
    """Issue 28, item 8: a reader looking up a first hint sees no later hint (H1's third is nearly its answer) and
    no answer: every round of hints starts a page, and so do the answers."""
    page.goto(hints_shuffle_server + "en/hs/01-hints/book/")
    page.emulate_media(media="print")
    breaks = page.evaluate("() => [...document.querySelectorAll('[data-zq-book-hint-round], [data-zq-book-answers]')]"
                           ".map((element) => [element.dataset.zqBookHintRound || 'answers',"
                           " getComputedStyle(element).breakBefore])")
    assert breaks == [["1", "page"], ["2", "page"], ["3", "page"], ["answers", "page"]]
    pdf = tmp_path / "book.pdf"
    page.pdf(path=str(pdf))
    pages = pdf_text(pdf).split("\f")

    def found(text: str) -> list[int]:
        return [number for number, content in enumerate(pages) if text in content]

    rounds = [found(f"Hints, round {number}") for number in (1, 2, 3)]
    hints = [found(f"Hint {number} of 3") for number in (1, 2, 3)]
    answers = found("Answers and solutions")
    assert all(len(where) == 1 for where in [*rounds, *hints, answers]), (rounds, hints, answers)
    assert rounds == hints and rounds[0] < rounds[1] < rounds[2] < answers, (rounds, answers)
    assert not found("nearly the answer")[0] < rounds[2][0]


def poppler(tool: str) -> str:
    """A poppler-utils program, or the test fails saying how to get it (`make test` installs it)."""
    program = shutil.which(tool)
    if program is None:
        pytest.fail(f"{tool} is missing: install Debian's poppler-utils ('make poppler', or "
                    "apt-get install -y poppler-utils) and run the test again")
    return program


def pdf_text(path: Path) -> str:
    import subprocess

    return subprocess.run([poppler("pdftotext"), "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def test_zadachnik_pdf_prints_every_book_with_the_answers_after_the_last_question(
        fixture_site: Path, tmp_path: Path, capsys) -> None:
    site = Path(shutil.copytree(fixture_site, tmp_path / "site"))
    out, archive = tmp_path / "pdf", tmp_path / "offline.zip"
    assert cli.main(["pdf", str(site), "--out", str(out), "--zip", str(archive)]) == 0
    # The course has one module: its book is the module's, printed once.
    names = ["demo-01-basics-en.pdf", "demo-01-basics-ru.pdf"]
    assert sorted(path.name for path in out.iterdir()) == names
    said = capsys.readouterr().out
    assert f"wrote {out / 'demo-01-basics-en.pdf'}" in said
    # The site's own files are all a book loads: nothing is left out of it.
    assert "left out" not in said
    questions, _ = module_ids(fixture_site)
    for name in ("demo-01-basics-en.pdf", "demo-01-basics-ru.pdf"):
        lang = name.removesuffix(".pdf").rsplit("-", 1)[1]
        text = pdf_text(out / name)
        heading = text.index(ANSWERS_HEADING[lang])
        places = [text.index(f"{QUESTION_WORD[lang]} {question}") for question in questions]
        assert places == sorted(places) and places[-1] < heading, (name, places, heading)
        back = text[heading:]
        assert all(f"{QUESTION_WORD[lang]} {question}" in back for question in questions), name
    # Each on its language's paper: Russian on A4, English (whose likely territory is the US) on Letter.
    assert [page_size(out / name) for name in names] == ["letter", "A4"]
    # The offline copy ships them: the site zipped again, with the PDFs in its pdf/ folder.
    with zipfile.ZipFile(archive) as opened:
        assert {f"site/pdf/{name}" for name in names} <= set(opened.namelist())
        assert "site/en/demo/01-basics/book/index.html" in opened.namelist()


def page_size(path: Path) -> str:
    """The paper of a PDF's first page as poppler names it ("A4", "letter")."""
    import re
    import subprocess

    info = subprocess.run([poppler("pdfinfo"), str(path)], capture_output=True, text=True, check=True).stdout
    return re.search(r"^Page size:.*\((\w+)\)", info, re.MULTILINE)[1]


@pytest.mark.parametrize(("lang", "paper"), [
    ("ru", "A4"), ("de", "A4"), ("es", "A4"), ("en-GB", "A4"), ("en", "Letter"), ("en-CA", "Letter"),
    ("fr-CA", "Letter"), ("es-MX", "Letter"), ("fr", "A4"),
])
def test_paper_follows_the_language(lang: str, paper: str) -> None:
    from zadachnik.rendering.i18n import paper_size
    from zadachnik.runtime.pdf import on_paper

    assert paper_size(lang) == paper
    printed = on_paper("<html><head><link rel=stylesheet href=a.css></head><body></body></html>", paper)
    assert printed.index("a.css") < printed.index(f"@page {{ size: {paper}; }}") < printed.index("</head>")


def test_zadachnik_pdf_takes_only_the_papers_it_knows(tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit):
        cli.main(["pdf", str(tmp_path), "--paper", "A5"])
    assert "invalid choice: 'a5'" in capsys.readouterr().err


def test_zadachnik_pdf_paper_a4_prints_an_english_book_on_a4(fixture_site: Path, tmp_path: Path) -> None:
    # English books print on Letter by default; --paper overrides it. One book printed: the others are removed.
    site = Path(shutil.copytree(fixture_site, tmp_path / "site"))
    (site / BOOKS["ru"]).unlink()
    out = tmp_path / "pdf"
    assert cli.main(["pdf", str(site), "--out", str(out), "--paper", "a4"]) == 0
    assert [path.name for path in out.iterdir()] == ["demo-01-basics-en.pdf"]
    assert page_size(out / "demo-01-basics-en.pdf") == "A4"


def test_zadachnik_pdf_says_what_is_wrong(tmp_path: Path, capsys, fixture_site: Path) -> None:
    assert cli.main(["pdf", str(tmp_path)]) == 2
    assert "has no problem book" in capsys.readouterr().err
    assert cli.main(["pdf", str(fixture_site), "--out", str(tmp_path), "--chromium", "no-such-chromium"]) == 2
    assert "no Chromium at 'no-such-chromium'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_zadachnik_pdf_says_it_is_the_zip_it_could_not_write(fixture_site: Path, tmp_path: Path, capsys) -> None:
    # The PDFs are written and copied into the site; the zip's folder is a file. One book printed.
    site = Path(shutil.copytree(fixture_site, tmp_path / "site"))
    (site / BOOKS["ru"]).unlink()
    out, blocked = tmp_path / "pdf", tmp_path / "afile"
    blocked.write_text("", encoding="utf-8")
    assert cli.main(["pdf", str(site), "--out", str(out), "--zip", str(blocked / "x.zip")]) == 2
    said = capsys.readouterr()
    assert f"wrote {out / 'demo-01-basics-en.pdf'}" in said.out
    assert "cannot write the PDF files" not in said.err
    assert f"cannot write the zip {blocked / 'x.zip'}" in said.err and f"{blocked} is a file" in said.err, said.err
    assert (out / "demo-01-basics-en.pdf").is_file() and (site / "pdf" / "demo-01-basics-en.pdf").is_file()


def heading_levels(site: Path, page: str) -> list[int]:
    content = soup(site, page).select_one(".md-content")
    return [int(h.name[1]) for h in content.find_all(re.compile(r"^h[1-6]$"))]


@pytest.mark.parametrize("page", [*BOOKS.values(), *COURSE_BOOKS.values()])
def test_a_books_headings_go_down_one_level_at_a_time(course_site: Path, page: str) -> None:
    levels = heading_levels(course_site, page)
    assert levels[0] == 1 and max(levels) >= 4
    assert [(a, b) for a, b in zip(levels, levels[1:], strict=False) if b > a + 1] == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("page_path", [BOOKS["ru"], COURSE_BOOKS["en"]])
def test_axe_finds_nothing_serious_in_a_book(page, course_server: str, page_path: str, scheme: str) -> None:
    from support.browser import THEME_VIOLATIONS, axe_findings

    page.emulate_media(color_scheme=scheme)
    page.goto(course_server + page_path.removesuffix("index.html"))
    findings = axe_findings(page)
    serious = [f for f in findings if f[1] in ("serious", "critical") and (f[0], f[2]) not in THEME_VIOLATIONS]
    assert serious == [] and [f for f in findings if f[0] == "heading-order"] == []


# A book page as the site writes it: the language selector (its head's links to the translations, which the offline
# copy takes out, and the header's list), in the site's order, before the book's root element.
SELECTOR = {"head": '<link rel="alternate" href="./" hreflang="{0}"><link rel="alternate" href="x/" hreflang="{1}">',
            "header": '<a href="./" hreflang="{0}" class="md-select__link">ru</a><a href="x/" hreflang="{1}">en</a>',
            "none": ""}
BOOK_ROOT = '<div class="zq-book" data-zq-book data-zq-lang="{}">'


def write_books(site: Path, pages: dict[str, str | None], selector: str = SELECTOR["head"],
                languages: tuple[str, str] = ("ru", "en")) -> None:
    """Fake built pages: each with the language selector and a book's root in its language (None: not a book)."""
    for name, lang in pages.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        text = selector.format(*languages) + (BOOK_ROOT.format(lang) if lang else "<p>book</p>")
        (site / name).write_text(text, encoding="utf-8")


def book_names(site: Path) -> dict[str, str]:
    from zadachnik.runtime.pdf import book_pages

    return {page.path.relative_to(site).as_posix(): page.name for page in book_pages(site)}


def test_books_are_found_in_both_url_styles_and_named_by_course_module_and_language(tmp_path: Path) -> None:
    write_books(tmp_path, {"demo/01-basics/book.html": "ru", "en/demo/01-basics/book.html": "en",
                           "en/demo/book/index.html": "en",
                           # Not books: a page named so without a book's root, and a quiz.
                           "en/demo/notes/book.html": None, "en/demo/01-basics/quiz.html": "en"})
    assert book_names(tmp_path) == {"demo/01-basics/book.html": "demo-01-basics-ru.pdf",
                                    "en/demo/01-basics/book.html": "demo-01-basics-en.pdf",
                                    "en/demo/book/index.html": "demo-en.pdf"}


@pytest.mark.parametrize("selector", ["head", "header"])
def test_a_course_whose_id_is_the_first_language_keeps_it_in_its_books_names(tmp_path: Path, selector: str) -> None:
    # The first language's pages have no folder of their own: the course's folder ru/ is the course's, not the
    # language's (its books were 01-basics-ru.pdf and ru.pdf). The offline copy shows the header's list only.
    write_books(tmp_path, {"ru/01-basics/book/index.html": "ru", "ru/book/index.html": "ru",
                           "en/ru/01-basics/book/index.html": "en", "en/ru/book/index.html": "en"}, SELECTOR[selector])
    assert book_names(tmp_path) == {"ru/01-basics/book/index.html": "ru-01-basics-ru.pdf",
                                    "ru/book/index.html": "ru-ru.pdf",
                                    "en/ru/01-basics/book/index.html": "ru-01-basics-en.pdf",
                                    "en/ru/book/index.html": "ru-en.pdf"}


def test_a_site_in_one_language_has_no_language_folder(tmp_path: Path) -> None:
    # No selector: the site's only language keeps its pages at the root, whatever its courses are called.
    write_books(tmp_path, {"en/01-basics/book/index.html": "en", "demo/01-basics/book/index.html": "en"},
                SELECTOR["none"])
    assert book_names(tmp_path) == {"en/01-basics/book/index.html": "en-01-basics-en.pdf",
                                    "demo/01-basics/book/index.html": "demo-01-basics-en.pdf"}


@pytest.mark.parametrize("first, second", [
    # Course demo's module 02-data and course demo-02's module data; a course's book and another's module.
    ("demo/02-data/book/index.html", "demo-02/data/book/index.html"),
    ("demo/02/book/index.html", "demo-02/book/index.html"),
    # Names that differ only in case are one file on macOS and Windows.
    ("demo/Data/book/index.html", "demo/data/book/index.html"),
])
def test_two_books_that_would_print_to_one_file_are_refused_before_printing(
        tmp_path: Path, capsys, first: str, second: str) -> None:
    site, out = tmp_path / "site", tmp_path / "pdf"
    write_books(site, {first: "ru", second: "ru"})
    # Refused before Chromium is even looked for: a missing one is not what the author hears of.
    assert cli.main(["pdf", str(site), "--out", str(out), "--chromium", "no-such-chromium"]) == 2
    said = capsys.readouterr().err
    name = Path(first).parent.parent.as_posix().replace("/", "-") + "-ru.pdf"
    assert f"{first} and {second} would both be printed to {name}" in said, said
    assert "give one of the courses another id" in said
    assert not out.exists()


# -- printing loads nothing outside the built site (issue 31) ----------------------------------------------------

SECRET = "OUTSIDE-SECRET-4411"
# A question whose statement names other hosts and files outside the site, each way a page can load one; the
# escaped url() is one the print's copy does not see, for the policy and the proxy to stop.
OUTSIDE_PARTS = """<img src="{host}/picture.png" alt="picture">
<img alt="set" srcset="{host}/set.png 2x, data:image/gif;base64,R0lGODlhAQABAAAAACw= 1x">
<iframe src="file://{outside}/secret.txt"></iframe>
<object data="file://{outside}/secret.html"></object>
<iframe src="../../../../../../../../../../../..{outside}/secret.html"></iframe>
<div style="background: url('{host}/background.png'); height: 1em">Backed</div>
<div style="background: u\\72l({host}/escaped.png); height: 1em">Escaped</div>
<video poster="{host}/poster.png"></video>
<link rel="stylesheet" href="{host}/style.css">
<style>@import url({host}/imported.css); .zq-outside {{ background-image: url("{host}/styled.png") }}</style>
<meta http-equiv="refresh" content="0; url={host}/elsewhere">
<base href="{host}/">
"""
OUTSIDE_QUESTION = """
/// question | Q9
type: open

//// ru | Снаружи
Вопрос OUTSIDE-RU.

{parts}
explanation:
Ничего.
////

//// en | Outside
Question OUTSIDE-EN.

{parts}
explanation:
Nothing.
////
///
"""


class CountingHandler(__import__("http.server").server.BaseHTTPRequestHandler):
    """Every request is noted (a print must make none) and answered, so nothing waits on it."""

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        self.server.requests.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/css" if self.path.endswith(".css") else "image/png")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        pass


@pytest.fixture(scope="module")
def outside_print(tmp_path_factory):
    """The fixture course (with a second module) with a question naming other hosts and outside files, built and
    printed once."""
    import contextlib
    import io
    import threading
    from http.server import ThreadingHTTPServer

    from support.sites import build_site

    work = tmp_path_factory.mktemp("outside-print")
    outside = work / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    (outside / "secret.html").write_text(f"<p>{SECRET}</p>", encoding="utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0), CountingHandler)
    server.requests = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host = f"http://127.0.0.1:{server.server_address[1]}"
    # Two modules: the course's book is printed too, and only the first module's pages name outside things.
    source = two_module_site(work)
    quiz = source / "exercises/demo/01-basics/quiz.md"
    parts = OUTSIDE_PARTS.format(host=host, outside=outside)
    quiz.write_text(quiz.read_text(encoding="utf-8") + OUTSIDE_QUESTION.format(parts=parts), encoding="utf-8")
    site = build_site(source / "mkdocs.yml", work / "site")
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        status = cli.main(["pdf", str(site), "--out", str(work / "pdf")])
    try:
        yield {"status": status, "said": said.getvalue(), "pdf": work / "pdf", "host": host, "outside": outside,
               "requests": server.requests, "site": site}
    finally:
        server.shutdown()


def test_printing_asks_no_other_host_for_anything(outside_print: dict) -> None:
    assert outside_print["status"] == 0, outside_print["said"]
    assert outside_print["requests"] == []


@pytest.mark.parametrize("name", ["demo-01-basics-en.pdf", "demo-ru.pdf"])
def test_printing_embeds_no_file_from_outside_the_site(outside_print: dict, name: str) -> None:
    text = pdf_text(outside_print["pdf"] / name)
    # The question itself is printed: the check below can fail.
    assert ("OUTSIDE-EN" if name.endswith("-en.pdf") else "OUTSIDE-RU") in text and "Backed" in text
    assert SECRET not in text


def test_the_command_names_each_reference_it_left_out(outside_print: dict) -> None:
    host, outside = outside_print["host"], outside_print["outside"]
    lines = [line for line in outside_print["said"].splitlines() if "left out" in line]
    page = "en/demo/01-basics/book/index.html"
    expected = [f"{host}/picture.png", f"{host}/set.png", f"file://{outside}/secret.txt",
                f"file://{outside}/secret.html", f"../../../../../../../../../../../..{outside}/secret.html",
                f"{host}/background.png", f"{host}/poster.png", f"{host}/style.css", f"{host}/imported.css",
                f"{host}/styled.png", f"0; url={host}/elsewhere", f"{host}/"]
    for reference in expected:
        assert [line for line in lines if f"{page}: left out {reference}" in line], (reference, lines)
    # Each book with the question says its own: the module's and the course's, in both languages (the second
    # module's book names nothing outside); the site's own files are kept.
    assert {line.split(": left out")[0] for line in lines} == {
        f"zadachnik pdf: {path}" for path in [*BOOKS.values(), *COURSE_BOOKS.values()]}
    assert len(lines) == 4 * len(expected), lines


@pytest.mark.parametrize("written, left_out", [
    # The site's own files, data: URLs and links (followed only on a click) stay.
    ('<img src="../files/plot.png" alt="a &amp; b">', []),
    ('<img src="/assets/x.png"><img src="data:image/png;base64,AAAA">', []),
    ('<a href="https://example.org/">read on</a><link rel="canonical" href="https://example.org/book/">', []),
    ('<img srcset="data:image/gif;base64,R0lGOD,lhAQ 1x, ../a.png 2x">', []),
    # Another host however it is written: as a browser reads it, tabs dropped and backslashes as slashes.
    ('<img src="//example.org/x.png">', ["//example.org/x.png"]),
    ('<img src="\\\\example.org\\x.png">', ["\\\\example.org\\x.png"]),
    ('<img src="ht\ttps://example.org/x.png">', ["ht\ttps://example.org/x.png"]),
    ('<img srcset="a.png 1x,https://example.org/b.png 2x">', ["https://example.org/b.png"]),
    ('<svg><image href="https://example.org/x.svg"/></svg>', ["https://example.org/x.svg"]),
    ('<link rel="alternate stylesheet" href="https://example.org/x.css">', ["https://example.org/x.css"]),
    ('<p style="background:URL( https://example.org/x.png )">p</p>', ["https://example.org/x.png"]),
    ('<style>@import "https://example.org/x.css"; p { color: red }</style>', ["https://example.org/x.css"]),
    ('<iframe srcdoc="&lt;img src=https://example.org/x&gt;"></iframe>', ['srcdoc="<img src=https://example.org/x>"']),
    # Files outside the site: past its root, %2e being a dot, or by a link inside it that leads out.
    ('<img src="%2e%2e/%2e%2e/%2e%2e/outside/secret.png">', ["%2e%2e/%2e%2e/%2e%2e/outside/secret.png"]),
    ('<img src="file:///etc/hostname">', ["file:///etc/hostname"]),
    ('<img src="leak.png">', ["leak.png"]),
])
def test_a_print_copy_takes_out_what_leads_outside_the_site_and_keeps_the_rest(
        tmp_path: Path, written: str, left_out: list[str]) -> None:
    from zadachnik.runtime.pdf import PrintCopy

    page = tmp_path / "site" / "en" / "book" / "index.html"
    page.parent.mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.png").write_bytes(b"secret")
    (page.parent / "leak.png").symlink_to(tmp_path / "outside" / "secret.png")
    original = f'<html><head><meta charset="utf-8"></head>\n<body><p>before</p>{written}\n<p>after &amp; more</p>'
    copy = PrintCopy(tmp_path / "site", page)
    printed = copy.copy(original)
    assert [reference for reference, _ in copy.left_out] == left_out
    if not left_out:
        assert printed == original
    else:
        # Only the reference goes: the element and the rest of the page stay as written.
        assert printed.startswith('<html><head><meta charset="utf-8"></head>\n<body><p>before</p><')
        assert printed.endswith("\n<p>after &amp; more</p>")
        assert "example.org" not in printed and "secret" not in printed and "leak" not in printed
        # A style sheet keeps its other rules.
        assert "p { color: red }" in printed or "p { color: red }" not in written


# -- a PDF's links lead where its reader can follow them ---------------------------------------------------------

SITE_URL = "https://example.org/course/"
# The second module's explanation refers to its own items (links inside the book) and links to the first module's
# question (another page).
LINKED = " [[E1]], [[Q2]], [Q3]({page}#q-Q3)."


def pdf_links(path: Path) -> tuple[list[str], list[str]]:
    """A PDF's link annotations as Chromium writes them (plain dictionaries): the addresses of its links out,
    and the names of the places its links inside lead to."""
    data = path.read_bytes()
    uris = [found.decode("latin-1") for found in re.findall(rb"/URI\s*\(((?:[^()\\]|\\.)*)\)", data)]
    inside = [found.decode("latin-1") for found in re.findall(rb"/Subtype\s*/Link\b[^>]*?/Dest\s*/([^\s/>\]]+)", data)]
    return uris, inside


@pytest.fixture(scope="module")
def linked_print(tmp_path_factory) -> Path:
    """The fixture site with a second module that links to the first one's question, on a site with a site_url:
    the English books of the second module and of the course printed once. The folder of the PDFs."""
    work = tmp_path_factory.mktemp("linked-print")
    source = two_module_site(work)
    quiz = source / "exercises/demo/02-more/quiz.md"
    link = LINKED.format(page="../01-basics/quiz.md")
    quiz.write_text(quiz.read_text(encoding="utf-8").replace("Because $2+2=4$.", "Because $2+2=4$." + link)
                    .replace("Потому что $2+2=4$.", "Потому что $2+2=4$." + link), encoding="utf-8")
    config = source / "mkdocs.yml"
    config.write_text(f"site_url: {SITE_URL}\n" + config.read_text(encoding="utf-8"), encoding="utf-8")
    site = build_site(config, work / "site")
    # Two prints are enough: the others are removed.
    kept = {site / "en/demo/02-more/book/index.html", site / COURSE_BOOKS["en"]}
    for page in site.rglob("book/index.html"):
        if page not in kept:
            page.unlink()
    assert cli.main(["pdf", str(site), "--out", str(work / "pdf")]) == 0
    return work / "pdf"


def test_a_books_links_to_other_pages_lead_to_them_on_the_site_url(linked_print: Path) -> None:
    module, _ = pdf_links(linked_print / "demo-02-more-en.pdf")
    course, _ = pdf_links(linked_print / "demo-en.pdf")
    question = f"{SITE_URL}en/demo/01-basics/quiz/#q-Q3"
    # The module's book links back to its quiz page, and both books to the first module's question.
    assert f"{SITE_URL}en/demo/02-more/quiz/" in module and question in module, module
    assert question in course, course
    assert [uri for uri in module + course if "127.0.0.1" in uri or "localhost" in uri] == []


def test_a_books_references_stay_links_inside_the_pdf(linked_print: Path) -> None:
    module = pdf_links(linked_print / "demo-02-more-en.pdf")[1]
    course = pdf_links(linked_print / "demo-en.pdf")[1]
    assert {"e-E1", "q-Q2"} <= set(module), module
    assert {"m2-e-E1", "m2-q-Q2"} <= set(course), course


@pytest.mark.parametrize("name", ["demo-01-basics-en.pdf", "demo-01-basics-ru.pdf", "demo-en.pdf"])
def test_without_a_site_url_a_books_links_to_other_pages_are_plain_text(outside_print: dict, name: str) -> None:
    # The site has no site_url: its pages have no address to link to but the print's own server's.
    assert outside_print["status"] == 0, outside_print["said"]
    uris, _ = pdf_links(outside_print["pdf"] / name)
    assert uris == []
    # A module's book still prints its back link's words.
    back = {"demo-01-basics-en.pdf": "← Module 1. Basics", "demo-01-basics-ru.pdf": "← Модуль 1. Основы"}
    assert name not in back or back[name] in pdf_text(outside_print["pdf"] / name)


CANONICAL = '<link href="https://example.org/c/en/demo/book/" rel="canonical">'


@pytest.mark.parametrize("written, canonical, printed", [
    # A place in the book stays a link inside the PDF, however the page's own address is written.
    ('<a href="#q-Q1">', CANONICAL, '<a href="#q-Q1">'),
    ('<a href="./#q-Q1">', "", '<a href="#q-Q1">'),
    ('<a href="index.html#q-Q1">', "", '<a href="#q-Q1">'),
    # Another page: on the site's address, as its reader's browser would resolve the link there.
    ('<a href="../01-basics/quiz/#q-3">', CANONICAL, '<a href="https://example.org/c/en/demo/01-basics/quiz/#q-3">'),
    ('<a class="x" href="../../../authoring/">', CANONICAL, '<a class="x" href="https://example.org/c/authoring/">'),
    ('<area href="/notes/" alt="n">', CANONICAL, '<area href="https://example.org/notes/" alt="n">'),
    # Without a site_url: its words alone, looking like the text around them.
    ('<a href="../01-basics/quiz/">', "", '<a style="color: inherit; text-decoration: none">'),
    ('<a href="../files/data.zip" style="font-weight: bold;">', "",
     '<a style="font-weight: bold; color: inherit; text-decoration: none">'),
    # Another host's address, or mail, stays as written.
    ('<a href="https://example.com/x">', "", '<a href="https://example.com/x">'),
    ('<a href="mailto:author@example.org">', "", '<a href="mailto:author@example.org">'),
])
def test_a_print_copys_links_lead_where_the_pdf_can_follow_them(
        tmp_path: Path, written: str, canonical: str, printed: str) -> None:
    from zadachnik.runtime.pdf import PrintCopy

    page = tmp_path / "site" / "en" / "demo" / "book" / "index.html"
    page.parent.mkdir(parents=True)
    original = f"<html><head>{canonical}</head>\n<body>{written}words</a></body>"
    assert PrintCopy(tmp_path / "site", page).copy(original) == original.replace(written, printed)
