"""A text with blanks in the browser: the sample course's P07a (a queue's load, its mean length, and where it goes
as the load nears one). Each gap is a field or a list in its place in the sentence, labelled by its number;
a partly right answer earns its share; an empty gap asks again; answers come back in the other language."""

from __future__ import annotations

from playwright.sync_api import expect

RU = "rl-for-llm/12-infrastructure/quiz/"
EN = "en/rl-for-llm/12-infrastructure/quiz/"
QUESTION = "[id='q-P07a']"


def gap(page, name: str):
    return page.locator(f"{QUESTION} [data-zq-input='{name}']")


def check(page) -> None:
    page.locator(f"{QUESTION} [data-zq-check]").click()


def test_gaps_stand_in_the_sentence_with_labels_and_their_tolerance(page, sample_server) -> None:
    page.goto(sample_server + EN)
    body = page.locator(f"{QUESTION} .zq-question__body")
    # The fields are inside the text, in its order, and a screen reader hears which gap each is.
    assert body.locator("[data-zq-input]").evaluate_all("inputs => inputs.map((input) => input.dataset.zqInput)") \
        == ["rho", "queue", "trend"]
    expect(gap(page, "rho")).to_have_attribute("aria-label", "Gap 1")
    expect(gap(page, "trend")).to_have_attribute("aria-label", "Gap 3")
    assert gap(page, "trend").locator("option").all_inner_texts() == [
        "— choose —", "grows without bound", "stays below one", "falls to zero"]
    expect(page.locator(f"{QUESTION} .zq-gap-notes")).to_contain_text("Gap 1: absolute tolerance ±0.001")


def test_a_partly_filled_answer_asks_again_and_a_partly_right_one_earns_its_share(page, sample_server) -> None:
    page.goto(sample_server + EN)
    gap(page, "rho").fill("0.889")
    gap(page, "queue").fill("8")
    check(page)
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "unreadable")
    gap(page, "trend").select_option(label="falls to zero")
    check(page)
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "partial")
    expect(page.locator(f"{QUESTION} [data-zq-field='trend']")).to_have_attribute("data-zq-status", "wrong")
    expect(page.locator(f"{QUESTION} [data-zq-field='rho']")).to_have_attribute("data-zq-status", "correct")
    gap(page, "trend").select_option(label="grows without bound")
    check(page)
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "correct")
    page.locator(f"{QUESTION} details[data-zq-reveal] > summary").click()
    answers = page.locator(f"{QUESTION} .zq-answer--blanks .zq-gap-answer").all_inner_texts()
    # The text says "ρ ≈" before the first gap: its rounded answer gets no second "≈".
    assert answers == ["0.889", "8", "grows without bound"]
    # The other language's page: the same answers, its own words in the list.
    page.goto(sample_server + RU)
    expect(gap(page, "rho")).to_have_value("0.889")
    expect(gap(page, "trend").locator("option:checked")).to_have_text("растёт без ограничения")
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "correct")
