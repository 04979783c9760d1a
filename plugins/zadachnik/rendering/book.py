"""The problem book: a module's questions and exercises on one page to print, numbered as on the site, then the
hints, then every answer and solution, as printed задачники have them; and for a course of two modules or more, the
course's book, its modules' books one after another (a course of one module would have the same book twice). The
page needs no script and no storage: it is read and printed, in every language.

A book is a generated page assembled by `Renderer.assemble` from templates/book.html, like the quiz. Its author
text is the text its modules' quiz and exercises pages rendered (see BookPlan): its pages come after all of those
in the build, so a fragment that breaks a page breaks the module's own page, whose source the message names.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from markupsafe import Markup

from zadachnik.core.text import Fragment
from zadachnik.reading.model import Course, Module, Section
from zadachnik.rendering.footnotes import NOTE_ANCHOR
from zadachnik.rendering.i18n import strings
from zadachnik.rendering.ids import in_page, rename_ids
from zadachnik.rendering.render import PagePlan, split_pieces
from zadachnik.rendering.site import Languages

BOOK = "book"
# An address with a scheme, or from the server's root: it leads to the same place from the book as from the page.
_ABSOLUTE = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|/)")
# Stands for the book's folder while addresses are resolved: only the relation of paths matters, and the folders
# above it leave room for an address that leads up and out of the course (to the home page).
_SITE = "file:///" + "up/" * 16


@dataclass
class BookPlan(PagePlan):
    """A problem book: one module's (`modules` holds just it) or a whole course's (`whole_course`).

    Its author text is not converted again: each piece is taken as its module's quiz or exercises page rendered
    it (`sources`, assembled first), a book costing no Markdown pass. A rendered piece's addresses are relative to
    that page; the book's own Markdown holds one link per module to its quiz or exercises page, which MkDocs writes
    relative to the book in the site's URL style, and from it each address is moved to the book: a link to a
    question or an exercise of the module becomes a link into the book."""

    modules: list[Module] = field(default_factory=list)
    whole_course: bool = False
    sources: list[PagePlan] = field(default_factory=list)
    # A link from the book to each module's page (its Markdown piece), by module number.
    module_links: dict[int, Fragment] = field(default_factory=dict)
    # Each module's page relative to the book, as MkDocs wrote the link (set while the book is assembled).
    module_pages: dict[int, str] = field(default_factory=dict)
    # Each module's course files zip: its name and its address relative to the book (set the same way).
    module_files: dict[int, tuple[str, str]] = field(default_factory=dict)

    @property
    def source(self) -> Path:
        module = self.modules[0]
        return module.path / ("quiz.md" if module.quiz is not None else "exercises.md")

    @property
    def title(self) -> str:
        t = strings(self.lang)
        return t["course_book"] if self.whole_course else t["book"]

    @property
    def full_title(self) -> str:
        return f"{self.course.title[self.lang]} · {self.title}" if self.whole_course else super().full_title

    @property
    def answered(self) -> list[Module]:
        """The modules whose hints, answers and solutions the book prints: not an exam's, whose page shows none
        before it is submitted (its book, one click from it, prints the statements only)."""
        return [module for module in self.modules if module.exam is None]

    @property
    def hint_rounds(self) -> list[tuple[int, list[Module]]]:
        """The book's hints, between the statements and the answers, by rounds: round n holds every question's
        n-th hint, each round from a new page, so that a reader looking up a first hint sees no later one (a
        question's last hint is often nearly its answer). Each round's number and the modules it has hints of."""
        most = max((len(question.hints) for module in self.answered for question in module.questions), default=0)
        return [(number, [module for module in self.answered
                          if any(len(question.hints) >= number for question in module.questions)])
                for number in range(1, most + 1)]

    def hints_title(self, number: int) -> str:
        """A round of hints' title: "Hints, round 2", or "Hints" when every question has one hint at most."""
        t = strings(self.lang)
        return t["hints_round"].format(number=number) if len(self.hint_rounds) > 1 else t["hints"]

    def course_files_link(self, module: Module) -> Markup | None:
        """A link to the module's course files zip, named by its file, for the notebooks its exercises name."""
        if module.number not in self.module_files:
            return None
        name, address = self.module_files[module.number]
        return Markup('<a href="{}" download>{}</a>').format(address, name)

    def prefix(self, module: Module) -> str:
        """What a module's anchors start with on this page: nothing in its own book, its number in the course's."""
        return f"m{module.number}-" if self.whole_course else ""

    def markdown(self) -> str:
        # The book repeats its modules' pages word for word: search leads to those (mkdocs-material's front matter).
        return super().markdown().replace("---\n", "---\nsearch:\n  exclude: true\n", 1)

    def anchors(self) -> str:
        # The book's Markdown holds no reference to check: its text comes rendered (`rendered_pieces`).
        return ""

    def rendered_pieces(self, page_html: str) -> list[str]:
        """Each module's text as its own pages rendered it, in the order of `index`, written into the book by a
        `Mover` of its page."""
        own = split_pieces(self, page_html)
        links = {number: own[self.index(fragment)] for number, fragment in self.module_links.items()}
        borrowed: list[str] = []
        self._index.clear()
        for source in self.sources:
            if source.rendered is None:
                raise RuntimeError(f"the book of {source.source} is assembled before the page it takes its text from")
            module_page = _HREF.search(links[source.module.number])
            assert module_page is not None, "a module link is a link"
            self.module_pages[source.module.number] = html.unescape(module_page.group(1))
            mover = Mover(book_address(module_page.group(1)), module_page.group(1), self.prefix(source.module),
                          f"{source.kind}-", module_anchors(source.module))
            if source.course_files is not None and source.files_link:
                self.module_files[source.module.number] = (source.course_files.archive_name,
                                                           mover.address(source.files_link))
            for fragment, piece in zip(source.pieces, source.rendered, strict=True):
                self._index[id(fragment)] = len(borrowed)
                borrowed.append(mover.piece(piece))
        return borrowed


def book_address(module_page: str) -> str:
    """The book's own address, in the URL style its link to a module's page shows (folder or .html)."""
    return f"{_SITE}book/" if module_page.endswith("/") else f"{_SITE}book.html"


_HREF = re.compile(r'href="([^"]*)"')


def module_anchors(module: Module) -> frozenset[str]:
    """The anchors the templates give a module's sections, questions and exercises, on its pages and in a book."""
    quiz = [f"{'s' if isinstance(item, Section) else 'q'}-{item.id}" for item in module.quiz or []]
    return frozenset(quiz + [f"e-{exercise.id}" for exercise in module.exercises or []])


@dataclass(frozen=True)
class Mover:
    """A piece rendered on a module's quiz or exercises page as a book writes it. Its addresses are moved from the
    page (`module_page`, relative to the book at `book`) to the book: a link to a question, section or exercise of
    the module (`targets`) leads into the book, any other one is relative to the book's folder instead of the
    page's. Its ids are made the book's own: each page named its ids alone (its headings', its content tabs'
    `__tabbed_1_1`…), and a book holds several pages, so every id of a piece and every reference to one on its page
    (a link, a CSS url(), an attribute naming ids) is given the module's `prefix` and the page's own (`page`:
    "quiz-"), together (rendering/ids.py)."""

    book: str
    module_page: str
    prefix: str
    page: str = ""
    targets: frozenset[str] = frozenset()

    def piece(self, piece: str) -> str:
        return rename_ids(piece, self.anchor, self.address)

    def anchor(self, anchor: str) -> str:
        """An id of the page in the book: the module's own anchors keep their name, the author's get the page's.
        A footnote's are unique over the course already (PagePlan.note_scope), as on the module's pages."""
        if NOTE_ANCHOR.match(anchor):
            return anchor
        return self.prefix + (anchor if anchor in self.targets else self.page + anchor)

    def address(self, address: str) -> str:
        if _ABSOLUTE.match(address):
            return address
        if address.startswith("#"):
            return in_page(address, self.anchor)
        page = urljoin(self.book, self.module_page)
        module_folder = urljoin(page, "../" if page.endswith("/") else "./")
        style = "/" if page.endswith("/") else ".html"
        path, _, anchor = urljoin(page, address).partition("#")
        if anchor in self.targets and path in {f"{module_folder}{name}{style}" for name in ("quiz", "exercises")}:
            return "#" + self.prefix + anchor
        book_folder = urljoin(self.book, "./")
        relative = posixpath.relpath(path.removeprefix("file://"), book_folder.removeprefix("file://"))
        relative += "/" if path.endswith("/") and relative != "." else ""
        relative = "./" if relative == "." else relative
        return relative + ("#" + anchor if anchor else "")


def plan_book(course: Course, modules: list[Module], sources: list[PagePlan], lang: str, languages: list[str],
              whole_course: bool) -> BookPlan:
    """The book's own Markdown: a link to each module's page, which tells how to move the addresses of its text."""
    plan = BookPlan(course, modules[0], BOOK, lang, languages=list(languages), modules=modules,
                    whole_course=whole_course, sources=sources)
    for module in modules:
        page = "quiz.md" if module.quiz is not None else "exercises.md"
        link = Fragment(f"[{module.number}]({f'{module.slug}/' if whole_course else ''}{page})", BOOK_LINK_LINE)
        plan.module_links[module.number] = link
        plan.add(link)
    return plan


def has_book(module: Module) -> bool:
    return module.quiz is not None or module.exercises is not None


def book_uri(course: Course, module: Module | None, lang: str, languages: Languages) -> str:
    """A module's book beside its quiz and exercises; the course's in the course's folder."""
    folder = f"{course.id}/{module.slug}" if module is not None else course.id
    return f"{languages.prefix(lang)}{folder}/{BOOK}.md"


def plan_books(courses: list[Course], languages: Languages, pages: dict[str, PagePlan]) -> dict[str, BookPlan]:
    """Each module's book and, for a course with books of two modules or more, the course's, in every language,
    from the module `pages` in every language."""
    plans: dict[str, BookPlan] = {}
    for course in courses:
        modules = [module for module in course.modules if has_book(module)]
        for lang in languages.codes:
            sources: dict[int, list[PagePlan]] = {module.number: [] for module in modules}
            for plan in pages.values():
                if plan.course is course and plan.lang == lang and plan.kind != BOOK:
                    sources[plan.module.number].append(plan)
            for module in modules:
                plans[book_uri(course, module, lang, languages)] = plan_book(
                    course, [module], sources[module.number], lang, languages.codes, False)
            if len(modules) > 1:
                plans[book_uri(course, None, lang, languages)] = plan_book(
                    course, modules, [plan for module in modules for plan in sources[module.number]], lang,
                    languages.codes, True)
    return plans


# The link to a module's book on its quiz and exercises pages: Markdown, so MkDocs writes it in the site's URL
# style and checks it.
BOOK_LINK_LINE = 1


def book_link(lang: str) -> Fragment:
    return Fragment(f"[{strings(lang)['book_link']}]({BOOK}.md)", BOOK_LINK_LINE)


def book_toc(plan: BookPlan) -> list[dict[str, Any]]:
    """The book's parts as Python-Markdown's toc tokens: each module (in a course's book), its questions and
    exercises, the hints, and the answers."""
    t = strings(plan.lang)

    def token(level: int, anchor: str, name: str, children: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        return {"level": level, "id": anchor, "name": html.escape(name), "children": children or []}

    parts = []
    for module in plan.modules:
        prefix, level = plan.prefix(module), 3 if plan.whole_course else 2
        module_parts = []
        if module.quiz is not None:
            module_parts.append(token(level, f"{prefix}book-quiz", t["quiz"]))
        if module.exercises is not None:
            module_parts.append(token(level, f"{prefix}book-exercises", t["exercises"]))
        if plan.whole_course:
            title = t["module"].format(number=module.number, title=module.title[plan.lang])
            parts.append(token(2, f"{prefix}module", title, module_parts))
        else:
            parts.extend(module_parts)
    for number, _ in plan.hint_rounds:
        parts.append(token(2, f"book-hints-{number}", plan.hints_title(number)))
    if plan.answered:
        parts.append(token(2, "book-answers", t["book_answers"]))
    return parts


def add_book_links(plans: Iterable[PagePlan]) -> None:
    """Each quiz and exercises page links its module's book, next to its course files."""
    for plan in plans:
        if plan.kind != BOOK:
            plan.book_link = book_link(plan.lang)
            plan.add(plan.book_link)
