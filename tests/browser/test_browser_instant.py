"""Quiz pages reached by mkdocs-material's instant navigation, which swaps the page in without a reload and
re-creates every inline script of the new content with its text only (its type and class are dropped)."""

from __future__ import annotations

import pytest

QUIZ = "rl-for-llm/12-infrastructure/quiz/"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_quiz_reached_instantly_grades_and_says_its_words(page, instant_server, lang) -> None:
    prefix = "" if lang == "ru" else "en/"
    page.goto(instant_server + prefix)
    page.evaluate("window.zqSamePage = true")
    page.evaluate(f"document.querySelector('.md-content a[href*=\"{QUIZ}\"]').click()")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.evaluate("window.zqSamePage"), "instant navigation: no reload"
    page.check("#q-P01 input[value='1']")
    page.click("#q-P01 [data-zq-check]")
    wrong = page.locator("#q-P01 [data-zq-verdict]").inner_text()
    page.check("#q-P01 input[value='2']")
    page.click("#q-P01 [data-zq-check]")
    right = page.locator("#q-P01 [data-zq-verdict]").inner_text()
    assert (wrong, right) == (("✗ Неверно", "✓ Верно") if lang == "ru" else ("✗ Wrong", "✓ Correct"))
    # The page's data is read as data: none of it was run as a script.
    assert not page.errors, page.errors


def test_page_data_survives_the_html_parser(page) -> None:
    """Whatever text authors write, the data the page carries reads back as the same JSON: no markup, no
    character reference and no closing tag can occur in it."""
    from zadachnik.rendering.render import safe_json

    data = {"text": "</template><script>alert(1)</script> &amp; &lt; &copy R&D a>b <!-- x -->", "n": [1, 2.5]}
    page.set_content(f"<template id='data'>{safe_json(data)}</template><p id='after'>after</p>")
    assert page.evaluate("JSON.parse(document.getElementById('data').content.textContent)") == data
    assert page.locator("#after").count() == 1
    assert page.locator("script").count() == 0


def test_a_quiz_reached_from_a_quiz_of_other_types_loads_the_ones_it_lacks(page, instant_server) -> None:
    """Module 9's quiz runs its own types' scripts (choice, code, ordering, Parsons); reached from it by instant
    navigation, module 12's quiz loads what it names and those lack (blanks, formula, matching, numeric) before
    it wires its questions, and grades them: its text with blanks here."""
    page.goto(instant_server + "en/modern-llms/09-pretraining/quiz/")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.evaluate("window.zqSamePage = true")
    page.evaluate(f"document.querySelector('.md-nav a[href*=\"{QUIZ}\"]').click()")
    page.wait_for_selector(".zq-page[data-zq-module='12'][data-zq-ready=yes]")
    assert page.evaluate("window.zqSamePage"), "instant navigation: no reload"
    question = "[id='q-P07a']"
    page.locator(f"{question} [data-zq-input='rho']").fill("0.889")
    page.locator(f"{question} [data-zq-input='queue']").fill("8")
    page.locator(f"{question} [data-zq-input='trend']").select_option(label="grows without bound")
    page.locator(f"{question} [data-zq-check]").click()
    assert page.locator(f"{question} [data-zq-verdict]").inner_text() == "✓ Correct"
    assert not page.errors, page.errors


def test_ordering_and_parsons_reached_instantly_get_their_look(page, instant_server) -> None:
    """Their rules come with their modules (types/ordering.js, types/parsons.js), not in zadachnik.css: module 9's
    quiz reached from module 12's, which has neither, still lays each item and line out as a row with its moves,
    indented by steps with a guide line for each."""
    page.goto(instant_server + "en/" + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.evaluate("window.zqSamePage = true")
    page.evaluate("document.querySelector('.md-nav a[href*=\"09-pretraining/quiz/\"]').click()")
    page.wait_for_selector(".zq-page[data-zq-module='9'][data-zq-ready=yes]")
    assert page.evaluate("window.zqSamePage"), "instant navigation: no reload"
    display = "element => getComputedStyle(element).display"
    assert page.locator("[id='q-9.4.3'] .zq-ordering__item").first.evaluate(display) == "flex"
    line = page.locator("[id='q-9.12.3'] [data-zq-parsons-program] > [data-zq-line]").first
    assert line.evaluate(display) == "flex"
    assert "repeating-linear-gradient" in line.evaluate("element => getComputedStyle(element).backgroundImage")
