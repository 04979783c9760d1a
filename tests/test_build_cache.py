"""The build cache (`cache: true`): modules and pages one build made, kept in .cache/zadachnik, are taken again by
the next build while nothing they are made of changed. Whatever the cache holds, a build writes exactly what a
build without it writes."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURE_SITE, ROOT, build_site, copy_site
from test_serve import site_files, two_module_site
from zadachnik.core.blobs import BlobFolder
from zadachnik.rendering import mathtex

CACHE = Path(".cache") / "zadachnik"


class Counted:
    """What a build did afresh: the modules it read and the pages it assembled."""

    def __init__(self, monkeypatch) -> None:
        from zadachnik.reading.model import Loader
        from zadachnik.rendering.render import Renderer

        self.read: list[str] = []
        self.assembled: list[str] = []
        read, assemble = Loader.module, Renderer.assemble

        def counted_read(loader, folder):
            self.read.append(folder.name)
            return read(loader, folder)

        def counted_assemble(renderer, plan, html, reuse=None):
            self.assembled.append(f"{plan.lang}:{plan.module.slug}:{plan.kind}")
            return assemble(renderer, plan, html, reuse)

        monkeypatch.setattr(Loader, "module", counted_read)
        monkeypatch.setattr(Renderer, "assemble", counted_assemble)

    def clear(self) -> None:
        self.read.clear()
        self.assembled.clear()


def sample_site(tmp_path: Path) -> Path:
    site = tmp_path / "sample"
    site.mkdir()
    for name in ("docs", "exercises"):
        shutil.copytree(ROOT / name, site / name)
    shutil.copy(ROOT / "mkdocs.yml", site / "mkdocs.yml")
    return site


def blobs(site: Path, folder: str) -> list[Path]:
    return sorted(site.glob(f"{CACHE}/build-*/{folder}/*.blob"))


def assert_same_site(built: Path, expected: Path) -> None:
    built_files, expected_files = site_files(built), site_files(expected)
    assert built_files.keys() == expected_files.keys()
    different = [name for name in expected_files if built_files[name] != expected_files[name]]
    assert not different, different


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
    from zadachnik.core import fingerprint

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
    from zadachnik.core.fingerprint import code_fingerprint

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
    # An install writes the package's files anew.
    os.utime(installed / "__init__.py", ns=(1, 1))
    assert code_fingerprint(["someext"], [hook]) != after_hook


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
    store = mathtex.FormulaStore(site / CACHE, mathtex.shared_katex().engine_key())
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
    folder.put("one", {"text": "Сколько будет 2+2?", "pieces": ["a", "b"]})
    assert folder.get("one") == {"text": "Сколько будет 2+2?", "pieces": ["a", "b"]}
    assert folder.get("two") is None
    for how in range(4):
        folder.put("one", list(range(100)))
        damage(folder.path("one"), how)
        assert folder.get("one") is None
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
    assert folder.get("value") == value


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
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "--strict", "-d", str(tmp_path / "first")],
                   cwd=site, env=env, check=True)
    counted = Counted(monkeypatch)
    build_site(config, tmp_path / "second", cache=True)
    assert counted.read == [] and counted.assembled == []
    assert_same_site(tmp_path / "second", tmp_path / "first")


def test_serve_writes_its_pages_when_it_stops_and_the_next_build_takes_them(tmp_path: Path, monkeypatch) -> None:
    from test_serve import Serving

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
