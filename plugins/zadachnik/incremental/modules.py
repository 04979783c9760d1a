"""Modules kept between builds: a module whose folder has not changed by a byte is taken as the last build read
and checked it, so a build after an edit reads and checks only what changed. Between the builds of one
`mkdocs serve` they stay in memory; with a store, on disk too, for the next `mkdocs build`, keyed also by the code
that read them (an upgrade reads everything again).

A module's model comes from its folder alone (its sources, its values file and what that reads there, its
course files) and the site's languages; references never lead out of a module. Only modules of a build that
passed are kept, so a module with a problem is read again, and reported again, until it is mended.
"""

from __future__ import annotations

import functools
import hashlib
import operator
import os
import typing
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any

from zadachnik.checking.checks import check_module
from zadachnik.core.errors import SourceError
from zadachnik.core.shapes import Shape
from zadachnik.incremental.blobs import BlobFolder
from zadachnik.incremental.fingerprint import (
    PACKAGE,
    InstalledDigests,
    content_digest,
    installed_store,
    is_installed,
    module_code,
)
from zadachnik.qtypes import QuestionType, registry
from zadachnik.qtypes.mixed import AUTO_TYPES, MixedKey
from zadachnik.reading.model import Course, Loader, Module, Question
from zadachnik.reading.variants import Variant


def folder_digest(folder: Path) -> str:
    """Every file under `folder`, by its path and bytes, and every folder by its path: an empty folder in files/
    is an entry of the course-files zip, whose size the page shows."""
    hashed = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_dir():
            hashed.update(path.relative_to(folder).as_posix().encode("utf-8", "surrogateescape") + b"/\0")
        elif path.is_file():
            hashed.update(path.relative_to(folder).as_posix().encode("utf-8", "surrogateescape") + b"\0")
            try:
                hashed.update(path.read_bytes())
            except OSError:
                hashed.update(b"\1unreadable")
            hashed.update(b"\0")
    return hashed.hexdigest()


@dataclass
class KeptModules:
    """The modules of the last build that passed, by folder, with the digest of what they were read from."""

    modules: dict[Path, tuple[str, Module]] = field(default_factory=dict)
    # This build's modules and their digests (taken before each was read), kept once the build has passed.
    read: dict[Path, tuple[str, Module]] = field(default_factory=dict)
    # The modules this build read afresh (changed or new).
    fresh: list[Module] = field(default_factory=list)
    # Where modules outlive the process, and what stands for the code that read them.
    store: BlobFolder | None = None
    code: str = ""

    def use_store(self, store: BlobFolder | None, code: str) -> None:
        self.store, self.code = store, code

    def use_site_cache(self, folder: Path, base: Path, installed: InstalledDigests | None = None) -> None:
        """The modules a site's builds and checks keep, in its cache `folder`, by the code that reads them (the
        build and `zadachnik check` alike)."""
        installed = installed or InstalledDigests(installed_store(folder))
        self.use_store(BlobFolder(folder / "modules"), f"{module_code(installed)}\0{base}")
        installed.save()

    def load(self, root: Path, languages: list[str], base: Path, remember: bool = True
             ) -> tuple[list[Course], list[Module]]:
        """The courses under `root`, and the modules among them that were read afresh (changed or new). Unless
        `remember` or a store, nothing is taken from the last build or noted for the next."""
        if not remember and self.store is None:
            self.modules = {}
            courses = Loader(root, languages, base).load()
            self.read, self.fresh = {}, [module for course in courses for module in course.modules]
            return courses, self.fresh
        loader = ReusingLoader(root, languages, base, kept=self.modules if remember else {}, store=self.store,
                               code=self.code)
        courses = loader.load()
        self.read, self.fresh = loader.read, loader.fresh
        return courses, loader.fresh

    def digests(self) -> dict[Path, str]:
        """The digest of each folder this build read its module from (taken before it was read)."""
        return {folder: digest for folder, (digest, _) in self.read.items()}

    def keep(self) -> None:
        """After the modules passed their checks: keep them for the next build (and in the store, the fresh ones;
        the store keeps only this build's)."""
        # `read` stays as it is until the next build reads again: the page cache takes its digests.
        self.modules = dict(self.read)
        if self.store is None:
            return
        fresh = {id(module) for module in self.fresh}
        for folder, (digest, module) in self.read.items():
            if id(module) in fresh:
                try:
                    self.store.put(stored_key(self.code, folder, digest), module)
                except OSError:
                    return  # the site is built all the same; only the next build reads more
        self.store.keep_only({stored_key(self.code, folder, digest) for folder, (digest, _) in self.read.items()})


@dataclass
class ReusingLoader(Loader):
    kept: dict[Path, tuple[str, Module]] = field(default_factory=dict)
    read: dict[Path, tuple[str, Module]] = field(default_factory=dict)
    fresh: list[Module] = field(default_factory=list)
    store: BlobFolder | None = None
    code: str = ""

    def module(self, folder: Path) -> Module | None:
        digest = ",".join(self.languages) + ":" + folder_digest(folder)
        kept = self.kept.get(folder)
        if kept is not None and kept[0] == digest and unchanged_outside(kept[1]):
            module = kept[1]
        elif (stored := self.stored(folder, digest)) is not None:
            module = stored
        else:
            from zadachnik.python.runner import files_opened

            with files_opened() as opened:
                module = super().module(folder)
            if module is None:
                return None
            outside = read_outside(folder, opened)
            # A folder saved while it was read: what was read may be neither version, so it is read again.
            changed = folder_digest(folder) != digest.split(":", 1)[1]
            module.outside = dict(UNKNOWN_READS) if outside is None or changed else outside
            self.fresh.append(module)
        self.read[folder] = (digest, module)
        return module

    def stored(self, folder: Path, digest: str) -> Module | None:
        if self.store is None:
            return None
        found = self.store.get(stored_key(self.code, folder, digest), module_shape())
        # The folder is part of the key: a module's model holds its paths (and messages, the base's).
        if found is not None and found.path == folder and unchanged_outside(found):
            return found
        return None


# What a module whose code's reads could not be told records: no file has this digest, so it is read again.
UNKNOWN_READS = {"<what its code read is unknown>": "unknown"}
# What the system shows as files (a process's own state, devices): no source of a module's figures.
SYSTEM = ("/proc/", "/sys/", "/dev/")


def read_outside(folder: Path, opened: list[str | None]) -> dict[str, str] | None:
    """What the module's runs read outside `folder` (files by their bytes, folders by their listing; not Python's
    installation or Zadachnik's own files, which the code fingerprint covers), by digest; None if a run could not
    tell what it read."""
    if None in opened:
        return None
    inside = folder.resolve()
    outside = {}
    for name in sorted({entry for entry in opened if entry is not None}):
        kind, _, place = name.partition(":")
        path = source_of(Path(place))
        if place.startswith(SYSTEM) or is_installed(path) or path.is_relative_to(PACKAGE) \
                or path.resolve().is_relative_to(inside):
            continue
        key = f"{kind}:{path}"
        outside[key] = read_digest(key)
    return outside


def source_of(path: Path) -> Path:
    """A module's source for its bytecode (what an import opens when the bytecode is up to date)."""
    if path.suffix == ".pyc" and path.parent.name == "__pycache__":
        return path.parent.parent / (path.name.split(".", 1)[0] + ".py")
    return path


def read_digest(key: str) -> str:
    """A file's bytes or a folder's names, as `read_outside` writes them ("file:…", "folder:…"); what is
    missing has a digest of its own, so a file that appears later is seen."""
    kind, _, place = key.partition(":")
    if kind != "folder":
        return content_digest(Path(place))
    try:
        return hashlib.sha256("\0".join(sorted(os.listdir(place))).encode("utf-8", "surrogateescape")).hexdigest()
    except FileNotFoundError:
        return "missing"
    except OSError:
        return "unreadable"


def recorded_read(key: str) -> bool:
    """What `read_outside` writes: a file or folder by its absolute path, none of the system's; or UNKNOWN_READS."""
    kind, _, place = key.partition(":")
    return key in UNKNOWN_READS or (kind in ("file", "folder") and os.path.isabs(place)
                                    and not place.startswith(SYSTEM))


@functools.cache
def module_shape() -> Shape:
    """What the store holds of a module: its model, whose `Any`s are known, each question's key (and each of its
    variants') the one its type builds, and what its code read outside it as `read_outside` writes it."""
    types = [type(qtype) for qtype in registry().values()]
    built = {kind: typing.get_type_hints(kind.build)["return"] for kind in types}
    question_types, keys = functools.reduce(operator.or_, types), functools.reduce(operator.or_, built.values())

    def key_fits(qtype: QuestionType, key: Any) -> bool:
        if type(key) is not built[type(qtype)]:
            return False
        return not isinstance(key, MixedKey) or (key.auto.name in AUTO_TYPES and key_fits(key.auto, key.key))

    def keys_fit(question: Question) -> bool:
        variants = question.variants.items if question.variants is not None else []
        return all(key_fits(question.qtype, key) for key in [question.key, *(variant.key for variant in variants)])

    return Shape(Module, fields={
        Module: {"outside": dict[Annotated[str, recorded_read], str]},
        Question: {"qtype": question_types, "key": keys},
        Variant: {"key": keys},
        MixedKey: {"auto": question_types, "key": keys},
    }, rules={Question: keys_fit})


def unchanged_outside(module: Module) -> bool:
    return all(read_digest(key) == digest for key, digest in module.outside.items())


def stored_key(code: str, folder: Path, digest: str) -> str:
    hashed = hashlib.sha256()
    for part in (code, str(folder), digest):
        hashed.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return hashed.hexdigest()

def changed_only(courses: list[Course], fresh: list[Module]) -> list[Course]:
    """The courses with only the modules read afresh, for the checks: the others passed them unchanged."""
    read = {id(module) for module in fresh}
    return [replace(course, modules=[module for module in course.modules if id(module) in read]) for course in courses]


def read_and_check(kept: KeptModules, root: Path, languages: list[str], base: Path, shown: Callable[[Path], str],
                   remember: bool = False) -> tuple[list[Course], list[SourceError]]:
    """The courses under `root` as the build, `zadachnik check` and the exports take them: each module read (or
    taken as `kept` holds it: read and checked by an earlier build or check), the ones read afresh checked
    (checking.checks), with what their checks' Python read outside them, and kept for the next build or check
    once every one passed. A source that cannot be read raises SourceErrors; the checks' problems are returned
    beside the courses. `remember`: keep the modules in memory too (`mkdocs serve`)."""
    from zadachnik.python.runner import files_opened, stop_runner

    courses, fresh = kept.load(root, languages, base, remember=remember)
    problems: list[SourceError] = []
    try:
        for course in changed_only(courses, fresh):
            for module in course.modules:
                # What the reference solutions and checkers read is part of what the module is made of.
                with files_opened() as opened:
                    problems += check_module(module, languages, shown)
                outside = read_outside(module.path, opened)
                module.outside.update(UNKNOWN_READS if outside is None else outside)
    finally:
        stop_runner()
    if not problems:
        kept.keep()
    return courses, problems
