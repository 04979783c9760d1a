"""Kept pages and what sees them after their conversion: templates of the site's own, other plugins' and hooks'
handlers, and builds that fail as MkDocs writes them. Whatever they do, a warm build writes byte for byte what a
build without the cache writes (a kept page gives them its HTML as a fresh build does, formulas' marks in where
they may read it before its own turn, incremental.site.use_template_rules)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.caching import add_to_config, assert_same_site, fixture_copy
from support.sites import build_failure, build_site, two_module_site
from zadachnik.incremental import pages as pagecache
from zadachnik.incremental.blobs import BlobFolder
from zadachnik.incremental.site import others_handlers


def warm_against_uncached(site: Path, tmp_path: Path) -> None:
    """A cold build, then a warm one, then one without the cache: the same site."""
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    assert_same_site(tmp_path / "warm", tmp_path / "uncached")


def with_override(site: Path, name: str, text: str) -> None:
    overrides = site / "overrides"
    (overrides / name).parent.mkdir(parents=True, exist_ok=True)
    (overrides / name).write_text(text)
    add_to_config(site, "  name: material\n", "  name: material\n  custom_dir: overrides\n")


def block(body: str) -> str:
    return '{% extends "base.html" %}\n{% block content %}' + body + "{% endblock %}\n"


def hook(site: Path, text: str) -> None:
    (site / "hooks.py").write_text(text)
    add_to_config(site, "plugins:\n", "hooks:\n  - hooks.py\nplugins:\n")


TEMPLATES = {
    "length": '<p class="size">{{ page.content | length }}</p>{{ super() }}',
    # Another page's HTML, read before that page's own turn: a fresh build gives it with its formulas' marks.
    "next_page": '{% if page.next_page %}<p class="size">{{ page.next_page.content | length }}</p>{% endif %}'
                 '{{ super() }}',
    "filter": '{% filter replace("<p>", "<p class=\\"para\\">") %}{{ super() }}{% endfilter %}',
    "tested": '{% if "zq-question" in page.content %}<p>questions</p>{% endif %}{{ super() }}',
}


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_a_template_of_the_sites_own_sees_a_kept_page_as_a_fresh_build_shows_it(tmp_path: Path,
                                                                                name: str) -> None:
    site = fixture_copy(tmp_path)
    with_override(site, "main.html", block(TEMPLATES[name]))
    warm_against_uncached(site, tmp_path)
    if name == "tested":
        assert "<p>questions</p>" in (tmp_path / "warm/en/demo/01-basics/quiz/index.html").read_text()


HOOKS = {
    "post_page": "def on_post_page(output, page, config):\n"
                 "    return output.replace('</body>', f'<!-- {len(output)} --></body>')\n",
    "late_page_context": "from mkdocs.plugins import event_priority\n\n"
                         "@event_priority(-500)\n"
                         "def on_page_context(context, page, config, nav):\n"
                         "    page.content = (page.content or '') + f'<p>{len(page.content or \"\")}</p>'\n"
                         "    return context\n",
    # A function of the page a hook gives templates (main.html below prints it).
    "template_function": "def on_env(env, config, files):\n"
                         "    env.globals['html_size'] = lambda page: len(page.content or '')\n"
                         "    return env\n",
    # Above every plugin's priority: reads the site's files before anyone else's on_post_build.
    "post_build_first": "import json\nfrom pathlib import Path\nfrom mkdocs.plugins import event_priority\n\n"
                        "@event_priority(20000)\n"
                        "def on_post_build(config):\n"
                        "    site = Path(config.site_dir)\n"
                        "    sizes = {p.relative_to(site).as_posix(): p.stat().st_size\n"
                        "             for p in sorted(site.rglob('*.html'))}\n"
                        "    (site / 'sizes.json').write_text(json.dumps(sizes, sort_keys=True, indent=1))\n",
}


@pytest.mark.parametrize("name", sorted(HOOKS))
def test_a_hook_that_sees_pages_after_zadachnik_sees_kept_ones_as_fresh(tmp_path: Path, name: str) -> None:
    site = two_module_site(tmp_path) if name == "post_build_first" else fixture_copy(tmp_path)
    hook(site, HOOKS[name])
    if name == "template_function":
        with_override(site, "main.html", block('<p class="size">{{ html_size(page) }}</p>{{ super() }}'))
    warm_against_uncached(site, tmp_path)
    if name == "post_build_first":
        assert (tmp_path / "warm/sizes.json").read_text() == (tmp_path / "uncached/sizes.json").read_text()


LATE_PLUGIN = ("from mkdocs.plugins import BasePlugin\n\n"
               "class Sizes(BasePlugin):\n"
               "    def on_post_page(self, output, page, config):\n"
               "        return output.replace('</body>', f'<!-- {len(output)} --></body>')\n\n")

REGISTERING = {
    # A hook's on_config runs after Zadachnik's (hooks come after plugins, same priority): it adds a plugin.
    "config": "def on_config(config):\n"
              "    config.plugins['sizes'] = Sizes()\n"
              "    return config\n",
    "nav": "def on_nav(nav, config, files):\n"
           "    config.plugins['sizes'] = Sizes()\n"
           "    return nav\n",
}


@pytest.mark.parametrize("event", sorted(REGISTERING))
def test_a_handler_registered_after_zadachnik_read_the_events_sees_kept_pages_as_fresh(tmp_path: Path,
                                                                                       event: str) -> None:
    site = fixture_copy(tmp_path)
    hook(site, LATE_PLUGIN + REGISTERING[event])
    warm_against_uncached(site, tmp_path)


def test_handlers_of_others_once_pages_are_converted_are_told_apart() -> None:
    class Own:
        def ours(self) -> None: ...

    class MaterialSearch:
        def on_page_context(self) -> None: ...

    MaterialSearch.__module__ = "material.plugins.search.plugin"
    own, search = Own(), MaterialSearch()

    def late_hook() -> None: ...

    assert not others_handlers({"page_context": [own.ours, search.on_page_context, own.ours]}, own).late
    assert others_handlers({"page_context": [own.ours, search.on_page_context, own.ours, late_hook]}, own).late
    assert others_handlers({"post_build": [late_hook]}, own).late and others_handlers({"env": [late_hook]}, own).late
    assert others_handlers({"page_markdown": [late_hook]}, own).late
    assert not others_handlers({"config": [late_hook], "files": [late_hook], "nav": [late_hook]}, own).late
    assert not others_handlers({"post_page": [own.ours]}, own).late


def failing_write(monkeypatch, error: BaseException) -> None:
    """MkDocs cannot write one kept page's file (its own `utils.write_file`, after every on_post_page)."""
    import mkdocs.utils

    write = mkdocs.utils.write_file

    def failing(content: bytes, output_path: str) -> None:
        if output_path.endswith("02-more/quiz/index.html"):
            raise error
        write(content, output_path)

    monkeypatch.setattr(mkdocs.utils, "write_file", failing)


def test_a_kept_page_mkdocs_cannot_write_fails_the_build_with_mkdocs_error(tmp_path: Path, monkeypatch) -> None:
    """A full disk: the build fails with MkDocs' own error, as without the cache."""
    site = two_module_site(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    no_space = OSError(28, "No space left on device")
    failing_write(monkeypatch, no_space)
    with pytest.raises(OSError) as raised:
        build_site(site / "mkdocs.yml", tmp_path / "failed", cache=True)
    assert raised.value is no_space, repr(raised.value)


def test_ctrl_c_as_mkdocs_writes_a_kept_page_stops_the_build_as_an_interrupt(tmp_path: Path, monkeypatch) -> None:
    """Ctrl-C while MkDocs writes a kept page: the build stops with the KeyboardInterrupt, and on_shutdown does
    all it must (the log handler taken off)."""
    import logging

    site = two_module_site(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    failing_write(monkeypatch, KeyboardInterrupt())
    handlers = list(logging.getLogger("mkdocs").handlers)
    with pytest.raises(BaseException) as raised:
        build_site(site / "mkdocs.yml", tmp_path / "interrupted", cache=True)
    assert isinstance(raised.value, KeyboardInterrupt), repr(raised.value)
    assert logging.getLogger("mkdocs").handlers == handlers, "on_shutdown stopped before taking its handler off"


def test_a_generated_page_in_draft_docs_is_refused_with_what_to_write(tmp_path: Path, caplog) -> None:
    """A generated page named in `draft_docs` stopped the build with a traceback in Zadachnik's nav (its page
    object is never made); its module's book would lack its text."""
    site = fixture_copy(tmp_path)
    add_to_config(site, "plugins:\n", "draft_docs: |\n  en/demo/01-basics/quiz.md\nplugins:\n")
    message = build_failure(site / "mkdocs.yml", tmp_path / "built", caplog)
    assert "mkdocs.yml: `draft_docs` or `exclude_docs` names pages Zadachnik makes" in message
    assert "en/demo/01-basics/quiz.md" in message and "out of `exercises`" in message


@pytest.mark.parametrize("html", ["<p>Выбор</p>", "<p>a \ud800 b</p>"])
def test_a_kept_page_reads_back_as_it_was_made(tmp_path: Path, html: str) -> None:
    """A lone surrogate (no source gives one: the YAML reader refuses them) survives the store too."""
    store = BlobFolder(tmp_path)
    writer = pagecache.PageCache(store=store)
    writer.write(pagecache.CachedPage("key", html, None, search="", final=html, anchors=[], links={}))
    writer.written()
    reader = pagecache.PageCache(store=store, keys={"page.md": "key"})
    page = reader.unchanged("page.md")
    assert page is not None
    assert reader.given("page.md") == html
