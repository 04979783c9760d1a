"""`mkdocs serve`: a change in exercises/ rebuilds the site, and formulas that did not change are not rendered
again (KaTeX renders are cached by TeX for the life of the process; tests/test_math_cache.py covers the cache on
disk between processes)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from conftest import FIXTURE_SITE, build_site, copy_site
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
