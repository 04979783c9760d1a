"""The learner's pages (issues 27, 28): authors' text as written, ids shared by the languages, the page's
furniture out of search."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.sites import ROOT, build_site
from zadachnik.rendering.i18n import SECTIONS


@pytest.mark.parametrize("path", ["rl-for-llm/12-infrastructure/book/", "en/modern-llms/09-pretraining/book/",
                                  "modern-llms/09-pretraining/book/"])
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


def furniture(languages: list[str], sources: Path) -> set[str]:
    """Every piece of text the words files give the pages of these languages (the parts between placeholders),
    except what the course's own sources also say: those are the author's words too."""
    import yaml
    from zadachnik.rendering.i18n import WORDS_DIR

    def texts(value) -> list[str]:
        return [text for item in value.values() for text in texts(item)] if isinstance(value, dict) else [str(value)]

    authors = "\n".join(path.read_text(encoding="utf-8") for path in sources.rglob("*")
                        if path.suffix in (".md", ".yml", ".py"))
    pieces = set()
    for lang in languages:
        words = yaml.safe_load((WORDS_DIR / f"{lang}.yml").read_text(encoding="utf-8"))
        for text in texts({section: words[section] for section in SECTIONS}):
            pieces.update(piece.strip(" .,:;·—–-()[]«»“”\"'") for piece in re.split(r"\{[^}]*\}", text))
    # A piece of a few letters ("B", "de") is no sign of anything.
    return {piece for piece in pieces if len(piece) >= 4 and piece not in authors}


def site_languages(config_file: Path) -> list[str]:
    from zadachnik.config import read_site_options

    return list(read_site_options(config_file).plugin.languages)


def furniture_in_the_search_index(site: Path, languages: list[str], sources: Path) -> list[tuple[str, str]]:
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    generated = [doc for doc in index["docs"] if "/quiz/" in doc["location"] or "/exercises/" in doc["location"]]
    assert generated
    words = furniture(languages, sources)
    return sorted({(doc["location"], word) for doc in generated for word in words if word in doc["text"]})


def test_page_controls_stay_out_of_the_search_index(sample_site) -> None:
    """Search results show questions' words, never the page's furniture: the instruction and progress lines,
    button labels, reveal toggles, the editor's and the notes' labels, the course files' line."""
    index = json.loads((sample_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    found = furniture_in_the_search_index(sample_site, site_languages(ROOT / "mkdocs.yml"), ROOT / "exercises")
    assert not found, found[:8]
    # The questions' own words are still found.
    assert any("Роллауты генерирует" in doc["text"] for doc in index["docs"])


def test_page_controls_stay_out_of_the_search_index_of_a_one_language_spanish_site(tmp_path: Path) -> None:
    site = tmp_path / "es"
    subprocess.run([sys.executable, "-m", "zadachnik", "new", str(site), "--languages", "es"], check=True,
                   capture_output=True, timeout=120)
    built = build_site(site / "mkdocs.yml", tmp_path / "site")
    assert site_languages(site / "mkdocs.yml") == ["es"]
    found = furniture_in_the_search_index(built, site_languages(site / "mkdocs.yml"), site / "exercises")
    assert not found, found[:8]
    index = json.loads((built / "search" / "search_index.json").read_text(encoding="utf-8"))
    # The author's question, explanation and solution stay searchable.
    texts = " ".join(doc["text"] for doc in index["docs"])
    assert "¿Cuál de estos números es primo?" in texts and "se dividen entre 2 sin resto" in texts
    assert "return sum(numbers) / len(numbers)" in texts


@pytest.mark.parametrize(("path", "module", "kind"), [
    ("rl-for-llm/12-infrastructure/quiz/index.html", "Модуль 12. ", "Тест"),
    ("en/modern-llms/09-pretraining/exercises/index.html", "Module 9. ", "Exercises"),
    ("modern-llms/09-pretraining/quiz/index.html", "Модуль 9. ", "Тест"),
    ("en/modern-llms/09-pretraining/book/index.html", "Module 9. ", "Problem book"),
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
    if "/book/" in path:
        # Search reads no problem book: its pages repeat the module's.
        assert not entry, entry
    else:
        assert entry and entry[0]["title"].startswith(module), entry
    if "/book/" not in path:
        links = {link.get_text(strip=True) for link in soup.select(".md-nav__link--active")}
        assert kind in links, links
