"""The build cache against what a second review found: what a module's code reads that its runs did not show, code
that makes pages without being loaded at the start, other plugins, the serve command, hostile entries."""

from __future__ import annotations

import os
import py_compile
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from support.caching import (
    ENV,
    VARIANT_QUESTION,
    add_to_config,
    assert_same_site,
    blobs,
    cold_warm_uncached,
    edit,
    fixture_copy,
    mkdocs_run,
    page,
)
from support.sites import FIXTURE_SITE, build_site, copy_site, two_module_site

QUIZ1 = "exercises/demo/01-basics/quiz.md"
QUIZ2 = "exercises/demo/02-more/quiz.md"
PAGE1 = "en/demo/01-basics/quiz/index.html"
PAGE2 = "en/demo/02-more/quiz/index.html"


def with_values(site: Path, module: str, code: str) -> None:
    folder = site / "exercises/demo" / module
    (folder / "values.py").write_text(code)
    (folder / "module.yml").write_text((folder / "module.yml").read_text() + "values: values.py\n")
    edit(folder / "quiz.md", "What is $2+2$?", "What is $2+2$ (about {{ n }})?")


# -- what a values file reads outside its module that the audit hook misses ------------------------------------


def test_a_helper_two_modules_import_is_tracked_for_both(tmp_path: Path) -> None:
    """The runner keeps imported modules between calls (so NumPy loads once): a helper two modules import is
    opened once, by the first, and counts for both."""
    site = two_module_site(tmp_path)
    (site / "exercises/demo/common.py").write_text("N = 4\n")
    code = ("import os, sys\nsys.path.insert(0, os.path.abspath('..'))\nfrom common import N\n\n\n"
            "def values():\n    return {'n': N}\n")
    with_values(site, "01-basics", code)
    with_values(site, "02-more", code)
    cold_warm_uncached(site, tmp_path, lambda: (site / "exercises/demo/common.py").write_text("N = 5\n"))
    assert "about 5" in page(tmp_path / "warm", PAGE2)


def test_a_helper_imported_from_its_bytecode_is_tracked_by_its_source(tmp_path: Path) -> None:
    """An import whose __pycache__ .pyc is up to date opens the .pyc only: the helper counts by its source, which
    is what an author edits."""
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    (site / "shared").mkdir()
    helper = site / "shared/common.py"
    helper.write_text("N = 4\n")
    py_compile.compile(str(helper), invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
    with_values(site, "01-basics", "import os, sys\nsys.path.insert(0, os.path.abspath('../../../shared'))\n"
                                   "from common import N\n\n\ndef values():\n    return {'n': N}\n")

    def change() -> None:
        helper.write_text("N = 55\n")  # another size: the stale .pyc no longer matches, the source is read

    cold_warm_uncached(site, tmp_path, change)
    assert "about 55" in page(tmp_path / "warm")


def test_a_folder_a_values_file_lists_is_tracked(tmp_path: Path) -> None:
    """os.listdir, os.scandir and glob open no file: a folder a values file lists counts by its names."""
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    data = site / "data"
    data.mkdir()
    (data / "a.csv").write_text("1\n")
    with_values(site, "01-basics", "import os\n\n\ndef values():\n    return {'n': len(os.listdir('../../../data'))}\n")
    cold_warm_uncached(site, tmp_path, lambda: (data / "b.csv").write_text("2\n"))
    assert "about 2" in page(tmp_path / "warm")


def test_an_optional_file_that_appears_is_tracked(tmp_path: Path) -> None:
    """A values file that opens a file only if it is there: the missing file counts too, so its arrival is seen."""
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    override = site / "exercises/demo/override.txt"
    with_values(site, "01-basics", "def values():\n    try:\n        with open('../override.txt') as f:\n"
                                   "            return {'n': int(f.read())}\n"
                                   "    except FileNotFoundError:\n        return {'n': 4}\n")
    cold_warm_uncached(site, tmp_path, lambda: override.write_text("5\n"))
    assert "about 5" in page(tmp_path / "warm")


# -- what a generated page is made of that its key misses ----------------------------------------------------------


def test_a_figure_read_outside_the_module_that_only_an_answer_shows_changes_the_page(tmp_path: Path) -> None:
    """What a module's code read outside it keys its pages too: a figure that changes a variant's answer (the
    grading spec on the page, the books' answers) but no text."""
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    (site / "shared").mkdir()
    figure = site / "shared/x.txt"
    figure.write_text("4.1\n")
    module = site / "exercises/demo/01-basics"
    (module / "variants.py").write_text("from pathlib import Path\n\n\ndef values():\n    return {}\n\n\n"
                                        "def p90(rng):\n"
                                        "    return {'x': float(Path('../../../shared/x.txt').read_text())}\n")
    (module / "module.yml").write_text((module / "module.yml").read_text() + "values: variants.py\n")
    (module / "quiz.md").write_text((module / "quiz.md").read_text() + VARIANT_QUESTION)
    cold_warm_uncached(site, tmp_path, lambda: figure.write_text("4.2\n"))


# -- the assets store ----------------------------------------------------------------------------------------------


def test_minified_assets_follow_the_minifier_after_an_upgrade(tmp_path: Path, monkeypatch) -> None:
    """The minified scripts and stylesheets kept between builds are kept by the code that minified them: after an
    upgrade of the minifier the site ships the new output."""
    from zadachnik.incremental import fingerprint
    from zadachnik.runtime import shipping

    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    monkeypatch.setattr(shipping, "_minified", {})
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    # A new process after an upgrade whose minifier writes CSS otherwise.
    minified_copy = shipping.minified_copy
    monkeypatch.setattr(fingerprint, "own_code", lambda: "another version")
    monkeypatch.setattr(shipping, "minified_copy", lambda *made: "/* v2 */" + minified_copy(*made))
    monkeypatch.setattr(shipping, "_minified", {})
    build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)
    monkeypatch.setattr(shipping, "_minified", {})
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    assert_same_site(tmp_path / "warm", tmp_path / "uncached")


def uncached_config(site: Path) -> None:
    edit(site / "mkdocs.yml", "exercises_dir: exercises", "exercises_dir: exercises\n      cache: false")


def test_a_custom_icon_a_question_shows_is_drawn_anew(tmp_path: Path) -> None:
    """mkdocs-material's emoji with the site's own icons (`custom_icons`) writes each icon's SVG into the page as
    it is converted: no page is kept, so a redrawn icon shows. Separate processes: material caches the SVGs."""
    site = fixture_copy(tmp_path)
    icons = site / "overrides/.icons/custom"
    icons.mkdir(parents=True)
    (icons / "mark.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h1"/></svg>\n')
    add_to_config(site, "markdown_extensions:\n",
                  "markdown_extensions:\n  - pymdownx.emoji:\n"
                  "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
                  "      emoji_generator: !!python/name:material.extensions.emoji.to_svg\n"
                  "      options:\n        custom_icons: [overrides/.icons]\n")
    edit(site / QUIZ1, "What is $2+2$?", "What is $2+2$? :custom-mark:")
    assert mkdocs_run(site, tmp_path / "cold").returncode == 0
    assert 'd="M0 0h1"' in page(tmp_path / "cold")
    (icons / "mark.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h2"/></svg>\n')
    assert mkdocs_run(site, tmp_path / "warm").returncode == 0
    uncached_config(site)
    assert mkdocs_run(site, tmp_path / "uncached").returncode == 0
    assert 'd="M0 0h2"' in page(tmp_path / "uncached")
    assert_same_site(tmp_path / "warm", tmp_path / "uncached")


# -- mkdocs serve ------------------------------------------------------------------------------------------------


def listening_port(pid: int) -> int:
    """The TCP port a process listens on (Linux: its sockets' inodes in /proc/net/tcp)."""
    sockets = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            sockets.add(target[len("socket:["):-1])
    for line in Path("/proc/net/tcp").read_text(encoding="ascii").splitlines()[1:]:
        fields = line.split()
        if fields[3] == "0A" and fields[9] in sockets:  # 0A: LISTEN
            return int(fields[1].rsplit(":", 1)[1], 16)
    raise AssertionError(f"process {pid} listens on no TCP port")


# `mkdocs serve` as an author's terminal runs it: Ctrl-C raises KeyboardInterrupt even where the tests were started
# as a background job, whose programs inherit SIGINT ignored (so did this server, which then never stopped). A
# SIGUSR1 makes it write every thread's stack (faulthandler), for a Ctrl-C it does not act on.
SERVE_WITH_STACKS = ("import faulthandler, signal, sys\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
                     "faulthandler.register(signal.SIGUSR1, all_threads=True)\n"
                     "from mkdocs.__main__ import cli\nsys.argv[0] = 'mkdocs'\ncli()\n")


def threads_state(pid: int) -> str:
    """Each thread's state, where the kernel has it waiting, and its pending and blocked signals."""
    lines = []
    for task in sorted(Path(f"/proc/{pid}/task").iterdir()):
        try:
            fields = dict(line.split(":\t", 1) for line in (task / "status").read_text().splitlines() if ":\t" in line)
            wchan = (task / "wchan").read_text()
        except OSError:
            continue
        lines.append(f"{task.name} {fields['Name'].strip()} {fields['State'].strip()} wchan={wchan} " + " ".join(
            f"{key}={fields[key].strip()}" for key in ("SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt")))
    return "\n".join(lines)


def stop_with_ctrl_c(serving: subprocess.Popen) -> None:
    """Ctrl-C, as an author stops `mkdocs serve`; if it is not acted on, the test fails with every thread's state
    and stack."""
    serving.send_signal(signal.SIGINT)
    try:
        serving.communicate(timeout=120)
        return
    except subprocess.TimeoutExpired:
        state = threads_state(serving.pid)
    serving.send_signal(signal.SIGUSR1)
    time.sleep(2)
    serving.kill()
    _, said = serving.communicate()
    raise AssertionError(f"mkdocs serve did not stop on Ctrl-C.\nThreads:\n{state}\nIt said:\n{said}")


def test_the_pages_a_real_mkdocs_serve_keeps_are_taken_by_the_next_build(tmp_path: Path) -> None:
    """`mkdocs serve` sets site_url to its own address, which makes no page differ: what it writes to the cache at
    shutdown is what the next `mkdocs build` takes."""
    import urllib.error
    import urllib.request

    site = fixture_copy(tmp_path)
    # Port 0: the system picks a free one, so no other test's server can take it first. A SIGUSR1 makes it write
    # every thread's stack (faulthandler), for a Ctrl-C it does not act on.
    serving = subprocess.Popen([sys.executable, "-c", SERVE_WITH_STACKS, "serve", "--no-livereload", "-a",
                                "127.0.0.1:0"], cwd=site, env=ENV, stderr=subprocess.PIPE, text=True)
    try:
        assert any("Serving on" in line for line in serving.stderr), "mkdocs serve ended without serving"
        # It names the address asked for (port 0), not the one it got.
        url = f"http://127.0.0.1:{listening_port(serving.pid)}/"
        # Was flaky: MkDocs says "Serving on" before it starts its server's thread, and a Ctrl-C before that
        # thread is alive leaves it serving for ever (its shutdown skips a thread not yet started), so the
        # process never ended. A learner's Ctrl-C comes later; this one waits until the server answers.
        for _ in range(600):
            try:
                urllib.request.urlopen(url, timeout=5).close()
                break
            except urllib.error.HTTPError:
                break  # an answer all the same
            except OSError:
                time.sleep(0.05)
        else:
            raise AssertionError(f"mkdocs serve never answered at {url}")
    except BaseException:
        serving.kill()
        serving.communicate()
        raise
    stop_with_ctrl_c(serving)
    served = {path.name for path in blobs(site, "pages")}
    assert served, "serve wrote no pages at shutdown"
    assert mkdocs_run(site, tmp_path / "built").returncode == 0
    assert {path.name for path in blobs(site, "pages")} == served, "the build took none of serve's pages"


# -- the cache folder itself -----------------------------------------------------------------------------------


def test_a_hostile_blob_imports_no_module(tmp_path: Path) -> None:
    """An entry that names a module of Zadachnik the build has no need of (zadachnik.__main__ runs the command at
    import) imports nothing and is a miss."""
    import struct
    import zlib

    from zadachnik.incremental.blobs import BLOB_FORMAT

    site = fixture_copy(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    payload = b"czadachnik.__main__\nAnything\n."
    for path in blobs(site, "modules"):
        path.write_bytes(BLOB_FORMAT + struct.pack("<QI", len(payload), zlib.crc32(payload)) + payload)
    sys.modules.pop("zadachnik.__main__", None)
    build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)
    build_site(site / "mkdocs.yml", tmp_path / "uncached")
    assert_same_site(tmp_path / "warm", tmp_path / "uncached")


def test_a_database_a_values_file_queries_is_tracked(tmp_path: Path) -> None:
    """sqlite3 opens its file in C, which the runner cannot follow: a module whose code queries a database is read
    on every build."""
    sqlite3 = pytest.importorskip("sqlite3", reason="this Python was built without SQLite")

    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    (site / "shared").mkdir()
    database = site / "shared/figures.db"
    with sqlite3.connect(database) as connection:
        connection.execute("create table figures (n integer)")
        connection.execute("insert into figures values (4)")
    connection.close()
    with_values(site, "01-basics", "import sqlite3\n\n\ndef values():\n"
                                   "    connection = sqlite3.connect('../../../shared/figures.db')\n"
                                   "    return {'n': connection.execute('select n from figures').fetchone()[0]}\n")

    def change() -> None:
        with sqlite3.connect(database) as connection:
            connection.execute("update figures set n = 5")
        connection.close()

    cold_warm_uncached(site, tmp_path, change)
    assert "about 5" in page(tmp_path / "warm")


# -- what MkDocs reports ----------------------------------------------------------------------------------------


def mkdocs_log(site: Path, out: Path) -> str:
    """What `mkdocs build` (not -q) tells the author, less the timing line."""
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)], cwd=site, env=ENV,
                          capture_output=True, text=True, check=True)
    return "\n".join(line for line in done.stderr.splitlines() if "Documentation built in" not in line
                     and "Building documentation to directory" not in line)


def test_a_kept_page_still_reports_its_links_as_a_build_without_the_cache_does(tmp_path: Path) -> None:
    """MkDocs reports some links at INFO (an unrecognized relative link, or any link check set to `info`): a page
    it reported is not kept, so the report comes again."""
    site = fixture_copy(tmp_path)
    (site / "docs/images").mkdir()
    (site / "docs/images/figure.txt").write_text("1\n")
    edit(site / QUIZ1, "What is $2+2$?", "What is $2+2$? See [the figures](../../../images/).")
    first = mkdocs_log(site, tmp_path / "cold")
    assert "unrecognized relative link" in first
    warm = mkdocs_log(site, tmp_path / "warm")
    uncached_config(site)
    assert warm == mkdocs_log(site, tmp_path / "uncached")


def test_a_hostile_blob_reaches_no_class_through_a_zadachnik_modules_names(tmp_path: Path) -> None:
    """Pickles name globals by dotted paths, which pickle follows attribute by attribute: a name through a
    Zadachnik module (zadachnik.python.runner, 'subprocess.Popen') is refused."""
    import struct
    import zlib

    from zadachnik.incremental.blobs import BLOB_FORMAT

    def text(value: str) -> bytes:
        return b"\x8c" + bytes([len(value.encode())]) + value.encode()

    site = fixture_copy(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    marker = tmp_path / "ran"
    payload = (b"\x80\x04" + text("zadachnik.python.runner") + text("subprocess.Popen") + b"\x93"
               + b"](" + text("touch") + text(str(marker)) + b"e\x85R.")
    for path in blobs(site, "modules"):
        path.write_bytes(BLOB_FORMAT + struct.pack("<QI", len(payload), zlib.crc32(payload)) + payload)
    build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)
    time.sleep(0.5)
    assert not marker.exists(), "the build ran a command from the cache folder"


# -- other plugins -----------------------------------------------------------------------------------------------


def test_what_a_hook_does_to_a_pages_html_before_zadachnik_assembles_it_is_not_frozen(tmp_path: Path) -> None:
    """A hook's on_page_content that runs before Zadachnik's changes the HTML the page is assembled from: no page
    is kept while one does, so what it gives this time is what is written."""
    site = fixture_copy(tmp_path)
    (site / "hooks.py").write_text(
        "from mkdocs.plugins import event_priority\n\n\n"
        "@event_priority(50)\n"
        "def on_page_content(html, page, config, files):\n"
        "    home = files.get_file_from_path('index.md').page\n"
        "    return html.replace('What is', f'({home.title}) What is')\n")
    add_to_config(site, "plugins:\n", "hooks:\n  - hooks.py\nplugins:\n")
    def change() -> None:
        assert "(Фикстура) What is" in page(tmp_path / "cold")
        edit(site / "docs/index.md", "# Фикстура", "# Фикстура, издание 2")

    cold_warm_uncached(site, tmp_path, change)
    assert "(Фикстура, издание 2) What is" in page(tmp_path / "warm")


def test_a_helper_a_local_extension_imports_when_it_runs_is_code_too(tmp_path: Path) -> None:
    """A local Markdown extension may import its helper only as it converts (after the fingerprint is made): the
    local modules a build loaded as it ran key the next build's pages."""
    site = fixture_copy(tmp_path)
    (site / "localext.py").write_text(
        "from markdown.extensions import Extension\nfrom markdown.preprocessors import Preprocessor\n\n\n"
        "class Words(Preprocessor):\n"
        "    def run(self, lines):\n"
        "        from localwords import WORD\n"
        "        return [line.replace('What is', WORD) for line in lines]\n\n\n"
        "class WordsExtension(Extension):\n"
        "    def extendMarkdown(self, md):\n"
        "        md.preprocessors.register(Words(md), 'localwords', 25)\n\n\n"
        "def makeExtension(**kwargs):\n    return WordsExtension(**kwargs)\n")
    helper = site / "localwords.py"
    helper.write_text("WORD = 'Tell me'\n")
    add_to_config(site, "markdown_extensions:\n", "markdown_extensions:\n  - localext\n")
    assert mkdocs_run(site, tmp_path / "cold").returncode == 0
    assert "Tell me" in page(tmp_path / "cold")
    helper.write_text("WORD = 'Say'\n")
    assert mkdocs_run(site, tmp_path / "warm").returncode == 0
    uncached_config(site)
    assert mkdocs_run(site, tmp_path / "uncached").returncode == 0
    assert "Say" in page(tmp_path / "uncached")
    assert_same_site(tmp_path / "warm", tmp_path / "uncached")


def test_a_site_under_pythons_prefix_is_not_taken_for_installed_code() -> None:
    """A system Python's prefix is /usr: a site in /usr/src/app is the author's, and what its code reads counts."""
    import sysconfig

    from zadachnik.incremental.fingerprint import is_installed

    assert not is_installed(Path(sys.base_prefix) / "src" / "app" / "values.py")
    assert is_installed(Path(sysconfig.get_paths()["stdlib"]) / "json" / "__init__.py")
    assert is_installed(Path(sysconfig.get_paths()["purelib"]) / "markdown" / "__init__.py")


def test_the_check_takes_the_modules_a_build_kept_and_reads_only_an_edited_one(tmp_path: Path, monkeypatch,
                                                                               capsys) -> None:
    from support.caching import Counted
    from zadachnik.cli import main

    site = two_module_site(tmp_path)
    build_site(site / "mkdocs.yml", tmp_path / "built", cache=True)
    counted = Counted(monkeypatch)
    assert main(["check", "--config", str(site / "mkdocs.yml")]) == 0
    assert counted.read == []
    # A broken answer key in module 2: only it is read and checked again, and the check says where.
    edit(site / QUIZ2, "answer: B", "answer: D")
    counted.clear()
    assert main(["check", "--config", str(site / "mkdocs.yml")]) == 1
    assert counted.read == ["02-more"]
    assert "exercises/demo/02-more/quiz.md" in capsys.readouterr().err
    counted.clear()
    assert main(["check", "--no-cache", "--config", str(site / "mkdocs.yml")]) == 1
    assert sorted(counted.read) == ["01-basics", "02-more"]
    # A site without the cache: the check reads everything and keeps nothing.
    edit(site / QUIZ2, "answer: D", "answer: B")
    shutil.rmtree(site / ".cache")
    edit(site / "mkdocs.yml", "exercises_dir: exercises", "exercises_dir: exercises\n      cache: false")
    counted.clear()
    assert main(["check", "--config", str(site / "mkdocs.yml")]) == 0
    assert sorted(counted.read) == ["01-basics", "02-more"] and not (site / ".cache").exists()


def test_a_folder_made_in_the_course_files_is_a_change_of_the_module(tmp_path: Path) -> None:
    """An empty folder is an entry of the course-files zip: a kept exercises page showed the zip's size from
    before the folder was made."""
    site = fixture_copy(tmp_path)
    files = site / "exercises/demo/01-basics/files"
    cold_warm_uncached(site, tmp_path, lambda: (files / "outputs of the notebook").mkdir())
    names = zipfile.ZipFile(tmp_path / "warm/demo/01-basics/01-basics-files.zip").namelist()
    assert "01-basics/outputs of the notebook/" in names
