"""The MkDocs plugin: event hooks only, each a few lines that call the stages."""

from __future__ import annotations

import html
import os
import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc
from mkdocs.utils import get_relative_url

from zadachnik.checking.checks import check_answer_keys
from zadachnik.config import ZadachnikConfig
from zadachnik.core.errors import TEX_HEADING, TEX_HINT, SourceError, SourceErrors, sources_heading, tex_problem
from zadachnik.reading.coursefiles import zip_course_files
from zadachnik.reading.model import Course, load_courses
from zadachnik.reading.model import Section as QuizSection
from zadachnik.reading.source import track_fence
from zadachnik.rendering.i18n import strings
from zadachnik.rendering.mathtex import (
    CACHE_DIR,
    KatexUnavailable,
    MathError,
    MathExtension,
    MathLog,
    finished,
    for_search,
    formulas_in,
    line_of,
    shared_katex,
)
from zadachnik.rendering.render import (
    KINDS,
    MissingPiece,
    PagePlan,
    Renderer,
    files_page,
    home_listing,
    module_has,
    plan_page,
    searchable,
)
from zadachnik.rendering.site import Languages, course_id_problems, module_page_uri
from zadachnik.runtime.bundle import bundle
from zadachnik.runtime.offline import EMBED_NAME, pyodide_embed, zip_site
from zadachnik.runtime.vendored import missing_files

log = get_plugin_logger(__name__)
PACKAGE = Path(__file__).parent
ASSETS = PACKAGE / "runtime" / "assets"
PYTHON_ASSETS = ("vendor/pyodide", "vendor/ace")
RUNTIME_SCRIPT = "assets/zadachnik/js/zadachnik.js"
OFFLINE_SCRIPT = "assets/zadachnik/js/zadachnik.bundle.js"
NATIVE_WORKER_SCRIPT = "assets/zadachnik/js/native-worker.js"
SEARCH_SHIM = "assets/zadachnik/iframe-worker/shim.js"
PYTHON_MODULES = ("core/numbers.py", "python/pyrunner.py")
# Used while building (KaTeX runs in Python's embedded V8), never by a page.
BUILD_ONLY = {"katex.min.js"}
# Where a hand-written page gets the course list: a line of its own, outside code blocks. The div holds a note that
# a build without Zadachnik (another builder, or the plugin left out) shows in the list's place; the plugin replaces
# the div whole. The bare comment is the older marker, still read, but invisible when nothing replaces it.
HOME_MARKER = "<!-- zadachnik:courses -->"
_HOME_MARKER_LINE = re.compile(r"^ {0,3}<!-- zadachnik:courses -->[ \t]*$")
_COURSE_LIST_START = re.compile(r"""^ {0,3}<div\b[^>]*\bclass\s*=\s*["'][^"']*\bzadachnik-courses\b""")
_COURSE_LIST_END = "</div>"
# Package asset → its place in the site. KaTeX is vendored at set-up time (scripts/vendor_assets.py).
STYLESHEETS = {"vendor/katex/katex.min.css": "assets/zadachnik/katex/katex.min.css",
               "zadachnik.css": "assets/zadachnik/zadachnik.css"}


class ZadachnikPlugin(BasePlugin[ZadachnikConfig]):
    def __init__(self) -> None:
        self.math_log = MathLog()
        self.renderer = Renderer()
        self.courses: list[Course] = []
        self.plans: dict[str, PagePlan] = {}
        self.navs: dict[str, Navigation] = {}
        self.files: Files | None = None
        self.zips: dict[str, File] = {}
        self.full_content = ""

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # Defining this hook keeps one plugin instance across `mkdocs serve` rebuilds (MkDocs ≥ 1.4).
        pass

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.languages = Languages(list(self.config.languages))
        self.base = Path(config.config_file_path or ".").resolve().parent
        self.exercises_dir = self.base / self.config.exercises_dir
        config.markdown_extensions.append(MathExtension(log=self.math_log))  # type: ignore[arg-type]
        # Formulas earlier builds rendered, from the site's cache folder.
        shared_katex().use_disk_cache(self.base / CACHE_DIR)
        config.extra_css.extend(css for css in STYLESHEETS.values() if css not in config.extra_css)
        if self.config.offline:
            check_offline_config(config)
            use_local_search_shim(config)
        add_runtime_script(config, offline=self.config.offline)
        keep_fonts_local(config)
        return config

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        self.courses = self.load_courses()
        self.plans = add_module_pages(files, config, self.courses, self.languages)
        self.zips = add_course_files(files, config, self.courses, self.plans, self.config.course_files_max_size,
                                     self.shown)
        with_python = any(q.python for course in self.courses for module in course.modules for q in module.questions)
        add_assets(files, config, with_python, offline=self.config.offline)
        if self.config.offline:
            add_offline_files(files, config, with_python)
        prefetch_formulas(files, self.plans)
        self.files = files
        return files

    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
        clashes = course_id_problems(self.courses, self.languages, self.shown)
        if clashes:
            raise PluginError("Zadachnik: the navigation can't tell the languages apart:\n"
                              + "\n".join(f"  {problem}" for problem in clashes))
        self.navs = {
            lang: language_nav(nav, files, self.courses, self.languages, lang, config)
            for lang in self.languages.codes
        }
        # Here every page is known, whichever plugin added it.
        add_alternate_sitemaps(files, config)
        return self.navs[self.languages.default]

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        self.math_log.errors.clear()
        return self.with_course_lists(markdown, page)

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        plan = self.plans.get(page.file.src_uri)
        self.report_math_errors(page, plan)
        if plan is None:
            return html
        if plan.course_files is not None:
            plan.files_link = get_relative_url(self.zips[plan.course_files.archive_name].url, page.url)
        try:
            content = self.renderer.assemble(plan, html)
        except MissingPiece as missing:
            raise PluginError(f"{self.shown(plan.source)}:{missing.fragment.line}: {missing}") from None
        page.toc = get_toc(toc_tokens(plan))
        return content

    @event_priority(100)
    def _page_context_first(self, context: dict[str, Any], page: Page, config: MkDocsConfig, nav: Navigation):
        lang = self.languages.of(page.file.src_uri)
        context["nav"] = self.navs.get(lang, nav)
        # Material reads both per render: the UI words and the header's language selector.
        config.theme["language"] = lang
        config.extra["alternate"] = self.alternates(page)
        # The search plugin reads page.content next: formulas as TeX, not KaTeX's markup.
        self.full_content = page.content or ""
        page.content = for_search(self.full_content)
        if page.file.src_uri in self.plans:
            page.content = searchable(page.content)
        return context

    @event_priority(-100)
    def _page_context_last(self, context: dict[str, Any], page: Page, config: MkDocsConfig, nav: Navigation):
        page.content = finished(self.full_content)
        return context

    on_page_context = CombinedEvent(_page_context_first, _page_context_last)

    # After mkdocs-material's offline plugin (-100), which writes the search index for file:// pages.
    @event_priority(-150)
    def on_post_build(self, config: MkDocsConfig) -> None:
        shared_katex().save_disk_cache()
        if self.config.offline_zip:
            target = self.base / self.config.offline_zip
            try:
                zip_site(Path(config.site_dir), target, Path(config.site_dir).name)
            except OSError as error:
                raise PluginError(f"Zadachnik: cannot write the offline zip {target}: {error}") from None
            log.info(f"offline copy of the site: {self.shown(target)}")

    def on_shutdown(self) -> None:
        # V8 and the prefetch processes end with the build, not at the interpreter's exit.
        shared_katex().close()

    def on_serve(self, server: Any, config: MkDocsConfig, builder: Any) -> Any:
        if self.exercises_dir.is_dir():
            server.watch(str(self.exercises_dir))
        return server

    # -- helpers -------------------------------------------------------------------------------------

    def shown(self, path: Path) -> str:
        try:
            return str(path.resolve().relative_to(self.base))
        except ValueError:
            return str(path)

    def load_courses(self) -> list[Course]:
        try:
            courses = load_courses(self.exercises_dir, self.languages.codes, self.base)
            problems = check_answer_keys(courses, self.languages.codes, self.shown)
            if problems:
                raise SourceErrors(problems)
            return courses
        except SourceErrors as problems:
            raise PluginError(
                sources_heading(len(problems.errors)) + "\n" + "\n".join(f"  {error}" for error in problems.errors)
            ) from None

    def report_math_errors(self, page: Page, plan: PagePlan | None) -> None:
        if not self.math_log.errors:
            return
        lines = [f"  {tex_problem(self.math_error_place(page, plan, error), error.tex, error)}"
                 for error in self.math_log.errors]
        raise PluginError(TEX_HEADING + "\n" + "\n".join(lines) + f"\n  {TEX_HINT}")

    def math_error_place(self, page: Page, plan: PagePlan | None, error: MathError) -> str:
        """file:line of a bad formula: in the author's source fragment, or in the hand-written page."""
        if plan is not None:
            line = line_of([(fragment.markdown, fragment.line) for fragment in plan.pieces], error)
            return f"{self.shown(plan.source)}:{line or 1}"
        path = Path(page.file.abs_src_path) if page.file.abs_src_path else None
        source = path.read_text(encoding="utf-8") if path and path.is_file() else page.markdown or ""
        return f"{self.shown(path) if path else page.file.src_uri}:{line_of([(source, 1)], error) or 1}"

    def home_listing(self, page: Page) -> str:
        lang = self.languages.of(page.file.src_uri)
        here = posixpath.dirname(page.file.src_uri)

        def link(course: Course, module: Any, kind: str) -> str:
            return posixpath.relpath(module_page_uri(course, module, kind, lang, self.languages), here or ".")

        return home_listing(self.courses, lang, link)

    def with_course_lists(self, markdown: str, page: Page) -> str:
        """The page with each course-list marker replaced by the list; a marker shown in a code block stays."""
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
                    raise PluginError(f"Zadachnik: {self.unclosed_course_list(page, markdown, index)}")
            rest = lines[end].split(_COURSE_LIST_END, 1)[1].strip() if start is not None else ""
            result.extend(["", self.home_listing(page), "", *([rest] if rest else [])])
            index = end + 1
        return "\n".join(result)

    def unclosed_course_list(self, page: Page, markdown: str, index: int) -> SourceError:
        path = Path(page.file.abs_src_path) if page.file.abs_src_path else None
        source = path.read_text(encoding="utf-8") if path and path.is_file() else ""
        # page.markdown is the file without its front matter: count the lines that went.
        skipped = source[: len(source) - len(markdown)].count("\n") if source.endswith(markdown) else 0
        return SourceError(
            self.shown(path) if path else page.file.src_uri, skipped + index + 1,
            'the course list\'s <div class="zadachnik-courses"> has no </div>',
            'close it after the note: <div class="zadachnik-courses">The course list is made by the Zadachnik '
            "plugin, which did not run when this site was built.</div>",
        )

    def alternates(self, page: Page) -> list[dict[str, str]]:
        assert self.files is not None
        result = []
        for lang in self.languages.codes:
            target = self.files.get_file_from_path(self.languages.translated(page.file.src_uri, lang))
            if target is None:
                target = self.files.get_file_from_path(f"{self.languages.prefix(lang)}index.md")
            link = target.url if target is not None else self.languages.prefix(lang)
            result.append({"name": strings(lang)["language_name"], "link": link or "./", "lang": lang})
        return result


def add_runtime_script(config: MkDocsConfig, offline: bool) -> None:
    """The page runtime on every page: loaded once, it re-initialises on Material's `document$`, so it also
    works with instant navigation. An ES module, or for a copy opened from disk the same code as one classic
    script (browsers refuse modules from file://)."""
    path = OFFLINE_SCRIPT if offline else RUNTIME_SCRIPT
    if any(str(script) == path for script in config.extra_javascript):
        return
    script = ExtraScriptValue(path)
    if not offline:
        script.type = "module"
    config.extra_javascript.append(script)


def use_local_search_shim(config: MkDocsConfig) -> None:
    """mkdocs-material's offline plugin adds a Worker shim from a CDN for search on file:// pages: ours is
    vendored, and preceded by a script that keeps the browser's own Worker for Python."""
    polyfills = [url for url in config.extra.get("polyfills", []) if "iframe-worker" not in str(url)]
    config.extra["polyfills"] = [*polyfills, NATIVE_WORKER_SCRIPT, SEARCH_SHIM]


def check_offline_config(config: MkDocsConfig) -> None:
    if config.use_directory_urls:
        raise PluginError("Zadachnik: 'offline: true' needs 'use_directory_urls: false' in mkdocs.yml "
                          "(pages opened from disk can't resolve folder links)")
    if "navigation.instant" in (config.theme.get("features") or []):
        raise PluginError("Zadachnik: 'offline: true' needs the theme feature 'navigation.instant' off "
                          "(instant navigation fetches pages, which browsers refuse on file://)")


def add_offline_files(files: Files, config: MkDocsConfig, with_python: bool) -> None:
    """The classic-script runtime, and for a site with Python, Pyodide embedded for file:// pages."""
    files.append(File.generated(config, OFFLINE_SCRIPT, content=bundle(ASSETS / "js", "zadachnik.js")))
    if with_python:
        sources = {name: (PACKAGE / name).read_text(encoding="utf-8") for name in PYTHON_MODULES}
        embed = pyodide_embed(ASSETS / "vendor" / "pyodide", sources)
        files.append(File.generated(config, f"assets/zadachnik/{EMBED_NAME}", content=embed))


def add_course_files(files: Files, config: MkDocsConfig, courses: list[Course], plans: dict[str, PagePlan],
                     max_size: int, shown: Any) -> dict[str, File]:
    """Each module's files/ as a deterministic zip beside its pages, linked from its exercises page."""
    zips: dict[str, File] = {}
    for course in courses:
        for module in course.modules:
            folder = module.files_dir
            if folder is None:
                continue
            try:
                archive, warnings = zip_course_files(folder, module.slug, max_size, shown(folder))
            except OSError as error:
                raise PluginError(f"Zadachnik: cannot zip {shown(folder)}: {error}") from None
            for warning in warnings:
                log.warning(warning)
            if archive is None:
                continue
            uri = f"{course.id}/{module.slug}/{archive.archive_name}"
            zips[archive.archive_name] = File.generated(config, uri, content=archive.data)
            files.append(zips[archive.archive_name])
            for plan in plans.values():
                if plan.module is module and plan.kind == files_page(module):
                    plan.course_files = archive
    return zips


def keep_fonts_local(config: MkDocsConfig) -> None:
    """Material loads Roboto from Google Fonts unless `font: false`: pages must load nothing from other hosts."""
    if config.theme.get("font") is not False:
        log.info("theme.font set to false: Zadachnik sites use the system's fonts and load nothing from the web")
        config.theme["font"] = False


def prefetch_formulas(files: Files, plans: dict[str, PagePlan]) -> None:
    """Render formulas on the other cores while MkDocs builds pages on one, in the order it will need them."""
    formulas: list[tuple[str, bool]] = []
    for file in files.documentation_pages():
        plan = plans.get(file.src_uri)
        if plan is not None:
            for piece in plan.pieces:
                formulas.extend(formulas_in(piece.markdown))
        elif file.abs_src_path:
            formulas.extend(formulas_in(file.content_string))
    # One core stays with MkDocs; the others render math.
    shared_katex().prefetch(formulas, max(1, (os.cpu_count() or 1) - 1))


def add_module_pages(files: Files, config: MkDocsConfig, courses: list[Course], languages: Languages):
    plans: dict[str, PagePlan] = {}
    for course in courses:
        for module in course.modules:
            for kind in KINDS:
                if not module_has(module, kind):
                    continue
                for lang in languages.codes:
                    uri = module_page_uri(course, module, kind, lang, languages)
                    plan = plan_page(course, module, kind, lang)
                    plans[uri] = plan
                    files.append(File.generated(config, uri, content=plan.markdown()))
    return plans


def add_assets(files: Files, config: MkDocsConfig, with_python: bool, offline: bool = False) -> None:
    """The runtime, styles and vendored libraries; Pyodide and Ace only for a site that has Python, and
    Pyodide's own files not in an offline copy, which carries it embedded."""
    # Checked before any page renders, so a package installed without its vendored files says so in one line.
    missing = [*(name for name in STYLESHEETS if not (ASSETS / name).is_file()),
               *(f"vendor/{name}" for name in missing_files(ASSETS / "vendor", with_python))]
    if missing:
        raise PluginError(str(KatexUnavailable.missing(ASSETS / missing[0])))
    skipped = () if with_python else PYTHON_ASSETS
    if offline:
        skipped = (*skipped, "vendor/pyodide")
    for path in package_files(ASSETS):
        rel = path.relative_to(ASSETS).as_posix()
        if path.is_file() and not path.name.startswith(".") and path.name not in BUILD_ONLY \
                and not rel.startswith(skipped):
            dest = "assets/zadachnik/" + rel.removeprefix("vendor/")
            files.append(File(rel, str(ASSETS), config.site_dir, config.use_directory_urls, dest_uri=dest))
    if with_python:
        # The worker runs the very modules the build uses: pyrunner and the number reader.
        for name in PYTHON_MODULES:
            files.append(File(name, str(PACKAGE), config.site_dir, config.use_directory_urls,
                              dest_uri=f"assets/zadachnik/py/{name}"))


def package_files(folder: Path) -> list[Path]:
    """Every file under `folder`, through linked folders too (a developer may link assets/vendor to a shared
    copy; Path.rglob does not enter linked folders, and the site would lack KaTeX's CSS without a word)."""
    return sorted(Path(root) / name for root, _, names in os.walk(folder, followlinks=True) for name in names)


# What mkdocs-material's language selector looks for beside each page it may lead to: it fetches the sitemap of
# every `<link rel="alternate">` (made for sites with one root per language, where the sitemap maps the page to
# its translation). Ours link each page to its own translation already, so the sitemap has nothing to add; it
# only has to exist, instead of two 404s on every page.
ALTERNATE_SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<!-- For mkdocs-material's language selector: the site's own sitemap is the one at the top of the site. -->
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
</urlset>
"""


def add_alternate_sitemaps(files: Files, config: MkDocsConfig) -> None:
    """A sitemap.xml in the folder of each page's address (`new URL("sitemap.xml", page)`), except where a file
    is already there: the top folder has MkDocs' own."""
    taken = {file.dest_uri for file in files}
    # A page's folder: "en/authoring/" and "en/authoring.html" are in en/authoring and en; the home, "./", is at
    # the top.
    folders = {posixpath.normpath(file.url if file.url.endswith("/") else posixpath.dirname(file.url) or ".")
               for file in files.documentation_pages()}
    for folder in sorted(folders - {"."}):
        uri = f"{folder}/sitemap.xml"
        if uri not in taken:
            files.append(File.generated(config, uri, content=ALTERNATE_SITEMAP))


def language_nav(
    nav: Navigation, files: Files, courses: list[Course], languages: Languages, lang: str, config: MkDocsConfig
) -> Navigation:
    """The site's navigation as seen from one language: its own pages, with the courses after its home."""
    generated = {module_page_uri(c, m, k, lang, languages) for c in courses for m in c.modules for k in KINDS}
    # This language's folder (en/) comes back from filter_item as a list of its pages: they belong at the top.
    items = flatten([item for item in (filter_item(i, languages, lang, generated) for i in nav.items)
                     if item is not None])
    home_uri = f"{languages.prefix(lang)}index.md"
    home_at = next((i for i, item in enumerate(items) if isinstance(item, Page) and item.file.src_uri == home_uri), -1)
    t = strings(lang)
    course_sections = []
    for course in courses:
        modules = []
        for module in course.modules:
            pages = [page_of(files, module_page_uri(course, module, kind, lang, languages)) for kind in KINDS
                     if module_has(module, kind)]
            modules.append(Section(t["module"].format(number=module.number, title=module.title[lang]), pages))
        course_sections.append(Section(course.title[lang], modules))
    items[home_at + 1:home_at + 1] = course_sections
    pages = list(walk_pages(items))
    link_structure(items, None)
    for previous, page in zip([None, *pages[:-1]], pages, strict=True):
        page.previous_page = previous
        if previous is not None:
            previous.next_page = page
    if pages:
        pages[-1].next_page = None
    language_nav = Navigation(items, pages)
    home = files.get_file_from_path(home_uri)
    if home is not None and home.page is not None:
        language_nav.homepage = home.page
    return language_nav


def filter_item(item: Any, languages: Languages, lang: str, generated: set[str]) -> Any:
    """A copy of a nav item holding only this language's hand-written pages, unwrapping the language folder."""
    if isinstance(item, Page):
        uri = item.file.src_uri
        keep = languages.of(uri) == lang and uri not in generated and not item.file.generated_by
        return item if keep else None
    if isinstance(item, Section):
        children = [c for c in (filter_item(child, languages, lang, generated) for child in item.children) if c]
        if not children:
            return None
        if item.title.lower() == lang and lang != languages.default:
            return children if len(children) > 1 else children[0]
        return Section(item.title, flatten(children))
    return item if lang == languages.default else None


def flatten(items: list[Any]) -> list[Any]:
    result: list[Any] = []
    for item in items:
        result.extend(item if isinstance(item, list) else [item])
    return result


def page_of(files: Files, uri: str) -> Page:
    file = files.get_file_from_path(uri)
    assert file is not None and file.page is not None, uri
    return file.page


def walk_pages(items: list[Any]):
    for item in flatten(items):
        if isinstance(item, Page):
            yield item
        elif isinstance(item, Section):
            yield from walk_pages(item.children)


def link_structure(items: list[Any], parent: Section | None) -> None:
    for item in flatten(items):
        item.parent = parent
        if isinstance(item, Section):
            item.children = flatten(item.children)
            link_structure(item.children, item)


def toc_tokens(plan: PagePlan) -> list[dict[str, Any]]:
    """Sections with their questions (or exercises), as Python-Markdown's toc tokens."""

    def plain(markdown: str) -> str:
        return html.escape(re.sub(r"\$+([^$]*)\$+", r"\1", markdown))

    tokens: list[dict[str, Any]] = []
    parent: list[dict[str, Any]] = tokens
    if plan.kind == "exercises":
        for exercise in plan.module.exercises or []:
            name = f"{exercise.label.get(plan.lang, exercise.id)}. {plain(exercise.title[plan.lang].markdown)}"
            tokens.append({"level": 2, "id": f"e-{exercise.id}", "name": name, "children": []})
        return tokens
    for item in plan.module.quiz or []:
        if isinstance(item, QuizSection):
            token = {"level": 2, "id": f"s-{item.id}", "name": f"{item.id}. {plain(item.title[plan.lang].markdown)}",
                     "children": []}
            tokens.append(token)
            parent = token["children"]
        else:
            name = f"{item.id} · {plain(item.title[plan.lang].markdown)}"
            parent.append({"level": 3 if parent is not tokens else 2, "id": f"q-{item.id}", "name": name,
                           "children": []})
    return tokens
