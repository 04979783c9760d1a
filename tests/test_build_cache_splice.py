"""A kept page's HTML goes into its file as the bytes the build cache holds: its template is given a stand-in, a
comment, which the bytes replace once MkDocs has written the page (rendering.pagecache.PageCache.stand_in). The
site written is byte for byte a build without the cache's, whatever the templates, hooks and plugins do with a
page's HTML: where they could tell the stand-in from the HTML, the page is written from its HTML."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import build_site
from test_build_cache import add_to_config, assert_same_site, fixture_copy
from test_serve import site_files, two_module_site
from zadachnik.core.blobs import BlobFolder
from zadachnik.rendering import pagecache
from zadachnik.rendering.buildcache import content_tests, others_handlers

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


def test_a_template_that_measures_a_pages_html_is_given_the_html(tmp_path: Path, monkeypatch) -> None:
    site = fixture_copy(tmp_path)
    with_override(site, "main.html", '{% extends "base.html" %}\n{% block content %}'
                  '<p class="size">{{ page.content | length }}</p>{{ super() }}{% endblock %}\n')
    splices = warm_against_uncached(site, tmp_path, monkeypatch)
    assert splices.paths == []


def test_a_template_that_prints_a_pages_html_twice_prints_it_twice(tmp_path: Path, monkeypatch) -> None:
    """The stand-in is printed twice: the page's template is rendered again with the HTML."""
    site = fixture_copy(tmp_path)
    with_override(site, "main.html", '{% extends "base.html" %}\n{% block content %}{{ super() }}'
                  '<div class="again">{{ page.content }}</div>{% endblock %}\n')
    splices = warm_against_uncached(site, tmp_path, monkeypatch)
    assert splices.paths == []
    assert (tmp_path / "warm/en/demo/01-basics/quiz/index.html").read_text().count('class="zq-explanation') == 16


def test_a_template_that_looks_for_a_text_in_a_page_finds_what_the_html_holds(tmp_path: Path,
                                                                               monkeypatch) -> None:
    site = fixture_copy(tmp_path)
    with_override(site, "main.html", '{% extends "base.html" %}\n{% block content %}'
                  '{% if "zq-question" in page.content %}<p>questions</p>{% endif %}'
                  "{% if 'no page holds this' in page.content %}<p>never</p>{% endif %}"
                  '{% if "zadachnik-kept-page" not in page.content %}<p>no stand-in</p>{% endif %}'
                  "{{ super() }}{% endblock %}\n")
    splices = warm_against_uncached(site, tmp_path, monkeypatch)
    quiz = (tmp_path / "warm/en/demo/01-basics/quiz/index.html").read_text()
    assert "<p>questions</p>" in quiz and "<p>never</p>" not in quiz and "<p>no stand-in</p>" in quiz
    # A page whose stand-in would answer a test differently than its HTML is written from its HTML; the others
    # still go in as bytes.
    assert splices.paths == []


def test_pages_go_in_as_bytes_under_a_template_that_looks_for_what_a_stand_in_lacks(tmp_path: Path,
                                                                                    monkeypatch) -> None:
    site = fixture_copy(tmp_path)
    with_override(site, "main.html", '{% extends "base.html" %}\n{% block content %}'
                  '{% if "zq-question" in page.content %}<p>questions</p>{% endif %}{{ super() }}{% endblock %}\n')
    splices = warm_against_uncached(site, tmp_path, monkeypatch)
    assert splices.paths
    assert "<p>questions</p>" in (tmp_path / "warm/en/demo/01-basics/quiz/index.html").read_text()
    assert "<p>questions</p>" not in (tmp_path / "warm/en/index.html").read_text()


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


def test_other_handlers_after_zadachnik_are_told_apart() -> None:
    class Own:
        def ours(self) -> None: ...

    own = Own()

    def foreign() -> None: ...

    late = others_handlers({"page_context": [own.ours, foreign, own.ours, foreign]}, own)
    assert late.output and not late.html_after
    between = others_handlers({"page_context": [own.ours, foreign, own.ours]}, own)
    assert not between.output
    assert others_handlers({"post_page": [foreign]}, own).output
    assert not others_handlers({"post_page": [own.ours]}, own).output



@pytest.mark.parametrize(("html", "spliced"), [("<p>Выбор</p>", True), ("<p>a \ud800 b</p>", False)])
def test_only_a_page_utf8_holds_goes_in_as_bytes(tmp_path: Path, html: str, spliced: bool) -> None:
    """A lone surrogate (no source gives one: the YAML reader refuses them) is written by MkDocs as a character
    reference: such a page is written from its HTML, which the store gives back as it was."""
    store = BlobFolder(tmp_path)
    writer = pagecache.PageCache(store=store)
    writer.write(pagecache.CachedPage("key", html, None, search="", final=html))
    writer.written()
    reader = pagecache.PageCache(store=store, splicing=True, keys={"page.md": "key"})
    page = reader.unchanged("page.md")
    assert page is not None and page.text() == html
    assert (reader.stand_in("page.md") is not None) is spliced
