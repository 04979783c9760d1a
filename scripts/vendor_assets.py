"""Copy browser assets from node_modules (installed by `npm ci` from package-lock.json) into the package.

KaTeX (build-time math and its CSS and fonts), Pyodide (Python in the browser's worker), Ace (the code editor)
and iframe-worker (the search shim for file:// pages) come from their official npm packages. The copies are
git-ignored and shipped in the sdist and the wheel, so a site never loads them from another host. Each
package's licence travels with it. KaTeX's CSS lists woff2, woff and ttf fonts; every browser we support reads
woff2, so only those are shipped and the CSS names only them. Our own scripts and stylesheets are minified, and the
runtime's offline bundle made, by esbuild (an npm development dependency) into vendor/minified, so a site built
from an installed package needs no Node.

`make setup` runs this script, and so does the build hook (hatch_build.py) when the package is built from a
source checkout: the file lists below are the one list both use, and `missing_files` is what the hook checks
before it lets a wheel or an sdist be made.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The file lists live in the package (the plugin checks them too); loaded by path, as nothing is installed yet.
_spec = importlib.util.spec_from_file_location("zadachnik_vendored", ROOT / "plugins/zadachnik/runtime/vendored.py")
vendored = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vendored)
KATEX_FILES, PYODIDE_FILES, ACE_FILES, IFRAME_WORKER_FILES, FFLATE_FILES = (
    vendored.KATEX_FILES, vendored.PYODIDE_FILES, vendored.ACE_FILES, vendored.IFRAME_WORKER_FILES,
    vendored.FFLATE_FILES)
NODE = ROOT / "node_modules"
VENDOR = ROOT / "plugins" / "zadachnik" / "runtime" / "assets" / "vendor"
# Written last, so a copy that was interrupted is never taken for a complete one.
STAMP = VENDOR / ".stamp"
# What the vendored files are made from: when one of these changes, the copies are made again.
INPUTS = ("package.json", "package-lock.json", "scripts/vendor_assets.py", "plugins/zadachnik/runtime/vendored.py")

NPM_PACKAGES = ("katex", "pyodide", "ace-builds", "iframe-worker", "fflate", "esbuild")


def vendored_files(vendor: Path = VENDOR) -> list[str]:
    return vendored.vendored_files(vendor)


def missing_files(vendor: Path = VENDOR) -> list[str]:
    return vendored.missing_files(vendor)


def fingerprint(root: Path = ROOT) -> str:
    digest = hashlib.sha256()
    own = [(vendored.ASSETS / name).relative_to(ROOT).as_posix() for name in vendored.own_assets()]
    for name in (*INPUTS, *own):
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return digest.hexdigest()


def up_to_date() -> bool:
    """Complete, and made from the package-lock.json and the copy step that are here now."""
    return (not missing_files() and all((VENDOR / name).is_file() for name in minified_files()) and STAMP.is_file()
            and STAMP.read_text(encoding="utf-8").strip() == fingerprint())


def fresh(target: Path) -> Path:
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    return target


def vendor_katex() -> None:
    source, target = NODE / "katex", fresh(VENDOR / "katex")
    (target / "fonts").mkdir()
    shutil.copy2(source / "dist" / "katex.min.js", target / "katex.min.js")
    shutil.copy2(source / "LICENSE", target / "LICENSE")
    css = (source / "dist" / "katex.min.css").read_text(encoding="utf-8")
    css = re.sub(r',url\(fonts/[^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)', "", css)
    (target / "katex.min.css").write_text(css, encoding="utf-8")
    for font in sorted(set(vendored.FONT_URL.findall(css))):
        shutil.copy2(source / "dist" / "fonts" / font, target / "fonts" / font)


def vendor_pyodide() -> None:
    source, target = NODE / "pyodide", fresh(VENDOR / "pyodide")
    for name in PYODIDE_FILES:
        shutil.copy2(source / name, target / name)
    # The npm package carries no licence file; its package.json names the licence.
    package = json.loads((source / "package.json").read_text(encoding="utf-8"))
    (target / "LICENSE").write_text(
        f"Pyodide {package['version']} (npm package 'pyodide'), licensed under {package['license']}.\n"
        "Source and full licence texts: the Pyodide project's repository.\n",
        encoding="utf-8",
    )


def vendor_ace() -> None:
    source, target = NODE / "ace-builds", fresh(VENDOR / "ace")
    for name in ACE_FILES:
        shutil.copy2(source / "src-min-noconflict" / name, target / name)
    shutil.copy2(source / "LICENSE", target / "LICENSE")


def vendor_iframe_worker() -> None:
    """The Web Worker shim mkdocs-material's offline plugin uses for search on file:// pages (it would load it
    from a CDN otherwise)."""
    source, target = NODE / "iframe-worker", fresh(VENDOR / "iframe-worker")
    shutil.copy2(source / "shim" / "index.js", target / "shim.js")
    shutil.copy2(source / "LICENSE", target / "LICENSE")


def vendor_fflate() -> None:
    """fflate's ES module for browsers, which the SCORM bridge's bundle joins."""
    source, target = NODE / "fflate", fresh(VENDOR / "fflate")
    shutil.copy2(source / "esm" / "browser.js", target / FFLATE_FILES[0])
    shutil.copy2(source / "LICENSE", target / "LICENSE")


def minified_sources() -> dict[str, str]:
    """What the package ships made by esbuild, by name: our scripts and stylesheets, and the offline bundle
    (minified and as written), with the sources each is named by. The modules inlined into a script need no
    copy of their own."""
    texts = {name: vendored.shipped_source(name) for name in vendored.own_assets()
             if name not in vendored.inlined_modules()}
    return {**texts, vendored.RUNTIME_BUNDLE: vendored.runtime_sources(),
            vendored.READABLE_BUNDLE: vendored.runtime_sources(), vendored.LMS_BUNDLE: vendored.lms_sources()}


def minified_files() -> list[str]:
    """The minified copies a complete package holds under assets/vendor, named by the sources it holds."""
    folder = vendored.MINIFIED.relative_to(VENDOR).as_posix()
    return sorted(f"{folder}/{vendored.minified_name(name, text)}" for name, text in minified_sources().items())


def vendor_minified() -> None:
    """Our scripts and stylesheets minified, and the offline bundle, each under the name its source gives it."""
    sources = minified_sources()
    esbuild = NODE / ".bin" / "esbuild"
    own = set(vendored.own_assets())
    made = vendored.esbuild_minify({name: text for name, text in sources.items()
                                    if name in own and name not in vendored.INLINED}, esbuild)
    made.update((name, vendored.esbuild_inline(name, esbuild=esbuild)) for name in vendored.INLINED)
    made[vendored.RUNTIME_BUNDLE] = vendored.esbuild_bundle(True, esbuild=esbuild)
    made[vendored.READABLE_BUNDLE] = vendored.esbuild_bundle(False, esbuild=esbuild)
    made[vendored.LMS_BUNDLE] = vendored.esbuild_bundle(True, esbuild=esbuild, entry=vendored.LMS_ENTRY)
    target = fresh(vendored.MINIFIED)
    for name, text in made.items():
        (target / vendored.minified_name(name, sources[name])).write_text(text, encoding="utf-8")


def vendor_all() -> list[str]:
    """Copy everything; the problems that stop it (an npm package or a copied file missing), empty when done."""
    absent = [package for package in NPM_PACKAGES if not (NODE / package).is_dir()]
    if absent:
        return [f"node_modules/{package} is missing: run 'npm ci' first" for package in absent]
    STAMP.unlink(missing_ok=True)
    vendor_katex()
    vendor_pyodide()
    vendor_ace()
    vendor_iframe_worker()
    vendor_fflate()
    try:
        vendor_minified()
    except vendored.MinifyError as error:
        return [str(error)]
    missing = missing_files()
    if missing:
        return [f"{VENDOR.relative_to(ROOT) / name} was not copied" for name in missing]
    STAMP.write_text(fingerprint() + "\n", encoding="utf-8")
    return []


def main() -> int:
    problems = vendor_all()
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print("vendored KaTeX, Pyodide, Ace, the search shim, fflate and our minified scripts into "
              f"{VENDOR.relative_to(ROOT)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
