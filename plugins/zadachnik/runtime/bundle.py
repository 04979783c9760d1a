"""The runtime as one classic script, for sites opened from disk.

Browsers refuse ES modules from file:// pages, so the offline build wraps each of the runtime's small modules
in a function scope and joins them in dependency order. It only has to understand the import and export forms
the runtime itself uses, and it refuses anything else rather than guess.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

_IMPORT_NAMED = re.compile(r'^import \{([^}]*)\} from "([^"]+)";\n', re.MULTILINE)
_IMPORT_ALL = re.compile(r'^import \* as (\w+) from "([^"]+)";\n', re.MULTILINE)
_EXPORT = re.compile(r"^export (async function|function|const|let|class) (\w+)", re.MULTILINE)
_DYNAMIC_IMPORT = re.compile(r'await import\("([^"]+)"\)')
# The runtime's modules, and the name its bundle is minified under (by the plugin, and when the package is made).
RUNTIME_FOLDER = Path(__file__).parent / "assets" / "js"
RUNTIME_BUNDLE = "js/zadachnik.bundle.js"


def module_var(path: str) -> str:
    return "__zq_" + re.sub(r"\W", "_", path.removesuffix(".js"))


def runtime_bundle() -> str:
    """The page runtime as one classic script, made from its readable modules."""
    return bundle(RUNTIME_FOLDER, "zadachnik.js")


def bundle(folder: Path, entry: str) -> str:
    order: list[str] = []
    sources: dict[str, str] = {}

    def visit(path: str, trail: tuple[str, ...]) -> None:
        if path in order:
            return
        if path in trail:
            raise ValueError(f"import cycle through {path}")
        text = (folder / path).read_text(encoding="utf-8")
        sources[path] = text
        for target in dependencies(text):
            visit(posixpath.normpath(posixpath.join(posixpath.dirname(path), target)), (*trail, path))
        order.append(path)

    visit(entry, ())
    parts = ["// Zadachnik's runtime as one classic script (generated from its ES modules at build).",
             '"use strict";',
             "const __zqBase = document.currentScript ? document.currentScript.src : location.href;",
             "const __zqOfflineCopy = true;"]
    for path in order:
        parts.append(wrap(path, sources[path]))
    return "\n".join(parts) + "\n"


def dependencies(text: str) -> list[str]:
    return ([target for _, target in _IMPORT_NAMED.findall(text)] + [target for _, target in _IMPORT_ALL.findall(text)]
            + _DYNAMIC_IMPORT.findall(text))


def wrap(path: str, text: str) -> str:
    here = posixpath.dirname(path)

    def resolve(target: str) -> str:
        return module_var(posixpath.normpath(posixpath.join(here, target)))

    body = _IMPORT_NAMED.sub(lambda m: f"const {{{m.group(1)}}} = {resolve(m.group(2))};\n", text)
    body = _IMPORT_ALL.sub(lambda m: f"const {m.group(1)} = {resolve(m.group(2))};\n", body)
    body = _DYNAMIC_IMPORT.sub(lambda m: resolve(m.group(1)), body)
    names = [name for _, name in _EXPORT.findall(body)]
    body = _EXPORT.sub(lambda m: f"{m.group(1)} {m.group(2)}", body)
    body = body.replace("import.meta.url", f"new URL({json.dumps(path)}, __zqBase).href")
    if re.search(r"^\s*(import|export)\b", body, re.MULTILINE) or re.search(r"\bimport\(", body):
        raise ValueError(f"{path}: an import or export form the bundler does not know")
    exports = ", ".join(names)
    return f"const {module_var(path)} = (() => {{\n{body}\nreturn {{ {exports} }};\n}})();"
