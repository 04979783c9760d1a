"""Shared fixtures: sites built once per test session into temporary folders."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_SITE = ROOT / "tests" / "fixtures" / "site"
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")


def build_site(config_file: Path, site_dir: Path, cache: bool = False, dirty: bool = False, **overrides) -> Path:
    """Build an MkDocs site as `mkdocs build --strict` would, into `site_dir`. Without `cache`, the plugin keeps
    no modules or pages between builds: tests that change the plugin's code in the process (monkeypatching) must
    not be handed pages an earlier build made with other code (tests/test_build_cache.py tests the cache)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    overrides.setdefault("strict", True)
    config = load_config(config_file=str(config_file), site_dir=str(site_dir), **overrides)
    if "zadachnik" in config.plugins:
        config.plugins["zadachnik"].config["cache"] = cache
    config.plugins.on_startup(command="build", dirty=dirty)
    try:
        build(config, dirty=dirty)
    finally:
        config.plugins.on_shutdown()
    return site_dir


def build_failure(config_file: Path, site_dir: Path, caplog) -> str:
    """The messages a failed build gives the author (MkDocs logs page errors, then aborts)."""
    from mkdocs.exceptions import Abort, PluginError

    try:
        build_site(config_file, site_dir)
    except PluginError as error:
        return str(error)
    except Abort:
        return "\n".join(record.getMessage() for record in caplog.records if record.levelname == "ERROR")
    raise AssertionError("the build was expected to fail")


def copy_site(source: Path, target: Path) -> Path:
    """A writable copy of a site's sources (config, docs, exercises) to break on purpose."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("build", ".cache"))
    return target


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory) -> Path:
    return build_site(FIXTURE_SITE / "mkdocs.yml", tmp_path_factory.mktemp("fixture") / "site")


@pytest.fixture(scope="session")
def sample_site(tmp_path_factory) -> Path:
    return build_site(ROOT / "mkdocs.yml", tmp_path_factory.mktemp("sample") / "site")


CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (Playwright's own browser downloads are not available here)."""
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    assert executable, "Chromium is missing: run 'make chromium' (apt-get install -y chromium)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A fresh browser context's page that may load nothing from another host (such a request is refused and
    fails the test) and must throw no error; `page.errors` holds what it threw so far."""
    import re

    context = browser.new_context()
    elsewhere: list[str] = []

    def refuse(route) -> None:
        elsewhere.append(route.request.url)
        route.abort()

    context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), refuse)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    yield page
    context.close()
    assert not elsewhere, elsewhere
    assert not errors, errors


def serve(site: Path):
    """A built site over http on a free localhost port: (base URL, server to shut down)."""
    import functools
    import threading

    handler = functools.partial(QuietHandler, directory=str(site))
    server = QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/", server


@pytest.fixture(scope="session")
def sample_server(sample_site: Path):
    url, server = serve(sample_site)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def fixture_server(fixture_site: Path):
    url, server = serve(fixture_site)
    yield url
    server.shutdown()


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


@pytest.fixture(scope="session")
def instant_server(tmp_path_factory):
    """The sample site with mkdocs-material's instant navigation: pages swapped in without a reload. Material
    only navigates instantly to addresses in its sitemap, which needs site_url, port included: the server
    starts first, on the empty folder, to have one."""
    theme = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["theme"]
    theme["features"] = [*theme["features"], "navigation.instant"]
    site = tmp_path_factory.mktemp("instant") / "site"
    site.mkdir()
    url, server = serve(site)
    build_site(ROOT / "mkdocs.yml", site, theme=theme, site_url=url)
    yield url
    server.shutdown()
