"""Course files: each module's files/ folder as a zip the exercises page links, with its size.

Zips are deterministic (sorted entries, fixed timestamps and permissions), so the same files give the same
bytes and rebuilds don't churn.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

# 1980-01-01, the earliest time a zip entry can carry.
FIXED_TIME = (1980, 1, 1, 0, 0, 0)
_LANGUAGE_MARK = re.compile(r"(?:^|[_\-./])([a-z]{2})(?=[_\-./]|$)")
KINDS = {".ipynb": "notebooks", ".py": "code", ".md": "texts", ".txt": "texts"}


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
    the author: an empty folder, files over the size limit."""
    paths = sorted(path for path in folder.rglob("*") if path.is_file() and not is_hidden(path, folder))
    if not paths:
        return None, [f"{shown} is empty: add the module's files or remove the folder"]
    warnings = []
    counts: dict[str, int] = {}
    languages: set[str] = set()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in paths:
            relative = path.relative_to(folder).as_posix()
            data = path.read_bytes()
            if len(data) > max_file_size:
                warnings.append(f"{shown}/{relative} is {len(data) / 2**20:.1f} MiB, over the "
                                f"{max_file_size / 2**20:.1f} MiB limit (course_files_max_size)")
            info = zipfile.ZipInfo(f"{top}/{relative}", date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compresslevel=9)
            languages.update(_LANGUAGE_MARK.findall(relative))
            kind = KINDS.get(path.suffix.lower(), "data")
            counts[kind] = counts.get(kind, 0) + 1
    return CourseFiles(f"{top}-files.zip", buffer.getvalue(), counts, sorted(languages)), warnings


def is_hidden(path: Path, folder: Path) -> bool:
    """Editor and tool leftovers stay out: dot-files, __pycache__, notebook checkpoints."""
    parts = path.relative_to(folder).parts
    return any(part.startswith(".") or part == "__pycache__" for part in parts)
