"""Course files: each module's files/ folder as a zip the exercises page links, with its size.

Zips are deterministic (sorted entries, fixed timestamps and permissions), so the same files give the same
bytes and rebuilds don't churn.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from zadachnik.core.errors import SourceError
from zadachnik.core.zips import add_entry, add_folder
from zadachnik.reading.names import SAFE, windows_problem

_LANGUAGE_MARK = re.compile(r"(?:^|[_\-./])([a-z]{2})(?=[_\-./]|$)")
KINDS = {".ipynb": "notebooks", ".py": "code", ".md": "texts", ".txt": "texts"}


# More hops than this is a loop (Linux gives up after 40 too).
MAX_LINK_HOPS = 40


class CourseFileProblem(OSError):
    """A file in files/ that can't go into the zip, named with what to do. An OSError, as any other reason a
    folder can't be zipped (the plugin reports those as build errors)."""

    def __init__(self, shown: str, problem: str, hint: str):
        super().__init__(str(SourceError(shown, 0, problem, hint)))


class UnsafeLink(CourseFileProblem):
    """A link in files/ that leads out of the module, nowhere, or round in a circle: the zip is public, so it is
    refused rather than followed."""


@dataclass
class CourseFiles:
    archive_name: str
    data: bytes
    counts: dict[str, int]
    # Language codes found in file or folder names (notebook_ru.ipynb, en/README.md).
    languages: list[str]

    @property
    def size(self) -> int:
        return len(self.data)


def zip_course_files(folder: Path, top: str, max_file_size: int, shown: str) -> tuple[CourseFiles | None, list[str]]:
    """The zip of `folder` under a top folder named `top` (None when there is nothing to zip), and warnings for
    the author (checked_course_files)."""
    entries, warnings = checked_course_files(folder, top, max_file_size, shown)
    if not entries:
        return None, warnings
    counts: dict[str, int] = {}
    languages: set[str] = set()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for relative, real in entries:
            if real is None:
                add_folder(archive, f"{top}/{relative}/")
                continue
            path = Path(relative)
            add_entry(archive, f"{top}/{relative}", real.read_bytes(), compresslevel=9)
            languages.update(_LANGUAGE_MARK.findall(relative))
            kind = KINDS.get(path.suffix.lower(), "data")
            counts[kind] = counts.get(kind, 0) + 1
    return CourseFiles(f"{top}-files.zip", buffer.getvalue(), counts, sorted(languages)), warnings


def cannot_zip(shown: str, error: OSError) -> str:
    """Why the build stops at a files/ folder (a CourseFileProblem names the file and what to do)."""
    return f"cannot zip {shown}: {error}"


def checked_course_files(folder: Path, top: str, max_file_size: int, shown: str
                         ) -> tuple[list[tuple[str, Path | None]], list[str]]:
    """What the zip of `folder` under `top` would hold, in its order (a file with its real path, a folder left
    empty with None), and the warnings for the author: an empty folder, files over the size limit, names learners
    on Windows or macOS can't unzip as they are. The build zips what this gives; `zadachnik check` reports the
    same without zipping. CourseFileProblem as module_files."""
    files, folders = module_files(folder, shown)
    if not files:
        return [], [f"{shown} is empty: add the module's files or remove the folder"]
    empty = empty_folders([relative for relative, _ in files], folders)
    # In the order of path parts, as the zips were always sorted.
    entries = sorted([*files, *((relative, None) for relative in empty)], key=lambda item: item[0].split("/"))
    warnings = []
    for relative, real in files:
        size = real.stat().st_size
        if size > max_file_size:
            warnings.append(f"{shown}/{relative} is {size / 2**20:.1f} MiB, over the "
                            f"{max_file_size / 2**20:.1f} MiB limit (course_files_max_size)")
    warnings.extend(name_warnings([relative for relative, _ in files], top, shown, empty))
    return entries, warnings


def empty_folders(files: list[str], folders: list[str]) -> list[str]:
    """The folders that would be gone after unzipping the files alone: those holding no file and no such folder
    (output/ kept in git by a .gitkeep, which the zip leaves out). A notebook that writes there needs them."""
    filled = {"/".join(parts[:end]) for parts in (name.split("/") for name in [*files, *folders])
              for end in range(1, len(parts))}
    return [folder for folder in folders if folder not in filled]


# Windows' limit for a path is 260 characters; unzipped into C:\Users\<name>\Downloads\<zip's name>\, a path in
# the zip has about 200 of them left.
MAX_ZIP_PATH = 200


def name_warnings(files: list[str], top: str, shown: str, empty: Iterable[str] = ()) -> list[str]:
    """Names in the zip (files, the folders they are in and the folders left `empty`) that Windows or macOS
    can't unzip as they are: two that differ only in case, a name Windows can't create, a path too long for
    Windows."""
    warnings = []
    by_case: dict[str, str] = {}
    folders = {"/".join(parts[:end]) for parts in (name.split("/") for name in files) for end in range(1, len(parts))}
    folders.update(empty)
    for entry in sorted(folders | set(files), key=lambda name: name.split("/")):
        parent, _, name = entry.rpartition("/")
        first = by_case.setdefault(entry.casefold(), entry)
        # Reported where the case first differs: files in two such folders differ in their folders already.
        if first != entry and first.rpartition("/")[0] == parent:
            overwritten = ("the two folders become one, and a file in both is kept once" if entry in folders
                           else "one file overwrites the other")
            warnings.append(str(SourceError(
                f"{shown}/{entry}", 0,
                f"the name differs only in case from {shown}/{first}: unzipped on Windows or macOS, {overwritten}",
                "rename one of them")))
        if problem := windows_problem(name):
            warnings.append(str(SourceError(
                f"{shown}/{entry}", 0, f"the name '{name}' {problem}: learners on Windows can't unzip it as it is",
                f"rename it, using {SAFE}")))
        length = len(f"{top}/{entry}".encode("utf-16-le")) // 2
        if entry not in folders and length > MAX_ZIP_PATH:
            warnings.append(str(SourceError(
                f"{shown}/{entry}", 0,
                f"its path in the zip is {length} characters long: unzipped into a learner's Downloads folder on "
                f"Windows, it passes Windows' limit of 260 characters for a path, and the file is not extracted",
                "shorten the names of its folders or its own")))
    return warnings


def module_files(folder: Path, shown: str) -> tuple[list[tuple[str, Path]], list[str]]:
    """(path in the zip, real file) for every file under `folder`, and the path of every folder under it,
    following links only while they stay inside the module (the folder holding files/); UnsafeLink for any other.
    Each real folder is walked once, so links can neither loop nor multiply the zip."""
    module = Path(os.path.realpath(folder.parent))
    start = real_target(folder, module, shown) if folder.is_symlink() else Path(os.path.realpath(folder))
    found: list[tuple[str, Path]] = []
    walked: dict[Path, str] = {}
    pending = [(start, "")]
    while pending:
        real_folder, relative_folder = pending.pop()
        walked[real_folder] = relative_folder
        with os.scandir(real_folder) as entries:
            for entry in entries:
                if left_out(entry.name):
                    continue
                relative = f"{relative_folder}{entry.name}"
                # Bytes that are not UTF-8 come back from the file system as lone surrogates, which aren't printable.
                if not entry.name.isprintable():
                    raise CourseFileProblem(
                        f"{shown}/{printable(relative)}",
                        "the name is not valid UTF-8 text (another encoding, or a control character)",
                        "rename the file or folder: zip archives carry names as UTF-8",
                    )
                real = Path(entry.path)
                if entry.is_symlink():
                    real = real_target(real, module, f"{shown}/{relative}")
                if real.is_dir():
                    if real in walked or real_folder.is_relative_to(real):
                        held = "holds it" if real_folder.is_relative_to(real) else "is already in the zip"
                        raise UnsafeLink(f"{shown}/{relative}", f"a link to a folder that {held}",
                                         "remove the link: the zip would hold that folder again and again")
                    walked[real] = relative
                    pending.append((real, f"{relative}/"))
                elif real.is_file():
                    found.append((relative, real))
    return found, [relative.removesuffix("/") for relative in walked.values() if relative]


def left_out(name: str) -> bool:
    """Whether the zip leaves out a file or folder of this name, unfollowed: editor and tool leftovers (dot-files,
    __pycache__, notebook checkpoints)."""
    return name.startswith(".") or name == "__pycache__"


def left_out_part(name: str) -> str | None:
    """`name` (a path in files/) up to the first file or folder the zip leaves out ('work/__pycache__'); None when
    the zip keeps every part of it."""
    parts = Path(os.path.normpath(name)).parts
    end = next((end for end, part in enumerate(parts, start=1) if left_out(part)), None)
    return None if end is None else "/".join(parts[:end])


def printable(name: str) -> str:
    """The name as a message can show it: undecodable bytes as \\xNN, control characters escaped."""
    shown = os.fsencode(name).decode("utf-8", errors="backslashreplace")
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in shown)


def real_target(link: Path, module: Path, shown: str) -> Path:
    """Where a link leads, one hop at a time: each hop must stay inside `module` and the chain must end at a
    file or folder."""
    current = link
    for _ in range(MAX_LINK_HOPS):
        if not current.is_symlink():
            real = Path(os.path.realpath(current))
            if not current.exists():
                raise UnsafeLink(shown, f"a link to {current}, where there is nothing",
                                 "fix the link or remove it")
            if not real.is_relative_to(module):
                raise outside(shown, real)
            return real
        hop = Path(os.path.normpath(current.parent / os.readlink(current)))
        if not hop.is_relative_to(module):
            raise outside(shown, hop)
        current = hop
    raise UnsafeLink(shown, "a loop of links that never reaches a file", "replace the links with the file itself")


LINK_OUT_HINT = "copy the file into the module's folder instead of linking it"


@dataclass
class Outside:
    """How a file an author names leaves the place it must be in."""

    problem: str
    # A link that leads out (the file is then to be copied in), rather than a path that does.
    linked: bool


def outside_of(folder: Path, name: str, module: Path) -> Outside | None:
    """Whether the file `name`, written from `folder` (the module's folder or one in it), leaves: a path out of
    `folder` (a parent, an absolute path), or one that goes through a link out of `module`. None when it stays."""
    path = Path(os.path.normpath(folder / name))
    if not path.is_relative_to(os.path.normpath(folder)):
        return Outside(f"'{name}' is outside it", linked=False)
    real = Path(os.path.realpath(path))
    if not real.is_relative_to(os.path.realpath(module)):
        return Outside(f"'{name}' is a link to {real}, outside the module", linked=True)
    return None


def named_from_module(name: str) -> str | None:
    """`name` as written from files/, when it is written from the module's folder ('files/nb.ipynb', as a values
    file is named); None when it is not."""
    parts = Path(os.path.normpath(name)).parts
    return "/".join(parts[1:]) if len(parts) > 1 and parts[0] == "files" else None


def outside(shown: str, target: Path) -> UnsafeLink:
    return UnsafeLink(shown, f"a link to {target}, outside the module",
                      "the course-files zip is public: copy the file into the module's folder instead of linking it")
