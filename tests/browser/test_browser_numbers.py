"""Numbers typed by learners on the sample course's pages in Chromium: the precision note, long inputs, and
each page's own way of writing numbers (its locale's), which it reads back and never guesses at."""

from __future__ import annotations

import json

import pytest
from support.browser import serve
from support.sites import FIXTURE_SITE, build_site, copy_site

QUIZ = "rl-for-llm/12-infrastructure/quiz/"
WRONG = {"ru": "✗ неверно", "en": "✗ wrong"}
DECIMALS = {"ru": "нужно не меньше {count} знаков после запятой", "en": "give at least {count} decimal places"}


# Module 12's questions have variants, one per learner from a seed. These tests type the figures of chosen
# variants, so they choose those first, as a learner's stored choice would: P02's variant 2 (91.26961… GiB), P03's 8
# (64 GiB), P05's 1 (1200 s, 725 s, a speedup of 1.65517…), P10's 3 (2629.068… s, 43.8178… min).
OLD_FIGURES = {"P02": 2, "P03": 8, "P05": 1, "P10": 3}


def with_old_figures(page) -> None:
    pins = json.dumps({f"zadachnik:rl-for-llm/12/{qid}": {"v": 1, "variant": variant}
                       for qid, variant in OLD_FIGURES.items()})
    page.add_init_script(script=f"""(() => {{
      for (const [key, entry] of Object.entries({pins})) {{
        if (localStorage.getItem(key) === null) localStorage.setItem(key, JSON.stringify(entry));
      }}
    }})()""")


def open_quiz(page, server: str, lang: str) -> None:
    with_old_figures(page)
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
    """The field's message as written (textContent: inner_text would fold a quoted run of spaces into one)."""
    return page.locator(f"#q-{qid} [data-zq-field={field}] [data-zq-message]").text_content()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_precision_note_only_when_right_at_the_digits_typed(page, sample_server, lang: str) -> None:
    """`atol: 0.000001` means exact: "12" there is wrong at any precision, so no "type 12.000000"."""
    open_quiz(page, sample_server, lang)
    check(page, "P02", {"gb": "80", "gib": "91,3" if lang == "ru" else "91.3"})
    assert WRONG[lang] in field_text(page, "P02", "gb")
    assert message(page, "P02", "gb") == ""
    assert DECIMALS[lang].format(count=2) in message(page, "P02", "gib"), "91.3 is 91.27… to one decimal"

    check(page, "P03", {"kv_gib": "17.18"})
    assert WRONG[lang] in field_text(page, "P03", "kv_gib")
    assert message(page, "P03", "kv_gib") == ""

    check(page, "P05", {"seq": "12", "pipe": "390", "speedup": "1.6"})
    assert message(page, "P05", "seq") == ""
    assert message(page, "P05", "speedup") == "", "1.6 is not 1.655… to one decimal"
    check(page, "P05", {"speedup": "1.66"})
    assert DECIMALS[lang].format(count=3) in message(page, "P05", "speedup")
    assert message(page, "P05", "seq") == ""


def reading(page, qid: str, field: str) -> str:
    return page.locator(f"#q-{qid} [data-zq-field={field}] [data-zq-reading]").inner_text()


def check_until(page, qid: str, answers: dict[str, str], status: str) -> None:
    for field, text in answers.items():
        page.fill(f"#zq-{qid}-{field}", text)
    page.click(f"#q-{qid} [data-zq-check]")
    page.wait_for_selector(f"#q-{qid}[data-zq-status={status}]")


def test_an_ambiguous_number_is_asked_about_never_guessed(page, sample_server) -> None:
    """On an English page "1,655" could be 1655 or 1.655: the learner is told both and how to write each, and
    the question is not marked wrong for it (the answer here is 1.655…)."""
    open_quiz(page, sample_server, "en")
    check_until(page, "P05", {"seq": "1200", "pipe": "725", "speedup": "1,655"}, "unreadable")
    assert message(page, "P05", "speedup") == (
        "“1,655” could mean 1655 or 1.655. Type 1655 for the first or 1.655 for the second.")
    assert page.locator("#q-P05 [data-zq-field=speedup]").get_attribute("data-zq-status") == "unreadable"
    assert reading(page, "P05", "speedup") == ""
    assert "1655" not in page.locator("#q-P05 [data-zq-verdict]").inner_text()
    check_until(page, "P05", {"speedup": "1.655"}, "correct")
    assert reading(page, "P05", "speedup") == "read as 1.655"


def test_a_stored_ambiguous_verdict_with_bad_readings_is_shown_without_failing(page, sample_server) -> None:
    """Saved verdicts come from storage and imported files: readings that are not numbers are left out of the
    message, and the page still works (the fixture fails on any page error)."""
    with_old_figures(page)
    page.goto(sample_server + "en/" + QUIZ)
    # A question with variants keeps each variant's answer and verdict in an entry of its own.
    key = "zadachnik:" + page.locator(".zq-page").get_attribute("data-zq-course") + "/" \
        + page.locator(".zq-page").get_attribute("data-zq-module") + f"/P05@{OLD_FIGURES['P05']}"
    verdict = {"status": "unreadable", "fields": {"speedup": {"status": "unreadable", "error": "ambiguous",
                                                              "grouped": "1655", "decimal": None}}}
    entry = {"v": 1, "t": 1, "answer": {"fields": {"seq": "1200", "pipe": "725", "speedup": "1,655"}},
             "verdict": verdict}
    page.evaluate("([key, entry]) => localStorage.setItem(key, JSON.stringify(entry))", [key, entry])
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert message(page, "P05", "speedup").startswith("“1,655” could mean")
    check_until(page, "P05", {"speedup": "1.655"}, "correct")


@pytest.mark.parametrize(("lang", "typed", "echo"), [
    ("en", {"interval_s": "2,629.07", "interval_min": "43.82"}, "read as 2,629.07"),
    ("en", {"interval_s": "2629.07", "interval_min": "43.82"}, "read as 2,629.07"),
    ("ru", {"interval_s": "2 629,07", "interval_min": "43,82"}, "прочитано как 2\u00a0629,07"),
    ("ru", {"interval_s": "2629.07", "interval_min": "43.82"}, "прочитано как 2\u00a0629,07"),
])
def test_the_pages_own_way_of_writing_reads(page, sample_server, lang: str, typed: dict, echo: str) -> None:
    """What the page prints ("2,629.07 s" on the English page, "2 629,07" on the Russian one) is read."""
    open_quiz(page, sample_server, lang)
    check_until(page, "P10", typed, "correct")
    assert page.locator("#q-P10 [data-zq-field=interval_s] [data-zq-reading]").text_content() == echo


@pytest.mark.parametrize(("lang", "typed", "said"), [
    ("en", "seventy", "“seventy” does not read as a number. These do: 3.14, 16/7, 2.12e12, 2.12·10^12."),
    ("ru", "семьдесят", "«семьдесят» не читается как число. Подойдут, например: 3,14; 16/7; 2,12e12; 2,12·10^12."),
    ("en", "1,2.3", "“1,2.3”: the separators don’t make a number here. Write it like 2,629.07."),
    ("ru", "1,2.3", "«1,2.3»: с такими разделителями число не читается. Запишите его, например, так: 2\u00a0629,07."),
])
def test_messages_write_their_numbers_the_pages_way(page, sample_server, lang: str, typed: str, said: str) -> None:
    open_quiz(page, sample_server, lang)
    assert unreadable(page, "P03", "kv_gib", typed) == said


def test_a_lone_comma_is_decimal_on_a_russian_page(page, sample_server) -> None:
    open_quiz(page, sample_server, "ru")
    check_until(page, "P05", {"seq": "1200", "pipe": "725", "speedup": "1,655"}, "correct")
    assert reading(page, "P05", "speedup") == "прочитано как 1,655"


LONG_MESSAGES = {
    "ru": {
        "unreadable": "«1" + " " * 31 + "…» не читается как число.",
        "too_long": "«" + "1" * 32 + "…»: слишком длинная запись\u00a0— в поле помещается не больше "
                    "200\u00a0000 символов.",
        "too_large": "«16/" + "7" * 29 + "…»: слишком большое число.",
    },
    "en": {
        "unreadable": "“1" + " " * 31 + "…” does not read as a number.",
        # One group behind ',' is written ungrouped ("200,000" could be read as 200).
        "too_long": "“" + "1" * 32 + "…”: too long — a field takes at most 200000 characters.",
        "too_large": "“16/" + "7" * 29 + "…”: the number is too large.",
    },
}


def unreadable(page, qid: str, field: str, text: str) -> str:
    """Pastes `text`, checks, and gives the field's message (the page must answer without freezing)."""
    page.locator(f"#zq-{qid}-{field}").evaluate(
        "(input, text) => { input.value = text; input.dispatchEvent(new Event('input', {bubbles: true})); }", text
    )
    page.click(f"#q-{qid} [data-zq-check]")
    page.wait_for_selector(f"#q-{qid}[data-zq-status=unreadable]")
    return message(page, qid, field)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_long_paste_is_quoted_short_and_survives_a_reload(page, sample_server, lang: str) -> None:
    open_quiz(page, sample_server, lang)
    said = LONG_MESSAGES[lang]
    spaces = "1" + " " * 100_000 + "1"
    assert unreadable(page, "P03", "kv_gib", spaces).startswith(said["unreadable"])
    assert page.locator("#q-P03 [data-zq-field=kv_gib] [data-zq-reading]").inner_text() == ""
    assert unreadable(page, "P03", "kv_gib", "1" * 200_001) == said["too_long"]
    assert unreadable(page, "P03", "kv_gib", "16/" + "7" * 100_000) == said["too_large"]

    # Saved, the 100 000 spaces come back on every load: the page gets ready and says the same.
    unreadable(page, "P03", "kv_gib", spaces)
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.locator("#zq-P03-kv_gib").input_value() == spaces
    assert message(page, "P03", "kv_gib").startswith(said["unreadable"])


@pytest.fixture(scope="module")
def one_decimal_server(tmp_path_factory):
    """The fixture course with the ratio field at ±0.05, so its precision note asks for one decimal place."""
    source = copy_site(FIXTURE_SITE, tmp_path_factory.mktemp("one-decimal") / "src")
    quiz = source / "exercises/demo/01-basics/quiz.md"
    text = quiz.read_text(encoding="utf-8")
    assert 'ratio: {answer: "16/7", atol: 0.0001}' in text
    quiz.write_text(text.replace('ratio: {answer: "16/7", atol: 0.0001}', 'ratio: {answer: "16/7", atol: 0.05}'),
                    encoding="utf-8")
    url, server = serve(build_site(source / "mkdocs.yml", source / "site"))
    yield url
    server.shutdown()


@pytest.mark.parametrize(("lang", "note"), [
    ("ru", "нужно не меньше 1 знака после запятой."), ("en", "give at least 1 decimal place."),
])
def test_precision_note_agrees_with_its_count(page, one_decimal_server, lang: str, note: str) -> None:
    page.goto(one_decimal_server + ("en/" if lang == "en" else "") + "demo/01-basics/quiz/")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    check(page, "Q3", {"ratio": "2", "mem": "7"})
    assert message(page, "Q3", "ratio").endswith(note), "2 is 16/7 = 2.29 to the nearest unit"
    assert message(page, "Q3", "mem") == "", "7 is wrong at any precision"


@pytest.fixture(scope="module")
def two_decimals_server(tmp_path_factory):
    """The ratio field at ±0.005 (two decimal places), and the site's own Russian word for a count in CLDR's
    "few" category (2, 3, 4 …), which the plain word served before."""
    source = copy_site(FIXTURE_SITE, tmp_path_factory.mktemp("two-decimals") / "src")
    quiz = source / "exercises/demo/01-basics/quiz.md"
    text = quiz.read_text(encoding="utf-8")
    quiz.write_text(text.replace('ratio: {answer: "16/7", atol: 0.0001}', 'ratio: {answer: "16/7", atol: 0.005}'),
                    encoding="utf-8")
    config = source / "mkdocs.yml"
    own_word = '      words:\n        ru: {decimals_few: "{count} знаков (few)"}\n'
    config.write_text(config.read_text(encoding="utf-8").replace(
        "      languages: [ru, en]\n", "      languages: [ru, en]\n" + own_word), encoding="utf-8")
    url, server = serve(build_site(config, source / "site"))
    yield url
    server.shutdown()


def test_a_count_takes_the_form_of_its_plural_category(page, two_decimals_server) -> None:
    page.goto(two_decimals_server + "demo/01-basics/quiz/")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    check(page, "Q3", {"ratio": "2.3", "mem": "7"})
    assert message(page, "Q3", "ratio").endswith("нужно не меньше 2 знаков (few)."), message(page, "Q3", "ratio")


def test_a_number_is_read_as_the_page_it_was_typed_on_read_it(page, sample_server) -> None:
    """Answers are shared by a page's languages: "1,655" typed on the Russian page is 1.655 there, and the
    English page, where it could mean 1655, reads it as typed, until the learner types there (the languages
    audit: it was asked about, and the question's saved ✓ and progress went)."""
    open_quiz(page, sample_server, "ru")
    check_until(page, "P05", {"seq": "1200", "pipe": "725", "speedup": "1,655"}, "correct")
    page.goto(sample_server + "en/" + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.locator("#zq-P05-speedup").input_value() == "1,655"
    assert reading(page, "P05", "speedup") == "read as 1.655"
    # Checked here (no Python: graded before the click returns), it stays right, read as it was typed.
    page.click("#q-P05 [data-zq-check]")
    assert page.locator("#q-P05").get_attribute("data-zq-status") == "correct"
    assert message(page, "P05", "speedup") == ""
    # Typed again here, it is this page's: 1,655 could be 1655.
    check_until(page, "P05", {"speedup": "1,655"}, "unreadable")
    assert message(page, "P05", "speedup").startswith("“1,655” could mean 1655 or 1.655.")
