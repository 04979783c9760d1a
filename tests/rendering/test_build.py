"""Build the fixture course and the sample course, then read the pages as a browser would get them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from support.browser import python_left_starting
from support.sites import FIXTURE_SITE, ROOT, build_failure, build_site, copy_site

QUIZ = "demo/01-basics/quiz/index.html"
EXERCISES = "demo/01-basics/exercises/index.html"


def page(site: Path, path: str) -> BeautifulSoup:
    return BeautifulSoup((site / path).read_text(encoding="utf-8"), "html.parser")


@pytest.mark.parametrize("lang, prefix", [("ru", ""), ("en", "en/")])
def test_quiz_page_in_each_language(fixture_site: Path, lang: str, prefix: str) -> None:
    soup = page(fixture_site, prefix + QUIZ)
    root = soup.select_one(".zq-page")
    assert root["data-zq-course"] == "demo"
    assert root["data-zq-module"] == "1"
    assert root["data-zq-lang"] == lang
    assert soup.html["lang"] == lang
    ids = [q["data-zq-question"] for q in soup.select("[data-zq-question]")]
    assert ids == ["Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7", "Q8"]
    types = [q["data-zq-type"] for q in soup.select("[data-zq-question]")]
    assert types == ["single", "multiple", "numeric", "matching", "open", "mixed", "code", "numeric"]
    headings = [h.get_text(" ", strip=True) for h in soup.select("h2.zq-section")]
    expected = ["1.1. Выбор", "1.2. Числа", "1.3. Python"] if lang == "ru" else ["1.1. Choice", "1.2. Numbers",
                                                                                   "1.3. Python"]
    assert headings == expected
    course = soup.select_one(".zq-course").get_text(" ", strip=True)
    assert course == ("Демокурс · 1 / 3" if lang == "ru" else "Demo course · 1 / 3")
    progress = soup.select_one("[data-zq-progress]").get_text(strip=True)
    # Seven of eight are checked by the page (one by Python): the open question is the learner's.
    assert progress == ("Проверено: 0 / 7 · Верно: 0" if lang == "ru" else "Checked 0 / 7 · Correct 0")


def test_inputs_carry_stable_ids(fixture_site: Path) -> None:
    soup = page(fixture_site, "en/" + QUIZ)
    q1 = soup.select_one('[data-zq-question="Q1"]')
    assert [i["value"] for i in q1.select("input[type=radio]")] == ["A", "B", "C"]
    assert q1.select_one("fieldset legend").get_text(strip=True) == "One correct option"
    q2 = soup.select_one('[data-zq-question="Q2"]')
    assert [i["value"] for i in q2.select("input[type=checkbox]")] == ["1", "2", "3"]
    q3 = soup.select_one('[data-zq-question="Q3"]')
    assert [i["data-zq-input"] for i in q3.select("input[data-zq-input]")] == ["ratio", "mem"]
    for field in q3.select("input[data-zq-input]"):
        assert q3.select_one(f'label[for="{field["id"]}"]') is not None
    q4 = soup.select_one('[data-zq-question="Q4"]')
    assert [s["data-zq-select"] for s in q4.select("select")] == ["1", "2"]
    assert [o["value"] for o in q4.select("select")[0].select("option")] == ["", "A", "B"]
    assert soup.select_one('[data-zq-question="Q5"] textarea[data-zq-notes]') is not None
    q6 = soup.select_one('[data-zq-question="Q6"]')
    assert q6.select_one("input[data-zq-input=rho]") is not None
    assert q6.select_one("textarea[data-zq-notes]") is not None
    assert "Only the first part" in q6.get_text()


def test_number_and_formula_fields_are_left_to_right(sample_site: Path) -> None:
    """On a right-to-left page a field inherits the page's direction, and "-2.5" showed as "2.5-" while it was
    typed: numbers and formulas are written left to right in every language."""
    soup = page(sample_site, "rl-for-llm/12-infrastructure/quiz/index.html")
    fields = soup.select("input[inputmode=decimal], input.zq-formula__input")
    kinds = {field.find_parent(class_=["zq-field", "zq-gap", "zq-formula"])["class"][0] for field in fields}
    assert kinds == {"zq-field", "zq-gap", "zq-formula"}, kinds
    assert [field["id"] for field in fields if field.get("dir") != "ltr"] == []


def test_the_runtime_styles_mirror_on_right_to_left_pages() -> None:
    """A margin, padding or border on the left stays on the left of an Arabic page, where it is the end: the
    navigation's marks sat against the link's text, the storage note's and the hints' bars at their end. The
    styles say start and end (a Parsons line, which is code, is left to right as a whole)."""
    assets = ROOT / "plugins/zadachnik/runtime/assets"
    templates = ROOT / "plugins/zadachnik/rendering/templates"
    styles = [assets / "zadachnik.css", *sorted((assets / "js").rglob("*.js")), *sorted(templates.glob("*.html"))]
    physical = re.compile(r"\b(?:margin|padding|border)-(?:left|right)\b")
    found = [f"{path.name}: {match}" for path in styles for match in physical.findall(path.read_text(encoding="utf-8"))]
    assert found == []


@pytest.mark.parametrize(
    "lang, prefix, ratio, mem",
    [("ru", "", "абсолютный допуск ±0,0001", "относительный допуск ±1\u00a0%"),
     ("en", "en/", "absolute tolerance ±0.0001", "relative tolerance ±1%")],
)
def test_tolerances_and_units_shown(fixture_site: Path, lang: str, prefix: str, ratio: str, mem: str) -> None:
    q3 = page(fixture_site, prefix + QUIZ).select_one('[data-zq-question="Q3"]')
    tolerances = [t.get_text(strip=True) for t in q3.select(".zq-tolerance")]
    assert tolerances == [ratio, mem]
    assert q3.select_one(".zq-unit").get_text() == ("ГиБ" if lang == "ru" else "GiB")
    answers = [li.get_text(" ", strip=True) for li in q3.select(".zq-answer li")]
    assert answers[0].endswith("2,2857" if lang == "ru" else "2.2857")


def test_answer_key_is_in_the_page_once(fixture_site: Path) -> None:
    import json

    spec = json.loads(page(fixture_site, QUIZ).select_one("template.zq-spec").string)
    assert set(spec) == {"Q1", "Q2", "Q3", "Q4", "Q6", "Q7", "Q8"}
    # With the revision of the key a saved verdict is compared with (tests/rendering/test_key_revision.py).
    assert spec["Q1"] == {"type": "single", "correct": ["B"], "rev": spec["Q1"]["rev"]}
    assert re.fullmatch(r"[0-9a-f]{12}", spec["Q1"]["rev"])
    assert spec["Q2"]["scoring"] == "net-correct"
    assert spec["Q3"]["fields"][1]["answer"] == pytest.approx(7e9 * 12 / 2**30)
    assert spec["Q4"]["pairs"] == {"1": "B", "2": "A"}
    assert spec["Q6"]["auto"] == "numeric"


@pytest.mark.parametrize("path", [QUIZ, EXERCISES, "authoring/index.html", "index.html"])
def test_language_selector_leads_to_the_same_page(fixture_site: Path, path: str) -> None:
    ru, en = page(fixture_site, path), page(fixture_site, "en/" + path)
    ru_links = {a["hreflang"]: a["href"] for a in ru.select("a.md-select__link")}
    en_links = {a["hreflang"]: a["href"] for a in en.select("a.md-select__link")}
    ru_file, en_file = fixture_site / path, fixture_site / "en" / path
    # Relative links, so they work opened from disk too; each resolves to the other language's page.
    assert not any(link.startswith(("/", "http")) for link in [*ru_links.values(), *en_links.values()])
    assert (en_file.parent / en_links["ru"] / "index.html").resolve() == ru_file.resolve()
    assert (ru_file.parent / ru_links["en"] / "index.html").resolve() == en_file.resolve()
    assert ru_links["ru"] == "./" and en_links["en"] == "./"


def test_navigation_shows_one_language(fixture_site: Path) -> None:
    en = page(fixture_site, "en/" + QUIZ)
    nav_text = en.select_one("nav.md-nav--primary").get_text(" ", strip=True)
    assert "Demo course" in nav_text and "Module 1. Basics" in nav_text
    assert "Демокурс" not in nav_text
    ru = page(fixture_site, QUIZ).select_one("nav.md-nav--primary").get_text(" ", strip=True)
    assert "Демокурс" in ru and "Demo course" not in ru


def test_home_lists_courses_and_modules(fixture_site: Path) -> None:
    en = page(fixture_site, "en/index.html")
    links = {a.get_text(strip=True): a["href"] for a in en.select(".md-content li a")}
    # Relative to en/: the English pages.
    assert links == {"Quiz": "demo/01-basics/quiz/", "Exercises": "demo/01-basics/exercises/"}
    assert "Module 1. Basics" in en.select_one(".md-content li").get_text()


def test_exercises_page(fixture_site: Path) -> None:
    soup = page(fixture_site, "en/" + EXERCISES)
    assert [s["data-zq-exercise"] for s in soup.select("[data-zq-exercise]")] == ["E1", "E2"]
    e1, e2 = soup.select("[data-zq-exercise]")
    assert [d["data-zq-reveal"] for d in e1.select("details")] == ["solution"]
    assert e1.select_one("summary").get_text(strip=True) == "Show answer and solution"
    assert "Notebook notebook.ipynb, section “1. Start”" in e1.get_text()
    # A project's criteria come first, read before solving, apart from the solution.
    assert [d["data-zq-reveal"] for d in e2.select("details")] == ["criteria", "solution"]
    assert "[project]" in e2.select_one("h2").get_text()


def test_pages_load_nothing_from_other_hosts(fixture_site: Path) -> None:
    for html_file in fixture_site.rglob("*.html"):
        text = html_file.read_text(encoding="utf-8")
        for attribute in re.findall(r'(?:src|href)="(https?:[^"]*)"', text):
            assert "fonts.googleapis" not in attribute and "cdn" not in attribute, (html_file, attribute)
        assert not re.search(r'<(?:script|link)[^>]+(?:src|href)="https?://', text), html_file


def test_the_scorm_bridge_is_not_shipped_to_sites(fixture_site: Path) -> None:
    """lms.js runs in a SCORM package's launch page, bundled with the library it imports from the package's vendor
    folder: on a site its import led nowhere (the review)."""
    assert not (fixture_site / "assets/zadachnik/js/lms.js").exists()
    assert not (fixture_site / "assets/zadachnik/fflate").exists()


def test_katex_assets_shipped(fixture_site: Path) -> None:
    css = fixture_site / "assets/zadachnik/katex/katex.min.css"
    assert css.is_file()
    for font in re.findall(r"url\((fonts/[^)]+)\)", css.read_text()):
        assert (css.parent / font).is_file(), font
    assert (fixture_site / "assets/zadachnik/katex/LICENSE").is_file()
    assert not list(fixture_site.rglob("katex.min.js")), "pages need no math script"


def test_bad_source_fails_build_with_file_and_line(tmp_path: Path, caplog) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    quiz = site / "exercises/demo/01-basics/quiz.md"
    quiz.write_text(quiz.read_text().replace("  ratio: {answer: \"16/7\", atol: 0.0001}",
                                             "  ratio: {answer: \"16/7\", tolerence: 0.0001}"))
    line = quiz.read_text().splitlines().index('  ratio: {answer: "16/7", tolerence: 0.0001}') + 1
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert f"exercises/demo/01-basics/quiz.md:{line}: unknown key 'tolerence'" in message


def test_invalid_tex_fails_build_with_file_and_line(tmp_path: Path, caplog) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    quiz = site / "exercises/demo/01-basics/quiz.md"
    text = quiz.read_text().replace("Почему небо голубое?", r"Почему небо $\frac{1$ голубое?")
    quiz.write_text(text)
    line = text.splitlines().index(r"Почему небо $\frac{1$ голубое?") + 1
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert f"exercises/demo/01-basics/quiz.md:{line}: invalid TeX" in message
    assert "Unexpected end of input" in message


def test_invalid_tex_in_a_hand_written_page(tmp_path: Path, caplog) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    index = site / "docs/en/index.md"
    index.write_text(index.read_text() + "\nBroken: $\\sqrt{$ here.\n")
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert "docs/en/index.md:7: invalid TeX" in message
    assert "Traceback" not in message


def test_serve_watches_the_exercises_folder(tmp_path: Path) -> None:
    from mkdocs.config import load_config

    config = load_config(config_file=str(FIXTURE_SITE / "mkdocs.yml"), site_dir=str(tmp_path))
    plugin = config.plugins["zadachnik"]
    config = config.plugins.on_config(config)

    class Server:
        watched: list[str] = []

        def watch(self, path: str, *args) -> None:
            self.watched.append(path)

    server = Server()
    plugin.on_serve(server, config=config, builder=lambda: None)
    assert [Path(p).resolve() for p in server.watched] == [(FIXTURE_SITE / "exercises").resolve()]


def test_plugin_instance_kept_across_serve_rebuilds() -> None:
    # MkDocs keeps a plugin across `mkdocs serve` rebuilds only if it defines on_startup; the KaTeX cache
    # lives there.
    from zadachnik.plugin import ZadachnikPlugin

    assert "on_startup" in ZadachnikPlugin.__dict__


def test_sample_site_builds_strict(sample_site: Path) -> None:
    for prefix in ("", "en/"):
        soup = page(sample_site, prefix + "rl-for-llm/12-infrastructure/quiz/index.html")
        ids = [q["data-zq-question"] for q in soup.select("[data-zq-question]")]
        expected = [f"P{n:02d}" for n in range(1, 13)]
        # The code exercises' ids read the same in both languages: a page shows them ("Вопрос P08a").
        expected[8:8] = ["P08a"]
        expected[11:11] = ["P10a"]
        # The formula answer after P02 and the text with blanks after P07.
        expected[2:2] = ["P02a"]
        expected[8:8] = ["P07a"]
        assert ids == expected
        # Twelve auto-checked questions (P11 and P12 are open) and two code exercises.
        assert soup.select_one("[data-zq-progress]")["data-zq-total"] == "14"
        course = soup.select_one(".zq-course").get_text()
        assert "RL" in course and "12 / 13" in course


def test_admonitions_tabs_and_code_inside_author_text(fixture_site: Path) -> None:
    explanation = page(fixture_site, "en/" + QUIZ).select_one('[data-zq-question="Q5"] .zq-explanation')
    note = explanation.select_one(".admonition.note")
    assert note is not None and note.select_one(".katex") is not None
    assert [label.get_text(strip=True) for label in explanation.select(".tabbed-labels label")] == [
        "First tab", "Second tab"]
    # Math is protected from Markdown and code is protected from math: dollars in code stay as typed.
    assert explanation.select_one("code").get_text() == "cost = $5 + $x$"


def sidebar_links(site: Path, html_file: Path) -> list[tuple[str, Path | None]]:
    """(accessible name, page it leads to) of every link in a page's sidebar; None for a link within the page."""
    soup = BeautifulSoup(html_file.read_text(encoding="utf-8"), "html.parser")
    links = []
    for link in soup.select("nav.md-nav--primary a"):
        name = link.get_text(" ", strip=True) or link.get("aria-label", "").strip() or link.get("title", "").strip()
        href = link.get("href", "").split("#")[0]
        if not href:
            links.append((name, None))
            continue
        assert not href.startswith(("/", "http")), (html_file, href)
        target = (html_file.parent / href).resolve()
        links.append((name, target / "index.html" if target.is_dir() else target))
    return links


@pytest.mark.parametrize("lang, prefix, own", [
    ("ru", "", ["index.html", "authoring/index.html", "glossary/index.html"]),
    ("en", "en/", ["en/index.html", "en/authoring/index.html", "en/glossary/index.html"]),
])
def test_every_page_has_its_own_language_sidebar(sample_site: Path, lang: str, prefix: str, own: list[str]) -> None:
    """Was a bug (plugin.language_nav): the en/ folder stayed a nested list, so English pages lost their home, the
    authoring guide and the glossary, and showed an unnamed link to the Russian home instead."""
    # A problem book's page has no site navigation (tests/browser/test_print.py): every other page has its
    # language's.
    pages = [path for path in sample_site.rglob("index.html") if "assets" not in path.parts and "book" not in path.parts
             and (path.relative_to(sample_site).as_posix().startswith("en/")) == (lang == "en")]
    assert len(pages) >= 6
    expected = {(sample_site / path).resolve() for path in own}
    for html_file in pages:
        links = sidebar_links(sample_site, html_file)
        assert all(name for name, _ in links), (html_file, [target for name, target in links if not name])
        targets = {target for _, target in links if target is not None}
        assert all(target.is_file() for target in targets), html_file
        english = {target for target in targets if target.relative_to(sample_site).parts[0] == "en"}
        assert english == (targets if lang == "en" else set()), (html_file, "a page of the other language")
        assert expected <= targets, (html_file, sorted(str(path) for path in expected - targets))


def sitemap_beside(html_file: Path, href: str) -> Path:
    """Where mkdocs-material's language selector looks for the sitemap of an alternate page: `new URL("sitemap.xml",
    href)`, resolved from the page's own address."""
    from urllib.parse import urljoin

    page_url = "http://site/" + html_file.as_posix().lstrip("/")
    return Path("/" + urljoin(urljoin(page_url, href), "sitemap.xml").removeprefix("http://site/"))


def test_every_alternate_page_has_the_sitemap_material_asks_for(sample_site: Path) -> None:
    """Was a bug: Material fetches `sitemap.xml` beside each `<link rel=alternate>` of a page, two 404s per page.
    (The offline copy links none: tests/browser/test_offline.py.)"""
    from xml.etree import ElementTree

    site = sample_site
    pages = [path for path in site.rglob("*.html") if "assets" not in path.parts and path.name != "404.html"]
    assert len(pages) >= 6
    for html_file in pages:
        soup = BeautifulSoup(html_file.read_text(encoding="utf-8"), "html.parser")
        alternates = [link["href"] for link in soup.select('head link[rel="alternate"][hreflang]')]
        assert len(alternates) == 2, html_file
        for href in alternates:
            sitemap = sitemap_beside(html_file, href)
            assert sitemap.is_file(), (html_file, href, sitemap)
            assert ElementTree.fromstring(sitemap.read_bytes()).tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}urlset"


def test_the_alternate_sitemaps_are_one_file_linked_into_every_folder(sample_site: Path) -> None:
    """Each new file costs an inode, which on a file system that keeps the last build's deleted ones apart (ext4
    without a journal, as here) is a scan past all of them: the identical sitemaps are links to one file."""
    sitemaps = [path for path in sample_site.rglob("sitemap.xml") if path.parent != sample_site]
    assert len(sitemaps) >= 6
    inodes = {path.stat().st_ino for path in sitemaps}
    assert len(inodes) == 1, sorted(str(path) for path in sitemaps)
    assert sitemaps[0].stat().st_nlink == len(sitemaps)
    assert (sample_site / "sitemap.xml").stat().st_ino not in inodes, "MkDocs' own sitemap is left alone"


def test_the_sitemaps_are_copies_where_the_file_system_has_no_links(tmp_path: Path, monkeypatch) -> None:
    """A file system without hard links (or a refusal) gets a copy in each folder, and a rebuild with --dirty
    replaces what the last build left."""
    import os

    def refuse(*args, **kwargs) -> None:
        raise PermissionError("no links here")

    site = tmp_path / "site"
    source = copy_site(FIXTURE_SITE, tmp_path / "src")
    build_site(source / "mkdocs.yml", site)
    linked = [path for path in site.rglob("sitemap.xml") if path.parent != site]
    monkeypatch.setattr(os, "link", refuse)
    build_site(source / "mkdocs.yml", site, dirty=True, strict=False)  # MkDocs warns of any dirty build
    copies = [path for path in site.rglob("sitemap.xml") if path.parent != site]
    assert sorted(copies) == sorted(linked)
    assert len({path.stat().st_ino for path in copies}) == len(copies)
    assert all(path.stat().st_nlink == 1 for path in copies)
    assert len({path.read_bytes() for path in copies}) == 1


@pytest.fixture(scope="module")
def offline_fixture_site(tmp_path_factory) -> Path:
    """The fixture site as its copy for disk: pages as .html files, so sitemaps sit beside several pages."""
    source = copy_site(FIXTURE_SITE, tmp_path_factory.mktemp("offline-fixture") / "src")
    return build_site(source / "mkdocs.offline.yml", tmp_path_factory.mktemp("offline-fixture") / "site")


def test_pages_request_nothing_missing_and_the_selector_keeps_the_page(browser, sample_server) -> None:
    """Every request of a few pages (documents, scripts, styles, fonts, sitemaps, search) is answered: no 404."""
    context = browser.new_context()
    python_left_starting(context)
    page = context.new_page()
    answered: list[tuple[int, str]] = []
    failed: list[str] = []
    page.on("response", lambda response: answered.append((response.status, response.url)))
    # Leaving a page cancels what it still loads (net::ERR_ABORTED): not a missing file.
    page.on("requestfailed", lambda request: None if request.failure == "net::ERR_ABORTED"
            else failed.append(f"{request.url}: {request.failure}"))

    def wait_for_the_sitemaps() -> None:
        """Until Material has its answer for each sitemap it asks for on this page."""
        wanted = set(page.evaluate("""[...document.querySelectorAll('link[rel=alternate][hreflang]')]
            .map(link => new URL('sitemap.xml', link.href).href)"""))
        assert len(wanted) >= 1
        while not wanted <= {url for _, url in answered} | {entry.split(": ")[0] for entry in failed}:
            page.wait_for_event("response", timeout=10_000)

    try:
        for path in ["", "en/", "authoring/", "en/glossary/", "rl-for-llm/12-infrastructure/quiz/",
                     "en/modern-llms/09-pretraining/exercises/"]:
            page.goto(sample_server + path, wait_until="load")
            wait_for_the_sitemaps()
        page.locator(".md-header .md-select").hover()
        page.locator('a.md-select__link[hreflang="ru"]').click()
        page.wait_for_url(re.compile(r"127\.0\.0\.1:\d+/modern-llms/09-pretraining/exercises/(#.*)?$"))
        page.wait_for_load_state("load")
        assert page.locator("html").get_attribute("lang") == "ru"
        wait_for_the_sitemaps()
    finally:
        context.close()
    assert [(status, url) for status, url in answered if status >= 400] == []
    assert failed == []


def test_selector_keeps_the_page_from_disk(browser, offline_fixture_site: Path) -> None:
    context = browser.new_context()
    python_left_starting(context)
    page = context.new_page()
    try:
        page.goto((offline_fixture_site / "en/authoring.html").as_uri())
        page.locator(".md-header .md-select").hover()
        page.locator('a.md-select__link[hreflang="ru"]').click()
        page.wait_for_url(re.compile(r"^file://.*/site/authoring\.html(#.*)?$"))
        assert page.locator("html").get_attribute("lang") == "ru"
        page.locator(".md-header .md-select").hover()
        page.locator('a.md-select__link[hreflang="en"]').click()
        page.wait_for_url(re.compile(r"^file://.*/site/en/authoring\.html(#.*)?$"))
        assert page.locator("html").get_attribute("lang") == "en"
    finally:
        context.close()


@pytest.mark.parametrize("directory_urls, expected", [
    # An author's own authoring/sitemap.xml stays theirs; the top folder has MkDocs' own.
    # Folders as the site has them on disk: an address's escapes (%20, %D0…) are the server's to undo.
    (True, ["demo/01 basics/quiz/sitemap.xml", "en/authoring/sitemap.xml", "en/sitemap.xml", "en/курс #1/sitemap.xml"]),
    # Pages as .html files: one sitemap per folder of pages.
    (False, ["demo/01 basics/sitemap.xml", "en/sitemap.xml"]),
])
def test_alternate_sitemaps_go_where_no_file_is(tmp_path: Path, directory_urls: bool, expected: list[str]) -> None:
    from mkdocs.config import load_config
    from mkdocs.structure.files import File
    from zadachnik.rendering.site import alternate_sitemaps

    config = load_config(config_file=str(FIXTURE_SITE / "mkdocs.yml"), site_dir=str(tmp_path),
                         use_directory_urls=directory_urls)
    pages = [File(path, config.docs_dir, config.site_dir, directory_urls)
             for path in ["index.md", "authoring.md", "en/index.md", "en/authoring.md", "demo/01 basics/quiz.md",
                          "en/курс #1.md"]]
    taken = {page.dest_uri for page in pages} | {"authoring/sitemap.xml"}
    assert sorted(alternate_sitemaps((page.url for page in pages), taken)) == expected


def test_package_files_enter_linked_folders(tmp_path) -> None:
    """A linked assets/vendor (a developer's shared copy) is copied into the site like a real folder."""
    from zadachnik.runtime.shipping import package_files

    shared = tmp_path / "shared" / "katex"
    shared.mkdir(parents=True)
    (shared / "katex.min.css").write_text("css", encoding="utf-8")
    assets = tmp_path / "assets"
    assets.mkdir()
    (assets / "zadachnik.css").write_text("css", encoding="utf-8")
    (assets / "vendor").symlink_to(tmp_path / "shared", target_is_directory=True)
    found = [path.relative_to(assets).as_posix() for path in package_files(assets)]
    assert found == ["vendor/katex/katex.min.css", "zadachnik.css"]


def test_the_search_index_holds_formulas_as_their_tex(sample_site: Path) -> None:
    """Search reads each formula as its TeX, never as KaTeX's markup (which would also bloat the index)."""
    index = json.loads((sample_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    docs = [doc for doc in index["docs"] if doc["location"].startswith("rl-for-llm/12-infrastructure/quiz/")]
    text = " ".join(doc["text"] for doc in docs)
    assert docs and "\\frac" in text and "\\cdot" in text
    assert "katex" not in text and "zq-math" not in text


def test_an_offline_zip_of_a_site_built_for_a_server_is_refused(tmp_path: Path, caplog) -> None:
    """`offline_zip` without `offline: true` would zip pages that do not work opened from disk (folder links,
    module scripts): the build stops, naming the file and what to write, and writes no zip."""
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    config = site / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert "      languages: [ru, en]\n" in text
    config.write_text(text.replace("      languages: [ru, en]\n",
                                   "      languages: [ru, en]\n      offline_zip: build/copy.zip\n"), encoding="utf-8")
    message = build_failure(config, tmp_path / "out", caplog)
    assert "mkdocs.yml: 'offline_zip' needs 'offline: true'" in message
    assert not (site / "build" / "copy.zip").exists()


@pytest.mark.parametrize(("setting", "expected"), [
    # mkdocs-material's offline plugin turns folder URLs off itself: a site without it must.
    ("use_directory_urls: true\n", "'offline: true' needs 'use_directory_urls: false'"),
    ("theme:\n  name: material\n  features: [navigation.instant]\n",
     "'offline: true' needs the theme feature 'navigation.instant' off"),
    ("theme:\n  name: material\n  features: [navigation.instant.preview]\n",
     "'offline: true' needs the theme feature 'navigation.instant.preview' off"),
])
def test_an_offline_copy_that_could_not_work_from_disk_is_refused(tmp_path: Path, caplog, setting: str,
                                                                  expected: str) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    config = site / "mkdocs.offline.yml"
    text = config.read_text(encoding="utf-8").replace("use_directory_urls: false\n", setting)
    config.write_text(text.replace("  - offline\n", "") if "use_directory_urls" in setting else text,
                      encoding="utf-8")
    message = build_failure(config, tmp_path / "out", caplog)
    assert f"mkdocs.offline.yml: {expected}" in message
    assert not (site / "build" / "fixture-offline.zip").exists()


def test_an_explicit_nav_of_every_languages_pages_builds_each_languages_navigation_quietly(tmp_path: Path,
                                                                                            caplog) -> None:
    """With `nav:` listing the hand-written pages, MkDocs listed every generated page as 'not included in the nav'
    (they are, in each language's navigation), in a long block of the build's log."""
    import logging

    source = copy_site(FIXTURE_SITE, tmp_path / "src")
    config = source / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        "docs_dir: docs\n", "docs_dir: docs\nnav:\n  - index.md\n  - authoring.md\n  - en/index.md\n"
        "  - en/authoring.md\n"), encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        site = build_site(config, tmp_path / "site")
    assert "not included in the \"nav\"" not in caplog.text, caplog.text
    en = page(site, "en/" + QUIZ).select_one("nav.md-nav--primary").get_text(" ", strip=True)
    assert "Demo course" in en and "Демокурс" not in en
    ru = page(site, QUIZ).select_one("nav.md-nav--primary").get_text(" ", strip=True)
    assert "Демокурс" in ru and "Demo course" not in ru


def test_a_language_without_its_home_page_fails_the_strict_build_and_the_check(tmp_path: Path, caplog) -> None:
    """Without docs/en/index.md the language selector led to a missing page, the English course list was nowhere,
    and `mkdocs build --strict` passed."""
    import subprocess
    import sys

    source = copy_site(FIXTURE_SITE, tmp_path / "src")
    (source / "docs" / "en" / "index.md").unlink()
    said = ("docs/en/index.md is missing: the en pages have no home page, and the language selector leads to none "
            "(copy docs/index.md there and translate it, with its course list)")
    assert said in build_failure(source / "mkdocs.yml", tmp_path / "site", caplog) + caplog.text
    result = subprocess.run([sys.executable, "-m", "zadachnik", "check"], cwd=source, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr
    assert said in result.stdout + result.stderr
