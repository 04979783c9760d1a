"""The browser files a complete package holds under assets/vendor: one list for the copy step
(scripts/vendor_assets.py, run by `make setup` and by the build hook) and for the plugin, which checks them
before any page is rendered. The copy step also writes there what esbuild makes of our own scripts and
stylesheets (minified) and of the runtime's modules (the offline bundle), which the plugin ships. Standard library
only: the build hook loads it before anything is installed."""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

ASSETS = Path(__file__).parent / "assets"
VENDOR = ASSETS / "vendor"
# Our own scripts and stylesheets minified, each in a file named by a digest of its source: a copy of an older
# source is never taken for the one the package holds now.
MINIFIED = VENDOR / "minified"
# esbuild from package-lock.json, in a source checkout (an installed package carries the minified copies).
ESBUILD = Path(__file__).resolve().parents[3] / "node_modules" / ".bin" / "esbuild"
# The page runtime's modules, and the names its offline bundle is kept under, minified and as written.
RUNTIME = ASSETS / "js"
RUNTIME_ENTRY = "zadachnik.js"
RUNTIME_BUNDLE, READABLE_BUNDLE = "js/zadachnik.bundle.js", "js/zadachnik.bundle.readable.js"
# What a bundle runs before its entry: for the page runtime, every question type's module (each registers with
# grading.js), which a page served over http names as scripts of its own, its own types only.
BUNDLE_FIRST = {RUNTIME_ENTRY: "types/*.js"}
# A SCORM package's bridge (its launch page's one script), bundled from the same modules as a classic script: an
# LMS may serve files with types a module script is refused under.
LMS_ENTRY, LMS_BUNDLE = "lms.js", "js/lms.bundle.js"
# The module a joined script's copy is bundled from: its own exports and those of its joined modules.
ENTRY = "joined-entry.js"
# Modules joined into one script's shipped copy (minified) by esbuild: fewer files for a page to fetch and gzip
# each on its own, and names shared between them shortened (module 12's quiz: about 1.5 KB less gzipped than the
# same modules as files of their own). The sources stay modules of their own. Another module that imports one of
# them imports it from the script instead, in its shipped copy (`shipped_source`), and the script exports what
# they take: a module run twice would keep two states (the question types' registry, the store's writes). (The
# SCORM bridge's bundle, LMS_ENTRY, carries its own copies: it never runs beside the page runtime.)
INLINED = {"js/zadachnik.js": ("js/place.js", "js/print.js", "js/handin.js", "js/progress.js", "js/grading.js",
                               "js/storage.js", "js/numbers.js", "js/pyclient.js", "js/seed.js")}
# A module's imports of our modules: `import { a, b as c } from "./x.js"`, and any other (`import * as`,
# `import "./x.js"`, `import("./x.js")`), which can take no named exports from a script a module is joined into.
NAMED_IMPORT = re.compile(r"""\bimport\s*\{([^}]*)\}\s*from\s*["'](\.{1,2}/[^"']+)["']""")
ANY_IMPORT = re.compile(r"""\b(?:from|import)\s*\(?\s*["'`](\.{1,2}/[^"'`]+)["'`]""")
# The bundle's first lines: the script's address (`document.currentScript` is gone once it has run), and a mark
# that this is the copy opened from disk.
BUNDLE_START = ('"use strict";\nconst __zqBase = document.currentScript ? document.currentScript.src : '
                "location.href;\nconst __zqOfflineCopy = true;")

KATEX_FILES = ("katex.min.js", "katex.min.css", "LICENSE")  # and the fonts that katex.min.css names
# pyodide.js is the classic loader the offline build embeds (file:// pages refuse modules).
PYODIDE_FILES = (
    "pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"
)
# Ace's editor core, its Python mode and a light and a dark theme; the rest of ace-builds is not needed.
ACE_FILES = ("ace.js", "mode-python.js", "theme-github_light_default.js", "theme-github_dark.js")
IFRAME_WORKER_FILES = ("shim.js", "LICENSE")
# fflate's deflate and inflate, for the SCORM bridge alone (joined into its bundle): it compresses the state a
# closing page leaves, which the browser's own CompressionStream does only by a promise the page does not wait for.
FFLATE_FILES = ("fflate.js", "LICENSE")
LMS_ONLY = "vendor/fflate/"
# The folders only a site with Python needs.
PYTHON_FOLDERS = ("pyodide/", "ace/")

FONT_URL = re.compile(r"url\(fonts/([^)]+\.woff2)\)")


def vendored_files(vendor: Path = VENDOR) -> list[str]:
    """Every file a complete package holds under assets/vendor, relative to it. KaTeX's fonts are the ones its
    vendored CSS names (a placeholder stands for them while that CSS is not there yet)."""
    files = [f"katex/{name}" for name in KATEX_FILES]
    css = vendor / "katex" / "katex.min.css"
    fonts = FONT_URL.findall(css.read_text(encoding="utf-8")) if css.is_file() else []
    files += [f"katex/fonts/{font}" for font in sorted(set(fonts))] or ["katex/fonts/*.woff2"]
    files += [f"pyodide/{name}" for name in (*PYODIDE_FILES, "LICENSE")]
    files += [f"ace/{name}" for name in (*ACE_FILES, "LICENSE")]
    files += [f"iframe-worker/{name}" for name in IFRAME_WORKER_FILES]
    files += [f"fflate/{name}" for name in FFLATE_FILES]
    return files


def missing_files(vendor: Path = VENDOR, with_python: bool = True) -> list[str]:
    return [name for name in vendored_files(vendor) if not (vendor / name).is_file()
            and (with_python or not name.startswith(PYTHON_FOLDERS))]


class MinifyError(ValueError):
    """A script or stylesheet esbuild refused, or a source with no minified copy and no esbuild to make one."""


def own_assets(assets: Path = ASSETS) -> list[str]:
    """Our own scripts and stylesheets, relative to `assets`: what the site gets minified."""
    return sorted(path.relative_to(assets).as_posix() for path in assets.rglob("*")
                  if path.suffix in (".js", ".css") and path.is_file() and VENDOR not in path.parents)


def inlined_modules() -> set[str]:
    return {module for modules in INLINED.values() for module in modules}


def joined_into(module: str) -> str | None:
    """The script our module `module` is joined into, if any."""
    return next((script for script, modules in INLINED.items() if module in modules), None)


def imported_path(importer: str, specifier: str) -> str:
    """What `specifier` (relative) names when our asset `importer` imports it, as a path under the assets."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))


def specifier_of(importer: str, target: str) -> str:
    """How our asset `importer` names our asset `target` in an import."""
    path = posixpath.relpath(target, posixpath.dirname(importer))
    return path if path.startswith(".") else f"./{path}"


def rewired(name: str, text: str) -> str:
    """Our module `name`'s text importing what is joined into a script from that script (MinifyError for an
    import that takes no names: only named ones can come from the script)."""
    def script_for(specifier: str) -> str | None:
        script = joined_into(imported_path(name, specifier))
        return None if script == name else script

    def to_script(match: re.Match[str]) -> str:
        script = script_for(match[2])
        if script is None:
            return match[0]
        start, end = match.start(2) - match.start(0), match.end(2) - match.start(0)
        return match[0][:start] + specifier_of(name, script) + match[0][end:]

    text = NAMED_IMPORT.sub(to_script, text)
    for specifier in ANY_IMPORT.findall(text):
        if script := script_for(specifier):
            raise MinifyError(f"{name} imports {specifier}, which is joined into {script}: only its names can be "
                              f"imported (`import {{ ... }} from {json.dumps(specifier)}`)")
    return text


def names_taken(script: str, assets: Path = ASSETS) -> dict[str, list[str]]:
    """The names other modules of ours import from the modules joined into `script`, by module: what the script
    exports for them. The SCORM bridge is left out (bundled on its own from the sources)."""
    taken: dict[str, set[str]] = {}
    for name in own_assets(assets):
        if not name.endswith(".js") or name == f"js/{LMS_ENTRY}" or joined_into(name) or name in INLINED:
            continue
        for names, specifier in NAMED_IMPORT.findall((assets / name).read_text(encoding="utf-8")):
            module = imported_path(name, specifier)
            if joined_into(module) == script:
                taken.setdefault(module, set()).update(part.split(" as ")[0].strip() for part in names.split(",")
                                                       if part.strip())
    return {module: sorted(names) for module, names in sorted(taken.items())}


def shipped_source(name: str, assets: Path = ASSETS) -> str:
    """What the shipped copy of our asset `name` is made from, and named by: its text (importing what is joined
    into a script from it), or for a script that others are joined into, every one of their texts and the names
    it exports for other modules."""
    if name not in INLINED:
        return rewired(name, (assets / name).read_text(encoding="utf-8"))
    parts = {part: (assets / part).read_text(encoding="utf-8") for part in (name, *INLINED[name])}
    return json.dumps({**parts, "exports": names_taken(name, assets)}, ensure_ascii=False)


def minified_name(name: str, text: str) -> str:
    """The file under MINIFIED that holds `text` (our asset `name`, ending in .js or .css) minified."""
    digest = hashlib.sha256(f"{name}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
    return digest + Path(name).suffix


def run_esbuild(arguments: list[str], folder: Path, esbuild: Path) -> str:
    """esbuild's output (stdout) run in `folder`, so that its messages name each file by its place there. A
    warning refuses too: esbuild warns where the script would not work as written (`import.meta` in a classic
    script, a `typeof` compared with a misspelt type)."""
    try:
        done = subprocess.run([str(esbuild), *arguments, "--charset=utf8", "--log-level=warning"], cwd=folder,
                              capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise MinifyError(f"esbuild could not run ({esbuild}): {error}") from None
    if done.returncode != 0 or done.stderr.strip():
        raise MinifyError(f"esbuild refused our scripts:\n{done.stderr.strip()}")
    return done.stdout


def esbuild_minify(texts: dict[str, str], esbuild: Path = ESBUILD) -> dict[str, str]:
    """`texts` (by name, each ending in .js or .css) minified by one run of esbuild: comments and whitespace out,
    local names shortened; ES modules stay modules (exports and imports keep their names), and a classic script's
    top-level names stay as they are, since other scripts may use them."""
    with tempfile.TemporaryDirectory() as folder:
        sources, out = Path(folder) / "in", Path(folder) / "out"
        for name, text in texts.items():
            (sources / name).parent.mkdir(parents=True, exist_ok=True)
            (sources / name).write_text(text, encoding="utf-8")
        run_esbuild([*texts, "--minify", f"--outbase={sources}", f"--outdir={out}"], sources, esbuild)
        return {name: (out / name).read_text(encoding="utf-8") for name in texts}


def esbuild_inline(name: str, assets: Path = ASSETS, esbuild: Path = ESBUILD) -> str:
    """Our script `name` minified with the modules INLINED names joined into it: still an ES module, which imports
    every other module of the runtime as it did (esbuild leaves them external), and exports, beside its own, what
    other modules import from the joined ones."""
    folder = (assets / name).parent
    inlined = {(assets / part).relative_to(folder).as_posix() for part in (name, *INLINED[name])}
    external = sorted(f"--external:./{path.relative_to(folder).as_posix()}" for path in folder.rglob("*.js")
                      if path.relative_to(folder).as_posix() not in inlined)
    entry = f"export * from {json.dumps(specifier_of(name, name))};\n" + "".join(
        f"export {{ {', '.join(names)} }} from {json.dumps(specifier_of(name, module))};\n"
        for module, names in names_taken(name, assets).items())
    with tempfile.TemporaryDirectory() as work:
        # A copy of the script's folder with the entry beside it, so that each import names the same file.
        shutil.copytree(folder, Path(work), dirs_exist_ok=True)
        (Path(work) / ENTRY).write_text(entry, encoding="utf-8")
        return run_esbuild([ENTRY, "--bundle", "--format=esm", "--minify", *external], Path(work), esbuild)


def runtime_sources(folder: Path = RUNTIME) -> str:
    """Every module of the page runtime in one text: what its offline bundle is made from, and named by."""
    return json.dumps({path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
                       for path in sorted(folder.rglob("*.js"))}, ensure_ascii=False)


def lms_sources(folder: Path = RUNTIME) -> str:
    """What the SCORM bridge's bundle is made from, and named by: the runtime's modules and the library it joins."""
    library = folder.parent / LMS_ONLY / FFLATE_FILES[0]
    return runtime_sources(folder) + "\0" + (library.read_text(encoding="utf-8") if library.is_file() else "")


def esbuild_bundle(minify: bool, folder: Path = RUNTIME, esbuild: Path = ESBUILD, entry: str = RUNTIME_ENTRY
                   ) -> str:
    """The page runtime as one classic script, for pages opened from disk (browsers refuse ES modules there): its
    modules from `entry` on, `import("./x.js")` included, each run when first imported. A module's
    `import.meta.url` is its address as the site has it (taken from the bundle's, which sits in the same folder)."""
    with tempfile.TemporaryDirectory() as work:
        # The modules' folder and the vendored library beside it, as the package has them.
        modules = Path(work) / folder.name
        for path in folder.rglob("*.js"):
            name = path.relative_to(folder).as_posix()
            (modules / name).parent.mkdir(parents=True, exist_ok=True)
            (modules / name).write_text(path.read_text(encoding="utf-8").replace(
                "import.meta.url", f"new URL({json.dumps(name)}, __zqBase).href"), encoding="utf-8")
        if (folder.parent / LMS_ONLY).is_dir():
            shutil.copytree(folder.parent / LMS_ONLY, Path(work) / LMS_ONLY)
        if entry in BUNDLE_FIRST:
            first = sorted(path.relative_to(folder).as_posix() for path in folder.glob(BUNDLE_FIRST[entry]))
            (modules / "bundle-entry.js").write_text(
                "".join(f'import "./{name}";\n' for name in [*first, entry]), encoding="utf-8")
            entry = "bundle-entry.js"
        return run_esbuild([entry, "--bundle", "--format=iife", f"--banner:js={BUNDLE_START}",
                            *(["--minify"] if minify else [])], modules, esbuild)
