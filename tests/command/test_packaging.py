"""Packaging: the sdist and the wheel carry the vendored browser files, a wheel installed in a fresh venv builds
the sample course, a source build without npm stops with one message, and an incomplete install is told so.

The release tests start from a clean clone of HEAD (no node_modules, no vendored files), build the sdist with
npm, then the wheel from that sdist with node and npm off the PATH, as a user without Node would. They are slow
(npm ci twice, several builds, a venv): one to three minutes on two cores, most of it npm and pip fetching.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from types import ModuleType

import pytest
import zadachnik
from support.sites import FIXTURE_SITE, ROOT, build_failure, copy_site
from zadachnik.rendering import mathtex
from zadachnik.runtime import shipping


def load_vendor_script(root: Path = ROOT) -> ModuleType:
    """scripts/vendor_assets.py: the copy step's own file list, the one the build hook checks."""
    spec = importlib.util.spec_from_file_location("vendor_assets", root / "scripts" / "vendor_assets.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


vendor_assets = load_vendor_script()

NODE_TOOLS = {"node", "nodejs", "npm", "npx", "corepack"}
# A build that hangs fails instead of holding CI; npm ci and pip fetch from the registries.
TIMEOUT = 900
PACKAGE_LINE = "the installed Zadachnik lacks its browser files"
NEEDS_NPM = "Building Zadachnik from source needs Node 20 or later with npm"


# Fast: what an author sees when the installed package is incomplete.

def without(tmp_path: Path, missing: str) -> Path:
    """A copy of the package's assets without one vendored file."""
    assets = tmp_path / "assets"
    shutil.copytree(shipping.ASSETS, assets)
    (assets / missing).unlink()
    return assets


def assert_reinstall_line(message: str) -> None:
    assert PACKAGE_LINE in message, message
    assert "pip install --force-reinstall zadachnik" in message, message
    assert "make setup" not in message, message
    assert "\n" not in message.strip(), message


@pytest.mark.parametrize("missing", ["vendor/katex/katex.min.css", "vendor/katex/katex.min.js",
                                     "vendor/pyodide/pyodide.asm.wasm", "vendor/ace/ace.js"])
def test_site_build_with_an_incomplete_package_says_to_reinstall(tmp_path, monkeypatch, caplog, missing):
    """Checked before any page is rendered (the fixture course has a code exercise, so Python's files count)."""
    monkeypatch.setattr(shipping, "ASSETS", without(tmp_path, missing))
    site = copy_site(FIXTURE_SITE, tmp_path / "site")
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert_reinstall_line(message)
    assert missing in message


def test_missing_katex_says_to_reinstall(tmp_path):
    with pytest.raises(mathtex.KatexUnavailable) as error:
        mathtex.Katex(tmp_path / "katex.min.js").render("x^2", False)
    assert_reinstall_line(str(error.value))
    assert "katex.min.js" in str(error.value)


def test_vendored_file_list_names_katex_fonts_from_its_css():
    """The hook's completeness check covers every font KaTeX's CSS asks for, so a wheel cannot lack one."""
    files = vendor_assets.vendored_files()
    css = (vendor_assets.VENDOR / "katex" / "katex.min.css").read_text(encoding="utf-8")
    fonts = [name for name in files if name.startswith("katex/fonts/")]
    assert fonts and all(name.removeprefix("katex/") in css for name in fonts)
    assert "pyodide/pyodide.asm.wasm" in files and "ace/ace.js" in files and "katex/katex.min.js" in files
    assert not vendor_assets.missing_files(), "this checkout is not set up: run 'make setup'"


def test_vendored_file_list_reports_an_empty_folder_as_missing(tmp_path):
    missing = vendor_assets.missing_files(tmp_path)
    assert "katex/fonts/*.woff2" in missing and "pyodide/pyodide.asm.wasm" in missing
    assert len(missing) == len(vendor_assets.vendored_files(tmp_path))


# Slow: the release as a user gets it.

def no_node_path(tmp: Path) -> str:
    """A PATH with every program of this one except Node's, linked from one folder: node and npm are not found
    at all, as on a machine without Node (a failing stand-in would still be found)."""
    folder = tmp / "bin-without-node"
    folder.mkdir()
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        if not os.path.isdir(directory):
            continue
        for entry in sorted(os.listdir(directory)):
            program = Path(directory, entry)
            link = folder / entry
            if entry not in NODE_TOOLS and not link.exists() and os.access(program, os.X_OK) and program.is_file():
                link.symlink_to(program)
    path = str(folder)
    assert shutil.which("npm", path=path) is None and shutil.which("node", path=path) is None
    return path


def environment(path: str | None = None) -> dict[str, str]:
    """This environment without anything that would put the checkout or its venv on a child's sys.path."""
    env = {key: value for key, value in os.environ.items()
           if key not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP"}}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["NO_MKDOCS_2_WARNING"] = "1"
    if path is not None:
        env["PATH"] = path
    return env


def run(command: list[str | Path], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(part) for part in command], cwd=cwd, env=env, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=TIMEOUT, check=False)


def succeed(command: list[str | Path], cwd: Path, env: dict[str, str]) -> str:
    result = run(command, cwd, env)
    assert result.returncode == 0, f"{' '.join(map(str, command))} failed:\n{result.stdout[-6000:]}"
    return result.stdout


def clean_clone(target: Path) -> Path:
    """What `pip install <git URL>` builds from: the committed tree, with no node_modules and no vendored files."""
    head = succeed(["git", "rev-parse", "HEAD"], ROOT, environment()).strip()
    succeed(["git", "clone", "--quiet", "--no-checkout", ROOT, target], ROOT.parent, environment())
    succeed(["git", "checkout", "--quiet", head], target, environment())
    assert not (target / "node_modules").exists()
    assert not (target / "plugins" / "zadachnik" / "runtime" / "assets" / "vendor").exists()
    return target


class Release:
    def __init__(self, tmp: Path, no_node: str):
        self.tmp = tmp
        self.no_node = no_node
        self.source = clean_clone(tmp / "clone")
        dist = tmp / "dist"
        # The sdist from the clean clone, with npm: the hook runs npm ci and the copy step.
        self.sdist_log = succeed([sys.executable, "-m", "build", "--sdist", "--outdir", dist, self.source], tmp,
                                 environment())
        (self.sdist,) = dist.glob("zadachnik-*.tar.gz")
        # The wheel from that sdist with node and npm off the PATH.
        with tarfile.open(self.sdist) as archive:
            archive.extractall(tmp / "unpacked", filter="data")
        (unpacked,) = (tmp / "unpacked").iterdir()
        succeed([sys.executable, "-m", "build", "--wheel", "--outdir", dist, unpacked], tmp,
                environment(self.no_node))
        (self.wheel,) = dist.glob("zadachnik-*.whl")
        self.vendored = vendor_assets.vendored_files(unpacked / "plugins/zadachnik/runtime/assets/vendor")
        # Named by the released sources (this checkout's may have changed since HEAD).
        self.vendored += load_vendor_script(unpacked).minified_files()
        self._venv: Path | None = None

    def venv(self) -> Path:
        """A fresh venv with the wheel installed and nothing of the checkout on its path."""
        if self._venv is None:
            venv = self.tmp / "venv"
            succeed([sys.executable, "-m", "venv", venv], self.tmp, environment())
            succeed([venv / "bin" / "python", "-m", "pip", "install", "--quiet", self.wheel], self.tmp,
                    environment(self.no_node))
            self._venv = venv
        return self._venv

    def sample_sources(self, target: Path) -> Path:
        """The sample course's sources (config, pages, exercises) outside any checkout."""
        target.mkdir()
        shutil.copy2(self.source / "mkdocs.yml", target / "mkdocs.yml")
        shutil.copytree(self.source / "docs", target / "docs")
        shutil.copytree(self.source / "exercises", target / "exercises")
        return target


@pytest.fixture(scope="module")
def no_node(tmp_path_factory) -> str:
    return no_node_path(tmp_path_factory.mktemp("path"))


@pytest.fixture(scope="module")
def release(tmp_path_factory, no_node) -> Release:
    return Release(tmp_path_factory.mktemp("release"), no_node)


@pytest.mark.slow
def test_sdist_carries_the_vendored_files_and_what_builds_the_wheel(release):
    with tarfile.open(release.sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    vendor = "plugins/zadachnik/runtime/assets/vendor/"
    missing = [name for name in release.vendored if vendor + name not in names]
    assert not missing, f"the sdist lacks {missing}"
    for licence in ("katex/LICENSE", "pyodide/LICENSE", "ace/LICENSE", "iframe-worker/LICENSE", "fflate/LICENSE"):
        assert vendor + licence in names
    for name in ("LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml", "hatch_build.py",
                 "scripts/vendor_assets.py", "package.json", "package-lock.json", "plugins/zadachnik/plugin.py"):
        assert name in names, f"the sdist lacks {name}"
    assert not any(name.startswith(("node_modules/", "tests/", ".venv/")) for name in names)
    # npm ci ran (its summary is in the build's output) and found every package fit for this Node: KaTeX's
    # command-line tool would pull commander 15, which asks for Node 22.12 (package.json's overrides).
    assert "npm ci" in release.sdist_log and "added " in release.sdist_log, release.sdist_log[-4000:]
    assert "EBADENGINE" not in release.sdist_log, release.sdist_log[-4000:]


@pytest.mark.slow
def test_wheel_carries_katex_pyodide_ace_and_their_licences(release):
    with zipfile.ZipFile(release.wheel) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(next(name for name in names if name.endswith(".dist-info/METADATA"))).decode()
    vendor = "zadachnik/runtime/assets/vendor/"
    for name in ("pyodide/pyodide.asm.wasm", "katex/katex.min.js", "katex/katex.min.css", "ace/ace.js",
                 "iframe-worker/shim.js", "katex/LICENSE", "pyodide/LICENSE", "ace/LICENSE",
                 "iframe-worker/LICENSE", "fflate/fflate.js", "fflate/LICENSE"):
        assert vendor + name in names, f"the wheel lacks {name}"
    missing = [name for name in release.vendored if vendor + name not in names]
    assert not missing, f"the wheel lacks {missing}"
    assert f"zadachnik-{zadachnik.__version__}.dist-info/licenses/LICENSE" in names
    assert "zadachnik/rendering/templates/quiz.html" in names and "zadachnik/qtypes/__init__.py" in names
    assert not any(name.startswith(("node_modules/", "tests/", "scripts/", "plugins/")) for name in names)
    assert not any("__pycache__" in name for name in names)
    for field in ("Classifier: Framework :: MkDocs", "Classifier: Topic :: Education", "License-Expression: MIT",
                  f"Version: {zadachnik.__version__}", "Requires-Python: >=3.11", "Zadachnik"):
        assert field in metadata, f"the wheel's metadata lacks {field!r}"


@pytest.mark.slow
def test_pip_builds_a_complete_wheel_from_the_sdist_without_node(release, tmp_path):
    """What `pip install zadachnik-X.tar.gz` does on a machine without Node."""
    out = tmp_path / "wheels"
    succeed([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", out, release.sdist], tmp_path,
            environment(release.no_node))
    (wheel,) = out.glob("zadachnik-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    missing = [name for name in release.vendored if f"zadachnik/runtime/assets/vendor/{name}" not in names]
    assert not missing, f"the wheel pip built from the sdist lacks {missing}"


@pytest.mark.slow
def test_pip_wheel_from_a_clean_clone_runs_the_vendoring_itself(release, tmp_path):
    """What `pip install <git URL>` and `pip install <path>` do: no `make setup` first, npm on the PATH."""
    source = clean_clone(tmp_path / "clone")
    out = tmp_path / "wheels"
    succeed([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", out, source], tmp_path,
            environment())
    (wheel,) = out.glob("zadachnik-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    missing = [name for name in release.vendored if f"zadachnik/runtime/assets/vendor/{name}" not in names]
    assert not missing, f"the wheel pip built from a clean clone lacks {missing}"


@pytest.mark.slow
def test_installed_wheel_builds_the_sample_course_without_node(release, tmp_path):
    venv = release.venv()
    python = venv / "bin" / "python"
    where = succeed([python, "-c", "import sys, zadachnik; print(zadachnik.__file__); print(*sys.path, sep='\\n')"],
                    tmp_path, environment(release.no_node)).splitlines()
    assert Path(where[0]).is_relative_to(venv), where[0]
    for entry in where[1:]:  # relative entries (the empty one is the working folder) are the child's
        assert not (tmp_path / entry).resolve().is_relative_to(ROOT), entry
        assert not (tmp_path / entry).resolve().is_relative_to(release.source), entry

    sources = release.sample_sources(tmp_path / "course")
    site = tmp_path / "site"
    succeed([venv / "bin" / "mkdocs", "build", "--strict", "--quiet", "-d", site], sources,
            environment(release.no_node))
    assets = site / "assets" / "zadachnik"
    css = (assets / "katex" / "katex.min.css").read_text(encoding="utf-8")
    fonts = sorted((assets / "katex" / "fonts").glob("*.woff2"))
    assert fonts and all(f"fonts/{font.name}" in css for font in fonts)
    for name in ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "ace/ace.js", "ace/mode-python.js"):
        assert (assets / name).stat().st_size > 0, name
    # Our scripts go out as the copies esbuild made with the package: there is no Node here to make them.
    copies = Path(where[0]).parent / "runtime/assets/vendor/minified"
    assert (assets / "js/zadachnik.js").read_text(encoding="utf-8") in {
        path.read_text(encoding="utf-8") for path in copies.iterdir()}
    assert (site / "index.html").is_file() and (site / "en" / "index.html").is_file()


@pytest.mark.slow
def test_installed_wheel_gives_the_zadachnik_command(release, tmp_path):
    """The author's first steps from the installed wheel alone: a starter site, checked and built strictly."""
    with zipfile.ZipFile(release.wheel) as wheel:
        entry_points = wheel.read(next(name for name in wheel.namelist() if name.endswith("entry_points.txt")))
    assert "zadachnik = zadachnik.cli:main" in entry_points.decode(), entry_points
    venv = release.venv()
    command = venv / "bin" / "zadachnik"
    env = environment(release.no_node)
    assert zadachnik.__version__ in succeed([command, "--version"], tmp_path, env)
    succeed([command, "new", tmp_path / "starter"], tmp_path, env)
    succeed([command, "check", "exercises"], tmp_path / "starter", env)
    succeed([venv / "bin" / "mkdocs", "build", "--strict", "--quiet", "-d", tmp_path / "site"], tmp_path / "starter",
            env)
    quizzes = sorted((tmp_path / "site").rglob("quiz/index.html"))
    assert quizzes, "the starter site has no quiz page"
    assert "data-zq-question" in quizzes[0].read_text(encoding="utf-8")
    # The sample course passes the same check from the installed command.
    sources = release.sample_sources(tmp_path / "course")
    succeed([command, "check", "exercises"], sources, env)


@pytest.mark.slow
@pytest.mark.parametrize("missing", ["katex/katex.min.css", "katex/katex.min.js"])
def test_incomplete_installed_package_stops_the_site_build_with_one_line(release, tmp_path, missing):
    venv = release.venv()
    python = venv / "bin" / "python"
    package = Path(succeed([python, "-c", "import zadachnik; print(zadachnik.__file__)"], tmp_path,
                           environment()).strip()).parent
    vendored = package / "runtime" / "assets" / "vendor" / missing
    aside = tmp_path / "aside"
    vendored.rename(aside)
    try:
        sources = release.sample_sources(tmp_path / "course")
        result = run([venv / "bin" / "mkdocs", "build", "--strict", "-d", tmp_path / "site"], sources,
                     environment(release.no_node))
    finally:
        aside.rename(vendored)
    assert result.returncode != 0
    lines = [line for line in result.stdout.splitlines() if PACKAGE_LINE in line]
    assert len(lines) == 1, result.stdout[-4000:]
    assert_reinstall_line(lines[0])
    assert missing in lines[0]
    assert "Traceback" not in result.stdout and "make setup" not in result.stdout, result.stdout[-4000:]


@pytest.mark.slow
def test_source_build_without_npm_stops_with_one_message_and_no_wheel(no_node, tmp_path):
    source = clean_clone(tmp_path / "clone")
    out = tmp_path / "wheels"
    for command in ([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", out, source],
                    [sys.executable, "-m", "build", "--wheel", "--outdir", out, source]):
        result = run(command, tmp_path, environment(no_node))
        assert result.returncode != 0, result.stdout[-4000:]
        assert result.stdout.count(NEEDS_NPM) == 1, result.stdout[-4000:]
        assert "install a released wheel or sdist" in result.stdout
        assert "Traceback" not in result.stdout, result.stdout[-4000:]
        assert not (out.exists() and list(out.glob("*.whl"))), "a wheel was left behind"
    assert not (source / "plugins" / "zadachnik" / "runtime" / "assets" / "vendor").exists()
