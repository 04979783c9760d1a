"""Variants in Chromium (issue 15): one variant per learner, the same after reload and in the other language;
"New variant" after a check or a reveal changes the figures and the key, never shows an old answer, and the
progress line and the home page count each question once, by its current variant."""

from __future__ import annotations

import json
import random
import re

import pytest
from playwright.sync_api import expect
from support.browser import let_runtime_go, opened_with_runtime_held, serve
from support.sites import ROOT, as_exam, build_site, copy_site
from support.variants import fixture_functions
from zadachnik.python.values_files import variant_seed

FIXTURE = ROOT / "tests" / "fixtures" / "variants"

QUIZ = "vc/01-load/quiz/"
KEY = "zadachnik:vc/1/"
COUNT = 6
LINE = {"ru": "Вариант {number} из {count}", "en": "Variant {number} of {count}"}
BATCH = {"ru": "пакет — {B}.", "en": "the batch is {B}."}
PROGRESS = {"ru": "Проверено: {checked} / 3 · Верно: {correct}", "en": "Checked {checked} / 3 · Correct {correct}"}


def drawn(number: int) -> dict:
    return fixture_functions.memory(random.Random(variant_seed("P1", number)))


def answer_of(number: int) -> float:
    values = drawn(number)
    return values["N"] * 2 * values["B"] / 1e9


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    site = build_site(FIXTURE / "mkdocs.yml", tmp_path_factory.mktemp("variants") / "site")
    url, running = serve(site)
    yield url
    running.shutdown()


@pytest.fixture(scope="module")
def exam_server(tmp_path_factory):
    """The same module as an exam: no "New variant", each learner's variant theirs for good."""
    work = tmp_path_factory.mktemp("variants-exam")
    source = copy_site(FIXTURE, work / "src")
    as_exam(source / "exercises" / "vc" / "01-load")
    url, running = serve(build_site(source / "mkdocs.yml", work / "site"))
    yield url
    running.shutdown()


def prefix(lang: str) -> str:
    return "" if lang == "ru" else "en/"


def open_quiz(page, server: str, lang: str = "ru") -> None:
    page.goto(server + prefix(lang) + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    # The variant is known once its line says it.
    expect(page.locator("#q-P1 [data-zq-variant-line]")).to_have_text(re.compile(r"\d"))


def current(page, lang: str) -> int:
    text = page.locator("#q-P1 [data-zq-variant-line]").inner_text()
    pattern = re.escape(LINE[lang]).replace(r"\{number\}", r"(\d+)").replace(r"\{count\}", str(COUNT))
    return int(re.fullmatch(pattern, text)[1])


def expect_variant(page, lang: str, number: int) -> None:
    """The page shows variant `number` of P1: its line, its figures in the text, nothing of another variant."""
    expect(page.locator("#q-P1 [data-zq-variant-line]")).to_have_text(LINE[lang].format(number=number, count=COUNT))
    expect(page.locator("#q-P1 .zq-question__body")).to_contain_text(BATCH[lang].format(B=drawn(number)["B"]))


def typed(value: float, lang: str) -> str:
    text = f"{value:g}"
    return text.replace(".", ",") if lang == "ru" else text


def check_p1(page, text: str) -> str:
    page.fill("#zq-P1-gb", text)
    page.click("#q-P1 [data-zq-check]")
    verdict = page.locator("#q-P1 [data-zq-verdict]")
    expect(verdict).not_to_have_text("")
    return verdict.inner_text()


def stored(page, id: str):  # noqa: A002 - a question's id
    text = page.evaluate(f"localStorage.getItem('{KEY}{id}')")
    return json.loads(text) if text is not None else None


def test_the_variant_is_the_same_after_reload_and_in_the_other_language(page, server) -> None:
    open_quiz(page, server, "ru")
    number = current(page, "ru")
    expect_variant(page, "ru", number)
    assert stored(page, "P1")["variant"] == number
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    expect_variant(page, "ru", number)
    open_quiz(page, server, "en")
    expect_variant(page, "en", number)
    # The revealed answer is this variant's, written the page's way.
    page.click("#q-P1 details[data-zq-reveal] > summary")
    expect(page.locator("#q-P1 .zq-answer")).to_contain_text(typed(answer_of(number), "en"))


def test_new_variant_changes_the_figures_and_grading_follows(page, server) -> None:
    open_quiz(page, server, "en")
    button = page.locator("#q-P1 [data-zq-new-variant]")
    # Offered only once the variant has been checked or its answer revealed.
    expect(button).to_be_hidden()
    first = current(page, "en")
    assert check_p1(page, typed(answer_of(first), "en")).startswith("✓")
    expect(button).to_be_visible()
    button.click()
    second = current(page, "en")
    assert second != first
    expect_variant(page, "en", second)
    # Nothing of the old variant shows: no answer, no verdict, no revealed answer, and no button until checked.
    expect(page.locator("#zq-P1-gb")).to_have_value("")
    expect(page.locator("#q-P1 [data-zq-verdict]")).to_have_text("")
    expect(button).to_be_hidden()
    assert not page.locator("#q-P1 details[data-zq-reveal]").evaluate("details => details.open")
    # The old variant's answer is wrong now; the new one's is right.
    assert answer_of(first) != pytest.approx(answer_of(second), abs=0.5)
    assert check_p1(page, typed(answer_of(first), "en")).startswith("✗")
    assert check_p1(page, typed(answer_of(second), "en")).startswith("✓")
    # A reveal offers a new variant too, and the revealed answer is the new variant's.
    page.locator("#q-P1 [data-zq-new-variant]").click()
    third = current(page, "en")
    assert third != second
    page.click("#q-P1 details[data-zq-reveal] > summary")
    expect(page.locator("#q-P1 .zq-answer")).to_contain_text(typed(answer_of(third), "en"))
    expect(page.locator("#q-P1 .zq-explanation")).to_contain_text(f"{drawn(third)['total']:.4g}".split("e")[0])
    expect(button).to_be_visible()


def test_a_check_without_an_answer_offers_no_new_variant(page, server) -> None:
    """Skipping through variants needs an answer to each: a Check of empty or unreadable fields is no attempt."""
    open_quiz(page, server, "en")
    button = page.locator("#q-P1 [data-zq-new-variant]")
    for text in ("", "twelve"):
        check_p1(page, text)
        expect(page.locator("#q-P1")).to_have_attribute("data-zq-status", re.compile("unanswered|unreadable"))
        expect(button).to_be_hidden()
    check_p1(page, typed(answer_of(current(page, "en")) + 7, "en"))
    expect(button).to_be_visible()
    # After a reload the kept verdict decides as well.
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    expect(button).to_be_visible()


def test_nothing_of_another_variant_shows_before_the_script_runs(page, server) -> None:
    """Until the page knows the learner's variant, what it will change is hidden in its place (no layout jump):
    never variant 1's figures in the meantime."""
    held = opened_with_runtime_held(page, server + "en/" + QUIZ)
    page.wait_for_selector("#q-P1 [data-zq-slot=body]", state="attached")
    # Zadachnik's stylesheet applies (its progress line is bold): what it hides is hidden by then.
    page.wait_for_function("() => getComputedStyle(document.querySelector('.zq-progress')).fontWeight === '700'")
    hidden = page.eval_on_selector_all(
        "#q-P1 :is([data-zq-slot], [data-zq-variant-line])", "nodes => nodes.map(n => getComputedStyle(n).visibility)")
    assert hidden and set(hidden) == {"hidden"}, hidden
    assert page.locator("#q-P1 [data-zq-slot=body]").bounding_box()["height"] > 0
    assert held, "the script was not held back"
    let_runtime_go(page, held)
    expect(page.locator("#q-P1 [data-zq-slot=body]")).to_be_visible()
    expect_variant(page, "en", current(page, "en"))


def test_without_scripts_the_question_still_reads(browser, server) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server + "en/" + QUIZ)
        expect(page.locator("#q-P1 [data-zq-slot=body]")).to_be_visible()
        expect(page.locator("#q-P1 [data-zq-slot=body]")).to_contain_text(BATCH["en"].format(B=drawn(1)["B"]))
    finally:
        context.close()


def test_a_hint_shows_its_variants_figures(page, server) -> None:
    open_quiz(page, server, "en")
    first = current(page, "en")
    hint = page.locator("#q-P1 [data-zq-hint='1'] .zq-hint__text")
    page.click("#q-P1 [data-zq-hint-next]")
    expect(hint).to_have_text(f"Multiply the parameters by 2 and by the batch, {drawn(first)['B']}.")
    check_p1(page, typed(answer_of(first), "en"))
    page.click("#q-P1 [data-zq-new-variant]")
    second = current(page, "en")
    # The new variant's hints start closed, and open with its own figures.
    expect(page.locator("#q-P1 [data-zq-hint='1']")).to_be_hidden()
    page.click("#q-P1 [data-zq-hint-next]")
    expect(hint).to_have_text(f"Multiply the parameters by 2 and by the batch, {drawn(second)['B']}.")
    open_quiz(page, server, "ru")
    expect(page.locator("#q-P1 [data-zq-hint='1'] .zq-hint__text")).to_contain_text(
        f"на размер пакета, {drawn(second)['B']}.")


def test_answers_are_saved_per_variant_and_an_old_one_never_returns(page, server) -> None:
    # Math.random() = 0: "New variant" takes the next variant, round the end.
    page.add_init_script("Math.random = () => 0;")
    open_quiz(page, server, "ru")
    first = current(page, "ru")
    following = first % COUNT + 1
    # An answer left long ago in the variant that comes next: it must not show when that variant is drawn again.
    page.evaluate("([key, entry]) => localStorage.setItem(key, JSON.stringify(entry))",
                  [f"{KEY}P1@{following}", {"v": 1, "answer": {"fields": {"gb": "777"}},
                                            "verdict": {"status": "wrong", "score": 0}}])
    assert check_p1(page, "1").startswith("✗")
    assert stored(page, f"P1@{first}")["answer"] == {"fields": {"gb": "1"}}
    page.locator("#q-P1 [data-zq-new-variant]").click()
    assert current(page, "ru") == following
    expect(page.locator("#zq-P1-gb")).to_have_value("")
    assert stored(page, f"P1@{following}") is None
    page.fill("#zq-P1-gb", "42")
    # After reload, and in English: the current variant with its own draft.
    for lang in ("ru", "en"):
        open_quiz(page, server, lang)
        expect_variant(page, lang, following)
        expect(page.locator("#zq-P1-gb")).to_have_value("42")
    # The first variant's entry is still its own (never shown in another).
    assert stored(page, f"P1@{first}")["answer"] == {"fields": {"gb": "1"}}
    assert stored(page, "P1")["variant"] == following


def test_a_variant_the_author_has_since_removed_is_said_and_its_answer_kept(page, server) -> None:
    """The learner's variant 9 of a question that now has 6 (the author drew fewer): the page draws another, as
    before, but says why the answer is gone from view, and keeps that answer (an export has it)."""
    page.goto(server)
    old = {"v": 1, "t": 5, "answer": {"fields": {"gb": "12"}}, "verdict": {"status": "correct", "score": 1}}
    page.evaluate("""([key, pointer, old]) => {
        localStorage.setItem(key + 'P1', JSON.stringify(pointer));
        localStorage.setItem(key + 'P1@9', JSON.stringify(old));
    }""", [KEY, {"v": 1, "t": 5, "variant": 9}, old])
    open_quiz(page, server, "en")
    assert 1 <= current(page, "en") <= COUNT
    expect(page.locator("#q-P1 [data-zq-verdict]")).to_contain_text("fewer variants")
    expect(page.locator("#zq-P1-gb")).to_have_value("")
    assert stored(page, "P1@9") == old


def test_a_variant_drawn_where_storage_is_blocked_is_no_work_to_ask_about(context, server) -> None:
    """Each question with variants draws one as the page opens, an entry storage refuses: leaving a page where the
    learner did nothing asked whether to leave."""
    context.add_init_script("Storage.prototype.setItem = () => { throw new DOMException('', 'QuotaExceededError'); };")
    page = context.new_page()
    open_quiz(page, server, "en")
    page.locator("#q-P1 [data-zq-variant-line]").click()
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.accept()))
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert asked == []
    page.fill("#zq-P1-gb", "12")
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert asked == ["beforeunload"], "an answer only this page holds"


def test_progress_imported_into_another_browser_shows_the_variant_it_was_answered_on(
        page, server, tmp_path) -> None:
    """Another browser has a seed of its own, and drew another variant the moment it opened the page: a variant
    drawn, not chosen, gives way to the imported one (it was newer, so the import kept it, and the answer
    imported stayed out of sight and out of the progress)."""
    open_quiz(page, server, "en")
    number = current(page, "en")
    assert check_p1(page, typed(answer_of(number), "en")).startswith("✓")
    with page.expect_download() as download:
        page.click("[data-zq-export]")
    exported = tmp_path / "progress.json"
    download.value.save_as(exported)
    # A fresh browser whose seed draws another variant (the seeds tried are fixed: the same every run).
    for tried in range(50):
        page.evaluate("seed => { localStorage.clear(); localStorage.setItem('zadachnik-seed', seed); }",
                      f"{tried:08x}")
        open_quiz(page, server, "en")
        if current(page, "en") != number:
            break
    assert current(page, "en") != number
    page.set_input_files("[data-zq-import]", str(exported))
    expect(page.locator("[data-zq-tools-result]")).not_to_be_empty()
    assert page.locator("[data-zq-tools-result]").inner_text().endswith("kept from this browser: 0.")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    expect_variant(page, "en", number)
    expect(page.locator("#q-P1")).to_have_attribute("data-zq-status", "correct")
    expect(page.locator("[data-zq-progress]")).to_have_text(PROGRESS["en"].format(checked=1, correct=1))


def test_an_exam_with_variants_saves_every_answer_and_is_submitted(page, exam_server) -> None:
    """An exam has no "New variant" button: set-up stopped at the first question with variants, so the others
    were never wired (their answers never saved), the exam's own part never started, and Submit did nothing."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_quiz(page, exam_server, "en")
    number = current(page, "en")
    expect(page.locator("#q-P2 [data-zq-variant-line]")).to_have_text(re.compile(r"Variant \d+ of"))
    page.fill("#zq-P1-gb", typed(answer_of(number), "en"))
    page.reload()
    open_quiz(page, exam_server, "en")
    expect(page.locator("#zq-P1-gb")).to_have_value(typed(answer_of(number), "en"))
    page.locator("[data-zq-exam-button]").click()
    page.locator("[data-zq-exam-yes]").click()
    expect(page.locator("#q-P1")).to_have_attribute("data-zq-status", "correct")
    expect(page.locator("#q-P2")).to_have_attribute("data-zq-status", "wrong")
    assert not errors, errors


def test_the_other_tab_follows_a_new_variant(context, server) -> None:
    ru, en = context.new_page(), context.new_page()
    open_quiz(ru, server, "ru")
    open_quiz(en, server, "en")
    number = current(ru, "ru")
    assert current(en, "en") == number
    ru.click("#q-P1 details[data-zq-reveal] > summary")
    ru.locator("#q-P1 [data-zq-new-variant]").click()
    moved = current(ru, "ru")
    expect_variant(en, "en", moved)
    expect(en.locator("#q-P1 details[data-zq-reveal]")).not_to_have_attribute("open", "")


def test_progress_counts_each_question_once_by_its_current_variant(page, server) -> None:
    open_quiz(page, server, "en")
    progress = page.locator("[data-zq-progress]")
    expect(progress).to_have_text(PROGRESS["en"].format(checked=0, correct=0))
    assert check_p1(page, typed(answer_of(current(page, "en")), "en")).startswith("✓")
    expect(progress).to_have_text(PROGRESS["en"].format(checked=1, correct=1))
    page.locator("#q-P1 [data-zq-new-variant]").click()
    # The new variant is not checked yet: the question counts as unchecked, not as one more.
    expect(progress).to_have_text(PROGRESS["en"].format(checked=0, correct=0))
    assert check_p1(page, "1").startswith("✗")
    expect(progress).to_have_text(PROGRESS["en"].format(checked=1, correct=0))
    page.locator("#q-P1 [data-zq-new-variant]").click()
    assert check_p1(page, typed(answer_of(current(page, "en")), "en")).startswith("✓")
    expect(progress).to_have_text(PROGRESS["en"].format(checked=1, correct=1))
    # The home page reads the same from storage, in both languages.
    for lang in ("en", "ru"):
        page.goto(server + prefix(lang))
        expect(page.locator('[data-zq-progress-of="vc/1"]')).to_have_text(
            PROGRESS[lang].format(checked=1, correct=1))
    open_quiz(page, server, "ru")
    expect(page.locator("[data-zq-progress]")).to_have_text(PROGRESS["ru"].format(checked=1, correct=1))


def test_choice_variants_show_their_options_and_grade_by_them(page, server) -> None:
    open_quiz(page, server, "en")
    line = page.locator("#q-P2 [data-zq-variant-line]")
    number = int(re.search(r"Variant (\d+) of 10", line.inner_text())[1])
    values = fixture_functions.speed(random.Random(variant_seed("P2", number)))
    expect(page.locator("#q-P2 .zq-question__body")).to_contain_text(f"do {values['T']} tokens take")
    expect(page.locator("#q-P2 [data-zq-option='A'] ~ .zq-option__text annotation")).to_have_text(
        str(values["fast"]))
    # An option named by a formula: its accessible name holds the variant's figure, in every variant.
    option = page.locator("#q-P2 input[value='A']")
    expect(option).to_have_attribute("aria-label", f"A. {values['fast']} s")
    page.check("#q-P2 input[value='A']")
    page.click("#q-P2 [data-zq-check]")
    expect(page.locator("#q-P2 [data-zq-verdict]")).to_have_text(re.compile("✓"))
    page.locator("#q-P2 [data-zq-new-variant]").click()
    moved = int(re.search(r"Variant (\d+) of 10", line.inner_text())[1])
    assert moved != number
    moved_values = fixture_functions.speed(random.Random(variant_seed("P2", moved)))
    expect(option).to_have_attribute("aria-label", f"A. {moved_values['fast']} s")
    expect(page.locator("#q-P2 [data-zq-option='B'] ~ .zq-option__text annotation")).to_have_text(
        str(moved_values["slow"]))
    expect(option).not_to_be_checked()


@pytest.fixture(scope="module")
def offline_copy(tmp_path_factory):
    import zipfile

    from support.sites import copy_site

    work = tmp_path_factory.mktemp("variants-offline")
    source = copy_site(FIXTURE, work / "src")
    build_site(source / "mkdocs.offline.yml", work / "site")
    with zipfile.ZipFile(source / "build" / "variants-offline.zip") as opened:
        opened.extractall(work / "unzipped")
    [top] = list((work / "unzipped").iterdir())
    return top


@pytest.mark.own_context
def test_variants_work_offline_from_disk(page, offline_copy) -> None:
    # From file:// the page has no ES modules: variants.js comes in the one bundled script.
    address = (offline_copy / "en" / "vc" / "01-load" / "quiz.html").as_uri()
    page.goto(address)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    expect(page.locator("#q-P1 [data-zq-variant-line]")).to_have_text(re.compile(r"\d"))
    number = current(page, "en")
    expect_variant(page, "en", number)
    assert check_p1(page, typed(answer_of(number), "en")).startswith("✓")
    page.locator("#q-P1 [data-zq-new-variant]").click()
    moved = current(page, "en")
    assert moved != number
    assert check_p1(page, typed(answer_of(moved), "en")).startswith("✓")
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    expect_variant(page, "en", moved)


def test_axe_finds_nothing_serious_with_a_new_variant_shown(page, server) -> None:
    from support.browser import THEME_VIOLATIONS, axe_findings

    open_quiz(page, server, "ru")
    page.click("#q-P1 details[data-zq-reveal] > summary")
    page.locator("#q-P1 [data-zq-new-variant]").click()
    page.evaluate("document.querySelectorAll('.zq-page details').forEach((d) => { d.open = true; })")
    expect(page.locator("#q-P1 [data-zq-new-variant]")).to_be_visible()
    findings = axe_findings(page)
    serious = [f for f in findings if f[1] in ("serious", "critical") and (f[0], f[2]) not in THEME_VIOLATIONS]
    assert not serious, serious


def test_the_page_is_ready_only_once_its_variants_are_set_up(page, server) -> None:
    # variants.js held back: the page must not say it is ready (tests and scripts fill fields then) before the
    # question with variants has its variant, its key and its listeners.
    held = []
    page.route("**/variants.js", lambda route: held.append(route))
    with page.expect_request(lambda request: request.url.endswith("/variants.js")):
        page.goto(server + "en/" + QUIZ, wait_until="commit")
    while not held:
        page.wait_for_timeout(10)
    page.wait_for_selector(".zq-page[data-zq-ready]", state="attached")
    assert page.locator(".zq-page").get_attribute("data-zq-ready") != "yes"
    held[0].continue_()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.locator("#q-P1 [data-zq-variant-line]").inner_text() != ""


def test_an_open_question_with_variants_keeps_notes_per_variant(page, server) -> None:
    open_quiz(page, server, "en")
    line = page.locator("#q-N1 [data-zq-variant-line]")
    expect(line).to_have_text(re.compile(r"Variant \d of 4"))
    number = int(re.search(r"Variant (\d) of 4", line.inner_text())[1])
    values = fixture_functions.speed(random.Random(variant_seed("N1", number)))
    expect(page.locator("#q-N1 .zq-question__body")).to_contain_text(f"Why do {values['T']} tokens take")
    notes = page.locator("#q-N1 [data-zq-notes]")
    notes.fill("my reasoning")
    page.click("#q-N1 details[data-zq-reveal] > summary")
    page.locator("#q-N1 [data-zq-new-variant]").click()
    moved = int(re.search(r"Variant (\d) of 4", line.inner_text())[1])
    assert moved != number
    expect(notes).to_have_value("")
    moved_values = fixture_functions.speed(random.Random(variant_seed("N1", moved)))
    expect(page.locator("#q-N1 .zq-question__body")).to_contain_text(f"Why do {moved_values['T']} tokens take")
    assert stored(page, f"N1@{number}")["notes"] == "my reasoning"


def test_a_reset_keeps_the_variant_and_variant_1_comes_back_whole(page, server) -> None:
    # Math.random() = 0: "New variant" takes the next variant, round the end.
    page.add_init_script("Math.random = () => 0;")
    page.on("dialog", lambda dialog: dialog.accept())
    open_quiz(page, server, "en")
    start = current(page, "en")
    page.click("#q-P1 details[data-zq-reveal] > summary")
    page.locator("#q-P1 [data-zq-new-variant]").click()
    moved = start % COUNT + 1
    expect_variant(page, "en", moved)
    page.fill("#zq-P1-gb", "5")
    # The reset puts back a copy of the page as it is now, showing variant `moved`: the copy must still know
    # variant 1's own text.
    page.click("[data-zq-reset]")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    expect_variant(page, "en", moved)
    expect(page.locator("#zq-P1-gb")).to_have_value("")
    number = moved
    while number != 1:
        page.click("#q-P1 details[data-zq-reveal] > summary")
        page.locator("#q-P1 [data-zq-new-variant]").click()
        number = number % COUNT + 1
        expect_variant(page, "en", number)
    page.click("#q-P1 details[data-zq-reveal] > summary")
    expect(page.locator("#q-P1 .zq-answer")).to_contain_text(typed(answer_of(1), "en"))


def test_a_reset_erases_every_variants_answers_not_only_the_current_ones(page, server) -> None:
    """Was a bug: a reset removed the entry of the variant on show, so answers and reveals of the variants the
    learner had before stayed in storage and in an export of their progress."""
    page.add_init_script("Math.random = () => 0;")
    page.on("dialog", lambda dialog: dialog.accept())
    open_quiz(page, server, "en")
    start = current(page, "en")
    check_p1(page, "5")
    page.locator("#q-P1 [data-zq-new-variant]").click()
    expect_variant(page, "en", start % COUNT + 1)
    check_p1(page, "6")
    variant_keys = f"Object.keys(localStorage).filter(key => key.startsWith('{KEY}P1@')).sort()"
    assert page.evaluate(variant_keys) == sorted(f"{KEY}P1@{number}" for number in (start, start % COUNT + 1))
    page.click("[data-zq-reset]")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.evaluate(variant_keys) == []
    # The question still shows the variant it was on, afresh.
    expect_variant(page, "en", start % COUNT + 1)
    expect(page.locator("#q-P1 [data-zq-verdict]")).to_have_text("")
    expect(page.locator("#zq-P1-gb")).to_have_value("")


MATCHING = """
/// question | M1
type: matching
shuffle: true
answer: {1: A, 2: B}
variants: speed

//// ru | Время
Сопоставьте скорость и время на {{ T }} токенов.

items:
1. 100 токенов в секунду
2. 250 токенов в секунду

options:
A. {{ fast }} s
B. {{ slow }} s

explanation:
{{ T }} / 100 = {{ fast }}, {{ T }} / 250 = {{ slow }}.
////

//// en | Time
Match each speed with the time {{ T }} tokens take.

items:
1. 100 tokens a second
2. 250 tokens a second

options:
A. {{ fast }} s
B. {{ slow }} s

explanation:
{{ T }} / 100 = {{ fast }}, {{ T }} / 250 = {{ slow }}.
////
///
"""


# The same question with formulas for options (a select shows their labels alone), and more variants to move to.
MATCHING_FORMULAS = (MATCHING.replace("| M1", "| M2").replace("variants: speed", "variants: {from: speed, count: 5}")
                     .replace("{{ fast }} s", "${{ fast }}$ s").replace("{{ slow }} s", "${{ slow }}$ s"))


@pytest.fixture(scope="module")
def matching_server(tmp_path_factory):
    """The fixture with two shuffled matching questions with variants, one of them with formulas for options."""
    work = tmp_path_factory.mktemp("variants-matching")
    source = copy_site(FIXTURE, work / "src")
    quiz = source / "exercises" / "vc" / "01-load" / "quiz.md"
    quiz.write_text(quiz.read_text(encoding="utf-8") + MATCHING + MATCHING_FORMULAS, encoding="utf-8")
    url, running = serve(build_site(source / "mkdocs.yml", work / "site"))
    yield url
    running.shutdown()


def picker_texts(page) -> list[tuple[str, str]]:
    """(what each option of a matching select says, what the list above says of it): the same, so that a phone's
    picker, which shows only the select's options, names each option by its label and its text."""
    return page.eval_on_selector_all("#q-M1 [data-zq-choice]", """(items) => items.map((item) => [
        document.querySelector(`#zq-M1-2 option[value="${item.dataset.zqChoice}"]`).textContent,
        item.textContent.trim()])""")


def test_a_matching_selects_options_say_the_current_variants_texts_by_their_shown_labels(page, matching_server
                                                                                          ) -> None:
    page.goto(matching_server + "en/" + QUIZ)
    page.wait_for_selector("#q-M1[data-zq-shuffled]", state="attached")
    first = picker_texts(page)
    assert [said for said, _ in first] == [listed for _, listed in first]
    assert all(re.fullmatch(r"[AB]\. \d+ s", said) for said, _ in first), first
    page.click("#q-M1 details[data-zq-reveal] > summary")
    page.click("#q-M1 [data-zq-new-variant]")
    expect(page.locator("#q-M1 [data-zq-choice]").first).not_to_have_text(first[0][1])
    second = picker_texts(page)
    assert [said for said, _ in second] == [listed for _, listed in second]
    assert second != first


def test_a_matching_options_formula_is_named_by_the_variant_shown(page, matching_server) -> None:
    """A select can't draw a formula: an option with one shows its label alone and is named by its TeX, and that
    name holds the figures of the variant shown, under the label shown, after "New variant" too (it kept
    variant 1's)."""
    page.goto(matching_server + "en/" + QUIZ)
    page.wait_for_selector("#q-M2[data-zq-shuffled]", state="attached")
    line = page.locator("#q-M2 [data-zq-variant-line]")

    def names() -> list[list[str]]:
        return page.eval_on_selector_all("#zq-M2-1 option[value]:not([value=''])", """(options) => options.map(
            (option) => [option.textContent, option.getAttribute("aria-label")])""")

    def expected(number: int) -> list[list[str]]:
        values = fixture_functions.speed(random.Random(variant_seed("M2", number)))
        shown = dict(page.eval_on_selector_all("#q-M2 [data-zq-choice]", """(items) => items.map((item) => [
            item.dataset.zqChoice, item.querySelector(".zq-marker").textContent.replace(".", "")])"""))
        return sorted([[shown["A"], f"{shown['A']}. {values['fast']} s"],
                       [shown["B"], f"{shown['B']}. {values['slow']} s"]])

    number = int(re.search(r"Variant (\d+) of 5", line.inner_text())[1])
    assert sorted(names()) == expected(number)
    page.click("#q-M2 details[data-zq-reveal] > summary")
    page.click("#q-M2 [data-zq-new-variant]")
    expect(line).not_to_have_text(f"Variant {number} of 5")
    moved = int(re.search(r"Variant (\d+) of 5", line.inner_text())[1])
    assert sorted(names()) == expected(moved)
