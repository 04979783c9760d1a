"""Sites in any languages, in Chromium: a one-language site ([en]), two without Russian ([en, de]) and three
([ru, en, fr]), each from a small fixture. The selector is there only with several languages and names each in
itself; the instruction line names the site's own languages; a German page writes and reads decimal commas."""

from __future__ import annotations

import pytest
from support.browser import serve
from support.sites import ROOT, build_site

FIXTURES = ROOT / "tests" / "fixtures"
QUIZ = "units/01-measures/quiz/"
EXERCISES = "units/01-measures/exercises/"


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """Each language fixture built once and served: name → base URL."""
    started = {}
    for name in ("lang-en", "lang-en-de", "lang-ru-en-fr"):
        site = build_site(FIXTURES / name / "mkdocs.yml", tmp_path_factory.mktemp(name) / "site")
        started[name] = serve(site)
    yield {name: url for name, (url, _) in started.items()}
    for _, server in started.values():
        server.shutdown()


def open_page(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")


def selector_names(page) -> list[str]:
    return [name.strip() for name in page.locator(".md-select__link[hreflang]").all_text_contents()]


def instruction(page) -> str:
    return page.locator(".zq-instruction").inner_text()


def test_a_one_language_site_has_no_selector_and_says_nothing_of_languages(page, servers) -> None:
    open_page(page, servers["lang-en"] + QUIZ)
    assert page.locator(".md-select__link[hreflang]").count() == 0
    assert page.locator("[data-md-component=alternate], .md-header__option .md-select").count() == 0
    text = instruction(page)
    assert "stay in this browser." in text
    assert "versions" not in text and "Russian" not in text and "English" not in text
    open_page(page, servers["lang-en"] + EXERCISES)
    assert "versions" not in instruction(page)


def test_a_one_language_page_keeps_its_answers_over_a_reload(page, servers) -> None:
    open_page(page, servers["lang-en"] + QUIZ)
    page.check("#q-Q1 input[value=B]")
    page.fill("#zq-Q2-length", "2.5")
    page.click("#q-Q2 [data-zq-check]")
    page.wait_for_selector("#q-Q2[data-zq-status=correct]")
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.locator("#q-Q1 input[value=B]").is_checked()
    assert page.input_value("#zq-Q2-length") == "2.5"
    page.wait_for_selector("#q-Q2[data-zq-status=correct]")


def test_english_and_german_names_and_instruction(page, servers) -> None:
    open_page(page, servers["lang-en-de"] + QUIZ)
    assert selector_names(page) == ["English", "Deutsch"]
    assert "shared by the versions of this page in English and German" in instruction(page)
    open_page(page, servers["lang-en-de"] + "de/" + QUIZ)
    assert selector_names(page) == ["English", "Deutsch"]
    assert "Englisch und Deutsch" in instruction(page)
    assert page.locator("html").get_attribute("lang") == "de"


def test_a_german_page_writes_and_reads_decimal_commas(page, servers) -> None:
    open_page(page, servers["lang-en-de"] + "de/" + QUIZ)
    page.fill("#zq-Q2-length", "2,5")
    reading = page.locator("#q-Q2 [data-zq-reading]")
    page.wait_for_function("el => el.textContent.trim() !== ''", arg=reading.element_handle())
    assert "2,5" in reading.text_content() and "2.5" not in reading.text_content()
    page.click("#q-Q2 [data-zq-check]")
    page.wait_for_selector("#q-Q2[data-zq-status=correct]")
    page.click("#q-Q2 details.zq-reveal summary")
    answer = page.locator("#q-Q2 .zq-answer").inner_text()
    assert "2,5" in answer and "2.5" not in answer
    assert "±0,05" in page.locator("#q-Q2 .zq-tolerance").inner_text()


def test_answers_are_shared_between_the_german_and_english_pages(page, servers) -> None:
    open_page(page, servers["lang-en-de"] + "de/" + QUIZ)
    page.fill("#zq-Q2-length", "2,5")
    page.click("#q-Q2 [data-zq-check]")
    page.wait_for_selector("#q-Q2[data-zq-status=correct]")
    open_page(page, servers["lang-en-de"] + QUIZ)
    assert page.input_value("#zq-Q2-length") == "2,5"
    page.wait_for_selector("#q-Q2[data-zq-status=correct]")


def test_three_languages_each_named_in_itself(page, servers) -> None:
    for prefix, words in (("", "русский, английский и французский"), ("en/", "Russian, English, and French"),
                          ("fr/", "russe, anglais et français")):
        open_page(page, servers["lang-ru-en-fr"] + prefix + QUIZ)
        assert selector_names(page) == ["Русский", "English", "Français"]
        assert words in instruction(page), (prefix, instruction(page))
    page.locator(".md-header .md-select").hover()
    page.locator('a.md-select__link[hreflang="en"]').click()
    page.wait_for_url("**/en/" + QUIZ)

