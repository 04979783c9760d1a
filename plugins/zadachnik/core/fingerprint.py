"""What stands for the code that made a build's pages, for what is kept between builds: Zadachnik's own files by
their bytes, and each other package that takes part (MkDocs, Markdown and its extensions, the theme, the other
plugins and hooks) by its installed files, so an upgrade, a reinstall or an edited hook starts afresh."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
# Shipped to the browser only: they make no page (KaTeX, which does, is keyed by its own script).
_NOT_CODE = ("runtime/assets/vendor", "__pycache__")
_INSTALLED = ("site-packages", "dist-packages")


@cache
def own_code() -> str:
    hashed = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*")):
        relative = path.relative_to(PACKAGE).as_posix()
        if path.is_file() and not any(relative.startswith(part) or f"/{part}" in relative for part in _NOT_CODE):
            hashed.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
    return hashed.hexdigest()


def code_fingerprint(modules: Iterable[str], files: Iterable[Path] = (), katex: str = "") -> str:
    """Python's version, Zadachnik's code, KaTeX's (its engine key), each named module's package (imported
    already: the build loaded it), and these files (hooks), by their bytes."""
    hashed = hashlib.sha256(f"{sys.version}\0{own_code()}\0{katex}\0".encode())
    for name in sorted({name.partition(".")[0] for name in modules if name}):
        hashed.update(f"{name}\0{package_stamp(name)}\0".encode())
    for path in sorted(set(files)):
        hashed.update(f"{path}\0".encode() + file_bytes(path) + b"\0")
    return hashed.hexdigest()


def package_stamp(top: str) -> str:
    """An installed package by where its top file is and when it was written (an install writes every file
    anew); one beside the site, which an author edits, by its sources' bytes."""
    module = sys.modules.get(top)
    location = getattr(module, "__file__", None)
    if not location:
        return "not loaded"
    path = Path(location)
    if any(part in _INSTALLED for part in path.parts):
        try:
            found = path.stat()
        except OSError:
            return f"{path} unreadable"
        return f"{path} {found.st_size} {found.st_mtime_ns}"
    sources = sorted(path.parent.rglob("*.py")) if path.name == "__init__.py" else [path]
    return hashlib.sha256(b"".join(source.as_posix().encode() + file_bytes(source) for source in sources)).hexdigest()


def file_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b"\1unreadable"
