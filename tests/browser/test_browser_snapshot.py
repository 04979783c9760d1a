"""Python from a memory snapshot: after the first normal start the worker keeps Pyodide's heap (Cache Storage,
IndexedDB where Cache Storage is missing, and the page's memory), and later pages and restarts after a time
limit start from it. The page says how each start went in `<html data-zq-python-start>` (fresh, memory, cache,
indexeddb) and where the snapshot was kept in `data-zq-python-kept`; the learner is told nothing. A snapshot
made from another runner than the site's, stored under its key, is dropped and Python starts normally.

No timings are asserted here: bench/run.py (section `python`) measures them."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
import support.browser
from support.browser import CHROMIUM_ARGS, PYTHON_WORKER, python_from_snapshot, serve
from support.sites import FIXTURE_SITE, build_site, copy_site

# Every test here is about Python's start itself: its pages start it as on a first visit, each context with no
# snapshot but the ones its own test makes (support.browser.SNAPSHOT_SEEDING).
pytestmark = [pytest.mark.python, pytest.mark.fresh_python]

QUIZ = "en/demo/01-basics/quiz/"
RIGHT = "def double(x):\n    return 2 * x\n"
LOOP = "def double(x):\n    while True:\n        pass\n"
RANDOM = "import random\nprint('drawn', random.random(), random.getrandbits(64))\n"
CACHE_NAME = "zadachnik-python"


def html_data(page, name: str) -> str | None:
    return page.evaluate("name => document.documentElement.dataset[name] ?? null", name)


def visit(context, url: str, errors: list[str] | None = None):
    page = context.new_page()
    if errors is not None:
        page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.wait_for_function("document.documentElement.dataset.zqPythonStart", timeout=90_000)
    return page


def kept(page, where: str = "cache") -> None:
    """Waits until the snapshot this page's Python made or read is kept `where`."""
    page.wait_for_function("where => document.documentElement.dataset.zqPythonKept === where", arg=where,
                           timeout=60_000)


def first_visit(context, url: str):
    """For a test about what follows a first start: the context's first page, its Python started from the snapshot
    an earlier test's worker kept (support.browser.SNAPSHOT_SEEDING), as a returning learner's is, when there is
    one, so the test pays for no fresh start it does not look at; its snapshot kept. Later starts are the test's
    own: the seeding stops."""
    python_from_snapshot(context)
    page = visit(context, url)
    kept(page)
    context.unroute(PYTHON_WORKER)
    return page


def status(page) -> str:
    return page.locator("[data-zq-python-status]").inner_text()


def write_code(page, code: str) -> None:
    page.locator("#q-Q7").scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#q-Q7').zqEditor", timeout=20_000)
    page.evaluate("code => document.querySelector('#q-Q7').zqEditor.setValue(code, 1)", code)


def verdict(page, expected: str, timeout: float = 30_000) -> str:
    page.click("#q-Q7 [data-zq-check]")
    page.wait_for_function("text => document.querySelector('#q-Q7 [data-zq-verdict]').textContent.includes(text)",
                           arg=expected, timeout=timeout)
    return page.locator("#q-Q7 [data-zq-verdict]").inner_text()


def drawn(page) -> str:
    write_code(page, RANDOM)
    page.click("#q-Q7 [data-zq-run]")
    page.wait_for_function("document.querySelector('#q-Q7 [data-zq-output]').textContent.includes('drawn')",
                           timeout=30_000)
    return page.locator("#q-Q7 [data-zq-output]").inner_text()


def test_a_second_visit_starts_from_the_snapshot_and_its_python_checks_code(context, fixture_server) -> None:
    first = visit(context, fixture_server + QUIZ)
    assert html_data(first, "zqPythonStart") == "fresh"
    kept(first)
    first.close()
    second = visit(context, fixture_server + QUIZ)
    assert html_data(second, "zqPythonStart") == "cache"
    assert status(second) == "Python is ready."
    write_code(second, RIGHT)
    assert verdict(second, "Correct") == "✓ Correct"
    # The runner's files are written again after a restore: code that reads its own package still can.
    write_code(second, "import zadachnik.python.pyrunner as r\nprint('source', len(open(r.__file__).read()) > 100)\n")
    second.click("#q-Q7 [data-zq-run]")
    second.wait_for_function("document.querySelector('#q-Q7 [data-zq-output]').textContent.includes('source')")
    assert second.locator("#q-Q7 [data-zq-output]").inner_text() == "source True"


def test_random_numbers_differ_between_two_visits_restored_from_one_snapshot(context, fixture_server) -> None:
    first = first_visit(context, fixture_server + QUIZ)
    first.close()
    numbers = []
    for _ in range(2):
        page = visit(context, fixture_server + QUIZ)
        assert html_data(page, "zqPythonStart") == "cache"
        numbers.append(drawn(page))
        page.close()
    assert numbers[0] != numbers[1], numbers


def garble(page, how: str) -> int:
    """Spoils every stored snapshot `how`; the number of entries spoiled."""
    return page.evaluate("""async ([name, how]) => {
        const cache = await caches.open(name);
        const requests = await cache.keys();
        for (const request of requests) {
            const response = await cache.match(request);
            const bytes = new Uint8Array(await response.arrayBuffer());
            let body = bytes;
            // Content-Length would not fit a shorter body: only the worker's own headers are kept.
            let headers = Object.fromEntries([...response.headers].filter(([key]) => key.startsWith("x-zadachnik")));
            if (how === "garbage_behind_a_valid_header") {
                // Pyodide's own header (magic number, build id) kept: only the heap behind it is garbage.
                for (let at = 4096; at < body.length; at += 1) body[at] = (at * 2654435761) >>> 24;
            } else if (how === "cut_short") {
                body = bytes.slice(0, bytes.length >> 1);
            } else {
                body = new TextEncoder().encode("not a snapshot at all");
                headers = {};
            }
            await cache.put(request, new Response(body, { headers }));
        }
        return requests.length;
    }""", [CACHE_NAME, how])


@pytest.mark.parametrize("how", ["garbage_behind_a_valid_header", "cut_short", "not_a_snapshot"])
def test_a_spoilt_stored_snapshot_gives_a_fresh_start_and_no_message(context, fixture_server, how: str) -> None:
    first = first_visit(context, fixture_server + QUIZ)
    assert garble(first, how) == 1
    first.close()
    errors: list[str] = []
    second = visit(context, fixture_server + QUIZ, errors)
    assert html_data(second, "zqPythonStart") == "fresh"
    assert status(second) == "Python is ready."
    write_code(second, RIGHT)
    assert verdict(second, "Correct") == "✓ Correct"
    assert not errors, errors
    # The spoilt entry was replaced by a good one: the next visit starts from it.
    kept(second)
    second.close()
    third = visit(context, fixture_server + QUIZ)
    assert html_data(third, "zqPythonStart") == "cache"


def test_a_changed_runner_never_restores_the_snapshot_of_the_old_one(context, fixture_server) -> None:
    first = visit(context, fixture_server + QUIZ)
    kept(first)
    first.close()

    def changed(route) -> None:
        response = route.fetch()
        route.fulfill(response=response, body=response.text() + "\nCHANGED_RUNNER = True\n")

    context.route("**/py/python/pyrunner.py", changed)
    second = visit(context, fixture_server + QUIZ)
    assert html_data(second, "zqPythonStart") == "fresh"
    write_code(second, "import zadachnik.python.pyrunner as r\nprint('changed', r.CHANGED_RUNNER)\n")
    second.click("#q-Q7 [data-zq-run]")
    second.wait_for_function("document.querySelector('#q-Q7 [data-zq-output]').textContent.includes('changed')")
    assert second.locator("#q-Q7 [data-zq-output]").inner_text() == "changed True"
    # Only the new runner's snapshot is kept: the old one is not left taking 30 MB.
    kept(second)
    assert second.evaluate("async name => (await (await caches.open(name)).keys()).length", CACHE_NAME) == 1


WRONG = "def double(x):\n    return x + x if x > 0 else x\n"
# Appended to the shipped runner: a handle() that calls everything correct, as the red team's planted one did.
LYING_HANDLE = """

def handle(kind, request_json, report=None, **_):
    return '{"status": "correct", "score": 1, "tests": []}'
"""


def stored_entries(page) -> dict[str, str]:
    """Each stored snapshot's address and the checksum it is stored with."""
    return page.evaluate("""async name => {
        const cache = await caches.open(name);
        const entries = {};
        for (const request of await cache.keys()) {
            entries[request.url] = (await cache.match(request)).headers.get("x-zadachnik-checksum");
        }
        return entries;
    }""", CACHE_NAME)


def test_a_planted_snapshot_of_another_runner_is_refused_and_dropped(context, fixture_server) -> None:
    first = first_visit(context, fixture_server + QUIZ)
    [genuine_entry] = stored_entries(first)
    first.close()

    # The planted snapshot: made by this site's worker from a runner whose handle() always says correct...
    def lying(route) -> None:
        response = route.fetch()
        route.fulfill(response=response, body=response.text() + LYING_HANDLE)

    context.route("**/py/python/pyrunner.py", lying)
    maker = visit(context, fixture_server + QUIZ)
    kept(maker)
    [(lying_entry, planted_checksum)] = stored_entries(maker).items()
    assert lying_entry != genuine_entry
    # ...and stored under the genuine runner's key with its own valid checksum and size.
    maker.evaluate("""async ([name, from, to]) => {
        const cache = await caches.open(name);
        await cache.put(to, await cache.match(from));
        await cache.delete(from);
    }""", [CACHE_NAME, lying_entry, genuine_entry])
    assert stored_entries(maker) == {genuine_entry: planted_checksum}
    maker.close()
    context.unroute("**/py/python/pyrunner.py")

    errors: list[str] = []
    page = visit(context, fixture_server + QUIZ, errors)
    write_code(page, WRONG)
    page.click("#q-Q7 [data-zq-check]")
    page.wait_for_function("document.querySelector('#q-Q7').dataset.zqStatus", timeout=30_000)
    assert page.locator("#q-Q7 [data-zq-verdict]").inner_text() == "✗ Wrong"
    assert html_data(page, "zqPythonStart") == "fresh"
    write_code(page, RIGHT)
    assert verdict(page, "Correct") == "✓ Correct"
    assert not errors, errors
    # The planted entry is gone: the genuine runner's snapshot, made by this start, took its place.
    kept(page)
    [(entry, checksum)] = stored_entries(page).items()
    assert entry == genuine_entry and checksum != planted_checksum


# Appended too: the runner package then claims, whatever the worker sets, to be made from `claim` (the audit's
# way past a check of what a snapshot says it was made from).
CLAIMING = """
import sys as _sys
import types as _types


class _Claims(_types.ModuleType):
    __made_from__ = property(lambda self: {claim!r}, lambda self, value: None)


_sys.modules["zadachnik"].__class__ = _Claims
"""


def test_a_planted_snapshot_that_claims_this_sites_runner_is_refused_by_how_it_grades(context, fixture_server) -> None:
    first = first_visit(context, fixture_server + QUIZ)
    [genuine_entry] = stored_entries(first)
    # What the worker compares a restored snapshot's claim with: this site's runner files, as it reads them.
    claim = first.evaluate("""async (base) => JSON.stringify(await Promise.all(
        ["core/numbers.py", "python/pyrunner.py"].map(async (name) => [name, await (await fetch(base + name)).text()])
    ))""", fixture_server + "assets/zadachnik/py/")
    first.close()

    def lying(route) -> None:
        response = route.fetch()
        route.fulfill(response=response, body=response.text() + LYING_HANDLE + CLAIMING.format(claim=claim))

    context.route("**/py/python/pyrunner.py", lying)
    maker = visit(context, fixture_server + QUIZ)
    kept(maker)
    [lying_entry] = stored_entries(maker)
    maker.evaluate("""async ([name, from, to]) => {
        const cache = await caches.open(name);
        await cache.put(to, await cache.match(from));
        await cache.delete(from);
    }""", [CACHE_NAME, lying_entry, genuine_entry])
    maker.close()
    context.unroute("**/py/python/pyrunner.py")

    page = visit(context, fixture_server + QUIZ)
    write_code(page, WRONG)
    page.click("#q-Q7 [data-zq-check]")
    page.wait_for_function("document.querySelector('#q-Q7').dataset.zqStatus", timeout=30_000)
    assert page.locator("#q-Q7 [data-zq-verdict]").inner_text() == "✗ Wrong"
    assert html_data(page, "zqPythonStart") == "fresh"


def test_a_restart_after_a_time_limit_starts_from_the_snapshot_in_memory(context, fixture_server) -> None:
    page = first_visit(context, fixture_server + QUIZ)
    # Nothing stored is read on a restart: the page's own copy is used.
    page.evaluate("name => caches.delete(name)", CACHE_NAME)
    write_code(page, LOOP)
    verdict(page, "Stopped after 3 s", timeout=20_000)
    page.wait_for_function("document.documentElement.dataset.zqPythonStarts === '2'", timeout=60_000)
    assert html_data(page, "zqPythonStart") == "memory"
    numbers = [drawn(page)]
    write_code(page, RIGHT)
    assert verdict(page, "Correct", timeout=60_000) == "✓ Correct"
    # A second restart from the same copy draws other numbers.
    write_code(page, LOOP)
    verdict(page, "Stopped after 3 s", timeout=20_000)
    page.wait_for_function("document.documentElement.dataset.zqPythonStarts === '3'", timeout=60_000)
    assert html_data(page, "zqPythonStart") == "memory"
    numbers.append(drawn(page))
    assert numbers[0] != numbers[1], numbers


def test_a_crash_restarts_from_memory_and_python_still_works(context, fixture_server) -> None:
    page = first_visit(context, fixture_server + QUIZ)
    write_code(page, "import os\nos.abort()\n")
    page.click("#q-Q7 [data-zq-run]")
    page.wait_for_function("document.querySelector('#q-Q7 [data-zq-output]').textContent.includes('crashed')")
    page.wait_for_function("document.documentElement.dataset.zqPythonStarts === '2'", timeout=60_000)
    assert html_data(page, "zqPythonStart") == "memory"
    write_code(page, RIGHT)
    assert verdict(page, "Correct") == "✓ Correct"


@pytest.fixture(scope="module")
def insecure_browser(browser):
    """A second Chromium that reaches the test server by a name that is no secure context (as a school's
    plain-http server): no Cache Storage there."""
    other = browser.browser_type.launch(executable_path=shutil.which("chromium"), args=[
        *CHROMIUM_ARGS, "--host-resolver-rules=MAP zadachnik.test 127.0.0.1"])
    yield other
    other.close()


def test_where_cache_storage_is_missing_indexeddb_keeps_the_snapshot(insecure_browser, fixture_server) -> None:
    url = fixture_server.replace("127.0.0.1", "zadachnik.test") + QUIZ
    context = insecure_browser.new_context()
    try:
        first = visit(context, url)
        assert first.evaluate("window.isSecureContext") is False
        assert html_data(first, "zqPythonStart") == "fresh"
        kept(first, "indexeddb")
        first.close()
        second = visit(context, url)
        assert html_data(second, "zqPythonStart") == "indexeddb"
        write_code(second, RIGHT)
        assert verdict(second, "Correct") == "✓ Correct"
    finally:
        context.close()


@pytest.fixture(scope="module")
def offline_copy(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("offline-snapshot")
    source = copy_site(FIXTURE_SITE, work / "src")
    build_site(source / "mkdocs.offline.yml", work / "site")
    with zipfile.ZipFile(source / "build" / "fixture-offline.zip") as opened:
        opened.extractall(work / "unzipped")
    [top] = list((work / "unzipped").iterdir())
    return top


def test_the_offline_copy_restarts_from_memory_and_a_second_visit_from_its_cache(context, offline_copy) -> None:
    url = (offline_copy / "en/demo/01-basics/quiz.html").as_uri()
    first = visit(context, url)
    assert html_data(first, "zqPythonStart") == "fresh"
    kept(first)
    write_code(first, LOOP)
    verdict(first, "Stopped after 3 s", timeout=20_000)
    first.wait_for_function("document.documentElement.dataset.zqPythonStarts === '2'", timeout=60_000)
    assert html_data(first, "zqPythonStart") == "memory"
    write_code(first, RIGHT)
    assert verdict(first, "Correct", timeout=60_000) == "✓ Correct"
    first.close()
    second = visit(context, url)
    assert html_data(second, "zqPythonStart") == "cache"
    write_code(second, RIGHT)
    assert verdict(second, "Correct") == "✓ Correct"


def test_the_status_line_says_when_a_start_will_take_long(context, fixture_server) -> None:
    """A start without a snapshot takes seconds to half a minute: the learner is told, and that later pages
    start faster; a start from the snapshot says only that Python is starting."""
    import yaml
    from support.sites import ROOT

    words = yaml.safe_load((ROOT / "plugins/zadachnik/rendering/words/en.yml").read_text(encoding="utf-8"))
    long_start, short_start = words["runtime"]["python_starting_fresh"], words["runtime"]["python_starting"]
    # Every text the status line shows, from the first.
    context.add_init_script("""
        window.zqStatusTexts = [];
        new MutationObserver(() => {
          const line = document.querySelector("[data-zq-python-status]");
          if (line && line.textContent !== window.zqStatusTexts.at(-1)) window.zqStatusTexts.push(line.textContent);
        }).observe(document, { subtree: true, childList: true, characterData: true });
    """)
    first = visit(context, fixture_server + QUIZ)
    assert html_data(first, "zqPythonStart") == "fresh"
    first.wait_for_function("document.querySelector('[data-zq-python-status]').textContent !== ''")
    assert long_start in first.evaluate("window.zqStatusTexts"), first.evaluate("window.zqStatusTexts")
    kept(first)
    second = visit(context, fixture_server + QUIZ)
    assert html_data(second, "zqPythonStart") == "cache"
    shown = second.evaluate("window.zqStatusTexts")
    assert long_start not in shown and short_start in shown, shown


def test_the_suites_python_tests_start_from_a_snapshot_an_earlier_tests_worker_kept(browser, fixture_site) -> None:
    """The suite's own seam (support.browser.SNAPSHOT_SEEDING), which keeps the `python` tests' starts short: a
    worker's kept snapshot reaches the next new context, on another test server too, and its Python works."""
    servers = [serve(fixture_site) for _ in range(2)]
    support.browser.kept_snapshot = None
    try:
        for (url, _), expected in zip(servers, ("fresh", "cache"), strict=True):
            context = browser.new_context()
            python_from_snapshot(context)
            page = visit(context, url + QUIZ)
            assert html_data(page, "zqPythonStart") == expected
            kept(page)
            write_code(page, RIGHT)
            assert verdict(page, "Correct") == "✓ Correct"
            context.close()
            assert support.browser.kept_snapshot is not None
    finally:
        for _, server in servers:
            server.shutdown()
