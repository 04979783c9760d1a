"""The build cache's rules, from the site's configuration as plain data: where a site's cache lives, what code
makes its pages, which pages cannot be kept, and what other plugins see of a page. The stores are
incremental.blobs.BlobFolder; the modules and pages kept are incremental.modules and incremental.pages; `SiteCache`
opens a site's folder for them, and plugin.py wires them to MkDocs' events."""

from __future__ import annotations

import hashlib
import json
import os
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zadachnik.core.shapes import Shape
from zadachnik.incremental.blobs import BlobFolder, forget_unused
from zadachnik.incremental.fingerprint import (
    InstalledDigests,
    code_digests,
    code_fingerprint,
    installed_store,
    local_modules,
)
from zadachnik.incremental.modules import KeptModules
from zadachnik.incremental.pages import PageCache
from zadachnik.incremental.reads import UNTRACED_EXTENSIONS
from zadachnik.incremental.templates import CompiledTemplates, signing_key

# Everything kept between builds, beside mkdocs.yml as mkdocs-material keeps its plugins' caches.
CACHE_DIR = Path(".cache") / "zadachnik"
BUILD_CACHE_PREFIX = "build-"
# A build cache of another config file (or of the site before it moved) that no build used for this long goes.
UNUSED_CACHE_DAYS = 30
# Always part of a page's making; the site's extensions and plugins are added to them.
BUILD_PACKAGES = ("mkdocs", "markdown", "material", "pymdownx", "pygments", "yaml", "babel")
# What in a site's configuration makes no page differ: where it is written, the server, `strict` (which only
# stops a build); the plugins count by their settings.
NOT_PAGE_SETTINGS = ("config_file_path", "site_dir", "dev_addr", "remote_branch", "remote_name", "strict", "watch",
                     "plugins", "site_url")


def cache_folder(cache_dir: Path, config_file: Path) -> Path:
    """One folder per config file: two configs of one site (such as an offline one) keep their own pages."""
    return cache_dir / (BUILD_CACHE_PREFIX + hashlib.sha256(str(config_file).encode()).hexdigest()[:16])


def site_code(extensions: Iterable[Any], extension_settings: Mapping[str, Any],
              plugins: Iterable[Any]) -> tuple[list[str], list[Path]]:
    """The modules that make a site's pages (the build's packages, its Markdown extensions and the functions
    their settings name, its plugins) and the files of its hooks (which MkDocs loads as modules)."""
    modules = list(BUILD_PACKAGES)
    hooks = []
    for extension in extensions:
        modules.append(extension if isinstance(extension, str) else type(extension).__module__)
    # `!!python/name:…` in an extension's settings, such as a custom fence's formatter.
    modules.extend(called_modules(extension_settings))
    for plugin in plugins:
        if isinstance(plugin, types.ModuleType):
            hooks.append(Path(plugin.__file__ or ""))
        else:
            modules.append(type(plugin).__module__)
    return [name for name in modules if not name.startswith("zadachnik")], hooks


def called_modules(settings: Any) -> Iterator[str]:
    if isinstance(settings, Mapping):
        for value in settings.values():
            yield from called_modules(value)
    elif isinstance(settings, list | tuple):
        for value in settings:
            yield from called_modules(value)
    elif callable(settings) and isinstance(getattr(settings, "__module__", None), str):
        yield settings.__module__


def page_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The site's configuration as MkDocs resolved it (what `!ENV` and `INHERIT` gave included), less what makes
    no page differ; its plugins by their settings."""
    kept = {key: value for key, value in settings.items() if key not in NOT_PAGE_SETTINGS}
    plugins = settings.get("plugins") or {}
    kept["plugins"] = {name: getattr(plugin, "config", name) for name, plugin in plugins.items()}
    return kept


def untraced(extensions: Iterable[Any], extension_settings: Mapping[str, Any]) -> bool:
    """Whether the site's Markdown is converted by code whose output depends on what no file holds
    (incremental.reads.UNTRACED_EXTENSIONS): an extension, or a function its settings name (a custom fence)."""
    names = [extension if isinstance(extension, str) else type(extension).__module__ for extension in extensions]
    return any(name.split(".")[0] in UNTRACED_EXTENSIONS for name in [*names, *called_modules(extension_settings)])


@dataclass
class OthersHandlers:
    """What other plugins (or hooks) do to pages, as the page cache must know it."""

    # They handle a page's Markdown (a page one of them changes is converted afresh).
    markdown: bool
    # They change a page's HTML before this plugin assembles it (from what they gave it): no page can be kept.
    html_before: bool
    # They see a page's HTML between its assembly and this plugin's page context (with its formulas' marks).
    html_after: bool
    # They run once pages are converted, and so could read a kept page's HTML, its own or another's: any handler
    # then but mkdocs-material's search and offline plugins'.
    late: bool = False


# Events that come before any page is converted.
BEFORE_PAGES = ("startup", "config", "pre_build", "files", "nav", "serve")
# Other plugins known to read no page's HTML but the text Zadachnik gives search: mkdocs-material's own.
HTML_BLIND_PLUGINS = ("material.plugins.search.plugin", "material.plugins.offline.plugin")


def others_handlers(events: Mapping[str, list[Callable[..., Any]]], own: object) -> OthersHandlers:
    def foreign(handlers: list[Callable[..., Any]]) -> list[bool]:
        return [getattr(handler, "__self__", None) is not own for handler in handlers]

    def owner_module(handler: Callable[..., Any]) -> str:
        owner = getattr(handler, "__self__", None)
        return type(owner).__module__ if owner is not None else getattr(handler, "__module__", "") or ""

    content = foreign(events.get("page_content", []))
    context = foreign(events.get("page_context", []))
    ours = content.index(False) if False in content else len(content)
    before_context = context[:context.index(False)] if False in context else context
    late = any(getattr(handler, "__self__", None) is not own and owner_module(handler) not in HTML_BLIND_PLUGINS
               for event, handlers in events.items() if event not in BEFORE_PAGES for handler in handlers)
    return OthersHandlers(markdown=any(foreign(events.get("page_markdown", []))), html_before=any(content[:ours]),
                          html_after=any(content[ours + 1:]) or any(before_context), late=late)


def own_templates(folders: Iterable[str], theme_folders: Iterable[str]) -> bool:
    """Whether the site's pages go through its theme's own templates alone (`theme_folders`): no folder of
    overrides (`custom_dir`), and none a plugin added."""
    known = {os.path.realpath(folder) for folder in theme_folders}
    return all(os.path.realpath(folder) in known for folder in folders)


# Kept in a site's assets store: minified texts by the code that minified them (an upgrade minifies again), and the
# local modules a build loaded after its start (what an extension imports as it converts) by the code fingerprint
# they go with (one of them edited makes every page afresh).
MINIFIED = "minified-"
LATER_CODE = "later-code-"
# Both by file name: the texts (minified_texts), and the files' digests (code_digests).
TEXTS = Shape(dict[str, str])


@dataclass
class SiteCache:
    """One configuration file's folder of the build cache, and what stands there for the code that makes pages: its
    modules (incremental.modules), its pages (incremental.pages) and its assets (minified scripts, the code loaded
    as pages were converted) are kept under keys that hold it."""

    folder: Path | None = None
    assets: BlobFolder | None = None
    # The pages' key for the code: the fingerprint at start with the modules loaded later, by their bytes now.
    code: str = ""
    code_at_start: str = ""
    modules_at_start: set[Path] = field(default_factory=set)
    later_code: Any = None
    minified_kept: Any = None
    # The theme's templates as Jinja compiled them (incremental.templates).
    templates: CompiledTemplates = field(default_factory=CompiledTemplates)

    def without_store(self, pages: PageCache, modules: KeptModules) -> None:
        """`cache: false`: nothing is kept between builds (`mkdocs serve` still keeps them in memory)."""
        self.folder = pages.store = self.assets = None
        modules.use_store(None, "")
        self.templates = CompiledTemplates()

    def open(self, cache_dir: Path, config_file: Path, base: Path, site: tuple[list[str], list[Path]], katex: str,
             pages: PageCache, modules: KeptModules, serving: bool) -> None:
        """Points `pages` and `modules` at the site's folder of `cache_dir`, keyed by the code `site` names
        (site_code) and KaTeX's engine key."""
        folder = self.folder = cache_folder(cache_dir, config_file)
        installed = InstalledDigests(installed_store(folder))
        code = code_fingerprint(*site, katex=katex, installed=installed)
        modules.use_site_cache(folder, base, installed)
        pages.store = BlobFolder(folder / "pages")
        pages.deferred = serving
        self.assets = BlobFolder(folder / "assets")
        # What the last build with this code loaded as it ran (a local extension's helper, imported as it
        # converts), by its bytes now.
        self.code_at_start, self.modules_at_start = code, set(local_modules())
        self.later_code = self.assets.get(LATER_CODE + code, TEXTS)
        later = code_digests(self.later_code) if self.later_code is not None else {}
        self.code = code + "\0" + json.dumps(later, sort_keys=True)
        self.minified_kept = self.assets.get(MINIFIED + code, TEXTS)
        self.templates = CompiledTemplates(BlobFolder(folder / "templates"), self.code, signing_key())

    def close(self, cache_dir: Path, minified: Any) -> None:
        """Keeps the minified texts and the code loaded as the build ran for the next build with the same code, and
        removes the folders of configuration files no build used for UNUSED_CACHE_DAYS."""
        if self.assets is None or self.folder is None:
            return
        try:
            if minified != self.minified_kept:
                self.assets.put(MINIFIED + self.code_at_start, minified)
            later = code_digests(set(local_modules()) - self.modules_at_start)
            if later != self.later_code:
                self.assets.put(LATER_CODE + self.code_at_start, later)
        except OSError:
            pass  # the site is built all the same; only the next build does more
        self.assets.keep_only({MINIFIED + self.code_at_start, LATER_CODE + self.code_at_start})
        self.templates.keep_only_used()
        forget_unused(cache_dir, BUILD_CACHE_PREFIX, self.folder, UNUSED_CACHE_DAYS)


def use_page_rules(pages: PageCache, events: Mapping[str, list[Callable[..., Any]]], own: object,
                   extensions: Iterable[Any], extension_settings: Mapping[str, Any]) -> bool:
    """Which pages can be kept between builds (also in memory, under `mkdocs serve`), from the site's extensions and
    what other plugins do to pages; whether other plugins run once pages are converted (`OthersHandlers.late`)."""
    others = others_handlers(events, own)
    pages.others_change_markdown, pages.others_see_content = others.markdown, others.html_after
    # A plugin that changes a page's HTML before it is assembled makes it of what it gives on each build.
    pages.keeps_none = others.html_before or untraced(extensions, extension_settings)
    return others.late


def use_template_rules(pages: PageCache, theme: str, folders: list[str], material_folders: list[str],
                       others_late: bool) -> None:
    """Whether a kept page gives templates what a build without the cache gives them (its formulas' marks in):
    where templates of the site's own (the theme's `folders` as every plugin's settings left them) or other plugins
    running once pages are converted may read a page's HTML before it is built (the next page's, say)."""
    if theme != "material" or not own_templates(folders, material_folders) or others_late:
        pages.others_see_content = True
