"""Own JS and CSS a page loads stay small: ≤ 30 KB gzipped (issue 3's budget; the benchmark reports it too).

Counted as the site ships them (minified), on the pages that load the most: the fixture's demo quiz page and the
sample course's module 12 quiz page (variants, a shuffled question, Python) and module 9's (hints). A page's own
files are the scripts and stylesheets its HTML names under assets/zadachnik/, every module they import, statically
or by `import("./x.js")` (loaded only when the page needs it, but counted: the budget is for a page that does), and
the stylesheets they @import."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.assets import QUIZ, SAMPLE_PAGES, gzipped_size, own_assets

BUDGET = 30 * 1024
def test_imports_are_followed_in_every_form(tmp_path: Path) -> None:
    """The counting can fail: a module reached only by a dynamic import, in minified code, counts."""
    js = tmp_path / "assets/zadachnik/js"
    js.mkdir(parents=True)
    (tmp_path / "index.html").write_text('<script type="module" src="assets/zadachnik/js/a.js"></script>'
                                         '<link rel="stylesheet" href="assets/zadachnik/a.css">', encoding="utf-8")
    (js / "a.js").write_text('import{b}from"./b.js";export async function c(){return await import("./c.js")}',
                             encoding="utf-8")
    (js / "b.js").write_text('export const b = 1;\nimport "./d.js";\n', encoding="utf-8")
    (js / "c.js").write_text("export const c = 1;\n", encoding="utf-8")
    (js / "d.js").write_text("export const d = 1;\n", encoding="utf-8")
    (tmp_path / "assets/zadachnik/a.css").write_text('@import url("b.css") print;', encoding="utf-8")
    (tmp_path / "assets/zadachnik/b.css").write_text("a{color:red}", encoding="utf-8")
    names = sorted(path.name for path in own_assets(tmp_path, "index.html"))
    assert names == ["a.css", "a.js", "b.css", "b.js", "c.js", "d.js"]


def test_own_js_and_css_within_budget(fixture_site: Path) -> None:
    assets = own_assets(fixture_site, QUIZ)
    names = {path.name for path in assets}
    assert {"zadachnik.js", "grading.js", "numbers.js", "storage.js", "python.js", "progress.js",
            "zadachnik.css"} <= names
    size = gzipped_size(assets)
    assert size <= BUDGET, f"{size} bytes gzipped"


@pytest.mark.parametrize("page", SAMPLE_PAGES)
def test_the_sample_pages_with_every_feature_within_budget(sample_site: Path, page: str) -> None:
    assets = own_assets(sample_site, page)
    assert {"zadachnik.js", "python.js", "zadachnik.css"} <= {path.name for path in assets}
    size = gzipped_size(assets)
    assert size <= BUDGET, f"{page}: {size} bytes gzipped"
