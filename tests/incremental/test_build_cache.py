"""The build cache (`cache: true`): modules and pages one build made, kept in .cache/zadachnik, are taken again by
the next build while nothing they are made of changed. Whatever the cache holds, a build writes exactly what a
build without it writes."""

from __future__ import annotations

import logging
import os
import pickle
import shutil
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from support.caching import (
    CACHE,
    Counted,
    add_to_config,
    assert_same_site,
    blobs,
    cold_warm_uncached,
    edit,
    fixture_copy,
    mkdocs_run,
    page,
)
from support.sites import FIXTURE_SITE, ROOT, build_site, copy_site, two_module_site
from zadachnik.core.shapes import Shape
from zadachnik.incremental.blobs import BLOB_FORMAT, BlobFolder
from zadachnik.incremental.formulas import FormulaStore
from zadachnik.rendering import mathtex


def sample_site(tmp_path: Path) -> Path:
    site = tmp_path / "sample"
    site.mkdir()
    for name in ("docs", "exercises"):
        shutil.copytree(ROOT / name, site / name)
    shutil.copy(ROOT / "mkdocs.yml", site / "mkdocs.yml")
    return site


def mkdocs_build(site: Path, out: Path, env: dict[str, str] | None = None) -> None:
    """`mkdocs build --strict` in a process of its own, as an author runs it."""
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "--strict", "-d", str(out)], cwd=site,
                   env=env or {**os.environ, "NO_MKDOCS_2_WARNING": "1"}, check=True)


def stored(site: Path) -> dict[str, int]:
    """Each module and page entry of the cache, by when it was written."""
    return {path.name: path.stat().st_mtime_ns for path in blobs(site, "modules") + blobs(site, "pages")}


def test_a_warm_build_reads_and_converts_nothing_and_writes_the_same_site(tmp_path: Path, monkeypatch) -> None:
    site = sample_site(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    assert not list(site.glob(f"{CACHE}/build-*")), "cache: false kept modules or pages"
    counted = Counted(monkeypatch)
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    assert counted.read and counted.assembled
    assert blobs(site, "modules") and blobs(site, "pages")
    counted.clear()
    build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)
    assert counted.read == [] and counted.assembled == []
    assert_same_site(tmp_path / "cold", tmp_path / "uncached")
    assert_same_site(tmp_path / "warm", tmp_path / "uncached")


def test_after_an_edit_only_its_module_is_read_and_assembled(tmp_path: Path, monkeypatch) -> None:
    site = two_module_site(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "first", cache=True)
    quiz = site / "exercises/demo/02-more/quiz.md"
    quiz.write_text(quiz.read_text().replace("What is $2+2$?", "What is the sum $2+2$?"))
    counted = Counted(monkeypatch)
    build_site(site / "mkdocs.yml", tmp_path / "edited", cache=True)
    assert counted.read == ["02-more"]
    assert counted.assembled and all(":02-more:" in page or page.endswith(":book") for page in counted.assembled)
    assert not any(":01-basics:quiz" in page or ":01-basics:exercises" in page for page in counted.assembled)
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    assert_same_site(tmp_path / "edited", tmp_path / "uncached")
    assert "What is the sum" in (tmp_path / "edited/en/demo/02-more/quiz/index.html").read_text()


def damage(path: Path, how: int) -> None:
    data = path.read_bytes()
    damaged = [data[: len(data) // 2], data[:-1] + bytes([data[-1] ^ 1]), b"", b"not a blob at all" * 3][how % 4]
    path.write_bytes(damaged)


def test_damaged_entries_are_made_again_never_used(tmp_path: Path, monkeypatch) -> None:
    site = two_module_site(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "first", cache=True)
    for index, path in enumerate(blobs(site, "modules") + blobs(site, "pages") + blobs(site, "assets")):
        damage(path, index)
    counted = Counted(monkeypatch)
    build_site(site / "mkdocs.yml", tmp_path / "damaged", cache=True)
    assert sorted(counted.read) == ["01-basics", "02-more"]
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    assert_same_site(tmp_path / "damaged", tmp_path / "uncached")
    # The damaged entries were written anew: the next build takes everything.
    counted.clear()
    build_site(site / "mkdocs.yml", tmp_path / "mended", cache=True)
    assert counted.read == [] and counted.assembled == []


def test_a_book_assembled_again_whose_pieces_are_damaged_converts_their_pages_again(tmp_path: Path,
                                                                                     monkeypatch) -> None:
    site = two_module_site(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "first", cache=True)
    pieces = [path for path in blobs(site, "pages") if path.stem.endswith("-pieces")]
    assert pieces, "a module page's pieces are stored apart"
    for index, path in enumerate(pieces):
        damage(path, index)
    # An edit of module 2 assembles the course's book again, which takes module 1's pieces too.
    quiz = site / "exercises/demo/02-more/quiz.md"
    quiz.write_text(quiz.read_text().replace("What is $2+2$?", "What is the sum $2+2$?"))
    counted = Counted(monkeypatch)
    build_site(site / "mkdocs.yml", tmp_path / "edited", cache=True)
    assert any(":01-basics:quiz" in page for page in counted.assembled)
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    assert_same_site(tmp_path / "edited", tmp_path / "uncached")


def test_other_code_starts_afresh(tmp_path: Path, monkeypatch) -> None:
    from zadachnik.incremental import fingerprint

    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    build_site(site / "mkdocs.yml", tmp_path / "first", cache=True)
    counted = Counted(monkeypatch)
    # As after an upgrade of Zadachnik.
    monkeypatch.setattr(fingerprint, "own_code", lambda: "another version")
    build_site(site / "mkdocs.yml", tmp_path / "upgraded", cache=True)
    assert counted.read and counted.assembled
    # The store keeps the entries of the last build only.
    counted.clear()
    build_site(site / "mkdocs.yml", tmp_path / "again", cache=True)
    assert counted.read == [] and counted.assembled == []


def test_the_fingerprint_follows_hooks_and_installed_packages(tmp_path: Path, monkeypatch) -> None:
    from zadachnik.incremental.fingerprint import code_fingerprint

    hook = tmp_path / "hooks.py"
    hook.write_text("def on_page_markdown(markdown, **kwargs):\n    return markdown\n")
    installed = tmp_path / "site-packages" / "someext"
    installed.mkdir(parents=True)
    (installed / "__init__.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(installed.parent))
    import someext  # noqa: F401 - the build has its extensions imported

    before = code_fingerprint(["someext.block"], [hook])
    assert code_fingerprint(["someext"], [hook]) == before
    hook.write_text(hook.read_text() + "# edited\n")
    after_hook = code_fingerprint(["someext"], [hook])
    assert after_hook != before
    # A fresh install of the same files (a CI job's new environment) writes them anew, with the same bytes.
    os.utime(installed / "__init__.py", ns=(1, 1))
    assert code_fingerprint(["someext"], [hook]) == after_hook
    # An upgrade changes them.
    (installed / "__init__.py").write_text("VALUE = 2\n")
    assert code_fingerprint(["someext"], [hook]) != after_hook


def test_the_installation_counts_by_what_it_holds(tmp_path: Path, monkeypatch) -> None:
    """A package installed, upgraded or removed beside the build's (numpy for a values file) starts afresh; the
    folder merely written to again (a reinstall of the same files, Python's bytecode of a single-file module)
    does not."""
    from zadachnik.incremental.fingerprint import code_fingerprint, module_code

    packages = tmp_path / "site-packages"
    (packages / "someext").mkdir(parents=True)
    (packages / "someext" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(packages))
    before, modules_before = code_fingerprint([]), module_code()
    (packages / "__pycache__").mkdir()
    os.utime(packages, ns=(1, 1))
    assert code_fingerprint([]) == before and module_code() == modules_before
    record = packages / "someext-1.0.dist-info" / "RECORD"
    record.parent.mkdir()
    record.write_text("someext/__init__.py,sha256=one,0\n")
    installed, modules_installed = code_fingerprint([]), module_code()
    assert installed != before and modules_installed != modules_before
    # The same version installed again from other code (a wheel built anew) records other digests.
    os.utime(record, ns=(1, 1))
    assert code_fingerprint([]) == installed
    record.write_text("someext/__init__.py,sha256=two,0\n")
    assert code_fingerprint([]) != installed and module_code() != modules_installed


def test_what_no_record_lists_counts_by_its_stamp(tmp_path: Path, monkeypatch) -> None:
    """Debian's packages have an .egg-info and no RECORD, and dpkg (like a hand-made fix by `cp` and `mv`) writes a
    file beside its place and renames it there: a values file importing it reads other code."""
    from zadachnik.incremental.fingerprint import code_fingerprint, module_code

    packages = tmp_path / "dist-packages"
    (packages / "helpermod-1.0.egg-info").mkdir(parents=True)
    (packages / "helpermod-1.0.egg-info" / "PKG-INFO").write_text("Name: helpermod\nVersion: 1.0\n")
    (packages / "helpermod.py").write_text("N = 4\n")
    monkeypatch.syspath_prepend(str(packages))
    before, modules_before = code_fingerprint([]), module_code()
    (packages / "helpermod.py.dpkg-new").write_text("N = 5\n")
    os.utime(packages / "helpermod.py.dpkg-new", ns=(1, 1))
    os.replace(packages / "helpermod.py.dpkg-new", packages / "helpermod.py")
    assert code_fingerprint([]) != before and module_code() != modules_before


def test_the_same_installation_elsewhere_keeps_the_fingerprint(tmp_path: Path) -> None:
    """uvx, `uv run --with` or a virtualenv in a temporary folder: a CI job's new environment of the same files at
    another path. A record's rows for console scripts (whose first line names the interpreter) and for the tools
    that built and installed the distribution differ; its files and entry points do not."""
    from zadachnik.incremental.fingerprint import code_fingerprint, module_code

    def install(root: Path, script: str, tool: str) -> Path:
        packages = root / "lib" / "python3.11" / "site-packages"
        record = packages / "someext-1.0.dist-info" / "RECORD"
        record.parent.mkdir(parents=True)
        record.write_text(f"someext/__init__.py,sha256=one,10\n../../../bin/someext,sha256={script},200\n"
                          f"someext-1.0.dist-info/INSTALLER,sha256={tool},4\n"
                          "someext-1.0.dist-info/entry_points.txt,sha256=points,50\n")
        return packages

    def fingerprints(packages: Path) -> tuple[str, str]:
        sys.path.insert(0, str(packages))
        try:
            return code_fingerprint([]), module_code()
        finally:
            sys.path.remove(str(packages))

    first = fingerprints(install(tmp_path / "env-a", "shebang-a", "pip"))
    assert fingerprints(install(tmp_path / "env-b", "shebang-b", "uv")) == first
    other = install(tmp_path / "env-c", "shebang-a", "pip")
    record = other / "someext-1.0.dist-info" / "RECORD"
    record.write_text(record.read_text().replace("sha256=points", "sha256=other-points"))
    assert fingerprints(other) != first


def test_a_name_that_is_not_utf8_in_the_installation_is_no_crash(tmp_path: Path, monkeypatch) -> None:
    from zadachnik.incremental.fingerprint import code_fingerprint, module_code

    packages = tmp_path / "site-packages"
    packages.mkdir()
    os.mkdir(os.path.join(os.fsencode(packages), b"caf\xe9-1.0.dist-info"))
    monkeypatch.syspath_prepend(str(packages))
    assert code_fingerprint([]) and module_code()


def test_installed_files_are_read_only_when_their_stamps_change(tmp_path: Path, monkeypatch) -> None:
    """What a package's files hold is remembered in the cache folder by their stamps: a build reads them after an
    install only, and a damaged memo means reading them again, nothing worse."""
    from zadachnik.incremental import fingerprint

    installed = tmp_path / "site-packages" / "thirdext"
    installed.mkdir(parents=True)
    (installed / "__init__.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(installed.parent))
    import thirdext  # noqa: F401 - the build has its extensions imported

    read: list[Path] = []
    file_bytes = fingerprint.file_bytes
    monkeypatch.setattr(fingerprint, "file_bytes", lambda path: read.append(path) or file_bytes(path))
    store = fingerprint.installed_store(tmp_path / "cache")

    def fingerprinted() -> str:
        memo = fingerprint.InstalledDigests(store)
        found = fingerprint.code_fingerprint(["thirdext"], installed=memo)
        memo.save()
        return found

    first = fingerprinted()
    assert installed / "__init__.py" in read
    read.clear()
    assert fingerprinted() == first and installed / "__init__.py" not in read
    os.utime(installed / "__init__.py", ns=(1, 1))
    assert fingerprinted() == first and installed / "__init__.py" in read
    store.path(fingerprint.InstalledDigests.KEY).write_bytes(b"not a memo")
    read.clear()
    assert fingerprinted() == first and installed / "__init__.py" in read


def test_a_fresh_install_of_the_same_packages_takes_the_kept_pages(tmp_path: Path, monkeypatch) -> None:
    """A CI job builds in a new environment each time: with the cache folder restored, an install of the same
    versions (every installed file written anew) takes every kept module and page."""
    from zadachnik.incremental import fingerprint

    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    build_site(site / "mkdocs.yml", tmp_path / "first", cache=True)
    stamp = fingerprint.stamp
    monkeypatch.setattr(fingerprint, "stamp", lambda path: f"{stamp(path)} installed again")
    counted = Counted(monkeypatch)
    build_site(site / "mkdocs.yml", tmp_path / "again", cache=True)
    assert counted.read == [] and counted.assembled == []
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    assert_same_site(tmp_path / "again", tmp_path / "uncached")


def test_a_page_whose_build_warned_warns_again(tmp_path: Path, caplog) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    quiz = site / "exercises/demo/01-basics/quiz.md"
    quiz.write_text(quiz.read_text().replace("What is $2+2$?", "What is $2+2$? See [the notes](missing.md)."))
    for name in ("first", "second"):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="mkdocs"):
            build_site(site / "mkdocs.yml", tmp_path / name, cache=True, strict=False)
        assert "missing.md" in caplog.text, f"the {name} build did not warn of the broken link"


def anchors_seen(monkeypatch) -> dict[str, tuple]:
    """What MkDocs checks anchors with, per page, once every page is built."""
    from mkdocs.structure.pages import Page

    seen: dict[str, tuple] = {}
    validate = Page.validate_anchor_links

    def recorded(page, *, files, log_level):
        links = {target.src_uri: dict(found) for target, found in (page.links_to_anchors or {}).items()}
        seen[page.file.src_uri] = (sorted(page.present_anchor_ids or ()), links)
        return validate(page, files=files, log_level=log_level)

    monkeypatch.setattr(Page, "validate_anchor_links", recorded)
    return seen


def test_kept_pages_keep_what_mkdocs_checks_anchors_with(tmp_path: Path, monkeypatch) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    quiz = site / "exercises/demo/01-basics/quiz.md"
    quiz.write_text(quiz.read_text().replace("What is $2+2$?", "What is $2+2$? See [the start](../../index.md#top)."))
    seen = anchors_seen(monkeypatch)
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    uncached = dict(seen)
    assert any(links for _, links in uncached.values()), "no page links to an anchor"
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    seen.clear()
    build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)
    assert seen == uncached


def test_the_formula_cache_keeps_the_formulas_of_kept_pages(tmp_path: Path, monkeypatch) -> None:
    site = two_module_site(tmp_path)
    monkeypatch.setattr(mathtex, "_shared", None)
    build_site(site / "mkdocs.yml", tmp_path / "first", cache=True)
    store = FormulaStore(site / CACHE, mathtex.shared_katex().engine_key())
    before = set(store.load())
    # A new formula in module 2: the file is written again, module 1's pages come from the page cache.
    quiz = site / "exercises/demo/02-more/quiz.md"
    quiz.write_text(quiz.read_text().replace("What is $2+2$?", "What is $2+5$?"))
    build_site(site / "mkdocs.yml", tmp_path / "edited", cache=True)
    after = set(store.load())
    assert ("2+5", False) in after and before - after <= {("2+2", False)} and ("2+2=4", False) in after
    # Without the page cache, a new process renders nothing the formula cache lacks.
    shutil.rmtree(next(site.glob(f"{CACHE}/build-*")))
    monkeypatch.setattr(mathtex, "_shared", None)
    build_site(site / "mkdocs.yml", tmp_path / "pages-gone", cache=True)
    assert mathtex.shared_katex().renders == 0


def test_two_builds_at_once_share_the_cache_safely(tmp_path: Path) -> None:
    site = two_module_site(tmp_path)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    builds = [subprocess.Popen([sys.executable, "-m", "mkdocs", "build", "-q", "--strict", "-d",
                                str(tmp_path / f"at-once-{index}")], cwd=site, env=env, stderr=subprocess.PIPE)
              for index in range(2)]
    for build in builds:
        _, errors = build.communicate(timeout=300)
        assert build.returncode == 0, errors.decode()
    build_site(site / "mkdocs.yml", tmp_path / "after", cache=True)
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    for name in ("at-once-0", "at-once-1", "after"):
        assert_same_site(tmp_path / name, tmp_path / "uncached")


def test_a_blob_reads_back_only_whole(tmp_path: Path) -> None:
    folder = BlobFolder(tmp_path / "blobs")
    shape = Shape(dict[str, str | list[str]])
    folder.put("one", {"text": "Сколько будет 2+2?", "pieces": ["a", "b"]})
    assert folder.get("one", shape) == {"text": "Сколько будет 2+2?", "pieces": ["a", "b"]}
    assert folder.get("two", shape) is None
    for how in range(4):
        folder.put("one", list(range(100)))
        assert folder.get("one", Shape(list[int])) == list(range(100))
        damage(folder.path("one"), how)
        assert folder.get("one", Shape(list[int])) is None
    folder.put("kept", 1)
    stale = folder.folder / ".left-by-a-killed-build.tmp"
    stale.write_text("")
    os.utime(stale, (1, 1))
    fresh = folder.folder / ".being-written.tmp"
    fresh.write_text("")
    folder.keep_only({"kept"})
    assert sorted(path.name for path in folder.folder.iterdir()) == [".being-written.tmp", "kept.blob"]


@pytest.mark.parametrize("value", [b"\x00" * 10, "x" * 100_000])
def test_a_blob_holds_bytes_and_long_texts(tmp_path: Path, value) -> None:
    folder = BlobFolder(tmp_path)
    folder.put("value", value)
    assert folder.get("value", Shape(type(value))) == value


def test_a_site_whose_settings_name_functions_is_kept_too(tmp_path: Path, monkeypatch) -> None:
    """mkdocs-material's usual emoji settings name functions (`!!python/name:`): the same settings in the next
    process give the same keys."""
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    config = site / "mkdocs.yml"
    emoji = ("  - pymdownx.emoji:\n"
             "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
             "      emoji_generator: !!python/name:material.extensions.emoji.to_svg\n")
    config.write_text(config.read_text().replace("markdown_extensions:\n", "markdown_extensions:\n" + emoji, 1))
    assert "pymdownx.emoji" in config.read_text()
    mkdocs_build(site, tmp_path / "first")
    written = stored(site)
    assert written
    mkdocs_build(site, tmp_path / "second")
    assert stored(site) == written, "the second process made its modules and pages again"
    assert_same_site(tmp_path / "second", tmp_path / "first")


def test_serve_writes_its_pages_when_it_stops_and_the_next_build_takes_them(tmp_path: Path, monkeypatch) -> None:
    from support.caching import Serving

    site = two_module_site(tmp_path)
    serving = Serving(site, tmp_path / "served")
    try:
        serving.build()
        quiz = site / "exercises/demo/02-more/quiz.md"
        quiz.write_text(quiz.read_text().replace("What is $2+2$?", "What is the sum $2+2$?"))
        serving.build()
        # A rebuild under serve does not wait for the store.
        assert blobs(site, "pages") == []
    finally:
        serving.close()
    assert blobs(site, "pages")
    counted = Counted(monkeypatch)
    build_site(site / "mkdocs.yml", tmp_path / "after-serve", cache=True)
    assert counted.read == [] and counted.assembled == []
    assert_same_site(tmp_path / "after-serve", tmp_path / "served")


# -- what a page is made of beyond its module, other plugins, and the cache folder itself ----------------------


QUIZ = "exercises/demo/01-basics/quiz.md"


# -- what a generated page is made of that its key misses ---------------------------------------------------


def test_a_snippet_from_outside_the_module_is_included_anew(tmp_path: Path) -> None:
    """pymdownx.snippets puts another file's text into a question as it is converted: such a page is converted
    on every build (its key cannot tell what the file holds)."""
    site = fixture_copy(tmp_path)
    (site / "snippets").mkdir()
    note = site / "snippets/note.md"
    note.write_text("Old note.\n")
    add_to_config(site, "markdown_extensions:\n",
                  f"markdown_extensions:\n  - pymdownx.snippets:\n      base_path: [{site / 'snippets'}]\n")
    edit(site / QUIZ, "What is $2+2$?\n", 'What is $2+2$?\n\n--8<-- "note.md"\n')
    def change() -> None:
        assert "Old note." in page(tmp_path / "cold")
        note.write_text("New note.\n")

    cold_warm_uncached(site, tmp_path, change)
    assert "New note." in page(tmp_path / "warm")


def test_a_file_the_values_file_reads_outside_the_module_folder_is_read_anew(tmp_path: Path) -> None:
    """A module's values file lies in its folder (one named outside it is refused), but what it opens may lie
    beside the module (`../shared.txt`, one course's figures): what the module's code opened outside its folder
    is part of it."""
    site = fixture_copy(tmp_path)
    shared = site / "exercises/demo/shared.txt"
    shared.write_text("4\n")
    module = site / "exercises/demo/01-basics"
    (module / "figures.py").write_text(
        "from pathlib import Path\n\n\ndef values():\n"
        "    return {'n': int((Path(__file__).parent.parent / 'shared.txt').read_text())}\n")
    meta = module / "module.yml"
    meta.write_text(meta.read_text() + "values: figures.py\n")
    edit(site / QUIZ, "What is $2+2$?", "What is $2+2$ (about {{ n }})?")
    def change() -> None:
        assert "about 4" in page(tmp_path / "cold")
        shared.write_text("5\n")

    cold_warm_uncached(site, tmp_path, change)
    assert "about 5" in page(tmp_path / "warm")


def test_a_hook_whose_imported_helper_changed_starts_afresh(tmp_path: Path) -> None:
    """A module a hook imports from beside it (MkDocs puts the hook's folder on sys.path) is code too. Separate
    processes, as `import` keeps modules."""
    site = fixture_copy(tmp_path)
    (site / "hooks").mkdir()
    (site / "hooks/main.py").write_text("from helper import WORD\n\n"
                                        "def on_page_markdown(markdown, **kwargs):\n"
                                        "    return markdown.replace('What is', WORD)\n")
    helper = site / "hooks/helper.py"
    helper.write_text("WORD = 'Tell me'\n")
    add_to_config(site, "plugins:\n", "hooks:\n  - hooks/main.py\nplugins:\n")
    assert mkdocs_run(site, tmp_path / "cold").returncode == 0
    assert "Tell me" in page(tmp_path / "cold")
    helper.write_text("WORD = 'Say'\n")
    assert mkdocs_run(site, tmp_path / "warm").returncode == 0
    (site / "mkdocs.yml").write_text((site / "mkdocs.yml").read_text().replace(
        "exercises_dir: exercises", "exercises_dir: exercises\n      cache: false"))
    assert mkdocs_run(site, tmp_path / "uncached").returncode == 0
    assert "Say" in page(tmp_path / "uncached")
    assert_same_site(tmp_path / "warm", tmp_path / "uncached")


def test_what_plugins_and_hooks_add_after_zadachnik_is_not_frozen(tmp_path: Path) -> None:
    """A hook's on_page_content runs after Zadachnik's on every build, kept pages too: the page written is what it
    gives this time. Here it names the home page's title, which no generated page's key holds."""
    site = fixture_copy(tmp_path)
    (site / "hooks.py").write_text(
        "def on_page_content(html, page, config, files):\n"
        "    home = files.get_file_from_path('index.md').page\n"
        "    return html + f'<p class=\"home\">{home.title}</p>'\n")
    add_to_config(site, "plugins:\n", "hooks:\n  - hooks.py\nplugins:\n")
    def change() -> None:
        assert "Фикстура</p>" in page(tmp_path / "cold")
        edit(site / "docs/index.md", "# Фикстура", "# Фикстура, издание 2")

    cold_warm_uncached(site, tmp_path, change)
    assert "издание 2</p>" in page(tmp_path / "warm")


# -- warnings -------------------------------------------------------------------------------------------------


def test_validation_from_the_environment_warns_on_kept_pages_too(tmp_path: Path, monkeypatch) -> None:
    """What `!ENV` (or an INHERIT-ed file) gives the settings keys the pages too: a page kept while a broken link
    was `info` warns once it is `warn`."""
    from mkdocs.exceptions import Abort

    site = fixture_copy(tmp_path)
    add_to_config(site, "plugins:\n",
                  "validation:\n  links:\n    not_found: !ENV [ZQ_NOT_FOUND, info]\nplugins:\n")
    edit(site / QUIZ, "What is $2+2$?", "What is $2+2$? See [the notes](missing.md).")
    monkeypatch.delenv("ZQ_NOT_FOUND", raising=False)
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    monkeypatch.setenv("ZQ_NOT_FOUND", "warn")
    with pytest.raises(Abort):
        build_site(site / "mkdocs.yml", tmp_path / "uncached")
    with pytest.raises(Abort):
        build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)


def test_a_verbose_build_leaves_kept_pages_their_anchor_links(tmp_path: Path, monkeypatch) -> None:
    """MkDocs records a page's links to anchors only when its log is above DEBUG (not under `mkdocs build -v`): a
    page a verbose build made is not kept, so later builds still check its links."""
    from mkdocs.exceptions import Abort

    site = fixture_copy(tmp_path)
    add_to_config(site, "plugins:\n", "validation:\n  anchors: warn\nplugins:\n")
    edit(site / QUIZ, "What is $2+2$?", "What is $2+2$? See [the start](../../index.md#no-such-anchor).")
    mkdocs_logger = logging.getLogger("mkdocs")
    level = mkdocs_logger.level
    mkdocs_logger.setLevel(logging.DEBUG)  # mkdocs build -v
    try:
        build_site(site / "mkdocs.yml", tmp_path / "verbose", cache=True)
    finally:
        mkdocs_logger.setLevel(level)
    with pytest.raises(Abort):
        build_site(site / "mkdocs.yml", tmp_path / "uncached")
    with pytest.raises(Abort):
        build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)


# -- the formula cache ----------------------------------------------------------------------------------------


def test_the_formula_cache_keeps_display_formulas_of_kept_pages(tmp_path: Path, monkeypatch) -> None:
    """Kept pages tell the formula cache the formulas the extension drew on them, a `$$…$$` inside an admonition
    too: none leaves the cache at the next build that writes it."""
    site = fixture_copy(tmp_path)
    edit(site / QUIZ, "What is $2+2$?\n", "What is $2+2$?\n\n!!! note\n    $$x^2+y^2=z^2$$\n")
    monkeypatch.setattr(mathtex, "_shared", None)
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    store = FormulaStore(site / CACHE, mathtex.shared_katex().engine_key())
    assert ("x^2+y^2=z^2", True) in store.load()
    # A new formula on a hand-written page: the formula cache is written again, the quiz comes from the cache.
    edit(site / "docs/index.md", "$a^2+b^2=c^2$", "$a^2+b^2=c^2$, $d=1$")
    monkeypatch.setattr(mathtex, "_shared", None)
    build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)
    assert ("d=1", False) in store.load()
    assert ("x^2+y^2=z^2", True) in store.load()


# -- the cache folder itself ------------------------------------------------------------------------------------


def test_a_hostile_blob_is_not_run(tmp_path: Path) -> None:
    """An entry with a right length and checksum that asks to run something (a cache restored from CI, or written
    by another user) builds nothing but the model's own values: it is a miss."""
    site = fixture_copy(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    marker = tmp_path / "ran"

    class Hostile:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    payload = pickle.dumps(Hostile())
    for path in blobs(site, "modules"):
        path.write_bytes(BLOB_FORMAT + struct.pack("<QI", len(payload), zlib.crc32(payload)) + payload)
    build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)
    assert not marker.exists(), "the build ran code from the cache folder"


def test_plugins_after_zadachnik_see_a_kept_pages_markdown(tmp_path: Path) -> None:
    """Every plugin or hook after Zadachnik (hooks always are) gets a kept page's Markdown before it is blanked:
    what it learns of it (a word count in page.meta that the theme shows) holds on warm builds too."""
    site = fixture_copy(tmp_path)
    (site / "hooks.py").write_text(
        "def on_page_markdown(markdown, page, **kwargs):\n"
        "    page.meta['words'] = len(markdown.split())\n"
        "    return markdown\n")
    (site / "overrides").mkdir()
    (site / "overrides/main.html").write_text(
        '{% extends "base.html" %}\n{% block content %}{{ super() }}'
        '<p class="words">{{ page.meta.words }} words</p>{% endblock %}\n')
    add_to_config(site, "theme:\n  name: material\n", "theme:\n  name: material\n  custom_dir: overrides\n")
    add_to_config(site, "plugins:\n", "hooks:\n  - hooks.py\nplugins:\n")
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    assert '<p class="words">0 words</p>' not in page(tmp_path / "uncached")
    assert_same_site(tmp_path / "warm", tmp_path / "uncached")


def test_a_read_only_cache_folder_does_not_stop_the_build(tmp_path: Path, monkeypatch) -> None:
    """A cache folder the build may not clean (`chmod -R a-w .cache`, simulated here by an unlink that is refused)
    leaves its entries, and the build goes on."""
    site = two_module_site(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    shutil.rmtree(site / "exercises/demo/02-more")
    unlink = Path.unlink

    def refused(path: Path, missing_ok: bool = False) -> None:
        if CACHE.as_posix() in path.as_posix():
            raise PermissionError(13, "Permission denied", str(path))
        unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", refused)
    build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)


def test_the_fingerprint_follows_an_installed_packages_other_files(tmp_path: Path, monkeypatch) -> None:
    """An installed package counts by every Python file of it: a module of it edited or patched in place (a fix to
    pymdownx/snippets.py, a `patch -p1` in site-packages) makes pages afresh."""
    from zadachnik.incremental.fingerprint import code_fingerprint

    installed = tmp_path / "site-packages" / "otherext"
    installed.mkdir(parents=True)
    (installed / "__init__.py").write_text("")
    (installed / "block.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(installed.parent))
    import otherext.block  # noqa: F401 - the build has its extensions imported

    before = code_fingerprint(["otherext.block"])
    (installed / "block.py").write_text("VALUE = 2\n")
    assert code_fingerprint(["otherext.block"]) != before


def test_a_module_whose_values_read_a_file_outside_its_folder_is_read_again_when_it_changes(tmp_path: Path,
                                                                                           monkeypatch) -> None:
    """A values file may read data a course keeps beside its modules: the module is read again when it changes,
    and only that module."""
    site = two_module_site(tmp_path)
    shared = site / "exercises/demo/shared-figures.txt"
    shared.write_text("4\n")
    module = site / "exercises/demo/01-basics"
    (module / "values.py").write_text("from pathlib import Path\n\n\ndef values():\n"
                                      "    return {'n': int(Path('../shared-figures.txt').read_text())}\n")
    (module / "module.yml").write_text((module / "module.yml").read_text() + "values: values.py\n")
    quiz = module / "quiz.md"
    quiz.write_text(quiz.read_text().replace("What is $2+2$?", "What is $2+2$ (about {{ n }})?"))
    build_site(site / "mkdocs.yml", tmp_path / "first", cache=True)
    assert "about 4" in (tmp_path / "first/en/demo/01-basics/quiz/index.html").read_text()
    shared.write_text("5\n")
    counted = Counted(monkeypatch)
    build_site(site / "mkdocs.yml", tmp_path / "edited", cache=True)
    assert counted.read == ["01-basics"]
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    assert_same_site(tmp_path / "edited", tmp_path / "uncached")
    assert "about 5" in (tmp_path / "edited/en/demo/01-basics/quiz/index.html").read_text()


def test_caches_no_build_used_for_a_month_are_removed(tmp_path: Path) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    old, recent = site / CACHE / "build-of-a-config-long-gone", site / CACHE / "build-of-another-config"
    for folder in (old, recent):
        folder.mkdir(parents=True)
        (folder / "pages").mkdir()
    month_ago = time.time() - 31 * 86400
    os.utime(old, (month_ago, month_ago))
    build_site(site / "mkdocs.yml", tmp_path / "out", cache=True)
    assert not old.exists() and recent.exists()
    own = [folder for folder in site.glob(f"{CACHE}/build-*") if folder not in (old, recent)]
    assert len(own) == 1 and time.time() - own[0].stat().st_mtime < 3600


def test_stored_entries_are_as_readable_as_the_site(tmp_path: Path) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    build_site(site / "mkdocs.yml", tmp_path / "out", cache=True)
    modes = {path.stat().st_mode & 0o777 for path in blobs(site, "pages") + blobs(site, "modules")}
    assert modes == {0o644}


def test_a_module_whose_checker_reads_a_file_outside_its_folder_is_read_again_when_it_changes(
        tmp_path: Path, monkeypatch, caplog) -> None:
    """The build runs each checker against the answer its page reveals: what the checker reads is part of the
    module too."""
    from mkdocs.exceptions import Abort

    site = two_module_site(tmp_path)
    shared = site / "exercises/demo/tolerance.txt"
    shared.write_text("0.5\n")
    quiz = site / "exercises/demo/01-basics/quiz.md"
    quiz.write_text(quiz.read_text() + f"""
/// question | Q99
type: single
answer: B
check: |
  def check(answer):
      return "B" in answer["choice"] and float(open({str(shared)!r}).read()) > 0

//// ru | Проверка
Сколько будет $2+2$?

options:
A. Три
B. Четыре

explanation:
Четыре.
////

//// en | A check
What is $2+2$?

options:
A. Three
B. Four

explanation:
Four.
////
///
""")
    build_site(site / "mkdocs.yml", tmp_path / "first", cache=True)
    shared.write_text("-1\n")  # the checker now fails its own answer key: the build must say so
    counted = Counted(monkeypatch)
    with pytest.raises(Abort):
        build_site(site / "mkdocs.yml", tmp_path / "edited", cache=True)
    assert "question Q99: its checker rejects the answer its 'ru' page reveals" in caplog.text
    assert counted.read == ["01-basics"]
