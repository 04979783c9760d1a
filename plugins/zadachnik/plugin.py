"""The MkDocs plugin: event hooks only, each a few lines that call the stages. The only module, with config.py and
the public zadachnik.mathtex, that imports MkDocs: the stages hand it data, and it makes MkDocs objects of it."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import mkdocs
from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc
from mkdocs.utils import DuplicateFilter, get_relative_url, get_theme_dir

from zadachnik.config import ZadachnikConfig, theme_problem, written_language_choices
from zadachnik.core.errors import TEX_HEADING, TEX_HINT, SourceError, SourceErrors, sources_heading, tex_problem
from zadachnik.incremental import reads
from zadachnik.incremental.formulas import formula_store
from zadachnik.incremental.modules import KeptModules, read_and_check
from zadachnik.incremental.pages import PageCache, site_digest
from zadachnik.incremental.site import (
    CACHE_DIR,
    SiteCache,
    page_settings,
    site_code,
    use_page_rules,
    use_template_rules,
)
from zadachnik.reading.coursefiles import cannot_zip, zip_course_files
from zadachnik.reading.model import Course, source_warnings, sources_folder_problem
from zadachnik.reading.source import read_source
from zadachnik.rendering.book import BOOK
from zadachnik.rendering.footnotes import PieceFootnotes
from zadachnik.rendering.home import (
    UnclosedCourseList,
    course_list,
    has_course_list,
    unclosed_course_list,
    with_course_lists,
)
from zadachnik.rendering.i18n import (
    WordsError,
    language_name,
    load_site_words,
    missing_words_warnings,
    site_language_problems,
    theme_direction_warnings,
    theme_language_warnings,
    use_words,
)
from zadachnik.rendering.mathtex import (
    KatexUnavailable,
    MathError,
    MathExtension,
    MathLog,
    finished,
    for_search,
    line_of,
    prefetch_formulas,
    shared_katex,
)
from zadachnik.rendering.nav import NavTypes, language_nav, short_nav_titles
from zadachnik.rendering.render import (
    MissingPiece,
    NotesInALine,
    PagePlan,
    Renderer,
    attach_course_files,
    hand_written_page_problems,
    math_error_line,
    plan_pages,
    searchable,
    stray_reference,
    toc_tokens,
    type_modules,
)
from zadachnik.rendering.site import (
    ALTERNATE_SITEMAP,
    Languages,
    alternate_sitemaps,
    course_id_problems,
    left_out_pages,
    missing_home_pages,
    write_shared,
)
from zadachnik.runtime.offline import EMBED_NAME, without_translation_links, zip_site
from zadachnik.runtime.shipping import (
    PROGRESS_MANIFEST,
    STYLESHEETS,
    is_type_script,
    language_search_files,
    minified_texts,
    missing_assets,
    offline_config_problems,
    offline_pyodide,
    offline_runtime,
    own_asset_text,
    progress_manifest,
    runtime_script,
    site_assets,
    site_polyfills,
    type_scripts,
    use_minified,
)
from zadachnik.runtime.vendored import MinifyError

log = get_plugin_logger(__name__)
NAV_TYPES = NavTypes(page=Page, section=Section, navigation=Navigation)


def book_nav(language_nav: Navigation) -> Navigation:
    """A book's navigation in one language. A problem book's page is read and printed: no site navigation beside
    it, which at 1,000 questions was a sixth of a build (mkdocs-material renders the whole tree on every page). Its
    own contents stay, and a link to its module. Its home page stays too, where the header's logo leads (without
    it, the site's root: the first language's home, or a folder listing in a copy opened from disk)."""
    nav = Navigation([], [])
    nav.homepage = language_nav.homepage
    return nav


class SharedFile(File):
    """A generated file whose bytes other folders hold too: written once per build, then linked."""

    written: list[Path]

    def copy_file(self, dirty: bool = False) -> None:
        write_shared(Path(self.abs_dest_path), self.content_bytes, self.written)


class WarningCount(logging.Handler):
    """MkDocs' warnings so far, and what it reports of a page's links: a page whose build reported anything is not
    kept, so the next build reports it again."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.WARNING or record.name == "mkdocs.structure.pages":
            self.count += 1


class ZadachnikPlugin(BasePlugin[ZadachnikConfig]):
    def __init__(self) -> None:
        self.math_log = MathLog()
        self.footnotes = PieceFootnotes()
        self.renderer = Renderer()
        self.courses: list[Course] = []
        self.plans: dict[str, PagePlan] = {}
        self.navs: dict[str, Navigation] = {}
        self.book_navs: dict[str, Navigation] = {}
        self.files: Files | None = None
        # Each module's course-files zip, by course id and module folder: two courses may both have a 01-intro.
        self.zips: dict[tuple[str, str], File] = {}
        self.full_content = ""
        # Kept between `mkdocs serve` rebuilds, as the plugin is (see on_startup).
        self.serving = False
        self.page_cache = PageCache()
        self.kept_modules = KeptModules()
        self.warnings = WarningCount()
        self.warnings_before_page = 0
        self.warned: set[str] = set()
        self.markdown_as_read = ""
        self.site_cache = SiteCache()
        self.others_late = False

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # Defining this hook keeps one plugin instance across `mkdocs serve` rebuilds (MkDocs ≥ 1.4), and with it
        # what a rebuild can take from the build before: unchanged modules and pages.
        self.serving = command == "serve"
        if self.serving and dirty:
            log.info("--dirty rebuilds only the pages MkDocs thinks changed: the home pages' course list and the "
                     "search index go stale. A plain 'mkdocs serve' takes what did not change from its cache.")

    @event_priority(10000)
    def _config_first(self, config: MkDocsConfig) -> MkDocsConfig:
        # Before every other plugin: Material's search reads the theme's words in the theme's language, so a code
        # it has no words for would end the build there, in a Jinja traceback.
        self.config_file = Path(config.config_file_path or "mkdocs.yml").resolve()
        self.base = self.config_file.parent
        if problem := theme_problem(config.theme.name):
            raise PluginError(f"Zadachnik: {self.shown(self.config_file)}: {problem}")
        check_languages(list(self.config.languages), config.theme.get("language"), config.theme.dirs,
                        self.shown(self.config_file))
        follow_site_language(config, list(self.config.languages), self.config_file)
        return config

    def _config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.languages = Languages(list(self.config.languages))
        self.exercises_dir = self.base / self.config.exercises_dir
        check_sources_folder(self.base, self.config.exercises_dir, config.docs_dir, self.shown(self.config_file))
        self.attr_list = "attr_list" in config.markdown_extensions
        self.use_words()
        # The selector's names, in the words just chosen: the same on every page.
        self.language_names = {lang: language_name(lang) for lang in self.languages.codes}
        self.use_build_cache(config)
        self.others_late = use_page_rules(self.page_cache, config.plugins.events, self, config.markdown_extensions,
                                          config.mdx_configs)
        config.markdown_extensions.append(MathExtension(log=self.math_log))  # type: ignore[arg-type]
        config.markdown_extensions.append(self.footnotes)  # type: ignore[arg-type]
        # Formulas earlier builds rendered, from the site's cache folder.
        shared_katex().use_disk_cache(formula_store(shared_katex(), self.base / CACHE_DIR))
        config.extra_css.extend(css for css in STYLESHEETS.values() if css not in config.extra_css)
        check_offline_config(config, self.config, self.shown(self.config_file))
        if self.config.offline:
            # A server's page for addresses it lacks names its files from the site's root: from disk it loads none.
            config.theme.static_templates.discard("404.html")
        config.extra["polyfills"] = site_polyfills(config.extra.get("polyfills", []), self.config.offline,
                                                   self.languages.codes)
        add_runtime_script(config, offline=self.config.offline)
        keep_fonts_local(config)
        return config

    on_config = CombinedEvent(_config_first, _config)

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        self.warned = set()
        use_template_rules(self.page_cache, config.theme.name, config.theme.dirs, theme_folders("material"),
                           self.others_late)
        self.courses = self.load_courses()
        self.plans = plan_pages(self.courses, self.languages)
        self.no_hand_written_pages_replaced(files)
        for problem in missing_home_pages(self.languages, lambda uri: files.get_file_from_path(uri) is not None,
                                          lambda uri: self.shown(Path(config.docs_dir) / uri)):
            log.warning(problem)
        for uri, plan in self.plans.items():
            files.append(File.generated(config, uri, content=plan.markdown(),
                                        inclusion=generated_inclusion(uri, config)))
        self.zips = self.add_course_files(files, config)
        with_python = any(q.python for course in self.courses for module in course.modules for q in module.questions)
        use_minified(self.site_cache.minified_kept)
        add_assets(files, config, with_python, offline=self.config.offline, minify=self.config.minify)
        for uri, text in language_search_files(self.languages.codes, minify=self.config.minify):
            files.append(File.generated(config, uri, content=text))
        # Course progress: module totals and pages, known here once every module page is a file.
        manifest = progress_manifest(self.courses, self.languages, lambda uri: files.get_file_from_path(uri).url)
        files.append(File.generated(config, PROGRESS_MANIFEST, content=manifest))
        if self.config.offline:
            add_offline_files(files, config, with_python, minify=self.config.minify)
        if self.serving or self.page_cache.store is not None:
            self.page_cache.start(self.plans, self.site_digest(files, config), self.courses,
                                  self.kept_modules.digests())
            self.page_cache.settle()
        prefetch_formulas(self.page_texts(files))
        self.files = files
        return files

    def no_hand_written_pages_replaced(self, files: Files) -> None:
        def hand_written(uri: str) -> Path | None:
            file = files.get_file_from_path(uri)
            return Path(file.abs_src_path) if file is not None and file.abs_src_path else None

        problems = hand_written_page_problems(self.plans, hand_written, self.shown)
        if problems:
            raise PluginError("Zadachnik: pages of the site's own where the course pages go:\n"
                              + "\n".join(f"  {problem}" for problem in problems))

    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
        excluded = [uri for uri in self.plans
                    if (file := files.get_file_from_path(uri)) is not None and file.inclusion.is_excluded()]
        problem = left_out_pages(excluded, self.shown(self.config_file), self.config.exercises_dir)
        if problem:
            raise PluginError(f"Zadachnik: {problem}")
        clashes = course_id_problems(self.courses, self.languages, self.shown)
        if clashes:
            raise PluginError("Zadachnik: the navigation can't tell the languages apart:\n"
                              + "\n".join(f"  {problem}" for problem in clashes))
        self.navs = {lang: language_nav(nav, self.courses, self.languages, lang, NAV_TYPES, self.page_at)
                     for lang in self.languages.codes}
        self.book_navs = {lang: book_nav(self.navs[lang]) for lang in self.languages.codes}
        short_nav_titles(self.plans, self.page_at)
        # Here every page is known, whichever plugin added it. The offline copy's pages link no translations in
        # their head (on_post_page): nothing asks for these there.
        taken = {file.dest_uri for file in files}
        written: list[Path] = []
        page_urls = [] if self.config.offline else [file.url for file in files.documentation_pages()]
        for uri in alternate_sitemaps(page_urls, taken):
            sitemap = SharedFile.generated(config, uri, content=ALTERNATE_SITEMAP.encode())
            sitemap.written = written
            files.append(sitemap)
        return self.navs[self.languages.default]

    @event_priority(-10000)
    def on_env(self, env: Any, config: MkDocsConfig, files: Files) -> Any:
        # After every other plugin: what they add to the environment (filters, extensions) is in the key of each
        # compiled template taken.
        if env.bytecode_cache is None:
            env.bytecode_cache = self.site_cache.templates
        return env

    @event_priority(10000)
    def _page_markdown_first(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        # Before every other plugin: what they do to the page (its warnings, its Markdown) is seen.
        self.math_log.start_page()
        plan = self.plans.get(page.file.src_uri)
        self.footnotes.scope = plan.note_scope if plan is not None else ""
        self.warnings_before_page = self.warnings.count
        self.markdown_as_read = markdown
        if page.file.src_uri in self.plans and self.page_cache.unchanged(page.file.src_uri) is None:
            reads.start((self.base / CACHE_DIR, Path(config.site_dir)))
        return markdown

    def _page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        return self.with_course_lists(markdown, page)

    @event_priority(-10000)
    def _page_markdown_last(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        """After every other plugin: a kept page needs no conversion (the plugin hands MkDocs an empty one and
        takes the page as the last build left it), unless another plugin changed its Markdown this time."""
        if self.page_cache.unchanged(page.file.src_uri) is None:
            return markdown
        if markdown != self.markdown_as_read:
            self.page_cache.not_this_time(page.file.src_uri)
            return markdown
        return ""

    on_page_markdown = CombinedEvent(_page_markdown_first, _page_markdown, _page_markdown_last)

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        recorded = reads.stop()
        # MkDocs converts every page before it builds any: a page's own warnings are the ones since its Markdown.
        if self.warnings.count > self.warnings_before_page:
            self.warned.add(page.file.src_uri)
        plan = self.plans.get(page.file.src_uri)
        self.report_math_errors(page, plan)
        if plan is None:
            return html
        if self.footnotes.problems:
            raise PluginError("\n".join(stray_reference(plan, stray, self.shown) for stray in self.footnotes.problems))
        if plan.course_files is not None:
            plan.files_link = get_relative_url(self.zips[plan.course.id, plan.module.slug].url, page.url)
        page.toc = get_toc(toc_tokens(plan))  # type: ignore[arg-type]
        kept = self.page_cache.unchanged(page.file.src_uri)
        if kept is not None:
            plan.rendered = kept.rendered
            restore_conversion(page, kept.anchors, kept.links, files)
            shared_katex().mark_used(kept.formulas)
            return self.page_cache.given(page.file.src_uri)
        try:
            reuse = self.page_cache.reuse(page.file.src_uri) if self.serving and plan.kind == BOOK else None
            content = self.renderer.assemble(plan, html, reuse)
        except (MissingPiece, NotesInALine) as problem:
            raise PluginError(f"{self.shown(plan.source)}:{problem.fragment.line}: {problem}") from None
        self.page_cache.keep(page.file.src_uri, content, plan.rendered, page.present_anchor_ids,
                             anchor_links(page), self.math_log.formulas, warned=page.file.src_uri in self.warned,
                             reads=recorded)
        return content

    @event_priority(100)
    def _page_context_first(self, context: dict[str, Any], page: Page, config: MkDocsConfig, nav: Navigation):
        lang = self.languages.of(page.file.src_uri)
        if self.is_book(page):
            # (A navigation without items is falsy: no `or` here.)
            context["nav"] = self.book_navs[lang] if lang in self.book_navs else book_nav(nav)
        else:
            context["nav"] = self.navs.get(lang, nav)
        # Material reads both per render: the UI words and the header's language selector.
        config.theme["language"] = lang
        config.extra["alternate"] = self.alternates(page)
        config.extra_javascript[:] = self.page_scripts(page, config.extra_javascript)
        # The search plugin reads page.content next: formulas as TeX, not KaTeX's markup. A page it leaves out
        # (mkdocs-material's `search: exclude`, as the problem books have it) gets no text: search still runs a
        # pattern over whatever it is given, a second over a course's book of megabytes.
        self.full_content = page.content or ""
        # A kept page's search text and HTML as written hold while no other plugin changed what it became.
        kept = self.page_cache.unchanged(page.file.src_uri)
        as_kept = kept is not None and self.full_content == self.page_cache.given(page.file.src_uri)
        if (page.meta.get("search") or {}).get("exclude"):
            page.content = ""
        elif as_kept and kept.search is not None:
            page.content = kept.search
        else:
            page.content = for_search(self.full_content)
            if page.file.src_uri in self.plans:
                page.content = searchable(page.content)
        if as_kept and kept.search is None:
            kept.search = page.content
        return context

    @event_priority(-100)
    def _page_context_last(self, context: dict[str, Any], page: Page, config: MkDocsConfig, nav: Navigation):
        uri = page.file.src_uri
        if self.page_cache.unchanged(uri) is not None and self.full_content == self.page_cache.given(uri):
            page.content = self.page_cache.as_written(uri)
            self.page_cache.finished(uri)
        else:
            page.content = finished(self.full_content)
        return context

    on_page_context = CombinedEvent(_page_context_first, _page_context_last)

    @event_priority(-10000)
    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        # After every other plugin, so nothing they add brings back what the offline copy may not fetch.
        return self.for_disk(output)

    def for_disk(self, output: str) -> str:
        """A page as the offline copy has it: one opened from disk may fetch nothing."""
        return without_translation_links(output) if self.config.offline else output

    # After mkdocs-material's offline plugin (-100), which writes the search index for file:// pages.
    @event_priority(-150)
    def on_post_build(self, config: MkDocsConfig) -> None:
        shared_katex().save_disk_cache()
        self.page_cache.end_build()
        self.site_cache.close(self.base / CACHE_DIR, minified_texts())
        if self.config.offline_zip:
            target = self.base / self.config.offline_zip
            try:
                zip_site(Path(config.site_dir), target, Path(config.site_dir).name)
            except OSError as error:
                raise PluginError(f"Zadachnik: cannot write the offline zip {target}: {error}") from None
            log.info(f"offline copy of the site: {self.shown(target)}")

    def on_build_error(self, error: Exception) -> None:
        reads.stop()
        say_again(str(error))

    def on_shutdown(self) -> None:
        reads.stop()
        # V8 and the prefetch processes end with the build, not at the interpreter's exit.
        shared_katex().close()
        self.page_cache.flush()
        # MkDocs keeps this instance for the process: a later build there starts afresh.
        self.serving = False
        self.page_cache, self.kept_modules = PageCache(), KeptModules()
        logging.getLogger("mkdocs").removeHandler(self.warnings)

    def on_serve(self, server: Any, config: MkDocsConfig, builder: Any) -> Any:
        if self.exercises_dir.is_dir():
            server.watch(str(self.exercises_dir))
        return server

    # -- helpers -------------------------------------------------------------------------------------

    def is_book(self, page: Page) -> bool:
        plan = self.plans.get(page.file.src_uri)
        return plan is not None and plan.kind == BOOK

    def shown(self, path: Path) -> str:
        try:
            return str(path.resolve().relative_to(self.base))
        except ValueError:
            return str(path)

    def load_courses(self) -> list[Course]:
        """The courses, read and checked; under `mkdocs serve`, only the modules an edit changed."""
        try:
            courses, problems = read_and_check(self.kept_modules, self.exercises_dir, self.languages.codes,
                                               self.base, self.shown, remember=self.serving)
            if problems:
                raise SourceErrors(problems)
            for warning in source_warnings(courses):
                log.warning(warning)
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
            return f"{self.shown(plan.source)}:{math_error_line(plan, error)}"
        path, source = self.page_source(page)
        line = line_of([(source or page.markdown or "", 1)], error) or 1
        return f"{self.shown(path) if path else page.file.src_uri}:{line}"

    def page_source(self, page: Page) -> tuple[Path | None, str]:
        path = Path(page.file.abs_src_path) if page.file.abs_src_path else None
        return path, path.read_text(encoding="utf-8") if path and path.is_file() else ""

    def with_course_lists(self, markdown: str, page: Page) -> str:
        if not has_course_list(markdown):
            return markdown
        try:
            listing = course_list(self.courses, self.languages, page.file.src_uri, heading_ids=self.attr_list)
            return with_course_lists(markdown, listing)
        except UnclosedCourseList as unclosed:
            path, source = self.page_source(page)
            problem = unclosed_course_list(self.shown(path) if path else page.file.src_uri, source, markdown,
                                           unclosed.index)
            raise PluginError(f"Zadachnik: {problem}") from None

    def use_build_cache(self, config: MkDocsConfig) -> None:
        """Modules and pages from earlier builds, in a folder of the cache per config file (two configs of one
        site, such as an offline one, keep their own pages), keyed by the code that makes them too."""
        logging.getLogger("mkdocs").addHandler(self.warnings)
        if not self.config.cache:
            self.site_cache.without_store(self.page_cache, self.kept_modules)
            return
        katex = shared_katex()
        # Without KaTeX's script the build stops in on_files, saying how to reinstall.
        self.site_cache.open(self.base / CACHE_DIR, self.config_file, self.base,
                             site_code(config.markdown_extensions, config.mdx_configs, config.plugins.values()),
                             katex.engine_key() if katex.katex_js.is_file() else "", self.page_cache,
                             self.kept_modules, self.serving)

    def site_digest(self, files: Files, config: MkDocsConfig) -> str:
        settings = {"site": page_settings(config), "code": self.site_cache.code,
                    "marks": self.page_cache.others_see_content}
        return site_digest(self.config_file, settings, ((file.src_uri, file.url) for file in files),
                           self.languages.codes)

    def page_texts(self, files: Files) -> Iterator[str]:
        """Each page's Markdown in build order: a generated page's pieces, a hand-written page's file."""
        for file in files.documentation_pages():
            plan = self.plans.get(file.src_uri)
            if plan is not None:
                if not self.page_cache.unchanged(file.src_uri):
                    yield from (piece.markdown for piece in plan.pieces)
            elif file.abs_src_path:
                yield self.hand_written_text(file)

    def hand_written_text(self, file: File) -> str:
        """A hand-written page's Markdown; one not in UTF-8 (Notepad's "Unicode", cp1251) is named, file and line,
        as the course sources are: MkDocs' UnicodeDecodeError names neither."""
        try:
            return file.content_string
        except ValueError:
            path = Path(file.abs_src_path)
            try:
                read_source(path, self.shown(path))
            except SourceError as error:
                raise PluginError(f"Zadachnik: {error}") from None
            raise

    def page_at(self, uri: str) -> Page | None:
        assert self.files is not None
        file = self.files.get_file_from_path(uri)
        return file.page if file is not None else None

    def add_course_files(self, files: Files, config: MkDocsConfig) -> dict[tuple[str, str], File]:
        """Each module's files/ as a deterministic zip beside its pages, linked from its files page."""
        zips: dict[tuple[str, str], File] = {}
        for course in self.courses:
            for module in course.modules:
                if module.files_dir is None:
                    continue
                try:
                    archive, warnings = zip_course_files(module.files_dir, module.slug,
                                                         self.config.course_files_max_size,
                                                         self.shown(module.files_dir))
                except OSError as error:
                    raise PluginError(f"Zadachnik: {cannot_zip(self.shown(module.files_dir), error)}") from None
                for warning in warnings:
                    log.warning(warning)
                if archive is not None:
                    uri = f"{course.id}/{module.slug}/{archive.archive_name}"
                    zips[course.id, module.slug] = File.generated(config, uri, content=archive.data)
                    files.append(zips[course.id, module.slug])
                    attach_course_files(self.plans, module, archive)
        return zips

    def use_words(self) -> None:
        """The site's languages' words; a word no file gives a language comes from English, with one warning."""
        try:
            missing = use_words(self.languages.codes, load_site_words(self.config.words, self.base))
        except WordsError as problem:
            raise PluginError(f"Zadachnik: {self.shown(self.config_file)}: {problem}") from None
        for warning in missing_words_warnings(missing):
            log.warning(warning)

    def page_scripts(self, page: Page, scripts: list[Any]) -> list[Any]:
        """The site's scripts on this page, whichever plugin added them and when: before the runtime's, the
        modules of this page's question types, in place of the page before's."""
        plan = self.plans.get(page.file.src_uri)
        names = type_scripts(type_modules(plan), self.config.offline) if plan else []
        kept = [script for script in scripts if not is_type_script(str(script))]
        at = [str(script) for script in kept].index(runtime_script(self.config.offline)[0])
        return [*kept[:at], *map(module_script, names), *kept[at:]]

    def alternates(self, page: Page) -> list[dict[str, str]]:
        """The language selector's entries: none on a site in one language, which needs no selector."""
        assert self.files is not None
        if len(self.languages.codes) < 2:
            return []
        result = []
        for lang in self.languages.codes:
            target = self.files.get_file_from_path(self.languages.translated(page.file.src_uri, lang))
            if target is None:
                target = self.files.get_file_from_path(f"{self.languages.prefix(lang)}index.md")
            link = target.url if target is not None else self.languages.prefix(lang)
            result.append({"name": self.language_names[lang], "link": link or "./", "lang": lang})
        return result


def anchor_links(page: Page) -> dict[str, dict[str, str]] | None:
    """The page's links to anchors, by the source address of the page they lead to (MkDocs checks them once
    every page is built)."""
    links = page.links_to_anchors
    return None if links is None else {file.src_uri: dict(anchors) for file, anchors in links.items()}


def restore_conversion(page: Page, anchors: list[str] | None, links: dict[str, dict[str, str]] | None,
                       files: Files) -> None:
    """What MkDocs' conversion of a kept page had found, for its checks of anchors across pages."""
    if anchors is not None:
        page.present_anchor_ids = set(anchors)
    if links is not None and page.links_to_anchors is not None:
        page.links_to_anchors = {target: dict(found) for uri, found in links.items()
                                 if (target := files.get_file_from_path(uri)) is not None}


def theme_folders(name: str) -> list[str]:
    """A theme's own templates: its package's and MkDocs' (which every theme has after its own)."""
    return [get_theme_dir(name), os.path.join(os.path.dirname(mkdocs.__file__), "templates")]


def add_runtime_script(config: MkDocsConfig, offline: bool) -> None:
    path, script_type = runtime_script(offline)
    if any(str(script) == path for script in config.extra_javascript):
        return
    config.extra_javascript.append(module_script(path) if script_type else ExtraScriptValue(path))


def module_script(path: str) -> ExtraScriptValue:
    script = ExtraScriptValue(path)
    script.type = "module"
    return script


def check_offline_config(config: MkDocsConfig, options: ZadachnikConfig, shown_config: str) -> None:
    problems = offline_config_problems(options.offline, bool(options.offline_zip), config.use_directory_urls,
                                       config.theme.get("features") or [])
    if problems:
        raise PluginError(f"Zadachnik: {shown_config}: {problems[0]}")


def check_sources_folder(base: Path, written: str, docs_dir: str, shown_config: str) -> None:
    problem = sources_folder_problem(base, written, Path(docs_dir))
    if problem:
        raise PluginError(f"Zadachnik: {shown_config}: {problem}")


def check_languages(codes: list[str], theme_language: Any, theme_dirs: list[str], shown_config: str) -> None:
    problems = site_language_problems(codes, theme_language, theme_dirs)
    if problems:
        raise PluginError(f"Zadachnik: {shown_config}: {problems[0]}")


def say_again(message: str) -> None:
    """Let MkDocs log a build's error even when an earlier build logged the same: the `mkdocs` command drops a
    message its build logger has said once (DuplicateFilter), so under `mkdocs serve` an author who broke a file
    twice the same way, or saved another file while it was broken, saw only "Aborted with a BuildError!"."""
    for given in logging.getLogger("mkdocs.commands.build").filters:
        if isinstance(given, DuplicateFilter):
            given.msgs.discard(message)


def follow_site_language(config: MkDocsConfig, languages: list[str], config_file: Path) -> None:
    """The theme's language is the site's first, which the 404 page and search are in, unless mkdocs.yml names
    one: then a different one is warned of (a strict build stops)."""
    written, languages_written = written_language_choices(config_file)
    if written is None:
        config.theme["language"] = languages[0]
    for warning in [*theme_language_warnings(written, languages, languages_written),
                    *theme_direction_warnings(config.theme.get("direction"), languages)]:
        log.warning(warning)


def generated_inclusion(uri: str, config: MkDocsConfig) -> InclusionLevel:
    """A generated page's inclusion as MkDocs' set_exclusions would judge it (a draft or excluded one is refused in
    on_nav), but never in MkDocs' own navigation: each language's has its pages (on_nav), so an explicit `nav:` need
    not list them, and MkDocs is not to report them missing from it."""
    for level, patterns in ((InclusionLevel.EXCLUDED, config.exclude_docs), (InclusionLevel.DRAFT, config.draft_docs)):
        if patterns and patterns.match_file(uri):
            return level
    return InclusionLevel.NOT_IN_NAV


def keep_fonts_local(config: MkDocsConfig) -> None:
    """Material loads Roboto from Google Fonts unless `font: false`: pages must load nothing from other hosts."""
    if config.theme.get("font") is not False:
        log.info("theme.font set to false: Zadachnik sites use the system's fonts and load nothing from the web")
        config.theme["font"] = False


def add_assets(files: Files, config: MkDocsConfig, with_python: bool, offline: bool, minify: bool) -> None:
    missing = missing_assets(with_python)
    if missing:
        raise PluginError(str(KatexUnavailable.missing(missing[0])))
    with minified_or_said():
        for folder, rel, dest in site_assets(with_python, offline, minify):
            # Our own scripts and stylesheets go out minified (`minify: false` ships them as they are).
            text = own_asset_text(folder, rel, minify)
            files.append(File(rel, str(folder), config.site_dir, config.use_directory_urls, dest_uri=dest)
                         if text is None else File.generated(config, dest, content=text))


def add_offline_files(files: Files, config: MkDocsConfig, with_python: bool, minify: bool) -> None:
    """The classic-script runtime, and for a site with Python, Pyodide embedded for file:// pages."""
    with minified_or_said():
        files.append(File.generated(config, runtime_script(offline=True)[0], content=offline_runtime(minify)))
        if with_python:
            files.append(File.generated(config, f"assets/zadachnik/{EMBED_NAME}", content=offline_pyodide(minify)))


@contextmanager
def minified_or_said() -> Iterator[None]:
    """A script esbuild refused, or an installed package changed after its copies were made: one line."""
    try:
        yield
    except MinifyError as error:
        raise PluginError(f"Zadachnik: {error}") from None
