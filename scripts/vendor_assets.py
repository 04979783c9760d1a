"""Copy browser assets from node_modules (installed by `npm ci` from package-lock.json) into the package.

The copies are git-ignored and shipped in the wheel, so a site never loads them from another host. Each
package's licence travels with it. KaTeX's CSS lists woff2, woff and ttf fonts; every browser we support reads
woff2, so only those are shipped and the CSS names only them.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "node_modules"
VENDOR = ROOT / "plugins" / "zadachnik" / "assets" / "vendor"


def vendor_katex() -> None:
    source, target = NODE / "katex", VENDOR / "katex"
    if target.exists():
        shutil.rmtree(target)
    (target / "fonts").mkdir(parents=True)
    shutil.copy2(source / "dist" / "katex.min.js", target / "katex.min.js")
    shutil.copy2(source / "LICENSE", target / "LICENSE")
    css = (source / "dist" / "katex.min.css").read_text(encoding="utf-8")
    css = re.sub(r',url\(fonts/[^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)', "", css)
    (target / "katex.min.css").write_text(css, encoding="utf-8")
    for font in sorted((source / "dist" / "fonts").glob("*.woff2")):
        shutil.copy2(font, target / "fonts" / font.name)


def main() -> int:
    if not (NODE / "katex").is_dir():
        print("node_modules/katex is missing: run 'npm ci' first", file=sys.stderr)
        return 1
    vendor_katex()
    print(f"vendored KaTeX into {VENDOR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
