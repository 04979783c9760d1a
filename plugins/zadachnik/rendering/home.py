"""A hand-written page's course list: found where its marker stands, written in the page's language."""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Callable
from urllib.parse import quote

from zadachnik.core.errors import SourceError
from zadachnik.reading.model import Course, Module
from zadachnik.reading.source import track_fence
from zadachnik.rendering.i18n import strings
from zadachnik.rendering.render import KINDS, module_has
from zadachnik.rendering.site import Languages, module_page_uri

# Where a hand-written page gets the course list: a line of its own, outside code blocks. The div holds a note that
# a build without Zadachnik (another builder, or the plugin left out) shows in the list's place; the plugin replaces
# the div whole. The bare comment is the older marker, still read, but invisible when nothing replaces it.
HOME_MARKER = "<!-- zadachnik:courses -->"
_HOME_MARKER_LINE = re.compile(r"^ {0,3}<!-- zadachnik:courses -->[ \t]*$")
_COURSE_LIST_START = re.compile(r"""^ {0,3}<div\b[^>]*\bclass\s*=\s*["'][^"']*\bzadachnik-courses\b""")
_COURSE_LIST_END = "</div>"


class UnclosedCourseList(ValueError):
    def __init__(self, index: int) -> None:
        super().__init__(f"the course list opened at line {index + 1} has no </div>")
        self.index = index


def course_list(courses: list[Course], languages: Languages, page_uri: str, heading_ids: bool = False) -> str:
    """The list for the page at `page_uri`: its language's titles, links relative to it; with `heading_ids`
    (the site has attr_list), each course's heading has the course's id, the same in every language."""
    lang = languages.of(page_uri)
    here = posixpath.dirname(page_uri)

    def link(course: Course, module: Module, kind: str) -> str:
        # Quoted: a module folder's space, Cyrillic or '&' is part of the address, not of the Markdown.
        return quote(posixpath.relpath(module_page_uri(course, module, kind, lang, languages), here or "."))

    return home_listing(courses, lang, link, heading_ids)


def home_listing(courses: list[Course], lang: str, link: Callable[[Course, Module, str], str],
                 heading_ids: bool = False) -> str:
    """Markdown for the list: each course with its modules and their pages, and the places the browser fills from
    the learner's storage (progress.js): "Continue where you left off", the storage notice the quiz pages give,
    and each module's progress line, under its title."""
    t = strings(lang)
    continue_link = f"<a>{html.escape(t['continue_learning'])}</a>"
    lines = [
        f'<p class="zq-continue" data-zq-continue data-zq-lang="{lang}" hidden>{continue_link}</p>',
        "",
        '<p class="zq-storage" data-zq-storage hidden></p>',
        "",
    ]
    for course in courses:
        # The language switch keeps the place: "#modern-llms" on every language's home page.
        lines.append(f"## {course.title[lang]}" + (f" {{: #{course.id} }}" if heading_ids else "") + "\n")
        for module in course.modules:
            pages = [f"[{t[kind]}]({link(course, module, kind)})" for kind in KINDS if module_has(module, kind)]
            title = t["module"].format(number=module.number, title=module.title[lang])
            module_id = html.escape(f"{course.id}/{module.number}")
            place = f'<span class="zq-home-progress" data-zq-progress-of="{module_id}"></span>'
            lines.append(f"- {title} · {' · '.join(pages)} {place}")
        lines.append("")
    return "\n".join(lines)


def with_course_lists(markdown: str, listing: str) -> str:
    """The page with each course-list marker replaced by `listing`; a marker shown in a code block stays."""
    lines = markdown.split("\n")
    result: list[str] = []
    fence: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        start = _COURSE_LIST_START.match(line) if fence is None else None
        if start is None and (fence is not None or not _HOME_MARKER_LINE.match(line)):
            fence = track_fence(line, fence)
            result.append(line)
            index += 1
            continue
        end = index
        if start is not None:
            # The note may span lines; the div ends at the first </div> after its opening tag.
            while end < len(lines) and _COURSE_LIST_END not in lines[end][start.end() if end == index else 0:]:
                end += 1
            if end == len(lines):
                raise UnclosedCourseList(index)
        rest = lines[end].split(_COURSE_LIST_END, 1)[1].strip() if start is not None else ""
        result.extend(["", listing, "", *([rest] if rest else [])])
        index = end + 1
    return "\n".join(result)


def has_course_list(markdown: str) -> bool:
    """Cheap test before the line walk: most pages have no marker at all."""
    return "zadachnik-courses" in markdown or HOME_MARKER in markdown


def unclosed_course_list(shown: str, source: str, markdown: str, index: int) -> SourceError:
    """The error at the opening div's line in the file, whose front matter `markdown` (the page's text) lacks."""
    skipped = source[: len(source) - len(markdown)].count("\n") if source.endswith(markdown) else 0
    return SourceError(
        shown, skipped + index + 1,
        'the course list\'s <div class="zadachnik-courses"> has no </div>',
        'close it after the note: <div class="zadachnik-courses">The course list is made by the Zadachnik '
        "plugin, which did not run when this site was built.</div>",
    )
