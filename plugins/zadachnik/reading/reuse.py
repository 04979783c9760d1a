"""Modules kept between the builds of one `mkdocs serve`: a module whose folder has not changed by a byte is
taken as the last build read and checked it, so a rebuild after an edit reads and checks only what changed.

A module's model comes from its folder alone (its sources, its values file and what that reads there, its
course files) and the site's languages; references never lead out of a module. Only modules of a build that
passed are kept, so a module with a problem is read again, and reported again, until it is mended.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from zadachnik.reading.model import Course, Loader, Module


def folder_digest(folder: Path) -> str:
    """Every file under `folder`, by its path and bytes."""
    hashed = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
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

    def load(self, root: Path, languages: list[str], base: Path, remember: bool = True
             ) -> tuple[list[Course], list[Module]]:
        """The courses under `root`, and the modules among them that were read afresh (changed or new). Unless
        `remember`, nothing is taken from the last build or noted for the next (a single build)."""
        if not remember:
            self.modules = {}
            courses = Loader(root, languages, base).load()
            self.read, self.fresh = {}, [module for course in courses for module in course.modules]
            return courses, self.fresh
        loader = ReusingLoader(root, languages, base, kept=self.modules)
        courses = loader.load()
        self.read, self.fresh = loader.read, loader.fresh
        return courses, loader.fresh

    def digests(self) -> dict[Path, str]:
        """The digest of each folder this build read its module from (taken before it was read)."""
        return {folder: digest for folder, (digest, _) in self.read.items()}

    def keep(self) -> None:
        # `read` stays as it is until the next build reads again: the page cache takes its digests.
        self.modules = dict(self.read)


@dataclass
class ReusingLoader(Loader):
    kept: dict[Path, tuple[str, Module]] = field(default_factory=dict)
    read: dict[Path, tuple[str, Module]] = field(default_factory=dict)
    fresh: list[Module] = field(default_factory=list)

    def module(self, folder: Path) -> Module | None:
        digest = ",".join(self.languages) + ":" + folder_digest(folder)
        kept = self.kept.get(folder)
        if kept is not None and kept[0] == digest:
            module = kept[1]
        else:
            module = super().module(folder)
            if module is None:
                return None
            self.fresh.append(module)
        self.read[folder] = (digest, module)
        return module
