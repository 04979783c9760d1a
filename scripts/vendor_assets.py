"""Copy browser assets from node_modules (installed by `npm ci` from package-lock.json) into the package.

KaTeX (build-time math and its CSS and fonts), Pyodide (Python in the browser's worker), Ace (the code editor)
and iframe-worker (the search shim for file:// pages) come from their official npm packages. The copies are
git-ignored and shipped in the sdist and the wheel, so a site never loads them from another host. Each
package's licence travels with it. KaTeX's CSS lists woff2, woff and ttf fonts; every browser we support reads
woff2, so only those are shipped and the CSS names only them.

`make setup` runs this script, and so does the build hook (hatch_build.py) when the package is built from a
source checkout: the file lists below are the one list both use, and `missing_files` is what the hook checks
before it lets a wheel or an sdist be made.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "node_modules"
VENDOR = ROOT / "plugins" / "zadachnik" / "assets" / "vendor"
# Written last, so a copy that was interrupted is never taken for a complete one.
STAMP = VENDOR / ".stamp"
# What the vendored files are made from: when one of these changes, the copies are made again.
INPUTS = ("package.json", "package-lock.json", "scripts/vendor_assets.py")

NPM_PACKAGES = ("katex", "pyodide", "ace-builds", "iframe-worker")
KATEX_FILES = ("katex.min.js", "katex.min.css", "LICENSE")  # and the fonts that katex.min.css names
# pyodide.js is the classic loader the offline build embeds (file:// pages refuse modules).
PYODIDE_FILES = (
    "pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"
)
# Ace's editor core, its Python mode and a light and a dark theme; the rest of ace-builds is not needed.
ACE_FILES = ("ace.js", "mode-python.js", "theme-github_light_default.js", "theme-github_dark.js")
IFRAME_WORKER_FILES = ("shim.js", "LICENSE")

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
    return files


def missing_files(vendor: Path = VENDOR) -> list[str]:
    return [name for name in vendored_files(vendor) if not (vendor / name).is_file()]


def fingerprint(root: Path = ROOT) -> str:
    digest = hashlib.sha256()
    for name in INPUTS:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return digest.hexdigest()


def up_to_date() -> bool:
    """Complete, and made from the package-lock.json and the copy step that are here now."""
    return not missing_files() and STAMP.is_file() and STAMP.read_text(encoding="utf-8").strip() == fingerprint()


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
    for font in sorted(set(FONT_URL.findall(css))):
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
        print(f"vendored KaTeX, Pyodide, Ace and the search shim into {VENDOR.relative_to(ROOT)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
