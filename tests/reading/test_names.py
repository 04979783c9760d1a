"""Module folder names: a folder's name is its pages' address and part of the exported files' names, so a name
an address or Windows can't carry is refused at the folder, and the names that work stay accepted."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

import pytest
from bs4 import BeautifulSoup
from support.sites import FIXTURE_SITE, build_site, copy_site
from support.sources import LANGS, MODULE_DIR, block, write_course
from zadachnik.core.errors import SourceErrors
from zadachnik.reading.model import load_courses
from zadachnik.rendering.home import course_list
from zadachnik.rendering.site import Languages


def renamed_module(tmp_path: Path, name: str) -> Path:
    """The small course with its module folder renamed; exercises/."""
    root = write_course(tmp_path, quiz=block())
    (tmp_path / MODULE_DIR).rename(root / "course" / name)
    return root


@pytest.mark.parametrize("name, reason", [
    ("01#basics", "has '#'"),
    ("01?basics", "has '?'"),
    ("01%20basics", "has '%'"),
    ("01:basics", "has ':', which Windows does not allow"),
    ("01\\basics", "has '\\', which Windows reads as a folder separator"),
    ("01*basics", "has '*'"),
    ('01"basics', "has '\"'"),
    ("01<basics>", "has '<'"),
    ("01|basics", "has '|'"),
    ("01-basics.", "ends with a dot, which Windows drops"),
    ("01-basics ", "ends with a space, which Windows drops"),
    ("01\tbasics", "has a control character (U+0009)"),
    ("con", "is kept by Windows for a device"),
    ("LPT1.basics", "is kept by Windows for a device"),
])
def test_a_module_folder_name_no_address_or_windows_can_carry_is_refused(tmp_path: Path, name: str,
                                                                        reason: str) -> None:
    """Was silent: '#' and '?' cut the home page's links short, '%' gave warnings about links the author never
    wrote, and ':' or a trailing dot made export files Windows can't save."""
    root = renamed_module(tmp_path, name)
    with pytest.raises(SourceErrors) as info:
        load_courses(root, LANGS, tmp_path)
    [error] = info.value.errors
    assert (error.path, error.line) == (f"exercises/course/{name}", 0)
    assert error.message.startswith(f"the module folder's name '{name}' {reason}"), error.message
    assert "part of its pages' addresses" in error.hint and "'-', '_'" in error.hint


@pytest.mark.parametrize("name", ["01 basics", "01-основы", "01 a&b", "01 it's"])
def test_module_folder_names_that_work_stay_accepted(tmp_path: Path, name: str) -> None:
    [course] = load_courses(renamed_module(tmp_path, name), LANGS, tmp_path)
    assert [module.slug for module in course.modules] == [name]


def test_the_course_list_links_quote_the_module_folder(tmp_path: Path) -> None:
    """A raw name in a Markdown link holds as long as it has no character Markdown or an address reads."""
    [course] = load_courses(renamed_module(tmp_path, "01 основы & b"), LANGS, tmp_path)
    listing = course_list([course], Languages(LANGS), "en/index.md")
    assert "(course/01%20%D0%BE%D1%81%D0%BD%D0%BE%D0%B2%D1%8B%20%26%20b/quiz.md)" in listing


def test_a_module_folder_with_spaces_and_cyrillic_builds_and_its_home_links_lead_to_its_pages(tmp_path: Path) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    (site / "exercises/demo/01-basics").rename(site / "exercises/demo/01 основы & 'b'")
    out = build_site(site / "mkdocs.yml", tmp_path / "out")
    for home in (out / "index.html", out / "en/index.html"):
        links = [a["href"] for a in BeautifulSoup(home.read_text(encoding="utf-8"), "html.parser").select("a[href]")
                 if "demo/" in a["href"]]
        assert links, home
        for href in links:
            assert (home.parent / unquote(href) / "index.html").is_file(), href
