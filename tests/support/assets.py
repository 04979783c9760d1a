"""A page's own JS and CSS as the site ships them, counted as tests/rendering/test_page_weight.py and the
benchmark (bench/run.py) count them: the scripts and stylesheets its HTML names under assets/zadachnik/, every
module they import, statically or by `import("./x.js")`, and the stylesheets they @import; except the optional
parts whose markup the page lacks (zadachnik.js's: variants, shuffled options, hints, an exam; progress.js's: the
home page's course list). A page names its
question types' modules as scripts of its own; zadachnik.js's `import(`./types/${name}.js`)`, for a page reached
by instant navigation, is not counted on a page that names its types.
tests/browser/test_browser_runtime.py checks that a page loads nothing this leaves out."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

# The pages that load the most: the fixture's demo quiz, and the sample course's pages with every feature.
QUIZ = "en/demo/01-basics/quiz/index.html"
SAMPLE_PAGES = ("en/rl-for-llm/12-infrastructure/quiz/index.html", "en/modern-llms/09-pretraining/quiz/index.html")
# `import … from "./x.js"`, `import "./x.js"`, `export … from "./x.js"` and `import("./x.js")`, minified or not.
JS_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""")
CSS_IMPORT = re.compile(r"""@import\s*(?:url\(\s*)?["']?([^"')\s]+)""")
# zadachnik.js: `["[data-zq-hints]", () => import("./hints.js")]`, a part loaded where its markup is
# (progress.js's home page part too).
PART_LOADER = re.compile(
    r"""\[\s*["']\[(data-zq-[\w-]+)\]["']\s*,\s*\(\)\s*=>\s*import\(\s*["'](\./[\w-]+\.js)["']\s*\)""")


def not_loaded(asset: Path, html: str) -> set[str]:
    """What `asset` imports that this page will not load: the parts whose markup it lacks."""
    text = asset.read_text(encoding="utf-8")
    return {module for marker, module in PART_LOADER.findall(text) if marker not in html}


def own_assets(site: Path, page: str) -> list[Path]:
    html = (site / page).read_text(encoding="utf-8")
    urls = re.findall(r'(?:src|href)="([^"]*assets/zadachnik/[^"]+\.(?:js|css))"', html)
    found = [((site / page).parent / url).resolve() for url in urls]
    queue = list(found)
    while queue:
        asset = queue.pop()
        pattern = JS_IMPORT if asset.suffix == ".js" else CSS_IMPORT
        skipped = not_loaded(asset, html) if asset.suffix == ".js" else set()
        for name in pattern.findall(asset.read_text(encoding="utf-8")):
            if name in skipped:
                continue
            target = (asset.parent / name).resolve()
            assert target.is_file(), f"{asset.name} imports {name}, which the site lacks"
            if target not in found:
                found.append(target)
                queue.append(target)
    return found


def gzipped_size(assets: list[Path]) -> int:
    return sum(len(gzip.compress(path.read_bytes(), 9)) for path in assets if "katex" not in path.parts)
