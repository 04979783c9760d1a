"""Parsons problems in the browser, on tests/fixtures/parsons (P1: graded by order and depth, with two lines that
belong nowhere; P2: its indentation shown, the order alone asked, graded by pairs) and the sample course's 9.12.3
(graded by running the program against its tests in Pyodide). Each learner gets an order of their own, never the
right one, the same in both languages and after reload; lines move, indent and are set aside by buttons, by
keyboard, each change said to screen readers; partial credit, marks per line, the revealed program."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from support.browser import serve
from support.sites import ROOT, build_site

FIXTURE = ROOT / "tests" / "fixtures" / "parsons"
RU = "ps/01-lines/quiz/"
EN = "en/ps/01-lines/quiz/"
P1, P2 = "#q-P1", "#q-P2"
# P1's lines in their right order with their depths; 6 and 7 belong nowhere.
P1_RIGHT = [("1", 0), ("2", 1), ("3", 1), ("4", 2), ("5", 1)]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    site = build_site(FIXTURE / "mkdocs.yml", tmp_path_factory.mktemp("parsons-browser") / "site")
    url, running = serve(site)
    yield url
    running.shutdown()


def open_quiz(page, url: str, question: str = P1) -> None:
    page.goto(url)
    page.locator(f"{question} [data-zq-parsons][data-zq-ready]").wait_for()


def placed(page, question: str) -> list[tuple[str, int]]:
    return [tuple(pair) for pair in page.locator(f"{question} [data-zq-parsons-program] > [data-zq-line]").evaluate_all(
        "lines => lines.map((line) => [line.dataset.zqLine, Number(line.dataset.zqDepth)])")]


def set_aside(page, question: str) -> list[str]:
    return page.locator(f"{question} [data-zq-parsons-unused] > [data-zq-line]").evaluate_all(
        "lines => lines.map((line) => line.dataset.zqLine)")


def press(page, question: str, key: str, move: str) -> None:
    page.locator(f"{question} [data-zq-line='{key}'] [data-zq-move='{move}']").click()


def arrange(page, question: str, target: list[tuple[str, int]]) -> None:
    """Sets every line not in `target` aside, then moves and indents each of its lines, one press at a time."""
    for key, _ in placed(page, question):
        if key not in dict(target):
            press(page, question, key, "out")
    for index, (key, depth) in enumerate(target):
        if key in set_aside(page, question):
            press(page, question, key, "in")
        while (now := [line for line, _ in placed(page, question)].index(key)) != index:
            press(page, question, key, "up" if now > index else "down")
        while (shown := dict(placed(page, question))[key]) != depth:
            press(page, question, key, "right" if shown < depth else "left")
    assert placed(page, question) == target


def test_each_learner_starts_from_an_unindented_order_of_their_own_kept_across_reload_and_languages(
        page, server) -> None:
    open_quiz(page, server + RU)
    first = placed(page, P1)
    keys = [key for key, _ in first]
    assert sorted(keys) == ["1", "2", "3", "4", "5", "6", "7"] and keys != sorted(keys)
    assert {depth for _, depth in first} == {0} and set_aside(page, P1) == []
    # P2 asks no indentation: its lines show their own, and have no buttons for it.
    assert sorted(placed(page, P2)) == [("1", 0), ("2", 1), ("3", 1), ("4", 1), ("5", 1)]
    assert page.locator(f"{P2} [data-zq-move='right'], {P2} [data-zq-move='out']").count() == 0
    font = page.locator(f"{P1} .zq-parsons__code").first.evaluate("code => getComputedStyle(code).fontFamily")
    assert "mono" in font.lower()
    page.reload()
    page.locator(f"{P1} [data-zq-parsons][data-zq-ready]").wait_for()
    assert placed(page, P1) == first
    open_quiz(page, server + EN)
    assert placed(page, P1) == first


def test_lines_move_indent_and_are_set_aside_by_keyboard_and_each_change_is_said(page, server) -> None:
    open_quiz(page, server + EN)
    live = page.locator("[data-zq-live]")
    before = placed(page, P1)
    key = before[1][0]
    text = page.locator(f"{P1} [data-zq-line='{key}'] .zq-parsons__code").inner_text()
    right = page.locator(f"{P1} [data-zq-line='{key}'] [data-zq-move='right']")
    right.focus()
    page.keyboard.press("Enter")
    expect(live).to_have_text(f"{text}: indent level 1")
    expect(page.locator(f"{P1} [data-zq-line='{key}'] [data-zq-level]")).to_have_text("indent level 1")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    # Three levels is as deep as P1 goes: → can go no further, and the focus is on ← of the same line.
    expect(right).to_be_disabled()
    assert page.evaluate("[document.activeElement.closest('[data-zq-line]').dataset.zqLine,"
                         " document.activeElement.dataset.zqMove]") == [key, "left"]
    expect(live).to_have_text(f"{text}: indent level 3")
    page.keyboard.press("Space")
    assert dict(placed(page, P1))[key] == 2
    up = page.locator(f"{P1} [data-zq-line='{key}'] [data-zq-move='up']")
    up.focus()
    page.keyboard.press("Enter")
    assert [line for line, _ in placed(page, P1)] == [key, before[0][0], *[line for line, _ in before[2:]]]
    expect(live).to_have_text(f"{text}: now 1 of 7")
    # Set aside: the line leaves the program for the list below, and the focus goes to its + to bring it back.
    page.locator(f"{P1} [data-zq-line='{key}'] [data-zq-move='out']").focus()
    page.keyboard.press("Enter")
    assert set_aside(page, P1) == [key] and len(placed(page, P1)) == 6
    expect(live).to_have_text(f"{text}: set aside")
    assert page.evaluate("document.activeElement.dataset.zqMove") == "in"
    page.keyboard.press("Enter")
    assert placed(page, P1)[-1] == (key, 0) and set_aside(page, P1) == []
    expect(live).to_have_text(f"{text}: back in the program, now 7 of 7")
    assert page.evaluate("document.activeElement.dataset.zqMove") == "up"


def test_a_line_set_aside_shows_only_its_way_back(page, server) -> None:
    """The look comes with the type's script (types/parsons.js): each line a row; a placed line has every move
    but +, a line set aside only +."""
    open_quiz(page, server + EN)
    key = placed(page, P1)[0][0]
    press(page, P1, key, "out")
    shown = "buttons => buttons.filter((b) => getComputedStyle(b).display !== 'none').map((b) => b.dataset.zqMove)"
    aside = page.locator(f"{P1} [data-zq-parsons-unused] > [data-zq-line='{key}']")
    assert aside.evaluate("line => getComputedStyle(line).display") == "flex"
    assert aside.locator("[data-zq-move]").evaluate_all(shown) == ["in"]
    other = page.locator(f"{P1} [data-zq-parsons-program] > [data-zq-line]").first
    assert "in" not in other.locator("[data-zq-move]").evaluate_all(shown)
    assert {"up", "down", "out"} <= set(other.locator("[data-zq-move]").evaluate_all(shown))


def test_on_a_phone_a_line_keeps_its_width_and_the_book_fits_the_screen(page, sample_server) -> None:
    """At 375 px each line of 9.12.3 sat in a column some 95 px wide beside its moves, broken inside its words,
    and the book's table of lines made the whole page scroll sideways."""
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(sample_server + "en/modern-llms/09-pretraining/quiz/")
    page.locator("[id='q-9.12.3'] [data-zq-parsons][data-zq-ready]").wait_for()
    widths = page.locator("[id='q-9.12.3'] .zq-parsons__code").evaluate_all(
        "codes => codes.map((code) => code.getBoundingClientRect().width)")
    assert widths and min(widths) > 200, widths
    page.goto(sample_server + "en/modern-llms/09-pretraining/book/")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 375


def test_order_and_depth_earn_partial_credit_and_the_right_program_is_correct_after_reload(page, server) -> None:
    open_quiz(page, server + EN)
    check = page.locator(f"{P1} [data-zq-check]")
    # Right but for line 4, one level short: four of five lines in place.
    arrange(page, P1, [("1", 0), ("2", 1), ("3", 1), ("4", 1), ("5", 1)])
    assert sorted(set_aside(page, P1)) == ["6", "7"]
    check.click()
    expect(page.locator(P1)).to_have_attribute("data-zq-status", "partial")
    marks = page.locator(f"{P1} [data-zq-parsons-program] [data-zq-mark]").all_inner_texts()
    assert [mark.startswith("✓") for mark in marks] == [True, True, True, False, True]
    assert page.locator(f"{P1} [data-zq-parsons-unused] [data-zq-mark]").all_inner_texts() == ["", ""]
    # A line that belongs nowhere, brought back, counts as a line out of place.
    press(page, P1, "4", "right")
    press(page, P1, "6", "in")
    check.click()
    expect(page.locator(P1)).to_have_attribute("data-zq-status", "partial")
    press(page, P1, "6", "out")
    check.click()
    expect(page.locator(P1)).to_have_attribute("data-zq-status", "correct")
    page.locator(f"{P1} details[data-zq-reveal] > summary").click()
    expect(page.locator(f"{P1} .zq-answer--program")).to_have_text(
        "def mean(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total / len(xs)")
    page.reload()
    page.locator(f"{P1} [data-zq-parsons][data-zq-ready]").wait_for()
    assert placed(page, P1) == P1_RIGHT and sorted(set_aside(page, P1)) == ["6", "7"]
    expect(page.locator(P1)).to_have_attribute("data-zq-status", "correct")


def test_an_answer_given_in_one_language_is_graded_the_same_in_the_other(page, server) -> None:
    open_quiz(page, server + RU, P2)
    # Pairs: swapping optimizer.zero_grad() and the loss breaks three of the four right neighbours; only
    # loss.backward() before optimizer.step() is left.
    arrange(page, P2, [("1", 0), ("3", 1), ("2", 1), ("4", 1), ("5", 1)])
    page.locator(f"{P2} [data-zq-check]").click()
    expect(page.locator(P2)).to_have_attribute("data-zq-status", "partial")
    open_quiz(page, server + EN, P2)
    assert placed(page, P2) == [("1", 0), ("3", 1), ("2", 1), ("4", 1), ("5", 1)]
    expect(page.locator(P2)).to_have_attribute("data-zq-status", "partial")
    expect(page.locator(f"{P2} [data-zq-verdict]")).to_contain_text("25%")


@pytest.mark.python
def test_a_problem_with_tests_is_graded_by_running_its_program(page, sample_server) -> None:
    question = "[id='q-9.12.3']"
    open_quiz(page, sample_server + "en/modern-llms/09-pretraining/quiz/", question)
    check = page.locator(f"{question} [data-zq-check]")
    right = [("1", 0), ("2", 0), ("3", 1), ("4", 2), ("5", 1), ("6", 1), ("7", 1)]
    arrange(page, question, right)
    check.click()
    expect(page.locator(question)).to_have_attribute("data-zq-status", "correct", timeout=90_000)
    tests = page.locator(f"{question} [data-zq-tests] li")
    expect(tests).to_have_count(6)
    assert all(line.startswith("✓") for line in tests.all_inner_texts())
    # The import moved into the function still works: the tests, not the order, decide.
    arrange(page, question, [("2", 0), ("1", 1), *right[2:]])
    check.click()
    expect(page.locator(question)).to_have_attribute("data-zq-status", "correct", timeout=90_000)
    # The warmup's return one level short leaves the if without a body.
    arrange(page, question, [*right[:3], ("4", 1), *right[4:]])
    check.click()
    expect(page.locator(question)).to_have_attribute("data-zq-status", "wrong", timeout=90_000)
    expect(page.locator(f"{question} [data-zq-tests]")).to_contain_text("IndentationError")
