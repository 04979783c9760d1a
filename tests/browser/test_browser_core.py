"""The sample site in Chromium: the header's language selector, search, the palette toggle, math without JS."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from support.sites import ROOT, build_site

QUIZ = "rl-for-llm/12-infrastructure/quiz/"
EXERCISES = "modern-llms/09-pretraining/exercises/"
GUIDE = "authoring/"


@pytest.fixture
def page(page):
    """The shared `page` (tests/conftest.py), with the addresses it asked for in `page.requests`."""
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.requests = requests
    return page


def test_language_selector_keeps_the_page(page, sample_server) -> None:
    page.goto(sample_server + QUIZ + "#q-P05")
    assert page.locator("html").get_attribute("lang") == "ru"
    page.locator(".md-header .md-select").hover()
    page.locator('a.md-select__link[hreflang="en"]').click()
    page.wait_for_url(re.compile(r"/en/rl-for-llm/12-infrastructure/quiz/"))
    assert page.locator("html").get_attribute("lang") == "en"
    # A question with variants shows its title once it is the learner's variant's.
    title = page.locator("#q-P05 .zq-question__title [data-zq-slot], #q-P05 .zq-question__title").first
    expect(title).to_be_visible()
    expect(page.locator("#q-P05 .zq-question__title")).to_have_text(re.compile(r"^\s*Question P05"))
    page.locator(".md-header .md-select").hover()
    page.locator('a.md-select__link[hreflang="ru"]').click()
    page.wait_for_url(re.compile(re.escape(sample_server) + r"rl-for-llm/12-infrastructure/quiz/(#[\w-]+)?$"))
    expect(page.locator("#q-P05 .zq-question__title")).to_have_text(re.compile(r"^\s*Вопрос P05"))


@pytest.mark.search
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


# -- the learner's place when switching language -------------------------------------------------


@pytest.fixture(scope="session")
def offline_sample(tmp_path_factory) -> Path:
    """The sample site as its copy for disk (opened from file://), as the offline build makes it."""
    plugins = [{"search": {"lang": ["ru", "en"]}}, "offline",
               {"zadachnik": {"exercises_dir": "exercises", "languages": ["ru", "en"], "offline": True}}]
    return build_site(ROOT / "mkdocs.yml", tmp_path_factory.mktemp("offline-sample") / "site",
                      use_directory_urls=False, plugins=plugins)


# The block (question, exercise) under a point just below the header, found by this test's own means.
# The theme's "Back to top" button floats over the content's top once the page has scrolled up (the place's own
# scroll, from where the browser put the address's target, is one): the block is what lies under it.
BLOCK_AT_TOP = """() => {
  const top = Math.max(0, document.querySelector('.md-header').getBoundingClientRect().bottom);
  const content = document.querySelector('.md-content').getBoundingClientRect();
  const element = document.elementsFromPoint(content.left + content.width / 2, top + 30)
    .find((found) => !found.closest('.md-top'));
  const block = element && element.closest('[data-zq-question], [data-zq-exercise]');
  return block ? block.id : '';
}"""


def reading_top(page) -> float:
    return page.evaluate("Math.max(0, document.querySelector('.md-header').getBoundingClientRect().bottom)")


def scroll_into(page, element_id: str, depth: int) -> None:
    """Scroll so the element starts `depth` pixels above the bottom of the header (the learner reads it)."""
    page.evaluate("""([id, depth]) => {
      const top = Math.max(0, document.querySelector('.md-header').getBoundingClientRect().bottom);
      window.scrollTo({top: document.getElementById(id).getBoundingClientRect().top + scrollY - top + depth,
                       behavior: 'instant'});
    }""", [element_id, depth])
    assert page.evaluate(BLOCK_AT_TOP) == element_id


def choose_language(page, lang: str) -> None:
    """Pick a language from the keyboard: Playwright's click would first scroll the page to bring the header's
    link "into view", moving the learner's place before the click."""
    focused = page.evaluate("""(lang) => {
      const link = document.querySelector(`a.md-select__link[hreflang="${lang}"]`);
      link.focus({preventScroll: true});
      return document.activeElement === link;
    }""", lang)
    assert focused
    page.keyboard.press("Enter")
    page.wait_for_selector(f'.zq-page[data-zq-lang="{lang}"][data-zq-ready=yes], html[lang="{lang}"]')
    page.wait_for_load_state("load")


def assert_block_at_top(page, element_id: str) -> None:
    """The block is what the learner sees first: right under the header, its title in view."""
    page.wait_for_function(f"({BLOCK_AT_TOP})() === {element_id!r}")
    top = page.evaluate(f"document.getElementById({element_id!r}).getBoundingClientRect().top")
    assert reading_top(page) - 1 <= top <= reading_top(page) + 60, top


@pytest.fixture(params=["plain", "instant"])
def site_url(request, sample_server, instant_server) -> str:
    return sample_server if request.param == "plain" else instant_server


def test_language_switch_opens_the_question_at_the_top(page, site_url) -> None:
    page.goto(site_url + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    scroll_into(page, "q-P05", 150)
    choose_language(page, "en")
    assert page.locator("html").get_attribute("lang") == "en"
    assert_block_at_top(page, "q-P05")
    # Back and forth: the same place each time, no drift to a neighbour.
    choose_language(page, "ru")
    assert_block_at_top(page, "q-P05")
    choose_language(page, "en")
    assert_block_at_top(page, "q-P05")


def language_link_centre(page, lang: str) -> tuple[float, float]:
    """Open the language menu with the mouse and find the centre of a language's link."""
    # The mouse itself, not locator.hover(): Playwright scrolls the header's sticky element "into view" first.
    button = page.locator(".md-header .md-select").bounding_box()
    page.mouse.move(button["x"] + button["width"] / 2, button["y"] + button["height"] / 2)
    # The menu has slid fully open: a click at the link's centre lands on it.
    page.wait_for_function("""() => {
      const inner = getComputedStyle(document.querySelector('.md-header .md-select__inner'));
      return inner.opacity === '1' && Math.abs(new DOMMatrix(inner.transform).f) < 0.5;
    }""")
    box = page.locator(f'a.md-select__link[hreflang="{lang}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_language_switch_by_mouse_opens_the_question_at_the_top(page, sample_server) -> None:
    page.goto(sample_server + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    scroll_into(page, "q-P03", 100)
    x, y = language_link_centre(page, "en")
    assert page.evaluate(BLOCK_AT_TOP) == "q-P03", "the place is still the one scrolled to"
    page.mouse.click(x, y)
    page.wait_for_selector('.zq-page[data-zq-lang="en"][data-zq-ready=yes]')
    page.wait_for_load_state("load")
    assert_block_at_top(page, "q-P03")


def test_language_opened_in_a_new_tab_keeps_the_place(page, sample_server) -> None:
    page.goto(sample_server + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    scroll_into(page, "q-P04", 100)
    x, y = language_link_centre(page, "en")
    with page.context.expect_page() as opened:
        page.mouse.click(x, y, button="middle")
    opened.value.wait_for_url(re.compile(re.escape(sample_server + "en/" + QUIZ + "#q-P04") + "$"))
    opened.value.close()
    assert page.url == sample_server + QUIZ, "this tab stays where it was"


def test_language_switch_after_instant_navigation(page, instant_server) -> None:
    """Material swaps the page in without touching the header: the selector's links are still the first page's."""
    page.goto(instant_server + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.evaluate("window.zqSamePage = true")
    page.evaluate("document.querySelector('.md-nav--primary a[href*=\"09-pretraining/exercises/\"]').click()")
    page.wait_for_selector(".zq-exercises[data-zq-ready=yes]")
    assert page.evaluate("window.zqSamePage"), "instant navigation: no reload"
    scroll_into(page, "e-E2", 60)
    choose_language(page, "en")
    assert page.url.startswith(instant_server + "en/" + EXERCISES), page.url
    assert_block_at_top(page, "e-E2")


def test_language_switch_follows_the_learner_not_an_old_hash(page, site_url) -> None:
    page.goto(site_url + "en/" + QUIZ + "#q-P02")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    scroll_into(page, "q-P07", 40)
    choose_language(page, "ru")
    assert_block_at_top(page, "q-P07")


def test_language_switch_from_the_top_opens_the_top(page, site_url) -> None:
    page.goto(site_url + QUIZ + "#q-P03")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
    choose_language(page, "en")
    assert page.evaluate("location.hash") == ""
    assert page.evaluate("window.scrollY") == 0


def test_language_switch_opens_the_exercise_at_the_top(page, site_url) -> None:
    page.goto(site_url + EXERCISES)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    scroll_into(page, "e-E3", 80)
    choose_language(page, "en")
    assert_block_at_top(page, "e-E3")


def test_language_switch_opens_the_heading_at_the_top(page, site_url) -> None:
    page.goto(site_url + "en/" + GUIDE)
    heading = page.locator("h2#math")
    heading.scroll_into_view_if_needed()
    page.evaluate("""() => {
      const top = document.querySelector('.md-header').getBoundingClientRect().bottom;
      window.scrollTo({top: document.getElementById('math').getBoundingClientRect().top + scrollY - top - 10,
                       behavior: 'instant'});
    }""")
    choose_language(page, "ru")
    page.wait_for_function("document.getElementById('math') && document.documentElement.lang === 'ru'")
    page.wait_for_function("""() => {
      const top = document.querySelector('.md-header').getBoundingClientRect().bottom;
      const at = document.getElementById('math').getBoundingClientRect().top;
      return at >= top - 1 && at <= top + 60;
    }""")
    assert page.locator("h2#math").inner_text().startswith("Формулы")


def test_language_switch_keeps_the_place_on_disk(context, offline_sample: Path) -> None:
    context.route("http://**/*", lambda route: route.abort())
    context.route("https://**/*", lambda route: route.abort())
    page = context.new_page()
    page.goto((offline_sample / "rl-for-llm/12-infrastructure/quiz.html").as_uri())
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    scroll_into(page, "q-P06", 120)
    choose_language(page, "en")
    assert page.url.startswith("file://") and "/en/" in page.url
    assert_block_at_top(page, "q-P06")
    choose_language(page, "ru")
    assert_block_at_top(page, "q-P06")
