"""Exam mode in the browser: the fixture module with `mode: exam` and a one-minute limit. No Check, hints or
answers before Submit; one Submit, asked twice; then frozen answers with their verdicts and explanations; the
time runs from the first answer, survives a reload and submits when it is up; the other language and an LMS see
the same submission."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from support.browser import THEME_VIOLATIONS, axe_findings, let_runtime_go, opened_with_runtime_held, serve
from support.sites import FIXTURE_SITE, ROOT, as_exam, build_site, copy_site

QUIZ = "en/demo/01-basics/quiz/"
PARSONS_SITE = ROOT / "tests" / "fixtures" / "parsons"
# The fixture's auto-checked questions; Q7 (code) and Q8 (a checker) are graded by Python.
AUTO = 7


# An open question whose statement has content tabs: reading its second tab is no answer.
TABBED_QUESTION = """
/// question | T1
type: open

//// ru | Вкладки
Прочтите обе вкладки.

=== "Первая"
    Первая вкладка.

=== "Вторая"
    Вторая вкладка.

explanation:
Обе прочитаны.
////

//// en | Tabs
Read both tabs.

=== "First"
    The first tab.

=== "Second"
    The second tab.

explanation:
Both read.
////
///
"""


@pytest.fixture(scope="module")
def exam_url(tmp_path_factory):
    work = tmp_path_factory.mktemp("exam")
    source = copy_site(FIXTURE_SITE, work / "src")
    as_exam(source / "exercises" / "demo" / "01-basics", "time_limit: 1\n", questions=TABBED_QUESTION)
    url, server = serve(build_site(source / "mkdocs.yml", work / "site"))
    yield url
    server.shutdown()


# Answers of other shapes than the fixture's: an expression, and an order (always there, the learner's first).
MORE_QUESTIONS = """
/// question | F1
type: formula
answer: 2*n
variables: [n]

//// ru | Удвоение
Запишите удвоенное $n$.

explanation:
$2n$.
////

//// en | Doubling
Write twice $n$.

explanation:
$2n$.
////
///

/// question | O1
type: ordering

//// ru | Порядок
Расставьте по порядку.

items:
1. Один
2. Два
3. Три

explanation:
По возрастанию.
////

//// en | Order
Put them in order.

items:
1. One
2. Two
3. Three

explanation:
In increasing order.
////
///
"""


@pytest.fixture(scope="module")
def exam_shapes_url(tmp_path_factory):
    """The Parsons fixture as an exam, with a formula and an ordering question added."""
    work = tmp_path_factory.mktemp("exam-shapes")
    source = copy_site(PARSONS_SITE, work / "src")
    as_exam(source / "exercises" / "ps" / "01-lines", questions=MORE_QUESTIONS)
    url, server = serve(build_site(source / "mkdocs.yml", work / "site"))
    yield url
    server.shutdown()


def open_exam(page, url: str, path: str = QUIZ):
    page.goto(url + path)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.locator("[data-zq-exam-submit]").wait_for()
    # exam.js has set up once the progress line counts answers.
    expect(page.locator("[data-zq-progress]")).to_contain_text("/ 7")


def submit(page) -> None:
    page.locator("[data-zq-exam-button]").click()
    page.locator("[data-zq-exam-yes]").click()


def status(page, question: str) -> str | None:
    return page.locator(f"#q-{question}").get_attribute("data-zq-status")


def test_nothing_is_checked_hinted_or_revealed_before_submit(page, exam_url: str) -> None:
    open_exam(page, exam_url)
    assert page.locator("[data-zq-check]").count() == 0
    assert page.locator("[data-zq-hints], [data-zq-new-variant]").count() == 0
    assert page.locator("details[data-zq-reveal]:visible").count() == 0
    progress = page.locator("[data-zq-progress]")
    expect(progress).to_have_text(f"Answered 0 / {AUTO}")
    page.locator("#q-Q1 input[value='B']").check()
    field = page.locator("#q-Q3 [data-zq-input='ratio']")
    field.fill("16/7")
    # Enter checks a field on a practice page; here it must not.
    field.press("Enter")
    expect(progress).to_have_text(f"Answered 2 / {AUTO}")
    page.wait_for_timeout(300)
    assert status(page, "Q1") in (None, "") and status(page, "Q3") in (None, "")
    assert page.locator("#q-Q3 [data-zq-verdict]").inner_text() == ""


def test_submit_is_asked_twice_then_freezes_the_answers_and_shows_verdicts(page, exam_url: str) -> None:
    open_exam(page, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    page.locator("#q-Q2 input[value='1']").check()
    page.locator("[data-zq-exam-button]").click()
    expect(page.locator("[data-zq-exam-confirm]")).to_be_visible()
    page.locator("[data-zq-exam-no]").click()
    expect(page.locator("[data-zq-exam-confirm]")).to_be_hidden()
    assert status(page, "Q1") in (None, "")
    submit(page)
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    expect(page.locator("#q-Q2")).to_have_attribute("data-zq-status", "partial")
    # An answer left empty is a wrong one once the exam is in.
    expect(page.locator("#q-Q3")).to_have_attribute("data-zq-status", "wrong")
    expect(page.locator("#q-Q4")).to_have_attribute("data-zq-status", "wrong")
    assert page.locator("#q-Q1 input[value='A']").is_disabled()
    assert page.locator("#q-Q3 [data-zq-input='ratio']").get_attribute("readonly") is not None
    expect(page.locator("#q-Q1 details[data-zq-reveal]")).to_have_attribute("open", "")
    expect(page.locator("#q-Q1 .zq-explanation")).to_be_visible()
    # Python is still starting in this test (it is not marked `python`, and never starts): its two questions
    # wait, and the rest are graded meanwhile.
    expect(page.locator("[data-zq-progress]")).to_have_text(f"Checked 5 / {AUTO} · Correct 1")
    expect(page.locator("[data-zq-exam-status]")).to_have_text("Checking your answers…")
    # Reloaded, the exam stays submitted and frozen.
    page.reload()
    page.locator("[data-zq-exam-submit]").wait_for()
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    expect(page.locator("#q-Q2 input[value='2']")).to_be_disabled()


def test_checking_is_shown_before_the_first_verdict(page, exam_url: str) -> None:
    """Grading in the browser does not wait: every built-in question was graded in the click's own task, so the
    first frame drawn after Submit already held the verdicts, and on a long exam the page froze for seconds with
    nothing said. Each frame records the status line and how many questions show a verdict."""
    open_exam(page, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    page.locator("[data-zq-exam-button]").click()
    page.evaluate("""() => {
        window.framesSeen = [];
        const look = () => {
            framesSeen.push([document.querySelector("[data-zq-exam-status]").textContent,
                             document.querySelectorAll("[data-zq-question][data-zq-status]:not([data-zq-status=''])")
                                 .length]);
            if (framesSeen.length < 300) requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
    }""")
    page.locator("[data-zq-exam-yes]").click()
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    frames = page.evaluate("framesSeen")
    assert ["Checking your answers…", 0] in frames, frames[:12]


def test_leaving_at_once_after_submit_keeps_the_verdicts(page, exam_url: str) -> None:
    """Submit waits a frame before grading, to draw "Checking…": a learner who left in that moment (an LMS that
    closes its frame on Submit) had an exam handed in without a verdict until its page was opened again."""
    open_exam(page, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    page.locator("[data-zq-exam-button]").click()
    with page.expect_navigation():
        page.evaluate("""() => {
            document.querySelector("[data-zq-exam-yes]").click();
            location.href = "/";
        }""")
    saved = json.loads(page.evaluate("localStorage.getItem('zadachnik:demo/1/Q1')"))
    assert saved["verdict"]["status"] == "correct", saved


def test_before_submit_what_is_typed_before_the_page_is_set_up_is_kept_and_saved(page, exam_url: str) -> None:
    """An exam not yet handed in is answered as a practice page is: what the learner ticks or types while the
    scripts are still arriving stays, over an answer saved earlier, and is saved, on a first visit too, where it
    starts the time as a first answer does."""
    held = opened_with_runtime_held(page, exam_url + QUIZ)
    page.fill("#zq-Q3-mem", "78")
    let_runtime_go(page, held)
    expect(page.locator("[data-zq-exam-timer]")).to_contain_text("Time left: ")
    open_exam(page, exam_url)
    assert page.input_value("#zq-Q3-mem") == "78"
    page.locator("#q-Q1 input[value='A']").check()
    held = opened_with_runtime_held(page, exam_url + QUIZ)
    page.locator("#q-Q1 input[value='B']").check()
    page.fill("#zq-Q3-mem", "80")
    let_runtime_go(page, held)
    assert page.locator("#q-Q1 input[value='B']").is_checked() and page.input_value("#zq-Q3-mem") == "80"
    open_exam(page, exam_url)
    assert page.locator("#q-Q1 input[value='B']").is_checked() and page.input_value("#zq-Q3-mem") == "80"
    submit(page)
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")


def test_a_submitted_answer_changed_before_the_page_is_set_up_stays_as_submitted(page, exam_url: str) -> None:
    """On a practice page what the learner does before the scripts arrive is kept (test_browser_storage.py); on
    an exam page handed in it is not: the page freezes the submitted answers as they were."""
    open_exam(page, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    page.fill("#zq-Q5-notes", "as handed in")
    submit(page)
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    held = opened_with_runtime_held(page, exam_url + QUIZ)
    page.locator("#q-Q1 input[value='A']").check()
    page.fill("#zq-Q5-notes", "typed after")
    page.wait_for_timeout(200)
    assert len(held) == 1
    let_runtime_go(page, held)
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    assert page.locator("#q-Q1 input[value='B']").is_checked()
    assert page.locator("#q-Q1 input[value='A']").is_disabled()
    open_exam(page, exam_url)
    assert page.input_value("#zq-Q5-notes") == "as handed in"


def test_a_code_answer_handed_in_stays_as_submitted_in_an_editor_mounted_later(page, exam_url: str) -> None:
    """The editor is mounted only when its question comes near the screen, which may be after the page froze
    the answers: it was editable then, and Reset put the starter back (neither saved, both shown)."""
    code = "def double(x):\n    return 2 * x\n"
    open_exam(page, exam_url)
    page.locator("#q-Q7").scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#q-Q7').zqEditor", timeout=20_000)
    page.evaluate("code => document.querySelector('#q-Q7').zqEditor.setValue(code, 1)", code)
    submit(page)
    expect(page.locator("[data-zq-exam-status]")).not_to_be_empty()
    page.evaluate("window.scrollTo(0, 0)")
    open_exam(page, exam_url)
    assert page.evaluate("document.querySelector('#q-Q7').zqEditor") is None, "mounted before it came near"
    page.locator("#q-Q7").scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#q-Q7').zqEditor", timeout=20_000)
    assert page.evaluate("document.querySelector('#q-Q7').zqEditor.getReadOnly()")
    assert page.evaluate("document.querySelector('#q-Q7').zqEditor.getValue()") == code
    expect(page.locator("#q-Q7 [data-zq-code-reset]")).to_be_disabled()


@pytest.mark.python
def test_answers_python_could_not_grade_are_graded_when_it_can(page, exam_url: str) -> None:
    """Python's files fail to load: the exam is submitted and frozen all the same, its other questions graded, and
    the learner gets a button to grade the rest once Python can start."""
    failing = True
    page.context.route("**/pyodide/**", lambda route: route.abort() if failing else route.continue_())
    open_exam(page, exam_url)
    page.locator("#q-Q8 [data-zq-input='x']").fill("4/7")
    submit(page)
    expect(page.locator("[data-zq-exam-status]")).to_contain_text("could not be checked yet", timeout=60_000)
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "wrong")
    assert status(page, "Q8") in (None, "")
    button = page.locator("[data-zq-exam-button]")
    expect(button).to_have_text("Check the remaining answers")
    assert page.locator("#q-Q8 [data-zq-input='x']").get_attribute("readonly") is not None
    failing = False
    button.click()
    expect(page.locator("#q-Q8")).to_have_attribute("data-zq-status", "correct", timeout=90_000)
    expect(page.locator("#q-Q7")).to_have_attribute("data-zq-status", "wrong", timeout=90_000)
    expect(page.locator("[data-zq-exam-status]")).to_contain_text("Submitted")


@pytest.mark.python
def test_a_submitted_exam_grades_python_questions_too(page, exam_url: str) -> None:
    open_exam(page, exam_url)
    page.locator("#q-Q8 [data-zq-input='x']").fill("4/7")
    submit(page)
    expect(page.locator("#q-Q8")).to_have_attribute("data-zq-status", "correct", timeout=90_000)
    expect(page.locator("#q-Q7")).to_have_attribute("data-zq-status", "wrong", timeout=90_000)
    expect(page.locator("[data-zq-exam-status]")).to_contain_text("Submitted")
    expect(page.locator("[data-zq-exam-button]")).to_be_hidden()


@pytest.mark.own_context
def test_the_time_runs_from_the_first_answer_survives_a_reload_and_submits_when_up(page, exam_url: str) -> None:
    # The page's clock stands still but where the test moves it: a slow reload costs the learner no time here.
    page.clock.install()
    page.clock.pause_at(1_800_000_000_000)
    open_exam(page, exam_url)
    timer = page.locator("[data-zq-exam-timer]")
    expect(timer).to_be_hidden()
    page.clock.fast_forward("00:30")
    expect(timer).to_be_hidden()
    page.locator("#q-Q1 input[value='B']").check()
    expect(timer).to_have_text("Time left: 1:00")
    # In sight while the learner scrolls: a look exam.js brings (look.js), not zadachnik.css.
    assert timer.evaluate("timer => getComputedStyle(timer).position") == "sticky"
    page.clock.fast_forward("00:20")
    expect(timer).to_have_text("Time left: 0:40")
    page.reload()
    page.locator("[data-zq-exam-submit]").wait_for()
    expect(timer).to_have_text("Time left: 0:40")
    page.clock.fast_forward("00:41")
    expect(page.locator("[data-zq-exam-status]")).to_contain_text("Time is up")
    # Grading waits for a frame first (so "Checking…" is drawn): the paused clock is moved on past it.
    page.clock.run_for(1000)
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    expect(timer).to_be_hidden()


@pytest.mark.own_context
def test_an_exam_whose_time_ran_out_while_closed_takes_nothing_typed_after(page, exam_url: str) -> None:
    """Back after the time ran out, on a slow connection: what the learner changes before the page is set up came
    after the end, and the automatic submission takes the answers saved in time (it took the late ones)."""
    page.clock.install()
    page.clock.pause_at(1_800_000_000_000)
    open_exam(page, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    page.fill("#zq-Q3-mem", "78")
    expect(page.locator("[data-zq-exam-timer]")).to_have_text("Time left: 1:00")
    page.goto(exam_url)
    page.clock.fast_forward("02:00")
    held = opened_with_runtime_held(page, exam_url + QUIZ)
    page.locator("#q-Q1 input[value='A']").check()
    page.fill("#zq-Q3-mem", "99")
    let_runtime_go(page, held)
    expect(page.locator("[data-zq-exam-status]")).to_contain_text("Time is up")
    page.clock.run_for(1000)
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    assert page.locator("#q-Q1 input[value='B']").is_checked()
    assert page.input_value("#zq-Q3-mem") == "78"


@pytest.mark.own_context
def test_an_exam_without_a_time_limit_takes_what_is_typed_early_however_long_ago_it_started(
        page, exam_url: str) -> None:
    """The same page made an exam with no limit (its markup says `data-zq-exam=""`, as such a page's does): a
    start long ago ends nothing, and what the learner changes before set-up stays, as before any exam's end."""
    page.clock.install()
    page.clock.pause_at(1_800_000_000_000)
    open_exam(page, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    page.goto(exam_url)
    page.clock.fast_forward("01:00:00")
    held = opened_with_runtime_held(page, exam_url + QUIZ)
    page.locator("#q-Q1 input[value='A']").check()
    page.evaluate("document.querySelector('.zq-page').dataset.zqExam = ''")
    page.evaluate("document.querySelector('[data-zq-exam-timer]').remove()")
    let_runtime_go(page, held)
    page.clock.fast_forward("00:05")
    assert page.locator("#q-Q1 input[value='A']").is_checked()
    expect(page.locator("[data-zq-exam-button]")).to_be_visible()
    assert status(page, "Q1") in (None, "")


def test_an_expression_and_a_moved_order_count_as_answered(page, exam_shapes_url: str) -> None:
    """"Answered x / n" counted choices, matches, fields and code only: a formula typed, or items and lines
    moved, left it where it was (and a formula typed before set-up did not start the time)."""
    page.goto(exam_shapes_url + "en/ps/01-lines/quiz/")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    progress = page.locator("[data-zq-progress]")
    expect(progress).to_have_text("Answered 0 / 4")
    page.fill("[id='q-F1'] [data-zq-input='expression']", "2n")
    expect(progress).to_have_text("Answered 1 / 4")
    page.locator("#q-O1 [data-zq-order-item] [data-zq-move='down']:not([disabled])").first.click()
    expect(progress).to_have_text("Answered 2 / 4")
    page.locator("#q-P2 [data-zq-line] [data-zq-move='down']:not([disabled])").first.click()
    expect(progress).to_have_text("Answered 3 / 4")


def test_after_submit_by_keyboard_the_focus_stays_in_the_exam(page, exam_url: str) -> None:
    """"Yes" hid itself and left the focus on the page's body: the next Tab went past every question."""
    open_exam(page, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    page.locator("[data-zq-exam-button]").focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.matches('[data-zq-exam-yes]')")
    page.keyboard.press("Enter")
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    assert page.evaluate("document.activeElement.matches('[data-zq-exam-status]')")
    # And on the screen: the answers opened above it after it took the focus, and pushed it out of sight (the
    # accessibility audit).
    box = page.evaluate("""() => { const box = document.activeElement.getBoundingClientRect();
      return [box.top, box.bottom, innerHeight]; }""")
    assert 0 <= box[0] and box[1] <= box[2], box


@pytest.mark.own_context
def test_an_exam_ended_by_its_time_says_so_in_every_tab_and_after_a_reload(page, exam_url: str) -> None:
    """The tab whose clock ran out said "Time is up"; the other one, and the page reloaded, said the learner
    had submitted."""
    page.clock.install()
    page.clock.pause_at(1_800_000_000_000)
    open_exam(page, exam_url)
    other = page.context.new_page()
    open_exam(other, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    expect(other.locator("[data-zq-exam-timer]")).to_have_text("Time left: 1:00")
    page.clock.fast_forward("01:01")
    expect(page.locator("[data-zq-exam-status]")).to_contain_text("Time is up")
    expect(other.locator("[data-zq-exam-status]")).to_contain_text("Time is up")
    page.reload()
    page.locator("[data-zq-exam-submit]").wait_for()
    expect(page.locator("[data-zq-exam-status]")).to_contain_text("Time is up")


def test_the_other_language_sees_the_same_submission(page, exam_url: str) -> None:
    open_exam(page, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    submit(page)
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    page.goto(exam_url + "demo/01-basics/quiz/")
    page.locator("[data-zq-exam-submit]").wait_for()
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    expect(page.locator("#q-Q1 input[value='B']")).to_be_checked()
    expect(page.locator("#q-Q1 input[value='B']")).to_be_disabled()
    expect(page.locator("[data-zq-exam-confirm]")).to_be_hidden()


def test_an_exam_has_no_serious_accessibility_finding_before_or_after_submit(page, exam_url: str) -> None:
    open_exam(page, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    page.locator("[data-zq-exam-button]").click()
    for moment in ("asked to confirm", "submitted"):
        findings = [finding for finding in axe_findings(page) if finding[1] in ("serious", "critical")
                    and (finding[0], finding[2]) not in THEME_VIOLATIONS]
        assert not findings, (moment, findings)
        if moment == "asked to confirm":
            page.locator("[data-zq-exam-yes]").click()
            expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")


EXAM_KEY = "zadachnik:demo/1/@exam"


def test_reading_a_tab_or_importing_another_modules_progress_starts_no_clock(page, exam_url: str,
                                                                             tmp_path: Path) -> None:
    """The time runs from the first answer: a tab opened in a statement, or the Import picker, started it."""
    open_exam(page, exam_url)
    page.locator("#q-T1 .tabbed-labels label").nth(1).click()
    expect(page.locator("#q-T1")).to_contain_text("The second tab.")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "zadachnik-progress", "version": 1, "entries": {
        "zadachnik:demo/2/Q1": {"answer": {"choice": ["B"]}, "t": 1}}}), encoding="utf-8")
    page.set_input_files("[data-zq-import]", str(other))
    expect(page.locator("[data-zq-tools-result]")).not_to_be_empty()
    open_exam(page, exam_url)
    assert page.evaluate(f"localStorage.getItem('{EXAM_KEY}')") is None
    expect(page.locator("[data-zq-exam-timer]")).to_be_hidden()
    page.locator("#q-Q1 input[value='B']").check()
    expect(page.locator("[data-zq-exam-timer]")).to_contain_text("Time left: ")


def test_a_submitted_exam_imported_into_a_fresh_browser_stays_submitted(page, exam_url: str, tmp_path: Path) -> None:
    """Imported on the exam's own page, the file's submission lost to an entry the picker itself had written (the
    time 'started' by choosing the file, newer than it): the exam was open again, its verdicts showing."""
    open_exam(page, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    submit(page)
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    with page.expect_download() as download:
        page.click("[data-zq-export]")
    exported = tmp_path / "progress.json"
    download.value.save_as(exported)
    page.evaluate("localStorage.clear()")
    open_exam(page, exam_url)
    page.set_input_files("[data-zq-import]", str(exported))
    expect(page.locator("[data-zq-tools-result]")).to_contain_text("Newer ones kept from this browser: 0.")
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    assert page.locator("#q-Q1 input[value='A']").is_disabled()
    expect(page.locator("[data-zq-exam-button]")).to_be_hidden()


def test_reset_after_submitting_starts_the_exam_over(page, exam_url: str) -> None:
    """Reset left the exam submitted with its answers gone: every question graded again, empty, as wrong."""
    open_exam(page, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    submit(page)
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.click("[data-zq-reset]")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    expect(page.locator("[data-zq-progress]")).to_have_text(f"Answered 0 / {AUTO}")
    assert status(page, "Q1") in (None, "") and not page.locator("#q-Q1 input[value='B']").is_checked()
    assert page.locator("#q-Q1 input[value='A']").is_enabled()
    expect(page.locator("[data-zq-exam-button]")).to_be_visible()
    expect(page.locator("[data-zq-exam-timer]")).to_be_hidden()
    assert page.locator("details[data-zq-reveal]:visible").count() == 0
    assert page.evaluate(f"localStorage.getItem('{EXAM_KEY}')") is None


def test_submit_names_the_answers_it_cannot_read_before_the_learner_confirms(page, exam_url: str) -> None:
    """No Check before Submit: an answer the page cannot read (typed on the Russian page as 78,230, which the
    English page may read as 78230 or 78.23; or no number at all) silently counted as wrong once submitted."""
    open_exam(page, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    page.fill("#zq-Q3-mem", "78,230")
    page.fill("#zq-Q3-ratio", "16/7")
    page.locator("[data-zq-exam-button]").click()
    warning = page.locator("[data-zq-exam-unreadable]")
    expect(warning).to_have_text("These answers can’t be read, and would count as wrong: Q3.")
    assert "zq-exam-unreadable" in page.locator("[data-zq-exam-yes]").get_attribute("aria-describedby")
    page.locator("[data-zq-exam-no]").click()
    # A field left empty is not an answer that cannot be read: Q3 half answered is not named.
    page.fill("#zq-Q3-mem", "")
    page.locator("[data-zq-exam-button]").click()
    expect(page.locator("[data-zq-exam-confirm]")).to_be_visible()
    expect(warning).to_be_hidden()
    page.locator("[data-zq-exam-no]").click()
    page.fill("#zq-Q3-mem", "78.23")
    page.locator("[data-zq-exam-button]").click()
    expect(page.locator("[data-zq-exam-confirm]")).to_be_visible()
    expect(warning).to_be_hidden()
    page.locator("[data-zq-exam-yes]").click()
    expect(page.locator("#q-Q3")).to_have_attribute("data-zq-status", "correct")


def test_submit_names_a_formula_it_cannot_read(page, exam_shapes_url: str) -> None:
    page.goto(exam_shapes_url + "en/ps/01-lines/quiz/")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.fill("[id='q-F1'] [data-zq-input='expression']", "2n+")
    page.locator("[data-zq-exam-button]").click()
    expect(page.locator("[data-zq-exam-unreadable]")).to_have_text(
        "These answers can’t be read, and would count as wrong: F1.")


def test_verdicts_saved_before_the_module_was_an_exam_stay_hidden_until_submit(page, exam_url: str) -> None:
    """A module made an exam after learners practised it: their saved verdicts showed on the open exam, telling
    which answers were right before anything was submitted (so did verdicts merged in by an import)."""
    open_exam(page, exam_url)
    page.evaluate("""localStorage.setItem('zadachnik:demo/1/Q3', JSON.stringify({v: 1, t: 1,
        answer: {fields: {ratio: '16/7', mem: '1'}},
        verdict: {status: 'wrong', score: 0, fields: {ratio: {status: 'correct', value: 2.2857142857142856},
                                                      mem: {status: 'wrong', value: 1}}}}))""")
    open_exam(page, exam_url)
    assert page.input_value("#zq-Q3-mem") == "1"
    expect(page.locator("#q-Q3 [data-zq-verdict]")).not_to_be_visible()
    expect(page.locator("#q-Q3 [data-zq-field='mem'] [data-zq-mark]")).not_to_be_visible()
    submit(page)
    expect(page.locator("#q-Q3 [data-zq-verdict]")).to_be_visible()
    expect(page.locator("#q-Q3 [data-zq-verdict]")).to_contain_text("Wrong")
    expect(page.locator("#q-Q3 [data-zq-field='mem'] [data-zq-mark]")).to_be_visible()


def test_answers_saved_before_the_module_was_an_exam_start_no_clock(page, exam_url: str) -> None:
    """The time runs from the first answer given on the exam: answers the learner's practice left saved started
    it as the page opened (the audit of a course edited after learners worked on it)."""
    open_exam(page, exam_url)
    page.evaluate("localStorage.setItem('zadachnik:demo/1/Q1', JSON.stringify({v: 1, t: 1, answer: {choice: ['B']}}))")
    open_exam(page, exam_url)
    assert page.locator("#q-Q1 input[value='B']").is_checked()
    expect(page.locator("[data-zq-progress]")).to_contain_text("1 / 7")
    timer = page.locator("[data-zq-exam-timer]")
    expect(timer).to_be_hidden()
    assert "started" not in json.loads(page.evaluate("localStorage.getItem('zadachnik:demo/1/@exam')") or "{}")
    page.locator("#q-Q2 input[value='1']").check()
    expect(timer).to_have_text(re.compile(r"Time left: [01]:\d\d"))


def test_an_answer_given_before_the_exams_part_loads_starts_the_clock(page, exam_url: str) -> None:
    """Questions work before exam.js arrives (it loads last): an answer given then was saved, and the clock never
    started, not even after a reload (the review of the practice-answers fix)."""
    held: list = []
    page.route("**/assets/zadachnik/js/exam.js", lambda route: held.append(route))
    page.goto(exam_url + QUIZ, wait_until="commit")
    page.locator("[data-zq-tools]:not([hidden])").wait_for()
    page.locator("#q-Q1 input[value='B']").check()
    for route in held:
        route.continue_()
    page.unroute("**/assets/zadachnik/js/exam.js")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    expect(page.locator("[data-zq-exam-timer]")).to_have_text(re.compile(r"Time left: [01]:\d\d"))


def test_a_control_focused_going_backwards_stays_clear_of_the_exams_clock(page, exam_url: str) -> None:
    """The clock sticks below the header: a control focused from below it scrolled under both (the
    accessibility audit)."""
    open_exam(page, exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    expect(page.locator("[data-zq-exam-timer]")).to_be_visible()
    gap = page.locator("#zq-Q3-mem").evaluate(
        "(box) => { scrollTo(0, box.getBoundingClientRect().top + scrollY + 30); box.focus();"
        " const clock = document.querySelector('[data-zq-exam-timer]');"
        " return box.getBoundingClientRect().top - clock.getBoundingClientRect().bottom; }")
    assert gap >= 0, gap


@pytest.fixture(scope="module")
def long_exam_url(tmp_path_factory):
    work = tmp_path_factory.mktemp("long-exam")
    source = copy_site(FIXTURE_SITE, work / "src")
    as_exam(source / "exercises" / "demo" / "01-basics", "time_limit: 10\n")
    url, server = serve(build_site(source / "mkdocs.yml", work / "site"))
    yield url
    server.shutdown()


@pytest.mark.own_context
def test_a_screen_reader_is_told_when_five_and_one_minutes_are_left(page, long_exam_url: str) -> None:
    """The clock is read only when the learner goes to it, and at zero the exam submits itself: a learner who
    cannot see it had no warning (the accessibility audit). Told once at each mark, not at every second."""
    page.clock.install()
    page.clock.pause_at(1_800_000_000_000)
    open_exam(page, long_exam_url)
    page.locator("#q-Q1 input[value='B']").check()
    live = page.locator("[data-zq-live]")
    page.clock.fast_forward("04:30")
    assert "Time left" not in (live.text_content() or "")
    page.clock.fast_forward("00:31")
    expect(live).to_have_text("Time left: 4:59")
    page.clock.fast_forward("00:05")
    expect(live).to_have_text("Time left: 4:59")
    page.clock.fast_forward("04:00")
    expect(live).to_have_text("Time left: 0:54")  # the clock jumped: the first tick past the mark says it
