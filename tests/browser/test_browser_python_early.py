"""Python is asked for as soon as the page's script runs, before the page is set up: the worker starts while the
questions are wired and python.js loads, and python.js takes it over, hearing whatever it said meanwhile.

No timings are asserted here: bench/run.py (section `python`) measures them."""

from __future__ import annotations

import pytest

# Every test here is about Python: its pages start it (tests/conftest.py's page fixture).
pytestmark = pytest.mark.python

QUIZ = "en/demo/01-basics/quiz/"
# Every Python worker the page makes, with whether the page was set up by then, and when one said it was ready.
WATCH_WORKERS = """
window.__pythonWorkers = [];
const RealWorker = window.Worker;
window.Worker = class extends RealWorker {
  constructor(url, options) {
    super(url, options);
    if (!String(url).includes("python-worker")) return;
    const page = document.querySelector(".zq-page");
    window.__pythonWorkers.push({ pageSetUp: Boolean(page && page.dataset.zqReady) });
    this.addEventListener("message", ({ data }) => {
      if (data && data.ready) window.__pythonWorkerReady = true;
    });
  }
};
"""


def ready(page) -> None:
    page.wait_for_function("document.querySelector('[data-zq-python-status]').textContent.includes('ready')",
                           timeout=90_000)


def test_the_worker_is_asked_for_before_the_page_is_set_up(page, fixture_server: str) -> None:
    page.add_init_script(WATCH_WORKERS)
    page.goto(fixture_server + QUIZ)
    ready(page)
    workers = page.evaluate("window.__pythonWorkers")
    assert workers == [{"pageSetUp": False}], "one worker, asked for before the page was set up"
    assert page.evaluate("document.documentElement.dataset.zqPythonStarts") == "1"


def test_what_the_worker_says_before_python_js_loads_is_heard(page, fixture_server: str) -> None:
    """python.js is held back until the early worker has said it is ready: that word still reaches the page."""
    held = []
    page.route("**/assets/zadachnik/js/python.js", lambda route: held.append(route))
    page.add_init_script(WATCH_WORKERS)
    page.goto(fixture_server + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.wait_for_function("window.__pythonWorkerReady === true", timeout=90_000)
    assert len(held) == 1
    assert "ready" not in page.locator("[data-zq-python-status]").inner_text()
    held[0].continue_()
    ready(page)
    assert page.evaluate("window.__pythonWorkers.length") == 1
    # The worker works: a right answer to the code exercise is checked as right.
    page.locator("#q-Q7").scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#q-Q7').zqEditor", timeout=20_000)
    page.evaluate("code => document.querySelector('#q-Q7').zqEditor.setValue(code, 1)",
                  "def double(x):\n    return 2 * x\n")
    page.click("#q-Q7 [data-zq-check]")
    page.wait_for_function("document.querySelector('#q-Q7').dataset.zqStatus === 'correct'", timeout=60_000)


def test_a_page_without_python_starts_no_worker(page, fixture_server: str) -> None:
    page.add_init_script(WATCH_WORKERS)
    page.goto(fixture_server + "en/")
    page.wait_for_load_state("load")
    assert page.evaluate("window.__pythonWorkers") == []
