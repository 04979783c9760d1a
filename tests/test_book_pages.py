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
