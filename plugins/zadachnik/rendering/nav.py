"""The site's navigation as each language sees it: its own hand-written pages, then the courses after its home.

Written against MkDocs' navigation objects without importing MkDocs (only the plugin does): the classes of a
page, a section and a navigation come in as `NavTypes`, and pages are told from sections by them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from zadachnik.reading.model import Course
from zadachnik.rendering.book import book_uri, has_book
from zadachnik.rendering.i18n import strings
from zadachnik.rendering.render import KINDS, module_has
from zadachnik.rendering.site import Languages, module_page_uri


@dataclass(frozen=True)
class NavTypes:
    page: type
    section: type
    navigation: type


def language_nav(nav: Any, courses: list[Course], languages: Languages, lang: str, types: NavTypes,
                 page_at: Callable[[str], Any]) -> Any:
    """`nav` as seen from `lang`; `page_at(src_uri)` is the page object of a file, or None."""
    generated = {module_page_uri(c, m, k, lang, languages) for c in courses for m in c.modules for k in KINDS}
    # This language's folder (en/) comes back from filter_item as a list of its pages: they belong at the top.
    items = flatten([item for item in (filter_item(i, languages, lang, generated, types) for i in nav.items)
                     if item is not None])
    home_uri = f"{languages.prefix(lang)}index.md"
    home_at = next((i for i, item in enumerate(items)
                    if isinstance(item, types.page) and item.file.src_uri == home_uri), -1)
    t = strings(lang)
    course_sections = []
    for course in courses:
        modules = []
        for module in course.modules:
            pages = [page_at(module_page_uri(course, module, kind, lang, languages)) for kind in KINDS
                     if module_has(module, kind)]
            if has_book(module):
                pages.append(page_at(book_uri(course, module, lang, languages)))
            modules.append(types.section(t["module"].format(number=module.number, title=module.title[lang]), pages))
        # The course's problem book after its modules.
        course_book = page_at(book_uri(course, None, lang, languages))
        course_sections.append(types.section(course.title[lang], [*modules, *([course_book] if course_book else [])]))
    items[home_at + 1:home_at + 1] = course_sections
    pages = list(walk_pages(items, types))
    link_structure(items, None, types)
    for previous, page in zip([None, *pages[:-1]], pages, strict=True):
        page.previous_page = previous
        if previous is not None:
            previous.next_page = page
    if pages:
        pages[-1].next_page = None
    result = types.navigation(items, pages)
    home = page_at(home_uri)
    if home is not None:
        result.homepage = home
    return result


def filter_item(item: Any, languages: Languages, lang: str, generated: set[str], types: NavTypes) -> Any:
    """A copy of a nav item holding only this language's hand-written pages, unwrapping the language folder."""
    if isinstance(item, types.page):
        uri = item.file.src_uri
        keep = languages.of(uri) == lang and uri not in generated and not item.file.generated_by
        return item if keep else None
    if isinstance(item, types.section):
        children = [c for c in (filter_item(child, languages, lang, generated, types) for child in item.children)
                    if c]
        if not children:
            return None
        if item.title.lower() == lang and lang != languages.default:
            return children if len(children) > 1 else children[0]
        return types.section(item.title, flatten(children))
    return item if lang == languages.default else None


def flatten(items: list[Any]) -> list[Any]:
    result: list[Any] = []
    for item in items:
        result.extend(item if isinstance(item, list) else [item])
    return result


def walk_pages(items: list[Any], types: NavTypes) -> Iterator[Any]:
    for item in flatten(items):
        if isinstance(item, types.page):
            yield item
        elif isinstance(item, types.section):
            yield from walk_pages(item.children, types)


def link_structure(items: list[Any], parent: Any, types: NavTypes) -> None:
    for item in flatten(items):
        item.parent = parent
        if isinstance(item, types.section):
            item.children = flatten(item.children)
            link_structure(item.children, item, types)


def short_nav_titles(plans: Mapping[str, Any], page_at: Callable[[str], Any]) -> None:
    """A generated page's title names its module, for browser tabs and search (its front matter); the
    navigation, where the page sits under its module, calls it by its kind ("Quiz"). MkDocs' Page.title can be
    set for good, and mkdocs-material's <title> and search read the front matter's."""
    for uri, plan in plans.items():
        page = page_at(uri)
        if page is not None:
            page.title = plan.title
