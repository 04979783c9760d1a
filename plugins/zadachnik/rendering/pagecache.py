"""Generated pages kept between the builds of one `mkdocs serve`: a rebuild after an edit converts and assembles
only the pages whose module (or site) changed, and takes every other generated page as the last build left it.

A page's key covers everything its HTML is made of: the site's settings and words, every file's address (links
are resolved against them), the page's own Markdown (all its author text), and the bytes of its module's sources
and course files (its questions' keys, values and notebooks). A problem book's key is its sources' keys: it takes
its text from its modules' pages. A page whose key is unchanged gives the same HTML, so it is not rebuilt.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from zadachnik.reading.model import Course, Module
from zadachnik.rendering.book import BookPlan
from zadachnik.rendering.i18n import runtime_strings, strings
from zadachnik.rendering.render import PagePlan


@dataclass
class CachedPage:
    key: str
    content: str
    # Each piece's HTML, for the problem books that take their text from the page.
    rendered: list[str] | None
    # What search is given of the page, and the page's HTML as written (plugin.py's page context), once known.
    search: str | None = None
    final: str | None = None


@dataclass
class PageCache:
    pages: dict[str, CachedPage] = field(default_factory=dict)
    # This build's key of each generated page, by its source address.
    keys: dict[str, str] = field(default_factory=dict)
    # A problem book's part of one module ("statements" or "answers"), by (book, part, module number): a course's
    # book after an edit renders only the edited module's parts again.
    parts: dict[tuple[str, str, int], tuple[str, str]] = field(default_factory=dict)
    part_keys: dict[tuple[str, int], str] = field(default_factory=dict)

    def start(self, plans: dict[str, PagePlan], site: str, courses: list[Course], folders: dict[Path, str]) -> None:
        """This build's keys, from the digest of each module's folder as it was read (`folders`); a page that is no
        longer generated leaves the cache."""
        modules = {id(module): digest(file_bytes(course.path / "course.yml"), folders[module.path])
                   for course in courses for module in course.modules}
        self.keys = {uri: digest(site, plan.markdown(), modules[id(plan.module)])
                     for uri, plan in plans.items() if not isinstance(plan, BookPlan)}
        by_plan = {id(plan): self.keys[uri] for uri, plan in plans.items() if uri in self.keys}
        self.part_keys = {}
        for uri, plan in plans.items():
            if isinstance(plan, BookPlan):
                self.keys[uri] = digest(site, plan.markdown(), *(by_plan[id(source)] for source in plan.sources))
                for module in plan.modules:
                    sources = (by_plan[id(source)] for source in plan.sources if source.module is module)
                    self.part_keys[uri, module.number] = digest(site, plan.markdown(), *sources)
        self.pages = {uri: page for uri, page in self.pages.items() if uri in self.keys}
        self.parts = {place: part for place, part in self.parts.items() if (place[0], place[2]) in self.part_keys}

    def reuse(self, uri: str) -> Callable[..., str]:
        """For `Renderer.assemble`: a book's part of a module as the last build rendered it, if nothing it is made
        of changed; rendered (and kept) otherwise."""

        def part(name: str, module: Module, macro: Callable[..., str], *arguments: Any) -> str:
            key = self.part_keys.get((uri, module.number))
            kept = self.parts.get((uri, name, module.number))
            if key is not None and kept is not None and kept[0] == key:
                return Markup(kept[1])
            html = macro(module, *arguments)
            if key is not None:
                self.parts[uri, name, module.number] = (key, str(html))
            return html

        return part

    def unchanged(self, uri: str) -> CachedPage | None:
        page = self.pages.get(uri)
        return page if page is not None and page.key == self.keys.get(uri) else None

    def keep(self, uri: str, content: str, rendered: list[str] | None) -> None:
        if uri in self.keys:
            self.pages[uri] = CachedPage(self.keys[uri], content, rendered)


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
    return digest(file_bytes(config_file), json.dumps(settings, sort_keys=True, default=repr),
                  json.dumps(sorted(addresses)), json.dumps(words, sort_keys=True, default=repr))


def file_bytes(path: Path) -> str:
    try:
        return path.read_bytes().decode("latin-1")
    except OSError:
        return ""
