"""Generated pages kept between builds: a build after an edit converts and assembles only the pages whose module
(or site) changed, and takes every other generated page as the last build left it. Between the builds of one
`mkdocs serve` they stay in memory; with a store (the site's cache folder), on disk too, for the next build.

A page's key covers everything its HTML is made of: the site's settings and words, every file's address (links
are resolved against them), the page's own Markdown (all its author text), and the bytes of its module's sources
and course files (its questions' keys, values and notebooks). A problem book's key is its sources' keys: it takes
its text from its modules' pages. A page whose key is unchanged gives the same HTML, so it is not rebuilt. On
disk the key also covers the code that made the page (`incremental.fingerprint`), and a page whose build logged a
warning is not kept, so a later build gives that warning again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import zlib
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from markupsafe import Markup

from zadachnik.core.shapes import Shape
from zadachnik.incremental.blobs import BlobFolder
from zadachnik.incremental.reads import Digests, Recording
from zadachnik.reading.model import Course, Module
from zadachnik.rendering.book import BookPlan
from zadachnik.rendering.i18n import runtime_strings, strings
from zadachnik.rendering.mathtex import finished as without_marks
from zadachnik.rendering.render import PagePlan


@dataclass
class CachedPage:
    key: str
    # The page's HTML as assembled; for a page from the store, its text is `html` until it is needed (`text`).
    content: str | None
    # Each piece's HTML, for the problem books that take their text from the page.
    rendered: list[str] | None
    # What search is given of the page, and the page's HTML as written (plugin.py's page context), once known.
    search: str | None = None
    final: str | None = None
    # What MkDocs' own conversion learns of a page and checks across pages (anchors, and links to other pages'
    # anchors by their source address), and the formulas the page draws (the formula cache keeps them).
    anchors: list[str] | None = None
    links: dict[str, dict[str, str]] | None = None
    formulas: list[tuple[str, bool]] = field(default_factory=list)
    # In the store, the pieces are a file of their own (PIECES), read only for a book that is assembled again.
    pieces_apart: bool = False
    # The HTML as the store holds it (a file of its own, HTML), as UTF-8: as written, or, when other plugins see
    # pages' HTML, with its formulas' marks (`as_written` false); until `text` decodes it.
    html: bytes | None = None
    as_written: bool = False
    # Their CRC-32: the entry takes no other entry's HTML file.
    html_checksum: int | None = None
    # What its making read (incremental.reads): each file opened, folder listed or path looked at, with what it
    # found. The page is taken again only while each finds the same.
    reads: dict[str, str] = field(default_factory=dict)

    def text(self) -> str:
        if self.content is None:
            assert self.html is not None, "a page from the store has its HTML"
            # Once decoded the bytes are not needed again (the store has them): one copy of the page, not two.
            self.content, self.html = self.html.decode("utf-8", "surrogatepass"), None
        return self.content


PIECES = "-pieces"
HTML = "-html"
# What the store holds of a page (`write`): no HTML (a file of its own, HTML) nor pieces (PIECES), and all that
# MkDocs' conversion learnt of it, its search text and its HTML's checksum.
STORED_PAGE = Shape(CachedPage, fields={CachedPage: {
    "content": None, "rendered": None, "final": None, "html": None, "search": str, "anchors": list[str],
    "links": dict[str, dict[str, str]], "html_checksum": int, "reads": dict[str, str]}})
STORED_PIECES = Shape(list[str])


@dataclass
class PageCache:
    pages: dict[str, CachedPage] = field(default_factory=dict)
    # This build's key of each generated page, by its source address.
    keys: dict[str, str] = field(default_factory=dict)
    # A problem book's part of one module ("statements" or "answers"), by (book, part, module number): a course's
    # book after an edit renders only the edited module's parts again.
    parts: dict[tuple[str, str, int], tuple[str, str]] = field(default_factory=dict)
    part_keys: dict[tuple[str, int], str] = field(default_factory=dict)
    # Pages on disk, between the builds of different processes.
    store: BlobFolder | None = None
    # Under `mkdocs serve`, pages go to the store when it stops (`flush`): a rebuild after an edit does not wait
    # for its course's books to be written.
    deferred: bool = False
    # Other plugins handle pages' Markdown: a page one of them changes is converted afresh, and its books
    # assembled again (their sources' pieces are read at the start). Others see a page's HTML: a stored page
    # keeps its formulas' marks, which they get as a build without the cache gives them.
    others_change_markdown: bool = False
    others_see_content: bool = False
    # No page is kept: another plugin changes pages' HTML before they are assembled, or an extension's output
    # depends on what no file holds (incremental.reads.UNTRACED_EXTENSIONS).
    keeps_none: bool = False
    # What this build finds for each read a kept page's making recorded; the problem books' sources.
    digests: Digests = field(default_factory=Digests)
    sources: dict[str, list[str]] = field(default_factory=dict)
    # The keys this process knows are in the store, and the generated pages this build looked for there and did
    # not find.
    on_disk: set[str] = field(default_factory=set)
    not_stored: set[str] = field(default_factory=set)
    plans: dict[str, PagePlan] = field(default_factory=dict)
    # The pages this build found may be taken (`unchanged`).
    verified: set[str] = field(default_factory=set)
    writing: ThreadPoolExecutor | None = field(default=None, repr=False)

    def start(self, plans: dict[str, PagePlan], site: str, courses: list[Course], folders: dict[Path, str]) -> None:
        """This build's keys, from the digest of each module's folder as it was read (`folders`); a page that is no
        longer generated leaves the cache."""
        # A module's part: its folder, its course's file, and what its code read outside them.
        modules = {id(module): digest(file_bytes(course.path / "course.yml"), folders[module.path],
                                      json.dumps(sorted(module.outside.items())))
                   for course in courses for module in course.modules}
        markdown = {uri: plan.markdown() for uri, plan in plans.items()}
        self.keys = {} if self.keeps_none else {uri: digest(site, markdown[uri], modules[id(plan.module)])
                                                 for uri, plan in plans.items() if not isinstance(plan, BookPlan)}
        by_plan = {id(plan): self.keys[uri] for uri, plan in plans.items() if uri in self.keys}
        self.part_keys = {}
        for uri, plan in plans.items():
            if isinstance(plan, BookPlan) and all(id(source) in by_plan for source in plan.sources):
                self.keys[uri] = digest(site, markdown[uri], *(by_plan[id(source)] for source in plan.sources))
                for module in plan.modules:
                    sources = (by_plan[id(source)] for source in plan.sources if source.module is module)
                    self.part_keys[uri, module.number] = digest(site, markdown[uri], *sources)
        self.pages = {uri: page for uri, page in self.pages.items() if uri in self.keys}
        uris = {id(plan): uri for uri, plan in plans.items()}
        self.sources = {uri: [uris[id(source)] for source in plan.sources]
                        for uri, plan in plans.items() if isinstance(plan, BookPlan)}
        self.digests = Digests()
        self.verified = set()
        self.not_stored = set()
        self.plans = plans
        self.parts = {place: part for place, part in self.parts.items() if (place[0], place[2]) in self.part_keys}

    def settle(self) -> None:
        """Which generated pages this build takes as they were, decided before any is built; a problem book that
        is assembled again needs its sources' pieces, and a source whose stored pieces cannot be read is
        converted again instead."""
        for uri in self.plans:
            self.unchanged(uri)
        for uri, plan in self.plans.items():
            if isinstance(plan, BookPlan) and (self.unchanged(uri) is None or self.others_change_markdown):
                sources = {id(source) for source in plan.sources}
                for source_uri, source in self.plans.items():
                    if id(source) in sources and not self.with_pieces(source_uri):
                        del self.pages[source_uri]
                        self.not_stored.add(source_uri)

    def not_this_time(self, uri: str) -> None:
        """The page is converted and assembled afresh, and not kept (another plugin changed its Markdown), and so
        are the books that take its text."""
        source = self.plans[uri]
        for other, plan in self.plans.items():
            if other == uri or (isinstance(plan, BookPlan) and any(taken is source for taken in plan.sources)):
                self.pages.pop(other, None)
                self.not_stored.add(other)
                self.keys.pop(other, None)

    def with_pieces(self, uri: str) -> bool:
        page = self.unchanged(uri)
        if page is None:
            return True
        if page.rendered is None and page.pieces_apart and self.store is not None:
            page.rendered = self.store.get(page.key + PIECES, STORED_PIECES)
        return page.rendered is not None or not page.pieces_apart

    def reuse(self, uri: str) -> Callable[..., str]:
        """For `Renderer.assemble`: a book's part of a module as the last build rendered it, if nothing it is made
        of changed; rendered (and kept) otherwise."""

        def part(name: str, module: Module, macro: Callable[..., str], *arguments: Any) -> str:
            key = self.part_key(uri, module)
            kept = self.parts.get((uri, name, module.number))
            if key is not None and kept is not None and kept[0] == key:
                return Markup(kept[1])
            html = macro(module, *arguments)
            if key is not None:
                self.parts[uri, name, module.number] = (key, str(html))
            return html

        return part

    def part_key(self, uri: str, module: Module) -> str | None:
        """A book's part of a module is its sources' as they are now: their keys, and what their making read (a
        snippet pasted into a question), found when each source was made, in this build or kept from one before."""
        key = self.part_keys.get((uri, module.number))
        sources = [self.kept(source) for source in self.sources.get(uri, ()) if self.plans[source].module is module]
        if key is None or any(source is None or source.reads is None for source in sources):
            return None
        return digest(key, json.dumps([source.reads for source in sources], sort_keys=True))

    def unchanged(self, uri: str) -> CachedPage | None:
        """The page as a build made it, if this build may take it: its key is this build's, and whatever its
        making read finds the same now (a problem book's: its sources' too)."""
        page = self.kept(uri)
        if page is None or uri in self.verified:
            return page
        if not self.digests.hold(page.reads) or not all(self.unchanged(source) for source in self.sources.get(uri, ())):
            self.pages.pop(uri, None)
            self.not_stored.add(uri)
            return None
        self.verified.add(uri)
        return page

    def kept(self, uri: str) -> CachedPage | None:
        key = self.keys.get(uri)
        page = self.pages.get(uri)
        if page is not None and page.key == key:
            return page
        if key is None or self.store is None or uri in self.not_stored:
            return None
        found = self.store.get(key, STORED_PAGE)
        html = self.store.get_bytes(key + HTML, found.html_checksum) if found is not None else None
        if found is None or found.key != key or html is None:
            self.not_stored.add(uri)
            return None
        found.content, found.html = None, html
        self.pages[uri] = found
        self.on_disk.add(key)
        return found

    def given(self, uri: str) -> str:
        """What a kept page's conversion gives MkDocs: its HTML."""
        page = self.unchanged(uri)
        assert page is not None, "only a kept page is given"
        return page.text()

    def as_written(self, uri: str) -> str:
        """A kept page's HTML as written (the formulas' marks out)."""
        page = self.unchanged(uri)
        assert page is not None, "only a kept page is written as kept"
        if page.final is None:
            page.final = page.text() if page.as_written else without_marks(page.text())
        return page.final

    def keep(self, uri: str, content: str, rendered: list[str] | None, anchors: set[str] | None,
             links: dict[str, dict[str, str]] | None, formulas: list[tuple[str, bool]], warned: bool,
             reads: Recording | None) -> None:
        """Keep a page just converted and assembled, with what its making read, unless its build warned (a later
        build must warn again), its making cannot be known from what it read, or MkDocs recorded no links of it
        (it records none when its log shows debug messages, `mkdocs build -v`: a kept page would escape later
        builds' anchor checks)."""
        found = self.digests.settle(reads) if reads is not None else None
        if uri in self.keys and links is not None and not warned and found is not None:
            self.pages[uri] = CachedPage(self.keys[uri], content, rendered, anchors=sorted(anchors or ()),
                                         links=links, formulas=sorted(set(formulas)), reads=found)
            self.verified.add(uri)

    def finished(self, uri: str) -> None:
        """The page is built: a new one goes to the store."""
        page = self.unchanged(uri)
        if page is not None and not self.deferred:
            self.write(page)

    def flush(self) -> None:
        """Write the pages kept in memory that the store lacks (`mkdocs serve` stopping)."""
        current = set(self.keys.values())
        for page in list(self.pages.values()):
            if page.key in current and page.search is not None:
                self.write(page)
        self.written()

    def write(self, page: CachedPage) -> None:
        """Store a page, on a thread of its own: writing a large course's pages (about as many bytes as its
        site) goes on while MkDocs builds the next ones. `written` waits for it."""
        if self.store is None or page.key in self.on_disk:
            return
        # As written (the formulas' marks out), unless other plugins see it: a page from the store needs them no
        # more, as its search text comes with it. Its pieces and its HTML apart: only a book assembled again
        # reads the pieces, and a page taken whole needs its HTML only as bytes.
        as_written = not self.others_see_content and (page.final is not None or page.as_written)
        content = page.final if page.final is not None and as_written else page.text()
        stored = replace(page, content=None, final=None, rendered=None, pieces_apart=page.rendered is not None,
                         html=None, as_written=as_written)
        self.on_disk.add(page.key)
        if self.writing is None:
            self.writing = ThreadPoolExecutor(1, thread_name_prefix="zadachnik-pages")
        self.writing.submit(put_page, self.store, page.key, page.rendered, content, stored)

    def written(self) -> None:
        if self.writing is not None:
            self.writing.shutdown(wait=True)
            self.writing = None

    def end_build(self) -> None:
        """After a build that passed: the store keeps this build's pages only."""
        self.written()
        current = set(self.keys.values())
        self.on_disk &= current
        if self.store is not None:
            self.store.keep_only(current | {key + part for key in current for part in (PIECES, HTML)})


def put_page(store: BlobFolder, key: str, pieces: list[str] | None, content: str, page: CachedPage) -> None:
    # A lone surrogate (from an author's text) is kept as it is, so the page reads back as it was made.
    html = content.encode("utf-8", "surrogatepass")
    page.html_checksum = zlib.crc32(html)
    try:
        if pieces is not None:
            store.put(key + PIECES, pieces)
        store.put_bytes(key + HTML, html)
        store.put(key, page)
    except OSError:
        pass  # the site is built all the same; only later builds convert more


def digest(*parts: str) -> str:
    hashed = hashlib.sha256()
    for part in parts:
        hashed.update(part.encode("utf-8", "surrogatepass"))
        hashed.update(b"\0")
    return hashed.hexdigest()


def site_digest(config_file: Path, settings: Any, addresses: Iterable[tuple[str, str]], languages: list[str]) -> str:
    """What every generated page depends on besides its module: the site's configuration (its file, and the
    settings MkDocs resolved from it), every file's address, and the words of the site's languages."""
    words = {lang: [strings(lang), runtime_strings(lang)] for lang in languages}
    return digest(file_bytes(config_file), json.dumps(plain(settings), sort_keys=True, default=named),
                  json.dumps(sorted(addresses)), json.dumps(plain(words), sort_keys=True, default=named))


def plain(value: Any) -> Any:
    """Settings as JSON's own kinds: mappings of any class (MkDocs' configs, the theme) as dicts, sequences as
    lists, the rest as they are (`named` writes what JSON has no form for)."""
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [plain(item) for item in value]
        return sorted(items, key=repr) if isinstance(value, set | frozenset) else items
    return value


def named(value: Any) -> str:
    """A setting JSON has no form for, as the same text in every process: a function or class (such as
    `!!python/name:material.extensions.emoji.twemoji`) by its qualified name (its code is in the fingerprint);
    anything else by its repr, which may hold an address, so that a value this cannot tell apart keeps no page."""
    module, name = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if isinstance(module, str) and isinstance(name, str):
        return f"{module}.{name}"
    if isinstance(value, functools.partial):
        return f"partial({named(value.func)}, {value.args!r}, {value.keywords!r})"
    if callable(getattr(value, "getConfigs", None)):
        # A Markdown extension given as an object (a plugin adds ours so): its class and its settings.
        kind = type(value)
        return f"{kind.__module__}.{kind.__qualname__}" + json.dumps(plain(value.getConfigs()), sort_keys=True,
                                                                    default=named)
    return repr(value)


def file_bytes(path: Path) -> str:
    try:
        return path.read_bytes().decode("latin-1")
    except OSError:
        return ""
