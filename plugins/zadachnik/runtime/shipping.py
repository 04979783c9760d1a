"""What the browser runtime puts into a site: its scripts and styles, the vendored libraries, and for a copy
opened from disk, the runtime as one classic script with Pyodide embedded."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zadachnik.reading.model import Course
from zadachnik.rendering.i18n import runtime_strings, strings
from zadachnik.rendering.render import KINDS, module_has
from zadachnik.rendering.site import Languages, module_page_uri
from zadachnik.rendering.variants import key_revision
from zadachnik.runtime.offline import WORKER_SCRIPT, pyodide_embed
from zadachnik.runtime.vendored import (
    ESBUILD,
    INLINED,
    LMS_BUNDLE,
    LMS_ENTRY,
    LMS_ONLY,
    MINIFIED,
    READABLE_BUNDLE,
    RUNTIME_BUNDLE,
    MinifyError,
    esbuild_bundle,
    esbuild_inline,
    esbuild_minify,
    inlined_modules,
    lms_sources,
    minified_name,
    missing_files,
    runtime_sources,
    shipped_source,
)

PACKAGE = Path(__file__).resolve().parents[1]
ASSETS = Path(__file__).resolve().parent / "assets"
PYTHON_ASSETS = ("vendor/pyodide", "vendor/ace")
RUNTIME_SCRIPT = "assets/zadachnik/js/zadachnik.js"
TYPE_SCRIPT = "assets/zadachnik/js/types/{}.js"
OFFLINE_SCRIPT = "assets/zadachnik/js/zadachnik.bundle.js"
NATIVE_WORKER_SCRIPT = "assets/zadachnik/js/native-worker.js"
SEARCH_SHIM = "assets/zadachnik/iframe-worker/shim.js"
# Keeps search results to the page's language: a polyfill, so it runs before Material's bundle starts search.
SEARCH_LANGUAGE_SCRIPT = "assets/zadachnik/js/search-lang.js"
# Each module's totals and pages, for course progress (progress.js finds it beside its folder and takes the site's
# root to be two folders above it).
PROGRESS_MANIFEST = "assets/zadachnik/course-progress.js"
# The words progress.js says, in every language of the site: the home page's lines, the navigation's marks, and
# the storage notice the quiz pages give.
PROGRESS_PAGE_WORDS = ("progress",)
PROGRESS_RUNTIME_WORDS = ("progress_solutions", "progress_not_started", "progress_in_progress", "progress_done",
                          "storage_unavailable")
# Package assets written per site (the site's languages, then the file), not copied as they are.
PER_SITE = {"js/search-lang.js"}
# The SCORM bridge, which only a package's launch page runs, bundled (lms_bridge).
PACKAGE_ONLY = {f"js/{LMS_ENTRY}"}
# The worker runs the very modules the build uses: the runner and the number reader, at their package paths.
PYTHON_MODULES = ("core/numbers.py", "python/pyrunner.py")
PYTHON_FOLDER = "assets/zadachnik/py"
# Used while building (KaTeX runs in Python's embedded V8), never by a page.
BUILD_ONLY = {"katex.min.js"}
# Package asset → its place in the site. KaTeX is vendored at set-up time (scripts/vendor_assets.py).
STYLESHEETS = {"vendor/katex/katex.min.css": "assets/zadachnik/katex/katex.min.css",
               "zadachnik.css": "assets/zadachnik/zadachnik.css"}


def missing_assets(with_python: bool) -> list[Path]:
    """Shipped files the installed package lacks (a broken install, told in one line before any page renders)."""
    return [*(ASSETS / name for name in STYLESHEETS if not (ASSETS / name).is_file()),
            *(ASSETS / "vendor" / name for name in missing_files(ASSETS / "vendor", with_python))]


def site_assets(with_python: bool, offline: bool, minify: bool) -> list[tuple[Path, str, str]]:
    """(folder, path in it, place in the site) of every file the runtime ships: Pyodide and Ace only for a site
    with Python, Pyodide's own files not in an offline copy, which carries it embedded, and minified, not the
    modules that are inlined into a script of ours."""
    # The minified copies go out in their sources' places (own_asset_text).
    skipped = ("vendor/minified/", LMS_ONLY) if with_python else ("vendor/minified/", LMS_ONLY, *PYTHON_ASSETS)
    if offline:
        skipped = (*skipped, "vendor/pyodide")
    left_out = {*PER_SITE, *PACKAGE_ONLY, *(inlined_modules() if minify else ())}
    shipped = []
    for path in package_files(ASSETS):
        rel = path.relative_to(ASSETS).as_posix()
        if path.is_file() and not path.name.startswith(".") and path.name not in BUILD_ONLY \
                and rel not in left_out and not rel.startswith(skipped):
            shipped.append((ASSETS, rel, "assets/zadachnik/" + rel.removeprefix("vendor/")))
    if with_python:
        shipped.extend((PACKAGE, name, f"{PYTHON_FOLDER}/{name}") for name in PYTHON_MODULES)
    return shipped


# Minified texts by a digest of what was minified: read once per process, and with `use_minified`, kept for as
# long as the site's cache keeps them (in a source checkout, a script edited since `make setup` is minified anew).
_minified: dict[str, str] = {}
_minified_now: set[str] = set()


def minified_copy(name: str, source: str, make: Callable[[], str]) -> str:
    """What esbuild makes of `source`: the copy made with the package (scripts/vendor_assets.py), or in a source
    checkout where `source` has changed since, `make()`'s, with esbuild from node_modules."""
    copy = MINIFIED / minified_name(name, source)
    if copy.is_file():
        return copy.read_text(encoding="utf-8")
    if not ESBUILD.is_file():
        raise MinifyError(f"{name} has no minified copy in the package, which was changed after it was made: "
                          "install Zadachnik again, or set 'minify: false' under the zadachnik plugin")
    try:
        return make()
    except MinifyError as error:
        raise MinifyError(f"{name}: {error}") from None


def esbuilt(name: str, source: str, make: Callable[[], str]) -> str:
    key = minified_name(name, source)
    _minified_now.add(key)
    found = _minified.get(key)
    if found is None:
        found = _minified[key] = minified_copy(name, source, make)
    return found


def minified(name: str, text: str) -> str:
    """One of our own scripts or stylesheets as the site gets it (`name`, its path under the package's assets,
    ends in .js or .css)."""
    return esbuilt(name, text, lambda: esbuild_minify({name: text})[name])


def use_minified(kept: Any) -> None:
    """Start a build with the minified texts an earlier one kept (what `minified_texts` gave it)."""
    _minified_now.clear()
    if isinstance(kept, dict):
        _minified.update((key, text) for key, text in kept.items() if isinstance(key, str) and isinstance(text, str))


def minified_texts() -> dict[str, str]:
    """The minified texts this build used, to keep for the next."""
    return {key: _minified[key] for key in sorted(_minified_now) if key in _minified}


def own_asset_text(folder: Path, rel: str, minify: bool) -> str | None:
    """The site's copy of one of our own scripts or stylesheets, minified; None for a file shipped as it is
    (the vendored libraries, the Python modules, and everything with `minify: false`)."""
    if not minify or folder != ASSETS or rel.startswith("vendor/") or not rel.endswith((".js", ".css")):
        return None
    if rel in INLINED:
        return esbuilt(rel, shipped_source(rel), lambda: esbuild_inline(rel))
    return minified(rel, shipped_source(rel))


def offline_runtime(minify: bool = True) -> str:
    """The page runtime as one classic script, bundled by esbuild: browsers refuse ES modules from file://."""
    return esbuilt(RUNTIME_BUNDLE if minify else READABLE_BUNDLE, runtime_sources(),
                   lambda: esbuild_bundle(minify))


def lms_bridge() -> str:
    """A SCORM package's bridge (assets/js/lms.js and what it imports) as one classic script."""
    return esbuilt(LMS_BUNDLE, lms_sources(), lambda: esbuild_bundle(True, entry=LMS_ENTRY))


def lms_notices() -> dict[str, bytes]:
    """The licence of the library the bridge's bundle joins, for the package that carries the bundle."""
    return {f"assets/zadachnik/{LMS_ONLY.removeprefix('vendor/')}LICENSE": (ASSETS / LMS_ONLY / "LICENSE").read_bytes()}


def offline_pyodide(minify: bool = True) -> str:
    """Pyodide and the worker's Python modules in one script, for pages opened from disk."""
    sources = {name: (PACKAGE / name).read_text(encoding="utf-8") for name in PYTHON_MODULES}
    worker = WORKER_SCRIPT.read_text(encoding="utf-8")
    return pyodide_embed(ASSETS / "vendor" / "pyodide", sources,
                         minified("js/" + WORKER_SCRIPT.name, worker) if minify else worker)


def type_scripts(modules: list[str], offline: bool) -> list[str]:
    """The scripts of a page's question types (module scripts, run before the runtime's, which they register
    with); none offline, where the runtime's bundle holds every type."""
    return [] if offline else [TYPE_SCRIPT.format(name) for name in modules]


def is_type_script(path: str) -> bool:
    return path.startswith(TYPE_SCRIPT.removesuffix("{}.js"))


def runtime_script(offline: bool) -> tuple[str, str | None]:
    """The page runtime's place and script type: loaded once, it re-initialises on Material's `document$`, so it
    also works with instant navigation. An ES module, or for a copy opened from disk the classic bundle."""
    return (OFFLINE_SCRIPT, None) if offline else (RUNTIME_SCRIPT, "module")


def site_polyfills(polyfills: list[str], offline: bool, languages: list[str]) -> list[str]:
    """The scripts Material loads in <head>, before its own bundle makes the search worker.

    Offline, mkdocs-material's offline plugin adds a Worker shim from a CDN for search on file:// pages: ours is
    vendored, and preceded by a script that keeps the browser's own Worker for Python. With several languages the
    search wrapper comes last: on file:// it must wrap the shim's Worker, over http the browser's (a one-language
    site has nothing to keep apart and gets no script)."""
    kept = [url for url in polyfills if "iframe-worker" not in str(url) or not offline]
    kept = [url for url in kept if str(url) != SEARCH_LANGUAGE_SCRIPT]
    if offline:
        kept = [*kept, NATIVE_WORKER_SCRIPT, SEARCH_SHIM]
    return [*kept, SEARCH_LANGUAGE_SCRIPT] if len(languages) > 1 else kept


def language_search_files(languages: list[str], minify: bool = True) -> list[tuple[str, str]]:
    """(place in the site, text) of the search wrapper: one line of data (the default language, at the site's root,
    and the others, each in its folder), then the package's file as it is. Nothing for a one-language site."""
    if len(languages) < 2:
        return []
    data = json.dumps({"default": languages[0], "others": languages[1:]}, ensure_ascii=True, separators=(",", ":"))
    script = (ASSETS / "js" / "search-lang.js").read_text(encoding="utf-8")
    if minify:
        script = minified("js/search-lang.js", script)
    return [(SEARCH_LANGUAGE_SCRIPT, f"window.__zqSearchLanguages={data};\n{script}")]


def progress_manifest(courses: list[Course], languages: Languages, url_of: Callable[[str], str]) -> str:
    """The site's course-progress manifest: each module's auto-checked questions (the progress line's total), all
    its questions and exercises (each counted once, by id), and its pages' addresses from the site's root per
    language (`url_of(src_uri)`), with the words progress.js needs. A classic script, not JSON: a page opened from
    disk may load a script, while a fetch of a file is refused there."""
    modules = []
    for course in courses:
        for module in course.modules:
            modules.append({
                "course": course.id, "module": str(module.number),
                "auto": [question.id for question in module.questions if question.qtype.auto],
                # What each auto-checked question's saved verdict must have been given under to count.
                "revs": {question.id: key_revision(question) for question in module.questions if question.qtype.auto},
                # How many variants each question with variants has: a saved pointer past them names none.
                "variants": {question.id: len(question.variant_questions) for question in module.questions
                             if question.variants is not None},
                # An exam's verdicts count once it is submitted.
                **({"exam": True} if module.exam is not None else {}),
                "questions": [question.id for question in module.questions],
                "exercises": [exercise.id for exercise in module.exercises or []],
                "pages": {lang: {kind: url_of(module_page_uri(course, module, kind, lang, languages))
                                 for kind in KINDS if module_has(module, kind)} for lang in languages.codes},
            })
    words = {lang: {**{key: strings(lang)[key] for key in PROGRESS_PAGE_WORDS},
                    **{key: runtime_strings(lang)[key] for key in PROGRESS_RUNTIME_WORDS}}
             for lang in languages.codes}
    # Every page loads it: compact.
    data = json.dumps({"modules": modules, "words": words}, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"window.__zqProgress = {data};\n"


def offline_config_problems(offline: bool, offline_zip: bool, use_directory_urls: bool, features: list[str]
                            ) -> list[str]:
    """What stops a site's offline copy from working opened from disk."""
    if not offline:
        return ["'offline_zip' needs 'offline: true' beside it (a site built for a server does not work opened "
                "from disk: its folder links and module scripts need one)"] if offline_zip else []
    problems = []
    if use_directory_urls:
        problems.append("'offline: true' needs 'use_directory_urls: false' in mkdocs.yml "
                        "(pages opened from disk can't resolve folder links)")
    # Instant navigation, and its previews and prefetching, fetch pages (and the sitemap), which browsers refuse on
    # file://.
    for feature in sorted(set(features)):
        if feature == "navigation.instant" or feature.startswith("navigation.instant."):
            problems.append(f"'offline: true' needs the theme feature '{feature}' off "
                            "(it fetches pages, which browsers refuse on file://)")
    return problems


def package_files(folder: Path) -> list[Path]:
    """Every file under `folder`, through linked folders too (a developer may link assets/vendor to a shared
    copy; Path.rglob does not enter linked folders, and the site would lack KaTeX's CSS without a word)."""
    return sorted(Path(root) / name for root, _, names in os.walk(folder, followlinks=True) for name in names)
