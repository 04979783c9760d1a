"""What the browser tests share: Chromium's flags, a built site served over http, axe, and the shuffled order
written again in Python."""

from __future__ import annotations

import json
import re
from pathlib import Path

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


def only_what_is_tested(context, request) -> None:
    """In this context, Python starts only for a test marked `python`, and search indexes the site's pages only
    for one marked `search`."""
    if request.node.get_closest_marker("python") is None:
        python_left_starting(context)
    if request.node.get_closest_marker("search") is None:
        search_left_empty(context)


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
    def handle_error(self, request, client_address):
        # A browser that leaves a page while a file is still arriving (Pyodide's 13 MB) resets the connection:
        # normal for a learner, not worth a traceback in the test log.
        import sys

        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


class QuietHandler(__import__("http.server").server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        pass


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
