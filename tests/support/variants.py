"""The variants fixture (tests/fixtures/variants) and its own functions, to draw what the build should."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from support.sites import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "variants"
MODULE = Path("exercises/vc/01-load")


def fixture_module():
    """The fixture's own functions, to draw what the build should (under a name of its own, not `variants`)."""
    spec = importlib.util.spec_from_file_location("variants_fixture_functions", FIXTURE / MODULE / "variants.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fixture_functions = fixture_module()
