"""The learner's pages (issues 27, 28): authors' text as written, ids shared by the languages, the page's
furniture out of search."""

from __future__ import annotations

import re

import pytest


@pytest.mark.parametrize("path", ["modern-llms/book/", "en/modern-llms/book/", "modern-llms/09-pretraining/book/"])
def test_a_book_never_changes_the_case_of_authors_titles(page, sample_server: str, path: str) -> None:
    page.goto(sample_server + path)
    headings = page.eval_on_selector_all(
        ".zq-book :is(h1, h2, h3, h4, h5, h6)",
        "nodes => nodes.map(node => [node.textContent.trim(), node.innerText.trim(),"
        " getComputedStyle(node).textTransform])",
    )
    assert headings
    # Runs of ordinary white space collapse on screen; a no-break space ("обучения\u00a0— разные") stays one.
    changed = [(text, shown, transform) for text, shown, transform in headings
               if transform != "none" or shown.replace("\n", " ") != re.sub(r"[ \t\n\r]+", " ", text)]
    assert not changed, changed[:5]
    page.emulate_media(media="print")
    transforms = page.eval_on_selector_all(".zq-book :is(h1, h2, h3, h4, h5, h6)",
                                           "nodes => nodes.map(node => getComputedStyle(node).textTransform)")
    assert set(transforms) == {"none"}, transforms


def heading_ids(html_file) -> list[str]:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html_file.read_text(encoding="utf-8"), "html.parser")
    content = soup.select_one("article.md-content__inner") or soup
    return [heading["id"] for heading in content.select("h1[id], h2[id], h3[id], h4[id], h5[id], h6[id]")]


def test_every_page_and_its_translation_share_their_heading_ids(sample_site) -> None:
    """The language switch keeps the place (#anchor): a heading is found by the same id in every language."""
    differ = {}
    for russian in sorted(sample_site.rglob("*.html")):
        relative = russian.relative_to(sample_site)
        english = sample_site / "en" / relative
        if relative.parts[0] == "en" or not english.is_file():
            continue
        ru_ids, en_ids = heading_ids(russian), heading_ids(english)
        if ru_ids != en_ids:
            differ[str(relative)] = sorted(set(ru_ids) ^ set(en_ids))[:6]
    assert not differ, differ


def test_page_controls_stay_out_of_the_search_index(sample_site) -> None:
    """Search results show questions' words, never the instruction line, the progress line or button labels."""
    import json

    import yaml
    from support.sites import ROOT

    furniture = []
    for lang in ("ru", "en"):
        words = yaml.safe_load((ROOT / f"plugins/zadachnik/rendering/words/{lang}.yml").read_text(encoding="utf-8"))
        page = words["page"]
        furniture += [page["quiz_instruction"].split("{")[0].strip(), page["progress"].split("{")[0].strip(),
                      page["reset"], page["export"], page["single_legend"], page["matching_legend"],
                      page["print_answers"], page["exercises_instruction"]]
    index = json.loads((sample_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    generated = [doc for doc in index["docs"] if "/quiz/" in doc["location"] or "/exercises/" in doc["location"]]
    assert generated
    found = {(doc["location"], word) for doc in generated for word in furniture if word and word in doc["text"]}
    assert not found, sorted(found)[:8]
    # The questions' own words are still found.
    assert any("Роллауты генерирует" in doc["text"] for doc in generated)


@pytest.mark.parametrize(("path", "module", "kind"), [
    ("rl-for-llm/12-infrastructure/quiz/index.html", "Модуль 12. ", "Тест"),
    ("en/modern-llms/09-pretraining/exercises/index.html", "Module 9. ", "Exercises"),
    ("modern-llms/09-pretraining/quiz/index.html", "Модуль 9. ", "Тест"),
    ("en/modern-llms/09-pretraining/book/index.html", "Module 9. ", "Problem book"),
    ("rl-for-llm/book/index.html", "RL для LLM · ", "Задачник курса"),
])
def test_a_generated_pages_title_names_its_module_and_the_navigation_stays_short(
        sample_site, path: str, module: str, kind: str) -> None:
    """Browser tabs and search results tell modules apart; the navigation, under the module, says the kind."""
    import json

    from bs4 import BeautifulSoup

    soup = BeautifulSoup((sample_site / path).read_text(encoding="utf-8"), "html.parser")
    title = soup.title.get_text()
    assert title.startswith(module) and kind in title, title
    url = path.removesuffix("index.html")
    index = json.loads((sample_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    entry = [doc for doc in index["docs"] if doc["location"] == url]
    assert not entry or entry[0]["title"].startswith(module), entry
    if "/book/" not in path:
        links = {link.get_text(strip=True) for link in soup.select(".md-nav__link--active")}
        assert kind in links, links
