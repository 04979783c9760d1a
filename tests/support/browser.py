"""What the browser tests share: Chromium's flags, a built site served over http, axe, and the shuffled order
written again in Python."""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

from support.sites import ROOT

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]


# What a context of a test that is not about Python gets for the page's Python worker: a worker that never
# answers, so the page stays as every learner first sees it, with Python starting. Pyodide's first start in a new
# browser context (nothing cached: the engine compiled, Python set up, the memory snapshot taken and stored) costs
# 2.5 to 3 CPU-seconds, half of what such a test costs on two cores. Tests about Python are marked `python` and
# start it; pages opened from disk start it whatever the mark (their worker is a Blob, not a request).
SILENT_WORKER = "self.onmessage = () => {};"
PYTHON_WORKER = re.compile(r"/assets/zadachnik/js/python-worker\.js(?:\?|$)")


def python_left_starting(context) -> None:
    """Python never starts in this browser context's pages served over http (see SILENT_WORKER)."""
    context.route(PYTHON_WORKER, lambda route: route.fulfill(body=SILENT_WORKER, content_type="text/javascript"))


# What a context of a test that is not about search gets for the site's search index: one with no pages. On every
# page load mkdocs-material's search worker indexes the whole site's text (the sample course's is 1.4 MB), about
# 0.3 CPU-seconds of the 2 a quiz page's load costs on two cores. Tests about search are marked `search`; pages
# opened from disk read their index from a script, which this leaves alone.
EMPTY_SEARCH_INDEX = json.dumps({
    "config": {"lang": ["en"], "separator": r"[\s\-]+", "pipeline": ["stopWordFilter"],
               "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}, "tags": {"boost": 1000000.0}}},
    "docs": [],
})
SEARCH_INDEX = re.compile(r"^https?://[^/]+/(?:[^?#]*/)?search/search_index\.json(?:\?|$)")


def search_left_empty(context) -> None:
    """This browser context's pages served over http search an index of no pages (see EMPTY_SEARCH_INDEX)."""
    context.route(SEARCH_INDEX, lambda route: route.fulfill(body=EMPTY_SEARCH_INDEX,
                                                             content_type="application/json"))


# Where the test servers (support.browser.serve) hand on the memory snapshot of Python a worker of theirs took.
SNAPSHOT_PATH = "/__zadachnik_test_snapshot__"

# What the tests marked `python` put before the site's worker script. A fresh start in a new context (the engine
# compiled, Python set up, the snapshot taken and kept) costs about 5.5 CPU-seconds here; a start from a kept
# snapshot about 2, as on a learner's later visits. So the first worker of a test process that keeps a snapshot
# hands it to the servers (one copy for the process: every test site has the same runner), and every later test's
# worker puts it into its own new context's Cache Storage, under its own site's Pyodide folder as the worker's
# scope is (python-worker.js), before the worker's first look there: each `caches.open` waits for that. The worker
# checks that snapshot as it checks any (its key, checksum and runner text), so one from other runner files is
# never used. Tests about the first start itself are marked `fresh_python` and get the worker as it is.
SNAPSHOT_SEEDING = """(() => {
  if (typeof caches !== "object" || caches === null) return;  // no Cache Storage here (plain http by a name)
  const endpoint = new URL("SNAPSHOT_PATH", self.location.href).href;
  const scope = new URL("../pyodide/", self.location.href).href;
  const ours = (headers) => Object.fromEntries([...headers].filter(([name]) => name.startsWith("x-zadachnik-")));
  const open = caches.open.bind(caches);
  const seeded = (async () => {
    const response = await fetch(endpoint);
    if (!response.ok) return;
    const { "x-zadachnik-key": key, ...headers } = ours(response.headers);
    await (await open("zadachnik-python")).put(scope + key, new Response(await response.blob(), { headers }));
  })().catch(() => {});
  caches.open = async (name) => {
    await seeded;
    const cache = await open(name);
    const put = cache.put.bind(cache);
    cache.put = async (request, response) => {
      const copy = response.clone();
      await put(request, response);
      const entry = new Request(request).url;
      if (!entry.startsWith(scope)) return;
      // A Blob: Chromium sends an ArrayBuffer of this size ten times slower.
      await fetch(endpoint, { method: "POST", body: await copy.blob(),
        headers: { ...ours(copy.headers), "x-zadachnik-key": entry.slice(scope.length) } });
    };
    return cache;
  };
})();
""".replace("SNAPSHOT_PATH", SNAPSHOT_PATH)

# The snapshot the workers of this test process handed on: (its x-zadachnik-* headers, its bytes).
kept_snapshot: tuple[dict[str, str], bytes] | None = None


def python_from_snapshot(context) -> None:
    """Python in this context's pages served over http starts from the snapshot its test server was handed by
    an earlier test's worker, when there is one (see SNAPSHOT_SEEDING)."""
    from playwright.sync_api import Error as PlaywrightError

    def seeded(route) -> None:
        try:
            response = route.fetch()
            route.fulfill(response=response, body=SNAPSHOT_SEEDING + response.text())
        except PlaywrightError:
            # The worker's script could not be had: the test ended while a page asked for a worker (Python
            # restarting after a time limit) and its context or server is gone. An error raised here surfaces in
            # whatever call into Playwright the test process makes next, another test's (seen in CI and locally),
            # so the page gets the failure instead: a test still waiting for that worker fails on it.
            with contextlib.suppress(PlaywrightError):
                route.abort()

    context.route(PYTHON_WORKER, seeded)


def only_what_is_tested(context, request) -> None:
    """In this context, Python starts only for a test marked `python` (from the site's snapshot, unless it is
    marked `fresh_python`), and search indexes the site's pages only for one marked `search`."""
    if request.node.get_closest_marker("python") is None:
        python_left_starting(context)
    elif request.node.get_closest_marker("fresh_python") is None:
        python_from_snapshot(context)
    if request.node.get_closest_marker("search") is None:
        search_left_empty(context)


# Whether every course page root of the document has set up: questions wired, saved work put back.
ALL_READY = "() => [...document.querySelectorAll('.zq-page')].every((root) => root.dataset.zqReady === 'yes')"


def opened_when_ready(context) -> None:
    """Each page of this context returns from goto, reload, go_back and go_forward once its course pages are set
    up, as a learner finds them working, not at the load event: the question types and the saved work arrive by
    dynamic imports that the load event does not wait for, so a test that clicked or read at once raced them (a
    resumed SCORM answer was read unticked in CI). A navigation that names the event to wait for (`wait_until`)
    returns at that event: a test that holds a module back says `wait_until="load"`."""
    def settled(page, navigate):
        def navigated(*args, **kwargs):
            response = navigate(*args, **kwargs)
            if "wait_until" not in kwargs:
                page.wait_for_function(ALL_READY)
            return response

        return navigated

    def settle(page) -> None:
        for name in ("goto", "reload", "go_back", "go_forward"):
            setattr(page, name, settled(page, getattr(page, name)))

    context.on("page", settle)



# Zadachnik's runtime script, held back by tests about what a page shows and does before it is set up.
RUNTIME_SCRIPT = "**/assets/zadachnik/js/zadachnik.js"


def opened_with_runtime_held(page, url: str) -> list:
    """Opens `url` with the runtime's script held back, as a slow connection shows the questions before it: the
    held requests, for `let_runtime_go`."""
    held: list = []
    page.route(RUNTIME_SCRIPT, lambda route: held.append(route))
    page.goto(url, wait_until="commit")
    return held


def let_runtime_go(page, held: list) -> None:
    """Lets the held runtime script through, and waits until the page is set up."""
    for route in held:
        route.continue_()
    page.unroute(RUNTIME_SCRIPT)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")

# -- one renderer for the quick tests -------------------------------------------------------------------------

# A page in a new browser context costs about 1.4 CPU-seconds here, and half of it is a new renderer process
# starting cold (Blink, V8, the theme's styles and scripts parsed and compiled again). Pages of one context that
# show the same site share a renderer while one of them stays open. So the `page` fixture of a test that needs
# no context of its own opens its page in one context per test process, beside a keeper page that holds the
# renderer, and leaves that context as a new one is: its pages closed, its routes dropped, and every origin it
# reached wiped (local storage, IndexedDB, Cache Storage, cookies; session storage goes with the closed tabs), all
# before the next test.
# Measured: 0.7 CPU-seconds a page instead of 1.4.
#
# What cannot be wiped is refused, so that no test inherits it: a page opened from disk (its Python starts
# whatever the mark, and may still be writing its snapshot as the page closes) and a clock installed on the
# context (Playwright's fake timers cannot be taken back). A test that needs either, or Python, gets a context of
# its own: mark it `own_context` (`python` tests always get one).
class SharedContext:
    def __init__(self, browser, keeper_url: str) -> None:
        self.browser, self.keeper_url = browser, keeper_url
        self._open()

    def _open(self) -> None:
        self.context = self.browser.new_context()
        opened_when_ready(self.context)
        self.keeper = self.context.new_page()
        self.keeper.goto(self.keeper_url)
        self.storage = self.context.new_cdp_session(self.keeper)
        self.reached: set[str] = set()
        self.context.on("request", self._reached)

    def _reached(self, request) -> None:
        # Storage belongs to http(s) origins, and to the one of pages from disk (refused); blob: and data: have none.
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https", "file"):
            self.reached.add(f"{parts.scheme}://{parts.netloc}")

    def left_behind(self) -> list[str]:
        """What the test just ended left that a new context would not have; the context is wiped either way,
        and opened again when something could not be wiped."""
        problems = []
        if "file://" in self.reached:
            problems.append("a page opened from disk: mark the test `own_context`")
        self.context.unroute_all(behavior="ignoreErrors")
        for page in self.context.pages:
            if page is not self.keeper:
                page.close()
        if self.keeper.evaluate("() => '__pwClock' in globalThis"):
            problems.append("a clock installed on the context: mark the test `own_context`")
        for origin in sorted(self.reached - {"file://"}):
            self.storage.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        self.reached.clear()
        self.context.clear_cookies()
        self.context.clear_permissions()
        if problems:
            self.close()
            self._open()
        return problems

    def close(self) -> None:
        self.context.close()


# The same for pages built as the offline copy is (a SCORM package's), served over http: their Python comes from
# one script that embeds Pyodide, here one whose worker never answers.
SILENT_EMBED = ("window.__zqPyodideEmbed = " + json.dumps({
    "worker": SILENT_WORKER, "wasm": "", "stdlib": "", "lock": {}, "files": {}, "indexURL": "", "version": "silent",
}) + ";")
PYODIDE_EMBED = re.compile(r"/assets/zadachnik/pyodide-embed\.js(?:\?|$)")


def embedded_python_left_starting(context) -> None:
    """Python never starts in this context's offline-style pages served over http (see SILENT_EMBED)."""
    context.route(PYODIDE_EMBED, lambda route: route.fulfill(body=SILENT_EMBED, content_type="text/javascript"))


def serve(site: Path):
    """A built site over http on a free localhost port: (base URL, server to shut down)."""
    import functools
    import threading

    handler = functools.partial(QuietHandler, directory=str(site))
    server = QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/", server


class QuietServer(__import__("http.server").server.ThreadingHTTPServer):
    def shutdown(self) -> None:
        # Closing the socket too: a late request (a page of a test that ended) is refused at once, where a socket
        # left listening keeps it waiting for Playwright's 30-second timeout.
        super().shutdown()
        self.server_close()

    def handle_error(self, request, client_address):
        # A browser that leaves a page while a file is still arriving (Pyodide's 13 MB) resets the connection:
        # normal for a learner, not worth a traceback in the test log.
        import sys

        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


class QuietHandler(__import__("http.server").server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        pass

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        if self.path != SNAPSHOT_PATH:
            return super().do_GET()
        if kept_snapshot is None:
            return self.send_error(404)
        headers, body = kept_snapshot
        self.send_response(200)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:  # noqa: N802 - the base class's name
        """The snapshot a worker kept (SNAPSHOT_SEEDING); the latest one is handed on."""
        global kept_snapshot
        if self.path != SNAPSHOT_PATH:
            return self.send_error(405)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        headers = {name.lower(): value for name, value in self.headers.items()
                   if name.lower().startswith("x-zadachnik-")}
        kept_snapshot = (headers, body)
        self.send_response(204)
        self.end_headers()


# -- axe ------------------------------------------------------------------------------------------

AXE = ROOT / "node_modules/axe-core/axe.min.js"

# The theme's own markup, the same on every mkdocs-material site; see "Accessibility" in the authoring guide.
THEME_VIOLATIONS = {
    # Material's search is role=dialog without a name; its input inside is named ("Search").
    ("aria-dialog-name", ".md-search"),
}


def axe_findings(page) -> list[tuple]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [(rule["id"], rule["impact"], node["target"][0] if len(node["target"]) == 1 else str(node["target"]),
             node["html"][:160])
            for rule in result["violations"] for node in rule["nodes"]]


# -- shuffled options -------------------------------------------------------------------------------

MASK = 0xFFFFFFFF


def shuffled_order(keys: list[str], seed: str, question: str, course: str = "hs", module: str = "1") -> list[str]:
    """What shuffle.js computes, written again here: FNV-1a of the text, mulberry32, Fisher–Yates."""
    state = 0x811C9DC5
    for char in f"{seed}/{course}/{module}/{question}":
        state = ((state ^ ord(char)) * 0x01000193) & MASK

    def random() -> float:
        nonlocal state
        state = (state + 0x6D2B79F5) & MASK
        value = ((state ^ (state >> 15)) * (1 | state)) & MASK
        value = ((value + (((value ^ (value >> 7)) * (61 | value)) & MASK)) & MASK) ^ value
        return ((value ^ (value >> 14)) & MASK) / 2**32

    order = list(keys)
    for index in range(len(order) - 1, 0, -1):
        other = int(random() * (index + 1))
        order[index], order[other] = order[other], order[index]
    return order
