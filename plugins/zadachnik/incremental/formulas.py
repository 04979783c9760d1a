"""Rendered formulas kept between builds: one file per KaTeX engine in the site's cache folder, which the
renderer (rendering.mathtex.Katex) reads through and adds to."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
import time
from pathlib import Path

from zadachnik.rendering.mathtex import FormulaKey, Katex

# Raised whenever what is stored per formula changes, so no build reads a file written by another layout.
CACHE_FORMAT = 1
CACHE_PREFIX = "katex-"
# A temporary file this old was left by a build that was killed while writing.
STALE_TEMP_SECONDS = 3600
# A store larger than this is not read: no real course comes near it (a formula takes about 1 kB), and parsing
# JSON takes some 17 times its size in memory (12 MB once took 205 MB). Its formulas are rendered again.
MAX_STORE_BYTES = 32 * 1024 * 1024


class FormulaStore:
    """One file of rendered formulas per KaTeX engine (its script, the render script with its settings and
    limits, this format): a KaTeX upgrade starts a new file and the old one is removed. Written whole to a
    temporary file and moved into place, so two builds at once never read half a file; each entry carries a
    checksum of its engine, TeX, display mode and HTML, so a damaged or misplaced one is rendered again."""

    def __init__(self, folder: Path, engine: str):
        self.folder = folder
        self.engine = engine
        self.path = folder / f"{CACHE_PREFIX}{engine[:24]}.json"

    def stamp(self) -> tuple[int, int, int] | None:
        """Which version of the file is there: another build replaces it by another file (os.replace)."""
        try:
            found = self.path.stat()
        except OSError:
            return None
        return found.st_ino, found.st_mtime_ns, found.st_size

    def checksum(self, tex: str, display: bool, rendered: str) -> str:
        digest = hashlib.blake2b(digest_size=16)
        for part in (self.engine, "display" if display else "inline", tex, rendered):
            # Lengths first, so no two different entries hash the same text.
            digest.update(f"{len(part)}:".encode())
            digest.update(part.encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def load(self) -> dict[FormulaKey, str]:
        """The formulas stored by an earlier build; nothing from a file that is missing, truncated, not JSON, of
        another engine or over MAX_STORE_BYTES (of which no more than that is read), and no entry whose checksum
        is wrong."""
        try:
            # Only a regular file: reading a FIFO or a device planted there would wait for ever.
            if not stat.S_ISREG(self.path.stat().st_mode):
                return {}
            with open(self.path, "rb") as file:
                text = file.read(MAX_STORE_BYTES + 1)
            if len(text) > MAX_STORE_BYTES:
                return {}
            data = json.loads(text)
        except (OSError, ValueError, RecursionError):
            return {}
        if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT or data.get("engine") != self.engine \
                or not isinstance(data.get("entries"), list):
            return {}
        found: dict[FormulaKey, str] = {}
        for entry in data["entries"]:
            if isinstance(entry, list) and len(entry) == 4 and isinstance(entry[0], str) \
                    and isinstance(entry[1], bool) and isinstance(entry[2], str) \
                    and entry[3] == self.checksum(entry[0], entry[1], entry[2]):
                found[(entry[0], entry[1])] = entry[2]
        return found

    def save(self, formulas: dict[FormulaKey, str]) -> None:
        """Keep exactly these formulas (the ones the last build used: the file never outgrows one site)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        entries = [[tex, display, rendered, self.checksum(tex, display, rendered)]
                   for (tex, display), rendered in sorted(formulas.items())]
        payload = json.dumps({"format": CACHE_FORMAT, "engine": self.engine, "entries": entries})
        handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=f".{CACHE_PREFIX}", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as output:
                output.write(payload)
            # mkstemp makes the file private; a cache is as readable as the site's other files.
            os.chmod(temporary, 0o644)
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        now = time.time()
        for other in self.folder.iterdir():
            is_old_engine = other.name.startswith(CACHE_PREFIX) and other.suffix == ".json" and other != self.path
            is_stale_temp = other.name.startswith(f".{CACHE_PREFIX}") and other.suffix == ".tmp" \
                and now - _modified(other) > STALE_TEMP_SECONDS
            if is_old_engine or is_stale_temp:
                other.unlink(missing_ok=True)


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return time.time()


def formula_store(katex: Katex, folder: Path) -> FormulaStore | None:
    """The store for `katex`'s engine in `folder`; none without KaTeX's script, which there is nothing to key by
    (the build says so when it first renders)."""
    return FormulaStore(folder, katex.engine_key()) if katex.katex_js.is_file() else None
