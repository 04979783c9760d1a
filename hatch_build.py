"""Build hook: the wheel and the sdist always carry the vendored browser assets (KaTeX, Pyodide, Ace, the search
shim and their licences, and our own scripts and stylesheets minified by esbuild).

Built from an sdist, the assets are already there and nothing runs (no npm, no network). Built from a source
checkout (`pip install <git URL>`, `pip install .`, `python -m build`), the hook does what `make setup` does:
`npm ci` from package-lock.json, then scripts/vendor_assets.py's copy step. Without npm it stops with one message
instead of making a wheel that every site build would then refuse.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

NEEDS_NPM = (
    "Building Zadachnik from source needs Node 20 or later with npm, and npm is not on the PATH: npm fetches KaTeX, "
    "Pyodide, the Ace editor and esbuild (which minifies Zadachnik's scripts) from package-lock.json. Install Node "
    "and npm, or install a released wheel or sdist of Zadachnik instead, which carries these files."
)


def load_vendor_script(root: Path) -> ModuleType:
    path = root / "scripts" / "vendor_assets.py"
    if not path.is_file():
        raise SystemExit(f"{path} is missing: this source tree of Zadachnik is incomplete; get a fresh copy.")
    spec = importlib.util.spec_from_file_location("zadachnik_vendor_assets", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def node_modules_current(root: Path, packages: tuple[str, ...]) -> bool:
    """The rule `make setup` follows: npm's own record in node_modules is newer than package.json and the lock."""
    record = root / "node_modules" / ".package-lock.json"
    if not record.is_file() or not all((root / "node_modules" / name).is_dir() for name in packages):
        return False
    newest_input = max((root / name).stat().st_mtime for name in ("package.json", "package-lock.json"))
    return record.stat().st_mtime >= newest_input


def vendor_assets(root: Path) -> None:
    vendor = load_vendor_script(root)
    if vendor.up_to_date():
        return
    if not (root / "package-lock.json").is_file():
        missing = ", ".join(vendor.missing_files()) or "its stamp"
        raise SystemExit(f"this source tree of Zadachnik lacks its vendored browser files ({missing}) and "
                         "package-lock.json to make them from; get a fresh copy.")
    if not node_modules_current(root, vendor.NPM_PACKAGES):
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit(NEEDS_NPM)
        print("Zadachnik: npm ci (KaTeX, Pyodide, Ace, esbuild from package-lock.json)", file=sys.stderr, flush=True)
        result = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=root, stdout=sys.stderr)
        if result.returncode != 0:
            raise SystemExit(f"npm ci failed (exit code {result.returncode}), see its output above; building "
                             "Zadachnik from source needs npm to reach its registry.")
    problems = vendor.vendor_all()
    if problems:
        raise SystemExit("Zadachnik's browser files could not be vendored: " + "; ".join(problems))


class VendoredAssetsHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        vendor_assets(Path(self.root))
