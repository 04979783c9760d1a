"""Zips that are the same bytes for the same files (a course's files, the offline copy, LMS packages): a build or
an export run again changes no file it did not have to, and a package can be compared with an earlier one."""

from __future__ import annotations

import zipfile

# 1980-01-01, the earliest time a zip entry can carry.
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def add_entry(archive: zipfile.ZipFile, name: str, data: bytes | str, compresslevel: int) -> None:
    """`data` as the deflated entry `name`, dated FIXED_TIME and readable by everyone who unpacks it."""
    info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data, compresslevel=compresslevel)


def add_folder(archive: zipfile.ZipFile, name: str) -> None:
    """The folder `name` (ending in '/') as an entry of its own, dated FIXED_TIME, which unzipping creates even
    when no file goes into it."""
    info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
    # Unix permissions and the directory bit, and MS-DOS's directory flag for Windows' unzippers.
    info.external_attr = (0o40755 << 16) | 0x10
    archive.writestr(info, b"")
