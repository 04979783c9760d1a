"""The browser tests' own harness (tests/support/browser.py), where a mistake would make other tests race."""

from __future__ import annotations

import time

from support.browser import python_from_snapshot

QUIZ = "en/demo/01-basics/quiz/"
# A question type's module that arrives a second late: the page's load event has fired long before it is set up.
LATE = "await new Promise((resolve) => setTimeout(resolve, 1000));\n"


def test_a_navigation_returns_once_the_course_page_is_set_up(context, fixture_server) -> None:
    def late(route) -> None:
        response = route.fetch()
        route.fulfill(response=response, body=LATE + response.text())

    context.route("**/assets/zadachnik/js/types/choice.js", late)
    page = context.new_page()
    for navigate in (lambda: page.goto(fixture_server + QUIZ), page.reload):
        navigate()
        assert page.evaluate("document.querySelector('.zq-page').dataset.zqReady") == "yes"
    page.goto(fixture_server + QUIZ, wait_until="load")
    assert page.evaluate("document.querySelector('.zq-page').dataset.zqReady") == "starting"
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")  # the late module served before the context closes


def test_a_context_closed_while_its_worker_is_asked_for_leaves_no_error_behind(browser, fixture_server) -> None:
    """A test that ends as its page restarts Python (after a time limit) closes the context while the snapshot
    seam's handler fetches the worker's script; its failure then surfaced in the next test's set-up (CI, once)."""
    for attempt in range(10):
        context = browser.new_context()
        python_from_snapshot(context)
        context.route("**/blank.html", lambda route: route.fulfill(body="<p>blank</p>", content_type="text/html"))
        page = context.new_page()
        page.goto(fixture_server + "blank.html")
        page.evaluate("() => { for (let i = 0; i < 5; i += 1) "
                      "new Worker('/assets/zadachnik/js/python-worker.js', { type: 'module' }); }")
        time.sleep(0.01 * (attempt % 5))
        context.close()
        # The next call into Playwright is where an error left by a handler was raised.
        browser.new_context().close()
