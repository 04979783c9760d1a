"""A page's own JS and CSS as the site ships them, counted as tests/rendering/test_page_weight.py and the
benchmark (bench/run.py) count them: the scripts and stylesheets its HTML names under assets/zadachnik/, every
module they import, statically or by `import("./x.js")`, and the stylesheets they @import."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

# The pages that load the most: the fixture's demo quiz, and the sample course's pages with every feature.
QUIZ = "en/demo/01-basics/quiz/index.html"
SAMPLE_PAGES = ("en/rl-for-llm/12-infrastructure/quiz/index.html", "en/modern-llms/09-pretraining/quiz/index.html")
# `import … from "./x.js"`, `import "./x.js"`, `export … from "./x.js"` and `import("./x.js")`, minified or not.
JS_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""")
CSS_IMPORT = re.compile(r"""@import\s+(?:url\(\s*)?["']?([^"')\s]+)""")


def own_assets(site: Path, page: str) -> list[Path]:
    html = (site / page).read_text(encoding="utf-8")
    urls = re.findall(r'(?:src|href)="([^"]*assets/zadachnik/[^"]+\.(?:js|css))"', html)
    found = [((site / page).parent / url).resolve() for url in urls]
    queue = list(found)
    while queue:
        asset = queue.pop()
        pattern = JS_IMPORT if asset.suffix == ".js" else CSS_IMPORT
        for name in pattern.findall(asset.read_text(encoding="utf-8")):
            target = (asset.parent / name).resolve()
            assert target.is_file(), f"{asset.name} imports {name}, which the site lacks"
            if target not in found:
                found.append(target)
                queue.append(target)
    return found


def gzipped_size(assets: list[Path]) -> int:
    return sum(len(gzip.compress(path.read_bytes(), 9)) for path in assets if "katex" not in path.parts)
