"""The browser files a complete package holds under assets/vendor: one list for the copy step
(scripts/vendor_assets.py, run by `make setup` and by the build hook) and for the plugin, which checks them
before any page is rendered; and our own scripts and stylesheets minified by esbuild, which the copy step writes
there too and the plugin ships. Standard library only: the build hook loads it before anything is installed."""

from __future__ import annotations

import hashlib
import re
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

KATEX_FILES = ("katex.min.js", "katex.min.css", "LICENSE")  # and the fonts that katex.min.css names
# pyodide.js is the classic loader the offline build embeds (file:// pages refuse modules).
PYODIDE_FILES = (
    "pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"
)
# Ace's editor core, its Python mode and a light and a dark theme; the rest of ace-builds is not needed.
ACE_FILES = ("ace.js", "mode-python.js", "theme-github_light_default.js", "theme-github_dark.js")
IFRAME_WORKER_FILES = ("shim.js", "LICENSE")
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


def minified_name(name: str, text: str) -> str:
    """The file under MINIFIED that holds `text` (our asset `name`, ending in .js or .css) minified."""
    digest = hashlib.sha256(f"{name}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
    return digest + Path(name).suffix


def esbuild_minify(texts: dict[str, str], esbuild: Path = ESBUILD) -> dict[str, str]:
    """`texts` (by name, each ending in .js or .css) minified by one run of esbuild: comments and whitespace out,
    local names shortened; ES modules stay modules (exports and imports keep their names), and a classic script's
    top-level names stay as they are, since other scripts may use them."""
    with tempfile.TemporaryDirectory() as folder:
        sources, out = Path(folder) / "in", Path(folder) / "out"
        sources.mkdir()
        for name, text in texts.items():
            (sources / minified_name(name, text)).write_text(text, encoding="utf-8")
        try:
            # Run in the sources' folder, so that its messages name each file by itself.
            done = subprocess.run([str(esbuild), *sorted(path.name for path in sources.iterdir()), "--minify",
                                   "--charset=utf8", "--log-level=error", f"--outdir={out}"],
                                  cwd=sources, capture_output=True, text=True, timeout=120)
        except OSError as error:
            raise MinifyError(f"esbuild could not run ({esbuild}): {error}") from None
        if done.returncode != 0:
            shown = done.stderr
            for name, text in texts.items():
                shown = shown.replace(minified_name(name, text), name)
            raise MinifyError(f"esbuild refused our scripts:\n{shown.strip()}")
        return {name: (out / minified_name(name, text)).read_text(encoding="utf-8") for name, text in texts.items()}
