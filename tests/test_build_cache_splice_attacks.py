"""Ways a review found to tell a kept page's stand-in from its HTML (rendering.pagecache.PageCache.stand_in):
templates of the site's own that reach the HTML under other names, transform it or include what measures it, and
hooks that see pages once they are converted. Whatever they do, a warm build writes byte for byte what a build
without the cache writes, and leaves no stand-in in any file: such sites write kept pages through the template."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import build_site
from test_build_cache import add_to_config, fixture_copy
from test_build_cache_splice import Splices, no_stand_in_left, warm_against_uncached, with_override
from test_serve import two_module_site

QUIZ = "en/demo/01-basics/quiz/index.html"


def block(body: str) -> str:
    return '{% extends "base.html" %}\n{% block content %}' + body + "{% endblock %}\n"


# -- templates that do more with a page's HTML than content_tests sees ---------------------------------------------

ALIASES = {
    "set_alias": '{% set p = page %}<p class="size">{{ p.content | length }}</p>{{ super() }}',
    "parenthesised": '<p class="size">{{ (page).content | length }}</p>{{ super() }}',
    "dunder_dict": '<p class="size">{{ page.__dict__["content"] | length }}</p>{{ super() }}',
    "map_attribute": '<p class="size">{{ [page] | map(attribute="content") | join | length }}</p>{{ super() }}',
    "macro_argument": '{% macro size(p) %}{{ p.content | length }}{% endmacro %}'
                      '<p class="size">{{ size(page) }}</p>{{ super() }}',
    # Another page's HTML: the next (kept) page holds its stand-in from its conversion on.
    "next_page": '{% if page.next_page %}<p class="size">{{ page.next_page.content | length }}</p>{% endif %}'
                 '{{ super() }}',
    "with_alias": '{% with p = page %}<p class="size">{{ p.content | length }}</p>{% endwith %}{{ super() }}',
}


@pytest.mark.parametrize("name", sorted(ALIASES))
def test_a_template_that_reaches_the_html_through_another_name_is_given_the_html(tmp_path: Path, monkeypatch,
                                                                                name: str) -> None:
    """A template that measures the page's HTML under another spelling than `page.content` (an alias, a macro's
    argument, brackets, `map(attribute=…)`) must see the HTML, not the stand-in: the warm site is the uncached
    one."""
    site = fixture_copy(tmp_path)
    with_override(site, "main.html", block(ALIASES[name]))
    warm_against_uncached(site, tmp_path, monkeypatch)


CAPTURES = {
    # The stand-in is printed once, into a variable, which is then printed once and measured.
    "set_block": '{% set html %}{{ super() }}{% endset %}{{ html }}<p class="size">{{ html | length }}</p>',
    "set_block_page_content": '{% set html %}{{ page.content }}{% endset %}<p class="size">{{ html | length }}'
                              '</p>{{ super() }}',
    # A filter over the block that prints the page: the stand-in (lower case, no <p>) comes out as it went in.
    "filter_lower": "{% filter lower %}{{ super() }}{% endfilter %}",
    "filter_replace": '{% filter replace("<p>", "<p class=\\"para\\">") %}{{ super() }}{% endfilter %}',
    "filter_page_content": '{% filter replace("zq-", "qz-") %}{{ page.content }}{% endfilter %}',
}


@pytest.mark.parametrize("name", sorted(CAPTURES))
def test_a_template_that_transforms_the_printed_html_is_given_the_html(tmp_path: Path, monkeypatch,
                                                                       name: str) -> None:
    """A template that prints the page's HTML into a `{% set %}` block or a `{% filter %}` (so that what it
    writes is a function of the HTML, not the HTML itself) must write what it makes of the HTML."""
    site = fixture_copy(tmp_path)
    with_override(site, "main.html", block(CAPTURES[name]))
    warm_against_uncached(site, tmp_path, monkeypatch)


TESTS = {
    # content_tests takes `"zq-question" in page.content`; the rest of the expression is never looked at.
    "upper_filter": '{% if "ZQ-QUESTION" in page.content | upper %}<p>questions</p>{% endif %}',
    "method_call": '{% if "ZQ-QUESTION" in page.content.upper() %}<p>questions</p>{% endif %}',
    "concatenation": '{% if "-->!" in page.content ~ "!" %}<p>ends in a comment</p>{% endif %}',
    # An escaped quote: the regex reads the test as "zq-question", the template looks for 'class="zq-question'.
    # The left operand is a concatenation: the regex takes "question", Jinja tests "zq-question".
    "concatenated_text": '{% if "zq-" ~ "question" in page.content %}<p>questions</p>{% endif %}',
    "escaped_quote": '{% if "class=\\"zq-question" in page.content %}<p>questions</p>{% endif %}',
}


@pytest.mark.parametrize("name", sorted(TESTS))
def test_a_test_of_more_than_the_html_answers_as_for_the_html(tmp_path: Path, monkeypatch, name: str) -> None:
    """`"text" in <an expression of page.content>` (a filter, a method, a slice, a concatenation) and a tested
    text with an escaped quote must answer for the stand-in as they answer for the HTML."""
    site = fixture_copy(tmp_path)
    with_override(site, "main.html", block(TESTS[name] + "{{ super() }}"))
    warm_against_uncached(site, tmp_path, monkeypatch)


@pytest.mark.parametrize("partial", ["partials/size.inc", "partials/size.svg", "assets/size.html",
                                     ".parts/size.html", "linked/size.html"])
def test_an_included_template_content_tests_never_reads_is_given_the_html(tmp_path: Path, monkeypatch,
                                                                          partial: str) -> None:
    """A template the theme includes must be looked at whatever its name: one with a suffix not in
    TEMPLATE_SUFFIXES, or in a folder named `assets` or starting with a dot, that measures the page's HTML
    must see the HTML."""
    site = fixture_copy(tmp_path)
    if partial.startswith("linked/"):
        # A folder of partials shared by symbolic link: Jinja's loader follows it, os.walk does not.
        (site / "shared").mkdir()
        (site / "overrides").mkdir()
        (site / "overrides/linked").symlink_to(site / "shared", target_is_directory=True)
    with_override(site, partial, '<p class="size">{{ page.content | length }}</p>')
    with_override(site, "main.html", block(f'{{% include "{partial}" %}}{{{{ super() }}}}'))
    warm_against_uncached(site, tmp_path, monkeypatch)


def hook(site: Path, text: str) -> None:
    (site / "hooks.py").write_text(text)
    add_to_config(site, "plugins:\n", "hooks:\n  - hooks.py\nplugins:\n")


def test_a_template_function_a_hook_gives_the_environment_sees_the_html(tmp_path: Path, monkeypatch) -> None:
    """A hook's on_env may give templates a function of the page: `{{ html_size(page) }}` must measure the page's
    HTML, not its stand-in."""
    site = fixture_copy(tmp_path)
    hook(site, "def on_env(env, config, files):\n"
               "    env.globals['html_size'] = lambda page: len(page.content)\n"
               "    return env\n")
    with_override(site, "main.html", block('<p class="size">{{ html_size(page) }}</p>{{ super() }}'))
    warm_against_uncached(site, tmp_path, monkeypatch)


def test_a_post_build_hook_that_runs_first_reads_whole_pages(tmp_path: Path, monkeypatch) -> None:
    """A hook's on_post_build at a priority above Zadachnik's (10000) reads the site's files: each must be whole
    (the last page built is a kept one, whose bytes go in only at Zadachnik's on_post_build)."""
    site = two_module_site(tmp_path)
    hook(site, "import json\nfrom pathlib import Path\nfrom mkdocs.plugins import event_priority\n\n"
               "@event_priority(20000)\n"
               "def on_post_build(config):\n"
               "    site = Path(config.site_dir)\n"
               "    sizes = {p.relative_to(site).as_posix(): p.stat().st_size for p in sorted(site.rglob('*.html'))}\n"
               "    (site / 'sizes.json').write_text(json.dumps(sizes, sort_keys=True, indent=1))\n")
    warm_against_uncached(site, tmp_path, monkeypatch)


def test_an_interrupted_build_leaves_no_stand_in(tmp_path: Path, monkeypatch) -> None:
    """Ctrl-C (KeyboardInterrupt, which MkDocs' build passes by: no on_build_error) after a kept page was written:
    the pages written are whole, as without the cache (on_shutdown still runs)."""
    import mkdocs.commands.build as mkdocs_build

    site = two_module_site(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    splices = Splices(monkeypatch)
    build_page, built = mkdocs_build._build_page, []

    def interrupted(page, *arguments, **options) -> None:
        if page.file.src_uri.endswith("book.md") and built:
            raise KeyboardInterrupt
        if page.file.src_uri.endswith("quiz.md"):
            built.append(page)
        build_page(page, *arguments, **options)

    monkeypatch.setattr(mkdocs_build, "_build_page", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_site(site / "mkdocs.yml", tmp_path / "interrupted", cache=True)
    assert splices.paths, "kept pages went into their files before the interrupt"
    no_stand_in_left(tmp_path / "interrupted")


def test_a_page_rendered_again_uses_the_environment_mkdocs_renders_with(tmp_path: Path, monkeypatch) -> None:
    """A plugin's or hook's on_env may return another environment (MkDocs renders pages with what the last one
    returns). A kept page rendered again (its template prints the HTML twice) must be rendered with that
    environment: here, one with a filter the first lacks."""
    site = fixture_copy(tmp_path)
    hook(site, "from mkdocs.plugins import event_priority\n\n"
               "@event_priority(-50)\n"
               "def on_env(env, config, files):\n"
               "    overlay = env.overlay()\n"
               "    overlay.filters = dict(env.filters, shout=lambda text: str(text).upper())\n"
               "    return overlay\n")
    with_override(site, "main.html", block('<p>{{ "quiet" | shout }}</p>{{ super() }}'
                                            '<div class="again">{{ page.content }}</div>'))
    warm_against_uncached(site, tmp_path, monkeypatch)


def test_a_generated_page_in_draft_docs_is_refused_with_what_to_write(tmp_path: Path, caplog) -> None:
    """(Not the cache's: found on the way.) A generated page named in `draft_docs` stopped the build with a
    traceback in Zadachnik's nav (its page object is never made); its module's book would lack its text."""
    from conftest import build_failure

    site = fixture_copy(tmp_path)
    add_to_config(site, "plugins:\n", "draft_docs: |\n  en/demo/01-basics/quiz.md\nplugins:\n")
    message = build_failure(site / "mkdocs.yml", tmp_path / "built", caplog)
    assert "mkdocs.yml: `draft_docs` or `exclude_docs` names pages Zadachnik makes" in message
    assert "en/demo/01-basics/quiz.md" in message and "out of `exercises`" in message


# -- a second review: handlers added late, and writes that fail -----------------------------------------------

LATE_PLUGIN = ("from mkdocs.plugins import BasePlugin\n\n"
               "class Sizes(BasePlugin):\n"
               "    def on_post_page(self, output, page, config):\n"
               "        return output.replace('</body>', f'<!-- {len(output)} --></body>')\n\n")

REGISTERING = {
    # A hook's on_config runs after Zadachnik's (hooks come after plugins, same priority): it adds a plugin.
    "config": "def on_config(config):\n"
              "    config.plugins['sizes'] = Sizes()\n"
              "    return config\n",
    # Or its on_nav (an event Zadachnik lets pass) does, after Zadachnik chose to splice in on_files.
    "nav": "def on_nav(nav, config, files):\n"
           "    config.plugins['sizes'] = Sizes()\n"
           "    return nav\n",
}


@pytest.mark.parametrize("event", sorted(REGISTERING))
def test_a_handler_registered_after_zadachnik_read_the_events_sees_whole_pages(tmp_path: Path, monkeypatch,
                                                                               event: str) -> None:
    """Handlers can join `config.plugins.events` after Zadachnik's on_config read them (`use_page_rules`:
    `others_handlers(...).late`): by a hook's or a plugin's on_config that runs after Zadachnik's, or by an
    on_files/on_nav handler (events Zadachnik lets pass). A post_page handler added so must see each kept page
    whole: the site is a build without the cache's, and no kept page is spliced."""
    site = fixture_copy(tmp_path)
    (site / "hooks.py").write_text(LATE_PLUGIN + REGISTERING[event])
    add_to_config(site, "plugins:\n", "hooks:\n  - hooks.py\nplugins:\n")
    splices = warm_against_uncached(site, tmp_path, monkeypatch)
    assert splices.paths == []


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
    """A full disk (or a folder it may not write): MkDocs' write of a kept page fails after Zadachnik's
    on_post_page recorded its splice. The build must fail with that error, as without the cache, not with a
    FileNotFoundError of the splice (on_build_error writing over a file that was never made)."""
    site = two_module_site(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    no_space = OSError(28, "No space left on device")
    failing_write(monkeypatch, no_space)
    with pytest.raises(OSError) as raised:
        build_site(site / "mkdocs.yml", tmp_path / "failed", cache=True)
    assert raised.value is no_space, repr(raised.value)


def test_ctrl_c_as_mkdocs_writes_a_kept_page_stops_the_build_as_an_interrupt(tmp_path: Path, monkeypatch) -> None:
    """Ctrl-C while MkDocs writes a kept page's file (after on_post_page): the build stops with the
    KeyboardInterrupt, and on_shutdown does all it must (KaTeX closed, the log handler taken off), not raise
    FileNotFoundError at the splice of a file that was never written."""
    import logging

    site = two_module_site(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    failing_write(monkeypatch, KeyboardInterrupt())
    handlers = list(logging.getLogger("mkdocs").handlers)
    with pytest.raises(BaseException) as raised:
        build_site(site / "mkdocs.yml", tmp_path / "interrupted", cache=True)
    assert isinstance(raised.value, KeyboardInterrupt), repr(raised.value)
    assert logging.getLogger("mkdocs").handlers == handlers, "on_shutdown stopped before taking its handler off"
