"""What the build-cache and serve tests share: builds as `mkdocs serve` and `mkdocs build` make them, the cache's
entries, and sites compared file by file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from support.sites import FIXTURE_SITE, build_site, copy_site

CACHE = Path(".cache") / "zadachnik"
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


class Serving:
    """Builds of one site as `mkdocs serve` makes them: one process, the plugin kept, the config read again."""

    def __init__(self, site: Path, out: Path):
        from mkdocs.config import load_config

        self.site, self.out = site, out
        self.config = load_config(config_file=str(site / "mkdocs.yml"), site_dir=str(out), strict=True)
        self.config.plugins.on_startup(command="serve", dirty=False)
        self.plugin = self.config.plugins["zadachnik"]

    def build(self) -> None:
        from mkdocs.commands.build import build
        from mkdocs.config import load_config

        build(load_config(config_file=str(self.site / "mkdocs.yml"), site_dir=str(self.out), strict=True))

    def close(self) -> None:
        self.config.plugins.on_shutdown()


def site_files(folder: Path) -> dict[str, bytes]:
    # The sitemap's archive carries its time of writing; its text is compared instead.
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and path.suffix != ".gz"}


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


def blobs(site: Path, folder: str) -> list[Path]:
    return sorted(site.glob(f"{CACHE}/build-*/{folder}/*.blob"))


def assert_same_site(built: Path, expected: Path) -> None:
    built_files, expected_files = site_files(built), site_files(expected)
    assert built_files.keys() == expected_files.keys()
    different = [name for name in expected_files if built_files[name] != expected_files[name]]
    assert not different, different


def cold_warm_uncached(site: Path, tmp_path: Path, change) -> None:
    """A cold build, `change()`, a warm build: the warm build's site is what a build without the cache writes."""
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    change()
    build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    assert_same_site(tmp_path / "warm", tmp_path / "uncached")


def fixture_copy(tmp_path: Path) -> Path:
    return copy_site(FIXTURE_SITE, tmp_path / "src")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new))


def add_to_config(site: Path, old: str, new: str) -> None:
    edit(site / "mkdocs.yml", old, new)


def mkdocs_run(site: Path, out: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` in a process of its own, its output kept."""
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "--strict", "-d", str(out)],
                          cwd=site, env=env or ENV, capture_output=True, text=True)


def page(out: Path, path: str = "en/demo/01-basics/quiz/index.html") -> str:
    return (out / path).read_text()


# A numeric question with one variant, drawn by a `p90` the test adds to the module's values file.
VARIANT_QUESTION = """
/// question | Q90
type: numeric
variants: {from: p90, count: 1}
fields:
  x: {answer: "x", atol: 0.001}

//// ru | Оценка
Примерно {{ x:.0f }}. Найдите точно.

fields:
- x: Число

explanation:
Это {{ x:.0f }}.
////

//// en | An estimate
About {{ x:.0f }}. Find it exactly.

fields:
- x: Number

explanation:
It is {{ x:.0f }}.
////
///
"""
