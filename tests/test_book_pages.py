"""The learner's printed and on-screen problem books (issue 28): authors' text exactly as written."""

from __future__ import annotations

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
    changed = [(text, shown, transform) for text, shown, transform in headings
               if transform != "none" or shown.replace("\n", " ") != " ".join(text.split())]
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
