"""The sample site in Chromium: the header's language selector, search, the palette toggle, math without JS."""

from __future__ import annotations

import re

import pytest

QUIZ = "rl-for-llm/12-infrastructure/quiz/"


@pytest.fixture
def page(browser, sample_server):
    context = browser.new_context()
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.requests = requests
    yield page
    context.close()


def test_language_selector_keeps_the_page(page, sample_server) -> None:
    page.goto(sample_server + QUIZ + "#q-P05")
    assert page.locator("html").get_attribute("lang") == "ru"
    page.locator(".md-header .md-select").hover()
    page.locator('a.md-select__link[hreflang="en"]').click()
    page.wait_for_url(re.compile(r"/en/rl-for-llm/12-infrastructure/quiz/"))
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("#q-P05 h3").inner_text().startswith("Question P05")
    page.locator(".md-header .md-select").hover()
    page.locator('a.md-select__link[hreflang="ru"]').click()
    page.wait_for_url(re.compile(r"/rl-for-llm/12-infrastructure/quiz/$"))
    assert page.locator("#q-P05 h3").inner_text().startswith("Вопрос P05")


def test_search_finds_a_question(page, sample_server) -> None:
    page.goto(sample_server + "en/" + QUIZ)
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.keyboard.type("checkpoint", delay=30)
    first = page.locator(".md-search-result__item").first
    first.wait_for(timeout=15000)
    text = first.inner_text()
    assert "P10" in text
    # Each formula once in the result, not three times (visual, MathML, TeX).
    assert "C=120C=120" not in text.replace(" ", "")


def test_palette_toggle_switches_to_dark(page, sample_server) -> None:
    page.goto(sample_server + QUIZ)
    before = page.locator("body").get_attribute("data-md-color-scheme")
    page.locator("form[data-md-component=palette] label:visible").first.click()
    after = page.locator("body").get_attribute("data-md-color-scheme")
    assert {before, after} == {"default", "slate"}


def test_math_is_rendered_without_a_math_script(page, sample_server) -> None:
    page.goto(sample_server + "en/" + QUIZ)
    assert page.locator(".katex").count() > 20
    assert not [url for url in page.requests if "katex" in url and url.endswith(".js")]
    font_loaded = page.evaluate("document.fonts.check('16px KaTeX_Main')")
    assert font_loaded
    assert all(url.startswith(sample_server) or url.startswith("data:") for url in page.requests), page.requests
