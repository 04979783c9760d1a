"""What a page's making read, found out rather than guessed: while a generated page is converted, every file
opened, every folder listed and every path looked at (`os.stat`, which `os.path.exists`, `isfile` and pathlib
use) on the converting thread is recorded, and the page is kept with a digest of each. A later build takes the
page only while every one of them is as it was (`Reads.hold`).

Python's audit hook sees each `open` and listing, wherever it happens (an extension, a library it calls,
pymdownx.snippets); a stat has no audit event, so `os.stat` and `os.lstat` are wrapped while a page is recorded.
What tracing cannot see makes the page's making untraceable, and such a page is made afresh on every build: a
connection, a program run, a read of the system's live files (/proc, /dev, /sys), or an extension known to read
the clock or the environment (`UNTRACED_EXTENSIONS`).
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Markdown extensions (or custom fences' formatters) whose output depends on what no file holds (the clock, the
# environment, code they run): pages of a site with one of them are never kept. A plugin that changes a page's
# Markdown (mkdocs-macros, include-markdown) needs no entry: such a page is converted afresh.
UNTRACED_EXTENSIONS = ("markdown_exec",)
# Audit events after which a page's making cannot be known from files.
UNTRACEABLE_EVENTS = frozenset({
    "socket.connect", "socket.sendto", "socket.getaddrinfo", "urllib.Request", "subprocess.Popen", "os.system",
    "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.startfile", "webbrowser.open",
})
LISTING_EVENTS = frozenset({"os.listdir", "os.scandir"})
LIVE_FOLDERS = ("/proc/", "/dev/", "/sys/")
# How each kind of read is written in a record's key: `open /path`, `list /path`, `stat /path`.
OPENED, LISTED, LOOKED_AT = "open", "list", "stat"


@dataclass
class Recording:
    """The reads of one page's making so far, on one thread."""

    thread: int
    ignored: tuple[str, ...]
    reads: dict[str, str] = field(default_factory=dict)
    untraceable: str | None = None

    def note(self, kind: str, path: Any) -> None:
        if isinstance(path, int) or path is None:
            return  # a descriptor already open: its opening was seen
        try:
            name = os.path.abspath(os.fsdecode(path))
        except (TypeError, ValueError):
            return
        if name.startswith(LIVE_FOLDERS):
            self.untraceable = self.untraceable or f"it read {name}"
        elif not name.startswith(self.ignored):
            self.reads.setdefault(f"{kind} {name}", "")


_recording: Recording | None = None
_hooked = False
_real_stat, _real_lstat = os.stat, os.lstat


def _audit(event: str, args: tuple[Any, ...]) -> None:
    recording = _recording
    if recording is None or recording.thread != threading.get_ident():
        return
    if event == "open":
        path, mode, flags = (tuple(args) + (None, None, None))[:3]
        if _writes_only(mode, flags):
            return
        recording.note(OPENED, path)
    elif event in LISTING_EVENTS:
        recording.note(LISTED, args[0] if args else ".")
    elif event in UNTRACEABLE_EVENTS:
        recording.untraceable = recording.untraceable or f"its making used {event}"


def _writes_only(mode: Any, flags: Any) -> bool:
    if isinstance(mode, str):
        return "r" not in mode and "+" not in mode
    return isinstance(flags, int) and flags & os.O_ACCMODE == os.O_WRONLY


def _looked_at(real: Any) -> Any:
    def stat_recorded(path: Any, *args: Any, **kwargs: Any) -> Any:
        recording = _recording
        if recording is not None and recording.thread == threading.get_ident():
            recording.note(LOOKED_AT, path)
        return real(path, *args, **kwargs)

    return stat_recorded


def _install() -> None:
    global _hooked
    if not _hooked:
        # An audit hook stays for the process: it does nothing while no page is recorded.
        sys.addaudithook(_audit)
        _hooked = True


def start(ignored: Iterable[Path]) -> None:
    """Record what this thread reads until `stop`; reads under `ignored` (the caches, the site being written)
    are not part of a page's making."""
    global _recording
    _install()
    _recording = Recording(threading.get_ident(), tuple(str(folder.resolve()) + os.sep for folder in ignored))
    os.stat, os.lstat = _looked_at(_real_stat), _looked_at(_real_lstat)


def stop() -> Recording | None:
    """The reads recorded since `start`, or None when nothing was recorded."""
    global _recording
    recording, _recording = _recording, None
    os.stat, os.lstat = _real_stat, _real_lstat
    return recording


class Digests:
    """The digest of each read as this build finds it, each path once."""

    def __init__(self) -> None:
        self.found: dict[str, str] = {}

    def of(self, read: str) -> str:
        if read not in self.found:
            kind, _, path = read.partition(" ")
            self.found[read] = read_digest(kind, path)
        return self.found[read]

    def settle(self, recording: Recording) -> dict[str, str] | None:
        """The page's reads with their digests now, or None when its making cannot be known from them."""
        if recording.untraceable is not None:
            return None
        # Found afresh: a file the page's own making wrote is read as it is now.
        for read in recording.reads:
            self.found.pop(read, None)
        return {read: self.of(read) for read in sorted(recording.reads)}

    def hold(self, reads: dict[str, str]) -> bool:
        """Whether every read of a kept page finds what it found then."""
        return all(self.of(read) == digest for read, digest in reads.items())


def read_digest(kind: str, path: str) -> str:
    """What a read of `path` found: a file's bytes, a folder's names, or what a stat tells (kind, size, time)."""
    try:
        found = _real_stat(path)
    except OSError:
        return "missing"
    except ValueError:
        return "invalid"
    if kind == LOOKED_AT:
        return f"{stat.S_IFMT(found.st_mode)}:{found.st_size}:{found.st_mtime_ns}"
    try:
        if kind == LISTED:
            return hashlib.sha256("\0".join(sorted(os.listdir(path))).encode("utf-8", "surrogateescape")).hexdigest()
        if stat.S_ISDIR(found.st_mode):
            return "folder"
        if not stat.S_ISREG(found.st_mode):
            return f"special:{found.st_ino}:{found.st_mtime_ns}"
        hashed = hashlib.sha256()
        with open(path, "rb") as source:
            for block in iter(lambda: source.read(1 << 20), b""):
                hashed.update(block)
        return hashed.hexdigest()
    except OSError as error:
        return f"unreadable:{error.errno}"
