"""SCORM packages as an LMS's importer reads them: the manifest's structure in each version, the files it names
(exactly those in the zip), the module's pages and nothing of the rest of the site; the sample course's module 12
packaged by the command. tests/browser/test_browser_scorm.py runs the packages inside a SCORM runtime."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as etree
import zipfile
from pathlib import Path
from urllib.parse import unquote

import pytest
from support.node import run_node_tests
from support.sites import FIXTURE_SITE, book_sources, copy_site, sample_copy
from zadachnik.cli import main
from zadachnik.exports.scorm import VERSIONS, page_of, with_links_kept_inside

# The namespaces of each version's manifest, as the standard's schemas name them.
CP = {"scorm12": "{http://www.imsproject.org/xsd/imscp_rootv1p1p2}",
      "scorm2004": "{http://www.imsglobal.org/xsd/imscp_v1p1}"}
ADLCP = {"scorm12": "{http://www.adlnet.org/xsd/adlcp_rootv1p2}",
         "scorm2004": "{http://www.adlnet.org/xsd/adlcp_v1p3}"}


def export(sources: Path, out: Path, version: str, lang: str, *selection: str) -> list[Path]:
    assert main(["export", str(sources / "exercises"), *selection, "--format", version, "--language", lang,
                 "--config", str(sources / "mkdocs.yml"), "--out", str(out)]) == 0
    return sorted(out.glob("*.zip"))


@pytest.fixture(scope="module")
def sample_packages(tmp_path_factory) -> dict[str, list[Path]]:
    """The sample course's RL course (module 12) in both versions: a module's package and the course's."""
    work = tmp_path_factory.mktemp("scorm-sample")
    sources = sample_copy(work / "src")
    return {"scorm12": export(sources, work / "12", "scorm12", "ru", "rl-for-llm"),
            "scorm2004": export(sources, work / "2004", "scorm2004", "en", "rl-for-llm")}


def manifest_of(package: Path) -> tuple[etree.Element, list[str]]:
    with zipfile.ZipFile(package) as opened:
        names = opened.namelist()
        return etree.fromstring(opened.read("imsmanifest.xml")), names


@pytest.mark.parametrize("version", VERSIONS)
def test_the_sample_module_12_packages_with_a_manifest_any_lms_reads(sample_packages, version: str) -> None:
    cp, adlcp = CP[version], ADLCP[version]
    lang = "ru" if version == "scorm12" else "en"
    module, course = f"rl-for-llm-12-infrastructure-{lang}.{version}.zip", f"rl-for-llm-{lang}.{version}.zip"
    packages = {path.name: path for path in sample_packages[version]}
    assert sorted(packages) == sorted([module, course])
    manifest, names = manifest_of(packages[module])
    assert names[0] == "imsmanifest.xml"
    assert manifest.tag == f"{cp}manifest"
    assert manifest.find(f"{cp}metadata/{cp}schema").text == "ADL SCORM"
    assert manifest.find(f"{cp}metadata/{cp}schemaversion").text == VERSIONS[version].schema_version
    organizations = manifest.find(f"{cp}organizations")
    [organization] = organizations.findall(f"{cp}organization")
    assert organizations.get("default") == organization.get("identifier")
    [item] = organization.findall(f"{cp}item")
    assert item.find(f"{cp}title").text.startswith("Модуль 12." if lang == "ru" else "Module 12.")
    resources = {resource.get("identifier"): resource for resource in manifest.find(f"{cp}resources")}
    sco = resources[item.get("identifierref")]
    assert sco.get(f"{adlcp}{VERSIONS[version].scorm_type}") == "sco"
    assert sco.get("type") == "webcontent"
    assert sco.get("href") == "launch-rl-for-llm-12.html"
    [dependency] = sco.findall(f"{cp}dependency")
    assert resources[dependency.get("identifierref")].get(f"{adlcp}{VERSIONS[version].scorm_type}") == "asset"
    # Every file is named once by one resource, and the manifest names exactly what the zip holds.
    listed = [unquote(file.get("href")) for resource in resources.values() for file in resource.findall(f"{cp}file")]
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(name for name in names if name != "imsmanifest.xml")
    prefix = "" if lang == "ru" else "en/"
    assert f"{prefix}rl-for-llm/12-infrastructure/quiz.html" in listed
    assert "assets/zadachnik/js/lms.bundle.js" in listed
    # The bridge joins fflate (MIT), whose licence goes with it; the site itself has no use for it.
    library = "assets/zadachnik/fflate/"
    assert f"{library}LICENSE" in listed
    assert [name for name in names if name.startswith(library)] == [f"{library}LICENSE"]
    # Nothing of the rest of the site: no other course, no home page, no search.
    assert not [name for name in names if name.startswith(("modern-llms/", "en/modern-llms/", "search/"))
                or name in ("index.html", "en/index.html", "404.html", "sitemap.xml")]
    # No mastery score: Moodle applies one at LMSFinish by default and made a learner who left midway "failed".
    assert item.find(f"{adlcp}masteryscore") is None


def test_a_course_package_has_one_sco_per_module(tmp_path: Path) -> None:
    sources = copy_site(FIXTURE_SITE, tmp_path / "src")
    second = sources / "exercises" / "demo" / "02-more"
    shutil.copytree(sources / "exercises" / "demo" / "01-basics", second)
    module_yml = second / "module.yml"
    module_yml.write_text(module_yml.read_text(encoding="utf-8").replace("number: 1", "number: 2"), encoding="utf-8")
    packages = export(sources, tmp_path / "out", "scorm2004", "en", "demo")
    assert [path.name for path in packages] == ["demo-01-basics-en.scorm2004.zip", "demo-02-more-en.scorm2004.zip",
                                                "demo-en.scorm2004.zip"]
    manifest, names = manifest_of(packages[2])
    cp = CP["scorm2004"]
    items = manifest.findall(f"{cp}organizations/{cp}organization/{cp}item")
    assert [item.find(f"{cp}title").text.split(".")[0] for item in items] == ["Module 1", "Module 2"]
    assert {"launch-demo-1.html", "launch-demo-2.html", "en/demo/01-basics/quiz.html",
            "en/demo/02-more/quiz.html"} <= set(names)


def test_links_to_pages_outside_the_package_keep_their_text_and_lose_their_address() -> None:
    page = ('<a href="../../index.html" class="md-logo">Home</a> <a href="quiz.html#q-Q1">Q1</a> '
            '<a href="https://example.org/">out</a> <a href="#top">top</a> <a href="../02-more/quiz.html">next</a> '
            '<a href="files.zip">files</a>')
    kept = with_links_kept_inside(page, "en/demo/01-basics/exercises.html", {"en/demo/01-basics/quiz.html"})
    assert kept == ('<a class="md-logo">Home</a> <a href="quiz.html#q-Q1">Q1</a> '
                    '<a href="https://example.org/">out</a> <a href="#top">top</a> <a>next</a> '
                    '<a href="files.zip">files</a>')
    assert page_of("a/b.html", "../../x.html") is None
    assert page_of("a/b.html", "c%20d.html") == "a/c d.html"


def test_a_module_package_carries_the_files_its_pages_link(tmp_path: Path) -> None:
    sources = copy_site(FIXTURE_SITE, tmp_path / "src")
    [package] = export(sources, tmp_path / "out", "scorm12", "ru", "demo/1")
    with zipfile.ZipFile(package) as opened:
        names = set(opened.namelist())
        exercises = opened.read("demo/01-basics/exercises.html").decode("utf-8")
    assert {"demo/01-basics/quiz.html", "demo/01-basics/exercises.html", "demo/01-basics/book.html"} <= names
    files = [name for name in names if name.startswith("demo/01-basics/") and name.endswith(".zip")]
    assert files, "the module's course files"
    assert files[0].rsplit("/", 1)[1] in exercises


def test_an_exam_modules_package_carries_its_book_without_answers(tmp_path: Path) -> None:
    """The exam's page links its book, which the package carries: it prints the statements and no hint, answer or
    solution (the exam's own page shows its explanations once it is submitted)."""
    sources = book_sources(tmp_path)
    [package] = export(sources, tmp_path / "out", "scorm12", "en", "demo/2")
    with zipfile.ZipFile(package) as opened:
        quiz = opened.read("en/demo/02-more/quiz.html").decode("utf-8")
        book = opened.read("en/demo/02-more/book.html").decode("utf-8")
    assert 'href="book.html"' in quiz and "data-zq-exam" in quiz
    assert "Question D1" in book and "COLLAPSED-TEXT-D1" in book
    assert [text for text in ("HINT-D1", "EXPLANATION-D1", "Because", "SOLUTION-A", "Free form") if text in book] \
        == []


def test_a_package_needs_the_sites_mkdocs_yml(tmp_path: Path, capsys) -> None:
    exercises = copy_site(FIXTURE_SITE, tmp_path / "src") / "exercises"
    (tmp_path / "src" / "mkdocs.yml").unlink()
    assert main(["export", str(exercises), "--format", "scorm12", "--language", "ru", "--languages", "ru,en",
                 "--out", str(tmp_path / "out")]) == 2
    assert "give the site's mkdocs.yml with --config" in capsys.readouterr().err


def test_an_unknown_format_names_the_scorm_ones_and_a_pass_mark_is_a_percentage(tmp_path: Path, capsys) -> None:
    sources = copy_site(FIXTURE_SITE, tmp_path / "src")
    assert main(["export", str(sources / "exercises"), "--format", "scorm", "--language", "ru"]) == 2
    assert "scorm12, scorm2004" in capsys.readouterr().err
    assert main(["export", str(sources / "exercises"), "--format", "scorm12", "--language", "ru",
                 "--pass-mark", "150"]) == 2
    assert "a percentage from 0 to 100" in capsys.readouterr().err


def test_a_site_that_does_not_build_says_why_and_writes_nothing(tmp_path: Path, capsys) -> None:
    sources = copy_site(FIXTURE_SITE, tmp_path / "src")
    config = sources / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("docs_dir: docs", "docs_dir: missing"),
                      encoding="utf-8")
    assert main(["export", str(sources / "exercises"), "--format", "scorm12", "--language", "ru",
                 "--config", str(config), "--out", str(tmp_path / "out")]) == 2
    assert "could not be built for the package" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
    assert not list(sources.glob(".zadachnik-package-*")), "the build's configuration is removed"


def test_the_bridges_own_rules() -> None:
    run_node_tests("js_lms.test.mjs")
