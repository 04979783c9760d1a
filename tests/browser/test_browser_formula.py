"""A formula answer in the browser: the sample course's P02a (memory of a training state as a function of N).
The line under the field says how an expression was read, or why it could not be, as it is typed; Check grades
by values at the build's points; the answer and verdict come back after a reload and on the other language's
page; a comma is a decimal sign only where the page writes one."""

from __future__ import annotations

from playwright.sync_api import expect

RU = "rl-for-llm/12-infrastructure/quiz/"
EN = "en/rl-for-llm/12-infrastructure/quiz/"
QUESTION = "[id='q-P02a']"


def field(page):
    return page.locator(f"{QUESTION} [data-zq-input='expression']")


def preview(page):
    return page.locator(f"{QUESTION} [data-zq-formula-preview]")


def test_the_preview_says_how_an_expression_was_read_or_why_not(page, sample_server) -> None:
    page.goto(sample_server + EN)
    field(page).fill("1/2N")
    expect(preview(page)).to_have_text("Read as (1/2)·N")
    field(page).fill("16N/10^9")
    expect(preview(page)).to_have_text("Read as 16·N/10^9")
    field(page).fill("16M")
    expect(preview(page)).to_have_text("“M” is not a name of this question: use N.")
    field(page).fill("sqrt N")
    expect(preview(page)).to_contain_text("sqrt(…)")
    field(page).fill("(N")
    expect(preview(page)).to_have_text("The parentheses do not pair up.")
    # An expression that can't be read is not graded: the question asks for it again, and nothing is counted.
    page.locator(f"{QUESTION} [data-zq-check]").click()
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "unreadable")


def test_an_equivalent_expression_is_right_and_comes_back_in_the_other_language(page, sample_server) -> None:
    page.goto(sample_server + EN)
    field(page).fill("12*N/10^9")
    page.locator(f"{QUESTION} [data-zq-check]").click()
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "wrong")
    field(page).fill("2*8N/1e9")
    field(page).press("Enter")
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "correct")
    page.locator(f"{QUESTION} details[data-zq-reveal] > summary").click()
    expect(page.locator(f"{QUESTION} .zq-formula__answer")).to_have_text("16*N/10^9")
    page.reload()
    expect(field(page)).to_have_value("2*8N/1e9")
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "correct")
    expect(preview(page)).to_have_text("Read as 2·8·N/1e9")
    page.goto(sample_server + RU)
    expect(field(page)).to_have_value("2*8N/1e9")
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "correct")


def test_a_comma_is_a_decimal_sign_only_on_a_page_that_writes_one(page, sample_server) -> None:
    """An answer typed with a decimal comma is shown on the English page with a point, and reads and grades the
    same there (it was shown as typed, beside its "correct": "a comma has no meaning here", and a check of it
    was refused). Typed on the English page, a comma is still refused."""
    page.goto(sample_server + RU)
    field(page).fill("1,6e-8N")
    expect(preview(page)).to_have_text("Прочитано как 1,6e-8·N")
    page.locator(f"{QUESTION} [data-zq-check]").click()
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "correct")
    page.goto(sample_server + EN)
    expect(field(page)).to_have_value("1.6e-8N")
    expect(preview(page)).to_have_text("Read as 1.6e-8·N")
    page.locator(f"{QUESTION} [data-zq-check]").click()
    expect(page.locator(f"{QUESTION} [data-zq-verdict]")).to_have_text("✓ Correct")
    page.goto(sample_server + RU)
    expect(field(page)).to_have_value("1,6e-8N")
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "correct")
    page.goto(sample_server + EN)
    field(page).fill("2,5N")
    expect(preview(page)).to_contain_text("Write decimals with a point")
