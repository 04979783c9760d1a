"""The package's layout shows its pipeline: each stage imports only the stages before it, and only the plugin's
own modules know MkDocs. A new import that points back up the pipeline fails here, not in a review."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "plugins" / "zadachnik"
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


def test_the_check_sees_a_backward_import(tmp_path: Path) -> None:
    """The rule can fail: a core module that asks rendering for something."""
    bad = tmp_path / "core" / "bad.py"
    bad.parent.mkdir()
    bad.write_text("from zadachnik.rendering.i18n import strings\n", encoding="utf-8")
    module = imports_of(bad)[0][1]
    assert STAGES.index(stage_of(module)) > STAGES.index("core")
