"""Course-files zips: deterministic, linked with their size in the page's language, warnings for authors."""

from __future__ import annotations

import io
import logging
import os
import zipfile
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from support.sites import FIXTURE_SITE, build_site, copy_site
from zadachnik.core.formatting import format_number
from zadachnik.reading.coursefiles import zip_course_files
from zadachnik.rendering.i18n import file_size

ZIP = "demo/01-basics/01-basics-files.zip"


def test_zip_keeps_the_folder_structure(tmp_path: Path) -> None:
    folder = tmp_path / "files"
    (folder / "data").mkdir(parents=True)
    (folder / "notebook_ru.ipynb").write_text("{}")
    (folder / "notebook_en.ipynb").write_text("{}")
    (folder / "data" / "table.csv").write_text("a,b\n1,2\n")
    (folder / ".ipynb_checkpoints").mkdir()
    (folder / ".ipynb_checkpoints" / "x.ipynb").write_text("{}")
    archive, warnings = zip_course_files(folder, "09-pretraining", 10**6, "files")
    assert warnings == []
    names = zipfile.ZipFile(__import__("io").BytesIO(archive.data)).namelist()
    assert names == ["09-pretraining/data/table.csv", "09-pretraining/notebook_en.ipynb",
                     "09-pretraining/notebook_ru.ipynb"]
    assert archive.counts == {"data": 1, "notebooks": 2}
    assert archive.languages == ["en", "ru"]


def test_same_files_give_the_same_bytes(tmp_path: Path) -> None:
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "a.txt").write_text("hello")
    first, _ = zip_course_files(folder, "m", 10**6, "files")
    (folder / "a.txt").touch()  # a newer timestamp changes nothing
    second, _ = zip_course_files(folder, "m", 10**6, "files")
    assert first.data == second.data


def test_empty_folder_and_large_files_are_reported(tmp_path: Path) -> None:
    folder = tmp_path / "files"
    folder.mkdir()
    archive, warnings = zip_course_files(folder, "m", 10, "exercises/c/m/files")
    assert archive is None and warnings == ["exercises/c/m/files is empty: add the module's files or remove the folder"]
    (folder / "big.bin").write_bytes(b"x" * 2_000_000)
    archive, warnings = zip_course_files(folder, "m", 1_000_000, "exercises/c/m/files")
    assert archive is not None
    assert warnings == ["exercises/c/m/files/big.bin is 1.9 MiB, over the 1.0 MiB limit (course_files_max_size)"]


def test_sizes_in_each_language() -> None:
    """Kibibytes, named as such: the course itself teaches GB against GiB."""
    for lang, unit in (("ru", "КиБ"), ("en", "KiB"), ("de", "KiB"), ("fr", "Kio")):
        assert file_size(2_650_214, lang) == f"{format_number(2588.1, lang, 1)}\u00a0{unit}"


def test_exercises_page_links_the_zip_with_its_size(fixture_site: Path) -> None:
    for prefix, size in (("", "КиБ"), ("en/", "KiB")):
        page = fixture_site / prefix / "demo/01-basics/exercises/index.html"
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        link = soup.select_one("a[data-zq-files]")
        assert (page.parent / link["href"]).resolve() == (fixture_site / ZIP).resolve()
        assert soup.select_one(".zq-files__size").get_text().endswith(size)
        assert "1" in soup.select_one(".zq-files__about").get_text()
    quiz = BeautifulSoup((fixture_site / "demo/01-basics/quiz/index.html").read_text(), "html.parser")
    assert quiz.select_one("a[data-zq-files]") is None, "the exercises page links the files"


def test_rebuilds_give_identical_zips(tmp_path: Path) -> None:
    build_site(FIXTURE_SITE / "mkdocs.yml", tmp_path / "one")
    build_site(FIXTURE_SITE / "mkdocs.yml", tmp_path / "two")
    assert (tmp_path / "one" / ZIP).read_bytes() == (tmp_path / "two" / ZIP).read_bytes()


def test_module_without_files_has_no_link_and_empty_files_warns(tmp_path: Path, caplog) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    files = site / "exercises/demo/01-basics/files"
    for path in files.iterdir():
        path.unlink()
    exercises = site / "exercises/demo/01-basics/exercises.md"
    exercises.write_text(exercises.read_text().replace(
        'notebooks:\n  - file: notebook.ipynb\n    section: {ru: "1. Начало", en: "1. Start"}\n', ""))
    with caplog.at_level(logging.WARNING):
        build_site(site / "mkdocs.yml", tmp_path / "out", strict=False)
    assert "exercises/demo/01-basics/files is empty" in caplog.text
    page = tmp_path / "out/demo/01-basics/exercises/index.html"
    assert "data-zq-files" not in page.read_text()


def test_modules_of_two_courses_with_one_folder_name_link_their_own_zips(tmp_path: Path) -> None:
    """Was a bug: zips were known by their name (<module folder>-files.zip), so with 01-basics in two courses each
    module's page linked the zip of the course read last."""
    import shutil

    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    other = site / "exercises/other"
    shutil.copytree(site / "exercises/demo", other)
    (other / "course.yml").write_text((other / "course.yml").read_text().replace("id: demo", "id: other"))
    (other / "01-basics/files/other-only.txt").write_text("the other course's file")
    out = build_site(site / "mkdocs.yml", tmp_path / "out")
    for course in ("demo", "other"):
        page = out / course / "01-basics/exercises/index.html"
        link = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select_one("a[data-zq-files]")
        assert (page.parent / link["href"]).resolve() == (out / course / "01-basics/01-basics-files.zip").resolve()
    names = zipfile.ZipFile(out / "demo/01-basics/01-basics-files.zip").namelist()
    assert names == ["01-basics/notebook.ipynb"]


# -- names learners' computers can't unzip as they are ---------------------------------------------------------

SHOWN = "exercises/c/m/files"


def warnings_for(tmp_path: Path, *names: str) -> list[str]:
    """The warnings of a files/ folder holding a file at each of `names` (a '/' makes folders); the zip is made
    all the same, with every file in it."""
    folder = tmp_path / "files"
    for name in names:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("x")
    archive, warnings = zip_course_files(folder, "m", 10**6, SHOWN)
    assert archive is not None and len(zipfile.ZipFile(io.BytesIO(archive.data)).namelist()) == len(names)
    return warnings


def test_names_that_differ_only_in_case_are_warned_of_once(tmp_path: Path) -> None:
    """Was silent: unzipped on Windows or macOS, Data.csv and data.csv are one file and one of them is lost."""
    warnings = warnings_for(tmp_path, "Data.csv", "data.csv", "Sub/x.txt", "sub/x.txt", "sub/y.txt")
    assert warnings == [
        f"{SHOWN}/data.csv: the name differs only in case from {SHOWN}/Data.csv: unzipped on Windows or macOS, "
        "one file overwrites the other (rename one of them)",
        f"{SHOWN}/sub: the name differs only in case from {SHOWN}/Sub: unzipped on Windows or macOS, the two "
        "folders become one, and a file in both is kept once (rename one of them)",
    ]


@pytest.mark.parametrize("name, problem", [
    ("con.txt", "is kept by Windows for a device (CON, whatever follows the dot)"),
    ("AUX", "is kept by Windows for a device (AUX, whatever follows the dot)"),
    ("com1.py", "is kept by Windows for a device (COM1, whatever follows the dot)"),
    ("a:b.txt", "has ':', which Windows does not allow in a name"),
    ("q?.txt", "has '?', which Windows does not allow in a name"),
    ("pipe|.txt", "has '|', which Windows does not allow in a name"),
    ("back\\slash.csv", "has '\\', which Windows reads as a folder separator"),
    ("trail.", "ends with a dot, which Windows drops"),
    ("trail ", "ends with a space, which Windows drops"),
    ("nul/inside.txt", "is kept by Windows for a device (NUL, whatever follows the dot)"),
])
def test_names_windows_cannot_create_are_warned_of(tmp_path: Path, name: str, problem: str) -> None:
    warned = name.split("/")[0]
    [warning] = warnings_for(tmp_path, name, "fine.txt")
    assert warning.startswith(f"{SHOWN}/{warned}: the name '{warned}' {problem}: learners on Windows can't unzip it"
                              " as it is (rename it, using letters"), warning


def test_paths_too_long_for_windows_are_warned_of(tmp_path: Path) -> None:
    deep = "/".join(f"очень_длинное_имя_папки_{n}" for n in range(8))
    [warning] = warnings_for(tmp_path, f"{deep}/данные.csv", "short.csv")
    assert warning.startswith(f"{SHOWN}/{deep}/данные.csv: its path in the zip is 220 characters long"), warning
    assert "260" in warning and "shorten" in warning


# -- folders the zip keeps though no file of theirs goes in -------------------------------------------------------


def test_a_folder_left_empty_is_kept_in_the_zip_as_a_folder(tmp_path: Path) -> None:
    """Was a bug: the zip held files only, so output/ (kept in git by a .gitkeep, which the zip leaves out) was
    gone after unzipping, and a notebook writing into it failed."""
    folder = tmp_path / "files"
    (folder / "output").mkdir(parents=True)
    (folder / "output" / ".gitkeep").write_text("")
    (folder / "runs" / "logs").mkdir(parents=True)
    (folder / "runs" / "__pycache__").mkdir()
    (folder / "data").mkdir()
    (folder / "data" / "table.csv").write_text("a,b\n")
    (folder / "notebook.ipynb").write_text("{}")
    archive, warnings = zip_course_files(folder, "m", 10**6, "files")
    assert warnings == []
    entries = zipfile.ZipFile(io.BytesIO(archive.data)).infolist()
    assert [entry.filename for entry in entries] == ["m/data/table.csv", "m/notebook.ipynb", "m/output/",
                                                     "m/runs/logs/"]
    assert [entry.is_dir() for entry in entries] == [False, False, True, True]
    # The page counts files: a folder is none.
    assert archive.counts == {"data": 1, "notebooks": 1}


def test_a_zip_with_empty_folders_is_the_same_bytes_each_time(tmp_path: Path) -> None:
    folder = tmp_path / "files"
    (folder / "output").mkdir(parents=True)
    (folder / "a.txt").write_text("hello")
    first, _ = zip_course_files(folder, "m", 10**6, "files")
    os.utime(folder / "output", (0, 0))  # a folder's time is not the zip's
    second, _ = zip_course_files(folder, "m", 10**6, "files")
    assert first.data == second.data
    [output] = [entry for entry in zipfile.ZipFile(io.BytesIO(first.data)).infolist() if entry.is_dir()]
    assert output.date_time == (1980, 1, 1, 0, 0, 0) and output.external_attr >> 16 == 0o40755


def test_only_empty_folders_is_an_empty_files_folder(tmp_path: Path) -> None:
    folder = tmp_path / "files"
    (folder / "output").mkdir(parents=True)
    (folder / "output" / ".gitkeep").write_text("")
    archive, warnings = zip_course_files(folder, "m", 10**6, "exercises/c/m/files")
    assert archive is None and warnings == ["exercises/c/m/files is empty: add the module's files or remove the folder"]


def test_an_empty_folder_with_a_name_windows_cannot_create_is_warned_of(tmp_path: Path) -> None:
    folder = tmp_path / "files"
    (folder / "aux").mkdir(parents=True)
    (folder / "a.txt").write_text("x")
    [warning] = zip_course_files(folder, "m", 10**6, SHOWN)[1]
    assert warning.startswith(f"{SHOWN}/aux: the name 'aux' is kept by Windows for a device"), warning
