"""A folder of values kept between builds, one file per key: written whole to a temporary file and moved into
place (two builds at once never read half a file), each with its length and checksum, so a damaged, truncated or
foreign file reads as missing and its value is made again, never used."""

from __future__ import annotations

import errno
import io
import os
import pickle
import pickletools
import shutil
import stat
import struct
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any, BinaryIO

from zadachnik.core.shapes import Shape

# Raised whenever what a file holds changes shape, so no build reads a file written by another layout.
BLOB_FORMAT = b"zadachnik-blob-1\n"
_HEADER = struct.Struct("<QI")  # payload length, its CRC-32
SUFFIX = ".blob"
# The most one entry holds (a page's HTML is some megabytes at most).
MAX_PAYLOAD = 256 << 20
# A temporary file this old was left by a build that was killed while writing.
STALE_TEMP_SECONDS = 3600


class BlobFolder:
    def __init__(self, folder: Path):
        self.folder = folder

    def path(self, key: str) -> Path:
        return self.folder / f"{key}{SUFFIX}"

    def get(self, key: str, shape: Shape) -> Any | None:
        """The value stored under `key`, or None when there is none, its file is not one this layout wrote whole,
        or its value is not exactly of `shape` (`value_of`)."""
        payload = self.get_bytes(key)
        return value_of(payload, shape) if payload is not None else None

    def get_bytes(self, key: str, checksum: int | None = None) -> bytes | None:
        """The bytes stored under `key` (`put_bytes`), or None when there are none, they are not whole, or their
        CRC-32 is not `checksum` (bytes another entry names by theirs)."""
        start = len(BLOB_FORMAT) + _HEADER.size
        try:
            with open_regular(self.path(key)) as stored:
                head = stored.read(start)
                if len(head) < start or not head.startswith(BLOB_FORMAT):
                    return None
                length, crc = _HEADER.unpack_from(head, len(BLOB_FORMAT))
                # Only as many bytes as the header says, and the file holds: a header cannot make the build read
                # (or hold) more.
                if (checksum is not None and crc != checksum) or length > MAX_PAYLOAD \
                        or os.fstat(stored.fileno()).st_size != start + length:
                    return None
                payload = stored.read(length)
        except OSError:
            return None
        if len(payload) != length or zlib.crc32(payload) != crc:
            return None
        return payload

    def put(self, key: str, value: Any) -> None:
        self.put_bytes(key, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))

    def put_bytes(self, key: str, payload: bytes) -> None:
        if len(payload) > MAX_PAYLOAD:
            return  # no build reads it back: it is made again each time
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


def value_of(payload: bytes, shape: Shape) -> Any | None:
    """The value `put` wrote as `payload`, if it is exactly of `shape`; None otherwise. A cache restored from
    elsewhere runs no code (only the shape's classes are built), asks for no more memory than its bytes, and a value
    of another shape is made again rather than read by code that expects this one."""
    if not _written_by_pickle(payload):
        return None
    try:
        value = _OwnValues(io.BytesIO(payload), shape.classes).load()
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - a file that passed its checksum but not the unpickler is missing too
        return None
    return value if shape.holds(value, len(payload)) else None


def open_regular(path: Path) -> BinaryIO:
    """`path` opened to read, if it is a regular file; OSError otherwise (a FIFO, which would wait for a writer for
    ever, or a device such as /dev/zero, which never ends)."""
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        return os.fdopen(handle, "rb")
    except BaseException:
        os.close(handle)
        raise


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


# What the pickler writes (protocol 5, `put`). No other operation is read: not those that put a value at a memo
# index of the file's choosing (the unpickler grows its memo to it: gigabytes for five bytes), not those that run
# code by name (GLOBAL, INST, OBJ, extension codes, persistent ids), nor out-of-band buffers.
_WRITTEN = frozenset({
    "PROTO", "FRAME", "STOP", "MEMOIZE", "BINGET", "LONG_BINGET", "MARK", "POP", "POP_MARK",
    "NONE", "NEWTRUE", "NEWFALSE", "BININT", "BININT1", "BININT2", "LONG1", "LONG4", "BINFLOAT",
    "SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "SHORT_BINBYTES", "BINBYTES", "BINBYTES8", "BYTEARRAY8",
    "EMPTY_LIST", "APPEND", "APPENDS", "EMPTY_DICT", "SETITEM", "SETITEMS", "EMPTY_SET", "ADDITEMS", "FROZENSET",
    "EMPTY_TUPLE", "TUPLE", "TUPLE1", "TUPLE2", "TUPLE3", "STACK_GLOBAL", "NEWOBJ", "NEWOBJ_EX", "REDUCE", "BUILD",
})


# Each of them by its code: the bytes its argument takes (0 or more), or, for a text, bytes or a long number, the
# bytes that give its length, negated (-5: four, signed).
_LENGTH_BYTES = {pickletools.TAKEN_FROM_ARGUMENT1: -1, pickletools.TAKEN_FROM_ARGUMENT4: -5,
                 pickletools.TAKEN_FROM_ARGUMENT4U: -4, pickletools.TAKEN_FROM_ARGUMENT8U: -8}
_LAYOUT: list[int | None] = [None] * 256
for _operation in pickletools.opcodes:
    if _operation.name in _WRITTEN:
        _size = 0 if _operation.arg is None else _operation.arg.n
        _LAYOUT[ord(_operation.code)] = _size if _size >= 0 else _LENGTH_BYTES[_size]
_STOP, _FRAME = pickle.STOP[0], pickle.FRAME[0]


def _written_by_pickle(payload: bytes) -> bool:
    """Whether `payload` holds only what `put` writes, up to its end, each argument whole: the unpickler sets aside
    the size a length names before it reads what follows (a length past the end is gigabytes asked for nothing).
    Read by lengths alone, a step per operation (pickletools.genops makes every text: three times as long)."""
    layout, position, end = _LAYOUT, 0, len(payload)
    while position < end:
        code = payload[position]
        size = layout[code]
        if size is None:
            return False
        position += 1
        if size < 0:
            length_bytes = 4 if size == -5 else -size
            size = int.from_bytes(payload[position:position + length_bytes], "little", signed=size == -5)
            if size < 0:
                return False
            position += length_bytes
        elif code == _STOP:
            return True
        elif code == _FRAME and int.from_bytes(payload[position:position + 8], "little") > end - position - 8:
            return False
        position += size
    return False


class _OwnValues(pickle.Unpickler):
    """Builds only the classes of the shape asked for (by their module and name): a cache restored from
    elsewhere imports nothing, runs nothing and calls no constructor but theirs."""

    def __init__(self, source: io.BytesIO, classes: dict[tuple[str, str], type]) -> None:
        super().__init__(source)
        self.classes = classes

    def find_class(self, module: str, name: str) -> Any:
        found = self.classes.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not a value of this kind of entry")
        return found
