"""`mkdocs serve`: a change in exercises/ rebuilds the site, and formulas that did not change are not rendered
again (KaTeX renders are cached by TeX for the life of the process; tests/incremental/test_math_cache.py covers
the cache on disk between processes)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from support.caching import Serving, site_files
from support.sites import FIXTURE_SITE, build_site, copy_site, two_module_site
from zadachnik.rendering.mathtex import shared_katex


def test_rebuild_renders_only_changed_formulas(tmp_path: Path) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    build_site(site / "mkdocs.yml", tmp_path / "out1")
    katex = shared_katex()
    before = katex.renders
    build_site(site / "mkdocs.yml", tmp_path / "out2")
    assert katex.renders == before, "an unchanged rebuild rendered formulas again"
    quiz = site / "exercises/demo/01-basics/quiz.md"
    quiz.write_text(quiz.read_text().replace("Сколько будет $2+2$?", "Сколько будет $2+3$?"))
    build_site(site / "mkdocs.yml", tmp_path / "out3")
    assert katex.renders == before + 1


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode("utf-8")


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except OSError:
            pass
        time.sleep(0.3)
    return False


def test_serve_rebuilds_when_an_exercise_source_changes(tmp_path: Path) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    port = free_port()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=site, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    url = f"http://127.0.0.1:{port}/en/demo/01-basics/quiz/"
    try:
        assert wait_for(lambda: "What is" in fetch(url), 60), "mkdocs serve did not come up"
        quiz = site / "exercises/demo/01-basics/quiz.md"
        quiz.write_text(quiz.read_text().replace("What is $2+2$?", "What is the sum $2+2$?"))
        assert wait_for(lambda: "What is the sum" in fetch(url), 60), "the change in exercises/ was not rebuilt"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_rebuild_after_an_edit_writes_what_a_fresh_build_writes(tmp_path: Path, monkeypatch) -> None:
    from zadachnik.rendering.render import Renderer

    site = two_module_site(tmp_path)
    assembled: list[str] = []
    assemble = Renderer.assemble
    monkeypatch.setattr(Renderer, "assemble",
                        lambda self, plan, html, reuse=None: assembled.append(f"{plan.lang}:{plan.module.slug}:"
                                                                              f"{plan.kind}")
                        or assemble(self, plan, html, reuse))
    serving = Serving(site, tmp_path / "served")
    try:
        serving.build()
        parts = dict(serving.plugin.page_cache.parts)
        quiz = site / "exercises/demo/02-more/quiz.md"
        quiz.write_text(quiz.read_text().replace("What is $2+2$?", "What is the sum $2+2$?"))
        assembled.clear()
        serving.build()
        read_again = {module.slug for module in serving.plugin.kept_modules.fresh}
        parts_after = serving.plugin.page_cache.parts
    finally:
        serving.close()
    assert read_again == {"02-more"}
    # Only the edited module's pages and books, and the course's book, were assembled again.
    assert assembled and all(":02-more:" in page or page.endswith(":book") for page in assembled), assembled
    assert not any(":01-basics:quiz" in page or ":01-basics:exercises" in page for page in assembled)
    # The course's books rendered only the edited module's parts again.
    course_books = {place for place in parts if place[0].endswith("demo/book.md")}
    assert {place[2] for place in course_books} == {1, 2} and parts_after.keys() == parts.keys()
    assert all((parts_after[place] is parts[place]) == (place[2] == 1) for place in course_books)
    # A new process builds the edited sources from nothing (no cache either).
    shutil.rmtree(site / ".cache", ignore_errors=True)
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "--strict", "-d", str(tmp_path / "fresh")],
                   cwd=site, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, check=True)
    served, fresh = site_files(tmp_path / "served"), site_files(tmp_path / "fresh")
    assert served.keys() == fresh.keys()
    different = [name for name in fresh if served[name] != fresh[name]]
    assert not different, different
    assert "What is the sum" in (tmp_path / "served/en/demo/02-more/quiz/index.html").read_text()


def test_rebuild_reports_a_broken_module_until_it_is_mended(tmp_path: Path, caplog) -> None:
    from mkdocs.commands import build
    from mkdocs.exceptions import Abort
    from mkdocs.utils import DuplicateFilter

    site = two_module_site(tmp_path)
    quiz = site / "exercises/demo/02-more/quiz.md"
    text = quiz.read_text()
    serving = Serving(site, tmp_path / "served")
    # As the `mkdocs` command has it (mkdocs/__main__.py): a message the build logged once is dropped after, and
    # the second failed rebuild said only "Aborted with a BuildError!".
    duplicates = DuplicateFilter()
    build.log.addFilter(duplicates)
    try:
        serving.build()
        quiz.write_text(text.replace("/// question | Q2", "/// question | Q1", 1))
        for _ in range(2):  # a failed build keeps nothing: the problem is found again
            caplog.clear()
            with pytest.raises(Abort):
                serving.build()
            assert "exercises/demo/02-more/quiz.md:35: the id 'Q1' is already used" in caplog.text
        quiz.write_text(text)
        serving.build()
    finally:
        build.log.removeFilter(duplicates)
        serving.close()


def test_a_rebuild_after_a_snippet_changes_writes_its_books_as_a_fresh_build_does(tmp_path: Path) -> None:
    """A question that pastes a shared file (pymdownx.snippets) into its text: after the file changes, the quiz
    page is made afresh, and so must be the module's part of the problem books, which a serving process kept
    by a key that knew nothing of the file (the serve audit: the book kept the old text until the sources
    changed)."""
    site = two_module_site(tmp_path)
    (site / "snippets").mkdir()
    note = site / "snippets/note.md"
    note.write_text("SNIPPET-ONE\n")
    config = site / "mkdocs.yml"
    snippets = f"  - pymdownx.snippets:\n      base_path: [{site / 'snippets'}]\n"
    config.write_text(config.read_text().replace("markdown_extensions:\n", "markdown_extensions:\n" + snippets, 1))
    quiz = site / "exercises/demo/02-more/quiz.md"
    quiz.write_text(quiz.read_text().replace("What is $2+2$?\n", 'What is $2+2$?\n\n--8<-- "note.md"\n', 1))
    serving = Serving(site, tmp_path / "served")
    try:
        serving.build()
        note.write_text("SNIPPET-TWO\n")
        serving.build()
    finally:
        serving.close()
    shutil.rmtree(site / ".cache", ignore_errors=True)
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "--strict", "-d", str(tmp_path / "fresh")],
                   cwd=site, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, check=True)
    served, fresh = site_files(tmp_path / "served"), site_files(tmp_path / "fresh")
    different = [name for name in fresh if served.get(name) != fresh[name]]
    assert not different, different
    assert b"SNIPPET-TWO" in served["en/demo/book/index.html"]


def test_serving_dirty_is_told_what_goes_stale(caplog) -> None:
    import logging

    from zadachnik.plugin import ZadachnikPlugin

    with caplog.at_level(logging.INFO):
        ZadachnikPlugin().on_startup(command="serve", dirty=True)
        ZadachnikPlugin().on_startup(command="serve", dirty=False)
    said = [record.getMessage() for record in caplog.records if "--dirty" in record.getMessage()]
    assert len(said) == 1 and "course list" in said[0]
