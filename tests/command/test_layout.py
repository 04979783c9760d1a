"""The package's layout shows its pipeline: each stage imports only the stages before it, and only the plugin's
own modules know MkDocs. A new import that points back up the pipeline fails here, not in a review."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from support.sites import ROOT
from zadachnik.runtime.shipping import PYTHON_MODULES

PACKAGE = ROOT / "plugins" / "zadachnik"
# In pipeline order: a module may import its own stage and the ones before it.
STAGES = ["core", "python", "qtypes", "reading", "checking", "rendering", "runtime", "exports", "incremental"]
# What builds keep for later builds, behind one seam: the stages take and return data and know no cache.
SEAM = "incremental"
SEAM_USERS = {"plugin.py", "cli.py"}
# The MkDocs-facing modules: the hooks, their config (which also reads mkdocs.yml for the commands, as MkDocs
# reads it), and the public name of the Markdown extension.
MKDOCS_MODULES = {"plugin.py", "config.py", "mathtex.py"}


def stage_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "zadachnik" and parts[1] in STAGES else None


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                pytest.fail(f"{path.relative_to(PACKAGE)}:{node.lineno}: a relative import; write zadachnik.<stage>")
            found.append((node.lineno, node.module or ""))
    return found


def stage_modules() -> list[Path]:
    return sorted(path for stage in STAGES for path in (PACKAGE / stage).rglob("*.py") if "vendor" not in path.parts)


@pytest.mark.parametrize("path", stage_modules(), ids=lambda path: str(path.relative_to(PACKAGE)))
def test_a_stage_imports_only_earlier_stages_and_never_mkdocs(path: Path) -> None:
    own = STAGES.index(path.relative_to(PACKAGE).parts[0])
    for line, module in imports_of(path):
        place = f"{path.relative_to(PACKAGE)}:{line}"
        assert module.split(".")[0] != "mkdocs", f"{place} imports {module}: only {sorted(MKDOCS_MODULES)} may"
        stage = stage_of(module)
        if module.startswith("zadachnik."):
            assert stage is not None, f"{place} imports {module}, which belongs to no stage"
            assert STAGES.index(stage) <= own, f"{place}: {module} is a later stage than {STAGES[own]}"


def test_only_the_plugin_and_the_command_know_the_caches() -> None:
    users = [path for path in PACKAGE.rglob("*.py") if "vendor" not in path.parts
             and path.relative_to(PACKAGE).parts[0] != SEAM and path.name not in SEAM_USERS]
    for path in users:
        for line, module in imports_of(path):
            assert stage_of(module) != SEAM, f"{path.relative_to(PACKAGE)}:{line} imports {module}: only " \
                                              f"{sorted(SEAM_USERS)} may"


def test_only_the_plugins_own_modules_import_mkdocs() -> None:
    top = [path for path in PACKAGE.glob("*.py") if path.name not in MKDOCS_MODULES]
    for path in top:
        for line, module in imports_of(path):
            assert module.split(".")[0] != "mkdocs", f"{path.name}:{line} imports {module}"


def test_every_module_is_in_a_stage_or_is_the_plugin_the_command_or_an_entry() -> None:
    allowed = MKDOCS_MODULES | {"__init__.py", "__main__.py", "cli.py"}
    assert sorted(path.name for path in PACKAGE.glob("*.py") if path.name not in allowed) == []


def imported_names(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, by full name: `from zadachnik.core import numbers` is zadachnik.core.numbers
    (a name imported from one of the package's folders is taken for a module in it)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            folder = module.startswith("zadachnik") and (PACKAGE.parent / module.replace(".", "/")).is_dir()
            found.extend((node.lineno, f"{module}.{alias.name}" if folder else module) for alias in node.names)
    return found


def test_what_ships_to_the_browser_imports_only_the_standard_library_and_itself() -> None:
    """The browser's worker loads PYTHON_MODULES and nothing else of the package (their packages it makes empty):
    a shipped module that imported a build-only one, such as zadachnik.python.values_files, would fail in every
    learner's browser, or carry build code there."""
    shipped = {"zadachnik." + name.removesuffix(".py").replace("/", ".") for name in PYTHON_MODULES}
    packages = {name.rsplit(".", end)[0] for name in shipped for end in range(1, name.count(".") + 1)}
    for name in PYTHON_MODULES:
        for line, module in imported_names(PACKAGE / name):
            place = f"{name}:{line} imports {module}"
            if module.split(".")[0] == "zadachnik":
                assert module in shipped | packages, f"{place}, which the browser never gets"
            else:
                assert module.split(".")[0] in sys.stdlib_module_names, f"{place}, not the standard library"
    assert "python/values_files.py" not in PYTHON_MODULES


def test_the_shipped_runner_has_no_build_only_kind_of_call() -> None:
    """Values files and variant functions run only when the site is built: the runner the browser loads answers
    run, check and checker, and defines none of zadachnik.python.values_files's functions (kept with the build, once).
    That the build's runner still answers values and variants, the values-file and variant tests show."""
    from zadachnik.python import pyrunner, values_files

    assert set(pyrunner.HANDLERS) == {"run", "check", "checker"}
    assert set(values_files.HANDLERS) == {"values", "variants"}

    def defined(path: Path) -> set[str]:
        return {node.name for node in ast.parse(path.read_text(encoding="utf-8")).body
                if isinstance(node, ast.FunctionDef | ast.ClassDef)}

    build_only = defined(PACKAGE / "python" / "values_files.py")
    assert {"run_values", "run_variants", "variant_seed"} <= build_only
    assert defined(PACKAGE / "python" / "pyrunner.py") & build_only == set()


def test_the_check_sees_a_backward_import(tmp_path: Path) -> None:
    """The rule can fail: a core module that asks rendering for something."""
    bad = tmp_path / "core" / "bad.py"
    bad.parent.mkdir()
    bad.write_text("from zadachnik.rendering.i18n import strings\n", encoding="utf-8")
    module = imports_of(bad)[0][1]
    assert STAGES.index(stage_of(module)) > STAGES.index("core")
