"""SCORM 1.2 and 2004 packages of a module (or a course) made of the site's own pages, for any LMS that imports
SCORM (Moodle, Canvas, Blackboard, ILIAS).

A package holds the module's pages in one language from a site built as the offline copy is (classic scripts,
Pyodide embedded, relative links), the site's assets, a launch page per module and imsmanifest.xml. The launch
page shows the module's pages in a frame and runs the bridge (assets/js/lms.js): it finds the LMS's API, restores
the learner's work from cmi.suspend_data and reports the score, statuses and interactions as the pages save
them. Links to pages the package does not hold are left as text: the LMS could only show an error for them."""

from __future__ import annotations

import html
import io
import json
import posixpath
import re
import xml.etree.ElementTree as etree
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from zadachnik.core.zips import add_entry
from zadachnik.rendering.i18n import runtime_strings, strings
from zadachnik.runtime.shipping import PROGRESS_MANIFEST, lms_bridge, lms_notices

BRIDGE = "assets/zadachnik/js/lms.bundle.js"
# The words the launch page may need, from the runtime's words.
LAUNCH_WORDS = ("lms_state_too_large", "lms_no_session", "lms_not_saved")
# Of the theme's files, what pages without search never load (its worker and languages), and source maps.
UNUSED_ASSETS = re.compile(r"^assets/javascripts/(?:lunr/|workers/search\.)|\.map$")
ANCHOR = re.compile(r"<a\b[^>]*>", re.IGNORECASE)
HREF = re.compile(r"""\shref=(["'])(.*?)\1""", re.IGNORECASE | re.DOTALL)
SOURCE = re.compile(r"""\s(?:href|src)=(["'])(.*?)\1""", re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True)
class ScormVersion:
    name: str
    summary: str
    schema_version: str
    cp_ns: str
    adlcp_ns: str
    scorm_type: str  # the attribute naming a resource a SCO: its case differs between the versions


VERSIONS = {
    "scorm12": ScormVersion("scorm12", "a SCORM 1.2 package (zip) of the module's pages", "1.2",
                            "http://www.imsproject.org/xsd/imscp_rootv1p1p2",
                            "http://www.adlnet.org/xsd/adlcp_rootv1p2", "scormtype"),
    "scorm2004": ScormVersion("scorm2004", "a SCORM 2004 (4th edition) package (zip) of the module's pages",
                              "2004 4th Edition", "http://www.imsglobal.org/xsd/imscp_v1p1",
                              "http://www.adlnet.org/xsd/adlcp_v1p3", "scormType"),
}


class PackageError(ValueError):
    """The built site lacks what a package needs: one line for the author."""


@dataclass(frozen=True)
class PackagedModule:
    """One module of a package: a SCO with its own launch page."""

    course: str
    module: str  # its number, as the pages' saved entries name it
    title: str
    start: str  # the page the launch page opens, relative to the site's root
    pages: tuple[str, ...]  # the module's pages in the package's language

    @property
    def launch(self) -> str:
        return f"launch-{safe_name(self.course)}-{safe_name(self.module)}.html"

    @property
    def identifier(self) -> str:
        return f"{safe_name(self.course)}-{safe_name(self.module)}"


def safe_name(text: str) -> str:
    """A piece of a file name or an XML id: letters, digits, '-', '_' and '.'."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "x"


def xml_id(text: str) -> str:
    """An XML id (a manifest's identifiers are): it starts with a letter."""
    return "zq-" + safe_name(text)


def read_progress_manifest(site: Path) -> dict:
    """The module list the site's pages read (course-progress.js): each module's pages per language."""
    path = site / PROGRESS_MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
        return json.loads(text[text.index("=") + 1:].strip().rstrip(";"))
    except (OSError, ValueError) as error:
        raise PackageError(f"{site} is not a site built by the zadachnik plugin ({PROGRESS_MANIFEST}: {error})"
                           ) from None


def packaged_module(manifest: dict, course: str, number: str, lang: str, title: str) -> PackagedModule:
    for module in manifest.get("modules", []):
        if module.get("course") == course and module.get("module") == number:
            pages = module.get("pages", {}).get(lang) or {}
            if not pages:
                break
            kinds = [kind for kind in ("quiz", "exercises") if kind in pages]
            return PackagedModule(course, number, title, pages[kinds[0]], tuple(pages[kind] for kind in kinds))
    raise PackageError(f"the built site has no pages of {course}/{number} in '{lang}'")


def page_of(path: str, link: str) -> str | None:
    """The site path a relative link from the page at `path` leads to; None for other hosts, anchors, data."""
    parts = urlsplit(link)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    target = posixpath.normpath(posixpath.join(posixpath.dirname(path), unquote(parts.path)))
    return None if target.startswith("../") or target == ".." else target


def with_links_kept_inside(page: str, path: str, kept: set[str]) -> str:
    """A page whose links to pages outside the package lose their address (their text stays)."""
    def anchor(match: re.Match[str]) -> str:
        tag = match.group(0)
        found = HREF.search(tag)
        if not found:
            return tag
        target = page_of(path, html.unescape(found.group(2)))
        if target is None or target in kept or not target.endswith(".html"):
            return tag
        return tag[:found.start()] + tag[found.end():]
    return ANCHOR.sub(anchor, page)


def referenced_files(page: str, path: str, site: Path) -> set[str]:
    """The site's files (not pages) the page links or loads: a module's course files zip, its book, images."""
    found = set()
    for match in SOURCE.finditer(page):
        target = page_of(path, html.unescape(match.group(2)))
        if target and not target.endswith(".html") and (site / target).is_file():
            found.add(target)
    return found


def page_reader(site: Path) -> Callable[[str], str]:
    """The built site's pages by path, each read once."""
    @cache
    def read(path: str) -> str:
        try:
            return (site / path).read_text(encoding="utf-8")
        except OSError as error:
            raise PackageError(f"the built site lacks {path}: {error}") from None
    return read


def with_sibling_pages(module: PackagedModule, site: Path, read: Callable[[str], str]) -> PackagedModule:
    """The module with the pages its pages link in their own folder (its problem book)."""
    folders = {posixpath.dirname(path) for path in module.pages}
    pages = list(module.pages)
    for path in module.pages:
        for match in HREF.finditer(read(path)):
            target = page_of(path, html.unescape(match.group(2)))
            if (target and target.endswith(".html") and posixpath.dirname(target) in folders
                    and target not in pages and (site / target).is_file()):
                pages.append(target)
    return PackagedModule(module.course, module.module, module.title, module.start, tuple(pages))


def launch_page(module: PackagedModule, version: str, lang: str, pass_mark: float) -> str:
    runtime = runtime_strings(lang)
    config = {"course": module.course, "module": module.module, "start": module.start, "version": version,
              "passMark": pass_mark, "words": {key: runtime[key] for key in LAUNCH_WORDS}}
    # "</" could end the script early: JSON allows it written as "<\/".
    data = json.dumps(config, ensure_ascii=False).replace("</", "<\\/")
    title = html.escape(module.title)
    return f"""<!doctype html>
<html lang="{html.escape(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
html, body {{ height: 100%; margin: 0; }}
body {{ display: flex; flex-direction: column; font-family: system-ui, sans-serif; }}
.zq-lms-note {{ margin: 0; padding: 0.5rem 1rem; background: #fff4ce; color: #3b2f00; }}
.zq-lms-frame {{ flex: 1; width: 100%; border: 0; }}
</style>
</head>
<body>
<p class="zq-lms-note" role="status" data-zq-lms-note hidden></p>
<iframe class="zq-lms-frame" title="{title}" data-zq-lms-frame></iframe>
<script>window.__zqLms = {data};</script>
<script src="{PROGRESS_MANIFEST}"></script>
<script src="{BRIDGE}"></script>
</body>
</html>
"""


def manifest_xml(version: ScormVersion, identifier: str, title: str, modules: list[PackagedModule],
                 module_files: dict[str, list[str]], shared: list[str]) -> bytes:
    """imsmanifest.xml: one organisation with an item per module, each a SCO (its launch page and pages), and the
    files they share as one asset resource."""
    etree.register_namespace("", version.cp_ns)
    etree.register_namespace("adlcp", version.adlcp_ns)
    cp = f"{{{version.cp_ns}}}"
    manifest = etree.Element(f"{cp}manifest", {"identifier": xml_id(identifier), "version": "1.0"})
    metadata = etree.SubElement(manifest, f"{cp}metadata")
    etree.SubElement(metadata, f"{cp}schema").text = "ADL SCORM"
    etree.SubElement(metadata, f"{cp}schemaversion").text = version.schema_version
    organizations = etree.SubElement(manifest, f"{cp}organizations", {"default": xml_id("org")})
    organization = etree.SubElement(organizations, f"{cp}organization", {"identifier": xml_id("org")})
    etree.SubElement(organization, f"{cp}title").text = title
    for module in modules:
        item = etree.SubElement(organization, f"{cp}item", {
            "identifier": xml_id("item-" + module.identifier), "identifierref": xml_id("sco-" + module.identifier)})
        etree.SubElement(item, f"{cp}title").text = module.title
        # No adlcp:masteryscore: an LMS that applies it at LMSFinish (Moodle's "Mastery score overrides status",
        # on by default) made every learner who left before the end "failed". The package decides passed and
        # failed itself, by the pass mark, once the module is done.
    resources = etree.SubElement(manifest, f"{cp}resources")
    for module in modules:
        resource = etree.SubElement(resources, f"{cp}resource", {
            "identifier": xml_id("sco-" + module.identifier), "type": "webcontent",
            f"{{{version.adlcp_ns}}}{version.scorm_type}": "sco", "href": quote(module.launch)})
        for name in module_files[module.identifier]:
            etree.SubElement(resource, f"{cp}file", {"href": quote(name)})
        etree.SubElement(resource, f"{cp}dependency", {"identifierref": xml_id("shared")})
    asset = etree.SubElement(resources, f"{cp}resource", {
        "identifier": xml_id("shared"), "type": "webcontent", f"{{{version.adlcp_ns}}}{version.scorm_type}": "asset"})
    for name in shared:
        etree.SubElement(asset, f"{cp}file", {"href": quote(name)})
    etree.indent(manifest)
    return etree.tostring(manifest, encoding="utf-8", xml_declaration=True)


def scorm_package(site: Path, version: ScormVersion, identifier: str, title: str, modules: list[PackagedModule],
                  lang: str, pass_mark: float) -> bytes:
    """The zip an LMS imports: the modules' pages (their links to other pages made text), the files they use,
    the site's assets, a launch page per module and the manifest."""
    read = page_reader(site)
    modules = [with_sibling_pages(module, site, read) for module in modules]
    kept = {page for module in modules for page in module.pages}
    contents: dict[str, bytes] = {}
    module_files: dict[str, list[str]] = {}
    for module in modules:
        names = [module.launch]
        contents[module.launch] = launch_page(module, version.name, lang, pass_mark).encode("utf-8")
        for path in module.pages:
            page = read(path)
            contents[path] = with_links_kept_inside(page, path, kept).encode("utf-8")
            names.append(path)
            for name in sorted(referenced_files(page, path, site)):
                if not name.startswith("assets/") and name not in contents:
                    contents[name] = (site / name).read_bytes()
                    names.append(name)
        module_files[module.identifier] = names
    shared = sorted(name for name in (path.relative_to(site).as_posix() for path in (site / "assets").rglob("*")
                                      if path.is_file()) if not UNUSED_ASSETS.search(name))
    for name in shared:
        contents[name] = (site / name).read_bytes()
    contents[BRIDGE] = lms_bridge().encode("utf-8")
    notices = lms_notices()
    contents.update(notices)
    shared += [name for name in (BRIDGE, *notices) if name not in shared]
    contents["imsmanifest.xml"] = manifest_xml(version, identifier, title, modules, module_files, shared)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        # The manifest first, as some LMSs look for it there.
        for name in ["imsmanifest.xml", *sorted(set(contents) - {"imsmanifest.xml"})]:
            add_entry(archive, name, contents[name], compresslevel=6)
    return buffer.getvalue()


def module_title(number: int, title: str, lang: str) -> str:
    return strings(lang)["module"].format(number=number, title=title)
