"""Offline: the whole site as a zip that works opened from disk, Pyodide included.

Chromium refuses ES modules, module workers and fetch() for file:// pages. So the offline build gives the page
the runtime as one classic script (esbuild bundles it when the package is made), and Pyodide as one classic
script that carries its loader, its engine turned from an ES module into a classic script, and its WebAssembly
and standard library as base64 text. The page hands those to a classic worker made from a Blob, which loads
Pyodide from memory and runs the same worker code (assets/js/python-worker.js) as the http site, memory snapshots
included: Chromium gives file:// pages Cache Storage, so a second visit restores Python as over http, and a
restart uses the page's copy.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import zipfile
from pathlib import Path

from zadachnik.core.zips import add_entry

EMBED_NAME = "pyodide-embed.js"
# A page's link to its translation in its <head>, its attributes in any order: mkdocs-material writes one for each
# entry of the language selector (a feed's alternate link names no language).
TRANSLATION_LINK = re.compile(r"""<link\b(?=[^>]*\brel=["']?alternate\b)(?=[^>]*\bhreflang=)[^>]*>\s*""")
# A name for Pyodide's engine inside the worker; nothing is fetched from it (the worker answers .wasm itself).
INDEX_URL = "file:///zadachnik/pyodide/"

# Pyodide's loader refuses classic workers by probing importScripts as it loads: this comes first.
WORKER_PRELUDE = """
self.importScripts = () => { throw new Error("importScripts is not used here: everything comes from memory"); };
"""
# The worker's own code, the same text the http site runs as a module worker: here it follows Pyodide's
# classic loader and engine, and takes them and the Python files from its start message.
WORKER_SCRIPT = Path(__file__).parent / "assets" / "js" / "python-worker.js"


def classic_engine(module_text: str) -> str:
    """pyodide.asm.mjs as a classic script: its `import.meta.url` a fixed name, its default export a global."""
    text = module_text.replace("import.meta.url", json.dumps(INDEX_URL + "pyodide.asm.mjs"))
    text, exported = re.subn(r"\bexport default _createPyodideModule;?", "", text)
    if exported != 1 or re.search(r"^\s*(?:import|export)\s", text, re.MULTILINE):
        raise ValueError("pyodide.asm.mjs changed shape: the offline build can't turn it into a classic script")
    return text


def pyodide_embed(pyodide_dir: Path, python_files: dict[str, str], worker_script: str | None = None) -> str:
    """The classic script that carries Pyodide to a file:// page (loaded only on pages with Python);
    `worker_script` is the worker's code as the site ships it (the package's python-worker.js unless given)."""
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    wasm = (pyodide_dir / "pyodide.asm.wasm").read_bytes()
    embed = {
        "worker": WORKER_PRELUDE + (pyodide_dir / "pyodide.js").read_text(encoding="utf-8") + "\n"
        + classic_engine((pyodide_dir / "pyodide.asm.mjs").read_text(encoding="utf-8")) + "\n"
        + (worker_script if worker_script is not None else WORKER_SCRIPT.read_text(encoding="utf-8")),
        "indexURL": INDEX_URL,
        # Only the standard library is used: no packages to describe.
        "lock": {"info": lock["info"], "packages": {}},
        # Part of the key the worker keeps Python's memory snapshot under: another Pyodide never restores it.
        "version": "wasm-" + hashlib.sha256(wasm).hexdigest()[:16],
        "wasm": base64.b64encode(wasm).decode("ascii"),
        "stdlib": base64.b64encode((pyodide_dir / "python_stdlib.zip").read_bytes()).decode("ascii"),
        "files": python_files,
    }
    return "window.__zqPyodideEmbed = " + json.dumps(embed, ensure_ascii=True) + ";\n"


def zip_site(site_dir: Path, target: Path, top: str) -> None:
    """The built site as a deterministic zip whose entries sit under one folder named `top`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_suffix(".zip.part")
    # A zip written into the folder it packs leaves itself out: it held the previous run's copy.
    itself = {target.resolve(), temporary.resolve()}
    paths = sorted(path for path in site_dir.rglob("*") if path.is_file() and path.resolve() not in itself)
    with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for path in paths:
            add_entry(archive, f"{top}/{path.relative_to(site_dir).as_posix()}", path.read_bytes(), compresslevel=6)
    os.replace(temporary, target)


def without_translation_links(html: str) -> str:
    """A page for the offline copy, without the head's links to its translations: mkdocs-material fetches a
    sitemap.xml beside each of them for its language selector, and a page opened from disk may fetch nothing (a
    console error for each, on every page). The selector's own links lead to the translations all the same."""
    end = html.find("</head>")
    if end < 0:
        return html
    return TRANSLATION_LINK.sub("", html[:end]) + html[end:]
