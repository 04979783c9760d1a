"""Own JS and CSS a page loads stay small: ≤ 30 KiB gzipped (issue 3's budget) on the pages that load the most:
the fixture's demo quiz page, and the sample course's module 12 quiz page (six kinds of graded question, variants,
a shuffled question, Python) and module 9's (hints, ordering, Parsons, Python).

Counted as the site ships them (minified, the modules vendored.INLINED names joined into zadachnik.js). A page's own
files are the scripts and stylesheets its HTML names under assets/zadachnik/ (its question types' modules among
them), every module they import, statically or by `import("./x.js")` (counted where the page loads it: the optional
parts its markup asks for; tests/browser/test_browser_runtime.py checks that it loads nothing else), and the
stylesheets they @import.

The figures (2026-12-06, place.js and print.js inlined into zadachnik.js, and the search wrapper that hands the
worker one language's pages; later that day, what a learner types before the page is set up kept, paid for by
verdict colours as custom properties; then in an exam not yet handed in too, paid for by the exam's key kept on
the page and a field note's aria-describedby set once; 2026-12-07, ordering's, Parsons', the exam's and the
hints' rules moved from zadachnik.css into their own modules (look.js), 355 bytes, which made room for two
audits' fixes): demo quiz 23.75 KiB, module 9 27.7, module 12 29.95 (30,700 bytes). 2026-12-07, the home page's
course list lines and "Continue" moved from progress.js into home.js, which progress.js loads where that markup is
(469 bytes on every page but the home page): demo quiz 23.32 KiB, module 9 27.30, module 12 29.52 (30,231 bytes);
then the hand-in code's module joined into zadachnik.js too, 125 bytes: demo quiz 23.20 KiB, module 9 27.17,
module 12 29.40 (30,106 bytes). Spent the same day on three audits' fixes (digits of the learner's own keyboard,
an answer read as the page it was typed on, focus outlines and narrow screens): demo quiz 23.52 KiB, module 9
27.51, module 12 29.72 (30,432 bytes). 2026-12-07, progress.js (which every page loaded once set up) joined into
zadachnik.js, 445 bytes, and a full storage's note beside the question in hand, with its own Export button, and
a question before leaving with what storage could not keep: demo quiz 23.50 KiB, module 9 27.49, module 12 29.72
(30,437 bytes). The same day, spent on two reviews' fixes of that note, other tabs' counting once they pause,
direction marks dropped by the number reader, a vanished variant's message and styles that mirror on
right-to-left pages: demo quiz 23.73 KiB, module 9 27.74, module 12 29.99 (30,706 bytes, 14 to spare).
2026-12-08, the modules every quiz page loads (grading, storage, numbers, pyclient, seed) joined into zadachnik.js
too, the other modules importing their names from it: 1,751 bytes on module 12; spent on the same day's fixes
(a closed reveal's storage note, the note's Export button before the types load and after a reset, a minus and
a power of ten marked on right-to-left pages, formula answers read as number fields read them): demo quiz 22.62
KiB, module 9 26.16, module 12 28.46 (29,143 bytes, 1,577 to spare).
Module 12 comes closest because it has nearly every kind of question on one page; splitting its modules into esbuild's
shared chunks measured no smaller (31.3 KiB when it was at 30.4: the chunks cost what the files did), while
joining the two modules only zadachnik.js imports into it saved 372 bytes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from support.assets import QUIZ, SAMPLE_PAGES, gzipped_size, own_assets
from support.sites import FIXTURE_SITE, ROOT, build_site, copy_site
from zadachnik.qtypes import registry

BUDGET = 30 * 1024
TYPE_SCRIPT = re.compile(r'<script src="[^"]*assets/zadachnik/js/(types/[a-z]+|zadachnik)\.js" type="module">')


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
    # The second @import as esbuild writes it (no space after @import): a count that missed it left print's out.
    (tmp_path / "assets/zadachnik/a.css").write_text('@import url("b.css") print;@import"e.css"print;',
                                                     encoding="utf-8")
    (tmp_path / "assets/zadachnik/b.css").write_text("a{color:red}", encoding="utf-8")
    (tmp_path / "assets/zadachnik/e.css").write_text("a{color:blue}", encoding="utf-8")
    names = sorted(path.name for path in own_assets(tmp_path, "index.html"))
    assert names == ["a.css", "a.js", "b.css", "b.js", "c.js", "d.js", "e.css"]


def test_a_page_counts_its_own_types_and_parts_only(tmp_path: Path) -> None:
    """A page's types are the scripts it names; zadachnik.js's parts count where their markup is; the types a page
    reached by instant navigation would load (a template literal, not a module the count can name) do not."""
    js = tmp_path / "assets/zadachnik/js"
    (js / "types").mkdir(parents=True)
    (tmp_path / "index.html").write_text('<script type="module" src="assets/zadachnik/js/types/choice.js"></script>'
                                         '<script type="module" src="assets/zadachnik/js/z.js"></script>'
                                         "<div data-zq-hints></div>", encoding="utf-8")
    (js / "z.js").write_text('import"./grading.js";const p=[["[data-zq-hints]",()=>import("./hints.js")],'
                             '["[data-zq-exam-submit]",()=>import("./exam.js")]];'
                             "const t=async n=>await import(`./types/${n}.js`);", encoding="utf-8")
    (js / "grading.js").write_text("export const g = 1;\n", encoding="utf-8")
    (js / "types/choice.js").write_text('import{g}from"../grading.js";import"./numeric.js";', encoding="utf-8")
    for name in ("hints.js", "exam.js", "types/numeric.js", "types/formula.js"):
        (js / name).write_text("export const x = 1;\n", encoding="utf-8")
    names = sorted(path.relative_to(js).as_posix() for path in own_assets(tmp_path, "index.html"))
    assert names == ["grading.js", "hints.js", "types/choice.js", "types/numeric.js", "z.js"]


def test_own_js_and_css_within_budget(fixture_site: Path) -> None:
    assets = own_assets(fixture_site, QUIZ)
    names = {path.name for path in assets}
    # grading, numbers and storage are joined into zadachnik.js (vendored.INLINED); python.js is loaded by it.
    assert {"zadachnik.js", "python.js", "choice.js", "zadachnik.css"} <= names
    size = gzipped_size(assets)
    assert size <= BUDGET, f"{size} bytes gzipped"


@pytest.mark.parametrize("page", SAMPLE_PAGES)
def test_the_sample_pages_with_every_feature_within_budget(sample_site: Path, page: str) -> None:
    assets = own_assets(sample_site, page)
    assert {"zadachnik.js", "python.js", "zadachnik.css"} <= {path.name for path in assets}
    size = gzipped_size(assets)
    assert size <= BUDGET, f"{page}: {size} bytes gzipped"


def test_a_quiz_page_names_its_types_modules_before_the_runtime(fixture_site: Path) -> None:
    """The demo quiz has single and multiple choice, numeric fields, matching and code: four modules, whose
    scripts run before the runtime's (module scripts run in order), so its questions are wired as it starts."""
    html = (fixture_site / QUIZ).read_text(encoding="utf-8")
    assert TYPE_SCRIPT.findall(html) == ["types/choice", "types/code", "types/matching", "types/numeric", "zadachnik"]
    # The same names for a page reached by instant navigation, which loads them itself.
    assert 'data-zq-types="choice code matching numeric"' in html
    for page in ("en/demo/01-basics/exercises/index.html", "en/index.html"):
        assert TYPE_SCRIPT.findall((fixture_site / page).read_text(encoding="utf-8")) == ["zadachnik"], page


def test_scripts_another_plugin_adds_after_the_plugin_stay_on_every_page(tmp_path: Path) -> None:
    """A hook runs after the plugin's own config step and adds a script: each page names its types in place of the
    page before's, and keeps every other script, the hook's among them."""
    source = copy_site(FIXTURE_SITE, tmp_path / "src")
    (source / "late.py").write_text("def on_config(config):\n    config.extra_javascript.append('js/late.js')\n",
                                    encoding="utf-8")
    config = source / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "\nhooks:\n  - late.py\n", encoding="utf-8")
    site = build_site(config, tmp_path / "site")
    demo = ["types/choice", "types/code", "types/matching", "types/numeric"]
    for page, types in ((QUIZ, demo), ("en/index.html", []), ("demo/01-basics/quiz/index.html", demo)):
        html = (site / page).read_text(encoding="utf-8")
        assert TYPE_SCRIPT.findall(html) == [*types, "zadachnik"], page
        assert html.count('js/late.js"') == 1, page


def test_every_type_the_page_grades_names_a_module_that_grades_it() -> None:
    """A page names a type's module by `browser_module` (its type's name unless it says otherwise): the file is in
    js/types/, its `types` list the type, and the name is one zadachnik.js's loader takes ([a-z]+)."""
    folder = ROOT / "plugins/zadachnik/runtime/assets/js/types"
    for name, qtype in registry().items():
        if not qtype.auto or name == "mixed":  # mixed: graded by its checked part's type
            continue
        module = qtype.browser_module or name
        assert re.fullmatch(r"[a-z]+", module), module
        text = (folder / f"{module}.js").read_text(encoding="utf-8")
        declared = re.search(r"^export const types = (\[[^\]]*\]);", text, re.MULTILINE)
        assert declared and name in json.loads(declared[1]), f"{module}.js does not grade {name}"

