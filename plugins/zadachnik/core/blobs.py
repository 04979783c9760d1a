"""A folder of values kept between builds, one file per key: written whole to a temporary file and moved into
place (two builds at once never read half a file), each with its length and checksum, so a damaged, truncated or
foreign file reads as missing and its value is made again, never used."""

from __future__ import annotations

import importlib
import io
import os
import pickle
import re
import shutil
import struct
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

# Raised whenever what a file holds changes shape, so no build reads a file written by another layout.
BLOB_FORMAT = b"zadachnik-blob-1\n"
_HEADER = struct.Struct("<QI")  # payload length, its CRC-32
SUFFIX = ".blob"
# A temporary file this old was left by a build that was killed while writing.
STALE_TEMP_SECONDS = 3600


class BlobFolder:
    def __init__(self, folder: Path):
        self.folder = folder

    def path(self, key: str) -> Path:
        return self.folder / f"{key}{SUFFIX}"

    def get(self, key: str) -> Any | None:
        """The value stored under `key`, or None when there is none, its file is not one this layout wrote whole,
        or it names anything but the build's own kinds of values (a cache restored from elsewhere runs no
        code)."""
        payload = self.get_bytes(key)
        if payload is None:
            return None
        try:
            return _OwnValues(io.BytesIO(payload)).load()
        except KeyboardInterrupt:
            raise
        except BaseException:  # noqa: BLE001 - a file that passed its checksum but not the unpickler is missing too
            return None

    def get_bytes(self, key: str, checksum: int | None = None) -> bytes | None:
        """The bytes stored under `key` (`put_bytes`), or None when there are none, they are not whole, or their
        CRC-32 is not `checksum` (bytes another entry names by theirs)."""
        start = len(BLOB_FORMAT) + _HEADER.size
        try:
            with self.path(key).open("rb") as stored:
                head, payload = stored.read(start), stored.read()
        except OSError:
            return None
        if len(head) < start or not head.startswith(BLOB_FORMAT):
            return None
        length, stored = _HEADER.unpack_from(head, len(BLOB_FORMAT))
        if checksum is not None and stored != checksum:
            return None
        if len(payload) != length or zlib.crc32(payload) != stored:
            return None
        return payload

    def put(self, key: str, value: Any) -> None:
        self.put_bytes(key, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))

    def put_bytes(self, key: str, payload: bytes) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as output:
                output.write(BLOB_FORMAT + _HEADER.pack(len(payload), zlib.crc32(payload)))
                output.write(payload)
            # mkstemp makes the file private; a cache is as readable as the site's other files.
            os.chmod(temporary, 0o644)
            os.replace(temporary, self.path(key))
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def keep_only(self, keys: set[str]) -> None:
        """Remove every value but these (the ones this build used), and temporary files killed builds left."""
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return
        now = time.time()
        for entry in entries:
            name = entry.name
            stale = name.endswith(SUFFIX) and name.removesuffix(SUFFIX) not in keys
            if name.startswith(".") and name.endswith(".tmp"):
                try:
                    stale = now - entry.stat().st_mtime > STALE_TEMP_SECONDS
                except OSError:
                    stale = False
            if stale:
                try:
                    Path(entry.path).unlink(missing_ok=True)
                except OSError:
                    pass  # a folder the build may not clean: the entry stays, unused


def forget_unused(parent: Path, prefix: str, used: Path, days: float) -> None:
    """Mark `used` as used now, and remove the other folders named `prefix…` under `parent` that no build has
    used for `days` (the caches of a config file that is gone, or of the site before it moved)."""
    try:
        os.utime(used)
        siblings = list(parent.glob(f"{prefix}*"))
    except OSError:
        return
    oldest = time.time() - days * 86400
    for folder in siblings:
        try:
            stale = folder != used and folder.is_dir() and folder.stat().st_mtime < oldest
        except OSError:
            continue
        if stale:
            shutil.rmtree(folder, ignore_errors=True)


# What a stored value may be made of: Zadachnik's own classes (its model and pages), and these.
_ALLOWED = {("builtins", name) for name in ("list", "dict", "set", "frozenset", "tuple", "str", "bytes", "int",
                                            "float", "complex", "bool", "bytearray", "range", "slice")}
_ALLOWED |= {("pathlib", "PosixPath"), ("pathlib", "WindowsPath"), ("pathlib", "PurePosixPath"),
             ("pathlib", "PureWindowsPath"), ("collections", "OrderedDict"), ("decimal", "Decimal"),
             ("fractions", "Fraction"), ("copyreg", "_reconstructor"), ("re", "_compile")}


class _OwnValues(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ALLOWED:
            return super().find_class(module, name)
        # A class of Zadachnik's model or pages, by its own module and plain name: no dotted path through a
        # module's names (zadachnik.x with name "subprocess.Popen"), and no module but the stages' own
        # (importing the command's, say, runs it).
        if _MODEL_MODULE.fullmatch(module) and "." not in name:
            found = getattr(importlib.import_module(module), name, None)
            if isinstance(found, type) and found.__module__ == module:
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not a value the build stores")


_MODEL_MODULE = re.compile(r"zadachnik\.(core|qtypes|reading|rendering)(\.[a-z_]+)?")
