"""Search lists the pages of the page's own language (issue 13, part 3): mkdocs-material builds one index for the
whole site, and the plugin's polyfill keeps a Russian page's results Russian and an English page's English, over
http, from disk, and after instant navigation to a page in another language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from support.sites import FIXTURE_SITE, ROOT, build_site, copy_site
from zadachnik.runtime.shipping import SEARCH_LANGUAGE_SCRIPT, minified

WRAPPER = ROOT / "plugins/zadachnik/runtime/assets/js/search-lang.js"
ITEMS = ".md-search-result__list > li.md-search-result__item"
# A word of pages in both languages: of five pages each on the sample site, of the quiz on the fixture site.
WORD = "python"
# Every test here searches: its pages get the site's own index (tests/conftest.py's page fixture).
pytestmark = pytest.mark.search


@pytest.fixture(scope="session")
def offline_site(tmp_path_factory) -> Path:
    """The fixture site's copy for opening from disk, built once (the zip holds this same folder)."""
    work = tmp_path_factory.mktemp("search-offline")
    source = copy_site(FIXTURE_SITE, work / "src")
    return build_site(source / "mkdocs.offline.yml", work / "site")


def search(page, word: str = WORD) -> tuple[int, list[str]]:
    """Type `word` as one query (Material asks on keyup: filling first, then one key, asks for the whole word
    only), then (the count Material shows, the pages listed) once the results are shown."""
    box = page.locator("[data-md-component=search-query]")
    box.click()
    box.fill(word)
    box.press("End")
    return results(page)


def results(page, language_prefix: str | None = None) -> tuple[int, list[str]]:
    """The shown results; with `language_prefix`, once every listed page is under it ("" for none)."""
    page.wait_for_function(
        """([items, prefix]) => {
             const meta = document.querySelector('.md-search-result__meta');
             const links = [...document.querySelectorAll(items + ' > a.md-search-result__link:first-child')];
             return meta && /\\d/.test(meta.textContent) && links.length > 0
               && (prefix === null || links.every(link => new URL(link.href).pathname.includes(prefix)));
           }""",
        arg=[ITEMS, language_prefix])
    count = int(re.search(r"\d+", page.inner_text(".md-search-result__meta")).group())
    links = page.eval_on_selector_all(f"{ITEMS} > a.md-search-result__link:first-child",
                                      "links => links.map(link => link.href)")
    return count, links


def language_of(link: str, root: str) -> str:
    return "en" if link.removeprefix(root).startswith("en/") else "ru"


# Records the pages of each setup message Material's search worker is given (under the wrapper, which extends the
# browser's Worker), by language: the default language's pages sit at the root, the others' under their folder.
RECORD_SETUPS = """(() => {
  window.zqSetups = [];
  const send = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === 0 && message.data && Array.isArray(message.data.docs)) {
      window.zqSetups.push(message.data.docs.map((doc) => String(doc.location)));
    }
    return send.call(this, message, ...rest);
  };
})();"""


def setups(page) -> list[dict[str, int]]:
    """How many pages of each language each setup message gave the worker."""
    given = page.evaluate("window.zqSetups")
    return [{lang: sum(1 for location in docs if ("en" if location.startswith("en/") else "ru") == lang)
             for lang in ("ru", "en")} for docs in given]


def site_pages(site: Path) -> dict[str, int]:
    """The site's search index, by language: what the worker had to index for every page before."""
    docs = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    return {lang: sum(1 for doc in docs if ("en" if doc["location"].startswith("en/") else "ru") == lang)
            for lang in ("ru", "en")}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_worker_indexes_the_pages_language_only(page, sample_site: Path, sample_server: str, lang: str) -> None:
    """Indexing every language's pages cost every page load as much again: the worker gets the page's own."""
    page.add_init_script(RECORD_SETUPS)
    page.goto(sample_server + ("" if lang == "ru" else "en/"))
    search(page)
    everything = site_pages(sample_site)
    assert min(everything.values()) > 100, everything
    assert setups(page) == [{lang: everything[lang], "ru" if lang == "en" else "en": 0}]


def test_without_the_wrapper_search_lists_both_languages(page, sample_server: str) -> None:
    """What the wrapper is for, and proof that the word is one of both languages' pages."""
    page.route("**/search-lang.js", lambda route: route.abort())
    page.goto(sample_server)
    _, links = search(page)
    assert {language_of(link, sample_server) for link in links} == {"ru", "en"}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_search_lists_the_pages_language_only(page, sample_server: str, lang: str) -> None:
    page.goto(sample_server + ("" if lang == "ru" else "en/"))
    count, links = search(page)
    assert {language_of(link, sample_server) for link in links} == {lang}, links
    assert count == len(links) >= 2
    assert page.inner_text(".md-search-result__meta").startswith(
        "Найдено совпадений" if lang == "ru" else f"{count} matching documents")


@pytest.mark.own_context
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_search_from_disk_lists_the_pages_language_only(page, offline_site: Path, lang: str) -> None:
    root = offline_site.as_uri() + "/"
    page.goto(root + ("" if lang == "ru" else "en/") + "index.html")
    count, links = search(page)
    assert {language_of(link, root) for link in links} == {lang}, links
    assert count == len(links) >= 1


def test_after_instant_navigation_to_another_language_the_results_are_its(page, instant_server: str) -> None:
    """A link of a Russian page's text to an English one, followed without a reload. Material loads a link into
    another language's folder whole once it has that language's sitemap and the site root's came later (the
    header's selector always does): the English sitemap waits here until the page has come in, so the link is
    followed instantly every time, as it is for a learner whose English sitemap came last."""
    held = []
    page.route(instant_server + "en/sitemap.xml", lambda route: held.append(route))
    page.add_init_script(RECORD_SETUPS)
    page.goto(instant_server)
    _, links = search(page)
    assert {language_of(link, instant_server) for link in links} == {"ru"}
    page.keyboard.press("Escape")
    page.evaluate("window.zqSamePage = true")
    page.evaluate("""() => { const link = Object.assign(document.createElement('a'), {href: 'en/authoring/',
                                                                                     id: 'zq-to-english'});
                             link.textContent = 'English';
                             document.querySelector('.md-content article').append(link);
                             link.click(); }""")
    page.wait_for_function("location.pathname.endsWith('/en/authoring/')")
    page.locator("[data-md-component=search-query]").click()
    count, links = results(page, language_prefix="/en/")
    assert page.evaluate("window.zqSamePage"), "instant navigation: no reload"
    assert {language_of(link, instant_server) for link in links} == {"en"}, links
    assert count == len(links)
    # The worker indexed the Russian pages, then, on the English page, the English ones.
    assert [sorted(lang for lang, pages in given.items() if pages) for given in setups(page)] == [["ru"], ["en"]]
    assert held, "Material asked for the English sitemap"
    for route in held:
        route.continue_()


def test_the_site_gets_the_wrapper_after_the_search_shim_with_its_languages(offline_site: Path) -> None:
    html = (offline_site / "en/index.html").read_text(encoding="utf-8")
    scripts = re.findall(r'<script src="\.\./(assets/[^"]+)"', html)
    assert scripts.index("assets/zadachnik/iframe-worker/shim.js") < scripts.index(SEARCH_LANGUAGE_SCRIPT) \
        < next(index for index, src in enumerate(scripts) if src.startswith("assets/javascripts/bundle."))
    shipped = (offline_site / SEARCH_LANGUAGE_SCRIPT).read_text(encoding="utf-8")
    data, rest = shipped.split("\n", 1)
    assert data == 'window.__zqSearchLanguages={"default":"ru","others":["en"]};'
    assert rest == minified("js/search-lang.js", WRAPPER.read_text(encoding="utf-8")), \
        "the package's file, minified as every script"


def test_a_one_language_site_gets_no_wrapper(tmp_path: Path) -> None:
    source = tmp_path / "src"
    (source / "docs").mkdir(parents=True)
    (source / "exercises").mkdir()
    (source / "docs" / "index.md").write_text("# Home\n\nOne language, nothing to keep apart.\n", encoding="utf-8")
    (source / "mkdocs.yml").write_text(
        "site_name: One language\ntheme: {name: material, language: en}\n"
        "plugins: [search, {zadachnik: {exercises_dir: exercises, languages: [en]}}]\n", encoding="utf-8")
    site = build_site(source / "mkdocs.yml", tmp_path / "site")
    assert "search-lang" not in (site / "index.html").read_text(encoding="utf-8")
    assert not (site / SEARCH_LANGUAGE_SCRIPT).exists()
