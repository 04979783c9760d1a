"""The browser files a complete package holds under assets/vendor: one list for the copy step
(scripts/vendor_assets.py, run by `make setup` and by the build hook) and for the plugin, which checks them
before any page is rendered. Standard library only: the build hook loads it before anything is installed."""

from __future__ import annotations

import re
from pathlib import Path

VENDOR = Path(__file__).parent / "assets" / "vendor"

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
