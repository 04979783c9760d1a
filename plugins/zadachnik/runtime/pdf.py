"""Problem books as PDF files (`zadachnik pdf`, `make pdf`): each book page of a built site printed by headless
Chromium. A book needs no script and loads nothing from another host, so it prints from disk (file://) whether
the site was built for http or as the offline copy."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

# What templates/book.html writes on its root element, and the folder MkDocs puts a book page in.
_BOOK_ROOT = re.compile(r'<div class="zq-book" data-zq-book data-zq-lang="([^"]+)"')
BOOK_FOLDER = "book"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
# A page's print takes about two seconds; a minute means Chromium hangs.
PRINT_TIMEOUT = 120


class PdfError(Exception):
    """Why a book could not be printed: one line for the author."""


@dataclass(frozen=True)
class BookPage:
    path: Path
    # COURSE-MODULE-LANG.pdf for a module's book, COURSE-LANG.pdf for a course's.
    name: str


def book_pages(site: Path) -> list[BookPage]:
    """The problem books of a built site: `…/book/index.html` (folder URLs) or `…/book.html`, in every language."""
    pages = []
    for path in sorted(site.rglob("*.html")):
        folder = path.parent if path.name == "index.html" else path.with_suffix("")
        if folder.name != BOOK_FOLDER:
            continue
        found = _BOOK_ROOT.search(path.read_text(encoding="utf-8", errors="replace"))
        if found is None:
            continue
        lang = found.group(1)
        parts = list(folder.relative_to(site).parts[:-1])
        # The language's folder (en/) or none for the site's first language: the name says the language always.
        if parts and parts[0] == lang:
            parts = parts[1:]
        pages.append(BookPage(path, "-".join([*parts, lang]) + ".pdf"))
    return pages


def find_chromium(given: str | None = None) -> str:
    names = [given] if given else list(CHROMIUM_NAMES)
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    if given:
        raise PdfError(f"no Chromium at '{given}': give the path or name of a Chromium or Chrome program")
    raise PdfError("Chromium is missing: install Debian's (apt-get install -y chromium, or 'make chromium'), or "
                   "name another with --chromium")


def print_pdf(chromium: str, page: Path, target: Path) -> None:
    """`page` printed to `target` as the browser prints it, without the browser's header and footer lines."""
    target.parent.mkdir(parents=True, exist_ok=True)
    # An older file must not pass for this print.
    target.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="zadachnik-pdf-") as profile:
        command = [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            f"--user-data-dir={profile}", "--no-pdf-header-footer", f"--print-to-pdf={target}",
            page.resolve().as_uri(),
        ]
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=PRINT_TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            raise PdfError(f"Chromium did not print {page} within {PRINT_TIMEOUT} s") from None
        except OSError as error:
            raise PdfError(f"cannot run {chromium}: {error}") from None
    if result.returncode != 0 or not target.is_file() or target.stat().st_size == 0:
        said = [line for line in result.stderr.splitlines() if line.strip()]
        raise PdfError(f"Chromium could not print {page} (exit status {result.returncode})"
                       + (f": {said[-1]}" if said else ""))


def print_books(site: Path, out: Path, chromium: str) -> list[Path]:
    """Every book of `site` as a PDF in `out`; the files written, in order."""
    written = []
    for page in book_pages(site):
        target = out / page.name
        print_pdf(chromium, page.path, target)
        written.append(target)
    return written


def copy_into_site(pdfs: list[Path], site: Path) -> list[Path]:
    """The PDFs in the site's pdf/ folder, for the copy of the site that ships them (the offline zip)."""
    folder = site / "pdf"
    folder.mkdir(exist_ok=True)
    copies = []
    for pdf in pdfs:
        copy = folder / pdf.name
        if pdf.resolve() != copy.resolve():
            shutil.copyfile(pdf, copy)
        copies.append(copy)
    return copies
