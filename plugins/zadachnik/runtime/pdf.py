"""Problem books as PDF files (`zadachnik pdf`, `make pdf`): each book page of a built site printed by headless
Chromium, whether the site was built for http or as the offline copy.

Printing loads nothing outside the built site, whatever the author's Markdown names (issue 31). Each book prints
from a copy with every reference to another host or to a file outside the site taken out (`PrintCopy`; each one is
named to the author), served by a server on 127.0.0.1 that serves the site's own files and nothing else. Two walls
stand behind the copy, for what a parser may miss: every answer carries a Content-Security-Policy that allows the
site's own address only (and no script: a book needs none), and Chromium's proxy is that same server, which
refuses every other address. A page over http may not load file:// at all.

The copy's links are the PDF's: Chromium writes each as the address it resolved, which for a page of the site is
the print server's, dead once printing ends. So a link to a place in the book stays one (the PDF's own link), and a
link to another page leads to it on the site's address (mkdocs.yml's site_url, which each page's canonical link
gives), or, on a site without one, is printed as its words alone."""

from __future__ import annotations

import html
import io
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote, unquote, urljoin, urlsplit

from zadachnik.rendering.i18n import paper_size

# What templates/book.html writes on its root element, and the folder MkDocs puts a book page in.
_BOOK_ROOT = re.compile(r'<div class="zq-book" data-zq-book data-zq-lang="([^"]+)"')
BOOK_FOLDER = "book"
# The language selector's entries, in the site's order: the head's links to the translations (which the offline
# copy takes out) and the header's list. A site in one language has none.
_SELECTOR_ENTRY = re.compile(r'<(?:link|a)\b[^>]*\bhreflang="([^"]+)"')
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
# A page's print takes about two seconds; a minute means Chromium hangs.
PRINT_TIMEOUT = 120
# What a printed page may load: the site's own files and data: URLs; no script, no other base address.
PRINT_POLICY = ("default-src 'self' data:; style-src 'self' 'unsafe-inline' data:; script-src 'none'; "
                "frame-src 'self'; object-src 'self'; base-uri 'none'; form-action 'none'")
ANOTHER_HOST = "printing loads nothing from another host: copy the file into the course and name the copy"
OUTSIDE_FILE = "printing loads no file outside the built site: copy the file into the course and name the copy"
BASE = "a <base> would move every address on the page"
REFRESH = "a refresh would print another page"
FRAME_PAGE = "a frame's own page (srcdoc) is not printed"


class PdfError(Exception):
    """Why a book could not be printed: one line for the author."""


@dataclass(frozen=True)
class BookPage:
    path: Path
    # COURSE-MODULE-LANG.pdf for a module's book, COURSE-LANG.pdf for a course's.
    name: str
    lang: str = ""


def book_pages(site: Path) -> list[BookPage]:
    """The problem books of a built site: `…/book/index.html` (folder URLs) or `…/book.html`, in every language.
    PdfError if two of them would print to one file."""
    pages = []
    for path in sorted(site.rglob("*.html")):
        folder = path.parent if path.name == "index.html" else path.with_suffix("")
        if folder.name != BOOK_FOLDER:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        found = _BOOK_ROOT.search(text)
        if found is None:
            continue
        lang = found.group(1)
        place = book_place(folder.relative_to(site).parent, lang, site_languages(text[:found.start()]))
        pages.append(BookPage(path, "-".join([*place.parts, lang]) + ".pdf", lang))
    refuse_shared_names(site, pages)
    return pages


def site_languages(head: str) -> list[str]:
    """The site's languages in its order, as a page's language selector lists them: none on a site in one."""
    return list(dict.fromkeys(_SELECTOR_ENTRY.findall(head)))


def book_place(folder: Path, lang: str, languages: list[str]) -> Path:
    """A book's course and module: its folder without its language's. The site's first language (or only one)
    has no folder of its own, so there a first folder named like a language is a course's."""
    own = lang if languages and lang != languages[0] else None
    return folder.relative_to(own) if own is not None and folder.parts[:1] == (own,) else folder


def refuse_shared_names(site: Path, pages: list[BookPage]) -> None:
    """Two books with one file name: the second would replace the first. Without case, as macOS and Windows
    compare names."""
    seen: dict[str, BookPage] = {}
    for page in pages:
        first = seen.setdefault(page.name.casefold(), page)
        if first is not page:
            raise PdfError(f"{first.path.relative_to(site).as_posix()} and {page.path.relative_to(site).as_posix()} "
                           f"would both be printed to {first.name}: give one of the courses another id (id: in "
                           "course.yml) or one of the modules another folder name, so that no two books share "
                           "COURSE-MODULE-LANG.pdf, and build the site again")


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


def print_pdf(chromium: str, address: str, target: Path, proxy: str) -> None:
    """The page at `address` printed to `target` as the browser prints it, without the browser's header and
    footer lines; every request goes through `proxy` (the site's server), loopback ones too."""
    target.parent.mkdir(parents=True, exist_ok=True)
    # An older file must not pass for this print.
    target.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="zadachnik-pdf-") as profile:
        command = [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            # Every request through the site's server, loopback ones too; no name of a host resolves.
            f"--proxy-server=http://{proxy}", "--proxy-bypass-list=<-loopback>",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            f"--user-data-dir={profile}", "--no-pdf-header-footer", f"--print-to-pdf={target}", address,
        ]
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=PRINT_TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            raise PdfError(f"Chromium did not print {address} within {PRINT_TIMEOUT} s") from None
        except OSError as error:
            raise PdfError(f"cannot run {chromium}: {error}") from None
    if result.returncode != 0 or not target.is_file() or target.stat().st_size == 0:
        said = [line for line in result.stderr.splitlines() if line.strip()]
        raise PdfError(f"Chromium could not print {address} (exit status {result.returncode})"
                       + (f": {said[-1]}" if said else ""))


@dataclass(frozen=True)
class LeftOut:
    """A reference a printed page names and its print does not load, for the line the command prints."""

    page: str
    reference: str
    reason: str

    def __str__(self) -> str:
        return f"{self.page}: left out {self.reference}: {self.reason}"


@dataclass
class Printed:
    pdfs: list[Path]
    left_out: list[LeftOut]


def print_books(site: Path, pages: list[BookPage], out: Path, chromium: str, paper: str | None = None) -> Printed:
    """The books of `site` (`book_pages`) as PDFs in `out`: the files written, in order, and what their pages
    named that printing left out. Each prints on `paper` (A4, Letter), or on its language's."""
    printed = Printed([], [])
    with site_server(site) as server:
        for page in pages:
            shown = page.path.relative_to(site).as_posix()
            copy = PrintCopy(site, page.path)
            text = on_paper(copy.copy(page.path.read_text(encoding="utf-8")), paper or paper_size(page.lang))
            server.pages["/" + shown] = text.encode("utf-8")
            target = out / page.name
            print_pdf(chromium, f"http://{server.address}/{quote(shown)}", target, server.address)
            printed.pdfs.append(target)
            printed.left_out += [LeftOut(shown, reference, reason) for reference, reason in copy.left_out]
    return printed


def on_paper(page_html: str, paper: str) -> str:
    """The page with its paper size, after its stylesheets (which set the margins); Chromium prints on Letter
    unless a page says otherwise."""
    style = f"<style>@page {{ size: {paper}; }}</style>"
    head_end = page_html.find("</head>")
    return page_html[:head_end] + style + page_html[head_end:] if head_end >= 0 else style + page_html


# -- the copy a page prints from ---------------------------------------------------------------------------------

# A <link> whose every kind is one of these loads nothing: the rest (stylesheet, icon, preload…) load their href.
LINKS_LOADING_NOTHING = {"alternate", "author", "bookmark", "canonical", "external", "help", "license", "next",
                         "nofollow", "noopener", "noreferrer", "prev", "tag"}
# What CSS loads: url(…) and @import "…".
_CSS_REFERENCE = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')""",
                            re.IGNORECASE)
_SOURCE_SET_URL = re.compile(r"[\s,]*(\S+)")
# The page's own address on the site, which MkDocs writes when mkdocs.yml has a site_url; attributes in any order.
_CANONICAL = re.compile(r"""<link\b(?=[^>]*\brel=["']?canonical\b)[^>]*\bhref=["']([^"']*)["']""", re.IGNORECASE)
# What a link the PDF cannot follow keeps of its look: its words, as the text around them looks.
UNLINKED = "color: inherit; text-decoration: none"


class PrintCopy(HTMLParser):
    """A page as printing loads it: every reference to another host or to a file outside the site taken out,
    each one noted in `left_out` with why. The rest of the page is left as it was, byte for byte."""

    def __init__(self, site: Path, page: Path) -> None:
        super().__init__(convert_charrefs=True)
        self.site, self.folder = site.resolve(), page.resolve().parent
        # The page's path on the site, as an address reads it, and its address online (None: no site_url).
        self.address = "/" + page.resolve().relative_to(self.site).as_posix()
        self.canonical: str | None = None
        self.left_out: list[tuple[str, str]] = []
        self.edits: list[tuple[int, int, str]] = []
        self.line_starts = [0]
        self.in_style = False

    def copy(self, text: str) -> str:
        self.line_starts = [0, *(found.end() for found in re.finditer("\n", text))]
        head = _CANONICAL.search(text, 0, max(text.find("</head>"), 0))
        self.canonical = html.unescape(head.group(1)) if head else None
        self.feed(text)
        self.close()
        for start, end, replacement in sorted(self.edits, reverse=True):
            text = text[:start] + replacement + text[end:]
        return text

    def place(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.element(tag, attrs, closed=False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.element(tag, attrs, closed=True)

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self.in_style = False

    def handle_data(self, data: str) -> None:
        # A style element's text comes whole and as written (HTMLParser reads it as CDATA).
        if self.in_style:
            start = self.place()
            checked = self.css(data)
            if checked != data:
                self.edits.append((start, start + len(data), checked))

    def element(self, tag: str, attrs: list[tuple[str, str | None]], closed: bool) -> None:
        start, written = self.place(), self.get_starttag_text() or ""
        values = dict(attrs)
        if tag == "style":
            self.in_style = not closed
        refresh = tag == "meta" and (values.get("http-equiv") or "").strip().lower() == "refresh"
        if tag == "base" or refresh:
            self.left_out.append((values.get("href" if tag == "base" else "content") or "", BASE if tag == "base"
                                  else REFRESH))
            self.edits.append((start, start + len(written), ""))
            return
        kept: list[tuple[str, str | None]] = []
        unlinked = False
        for name, value in attrs:
            if value is not None and name == "style":
                value = self.css(value)
            elif value is not None and tag in ("a", "area") and name in ("href", "xlink:href"):
                value = self.printed_link(value)
                if value is None:
                    unlinked = True
                    continue
            elif value is not None and self.loads(tag, name, values):
                refused = [(f'srcdoc="{value[:60]}"', FRAME_PAGE)] if name == "srcdoc" else [
                    (address, reason) for address in self.addresses(name, value)
                    if (reason := self.refusal(address)) is not None]
                if refused:
                    self.left_out += refused
                    continue
            kept.append((name, value))
        if unlinked:
            kept = looking_unlinked(kept)
        if kept != attrs:
            rebuilt = "".join(f" {name}" if value is None else f' {name}="{html.escape(value)}"'
                              for name, value in kept)
            self.edits.append((start, start + len(written), f"<{tag}{rebuilt}{' /' if closed else ''}>"))

    @staticmethod
    def loads(tag: str, name: str, values: dict[str, str | None]) -> bool:
        """Whether a browser loads the attribute's address as it shows the element (a link is only followed)."""
        if name in ("href", "xlink:href"):
            if tag in ("a", "area"):
                return False
            kinds = set((values.get("rel") or "").lower().split())
            return tag != "link" or not kinds or not kinds <= LINKS_LOADING_NOTHING
        return name in ("src", "srcset", "imagesrcset", "poster", "background", "srcdoc") or (
            name == "data" and tag == "object")

    @staticmethod
    def addresses(name: str, value: str) -> list[str]:
        if name not in ("srcset", "imagesrcset"):
            return [value]
        # Each candidate is an address, then its descriptors up to a comma; a data: URL holds commas of its own.
        found, position = [], 0
        while (match := _SOURCE_SET_URL.match(value, position)) is not None:
            address, position = match.group(1), match.end()
            found.append(address.rstrip(","))
            if not address.endswith(","):
                comma = value.find(",", position)
                if comma < 0:
                    break
                position = comma + 1
        return found

    def css(self, text: str) -> str:
        """CSS with each url(…) and @import "…" leading outside the site made `none`: a property then has no
        picture, and `@import none` is a rule CSS skips up to its semicolon."""
        def checked(found: re.Match[str]) -> str:
            address = next(group for group in found.groups() if group is not None)
            reason = self.refusal(address)
            if reason is None:
                return found.group(0)
            self.left_out.append((address, reason))
            return "none" if found.group(0)[0].lower() == "u" else "@import none"
        return _CSS_REFERENCE.sub(checked, text)

    def printed_link(self, address: str) -> str | None:
        """Where a link leads in the PDF: a place on this page stays one, another page of the site is that page on
        the site's address, or no link (None) on a site without one; another host's address stays as written."""
        read = re.sub(r"[\t\n\r]", "", address).strip("\x00\x20\x0c").replace("\\", "/")
        parts = urlsplit(read)
        if read.startswith("#") or parts.scheme or parts.netloc:
            return address
        if parts.fragment and self.is_this_page(read):
            return f"#{parts.fragment}"
        return urljoin(self.canonical, read) if self.canonical else None

    def is_this_page(self, address: str) -> bool:
        """Whether a relative address leads to the printed page itself (`./#x`, `index.html#x`, `book.html#x`)."""
        path = unquote(urlsplit(urljoin(f"http://site{self.address}", address)).path)
        return path in (self.address, self.address.removesuffix("index.html"))

    def refusal(self, address: str) -> str | None:
        """Why printing does not load `address` (None: it is the site's own, or data:), read as a browser reads it:
        tabs and line breaks dropped, backslashes as slashes, %2e as a dot."""
        address = re.sub(r"[\t\n\r]", "", address).strip("\x00\x20\x0c").replace("\\", "/")
        parts = urlsplit(address)
        scheme = parts.scheme.lower()
        if scheme == "data" or not address or address.startswith("#"):
            return None
        if scheme or parts.netloc:
            return OUTSIDE_FILE if scheme == "file" and not parts.netloc else ANOTHER_HOST
        path = unquote(parts.path)
        target = Path(os.path.normpath((self.site if path.startswith("/") else self.folder) / path.lstrip("/")))
        # A link inside the site that leads out of it leads out too.
        inside = target.is_relative_to(self.site) and target.resolve().is_relative_to(self.site)
        return None if inside else OUTSIDE_FILE


def looking_unlinked(attrs: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """A link's attributes once it leads nowhere: looking like the text around it, not like a link."""
    style = next((value for name, value in attrs if name == "style"), None)
    rest = [(name, value) for name, value in attrs if name != "style"]
    return [*rest, ("style", f"{style.rstrip().rstrip(';')}; {UNLINKED}" if style else UNLINKED)]


# -- the site's server -------------------------------------------------------------------------------------------


class SiteServer(ThreadingHTTPServer):
    """The site's files on a free port of 127.0.0.1, and Chromium's proxy: it refuses every other address."""

    def __init__(self, site: Path) -> None:
        super().__init__(("127.0.0.1", 0), SiteHandler)
        self.site = site.resolve()
        self.address = f"127.0.0.1:{self.server_address[1]}"
        # The printed pages' copies, by their path on the server.
        self.pages: dict[str, bytes] = {}


class SiteHandler(SimpleHTTPRequestHandler):
    server: SiteServer

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, directory=str(args[2].site), **kwargs)

    def parse_request(self) -> bool:
        """Asked as a proxy is asked, with the whole address: only the server's own is answered (Chromium's own
        calls home, a few a print, are refused with the rest)."""
        if not super().parse_request():
            return False
        parts = urlsplit(self.path)
        if self.command == "CONNECT" or parts.scheme or parts.netloc:
            if self.command == "CONNECT" or parts.netloc != self.server.address:
                self.send_error(403, "printing loads nothing from another host")
                return False
            self.path = parts.path + (f"?{parts.query}" if parts.query else "")
        return True

    def send_head(self):  # noqa: ANN201 - the base class's (a file or None)
        page = self.server.pages.get(unquote(urlsplit(self.path).path))
        if page is not None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            return io.BytesIO(page)
        # A link inside the site that leads out of it is not followed.
        if not Path(self.translate_path(self.path)).resolve().is_relative_to(self.server.site):
            self.send_error(404, "not a file of the site")
            return None
        return super().send_head()

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", PRINT_POLICY)
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format, *args) -> None:  # noqa: A002 - the base class's signature
        pass


@contextmanager
def site_server(site: Path) -> Iterator[SiteServer]:
    server = SiteServer(site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


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
