"""Build-time math speed: formulas rendered in batches (one V8 call for many), a disk cache of rendered formulas
between builds, V8 and the prefetch processes closed with the build, and the math extension on its own."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from support.sites import FIXTURE_SITE, ROOT, build_failure, build_site, copy_site
from zadachnik.incremental import formulas as formulas_module
from zadachnik.incremental.formulas import FormulaStore
from zadachnik.incremental.site import CACHE_DIR
from zadachnik.rendering import mathtex
from zadachnik.rendering.mathtex import BATCH_SIZE, Katex, MathError, formulas_in

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
# Formulas KaTeX refuses, each in a different way: parse error, nesting, an untrusted command, a huge size,
# a macro bomb.
BAD = [(r"\frac{1", True), ("{" * 3000 + "x" + "}" * 3000, False), (r"\href{https://example.org}{x}", False),
       (r"\rule{100000em}{1em}", True),
       (r"\def\a{\b\b\b\b\b\b\b\b\b\b}\def\b{\c\c\c\c\c\c\c\c\c\c}\def\c{xxxxxxxxxx}\a\a\a\a\a\a\a\a\a", True)]


def outcome(render, tex: str, display: bool):
    """What a page gets from one formula: its HTML, or every part of its error that a message shows."""
    try:
        return render(tex, display)
    except MathError as error:
        return error_parts(error)


def error_parts(error: MathError) -> tuple:
    return ("error", str(error), error.position, error.tex, error.source, error.display)


def as_outcome(result: str | MathError):
    return result if isinstance(result, str) else error_parts(result)


def sample_formulas() -> list[tuple[str, bool]]:
    found: list[tuple[str, bool]] = []
    for folder in ("exercises", "docs"):
        for path in sorted((ROOT / folder).rglob("*.md")):
            found.extend(formulas_in(path.read_text(encoding="utf-8")))
    return list(dict.fromkeys(found))


# -- batches --------------------------------------------------------------------------------------------------

def test_a_batch_renders_every_sample_formula_exactly_as_one_call_each() -> None:
    formulas = sample_formulas()
    assert len(formulas) > 150
    single, batched = Katex(), Katex()
    expected = [outcome(single.render_now, tex, display) for tex, display in formulas + BAD]
    assert [as_outcome(result) for result in batched.render_many(formulas + BAD)] == expected


def test_one_bad_formula_spoils_no_other_in_its_batch() -> None:
    good = [(r"\frac{16}{7}", False), (r"\sum_{i=1}^n i^2", True), (r"\sqrt{x}", False)]
    mixed = [good[0], *BAD[:2], good[1], *BAD[2:], good[2]]
    alone = Katex()
    results = [as_outcome(result) for result in Katex().render_many(mixed)]
    assert results == [outcome(alone.render_now, tex, display) for tex, display in mixed]
    assert [results[0], results[3], results[-1]] == [alone.render_now(tex, display) for tex, display in good]
    assert all(isinstance(result, tuple) for result in results[1:3] + results[4:-1])


class CountingEngine:
    """The V8 context of a Katex, counting the calls into it."""

    def __init__(self, context):
        self.context = context
        self.calls = 0

    def call(self, *args):
        self.calls += 1
        return self.context.call(*args)


def test_many_formulas_take_one_v8_call_per_batch() -> None:
    katex = Katex()
    engine = CountingEngine(katex._engine())
    katex._engine = lambda: engine
    formulas = [(f"x^{{{number}}}", False) for number in range(2 * BATCH_SIZE + 50)]
    katex.prefetch(formulas, workers=0)
    assert engine.calls == 3
    assert katex.renders == len(formulas) and all(key in katex.cache for key in formulas)


def test_a_prefetch_process_renders_its_chunk_in_batches(monkeypatch) -> None:
    """`render_batch` is what a prefetch process runs: it renders through `render_many`, errors included."""
    monkeypatch.setattr(mathtex, "_batch_engine", None)
    formulas = [(r"\frac{1}{2}", False), *BAD, (r"a^2", True)]
    results = mathtex.render_batch(str(mathtex.KATEX_DIR / "katex.min.js"), formulas)
    alone = Katex()
    for (key, rendered, error), (tex, display) in zip(results, formulas, strict=True):
        assert key == (tex, display)
        expected = outcome(alone.render_now, tex, display)
        if isinstance(expected, str):
            assert (rendered, error) == (expected, None)
        else:
            assert error == (expected[1], expected[2])


# -- disk cache -----------------------------------------------------------------------------------------------

def fresh_site(tmp_path: Path) -> Path:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    shutil.rmtree(site / CACHE_DIR.parts[0], ignore_errors=True)
    return site


def build_in_new_process(monkeypatch, site: Path, out: Path) -> int:
    """Build as a new `mkdocs build` would (no formulas in memory): how many formulas KaTeX rendered."""
    monkeypatch.setattr(mathtex, "_shared", None)
    build_site(site / "mkdocs.yml", out)
    return mathtex.shared_katex().renders


def pages(site_dir: Path) -> dict[str, bytes]:
    return {str(path.relative_to(site_dir)): path.read_bytes() for path in sorted(site_dir.rglob("*.html"))}


def cache_file(site: Path) -> Path:
    files = list((site / CACHE_DIR).glob("katex-*.json"))
    assert len(files) == 1, files
    return files[0]


def test_a_second_build_renders_no_formula(tmp_path: Path, monkeypatch) -> None:
    site = fresh_site(tmp_path)
    assert build_in_new_process(monkeypatch, site, tmp_path / "out1") > 10
    assert build_in_new_process(monkeypatch, site, tmp_path / "out2") == 0
    assert pages(tmp_path / "out2") == pages(tmp_path / "out1")


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def garbage(path: Path) -> None:
    path.write_text('{"format": 1, "engine": ', encoding="utf-8")


def swap_two_formulas(path: Path) -> None:
    """Valid JSON, each entry in place, but two formulas' HTML exchanged: each is now under the wrong key."""
    data = json.loads(path.read_text(encoding="utf-8"))
    first, second = data["entries"][0], data["entries"][1]
    first[2], second[2] = second[2], first[2]
    path.write_text(json.dumps(data), encoding="utf-8")


def other_engine(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["engine"] = "0" * 64
    path.write_text(json.dumps(data), encoding="utf-8")


def not_a_list(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["entries"][0] = {"tex": "x"}
    data["entries"][1][1] = "yes"
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(("damage", "rendered_again"), [
    (truncate, "all"), (garbage, "all"), (other_engine, "all"), (swap_two_formulas, 2), (not_a_list, 2)])
def test_a_damaged_cache_is_rendered_again_and_never_shown(tmp_path: Path, monkeypatch, damage,
                                                           rendered_again) -> None:
    site = fresh_site(tmp_path)
    first = build_in_new_process(monkeypatch, site, tmp_path / "out1")
    damage(cache_file(site))
    renders = build_in_new_process(monkeypatch, site, tmp_path / "out2")
    assert renders == (first if rendered_again == "all" else rendered_again)
    assert pages(tmp_path / "out2") == pages(tmp_path / "out1")
    # The build that found the damage wrote the cache whole again.
    assert build_in_new_process(monkeypatch, site, tmp_path / "out3") == 0


def test_the_cache_keeps_only_what_the_last_build_used(tmp_path: Path, monkeypatch) -> None:
    site = fresh_site(tmp_path)
    build_in_new_process(monkeypatch, site, tmp_path / "out1")
    quiz = site / "exercises/demo/01-basics/quiz.md"
    quiz.write_text(quiz.read_text(encoding="utf-8").replace("$2+2$", "$2+3$"), encoding="utf-8")
    assert build_in_new_process(monkeypatch, site, tmp_path / "out2") == 1
    stored = FormulaStore(site / CACHE_DIR, mathtex.shared_katex().engine_key()).load()
    assert ("2+3", False) in stored and ("2+2", False) not in stored and ("2+2=4", False) in stored
    # A KaTeX upgrade (another engine) removes the old engine's file when it writes its own.
    stale = site / CACHE_DIR / "katex-0123456789abcdef01234567.json"
    stale.write_text("{}", encoding="utf-8")
    quiz.write_text(quiz.read_text(encoding="utf-8").replace("$2+3$", "$2+4$"), encoding="utf-8")
    build_in_new_process(monkeypatch, site, tmp_path / "out3")
    assert not stale.exists() and cache_file(site).name.startswith("katex-")


def test_bad_formulas_are_never_cached_and_keep_their_message(tmp_path: Path, monkeypatch, caplog) -> None:
    site = fresh_site(tmp_path)
    build_in_new_process(monkeypatch, site, tmp_path / "out1")
    before = cache_file(site).read_bytes()
    quiz = site / "exercises/demo/01-basics/quiz.md"
    quiz.write_text(quiz.read_text(encoding="utf-8").replace("$2+2$", r"$\frac{2+2$"), encoding="utf-8")
    messages = []
    for attempt in range(2):
        monkeypatch.setattr(mathtex, "_shared", None)
        caplog.clear()
        messages.append(build_failure(site / "mkdocs.yml", tmp_path / f"bad{attempt}", caplog))
    assert messages[0] == messages[1] and r"invalid TeX '\frac{2+2'" in messages[0]
    assert "quiz.md:11" in messages[0]
    assert cache_file(site).read_bytes() == before


def test_the_cache_survives_an_unwritable_folder(tmp_path: Path, monkeypatch) -> None:
    """A cache that can't be written costs the next build time, never this build its pages."""
    site = fresh_site(tmp_path)
    (site / ".cache").write_text("not a folder", encoding="utf-8")
    assert build_in_new_process(monkeypatch, site, tmp_path / "out1") > 10
    assert (tmp_path / "out1/demo/01-basics/quiz/index.html").is_file()


def test_a_cache_write_never_touches_the_file_readers_open(tmp_path: Path, monkeypatch) -> None:
    """The new file is complete before it takes the old one's place; a write that fails leaves the old one."""
    engine = "e" * 64
    store = FormulaStore(tmp_path, engine)
    store.save({("a", False): "<span>a</span>"})
    seen_by_a_reader = []
    real_replace = os.replace

    def replace(source, target) -> None:
        seen_by_a_reader.append(FormulaStore(tmp_path, engine).load())
        assert FormulaStore(tmp_path, engine).path == Path(target)
        assert json.loads(Path(source).read_text(encoding="utf-8"))["entries"][0][0] == "b"
        real_replace(source, target)

    monkeypatch.setattr(mathtex.os, "replace", replace)
    store.save({("b", True): "<span>b</span>"})
    assert seen_by_a_reader == [{("a", False): "<span>a</span>"}]
    assert store.load() == {("b", True): "<span>b</span>"}

    def failing_replace(source, target) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(mathtex.os, "replace", failing_replace)
    with pytest.raises(OSError):
        store.save({("c", False): "<span>c</span>"})
    assert store.load() == {("b", True): "<span>b</span>"}
    assert [path.name for path in tmp_path.iterdir()] == [store.path.name]


def test_two_builds_at_once_share_one_cache(tmp_path: Path) -> None:
    site = fresh_site(tmp_path)
    for round_number in range(2):  # cold (both write), then warm (both read)
        builds = [subprocess.Popen([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / f"out{n}")],
                                   cwd=site, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                  for n in (round_number * 2, round_number * 2 + 1)]
        for build in builds:
            _, errors = build.communicate(timeout=600)
            assert build.returncode == 0, errors
    built = [pages(tmp_path / f"out{n}") for n in range(4)]
    assert built[0] and all(other == built[0] for other in built[1:])
    assert len(FormulaStore(site / CACHE_DIR, Katex().engine_key()).load()) > 10
    assert not list((site / CACHE_DIR).glob(".katex-*.tmp")), "a temporary file was left behind"


# -- shutdown -------------------------------------------------------------------------------------------------

def test_a_build_closes_v8_and_the_prefetch_processes(tmp_path: Path, monkeypatch) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    from generate import generate

    generate(tmp_path / "course", 100)  # enough formulas to start the prefetch processes
    monkeypatch.setattr(mathtex, "_shared", None)
    monkeypatch.setattr(mathtex, "PREFETCH_MINIMUM", 10)
    katex = mathtex.shared_katex()
    started = []
    original = Katex.prefetch

    def prefetch(self, formulas, workers):
        original(self, formulas, max(1, workers))
        started.append(self._pool is not None)

    monkeypatch.setattr(Katex, "prefetch", prefetch)
    build_site(tmp_path / "course/zadachnik/mkdocs.yml", tmp_path / "out", strict=False)
    assert started == [True]
    assert katex._pool is None and katex._context is None and not katex.pending


def test_mkdocs_build_exits_when_it_is_done(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    from generate import generate

    generate(tmp_path / "course", 100)
    site = tmp_path / "course/zadachnik"
    # Minutes of margin over a build of seconds: only a process that never ends fails this.
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / "out")], cwd=site,
                          env=ENV, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out/bench/m001/quiz/index.html").is_file()


# -- the extension alone --------------------------------------------------------------------------------------

def plain_site(tmp_path: Path, page: str) -> Path:
    site = tmp_path / "plain"
    (site / "docs").mkdir(parents=True)
    (site / "mkdocs.yml").write_text("site_name: Plain\ntheme:\n  name: material\n  font: false\n"
                                     "markdown_extensions:\n  - zadachnik.mathtex\nplugins:\n  - search\n",
                                     encoding="utf-8")
    (site / "docs/index.md").write_text(page, encoding="utf-8")
    return site


def test_the_math_extension_works_without_the_plugin(tmp_path: Path) -> None:
    site = plain_site(tmp_path, "# Math\n\nInline $x^2 + 1$ and a price of \\$5.\n\n$$\n\\frac{16}{7}\n$$\n\n"
                                "`$kept$` in code.\n")
    build_site(site / "mkdocs.yml", tmp_path / "out")
    page = (tmp_path / "out/index.html").read_text(encoding="utf-8")
    assert mathtex.annotations(page) == ["x^2 + 1", r"\frac{16}{7}"]
    assert page.count('class="katex"') == 2 and 'class="katex-display"' in page
    assert "$x^2" not in page and "$$" not in page and "<code>$kept$</code>" in page and "$5" in page
    assert mathtex.MATH_START not in page and "zadachnik" not in page


def test_the_math_extension_alone_names_the_line_of_a_bad_formula(tmp_path: Path, caplog) -> None:
    site = plain_site(tmp_path, "# Math\n\nFine $x$.\n\nBroken $\\frac{1$ here.\n")
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert "index.md" in message and r"line 5: invalid TeX '\frac{1'" in message
    assert "Traceback" not in message


def test_a_rebuild_in_the_same_process_reads_the_cache_file_only_when_it_changed(tmp_path: Path,
                                                                                  monkeypatch) -> None:
    """Under `mkdocs serve` every rebuild starts with on_config: the file this process wrote is not parsed again."""
    site = fresh_site(tmp_path)
    build_in_new_process(monkeypatch, site, tmp_path / "out1")
    loads = []
    original = FormulaStore.load
    monkeypatch.setattr(FormulaStore, "load", lambda self: loads.append(self.path) or original(self))
    build_site(site / "mkdocs.yml", tmp_path / "out2")
    assert loads == []
    # Another build replaced the file meanwhile: read again.
    path = cache_file(site)
    path.write_bytes(path.read_bytes() + b"\n")
    build_site(site / "mkdocs.yml", tmp_path / "out3")
    assert loads == [path]
    assert pages(tmp_path / "out3") == pages(tmp_path / "out1")


def test_a_fifo_in_the_cache_place_is_not_waited_for(tmp_path: Path) -> None:
    """Opening a FIFO for reading blocks until a writer comes: a planted one must cost the cache, not the build."""
    store = FormulaStore(tmp_path, "f" * 64)
    os.mkfifo(store.path)
    reader = threading.Thread(target=lambda: found.append(store.load()), daemon=True)
    found: list[dict] = []
    reader.start()
    reader.join(timeout=5)
    was_waiting = reader.is_alive()
    if was_waiting:
        # Let the stuck reader go, so the test reports instead of hanging.
        with open(store.path, "w"):
            pass
        reader.join()
    assert not was_waiting
    assert found == [{}]


def test_a_store_over_its_size_limit_is_neither_read_whole_nor_parsed(tmp_path: Path, monkeypatch) -> None:
    """12 MB of JSON once took 205 MB to parse: a store larger than any real course's is rendered again instead."""
    store = FormulaStore(tmp_path, "s" * 64)
    formulas = {(f"x_{n}", False): f"<span>{n}</span>" for n in range(50)}
    store.save(formulas)
    size = store.path.stat().st_size
    monkeypatch.setattr(formulas_module, "MAX_STORE_BYTES", size)
    assert store.load() == formulas
    read_sizes: list[int] = []
    parsed: list[int] = []
    real_open, real_loads = open, json.loads

    class Counting:
        def __init__(self, file) -> None:
            self.file = file

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            self.file.close()

        def read(self, size: int = -1) -> bytes:
            read_sizes.append(size)
            return self.file.read(size)

    monkeypatch.setattr(formulas_module, "open", lambda *a, **k: Counting(real_open(*a, **k)), raising=False)
    monkeypatch.setattr(json, "loads", lambda text, **k: parsed.append(len(text)) or real_loads(text))
    monkeypatch.setattr(formulas_module, "MAX_STORE_BYTES", size - 1)
    assert store.load() == {}
    assert parsed == [] and read_sizes and all(0 < wanted <= size for wanted in read_sizes)
