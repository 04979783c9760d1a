"""The build's own cost, in work counted rather than seconds (timings on a shared machine prove nothing): what the
Markdown pass and the reading of sources do per piece of author text."""

from __future__ import annotations

import re
from pathlib import Path

import markdown
from markdown.inlinepatterns import InlineProcessor
from support.sites import ROOT
from zadachnik.reading.model import load_courses
from zadachnik.rendering.mathtex import MathExtension, MathLog
from zadachnik.rendering.render import KINDS, module_has, plan_page, split_pieces

LANGUAGES = ["ru", "en"]
# The sample site's extensions that take part in converting a generated page.
EXTENSIONS = ["admonition", "attr_list", "md_in_html", "tables", "pymdownx.details", "pymdownx.superfences",
              "pymdownx.tabbed", "toc"]


class Seen:
    """Stands in for an inline pattern's regex: records every text the inline pass offers it, matches none."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def finditer(self, text: str, start: int = 0) -> list:
        self.texts.append(text[start:])
        return []


class Watching(InlineProcessor):
    def __init__(self, seen: Seen, md: markdown.Markdown):
        super().__init__(r"(?!)", md)
        self.seen = seen

    def getCompiledRegExp(self) -> Seen:  # type: ignore[override]
        return self.seen


def converted_pages() -> list[tuple[object, str, Seen, markdown.Markdown]]:
    """Every generated page of the sample course, converted as the build converts it, with what its inline
    pass was offered."""
    courses = load_courses(ROOT / "exercises", LANGUAGES, ROOT)
    results = []
    for course in courses:
        for module in course.modules:
            for kind in KINDS:
                if not module_has(module, kind):
                    continue
                for lang in LANGUAGES:
                    plan = plan_page(course, module, kind, lang, LANGUAGES)
                    converter = markdown.Markdown(extensions=[*EXTENSIONS, MathExtension(log=MathLog())])
                    seen = Seen()
                    # First of all patterns: it is offered every text the inline pass looks at.
                    converter.inlinePatterns.register(Watching(seen, converter), "watching", 1000)
                    page_html = converter.convert(plan.markdown().split("\n---\n", 1)[1])
                    results.append((plan, page_html, seen, converter))
    return results


def test_piece_markers_cost_no_inline_pass() -> None:
    """A generated page puts a marker paragraph before each piece of author text: thousands on a large course.
    They were as costly as author text, each offered to every inline pattern (a fifth of the Markdown pass of
    the benchmark course); now no inline pattern sees one, and the pieces still split at them."""
    pages = converted_pages()
    assert pages
    for plan, page_html, seen, _ in pages:
        assert seen.texts, "the watching pattern saw nothing: the test would prove nothing"
        markers = [text for text in seen.texts if "ZQ\u2060PIECE" in text]
        assert markers == [], f"{plan.source} ({plan.lang}): the inline pass looked at {len(markers)} markers"
        assert len(split_pieces(plan, page_html)) == len(plan.pieces)


def test_display_formulas_cost_no_inline_pass() -> None:
    """A display formula is stashed, and its paragraph holds only the stash's placeholder: two a question in the
    benchmark course, each offered to every inline pattern although none can match it (arithmatex, on the plain
    site, marks its text atomic). A paragraph of a placeholder alone that the inline pass sees must not be one."""
    placeholder = re.compile("\x02wzxhzdk:(\\d+)\x03")
    displays = 0
    for plan, _, seen, converter in converted_pages():
        stash = converter.htmlStash.rawHtmlBlocks
        displays += sum(1 for block in stash if str(block).startswith('<div class="zq-math">'))
        offered = [stash[int(found[1])] for text in seen.texts if (found := placeholder.fullmatch(text))]
        formulas = [block for block in offered if str(block).startswith('<div class="zq-math">')]
        assert formulas == [], f"{plan.source} ({plan.lang}): {len(formulas)} display formulas in the inline pass"
    assert displays > 0, "no display formula: the test would prove nothing"


def test_reading_names_a_source_file_once_not_per_fragment(monkeypatch) -> None:
    """A source's path as messages show it (relative to the site) was worked out for every fragment of text and
    every block, ten thousand times for the benchmark course, to be used only in a message; now once a file
    (questions may ask for it again: the answer is kept)."""
    from zadachnik.reading import model

    named: list[Path] = []
    relative = model.Loader.relative

    def counted(loader: model.Loader, path: Path) -> str:
        named.append(path)
        return relative(loader, path)

    monkeypatch.setattr(model.Loader, "relative", counted)
    courses = load_courses(ROOT / "exercises", LANGUAGES, ROOT)
    sources = [path for path in (ROOT / "exercises").rglob("*.md") if path.name in ("quiz.md", "exercises.md")]
    fragments = sum(1 for course in courses for module in course.modules
                    for _, texts in model.module_fragments(module) for _ in texts)
    assert fragments > 10 * len(sources), "too little text to tell once a file from once a fragment"
    assert len(named) == len(set(named)), "a path worked out twice"
    files = [path for path in (ROOT / "exercises").rglob("*") if path.is_file()]
    assert len(named) <= len(files), f"{len(named)} paths worked out for {len(files)} files"


def test_assembling_pages_reads_no_template_time_stamps(monkeypatch) -> None:
    """Each question includes several templates; Jinja read each one's time stamp from the disk at every
    include, in case the package's own files changed while it ran."""
    import os

    from zadachnik.rendering.render import Renderer

    renderer = Renderer()
    plan, page_html, _, _ = converted_pages()[0]
    renderer.assemble(plan, page_html)
    stamps: list[str] = []
    getmtime = os.path.getmtime

    def counted(path):
        stamps.append(str(path))
        return getmtime(path)

    monkeypatch.setattr(os.path, "getmtime", counted)
    assert "zq-question" in renderer.assemble(plan, page_html)
    assert stamps == []


def test_pages_search_leaves_out_get_no_search_text(tmp_path: Path, monkeypatch) -> None:
    """Search's text for a page (each formula as its TeX, the controls dropped) is prepared only for pages the
    search index takes: the problem books, which repeat their modules word for word, are left out of it, and
    preparing theirs was a fifth of a build of the benchmark course."""
    from support.sites import build_site
    from zadachnik import plugin

    prepared: list[str] = []
    for_search = plugin.for_search

    def counted(page_html: str) -> str:
        prepared.append(page_html)
        return for_search(page_html)

    # mkdocs-material's search then runs a pattern over whatever text a page has, indexed or not.
    from material.plugins.search.plugin import SearchPlugin

    given: dict[str, int] = {}
    on_page_context = SearchPlugin.on_page_context

    def searched(self, context, *, page, config, nav):
        given[page.url] = len(page.content)
        return on_page_context(self, context, page=page, config=config, nav=nav)

    monkeypatch.setattr(plugin, "for_search", counted)
    monkeypatch.setattr(SearchPlugin, "on_page_context", searched)
    site = build_site(ROOT / "mkdocs.yml", tmp_path / "site")
    pages = [path for path in site.rglob("index.html")]
    books = [path for path in pages if path.parent.name == "book"]
    assert books, "no problem book: the test would prove nothing"
    assert len(prepared) == len(pages) - len(books)
    assert {url: size for url, size in given.items() if url.rstrip("/").endswith("book") and size} == {}
    assert all(given[url] for url in given if not url.rstrip("/").endswith("book"))
    assert "<h1" in (site / "modern-llms/09-pretraining/book/index.html").read_text(encoding="utf-8"), \
        "the book lost its text"
