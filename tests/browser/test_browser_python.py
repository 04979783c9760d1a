"""Python in the browser (Pyodide in a worker): code exercises, authors' checkers, faults, and pages that
must not load Python at all."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

# Every test here is about Python: its pages start it (tests/conftest.py's page fixture).
pytestmark = pytest.mark.python

QUIZ = "demo/01-basics/quiz/"
EXERCISES = "demo/01-basics/exercises/"
RIGHT = "def double(x):\n    return 2 * x\n"
WRONG = "def double(x):\n    return x + 2\n"
LOOP = "def double(x):\n    while True:\n        pass\n"


@pytest.fixture
def page(context, fixture_server):
    page = context.new_page()
    page.goto(fixture_server + "en/" + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    return page


def python_ready(page) -> None:
    page.wait_for_function("document.querySelector('[data-zq-python-status]').textContent.includes('ready')"
                           " || document.querySelector('[data-zq-python-status]').textContent.includes('готов')",
                           timeout=60_000)


def write_code(page, code: str) -> None:
    page.locator("#q-Q7").scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#q-Q7').zqEditor", timeout=20_000)
    page.evaluate("code => document.querySelector('#q-Q7').zqEditor.setValue(code, 1)", code)


def check_and_wait(page, qid: str, expected: str, timeout: float = 30_000) -> str:
    page.click(f"#q-{qid} [data-zq-check]")
    page.wait_for_function(
        "([qid, text]) => document.querySelector(`#q-${qid} [data-zq-verdict]`).textContent.includes(text)",
        arg=[qid, expected], timeout=timeout)
    return page.locator(f"#q-{qid} [data-zq-verdict]").inner_text()


def test_right_solution_passes_and_wrong_one_fails_with_its_message(page) -> None:
    python_ready(page)
    write_code(page, RIGHT)
    check_and_wait(page, "Q7", "Correct")
    assert page.locator("#q-Q7 [data-zq-tests]").inner_text().splitlines() == [
        "✓ double(2) must be 4", "✓ double(-1.5) must be -3"]
    write_code(page, WRONG)
    check_and_wait(page, "Q7", "Wrong")
    tests = page.locator("#q-Q7 [data-zq-tests]").inner_text().splitlines()
    assert tests == ["✓ double(2) must be 4", "✗ double(-1.5) must be -3"]
    assert page.locator("[data-zq-progress]").inner_text() == "Checked 1 / 7 · Correct 0"


def test_errors_point_at_the_learners_own_lines(page) -> None:
    python_ready(page)
    write_code(page, "def double(x):\n    y = 1\n    return x / 0\n")
    check_and_wait(page, "Q7", "Wrong")
    tests = page.locator("#q-Q7 [data-zq-tests]").inner_text()
    assert "ZeroDivisionError: division by zero (line 3 of your code)" in tests
    write_code(page, "print('hello')\nprint(undefined_name)\n")
    page.click("#q-Q7 [data-zq-run]")
    output = page.locator("#q-Q7 [data-zq-output]")
    page.wait_for_function("document.querySelector('#q-Q7 [data-zq-output]').textContent.includes('NameError')")
    assert output.inner_text().splitlines() == [
        "hello", "NameError: name 'undefined_name' is not defined (line 2 of your code)"]


def test_infinite_loop_is_stopped_and_the_next_check_works(page) -> None:
    python_ready(page)
    write_code(page, LOOP)
    started = page.evaluate("performance.now()")
    check_and_wait(page, "Q7", "Stopped after 3 s", timeout=20_000)
    elapsed = page.evaluate("performance.now()") - started
    assert elapsed < 8_000, elapsed
    write_code(page, RIGHT)
    check_and_wait(page, "Q7", "Correct", timeout=60_000)


def test_output_flood_is_capped(page) -> None:
    python_ready(page)
    write_code(page, "for i in range(50000):\n    print(i)\n")
    page.click("#q-Q7 [data-zq-run]")
    page.wait_for_function("document.querySelector('#q-Q7 [data-zq-output]').textContent.includes('output cut')",
                           timeout=30_000)
    text = page.locator("#q-Q7 [data-zq-output]").inner_text()
    shown, _, note = text.rpartition("\n")
    assert shown.startswith("0\n1\n2\n") and note == "… output cut here: the code printed more than the page shows."
    # pyrunner keeps 20,000 characters of output, both streams together.
    assert 19_900 <= len(shown) <= 20_000, len(shown)


@pytest.mark.parametrize("code, shown", [
    ("def f():\n    return f()\nf()\n", "RecursionError"),
    ("x = bytearray(2**31 - 1)\n", "MemoryError"),
])
def test_recursion_and_memory_errors_are_named(page, code: str, shown: str) -> None:
    python_ready(page)
    write_code(page, code)
    page.click("#q-Q7 [data-zq-run]")
    page.wait_for_function(f"document.querySelector('#q-Q7 [data-zq-output]').textContent.includes('{shown}')",
                           timeout=30_000)


def test_checker_question_grades_right_and_wrong(page) -> None:
    python_ready(page)
    page.fill("#zq-Q8-x", "8/14")
    assert check_and_wait(page, "Q8", "Correct") == "✓ Correct Any fraction equal to 4/7 will do."
    page.fill("#zq-Q8-x", "0,5714")
    assert check_and_wait(page, "Q8", "Correct") == "✓ Correct As a fraction this is 4/7."
    page.fill("#zq-Q8-x", "3/7")
    assert check_and_wait(page, "Q8", "Wrong") == "✗ Wrong Not equal to 4/7."
    page.fill("#zq-Q8-x", "four sevenths")
    check_and_wait(page, "Q8", "Could not read")


def test_code_and_verdict_persist_between_languages_and_reload(page) -> None:
    python_ready(page)
    write_code(page, RIGHT + "# mine\n")
    check_and_wait(page, "Q7", "Correct")
    page.locator(".md-header .md-select").hover()
    page.locator('a.md-select__link[hreflang="ru"]').click()
    page.wait_for_selector('.zq-page[data-zq-lang="ru"][data-zq-ready=yes]')
    assert page.locator("#q-Q7 [data-zq-verdict]").inner_text() == "✓ Верно"
    assert page.input_value("#zq-Q7-code") == RIGHT + "# mine\n"
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.locator("#q-Q7").scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#q-Q7').zqEditor", timeout=20_000)
    assert page.evaluate("document.querySelector('#q-Q7').zqEditor.getValue()") == RIGHT + "# mine\n"
    assert page.locator("[data-zq-progress]").inner_text() == "Проверено: 1 / 7 · Верно: 1"
    page.click("#q-Q7 [data-zq-code-reset]")
    assert page.evaluate("document.querySelector('#q-Q7').zqEditor.getValue()").startswith("def double(x):\n    ...")


def test_the_other_languages_page_shows_the_authors_messages_in_its_own_language(page, fixture_server) -> None:
    """A check's test lines and a checker's message are the author's, in every language: the other language's
    page showed the words of the page that checked ("✓ Верно Any fraction equal to 4/7 will do.")."""
    python_ready(page)
    write_code(page, WRONG)
    check_and_wait(page, "Q7", "Wrong")
    page.fill("#zq-Q8-x", "8/14")
    check_and_wait(page, "Q8", "Correct")
    page.goto(fixture_server + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.locator("#q-Q7 [data-zq-tests]").inner_text().splitlines() == [
        "✓ double(2) должно быть равно 4", "✗ double(-1.5) должно быть равно -3"]
    assert page.locator("#q-Q8 [data-zq-verdict]").inner_text() == "✓ Верно Любая дробь, равная 4/7, подходит."


def test_a_check_still_running_when_the_page_is_reset_saves_nothing(page) -> None:
    """Reset while Python checks: the check's end wrote the old code and its verdict back over the reset (after a
    reload the page was checked and correct again). The same page replaced by instant navigation is one more
    case of a question no longer on the page."""
    python_ready(page)
    # Two seconds of work (Pyodide's time.sleep may not wait), within a test's time limit.
    write_code(page, "import time\nend = time.time() + 2\nwhile time.time() < end:\n    pass\n" + RIGHT)
    page.click("#q-Q7 [data-zq-check]")
    expect(page.locator("#q-Q7 [data-zq-verdict]")).to_have_text("Checking…")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-zq-reset]")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    # One worker checks in turn: Q8's verdict comes after the check begun before the reset has ended.
    page.fill("#zq-Q8-x", "8/14")
    check_and_wait(page, "Q8", "Correct")
    assert page.evaluate("localStorage.getItem('zadachnik:demo/1/Q7')") is None
    page.reload()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.locator("[data-zq-progress]").inner_text() == "Checked 1 / 7 · Correct 1"


@pytest.mark.parametrize("path", ["", "en/", EXERCISES, "en/" + EXERCISES, "authoring/"])
def test_pages_without_python_request_no_pyodide(context, fixture_server, path: str) -> None:
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(fixture_server + path)
    page.wait_for_load_state("networkidle")
    assert not [url for url in requests if "pyodide" in url or "/py/" in url or "python" in url or "/ace/" in url]
    assert any(url.endswith("zadachnik.js") for url in requests), "the runtime itself is loaded"


def test_pyodide_starts_off_the_main_thread(context, fixture_server) -> None:
    """Pyodide is fetched, compiled and started in the worker, never on the page's own thread. (How long the
    page's tasks are while it starts is a measurement, taken by bench/run.py: on a loaded machine any task can
    run long, so it is not asserted here.)"""
    page = context.new_page()
    page.goto(fixture_server + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    python_ready(page)
    # Resource timing is per global: what the worker fetched is not in the page's list.
    fetched = page.evaluate("performance.getEntriesByType('resource').map((entry) => entry.name)")
    assert any(name.endswith("python-worker.js") for name in fetched), fetched
    assert not [name for name in fetched if "/pyodide/" in name], fetched
    assert page.evaluate("typeof globalThis.loadPyodide") == "undefined"
    # The page answers while Python is ready in its worker: a question without Python is graded at once.
    assert page.evaluate("typeof globalThis.pyodide") == "undefined"
