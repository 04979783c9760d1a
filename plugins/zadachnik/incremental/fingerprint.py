"""What stands for the code that made a build's pages, for what is kept between builds: Zadachnik's own files by
their bytes, and each other package that takes part (MkDocs, Markdown and its extensions, the theme, the other
plugins and hooks) by its installed files' bytes, so an upgrade or an edited hook starts afresh, and a fresh
install of the same versions (a CI job's new environment, with the cache folder restored) does not."""

from __future__ import annotations

import csv
import hashlib
import importlib.util
import os
import sys
import sysconfig
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

from zadachnik.core.shapes import Shape, conforms
from zadachnik.incremental.blobs import BlobFolder, open_regular

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


class InstalledDigests:
    """Digests of installed files' bytes (a package's Python files, the distributions' records), remembered by
    where each file is, its size and when it was written: a build reads the files again only when one of these
    changed (after an install, say), and a fresh install of the same files gives the same digest. Kept in a
    site's cache folder; a memo that is missing or damaged only means reading the files again."""

    KEY = "installed-packages"
    KEPT = 200
    # By the files' stamps: a digest of their bytes ("files"), or the records' digest and the names they list.
    SHAPE = Shape(dict[str, str | tuple[str, list[str]]])

    def __init__(self, store: BlobFolder | None = None) -> None:
        self.store = store
        kept = store.get(self.KEY, self.SHAPE) if store is not None else None
        self.known: dict[str, Any] = kept if kept is not None else {}
        self.used: dict[str, Any] = {}
        # The installation's stamp, worked out once for the build's fingerprint and its modules' key alike.
        self.installation: str | None = None

    def digest(self, folder: Path, sources: list[Path]) -> str:
        """Files under `folder` by their paths in it and their bytes."""
        def made() -> str:
            hashed = hashlib.sha256()
            for source in sources:
                hashed.update(encoded(source.relative_to(folder).as_posix()) + b"\0" + file_bytes(source) + b"\0")
            return hashed.hexdigest()

        return self.remembered("files", sources, made, str)

    def records(self, records: list[Path]) -> tuple[str, set[str]]:
        """The distributions' records of what they installed in their folder (`record_rows`), and the names in the
        folder they list."""
        def made() -> tuple[str, list[str]]:
            rows = sorted(row for record in records for row in record_rows(file_bytes(record)))
            return (hashlib.sha256(encoded("\n".join(rows))).hexdigest(),
                    sorted({row.split("/", 1)[0].split(",", 1)[0] for row in rows}))

        digest, listed = self.remembered("records", records, made, tuple[str, list[str]])
        return digest, set(listed)

    def remembered(self, kind: str, sources: list[Path], made: Callable[[], Any], shape: Any) -> Any:
        """What `made` gives for these files, from the memo while their stamps are the ones it was made with (a
        value of another shape than `made` gives, from a damaged or foreign memo, is made again)."""
        stamps = hashlib.sha256(encoded(kind + "".join(f"\0{source}\0{stamp(source)}" for source in sources)))
        key = stamps.hexdigest()
        found = self.known.get(key)
        if not conforms(found, shape):
            found = made()
        self.used[key] = found
        return found

    def save(self) -> None:
        """Keeps what this build used besides what others did (`zadachnik check` stamps fewer packages than a
        build), until installs have left more than `KEPT` stamps behind."""
        kept = {**self.known, **self.used}
        if self.store is None or kept == self.known:
            return
        try:
            self.store.put(self.KEY, kept if len(kept) <= self.KEPT else self.used)
        except OSError:
            pass  # the next build reads the files again, nothing more
        self.known = kept


def installed_store(cache_folder: Path) -> BlobFolder:
    """Where a site's cache folder keeps `InstalledDigests`."""
    return BlobFolder(cache_folder / "installed")


def code_fingerprint(modules: Iterable[str], files: Iterable[Path] = (), katex: str = "",
                     installed: InstalledDigests | None = None) -> str:
    """Python's version, Zadachnik's code, KaTeX's (its engine key), each named module's package (imported
    already: the build loaded it), these files (hooks) and every other module loaded from outside the
    installation (what hooks and local extensions import) by their bytes, and the installation itself (a
    package installed or removed, numpy for a values file say, changes its folder)."""
    installed = installed or InstalledDigests()
    hashed = hashlib.sha256(f"{sys.version}\0{own_code()}\0{katex}\0".encode())
    for name in sorted({name.partition(".")[0] for name in modules if name}):
        hashed.update(f"{name}\0{package_stamp(name, installed)}\0".encode())
    for path in sorted(set(files) | set(local_modules())):
        hashed.update(encoded(f"{path}\0") + file_bytes(path) + b"\0")
    hashed.update(encoded(installation_stamp(installed)))
    return hashed.hexdigest()


def installation() -> list[Path]:
    return sorted({Path(entry) for entry in sys.path if any(part in _INSTALLED for part in Path(entry).parts)
                   and Path(entry).is_dir()})


def is_installed(path: Path) -> bool:
    """Part of Python's standard library or of an installed package (not merely under Python's prefix: a site
    may live in /usr/src, under a system Python's /usr)."""
    return any(part in _INSTALLED for part in path.parts) or any(path.is_relative_to(folder)
                                                                   for folder in library_folders())


@cache
def library_folders() -> tuple[Path, ...]:
    folders = set()
    for base, platbase in ((sys.prefix, sys.exec_prefix), (sys.base_prefix, sys.base_exec_prefix)):
        paths = sysconfig.get_paths(vars={"base": base, "platbase": platbase, "installed_base": base,
                                          "installed_platbase": platbase})
        folders.update(Path(paths[name]) for name in ("stdlib", "platstdlib", "purelib", "platlib") if name in paths)
    return tuple(sorted(folders))


def local_modules() -> list[Path]:
    """The files of the loaded modules that are neither installed, nor Python's own, nor Zadachnik's."""
    found = []
    for module in list(sys.modules.values()):
        location = getattr(module, "__file__", None)
        if isinstance(location, str) and location.endswith(".py"):
            path = Path(location)
            if not is_installed(path) and not path.is_relative_to(PACKAGE):
                found.append(path)
    return found


def package_stamp(top: str, installed: InstalledDigests) -> str:
    """A loaded package (or module), see `files_stamp`."""
    location = getattr(sys.modules.get(top), "__file__", None)
    return files_stamp(Path(location), installed) if location else "not loaded"


def files_stamp(origin: Path, installed: InstalledDigests) -> str:
    """A package by its top file (`__init__.py`, or a single module), by its Python files' bytes: installed, by
    the digest `installed` keeps for them; beside the site, which an author edits, read every time."""
    sources = python_files(origin.parent) if origin.name == "__init__.py" else [origin]
    if is_installed(origin):
        return installed.digest(origin.parent, sources)
    return hashlib.sha256(b"".join(encoded(source.as_posix()) + file_bytes(source) for source in sources)).hexdigest()


def installation_stamp(installed: InstalledDigests) -> str:
    """The installation's folders by what they hold, wherever they are (a CI job's new environment may be in
    another folder): the names in them (a package installed, upgraded or removed changes them: a distribution's
    metadata folder is named with its version), each distribution's record of its files' digests (the same version
    installed again from other code changes it), and what no record lists (a Debian package beside its .egg-info,
    a module copied in by hand) by its size and time, as a package manager's swap of a file replaces it. Python's
    bytecode folders come and go with imports."""
    if installed.installation is not None:
        return installed.installation
    stamps = []
    for folder in installation():
        names = names_in(folder)
        digest, listed = installed.records([folder / name / "RECORD" for name in names if name.endswith(".dist-info")])
        unlisted = [f"{name} {stamp(folder / name)}" for name in names
                    if name not in listed and not name.endswith(".dist-info")]
        stamps.append(f"{names}\0{digest}\0{unlisted}\0")
    installed.installation = "".join(stamps)
    return installed.installation


def record_rows(record: bytes) -> list[str]:
    """A distribution's RECORD, less what differs between installs of the same code: the rows of files outside its
    folder (console scripts, whose first line names the interpreter) and of its metadata (the tool that built or
    installed it), but for its entry points, which decide what a plugin's or extension's name loads."""
    rows = []
    for line in record.decode("utf-8", "surrogateescape").splitlines():
        path = next(csv.reader([line]), [""])[0] if line.strip() else ""
        top, _, rest = path.partition("/")
        if not path or path.startswith("../") or (top.endswith(".dist-info") and rest != "entry_points.txt"):
            continue
        rows.append(line)
    return rows


def names_in(folder: Path) -> list[str]:
    try:
        return sorted(set(os.listdir(folder)) - {"__pycache__"})
    except OSError:
        return ["unreadable"]


def python_files(folder: Path) -> list[Path]:
    found = []
    for root, folders, names in os.walk(folder):
        # Icons, caches and other data folders hold no code (mkdocs-material's .icons has thousands of files).
        folders[:] = sorted(name for name in folders if not name.startswith(".") and name != "__pycache__")
        found.extend(Path(root) / name for name in sorted(names) if name.endswith(".py"))
    return found


def encoded(text: str) -> bytes:
    """Text to hash, names that are not UTF-8 on disk included (os.listdir gives them as surrogates)."""
    return text.encode("utf-8", "surrogateescape")


def stamp(path: Path) -> str:
    try:
        found = path.stat()
    except OSError:
        return "unreadable"
    return f"{found.st_size} {found.st_mtime_ns}"


def file_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b"\1unreadable"


def content_digest(path: Path) -> str:
    """A file by the digest of its bytes, read a block at a time; one that is missing, or cannot be read (or is no
    regular file: a FIFO, a device), by a word of its own. A kept entry names the files: any it names costs the
    build no more memory than a block."""
    try:
        with open_regular(path) as opened:
            return hashlib.file_digest(opened, "sha256").hexdigest()
    except FileNotFoundError:
        return "missing"
    except OSError:
        return "unreadable"


def code_digests(files: Iterable[Path] | dict[str, str]) -> dict[str, str]:
    """Each file by `content_digest` (a dict given: its files, as they are now)."""
    return {str(path): content_digest(Path(path)) for path in sorted(map(str, files))}


def module_code(installed: InstalledDigests | None = None) -> str:
    """What stands for the code that reads and checks a module (not its pages): Python's version, Zadachnik's
    code, PyYAML's and Babel's, and the installation (what values files and solutions import). The build and
    `zadachnik check` work it out alike, so each takes the modules the other kept."""
    installed = installed or InstalledDigests()
    hashed = hashlib.sha256(f"{sys.version}\0{own_code()}\0".encode())
    for name in ("yaml", "babel"):
        # Found, not imported: the check need not load Babel to key its modules.
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        hashed.update(f"{name}\0{files_stamp(Path(origin), installed) if origin else 'missing'}\0".encode())
    hashed.update(encoded(installation_stamp(installed)))
    return hashed.hexdigest()
