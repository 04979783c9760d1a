"""An ordering question in the browser: the sample course's 9.4.3 (six stages of a pretraining run). Each
learner gets an order of their own (never the right one), the same in both languages and after reload; items
move with their buttons by keyboard, with the move said to screen readers; partial credit and the revealed order."""

from __future__ import annotations

from playwright.sync_api import expect

RU = "modern-llms/09-pretraining/quiz/"
EN = "en/modern-llms/09-pretraining/quiz/"
QUESTION = "[id='q-9.4.3']"


def order(page) -> list[str]:
    return page.locator(f"{QUESTION} [data-zq-order-item]").evaluate_all(
        "items => items.map((item) => item.dataset.zqOrderItem)")


def open_quiz(page, url: str) -> None:
    page.goto(url)
    page.locator(f"{QUESTION} [data-zq-ordering][data-zq-ready]").wait_for()


def move_to(page, key: str, index: int) -> None:
    """Moves item `key` up or down, one click at a time, to `index`."""
    while (now := order(page).index(key)) != index:
        direction = "up" if now > index else "down"
        page.locator(f"{QUESTION} [data-zq-order-item='{key}'] [data-zq-move='{direction}']").click()


def test_each_learner_starts_from_an_order_of_their_own_kept_across_reload_and_languages(page, sample_server) -> None:
    open_quiz(page, sample_server + RU)
    first = order(page)
    assert sorted(first) == ["1", "2", "3", "4", "5", "6"] and first != sorted(first)
    page.reload()
    page.locator(f"{QUESTION} [data-zq-ordering][data-zq-ready]").wait_for()
    assert order(page) == first
    open_quiz(page, sample_server + EN)
    assert order(page) == first


def test_items_move_by_keyboard_and_the_move_is_said(page, sample_server) -> None:
    open_quiz(page, sample_server + EN)
    before = order(page)
    second = before[1]
    up = page.locator(f"{QUESTION} [data-zq-order-item='{second}'] [data-zq-move='up']")
    up.focus()
    page.keyboard.press("Enter")
    assert order(page) == [second, before[0], *before[2:]]
    # At the top "up" can go no further: the focus moves to "down" of the same item.
    assert up.is_disabled()
    focused = page.evaluate("document.activeElement.closest('[data-zq-order-item]').dataset.zqOrderItem")
    assert focused == second
    assert page.evaluate("document.activeElement.dataset.zqMove") == "down"
    expect(page.locator("[data-zq-live]")).to_contain_text("now 1 of 6")
    page.keyboard.press("Space")
    assert order(page) == before


def test_a_partly_right_order_earns_partial_credit_and_the_right_one_is_correct(page, sample_server) -> None:
    open_quiz(page, sample_server + EN)
    for index, key in enumerate(["2", "1", "3", "4", "5", "6"]):
        move_to(page, key, index)
    check = page.locator(f"{QUESTION} [data-zq-check]")
    check.click()
    # The longest run in the right relative order is five of six.
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "partial")
    marks = page.locator(f"{QUESTION} [data-zq-order-item] [data-zq-mark]").all_inner_texts()
    assert [mark.startswith("✓") for mark in marks] == [False, False, True, True, True, True]
    move_to(page, "1", 0)
    check.click()
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "correct")
    page.locator(f"{QUESTION} details[data-zq-reveal] > summary").click()
    answer = page.locator(f"{QUESTION} .zq-answer--order li")
    expect(answer.first).to_contain_text("Fix the compute budget")
    assert answer.count() == 6
    # Reloaded, the answer and its verdict are back.
    page.reload()
    page.locator(f"{QUESTION} [data-zq-ordering][data-zq-ready]").wait_for()
    assert order(page) == ["1", "2", "3", "4", "5", "6"]
    expect(page.locator(QUESTION)).to_have_attribute("data-zq-status", "correct")
