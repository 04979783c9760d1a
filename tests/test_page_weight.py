"""Own JS and CSS a page loads stay small: ≤ 30 KB gzipped (issue 3's budget; the benchmark reports it too)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

QUIZ = "en/demo/01-basics/quiz/index.html"
BUDGET = 30 * 1024


def own_assets(site: Path, page: str) -> list[Path]:
    html = (site / page).read_text(encoding="utf-8")
    urls = re.findall(r'(?:src|href)="([^"]*assets/zadachnik/[^"]+\.(?:js|css))"', html)
    found = [((site / page).parent / url).resolve() for url in urls]
    # The runtime's ES modules import each other: follow the imports.
    queue = [path for path in found if path.suffix == ".js"]
    while queue:
        module = queue.pop()
        for name in re.findall(r'from "(\./[^"]+|\.\./[^"]+)"', module.read_text(encoding="utf-8")):
            target = (module.parent / name).resolve()
            if target not in found:
                found.append(target)
                queue.append(target)
    return found


def test_own_js_and_css_within_budget(fixture_site: Path) -> None:
    assets = own_assets(fixture_site, QUIZ)
    names = {path.name for path in assets}
    assert {"zadachnik.js", "grading.js", "numbers.js", "storage.js", "zadachnik.css"} <= names
    size = sum(len(gzip.compress(path.read_bytes(), 9)) for path in assets if "katex" not in path.parts)
    assert size <= BUDGET, f"{size} bytes gzipped"
