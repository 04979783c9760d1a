"""Numbers typed by learners on the sample course's pages in Chromium: the precision note, long inputs."""

from __future__ import annotations

import pytest

QUIZ = "rl-for-llm/12-infrastructure/quiz/"
WRONG = {"ru": "✗ неверно", "en": "✗ wrong"}
DECIMALS = {"ru": "нужно не меньше {count} знаков после запятой", "en": "give at least {count} decimal places"}


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


def open_quiz(page, server: str, lang: str) -> None:
    page.goto(server + ("en/" if lang == "en" else "") + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")


def check(page, qid: str, answers: dict[str, str]) -> None:
    for field, text in answers.items():
        page.fill(f"#zq-{qid}-{field}", text)
    page.click(f"#q-{qid} [data-zq-check]")
    page.wait_for_selector(f"#q-{qid}[data-zq-status=wrong]")


def field_text(page, qid: str, field: str) -> str:
    return page.locator(f"#q-{qid} [data-zq-field={field}]").inner_text()


def message(page, qid: str, field: str) -> str:
    return page.locator(f"#q-{qid} [data-zq-field={field}] [data-zq-message]").inner_text()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_precision_note_only_when_right_at_the_digits_typed(page, sample_server, lang: str) -> None:
    """`atol: 0.000001` means exact: "12" there is wrong at any precision, so no "type 12.000000"."""
    open_quiz(page, sample_server, lang)
    check(page, "P02", {"gb": "80", "gib": "78,2" if lang == "ru" else "78.2"})
    assert WRONG[lang] in field_text(page, "P02", "gb")
    assert message(page, "P02", "gb") == ""
    assert DECIMALS[lang].format(count=2) in message(page, "P02", "gib"), "78.2 is 78.23… to one decimal"

    check(page, "P03", {"kv_gib": "17.18"})
    assert WRONG[lang] in field_text(page, "P03", "kv_gib")
    assert message(page, "P03", "kv_gib") == ""

    check(page, "P05", {"seq": "12", "pipe": "390", "speedup": "1.6"})
    assert message(page, "P05", "seq") == ""
    assert message(page, "P05", "speedup") == "", "1.6 is not 1.538… to one decimal"
    check(page, "P05", {"speedup": "1.54"})
    assert DECIMALS[lang].format(count=3) in message(page, "P05", "speedup")
    assert message(page, "P05", "seq") == ""
