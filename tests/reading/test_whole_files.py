"""Mistakes with a whole file or folder rather than a line of it (an author's audit): a file saved in another
encoding, a folder where the site would publish it, a page the plugin would replace, a file with nothing in it.
Each is reported with the file, the line where there is one, and what to do, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.sources import COURSE, MODULE, MODULE_DIR, MODULE_YML, QUIZ, block, one_error, write_course
from zadachnik.core.errors import SourceErrors
from zadachnik.reading.model import load_courses

COURSE_YML = "exercises/course/course.yml"


def first_line_outside_ascii(text: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), start=1) if not line.isascii())


# -- encodings ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "shown", "text", "encoding"), [
    ("quiz.md", QUIZ, block(), "cp1251"),
    ("quiz.md", QUIZ, block(en="Größe?\n\noptions:\nA. a\nB. b\n\nexplanation:\nSo.", ru=None), "latin-1"),
    ("module.yml", MODULE_YML, MODULE, "cp1251"),
    ("course.yml", COURSE_YML, COURSE, "cp1251"),
])
def test_a_file_in_another_encoding_is_named_at_its_first_bad_line(tmp_path: Path, name: str, shown: str, text: str,
                                                                   encoding: str) -> None:
    exercises = write_course(tmp_path, quiz=block())
    (tmp_path / shown).write_bytes(text.encode(encoding))
    languages = ["en"] if "ru:" not in text and "//// ru" not in text else ["ru", "en"]
    with pytest.raises(SourceErrors) as info:
        load_courses(exercises, languages, tmp_path)
    assert [str(error).split(" (")[0] for error in info.value.errors] == [
        f"{shown}:{first_line_outside_ascii(text)}: the file is not UTF-8"], name
    assert "save it as UTF-8" in str(info.value.errors[0])


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
def test_a_wide_unicode_file_is_named_by_its_byte_order_mark(tmp_path: Path, encoding: str) -> None:
    exercises = write_course(tmp_path, quiz=block())
    (tmp_path / QUIZ).write_bytes(block().encode(encoding))
    with pytest.raises(SourceErrors) as info:
        load_courses(exercises, ["ru", "en"], tmp_path)
    [error] = info.value.errors
    assert (error.path, error.line) == (QUIZ, 1)
    assert f"{encoding.upper()} byte order mark" in error.message and "save it as UTF-8" in str(error)


def test_a_values_file_in_another_encoding_is_named_at_its_line(tmp_path: Path) -> None:
    write_course(tmp_path, quiz=block(), module=MODULE + "values: values.py\n")
    (tmp_path / MODULE_DIR / "values.py").write_bytes("def values():\n    # Größe\n    return {}\n".encode("latin-1"))
    error = one_error_at(tmp_path)
    assert str(error).startswith(f"{MODULE_DIR}/values.py:2: the file is not UTF-8 (byte 0xf6 in column 9)")


def one_error_at(base: Path):
    with pytest.raises(SourceErrors) as info:
        load_courses(base / "exercises", ["ru", "en"], base)
    assert len(info.value.errors) == 1, [str(error) for error in info.value.errors]
    return info.value.errors[0]


def test_a_utf8_byte_order_mark_at_the_start_is_fine(tmp_path: Path) -> None:
    exercises = write_course(tmp_path, quiz=block())
    for shown in (QUIZ, MODULE_YML, COURSE_YML):
        path = tmp_path / shown
        path.write_bytes(path.read_text(encoding="utf-8").encode("utf-8-sig"))
    [course] = load_courses(exercises, ["ru", "en"], tmp_path)
    assert course.modules[0].questions[0].id == "Q1"


def test_a_words_file_in_another_encoding_is_named_with_what_to_do(tmp_path: Path) -> None:
    from zadachnik.rendering.i18n import WordsError, load_site_words

    (tmp_path / "words.yml").write_bytes("check: Prüfen\n".encode("latin-1"))
    with pytest.raises(WordsError) as info:
        load_site_words({"de": "words.yml"}, tmp_path)
    assert str(info.value).startswith("words: de: words.yml:1: the file is not UTF-8 (byte 0xfc in column 10)")


# -- files with nothing in them ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "  \n\n\t\n", "<!-- Questions to come:\n  Q1 on units. -->\n"],
                         ids=["empty", "blank", "comment"])
@pytest.mark.parametrize(("name", "what", "opener"), [("quiz", "question", "/// question | ID"),
                                                      ("exercises", "exercise", "/// exercise | ID")])
def test_a_source_file_with_no_block_is_refused_with_what_to_write(tmp_path: Path, text: str, name: str, what: str,
                                                                   opener: str) -> None:
    """It built an empty page ("Checked 0 / 0") in the navigation, strictly and without a word."""
    files = {"quiz": block(), name: text} if name == "exercises" else {name: text}
    error = one_error(tmp_path, **files)
    assert (error.path, error.line) == (f"{MODULE_DIR}/{name}.md", 1)
    assert error.message == f"{name}.md holds no {what}"
    assert f"write a '{opener}' block" in error.hint and "or delete the file" in error.hint
