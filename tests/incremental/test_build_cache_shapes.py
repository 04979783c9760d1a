"""Cache entries whose checksum is right but whose value is not what the build writes (issue 31): an entry of any
shape is exactly right or a miss, made again; reading it costs bounded memory; the site is what a build without
the cache writes, and the log holds no traceback."""

from __future__ import annotations

import copy
import dataclasses
import functools
import io
import json
import logging
import math
import os
import pickle
import shutil
import struct
import subprocess
import sys
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.caching import ENV, VARIANT_QUESTION, assert_same_site, blobs
from support.sites import build_site, two_module_site
from zadachnik.core.shapes import Shape
from zadachnik.incremental.blobs import BlobFolder, value_of
from zadachnik.incremental.fingerprint import InstalledDigests
from zadachnik.incremental.modules import module_shape, stored_key
from zadachnik.incremental.pages import HTML, PIECES, STORED_PAGE, STORED_PIECES
from zadachnik.incremental.site import TEXTS

# A value of each kind that is wrong almost anywhere: besides those of another type, nested wrong types, a number
# past 64 bits, and one that is not a number.
WRONG = [None, 7, True, "seven", b"7", [], {}, (7,), [[None]], {"k": {1: None}}, {None: [b""]}, 2**70, -2**70,
         math.nan, math.inf]
# Settings as YAML gave them: any plain value is right there.
DATA_FIELDS = {("Variants", "config"), ("Checker", "wrong")}


@pytest.fixture(scope="module")
def kept(tmp_path_factory) -> Path:
    """The fixture site with a question of every kind and one with variants, built once without the cache (what
    every build must write, `uncached`) and once with it; `pristine` is the cache folder that build left. A second
    module gives the course a book, and the cache a page for each field of a page's entry to be spoilt in."""
    root = tmp_path_factory.mktemp("shapes")
    site = two_module_site(root)
    module = site / "exercises/demo/01-basics"
    (module / "variants.py").write_text("def values():\n    return {}\n\n\ndef p90(rng):\n    return {'x': 4.1}\n")
    (module / "module.yml").write_text((module / "module.yml").read_text() + "values: variants.py\n")
    (module / "quiz.md").write_text((module / "quiz.md").read_text() + VARIANT_QUESTION)
    build_site(site / "mkdocs.yml", root / "uncached")
    build_site(site / "mkdocs.yml", root / "cold", cache=True)
    shutil.copytree(site / ".cache", root / "pristine")
    return root


@pytest.fixture
def warm(kept: Path) -> Iterator[Path]:
    """The kept site with the cache its build left (the cache is keyed by the site's place: it stays there)."""
    site = kept / "src"
    yield site
    shutil.rmtree(site / ".cache")
    shutil.copytree(kept / "pristine", site / ".cache")


def shape_of(entry: Path) -> Shape:
    kinds = {"modules": module_shape(), "installed": InstalledDigests.SHAPE, "assets": TEXTS}
    return kinds.get(entry.parent.name) or (STORED_PIECES if entry.stem.endswith(PIECES) else STORED_PAGE)


def entries(site: Path) -> list[Path]:
    """Every entry the build reads as a value (a page's HTML it reads as bytes)."""
    return [path for kind in ("modules", "pages", "installed", "assets") for path in blobs(site, kind)
            if not path.stem.endswith(HTML)]


def read(entry: Path) -> Any:
    return BlobFolder(entry.parent).get(entry.stem, shape_of(entry))


def write(entry: Path, value: Any) -> None:
    """Sealed by the project's own writer: a right length and checksum."""
    BlobFolder(entry.parent).put(entry.stem, value)


def test_every_entry_a_build_writes_reads_back_whole(kept: Path) -> None:
    found = entries(kept / "src")
    assert {path.parent.name for path in found} == {"modules", "pages", "installed", "assets"}
    assert any(path.stem.endswith(PIECES) for path in found)
    unread = [path.name for path in found if read(path) is None]
    assert not unread, unread


# -- every field of every kind of entry, of each wrong type, read in memory -------------------------------------

Step = tuple[str, Any]


def allowed(hint: Any) -> set[type] | None:
    """The types an annotation allows at its top (None: any, it says `Any`)."""
    if hint is Any:
        return None
    members = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    found = {type(None) if member is None else typing.get_origin(member) or member for member in members}
    return found | {int} if float in found else found


@functools.cache
def hints_of(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def positions(value: Any, types_here: set[type] | None = None, path: tuple[Step, ...] = ()
              ) -> Iterator[tuple[tuple[Step, ...], Any, set[type] | None]]:
    """Each place in a value: its path, what it holds and the types its annotation allows there (None: not
    known, for an element, or `Any`)."""
    yield path, value, types_here
    if dataclasses.is_dataclass(value):
        hints = hints_of(type(value))
        for item in dataclasses.fields(value):
            here = path + (("attr", (type(value).__name__, item.name)),)
            if (type(value).__name__, item.name) in DATA_FIELDS:
                yield here, getattr(value, item.name), allowed(hints[item.name])
            else:
                yield from positions(getattr(value, item.name), allowed(hints[item.name]), here)
    elif type(value) is dict:
        for key, item in value.items():
            yield path + (("key", key),), key, None
            yield from positions(item, None, path + (("value", key),))
    elif type(value) in (list, tuple):
        for index, item in enumerate(value):
            yield from positions(item, None, path + (("item", index),))


def replaced(value: Any, path: tuple[Step, ...], new: Any) -> Any:
    """`value` with `new` at `path`, copied along the path."""
    if not path:
        return new
    (kind, name), rest = path[0], path[1:]
    if kind == "attr":
        changed = copy.copy(value)
        object.__setattr__(changed, name[1], replaced(getattr(value, name[1]), rest, new))
        return changed
    if kind == "item":
        items = list(value)
        items[name] = replaced(items[name], rest, new)
        return type(value)(items)
    if kind == "value":
        return {**value, name: replaced(value[name], rest, new)}
    return {(new if key == name else key): item for key, item in value.items()}


def is_wrong(new: Any, old: Any, types_here: set[type] | None) -> bool:
    """Whether no build writes `new` where it wrote `old`: a number past 64 bits or not finite, or a type the
    annotation does not allow (where it says nothing, another type than `old`'s; ints and floats alike)."""
    if (type(new) is int and abs(new) >= 2**63) or (type(new) is float and not math.isfinite(new)):
        return True
    if types_here is None:
        types_here = {int, float} if type(old) in (int, float) else {type(old)}
    return type(new) not in types_here


def signature(path: tuple[Step, ...]) -> tuple[Any, ...]:
    """A place by its kind: the same field of another question is the same place."""
    return tuple(name if kind == "attr" else kind for kind, name in path)


def wrong_cases(value: Any, each: int = 5) -> Iterator[tuple[tuple[Step, ...], Any]]:
    """Each place of a value (by its kind) with `each` of the wrong values, each place the next ones: every wrong
    value goes to some tens of places in a module."""
    seen: set[tuple[Any, ...]] = set()
    for path, old, types_here in positions(value):
        if signature(path) in seen:
            continue
        seen.add(signature(path))
        start = len(seen) * each
        for new in (WRONG * 2)[start % len(WRONG):start % len(WRONG) + each]:
            if path and path[-1][0] == "key":
                if new.__hash__ is not None and is_wrong(new, old, None):
                    yield path, new
            elif is_wrong(new, old, types_here):
                yield path, new


def sealed(value: Any) -> bytes:
    """What `BlobFolder.put` writes of a value, as `BlobFolder.get` reads it (`value_of`)."""
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def test_each_field_of_each_entry_of_a_wrong_type_is_a_miss(kept: Path) -> None:
    kinds = {}
    for entry in entries(kept / "src"):
        kinds.setdefault((entry.parent.name, entry.stem.endswith(PIECES), entry.stem.startswith("later")), entry)
    taken, checked = [], 0
    for entry in kinds.values():
        shape, original = shape_of(entry), read(entry)
        for path, new in wrong_cases(original):
            checked += 1
            if value_of(sealed(replaced(original, path, new)), shape) is not None:
                taken.append((entry.parent.name, signature(path), new))
        # What the build wrote reads back, so a miss above is the wrong value's.
        assert value_of(sealed(original), shape) is not None
    assert checked > 500
    assert not taken, taken


def test_a_value_of_the_right_types_is_taken(kept: Path) -> None:
    """The checks refuse what is wrong, not what is merely other: a page with other texts, a module with another
    title, are read (their keys say whether they are current)."""
    for entry in entries(kept / "src"):
        original = read(entry)
        if entry.parent.name == "modules":
            changed = replaced(original, (("attr", ("Module", "title")),), {"en": "Other", "ru": "Другой"})
        elif entry.parent.name == "pages" and not entry.stem.endswith(PIECES):
            changed = replaced(original, (("attr", ("CachedPage", "search")),), "other text")
        else:
            continue
        found = value_of(sealed(changed), shape_of(entry))
        assert found is not None and getattr(found, "title", None) in ({"en": "Other", "ru": "Другой"}, None) \
            and getattr(found, "search", "other text") == "other text"


plain = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5)
                     | st.binary(max_size=3), lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=3)
                     | st.tuples(inner, inner), max_leaves=8)


def first_module(kept: Path) -> Path:
    """The cache's entry for module 1, which has the question with variants (the second module is a copy made
    before it was added). Entries are named by digests: the first in the folder is either module."""
    return next(entry for entry in blobs(kept / "src", "modules") if read(entry).number == 1)


@pytest.fixture(scope="module")
def kept_module(kept: Path) -> tuple[Any, list[tuple[tuple[Step, ...], Any, set[type] | None]]]:
    """The kept module, and each place in it but its dicts' keys."""
    module = read(first_module(kept))
    return module, [place for place in positions(module) if not place[0] or place[0][-1][0] != "key"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_module_with_any_value_anywhere_is_read_or_refused_never_broken(kept_module, data) -> None:
    original, places = kept_module
    path, old, types_here = data.draw(st.sampled_from(places))
    new = data.draw(plain)
    found = value_of(sealed(replaced(original, path, new)), module_shape())
    if is_wrong(new, old, types_here):
        assert found is None


# -- whole builds --------------------------------------------------------------------------------------------

# What each build puts in the entries, by field, for the fields issue 31 named and the rest of what a page
# entry holds: each page entry takes the next field.
PAGE_FIELDS = ("anchors", "links", "formulas", "search", "html_checksum", "pieces_apart", "final", "key")
BUILDS = {
    "of another type": {"anchors": 5, "links": "index.md", "formulas": None, "search": 7, "html_checksum": "7",
                        "pieces_apart": [], "final": 1.5, "key": None, "outside": 7, "pieces": None, "memo": 5,
                        "texts": ["a"]},
    "with parts of another type": {"anchors": [None], "links": {"index.md": {"a": 5}}, "formulas": [("x", "no")],
                                   "search": ["text"], "html_checksum": [1], "pieces_apart": (True,),
                                   "final": [""], "key": ("k",), "outside": {"file:/tmp/x": 5}, "pieces": [1],
                                   "memo": {"stamp": ["d", ["a"]]}, "texts": {"/a.py": 5}},
    "with numbers past any the build writes": {"anchors": [2**70], "links": {"index.md": {"a": math.nan}},
                                               "formulas": [(math.inf, True)], "search": -2**70,
                                               "html_checksum": 2**70, "pieces_apart": math.nan,
                                               "final": math.inf, "key": 2**64, "outside": {"file:/x": 2**70},
                                               "pieces": [math.nan], "memo": {"stamp": 2**70},
                                               "texts": {"a": math.inf}},
}


def mutate_every_entry(site: Path, wrong: dict[str, Any]) -> None:
    """Each entry of the cache with a field of a wrong shape, sealed by the project's own writer."""
    pages = [path for path in blobs(site, "pages") if not path.stem.endswith((PIECES, HTML))]
    assert len(pages) >= len(PAGE_FIELDS)
    for index, entry in enumerate(pages):
        name = PAGE_FIELDS[index % len(PAGE_FIELDS)]
        write(entry, replaced(read(entry), (("attr", ("CachedPage", name)),), wrong[name]))
    for entry in blobs(site, "pages"):
        if entry.stem.endswith(PIECES):
            write(entry, wrong["pieces"])
    for entry in blobs(site, "modules"):
        write(entry, replaced(read(entry), (("attr", ("Module", "outside")),), wrong["outside"]))
    for entry in blobs(site, "installed"):
        write(entry, wrong["memo"])
    for entry in blobs(site, "assets"):
        write(entry, wrong["texts"])


@pytest.mark.parametrize("wrong", BUILDS.values(), ids=BUILDS.keys())
def test_a_build_given_entries_of_wrong_shapes_makes_them_again(warm: Path, kept: Path, tmp_path: Path,
                                                                 wrong: dict[str, Any], caplog) -> None:
    mutate_every_entry(warm, wrong)
    caplog.set_level(logging.INFO)  # at DEBUG, MkDocs records no links, and no page is kept
    build_site(warm / "mkdocs.yml", tmp_path / "warm", cache=True)
    assert "Traceback" not in caplog.text
    assert not [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]
    assert_same_site(tmp_path / "warm", kept / "uncached")
    # Made again: the next build takes them.
    unread = [path.name for path in entries(warm) if read(path) is None and not path.stem.endswith(PIECES)]
    assert not unread, unread


def test_a_module_whose_path_was_set_apart_from_its_text_is_a_miss(kept: Path) -> None:
    """Unpickling may set a path's inner parts after it is made: a module whose path says its folder but whose
    parts lead elsewhere is refused (its files would be copied from there)."""
    entry = first_module(kept)
    module = read(entry)

    class TamperedPaths(pickle.Pickler):
        def reducer_override(self, value):
            if isinstance(value, Path) and value == module.path:
                # Made as /elsewhere, then told it is the module's folder.
                return type(value), ("/elsewhere",), (None, {"_str": str(module.path)})
            return NotImplemented

    payload = io.BytesIO()
    TamperedPaths(payload, protocol=pickle.HIGHEST_PROTOCOL).dump(module)
    assert value_of(payload.getvalue(), module_shape()) is None
    assert value_of(sealed(module), module_shape()).path == module.path


def test_values_that_share_parts_to_stand_for_more_are_refused_quickly(kept: Path) -> None:
    """A list of one list many times, many times over: a few hundred bytes that stand for 64**5 values (and a
    list that holds itself), where the module keeps its question's settings."""
    entry = first_module(kept)
    module = read(entry)
    question = next(item for item in module.quiz if getattr(item, "variants", None) is not None)
    shared: Any = ["x"]
    for _ in range(5):
        shared = [shared] * 64
    looped: list[Any] = []
    looped.append(looped)
    for config in ({"fields": shared}, {"fields": looped}):
        question.variants.config = config
        assert len(sealed(module)) < 100_000
        assert value_of(sealed(module), module_shape()) is None


# -- bounded memory ------------------------------------------------------------------------------------------

BOMB_BYTES = 300 << 20


def text(value: str) -> bytes:
    return b"\x8c" + bytes([len(value)]) + value.encode()


def long1(number: int) -> bytes:
    encoded = number.to_bytes((number.bit_length() + 8) // 8, "little", signed=True)
    return b"\x8a" + bytes([len(encoded)]) + encoded


# Entries of some tens of bytes each, that ask the unpickler for hundreds of megabytes.
BOMBS = {
    "a constructor given a size": b"\x80\x04" + text("builtins") + text("bytearray") + b"\x93" + long1(BOMB_BYTES)
                                  + b"\x85R.",
    "a range made a list": b"\x80\x04" + text("builtins") + text("list") + b"\x93" + text("builtins")
                           + text("range") + b"\x93" + long1(10_000_000) + b"\x85R\x85R.",
    "a memo index far out": b"\x80\x04N" + b"r" + struct.pack("<I", 1 << 24) + b".",
    "a length past the end": b"\x80\x05\x96" + struct.pack("<Q", BOMB_BYTES) + b"..",
}

# Reads each entry through the reader the build uses for its kind, in a process of its own (whose address space
# is limited, so this test cannot take the machine's memory), and says what each read allocated at its peak.
READERS = r"""
import json, resource, sys, tracemalloc
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))
from zadachnik.incremental.blobs import BlobFolder
from zadachnik.incremental.fingerprint import InstalledDigests
from zadachnik.incremental.modules import ReusingLoader
from zadachnik.incremental.pages import PageCache

folder, module = Path(sys.argv[1]), Path(sys.argv[2])
readers = {
    "modules": lambda: ReusingLoader(folder, ["en"], folder, store=BlobFolder(folder / "modules"),
                                     code="code").stored(module, "digest"),
    "pages": lambda: PageCache(store=BlobFolder(folder / "pages"), keys={"page.md": "page"}).unchanged("page.md"),
    "installed": lambda: InstalledDigests(BlobFolder(folder / "installed")).known or None,
}
peaks = {}
for kind, reader in readers.items():
    tracemalloc.start()
    found = reader()
    peaks[kind] = [tracemalloc.get_traced_memory()[1], found is None]
    tracemalloc.stop()
print(json.dumps(peaks))
"""


def read_in_a_process(folder: Path, module: Path) -> dict[str, list[Any]]:
    done = subprocess.run([sys.executable, "-c", READERS, str(folder), str(module)], env=ENV, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def bomb_folder(folder: Path, module: Path, payload: bytes) -> None:
    """`payload` as the entry each reader of `read_in_a_process` looks for."""
    keys = {"modules": stored_key("code", module, "digest"), "pages": "page", "installed": InstalledDigests.KEY}
    for kind, key in keys.items():
        BlobFolder(folder / kind).put_bytes(key, payload)


@pytest.mark.parametrize("payload", BOMBS.values(), ids=BOMBS.keys())
def test_an_entry_of_some_bytes_costs_no_more_memory_than_its_bytes(tmp_path: Path, payload: bytes) -> None:
    assert len(payload) < 64
    module = tmp_path / "module"
    bomb_folder(tmp_path / "cache", module, payload)
    peaks = read_in_a_process(tmp_path / "cache", module)
    assert all(missed and peak < 32 << 20 for peak, missed in peaks.values()), peaks


def larger_than_any_entry(path: Path) -> None:
    """A (sparse) file whose header says it holds 300 MB, as it does: more than any entry the build writes."""
    from zadachnik.incremental.blobs import _HEADER, BLOB_FORMAT

    with path.open("wb") as large:
        large.write(BLOB_FORMAT + _HEADER.pack(BOMB_BYTES, 0))
        large.truncate(len(BLOB_FORMAT) + _HEADER.size + BOMB_BYTES)


NOT_ENTRIES = {
    "larger than any entry": larger_than_any_entry,
    "a FIFO, which waits for a writer": os.mkfifo,
    "a device that never ends": lambda path: path.symlink_to("/dev/zero"),
}


@pytest.mark.parametrize("make", NOT_ENTRIES.values(), ids=NOT_ENTRIES.keys())
def test_an_entry_file_that_holds_no_entry_is_not_read(tmp_path: Path, make) -> None:
    module = tmp_path / "module"
    bomb_folder(tmp_path / "cache", module, b"")
    for path in (tmp_path / "cache").rglob("*.blob"):
        path.unlink()
        make(path)
    peaks = read_in_a_process(tmp_path / "cache", module)
    assert all(missed and peak < 32 << 20 for peak, missed in peaks.values()), peaks


def test_what_a_module_entry_names_is_read_within_bounded_memory_and_time(kept: Path, tmp_path: Path) -> None:
    """A module entry names the files its code read outside its folder, which the next build reads to see whether
    they changed: a device that never ends, or a FIFO that waits for a writer, is no file it reads."""
    entry = first_module(kept)
    module = read(entry)
    (tmp_path / "zero").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "fifo")
    module.outside = {f"file:{tmp_path / 'zero'}": "x", f"file:{tmp_path / 'fifo'}": "x"}
    BlobFolder(tmp_path / "cache" / "modules").put(stored_key("code", module.path, "digest"), module)
    peaks = read_in_a_process(tmp_path / "cache", module.path)
    assert peaks["modules"][1] and peaks["modules"][0] < 32 << 20, peaks
