"""Where pages live in each language, and which page is which page's translation.

The first language is served at the site root, every other one under its code: `authoring.md` and
`en/authoring.md` are one page in two languages, as are the generated `rl-for-llm/12-x/quiz.md` and
`en/rl-for-llm/12-x/quiz.md`.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from zadachnik.core.errors import SourceError
from zadachnik.reading.model import Course, Module
from zadachnik.reading.yamlsource import YamlProblem, load_with_lines


@dataclass
class Languages:
    codes: list[str]

    @property
    def default(self) -> str:
        return self.codes[0]

    def prefix(self, lang: str) -> str:
        return "" if lang == self.default else f"{lang}/"

    def of(self, src_uri: str) -> str:
        head = src_uri.split("/", 1)[0]
        return head if head in self.codes[1:] and "/" in src_uri else self.default

    def neutral(self, src_uri: str) -> str:
        """The path without its language folder: the same for a page in every language."""
        lang = self.of(src_uri)
        return src_uri[len(self.prefix(lang)):]

    def translated(self, src_uri: str, lang: str) -> str:
        return self.prefix(lang) + self.neutral(src_uri)


def missing_home_pages(languages: Languages, has_page: Callable[[str], bool],
                       shown: Callable[[str], str]) -> list[str]:
    """Each language's home page the docs folder lacks, on a site of several languages: the language selector
    leads there, and the language's course list is on it. (`shown`: a docs path as messages name it.)"""
    if len(languages.codes) < 2:
        return []
    homes = {lang: f"{languages.prefix(lang)}index.md" for lang in languages.codes}
    return [f"{shown(uri)} is missing: the {lang} pages have no home page, and the language selector leads to none "
            f"(copy {shown(homes[languages.default])} there and translate it, with its course list)"
            for lang, uri in homes.items() if not has_page(uri)]


def module_page_uri(course: Course, module: Module, kind: str, lang: str, languages: Languages) -> str:
    return f"{languages.prefix(lang)}{course.id}/{module.slug}/{kind}.md"


def course_id_problems(courses: list[Course], languages: Languages, shown: Callable[[Path], str]) -> list[SourceError]:
    """A course whose id is another language's folder would put its pages there, to be taken for that language's
    pages: refused, at the line of its id."""
    problems = []
    for course in courses:
        if course.id not in languages.codes[1:]:
            continue
        path = course.path / "course.yml"
        try:
            _, lines = load_with_lines(path.read_text(encoding="utf-8"))
            line = lines.get(("id",), 0) + 1
        except (OSError, YamlProblem):
            line = 1
        problems.append(SourceError(
            shown(path), line, f"the course id '{course.id}' is also the folder of the pages in '{course.id}'",
            "give the course another id: its pages would be taken for pages in that language",
        ))
    return problems


# What mkdocs-material's language selector looks for beside each page it may lead to: it fetches the sitemap of
# every `<link rel="alternate">` (made for sites with one root per language, where the sitemap maps the page to
# its translation). Ours link each page to its own translation already, so the sitemap has nothing to add; it
# only has to exist, instead of two 404s on every page. The offline copy's pages link no translation in their
# head (offline.without_translation_links): opened from disk, they may fetch nothing.
ALTERNATE_SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<!-- For mkdocs-material's language selector: the site's own sitemap is the one at the top of the site. -->
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
</urlset>
"""


def alternate_sitemaps(page_urls: Iterable[str], taken: set[str]) -> list[str]:
    """A sitemap.xml in the folder of each page's address (`new URL("sitemap.xml", page)`), except where a file
    is already there: the top folder has MkDocs' own."""
    # A page's folder: "en/authoring/" and "en/authoring.html" are in en/authoring and en; the home, "./", is at
    # the top. Addresses are percent-encoded ("01%20basics/"), folders on disk are not.
    folders = {posixpath.normpath(unquote(url) if url.endswith("/") else posixpath.dirname(unquote(url)) or ".")
               for url in page_urls}
    return [uri for uri in (f"{folder}/sitemap.xml" for folder in sorted(folders - {"."})) if uri not in taken]


def write_shared(target: Path, content: bytes, written: list[Path]) -> None:
    """Write `content` (the same bytes in many folders) to `target`: as a hard link to the first file of them this
    build wrote, where the file system allows one, else as a copy. A link makes no inode. Where the file system
    keeps the inodes it deleted recently apart (ext4 without a journal, as on this project's machines), every new
    one costs a scan past those the site's cleaning just freed: at 1,000 questions, 4-12% of a warm build's CPU
    samples. A file left by the last build (`--dirty`) is replaced, never written through."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)
    if written:
        try:
            os.link(written[0], target)
            return
        except OSError:
            pass
    target.write_bytes(content)
    if not written:
        written.append(target)


def left_out_pages(uris: list[str], config_file: str, exercises_dir: str) -> str | None:
    """MkDocs' `draft_docs`/`exclude_docs` naming generated pages would leave a problem book without its text:
    what to write instead."""
    if not uris:
        return None
    named = ", ".join(uris[:4]) + (", …" if len(uris) > 4 else "")
    return (f"{config_file}: `draft_docs` or `exclude_docs` names pages Zadachnik makes from the course sources "
            f"({named}): leave them out of it; to keep a module off the site, move its folder out of "
            f"`{exercises_dir}`.")
