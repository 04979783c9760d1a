"""The problem book: a module's questions and exercises on one page to print, numbered as on the site, with every
answer and solution at the back, as printed задачники have them; and the course's book, its modules' books one
after another. The page needs no script and no storage: it is read and printed, in every language.

A book is a generated page like the quiz (its plan holds the same pieces of author text, rendered by MkDocs in one
pass) and is assembled by `Renderer.assemble` from templates/book.html. Its pages come after every quiz and
exercises page of the build: a fragment that breaks a page breaks the module's own page first, whose source the
message names.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zadachnik.core.text import Fragment
from zadachnik.reading.model import Course, Module, Section
from zadachnik.rendering.i18n import strings
from zadachnik.rendering.render import PagePlan
from zadachnik.rendering.site import Languages

BOOK = "book"
# A reference (`[[E1]]`, see model.resolve_references) links to an anchor on its page or on the module's other
# page. In a book both pages are on one page; in a course's book every module's anchors carry its number.
_REFERENCE_LINK = re.compile(r"\]\((?:(?:quiz|exercises)\.md)?#([sqe]-[^)\s]+)\)")


@dataclass
class BookPlan(PagePlan):
    """A problem book: one module's (`modules` holds just it) or a whole course's (`whole_course`)."""

    modules: list[Module] = field(default_factory=list)
    whole_course: bool = False

    @property
    def source(self) -> Path:
        module = self.modules[0]
        return module.path / ("quiz.md" if module.quiz is not None else "exercises.md")

    @property
    def title(self) -> str:
        t = strings(self.lang)
        return t["course_book"] if self.whole_course else t["book"]

    def prefix(self, module: Module) -> str:
        """What a module's anchors start with on this page: nothing in its own book, its number in the course's."""
        return f"m{module.number}-" if self.whole_course else ""

    def add_text(self, module: Module, fragment: Fragment) -> None:
        """A piece of the module's text, its references pointing into this page."""
        if "](" not in fragment.markdown:
            self.add(fragment)
            return
        prefix = self.prefix(module)
        relinked = Fragment(_REFERENCE_LINK.sub(lambda m: f"](#{prefix}{m.group(1)})", fragment.markdown),
                            fragment.line)
        # Found by the module's own fragment, as the templates ask for it; rendered from the relinked copy.
        self._index[id(fragment)] = len(self.pieces)
        self.pieces.append(relinked)

    def anchor_ids(self) -> list[str]:
        ids = []
        for module in self.modules:
            prefix = self.prefix(module)
            if self.whole_course:
                ids.append(f"{prefix}module")
            for item in module.quiz or []:
                ids.append(f"{prefix}{'s' if isinstance(item, Section) else 'q'}-{item.id}")
            ids.extend(f"{prefix}e-{exercise.id}" for exercise in module.exercises or [])
        return ids

    def markdown(self) -> str:
        # The book repeats its modules' pages word for word: search leads to those (mkdocs-material's front matter).
        return super().markdown().replace("---\n", "---\nsearch:\n  exclude: true\n", 1)

    def anchors(self) -> str:
        """The ids the page's references link to, for MkDocs' check of anchors (see PagePlan.anchors)."""
        spans = "".join(f'<span id="{html.escape(anchor)}"></span>' for anchor in self.anchor_ids())
        return f"<div hidden>{spans}</div>\n" if spans else ""


def plan_book(course: Course, modules: list[Module], lang: str, languages: list[str], whole_course: bool) -> BookPlan:
    """Every piece of the modules' text in one language, in the order the book shows them."""
    plan = BookPlan(course, modules[0], BOOK, lang, languages=list(languages), modules=modules,
                    whole_course=whole_course)
    for module in modules:
        for item in module.quiz or []:
            if isinstance(item, Section):
                plan.add_text(module, item.title[lang])
                continue
            for fragment in (item.title[lang], item.body[lang]):
                plan.add_text(module, fragment)
            for entries in item.lists.values():
                for entry in entries:
                    plan.add_text(module, entry.text[lang])
            plan.add_text(module, item.explanation[lang])
        for exercise in module.exercises or []:
            for fragment in (exercise.title[lang], exercise.statement[lang], exercise.solution[lang]):
                plan.add_text(module, fragment)
            if exercise.criteria:
                plan.add_text(module, exercise.criteria[lang])
    return plan


def has_book(module: Module) -> bool:
    return module.quiz is not None or module.exercises is not None


def book_uri(course: Course, module: Module | None, lang: str, languages: Languages) -> str:
    """A module's book beside its quiz and exercises; the course's in the course's folder."""
    folder = f"{course.id}/{module.slug}" if module is not None else course.id
    return f"{languages.prefix(lang)}{folder}/{BOOK}.md"


def plan_books(courses: list[Course], languages: Languages) -> dict[str, BookPlan]:
    """Each module's book and each course's, in every language."""
    plans: dict[str, BookPlan] = {}
    for course in courses:
        modules = [module for module in course.modules if has_book(module)]
        for lang in languages.codes:
            for module in modules:
                plans[book_uri(course, module, lang, languages)] = plan_book(course, [module], lang,
                                                                             languages.codes, False)
            if modules:
                plans[book_uri(course, None, lang, languages)] = plan_book(course, modules, lang, languages.codes,
                                                                           True)
    return plans


# The link to a module's book on its quiz and exercises pages: Markdown, so MkDocs writes it in the site's URL
# style and checks it.
BOOK_LINK_LINE = 1


def book_link(lang: str) -> Fragment:
    return Fragment(f"[{strings(lang)['book_link']}]({BOOK}.md)", BOOK_LINK_LINE)


def book_toc(plan: BookPlan) -> list[dict[str, Any]]:
    """The book's parts as Python-Markdown's toc tokens: each module (in a course's book), its questions and
    exercises, and the answers."""
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
    parts.append(token(2, "book-answers", t["book_answers"]))
    return parts


def add_book_links(plans: Iterable[PagePlan]) -> None:
    """Each quiz and exercises page links its module's book, next to its course files."""
    for plan in plans:
        if plan.kind != BOOK:
            plan.book_link = book_link(plan.lang)
            plan.add(plan.book_link)
