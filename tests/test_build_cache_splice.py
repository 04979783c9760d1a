"""A kept page's HTML goes into its file as the bytes the build cache holds: its template is given a stand-in, a
comment, which the bytes replace once MkDocs has written the page (rendering.pagecache.PageCache.stand_in), where
only mkdocs-material's own templates and plugins see pages. The site written is byte for byte a build without the
cache's; templates of the site's own and other plugins get the HTML (tests/test_build_cache_splice_attacks.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import build_site
from test_build_cache import add_to_config, assert_same_site, fixture_copy
from test_serve import site_files, two_module_site
from zadachnik.incremental import pages as pagecache
from zadachnik.incremental.blobs import BlobFolder
from zadachnik.incremental.site import content_tests, others_handlers

STAND_IN_MARK = b"zadachnik-kept-page"


class Splices:
    """The kept pages whose bytes went into their files."""

    def __init__(self, monkeypatch) -> None:
        self.paths: list[str] = []
        write = pagecache.Splice.write

        def counted(splice: pagecache.Splice) -> None:
            self.paths.append(splice.path)
            write(splice)

        monkeypatch.setattr(pagecache.Splice, "write", counted)


def no_stand_in_left(site_dir: Path) -> None:
    left = [name for name, data in site_files(site_dir).items() if STAND_IN_MARK in data]
    assert not left, left


def warm_against_uncached(site: Path, tmp_path: Path, monkeypatch) -> Splices:
    """A cold build, then a warm one (counting its splices), then one without the cache: the same site."""
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    splices = Splices(monkeypatch)
    build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    assert_same_site(tmp_path / "warm", tmp_path / "uncached")
    no_stand_in_left(tmp_path / "warm")
    return splices


def with_override(site: Path, name: str, text: str) -> None:
    overrides = site / "overrides"
    (overrides / name).parent.mkdir(parents=True, exist_ok=True)
    (overrides / name).write_text(text)
    add_to_config(site, "  name: material\n", "  name: material\n  custom_dir: overrides\n")


def test_a_warm_build_writes_kept_pages_from_their_stored_bytes(tmp_path: Path, monkeypatch) -> None:
    site = two_module_site(tmp_path)
    splices = warm_against_uncached(site, tmp_path, monkeypatch)
    written = {Path(path).relative_to(tmp_path / "warm").as_posix() for path in splices.paths}
    # Every generated page: both modules' quizzes and exercises and the books, in both languages.
    assert "en/demo/01-basics/quiz/index.html" in written and "demo/02-more/quiz/index.html" in written
    assert any("book" in path for path in written)


def test_a_site_with_templates_of_its_own_writes_kept_pages_through_them(tmp_path: Path, monkeypatch) -> None:
    """Overrides (`custom_dir`) may do anything with a page's HTML (tests/test_build_cache_splice_attacks.py tries
    many ways): kept pages go through them whole."""
    site = fixture_copy(tmp_path)
    with_override(site, "main.html", '{% extends "base.html" %}\n{% block content %}'
                  '<p class="size">{{ page.content | length }}</p>{{ super() }}{% endblock %}\n')
    splices = warm_against_uncached(site, tmp_path, monkeypatch)
    assert splices.paths == []


def trusted_overrides(monkeypatch) -> None:
    """Overrides taken for mkdocs-material's own templates: the stand-in goes through them."""
    from zadachnik.incremental import site as buildcache

    monkeypatch.setattr(buildcache, "own_templates", lambda folders, theme_folders: True)


def test_a_template_that_prints_the_stand_in_twice_is_rendered_again_with_the_html(tmp_path: Path,
                                                                                   monkeypatch) -> None:
    """Should mkdocs-material's template print a page's HTML twice, the page is rendered again with it."""
    site = fixture_copy(tmp_path)
    with_override(site, "main.html", '{% extends "base.html" %}\n{% block content %}{{ super() }}'
                  '<div class="again">{{ page.content }}</div>{% endblock %}\n')
    trusted_overrides(monkeypatch)
    splices = warm_against_uncached(site, tmp_path, monkeypatch)
    assert splices.paths == []
    assert (tmp_path / "warm/en/demo/01-basics/quiz/index.html").read_text().count('class="zq-explanation') == 16


def test_a_test_of_a_pages_html_answers_for_its_stand_in_as_for_the_html(tmp_path: Path, monkeypatch) -> None:
    """A template's `"text" in page.content` (mkdocs-material asks for "<h1") gives the same answer: the
    stand-in holds each tested text its page's HTML holds, and a page whose stand-in would answer otherwise (it
    holds the text itself) goes through the template whole."""
    site = fixture_copy(tmp_path)
    with_override(site, "main.html", '{% extends "base.html" %}\n{% block content %}'
                  '{% if "zq-question" in page.content %}<p>questions</p>{% endif %}'
                  "{% if 'no page holds this' in page.content %}<p>never</p>{% endif %}"
                  "{{ super() }}{% endblock %}\n")
    trusted_overrides(monkeypatch)
    splices = warm_against_uncached(site, tmp_path, monkeypatch)
    assert splices.paths
    quiz = (tmp_path / "warm/en/demo/01-basics/quiz/index.html").read_text()
    assert "<p>questions</p>" in quiz and "<p>never</p>" not in quiz
    assert "<p>questions</p>" not in (tmp_path / "warm/en/index.html").read_text()


def test_a_tested_text_the_stand_in_holds_itself_leaves_the_page_whole() -> None:
    cache = pagecache.PageCache(splicing=True, keys={"page.md": "key"},
                                content_tests=["<h1", "zadachnik-kept-page"])
    cache.pages["page.md"] = pagecache.CachedPage("key", None, None, search="", html=b"<h1>A</h1>",
                                                  as_written=True, exact=True)
    assert cache.stand_in("page.md") is None
    cache = pagecache.PageCache(splicing=True, keys={"page.md": "key"}, content_tests=["<h1", "<table"])
    cache.pages["page.md"] = pagecache.CachedPage("key", None, None, search="", html=b"<h1>A</h1>",
                                                  as_written=True, exact=True)
    stand_in = cache.stand_in("page.md")
    assert stand_in is not None and "<h1" in stand_in and "<table" not in stand_in


HOOKS = {
    "post_page": "def on_post_page(output, page, config):\n"
                 "    return output.replace('</body>', f'<!-- {len(output)} --></body>')\n",
    "late_page_context": "from mkdocs.plugins import event_priority\n\n"
                         "@event_priority(-500)\n"
                         "def on_page_context(context, page, config, nav):\n"
                         "    page.content = (page.content or '') + f'<p>{len(page.content or \"\")}</p>'\n"
                         "    return context\n",
}


@pytest.mark.parametrize("hook", sorted(HOOKS))
def test_a_hook_that_sees_a_pages_html_or_output_after_zadachnik_sees_them_whole(tmp_path: Path, monkeypatch,
                                                                                  hook: str) -> None:
    site = fixture_copy(tmp_path)
    (site / "hooks.py").write_text(HOOKS[hook])
    add_to_config(site, "plugins:\n", "hooks:\n  - hooks.py\nplugins:\n")
    splices = warm_against_uncached(site, tmp_path, monkeypatch)
    assert splices.paths == []


def test_a_build_that_fails_leaves_the_kept_pages_it_wrote_whole(tmp_path: Path, monkeypatch) -> None:
    """MkDocs stops at a page whose template fails: the pages it wrote before are whole, as without the cache."""
    import mkdocs.commands.build as mkdocs_build
    from mkdocs.exceptions import Abort

    site = two_module_site(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    splices = Splices(monkeypatch)
    build_page, built = mkdocs_build._build_page, []

    def failing_late(page, *arguments, **options) -> None:
        if len(built) == 12:
            raise RuntimeError("a template failed")
        built.append(page)
        build_page(page, *arguments, **options)

    monkeypatch.setattr(mkdocs_build, "_build_page", failing_late)
    with pytest.raises((Abort, RuntimeError)):
        build_site(site / "mkdocs.yml", tmp_path / "failed", cache=True)
    assert splices.paths, "kept pages were written before the failure"
    no_stand_in_left(tmp_path / "failed")


def test_the_templates_rules_for_a_pages_html() -> None:
    assert content_tests(["{{ page.content }}", '{% if "\\u003ch1" not in page.content %}{% endif %}']) == ["<h1"]
    assert content_tests(["{{- page.content -}}", "{{ post.content }}"]) == []
    for use in ("{{ page.content | length }}", "{{ page.content[:10] }}", "{{ page['content'] }}",
                "{% set html = page.content %}", '{{ page | attr("content") }}'):
        assert content_tests(["{{ page.content }}", use]) is None, use


def test_handlers_of_others_once_pages_are_converted_are_told_apart() -> None:
    class Own:
        def ours(self) -> None: ...

    class MaterialSearch:
        def on_page_context(self) -> None: ...

    MaterialSearch.__module__ = "material.plugins.search.plugin"
    own, search = Own(), MaterialSearch()

    def hook() -> None: ...

    assert not others_handlers({"page_context": [own.ours, search.on_page_context, own.ours]}, own).late
    assert others_handlers({"page_context": [own.ours, search.on_page_context, own.ours, hook]}, own).late
    assert others_handlers({"post_build": [hook]}, own).late and others_handlers({"env": [hook]}, own).late
    assert others_handlers({"page_markdown": [hook]}, own).late
    assert not others_handlers({"config": [hook], "files": [hook], "nav": [hook]}, own).late
    assert not others_handlers({"post_page": [own.ours]}, own).late



@pytest.mark.parametrize(("html", "spliced"), [("<p>Выбор</p>", True), ("<p>a \ud800 b</p>", False)])
def test_only_a_page_utf8_holds_goes_in_as_bytes(tmp_path: Path, html: str, spliced: bool) -> None:
    """A lone surrogate (no source gives one: the YAML reader refuses them) is written by MkDocs as a character
    reference: such a page is written from its HTML, which the store gives back as it was."""
    store = BlobFolder(tmp_path)
    writer = pagecache.PageCache(store=store)
    writer.write(pagecache.CachedPage("key", html, None, search="", final=html, anchors=[], links={}))
    writer.written()
    reader = pagecache.PageCache(store=store, splicing=True, keys={"page.md": "key"})
    page = reader.unchanged("page.md")
    assert page is not None and page.text() == html
    assert (reader.stand_in("page.md") is not None) is spliced
