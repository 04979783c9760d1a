"""Learners' side of the fixture course in Chromium: grading every type, progress, saved state."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect
from support.browser import AXE

QUIZ = "demo/01-basics/quiz/"
EXERCISES = "demo/01-basics/exercises/"
KEY = "zadachnik:demo/1/"


def open_quiz(page, server, lang: str = "ru"):
    page.goto(server + ("en/" if lang == "en" else "") + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    return page


def verdict(page, qid: str) -> str:
    return page.locator(f"#q-{qid} [data-zq-verdict]").inner_text()


def check(page, qid: str) -> str:
    page.click(f"#q-{qid} [data-zq-check]")
    return verdict(page, qid)


def progress(page) -> str:
    return page.locator("[data-zq-progress]").inner_text()


def switch_language(page, lang: str) -> None:
    page.locator(".md-header .md-select").hover()
    page.locator(f'a.md-select__link[hreflang="{lang}"]').click()
    page.wait_for_selector(f'.zq-page[data-zq-lang="{lang}"][data-zq-ready=yes]')


# -- grading, type by type -----------------------------------------------------------------------


def test_single_choice(page, fixture_server) -> None:
    open_quiz(page, fixture_server, "en")
    assert check(page, "Q1") == "Choose an answer first."
    page.check("#q-Q1 input[value=A]")
    assert check(page, "Q1") == "✗ Wrong"
    page.check("#q-Q1 input[value=B]")
    assert check(page, "Q1") == "✓ Correct"


def test_multiple_choice_with_net_correct_credit(page, fixture_server) -> None:
    open_quiz(page, fixture_server, "en")
    page.check("#q-Q2 input[value='1']")
    assert check(page, "Q2") == "◐ Partly correct: 50%"
    page.check("#q-Q2 input[value='2']")
    assert check(page, "Q2") == "✗ Wrong"
    page.uncheck("#q-Q2 input[value='2']")
    page.check("#q-Q2 input[value='3']")
    assert check(page, "Q2") == "✓ Correct"


def test_numeric_fields_read_comma_fraction_and_exponent(page, fixture_server) -> None:
    open_quiz(page, fixture_server, "ru")
    page.fill("#zq-Q3-ratio", "16/7")
    assert page.locator("#q-Q3 [data-zq-field=ratio] [data-zq-reading]").inner_text() == "прочитано как 2,2857143…"
    page.fill("#zq-Q3-mem", "7,82e1")
    assert check(page, "Q3") == "✓ Верно"
    page.fill("#zq-Q3-ratio", "2,2857")
    page.fill("#zq-Q3-mem", "78,2·10^0")
    assert check(page, "Q3") == "✓ Верно"


def test_numeric_wrong_unreadable_and_precision(page, fixture_server) -> None:
    open_quiz(page, fixture_server, "en")
    page.fill("#zq-Q3-ratio", "2.3")
    page.fill("#zq-Q3-mem", "1,2.3")
    assert check(page, "Q3") == "Could not read the answer: see the messages by the fields."
    mem = page.locator("#q-Q3 [data-zq-field=mem]")
    assert "the separators don’t make a number here. Write it like 2,629.07." in mem.inner_text()
    assert page.locator("#zq-Q3-mem").get_attribute("aria-invalid") == "true"
    assert progress(page) == "Checked 0 / 7 · Correct 0", "an unreadable answer is not counted as checked"
    page.fill("#zq-Q3-mem", "seventy")
    page.press("#zq-Q3-mem", "Enter")
    assert "“seventy” does not read as a number" in mem.inner_text()
    page.fill("#zq-Q3-mem", "78")
    assert check(page, "Q3") == "✗ Wrong"
    ratio = page.locator("#q-Q3 [data-zq-field=ratio]").inner_text()
    assert "✗ wrong" in ratio and "give at least 4 decimal places" in ratio
    assert "✓ correct" in mem.inner_text()


def test_matching_says_which_items_are_wrong(page, fixture_server) -> None:
    open_quiz(page, fixture_server, "en")
    page.select_option("#zq-Q4-1", "B")
    assert check(page, "Q4") == "Choose an option for items: 2."
    page.select_option("#zq-Q4-2", "B")
    assert check(page, "Q4") == "✗ Wrongly matched items: 2."
    assert page.locator("#q-Q4 [data-zq-item='2'] [data-zq-mark]").inner_text() == "✗ wrong"
    page.select_option("#zq-Q4-2", "A")
    assert check(page, "Q4") == "✓ Correct"


def test_mixed_question_checks_its_number_and_keeps_the_explanation(page, fixture_server) -> None:
    open_quiz(page, fixture_server, "en")
    page.fill("#zq-Q6-rho", "4/5")
    page.fill("#zq-Q6-notes", "Arrivals are slower than service.")
    assert check(page, "Q6") == "✓ Correct"
    page.fill("#zq-Q6-rho", "0.9")
    assert check(page, "Q6") == "✗ Wrong"


def test_progress_counts_auto_checked_questions(page, fixture_server) -> None:
    open_quiz(page, fixture_server, "en")
    assert progress(page) == "Checked 0 / 7 · Correct 0"
    page.check("#q-Q1 input[value=B]")
    check(page, "Q1")
    page.check("#q-Q2 input[value='1']")
    check(page, "Q2")
    page.fill("#zq-Q6-rho", "1")
    check(page, "Q6")
    assert progress(page) == "Checked 3 / 7 · Correct 1"
    # Changing an answer withdraws its verdict.
    page.check("#q-Q1 input[value=C]")
    assert progress(page) == "Checked 2 / 7 · Correct 0"


def test_verdict_is_announced_and_focus_stays_on_check(page, fixture_server) -> None:
    open_quiz(page, fixture_server, "en")
    page.check("#q-Q1 input[value=B]")
    page.focus("#q-Q1 [data-zq-check]")
    page.keyboard.press("Enter")
    assert page.locator("[data-zq-live]").inner_text() == "Question Q1: ✓ Correct"
    assert page.evaluate("document.activeElement.matches('#q-Q1 [data-zq-check]')")


# -- saved state -------------------------------------------------------------------------------


def answer_everything(page) -> None:
    page.check("#q-Q1 input[value=B]")
    check(page, "Q1")
    page.check("#q-Q2 input[value='3']")
    page.fill("#zq-Q3-ratio", "2,2857")
    page.fill("#zq-Q3-mem", "78")
    check(page, "Q3")
    page.select_option("#zq-Q4-1", "B")
    page.fill("#zq-Q5-notes", "Rayleigh scattering")
    page.locator("#q-Q5 details summary").click()


def assert_everything_restored(page, lang: str) -> None:
    assert page.is_checked("#q-Q1 input[value=B]")
    assert page.is_checked("#q-Q2 input[value='3']") and not page.is_checked("#q-Q2 input[value='1']")
    assert page.input_value("#zq-Q3-ratio") == "2,2857"
    assert page.input_value("#zq-Q3-mem") == "78"
    assert page.input_value("#zq-Q4-1") == "B" and page.input_value("#zq-Q4-2") == ""
    assert page.input_value("#zq-Q5-notes") == "Rayleigh scattering"
    assert page.locator("#q-Q5 details").get_attribute("open") is not None
    assert page.locator("#q-Q1 details").get_attribute("open") is None
    assert verdict(page, "Q1") == ("✓ Верно" if lang == "ru" else "✓ Correct")
    assert progress(page) == ("Проверено: 2 / 7 · Верно: 2" if lang == "ru" else "Checked 2 / 7 · Correct 2")


def test_state_is_shared_between_languages_and_survives_reload(page, fixture_server) -> None:
    open_quiz(page, fixture_server, "ru")
    answer_everything(page)
    assert_everything_restored(page, "ru")
    switch_language(page, "en")
    assert_everything_restored(page, "en")
    switch_language(page, "ru")
    assert_everything_restored(page, "ru")
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert_everything_restored(page, "ru")
    keys = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('zadachnik:')).sort()")
    assert keys == [KEY + q for q in ("Q1", "Q2", "Q3", "Q4", "Q5")]


def test_exercise_reveals_are_saved(page, fixture_server) -> None:
    page.goto(fixture_server + EXERCISES)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.locator('#e-E2 [data-zq-reveal="criteria"] summary').click()
    page.goto(fixture_server + "en/" + EXERCISES)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.locator('#e-E2 [data-zq-reveal="criteria"]').get_attribute("open") is not None
    assert page.locator('#e-E2 [data-zq-reveal="solution"]').get_attribute("open") is None


def test_reset_clears_this_page_only(page, fixture_server) -> None:
    page.goto(fixture_server + EXERCISES)
    page.locator('#e-E1 [data-zq-reveal="solution"] summary').click()
    open_quiz(page, fixture_server, "en")
    answer_everything(page)
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("[data-zq-reset]")
    assert page.input_value("#zq-Q3-mem") == "78", "dismissing the confirmation keeps everything"
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-zq-reset]")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.input_value("#zq-Q3-mem") == ""
    assert not page.is_checked("#q-Q1 input[value=B]")
    assert page.input_value("#zq-Q5-notes") == ""
    assert progress(page) == "Checked 0 / 7 · Correct 0"
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('zadachnik:'))") == [KEY + "E1"]


def test_export_clear_import_restores_everything(page, fixture_server, tmp_path: Path) -> None:
    open_quiz(page, fixture_server, "ru")
    answer_everything(page)
    with page.expect_download() as download:
        page.click("[data-zq-export]")
    exported = tmp_path / "progress.json"
    download.value.save_as(exported)
    data = json.loads(exported.read_text())
    assert data["format"] == "zadachnik-progress" and len(data["entries"]) == 5
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.input_value("#zq-Q3-mem") == ""
    page.set_input_files("[data-zq-import]", str(exported))
    page.wait_for_function("document.querySelector('#zq-Q3-mem').value === '78'")
    assert_everything_restored(page, "ru")
    expect(page.locator("[data-zq-tools-result]")).to_contain_text("Загружено записей: 5.")


def test_import_rejects_a_foreign_file(page, fixture_server, tmp_path: Path) -> None:
    open_quiz(page, fixture_server, "en")
    page.check("#q-Q1 input[value=B]")
    bad = tmp_path / "other.json"
    bad.write_text('{"hello": "world"}')
    page.set_input_files("[data-zq-import]", str(bad))
    page.wait_for_function("document.querySelector('[data-zq-tools-result]').textContent.length > 0")
    assert "not a Zadachnik progress file" in page.locator("[data-zq-tools-result]").inner_text()
    assert page.is_checked("#q-Q1 input[value=B]")


def test_a_question_type_whose_script_fails_to_load_is_said_and_the_others_work(context, fixture_server) -> None:
    """Matching's module never arrives (a dropped connection): the page says part of it did not load, its matching
    question stays as the HTML shows it, and the other questions are checked as usual, with no script error."""
    errors = []
    context.route("**/assets/zadachnik/js/types/matching.js", lambda route: route.abort())
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(fixture_server + "en/" + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert "did not load" in page.locator("[data-zq-storage]").inner_text()
    page.check("#q-Q1 input[value=B]")
    assert check(page, "Q1") == "✓ Correct"
    assert page.locator("#q-Q4").get_attribute("data-zq-status") is None, "matching was not wired"
    assert not errors, errors


# -- broken storage ---------------------------------------------------------------------------


def test_corrupt_entry_is_skipped_and_the_rest_kept(context, fixture_server) -> None:
    page = context.new_page()
    page.goto(fixture_server + QUIZ)
    # Seeded once the page has set up: a page still reading its entries would find the seed there first.
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.evaluate(f"""() => {{
        localStorage.setItem('{KEY}Q1', '{{not json');
        localStorage.setItem('{KEY}Q3', JSON.stringify({{v: 1, t: 1, answer: {{fields: {{ratio: '16/7', mem: ''}}}}}}));
    }}""")
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.input_value("#zq-Q3-ratio") == "16/7"
    note = page.locator("[data-zq-storage]")
    assert note.is_visible() and "повреждена" in note.inner_text()
    page.check("#q-Q1 input[value=B]")
    assert check(page, "Q1") == "✓ Верно"
    assert json.loads(page.evaluate(f"localStorage.getItem('{KEY}Q1')"))["verdict"]["status"] == "correct"


@pytest.mark.parametrize("broken", ["throws", "full"])
def test_storage_that_fails_keeps_the_page_working(context, fixture_server, broken: str) -> None:
    script = {
        # Private mode in some browsers: touching localStorage throws.
        "throws": "Object.defineProperty(window, 'localStorage', {get() { throw new DOMException('denied'); }});",
        # A full quota: reads work, writes throw.
        "full": "Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };",
    }[broken]
    context.add_init_script(script)
    page = context.new_page()
    page.goto(fixture_server + "en/" + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.check("#q-Q1 input[value=B]")
    assert check(page, "Q1") == "✓ Correct"
    assert progress(page) == "Checked 1 / 7 · Correct 1"
    note = page.locator("[data-zq-storage]")
    assert note.is_visible() and "can’t be saved" in note.inner_text()
    assert page.locator("[data-zq-storage]").count() == 1


def test_unversioned_entries_are_migrated_not_dropped(context, fixture_server) -> None:
    page = context.new_page()
    page.goto(fixture_server + QUIZ)
    page.evaluate(f"localStorage.setItem('{KEY}Q5', JSON.stringify({{notes: 'old draft'}}))")
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.input_value("#zq-Q5-notes") == "old draft"
    page.fill("#zq-Q5-notes", "old draft, continued")
    stored = json.loads(page.evaluate(f"localStorage.getItem('{KEY}Q5')"))
    assert stored["v"] == 1 and stored["notes"] == "old draft, continued"


def test_learner_text_is_never_html(page, fixture_server) -> None:
    open_quiz(page, fixture_server, "en")
    payload = "<img src=x onerror=\"window.__pwned = 1\">"
    page.fill("#zq-Q5-notes", payload)
    page.fill("#zq-Q3-mem", payload)
    check(page, "Q3")
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.input_value("#zq-Q5-notes") == payload
    assert page.evaluate("window.__pwned") is None
    assert page.locator(".zq-page img[src=x]").count() == 0
    assert payload.replace('"', "") not in page.content()


# -- accessibility -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", [QUIZ, EXERCISES])
@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_no_serious_accessibility_violations(page, fixture_server, path: str, scheme: str) -> None:
    page.goto(fixture_server + "en/" + path)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    if page.locator("body").get_attribute("data-md-color-scheme") != scheme:
        page.locator("form[data-md-component=palette] label:visible").first.click()
    assert page.locator("body").get_attribute("data-md-color-scheme") == scheme
    # Verdicts and messages on the page too, not only the untouched form.
    if path == QUIZ:
        page.fill("#zq-Q3-mem", "abc")
        check(page, "Q3")
        page.check("#q-Q1 input[value=B]")
        check(page, "Q1")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document.querySelector('.md-content'))")
    serious = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
               if v["impact"] in ("serious", "critical")]
    assert not serious, serious


def test_every_control_is_reachable_by_keyboard(page, fixture_server) -> None:
    open_quiz(page, fixture_server, "en")
    page.focus("#q-Q4 select >> nth=0")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.input_value("#zq-Q4-1") == "B"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.matches('#zq-Q4-2')")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.matches('#q-Q4 [data-zq-check]')")
    page.keyboard.press("Enter")
    assert re.search("Choose an option", verdict(page, "Q4"))


# -- the zadachnik:checked event ---------------------------------------------------------------------------------

HEARD = """() => {
    window.heard = [];
    document.addEventListener("zadachnik:checked", (event) => {
        window.heard.push({target: event.target.id, detail: event.detail, frozen: Object.isFrozen(event.detail)
                           && Object.isFrozen(event.detail.answer)});
        // A listener that tampers and then throws: neither the saved verdict nor the page may suffer.
        try { event.detail.status = "correct"; } catch {}
        throw new Error("a listener's own mistake");
    });
}"""


def test_each_check_sends_one_event_with_the_question_status_score_and_answer(page, fixture_server) -> None:
    open_quiz(page, fixture_server, "en")
    page.evaluate(HEARD)
    assert check(page, "Q1") == "Choose an answer first."
    page.check("#q-Q1 input[value=A]")
    assert check(page, "Q1") == "✗ Wrong"
    page.check("#q-Q2 input[value='1']")
    assert check(page, "Q2") == "◐ Partly correct: 50%"
    page.check("#q-Q1 input[value=B]")
    assert check(page, "Q1") == "✓ Correct"
    heard = page.evaluate("window.heard")
    assert [(event["target"], event["detail"]["status"], event["detail"]["score"]) for event in heard] == [
        ("q-Q1", "unanswered", None), ("q-Q1", "wrong", 0), ("q-Q2", "partial", 0.5), ("q-Q1", "correct", 1)]
    assert heard[1]["detail"] == {"course": "demo", "module": "1", "question": "Q1", "variant": None, "lang": "en",
                                  "status": "wrong", "score": 0, "answer": {"choice": ["A"]}}
    assert all(event["frozen"] for event in heard)
    # The listener's error is the browser's to report; the page went on and saved what it showed.
    assert page.errors == ["a listener's own mistake"] * 4
    page.errors.clear()
    assert page.evaluate(f"JSON.parse(localStorage.getItem('{KEY}Q1')).verdict.status") == "correct"
    assert page.evaluate(f"JSON.parse(localStorage.getItem('{KEY}Q1')).answer") == {"choice": ["B"]}


# -- the hand-in code ---------------------------------------------------------------------------------------------


def test_the_hand_in_code_carries_each_questions_state_and_the_learners_own_text(page, fixture_server) -> None:
    from zadachnik.exports.handin import read_code

    open_quiz(page, fixture_server, "ru")
    page.check("#q-Q1 input[value=B]")
    assert check(page, "Q1") == "✓ Верно"
    page.check("#q-Q2 input[value='1']")
    check(page, "Q2")
    assert check(page, "Q4") == "Выберите вариант для пунктов: 1, 2."
    page.fill("#zq-Q5-notes", "Потому что «так»,\nи ещё строка")
    assert page.locator("[data-zq-handin-box]").is_hidden()
    page.click("[data-zq-handin]")
    field = page.locator("[data-zq-handin-code]")
    field.wait_for()
    # Shown selected, ready to copy.
    assert page.evaluate("() => document.activeElement.id") == "zq-handin-code"
    assert page.evaluate("() => { const f = document.activeElement; return f.selectionEnd - f.selectionStart; }") \
        == len(field.input_value())
    results = read_code(field.input_value())
    assert (results.course, results.module) == ("demo", "1")
    by_id = {question[0]: question for question in results.questions}
    assert list(by_id) == ["Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7", "Q8"]
    assert by_id["Q1"] == ("Q1", None, "correct", 1, "")
    assert by_id["Q2"] == ("Q2", None, "partial", 0.5, "")
    assert by_id["Q3"] == ("Q3", None, None, None, "")
    assert by_id["Q4"] == ("Q4", None, "unanswered", None, "")
    assert by_id["Q5"] == ("Q5", None, None, None, "Потому что «так»,\nи ещё строка")
    assert abs(results.time - page.evaluate("Date.now() / 1000")) < 600


@pytest.mark.parametrize("which", ["fixture", "module 12", "module 9"])
def test_a_page_loads_no_script_or_stylesheet_its_weight_leaves_out(request, page, which: str) -> None:
    """The page-weight count (support.assets) leaves out what a page shows it will not load: its other question
    types' modules and optional parts without their markup. The page, used, loads nothing else of ours."""
    from support.assets import QUIZ as WEIGHED_QUIZ
    from support.assets import SAMPLE_PAGES, own_assets

    site, server, path = {
        "fixture": ("fixture_site", "fixture_server", WEIGHED_QUIZ),
        "module 12": ("sample_site", "sample_server", SAMPLE_PAGES[0]),
        "module 9": ("sample_site", "sample_server", SAMPLE_PAGES[1]),
    }[which]
    site, server = request.getfixturevalue(site), request.getfixturevalue(server)
    loaded: set[str] = set()
    page.on("request", lambda sent: loaded.add(sent.url.split("?")[0]))
    page.goto(server + path)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    # What loads on a learner's first moves: a check, the hand-in code.
    page.locator("[data-zq-check]").first.click()
    hand_in = page.locator("[data-zq-handin]")
    if hand_in.count():
        hand_in.first.click()
    page.wait_for_load_state("networkidle")
    counted = {(server + path.relative_to(site).as_posix()) for path in own_assets(site, path)}
    ours = {url for url in loaded if "/assets/zadachnik/" in url and url.endswith((".js", ".css"))
            and "/vendor/" not in url and "/katex/" not in url and "/pyodide/" not in url
            and not url.endswith(("python-worker.js", "course-progress.js"))}
    assert ours <= counted, sorted(ours - counted)


def frames_drawn(page, seconds: float) -> int:
    """How many frames Chromium's main thread made for the page in the next `seconds` (from a trace)."""
    browser = page.context.browser
    browser.start_tracing(page=page, categories=["cc"])
    time.sleep(seconds)
    trace = json.loads(browser.stop_tracing())
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    return sum(1 for event in events if event.get("ph") == "X" and event.get("name") == "ProxyMain::BeginMainFrame")


@pytest.mark.parametrize("which", ["fixture", "module 12", "module 9"])
def test_a_page_left_open_draws_nothing(request, page, which: str) -> None:
    """A learner leaves a quiz page open for hours: once it has settled it must cost no CPU. The fixture's page
    has content tabs in a closed explanation, whose indicator's transition Chromium never ended, so the page drew
    sixty frames a second for as long as it was open."""
    from support.assets import QUIZ as WEIGHED_QUIZ
    from support.assets import SAMPLE_PAGES

    server, path = {"fixture": ("fixture_server", WEIGHED_QUIZ), "module 12": ("sample_server", SAMPLE_PAGES[0]),
                    "module 9": ("sample_server", SAMPLE_PAGES[1])}[which]
    page.goto(request.getfixturevalue(server) + path.removesuffix("index.html"))
    # What still arrives as the page settles (fonts, the progress marks, Material's own quarter-second
    # transitions) draws a few frames: a quiet second and a half among the first three is enough, where the
    # page that kept drawing had none.
    counts: list[int] = []
    while len(counts) < 3 and (not counts or counts[-1] > 3):
        counts.append(frames_drawn(page, 1.5))
    assert counts[-1] <= 3, counts
    # The count sees frames when there are some: a page that asks for one on every frame.
    page.evaluate("(function next() { requestAnimationFrame(next); })()")
    assert frames_drawn(page, 2) >= 10
