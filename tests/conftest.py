"""Shared fixtures: sites built once per test session into temporary folders (their helpers are in tests/support)."""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import pytest
import yaml
from support.browser import CHROMIUM_ARGS, SharedContext, only_what_is_tested, opened_when_ready, serve
from support.sites import FIXTURE_SITE, ROOT, book_sources, build_site, copy_site

os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory) -> Path:
    return build_site(FIXTURE_SITE / "mkdocs.yml", tmp_path_factory.mktemp("fixture") / "site")


@pytest.fixture(scope="session")
def sample_site(tmp_path_factory) -> Path:
    return build_site(ROOT / "mkdocs.yml", tmp_path_factory.mktemp("sample") / "site")


@pytest.fixture(scope="session")
def book_site(tmp_path_factory) -> Path:
    """The fixture site with the problem books' hard cases and an exam module (support.sites.book_sources)."""
    work = tmp_path_factory.mktemp("books")
    return build_site(book_sources(work) / "mkdocs.yml", work / "site")


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


@pytest.fixture(scope="session")
def shared_context(browser, tmp_path_factory):
    """The browser context that quick tests' pages share, with its keeper page (support.browser.SharedContext)."""
    keeper = tmp_path_factory.mktemp("keeper")
    (keeper / "index.html").write_text("<!doctype html><title>keeper</title>", encoding="utf-8")
    url, server = serve(keeper)
    shared = SharedContext(browser, url)
    yield shared
    shared.close()
    server.shutdown()


@pytest.fixture
def page(request):
    """A page that may load nothing from another host (such a request is refused and fails the test) and must
    throw no error; `page.errors` holds what it threw so far. Python starts only in tests marked `python`
    (support.browser.SILENT_WORKER says why), and search indexes the site's pages only in tests marked `search`
    (EMPTY_SEARCH_INDEX). Its navigations return once the course pages are set up (opened_when_ready). It is
    opened in the context quick tests share, left as a new one after each (SharedContext), unless the test is
    marked `python` or `own_context`: then in a new context."""
    import re

    own = any(request.node.get_closest_marker(name) for name in ("python", "own_context"))
    shared = None if own else request.getfixturevalue("shared_context")
    if own:
        context = request.getfixturevalue("context")  # closed by its own fixture, after this one's checks
    else:
        context = shared.context
        only_what_is_tested(context, request)
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
    left = [] if own else shared.left_behind()
    assert not left, left
    assert not elsewhere, elsewhere
    assert not errors, errors


@pytest.fixture
def context(browser, request):
    """A fresh browser context where Python and search run only for tests about them (only_what_is_tested), and
    whose pages' navigations return once their course pages are set up (opened_when_ready)."""
    context = browser.new_context()
    only_what_is_tested(context, request)
    opened_when_ready(context)
    yield context
    # A route's handler still running as the test ends (a page restarting Python) must not fail the next test.
    context.unroute_all(behavior="ignoreErrors")
    context.close()


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


@pytest.fixture(scope="session")
def offline_copy(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("offline")
    source = copy_site(FIXTURE_SITE, work / "src")
    build_site(source / "mkdocs.offline.yml", work / "site")
    archive = source / "build" / "fixture-offline.zip"
    assert archive.is_file(), "the offline build writes its zip"
    target = work / "unzipped"
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(target)
    [top] = list(target.iterdir())
    return top
