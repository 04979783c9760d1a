"""Site builders other than MkDocs 1.6: ProperDocs builds the same site, and a build in which Zadachnik did not run
says so on the home page instead of showing a page without its course list."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from support.browser import serve
from support.sites import FIXTURE_SITE, ROOT, build_failure, build_site, copy_site

NOTES = {
    "ru": "Список курсов составляет плагин Zadachnik, но при сборке этого сайта он не запускался.",
    "en": "The course list is made by the Zadachnik plugin, which did not run when this site was built.",
}
HOMES = {"ru": "index.html", "en": "en/index.html"}
OLD_MARKER = "<!-- zadachnik:courses -->"
SAMPLE_PLUGINS = [{"search": {"lang": ["ru", "en"]}}]


def page(site: Path, path: str) -> BeautifulSoup:
    return BeautifulSoup((site / path).read_text(encoding="utf-8"), "html.parser")


def content_text(soup: BeautifulSoup) -> str:
    # get_text leaves HTML comments out: what it returns is what a reader sees.
    return soup.select_one(".md-content").get_text(" ", strip=True)


# -- ProperDocs ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def properdocs_site(tmp_path_factory) -> Path:
    """The sample site built by ProperDocs' own command line. A process of its own: ProperDocs points every
    `mkdocs.*` import at its own modules, which cannot happen in this process, where MkDocs is loaded already."""
    site = tmp_path_factory.mktemp("properdocs") / "site"
    command = [sys.executable, "-m", "properdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
               "-d", str(site)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=os.environ.copy())
    assert result.returncode == 0, f"ProperDocs failed (pip install -e '.[test]' installs it):\n{result.stderr}"
    return site


# The differences that are the builder's own, and nothing else, are taken out before comparing:
# - every page's <meta name="generator"> names the builder and its version;
# - sitemap.xml (and its gzip copy) carries the build's date in <lastmod>, which two builds share only if they run
#   on the same day.
_GENERATOR = re.compile(rb'<meta name="generator" content="[^"]*">')
_LASTMOD = re.compile(rb"<lastmod>[^<]*</lastmod>")


def normalised(path: Path) -> bytes:
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        data = gzip.decompress(data)
    if path.suffix == ".html":
        data = _GENERATOR.sub(b"", data)
    if path.name.startswith("sitemap.xml"):
        data = _LASTMOD.sub(b"", data)
    return data


def course_page_facts(soup: BeautifulSoup) -> dict[str, object]:
    """What decides a learner's verdicts on a course page, and what the learner reads there."""
    root = soup.select_one(".zq-page")
    def zq_attributes(element) -> list[tuple[str, str]]:
        return sorted((name, str(value)) for name, value in element.attrs.items() if name.startswith("data-zq"))

    elements = [(element.name, zq_attributes(element)) for element in root.find_all(True) if zq_attributes(element)]
    templates = {" ".join(t["class"]): t.decode_contents() for t in soup.select("template[class]")}
    return {
        "page": zq_attributes(root),
        "questions": [q["data-zq-question"] for q in soup.select("[data-zq-question]")],
        "exercises": [e["data-zq-exercise"] for e in soup.select("[data-zq-exercise]")],
        "attributes": elements,
        "spec": json.loads(templates.pop("zq-spec", "{}")),
        "templates": templates,
        "text": content_text(soup),
    }


def test_properdocs_builds_the_same_site(sample_site: Path, properdocs_site: Path) -> None:
    mkdocs_files = sorted(p.relative_to(sample_site).as_posix() for p in sample_site.rglob("*") if p.is_file())
    properdocs_files = sorted(p.relative_to(properdocs_site).as_posix() for p in properdocs_site.rglob("*")
                              if p.is_file())
    assert properdocs_files == mkdocs_files

    # Both builds ran, each its own builder: the comparison is not of one builder with itself.
    home = (properdocs_site / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<meta name="generator" content="[^"]*ProperDocs', home)
    assert "ProperDocs" not in (sample_site / "index.html").read_text(encoding="utf-8")

    course_pages = [path for path in mkdocs_files if path.endswith(".html") and page(sample_site, path).select_one(
        ".zq-page")]
    assert len(course_pages) >= 6, course_pages
    for path in course_pages:
        expected = course_page_facts(page(sample_site, path))
        assert expected["questions"] or expected["exercises"], path
        assert course_page_facts(page(properdocs_site, path)) == expected, path

    # Beyond the course pages, every other file too (assets, search index, hand-written pages) is the same.
    different = [path for path in mkdocs_files if normalised(sample_site / path) != normalised(properdocs_site / path)]
    assert different == []


# -- the course list's marker -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_home_page_built_with_zadachnik_has_the_course_list_and_no_note(sample_site: Path, lang: str) -> None:
    soup = page(sample_site, HOMES[lang])
    assert NOTES["ru"] not in soup.decode() and NOTES["en"] not in soup.decode()
    assert soup.select(".zadachnik-courses") == []
    headings = [h.get_text(" ", strip=True).rstrip("¶").strip() for h in soup.select(".md-content h2")]
    assert ("Современные LLM" if lang == "ru" else "Modern LLMs") in headings
    links = [a["href"] for a in soup.select(".md-content li a")]
    assert "modern-llms/09-pretraining/quiz/" in links and "rl-for-llm/12-infrastructure/quiz/" in links


@pytest.fixture(scope="module")
def site_without_zadachnik(tmp_path_factory) -> Path:
    """The sample site built with the zadachnik plugin taken out of its configuration."""
    return build_site(ROOT / "mkdocs.yml", tmp_path_factory.mktemp("without") / "site", plugins=SAMPLE_PLUGINS)


def test_home_page_built_without_zadachnik_says_so(site_without_zadachnik: Path, browser) -> None:
    site = site_without_zadachnik
    # Zadachnik did not run: no course pages at all.
    assert not (site / "modern-llms").exists() and not (site / "en" / "rl-for-llm").exists()
    assert not any(page(site, p.relative_to(site).as_posix()).select(".zq-page") for p in site.rglob("*.html"))
    url, server = serve(site)
    try:
        tab = browser.new_page()
        for lang, path in HOMES.items():
            tab.goto(url + path.removesuffix("index.html"))
            note = tab.get_by_text(NOTES[lang], exact=True)
            note.wait_for(state="visible", timeout=10_000)
            assert note.count() == 1
            other = "en" if lang == "ru" else "ru"
            assert tab.get_by_text(NOTES[other]).count() == 0
        tab.close()
    finally:
        server.shutdown()


def test_marker_shown_in_a_code_block_is_left_as_it_is(sample_site: Path) -> None:
    """The authoring guide shows the marker in a code block, and the old one in a code span: a reader must see the
    markers, not a course list."""
    for path in ("authoring/index.html", "en/authoring/index.html"):
        soup = page(sample_site, path)
        blocks = "\n".join(c.get_text() for c in soup.select(".md-content pre code"))
        spans = [c.get_text() for c in soup.select(".md-content code") if c.parent.name != "pre"]
        assert '<div class="zadachnik-courses">' in blocks and OLD_MARKER in spans, path
        # What the list would have put there: a heading per course.
        assert "## Modern LLMs" not in blocks and "## Современные LLM" not in blocks, path


def write_homes(site: Path, markers: dict[str, str]) -> None:
    for lang, marker in markers.items():
        index = site / "docs" / ("index.md" if lang == "ru" else "en/index.md")
        index.write_text(f"# Home {lang}\n\nSome text.\n\n{marker}\n\nText after the list.\n", encoding="utf-8")


def test_old_comment_marker_still_lists_the_courses(tmp_path: Path) -> None:
    source = copy_site(FIXTURE_SITE, tmp_path / "src")
    write_homes(source, {"ru": OLD_MARKER, "en": OLD_MARKER})
    site = build_site(source / "mkdocs.yml", tmp_path / "site")
    for lang, path in HOMES.items():
        soup = page(site, path)
        assert [a["href"] for a in soup.select(".md-content li a")] == ["demo/01-basics/quiz/",
                                                                         "demo/01-basics/exercises/"], lang
        assert "Text after the list." in content_text(soup)
        assert OLD_MARKER not in soup.decode()


def test_marker_with_other_attributes_and_text_is_replaced_whole(tmp_path: Path) -> None:
    """Whatever note an author writes inside the marker, and however the attributes are spelt, a build with
    Zadachnik never shows it."""
    source = copy_site(FIXTURE_SITE, tmp_path / "src")
    write_homes(source, {
        "ru": "<div class='admonition zadachnik-courses'>\nСвоя заметка\nв две строки.\n</div>",
        "en": '<div class="zadachnik-courses">A note of my own.</div>',
    })
    site = build_site(source / "mkdocs.yml", tmp_path / "site")
    for lang, path in HOMES.items():
        soup = page(site, path)
        assert "заметка" not in soup.decode() and "note of my own" not in soup.decode(), lang
        assert soup.select(".zadachnik-courses") == [], lang
        assert len(soup.select(".md-content li a")) == 2, lang
        assert "Text after the list." in content_text(soup)


def test_unclosed_marker_fails_the_build_at_its_line(tmp_path: Path, caplog) -> None:
    source = copy_site(FIXTURE_SITE, tmp_path / "src")
    write_homes(source, {"en": '<div class="zadachnik-courses">\nThe course list is made by Zadachnik.'})
    message = build_failure(source / "mkdocs.yml", tmp_path / "site", caplog)
    assert "docs/en/index.md:5:" in message
    assert "</div>" in message


def test_unclosed_marker_below_front_matter_is_reported_at_its_line_in_the_file(tmp_path: Path, caplog) -> None:
    """MkDocs hands the plugin the page without its front matter: the line must still be the file's."""
    source = copy_site(FIXTURE_SITE, tmp_path / "src")
    index = source / "docs" / "index.md"
    index.write_text('---\ntitle: Главная\n---\n\n# Главная\n\n<div class="zadachnik-courses">\nПримечание.\n',
                     encoding="utf-8")
    message = build_failure(source / "mkdocs.yml", tmp_path / "site", caplog)
    assert "docs/index.md:7:" in message and "Traceback" not in message
