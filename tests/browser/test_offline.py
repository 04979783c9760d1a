"""The offline copy: unzipped anywhere and opened from disk, everything works and nothing goes to the web."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from support.sites import ROOT
from zadachnik.runtime.shipping import minified

# Pages opened from disk start Python whatever the mark, so each test's page gets a browser context of its own.
pytestmark = pytest.mark.own_context

QUIZ = "demo/01-basics/quiz.html"


def open_page(page, copy: Path, path: str) -> None:
    page.goto((copy / path).as_uri())
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")


def test_zip_holds_the_site_and_no_pyodide_outside_the_embed(offline_copy: Path) -> None:
    assert (offline_copy / "index.html").is_file()
    assert (offline_copy / "assets/zadachnik/pyodide-embed.js").is_file()
    assert not (offline_copy / "assets/zadachnik/pyodide").exists(), "the embed carries Pyodide"
    assert (offline_copy / "search/search_index.js").is_file()
    html = (offline_copy / QUIZ).read_text(encoding="utf-8")
    assert "unpkg.com" not in html and 'type="module"' not in html


@pytest.mark.parametrize(("book", "home"), [("demo/01-basics/book.html", "index.html"),
                                           ("en/demo/01-basics/book.html", "en/index.html")])
def test_a_books_logo_leads_to_its_languages_home_page_from_disk(offline_copy: Path, book: str, home: str) -> None:
    """A folder's address opened from disk shows the folder's listing: the logo of a book (which has no site
    navigation, and so no home page for the theme to link) led there."""
    html = (offline_copy / book).read_text(encoding="utf-8")
    logo = re.search(r'<a href="([^"]*)"[^>]*class="md-header__button md-logo"', html)[1]
    assert (offline_copy / book).parent.joinpath(logo).resolve() == (offline_copy / home).resolve(), logo


def test_the_copy_has_no_page_for_a_server_only(offline_copy: Path) -> None:
    """A server shows 404.html for an address it lacks, at any depth, so the page names its files from the site's
    root ('/assets/…'): opened from disk it loaded none of them. A copy on disk has no server to show it."""
    assert not (offline_copy / "404.html").exists()
    assert (offline_copy / "index.html").is_file()


def test_the_offline_worker_runs_the_same_worker_code_as_the_http_site(offline_copy: Path) -> None:
    embed_script = (offline_copy / "assets/zadachnik/pyodide-embed.js").read_text(encoding="utf-8")
    embed = json.loads(embed_script.removeprefix("window.__zqPyodideEmbed = ").removesuffix(";\n"))
    worker = minified("js/python-worker.js",
                      (ROOT / "plugins/zadachnik/runtime/assets/js/python-worker.js").read_text(encoding="utf-8"))
    # Pyodide's classic loader and engine, then the very file the http site runs as its module worker (both
    # minified alike).
    assert embed["worker"].endswith("\n" + worker)
    assert (offline_copy / "assets/zadachnik/js/python-worker.js").read_text(encoding="utf-8") == worker
    assert "runPython" not in (ROOT / "plugins/zadachnik/runtime/offline.py").read_text(encoding="utf-8")


def test_answers_language_switch_and_reload_from_disk(page, offline_copy: Path) -> None:
    open_page(page, offline_copy, QUIZ)
    page.fill("#zq-Q3-ratio", "2,2857")
    page.fill("#zq-Q3-mem", "78,23")
    page.click("#q-Q3 [data-zq-check]")
    assert page.locator("#q-Q3 [data-zq-verdict]").inner_text() == "✓ Верно"
    page.locator(".md-header .md-select").hover()
    page.locator('a.md-select__link[hreflang="en"]').click()
    page.wait_for_selector('.zq-page[data-zq-lang="en"][data-zq-ready=yes]')
    # The switch may keep the learner's place on the page (#q-Q3): the file is what matters here.
    assert page.url.split("#")[0].endswith("/en/demo/01-basics/quiz.html")
    assert page.input_value("#zq-Q3-mem") == "78,23"
    assert page.locator("#q-Q3 [data-zq-verdict]").inner_text() == "✓ Correct"
    page.locator(".md-header .md-select").hover()
    page.locator('a.md-select__link[hreflang="ru"]').click()
    page.wait_for_selector('.zq-page[data-zq-lang="ru"][data-zq-ready=yes]')
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.locator("[data-zq-progress]").inner_text() == "Проверено: 1 / 7 · Верно: 1"
    assert page.locator(".katex").count() > 5


def test_python_from_disk_right_wrong_and_stopped(page, offline_copy: Path) -> None:
    open_page(page, offline_copy, "en/" + QUIZ)
    page.wait_for_function("document.querySelector('[data-zq-python-status]').textContent.includes('ready')",
                           timeout=90_000)
    page.locator("#q-Q7").scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#q-Q7').zqEditor", timeout=20_000)

    def check(code: str, expected: str) -> None:
        page.evaluate("code => document.querySelector('#q-Q7').zqEditor.setValue(code, 1)", code)
        page.click("#q-Q7 [data-zq-check]")
        page.wait_for_function("text => document.querySelector('#q-Q7 [data-zq-verdict]').textContent.includes(text)",
                               arg=expected, timeout=60_000)

    check("def double(x):\n    return x + 2\n", "Wrong")
    check("def double(x):\n    while True:\n        pass\n", "Stopped after 3 s")
    check("def double(x):\n    return 2 * x\n", "Correct")
    page.fill("#zq-Q8-x", "8/14")
    page.click("#q-Q8 [data-zq-check]")
    page.wait_for_function("document.querySelector('#q-Q8 [data-zq-verdict]').textContent.includes('Correct')",
                           timeout=30_000)


@pytest.mark.parametrize("width", [1280, 360])
def test_the_questions_stay_where_they_are_while_python_starts_from_disk(page, offline_copy: Path,
                                                                         width: int) -> None:
    """Was a bug: Python's status line above the questions went from one line to two (a start from disk takes
    long, and says so) and back to one, and every question moved 26 px under the learner's pointer: a click meant
    for one option could land on its neighbour (a browser test's did). On a computer the line keeps two lines'
    room; on a phone the long words take four, and the line never gets shorter again: a question may move down
    once, as the start begins, never back up while the learner is at work."""
    page.set_viewport_size({"width": width, "height": 800})
    open_page(page, offline_copy, "en/" + QUIZ)
    where = "document.querySelector('#q-Q1 input[value=B]').getBoundingClientRect().top + scrollY"
    places = [page.evaluate(where)]
    page.wait_for_function("""(where) => {
        self.zqPlaces = self.zqPlaces || [];
        self.zqPlaces.push(eval(where));
        return document.querySelector('[data-zq-python-status]').textContent.includes('ready');
    }""", arg=where, timeout=90_000, polling=20)
    places += [*page.evaluate("self.zqPlaces"), page.evaluate(where)]
    assert places == sorted(places), places
    if width > 1000:
        assert len(set(places)) == 1, places


@pytest.mark.search
def test_search_from_disk(page, offline_copy: Path) -> None:
    open_page(page, offline_copy, "en/" + QUIZ)
    page.locator(".md-search__input").click()
    page.keyboard.type("Rayleigh", delay=30)
    first = page.locator(".md-search-result__item").first
    first.wait_for(timeout=20_000)
    assert "Open" in first.inner_text()


def test_a_copy_without_pyodide_says_python_is_unavailable_and_the_rest_works(page, offline_copy: Path,
                                                                             tmp_path: Path) -> None:
    broken = tmp_path / "copy"
    shutil.copytree(offline_copy, broken, ignore=shutil.ignore_patterns("pyodide-embed.js"))
    open_page(page, broken, "en/" + QUIZ)
    unavailable = "Python is not available here: its files did not load."
    page.wait_for_function("text => document.querySelector('[data-zq-python-status]').textContent.includes(text)",
                           arg=unavailable, timeout=10_000)
    page.fill("#zq-Q8-x", "8/14")
    page.click("#q-Q8 [data-zq-check]")
    page.wait_for_function("text => document.querySelector('#q-Q8 [data-zq-verdict]').textContent.includes(text)",
                           arg=unavailable, timeout=5_000)
    page.check("#q-Q1 input[value=B]")
    page.click("#q-Q1 [data-zq-check]")
    assert page.locator("#q-Q1 [data-zq-verdict]").inner_text() == "✓ Correct"


def test_the_copy_links_no_translation_in_its_heads_and_carries_no_sitemap_for_them(offline_copy: Path) -> None:
    """What Material would fetch a sitemap beside is left out; the language selector keeps its links."""
    pages = [path for path in offline_copy.rglob("*.html") if "assets" not in path.parts and path.name != "404.html"]
    assert len(pages) >= 6
    for html_file in pages:
        soup = BeautifulSoup(html_file.read_text(encoding="utf-8"), "html.parser")
        assert soup.select("head link[rel=alternate][hreflang]") == [], html_file
        assert len(soup.select("a.md-select__link[hreflang]")) == 2, html_file
    assert sorted(path.relative_to(offline_copy).as_posix() for path in offline_copy.rglob("sitemap.xml")) == [
        "sitemap.xml"], "MkDocs' own, and no other"


def test_pages_from_disk_ask_for_no_sitemap_and_log_no_error(page, offline_copy: Path) -> None:
    """Was a bug: Material's language selector asked for a sitemap.xml beside each page in the head's alternate
    links, which a page opened from disk may not fetch: two console errors on every page."""
    errors: list[str] = []
    sitemaps: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("request", lambda request: sitemaps.append(request.url) if "sitemap" in request.url else None)
    for path in ["index.html", QUIZ, "en/demo/01-basics/exercises.html", "en/authoring.html"]:
        page.goto((offline_copy / path).as_uri())
        # Until nothing loads any more: what the page asks for by itself has been asked for.
        page.wait_for_load_state("networkidle")
    page.locator(".md-header .md-select").hover()
    page.locator('a.md-select__link[hreflang="ru"]').click()
    page.wait_for_url(re.compile(r"^file://.*/site/authoring\.html(#.*)?$"))
    page.wait_for_load_state("networkidle")
    assert page.locator("html").get_attribute("lang") == "ru"
    assert sitemaps == [], sitemaps
    assert errors == [], errors
