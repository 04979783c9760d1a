"""The browser tests' own harness (tests/support/browser.py), where a mistake would make other tests race."""

from __future__ import annotations

import time

from support.browser import python_from_snapshot, serve

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


def test_a_worker_asked_for_after_its_server_stopped_fails_its_own_page_only(browser, fixture_site) -> None:
    """A page that asks for Python's worker once its test server has stopped (a test's module ended while a page
    restarted Python) gets a failed script at once; the snapshot seam's handler raised instead, and its error
    surfaced in a later test's call into Playwright (a local run: a 30-second wait on the stopped server's socket,
    then a timeout raised in an ordering test)."""
    url, server = serve(fixture_site)
    context = browser.new_context()
    try:
        python_from_snapshot(context)
        context.route("**/blank.html", lambda route: route.fulfill(body="<p>blank</p>", content_type="text/html"))
        page = context.new_page()
        page.goto(url + "blank.html")
        server.shutdown()
        outcome = page.evaluate("""() => new Promise((resolve) => {
            const worker = new Worker('/assets/zadachnik/js/python-worker.js', { type: 'module' });
            worker.onerror = () => resolve('failed');
            setTimeout(() => resolve('no answer'), 5000);
        })""")
        assert outcome == "failed"
    finally:
        context.close()
    browser.new_context().close()  # where an error a handler raised would surface


WRITE_EVERY_STORE = """async () => {
    localStorage.setItem('left', 'behind');
    document.cookie = 'left=behind; max-age=3600';
    await (await caches.open('left')).put('/left', new Response('behind'));
    await new Promise((resolve, reject) => {
        const opening = indexedDB.open('left', 1);
        opening.onupgradeneeded = () => opening.result.createObjectStore('things');
        opening.onsuccess = () => {
            const writing = opening.result.transaction('things', 'readwrite');
            writing.objectStore('things').put('behind', 'left');
            writing.oncomplete = () => { opening.result.close(); resolve(); };
        };
        opening.onerror = reject;
    });
}"""
READ_EVERY_STORE = """async () => ({
    local: Object.keys(localStorage).filter((key) => key === "left"),
    cookies: document.cookie,
    caches: (await caches.keys()).filter((name) => name === "left"),
    databases: (await indexedDB.databases()).map((database) => database.name).filter((name) => name === "left"),
})"""
NOTHING = {"local": [], "cookies": "", "caches": [], "databases": []}


def test_the_shared_context_is_left_as_a_new_one_after_each_test(shared_context, fixture_server) -> None:
    """The `page` fixture's context (SharedContext): what one test left in any store, or routed, the next never
    finds, and its pages are closed."""
    first = shared_context.context.new_page()
    first.goto(fixture_server + QUIZ)
    first.evaluate(WRITE_EVERY_STORE)
    assert first.evaluate(READ_EVERY_STORE) != NOTHING
    shared_context.context.route("**/*.css", lambda route: route.abort())
    second = shared_context.context.new_page()
    second.goto(fixture_server + "en/")
    assert shared_context.left_behind() == []
    assert shared_context.context.pages == [shared_context.keeper]
    page = shared_context.context.new_page()
    styles: list[str] = []
    page.on("requestfailed", lambda request: styles.append(request.url) if request.url.endswith(".css") else None)
    page.goto(fixture_server + QUIZ)
    assert page.evaluate(READ_EVERY_STORE) == NOTHING
    assert styles == []
    assert shared_context.left_behind() == []


def test_what_a_context_cannot_take_back_is_refused_and_the_context_opened_anew(shared_context, fixture_server,
                                                                                offline_copy) -> None:
    page = shared_context.context.new_page()
    page.goto(fixture_server + QUIZ)
    page.clock.install()
    assert shared_context.left_behind() == ["a clock installed on the context: mark the test `own_context`"]
    page = shared_context.context.new_page()
    page.goto(fixture_server + QUIZ)
    assert page.evaluate("() => '__pwClock' in globalThis") is False
    page.goto((offline_copy / "en" / "index.html").as_uri())
    assert shared_context.left_behind() == ["a page opened from disk: mark the test `own_context`"]
