"""Copy browser assets from node_modules (installed by `npm ci` from package-lock.json) into the package.

KaTeX (build-time math and its CSS and fonts), Pyodide (Python in the browser's worker) and Ace (the code
editor) come from their official npm packages. The copies are git-ignored and shipped in the wheel, so a site
never loads them from another host. Each package's licence travels with it. KaTeX's CSS lists woff2, woff and
ttf fonts; every browser we support reads woff2, so only those are shipped and the CSS names only them.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "node_modules"
VENDOR = ROOT / "plugins" / "zadachnik" / "assets" / "vendor"


def vendor_katex() -> None:
    source, target = NODE / "katex", VENDOR / "katex"
    if target.exists():
        shutil.rmtree(target)
    (target / "fonts").mkdir(parents=True)
    shutil.copy2(source / "dist" / "katex.min.js", target / "katex.min.js")
    shutil.copy2(source / "LICENSE", target / "LICENSE")
    css = (source / "dist" / "katex.min.css").read_text(encoding="utf-8")
    css = re.sub(r',url\(fonts/[^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)', "", css)
    (target / "katex.min.css").write_text(css, encoding="utf-8")
    for font in sorted((source / "dist" / "fonts").glob("*.woff2")):
        shutil.copy2(font, target / "fonts" / font.name)


# pyodide.js is the classic loader the offline build embeds (file:// pages refuse modules).
PYODIDE_FILES = (
    "pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"
)
# Ace's editor core, its Python mode and a light and a dark theme; the rest of ace-builds is not needed.
ACE_FILES = ("ace.js", "mode-python.js", "theme-github_light_default.js", "theme-github_dark.js")


def fresh(target: Path) -> Path:
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    return target


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


def main() -> int:
    for package in ("katex", "pyodide", "ace-builds", "iframe-worker"):
        if not (NODE / package).is_dir():
            print(f"node_modules/{package} is missing: run 'npm ci' first", file=sys.stderr)
            return 1
    vendor_katex()
    vendor_pyodide()
    vendor_ace()
    vendor_iframe_worker()
    print(f"vendored KaTeX into {VENDOR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
