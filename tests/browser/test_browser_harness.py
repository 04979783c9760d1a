"""The browser tests' own harness (tests/support/browser.py), where a mistake would make other tests race."""

from __future__ import annotations

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
