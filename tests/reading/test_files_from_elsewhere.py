"""Files from Windows, Word, Google Docs and old editors (an audit of such files): old Mac line endings, UTF-16
without a mark, no-break spaces and typographic characters where YAML or a list needs its own. Each is named at
its own line, with what to write instead."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.sites import FIXTURE_SITE, build_failure, copy_site
from support.sources import (
    EN_NUMERIC,
    LANGS,
    MODULE,
    MODULE_DIR,
    MODULE_YML,
    QUIZ,
    RU_NUMERIC,
    block,
    checker_question,
    code_question,
    line_with,
    load,
    numeric,
    one_error,
    write_course,
)
from zadachnik.core.errors import SourceError, SourceErrors
from zadachnik.reading.model import load_courses


def one_error_of(base: Path) -> SourceError:
    """The one problem of the course already written under base (a file changed after write_course)."""
    with pytest.raises(SourceErrors) as info:
        load_courses(base / "exercises", LANGS, base)
    assert len(info.value.errors) == 1, [str(error) for error in info.value.errors]
    return info.value.errors[0]


# -- line endings --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("slip", "words"), [
    ("\ufeff", "byte order mark"),
    ("\x01", "control character"),
    ("\u2028", "line separator"),
])
def test_old_mac_line_endings_keep_the_line_of_an_invisible_character(tmp_path: Path, slip: str, words: str) -> None:
    write_course(tmp_path, quiz=block())
    (tmp_path / MODULE_YML).write_bytes(f"number: 1\rtitle:\r  ru: X\r  en: {slip}Y\r".encode())
    error = one_error_of(tmp_path)
    assert (error.path, error.line) == (MODULE_YML, 4) and words in error.message, str(error)


def test_old_mac_line_endings_name_a_tab_as_a_tab(tmp_path: Path) -> None:
    write_course(tmp_path, quiz=block())
    (tmp_path / MODULE_YML).write_bytes(b"number: 1\rtitle:\r\tru: X\r  en: Y\r")
    error = one_error_of(tmp_path)
    assert (error.path, error.line) == (MODULE_YML, 3) and "spaces only" in str(error), str(error)


def test_old_mac_line_endings_keep_the_line_of_a_mark_inside_a_quiz(tmp_path: Path) -> None:
    quiz = block() + "\n" + "\ufeff" + block(ident="Q2")
    write_course(tmp_path, quiz=quiz.replace("\n", "\r"))
    error = one_error_of(tmp_path)
    assert error.line == quiz.count("\n", 0, quiz.index("\ufeff")) + 1, str(error)



# -- blank lines that hold a tab -------------------------------------------------------------------------------------


def test_a_blank_line_holding_a_tab_in_module_yml_is_blank(tmp_path: Path) -> None:
    [course] = load(tmp_path, quiz=block(), module=MODULE + "\t\n  \t \n")
    assert course.modules[0].title["en"] == "Module"


def test_blank_lines_holding_tabs_in_a_quiz_are_blank(tmp_path: Path) -> None:
    # Editors that keep indentation leave them between the YAML and the text, and inside code.
    quiz = block(yaml="type: single\nanswer: B\n\t").replace("\n\n", "\n\t\n")
    [course] = load(tmp_path, quiz=quiz + "\t\n" + block(ident="Q2"))
    assert [question.id for question in course.modules[0].questions] == ["Q1", "Q2"]


# -- UTF-16 without a byte order mark -------------------------------------------------------------------------------


@pytest.mark.parametrize(("shown", "text"), [(QUIZ, block()), (MODULE_YML, MODULE)])
@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le"])
def test_wide_unicode_without_a_mark_is_named_not_utf8(tmp_path: Path, shown: str, text: str, encoding: str) -> None:
    write_course(tmp_path, quiz=block())
    (tmp_path / shown).write_bytes(text.encode(encoding))
    error = one_error_of(tmp_path)
    assert (error.path, error.line) == (shown, 1), str(error)
    assert error.message.startswith("the file is not UTF-8 (it looks like UTF-16 or UTF-32"), str(error)
    assert "save it as UTF-8" in str(error)


def test_one_stray_nul_byte_is_still_named_at_its_line(tmp_path: Path) -> None:
    write_course(tmp_path, quiz=block(), module=MODULE + "  \x00\n")
    error = one_error_of(tmp_path)
    assert (error.line, error.message.split(" '")[0]) == (5, "YAML cannot contain the control character"), str(error)


# -- a hand-written page that is not UTF-8 --------------------------------------------------------------------------


@pytest.mark.parametrize(("encoding", "says"), [
    ("cp1251", "docs/index.md:1: the file is not UTF-8 (byte 0x"),
    ("utf-16", "docs/index.md:1: the file is not UTF-8 (it starts with a UTF-16 byte order mark)"),
])
def test_a_hand_written_page_not_in_utf8_is_named_as_the_course_sources_are(tmp_path: Path, caplog, encoding: str,
                                                                            says: str) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    page = site / "docs/index.md"
    page.write_bytes(page.read_text(encoding="utf-8").encode(encoding))
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert says in message and "save it as UTF-8" in message, message


# -- no-break spaces and look-alikes where YAML or a list needs its own character -----------------------------------

SECTION = "/// section | S1\nru:\u00a0Выбор\nen: Choice\n///\n"
NBSP = "\u00a0"


def answer_b(space: str) -> str:
    return block(yaml=f"type: single\nanswer:{space}B")


@pytest.mark.parametrize(("files", "written", "says"), [
    *[({"quiz": answer_b(space)}, f"answer:{space}B", f"{name} (U+{ord(space):04X}) after 'answer:'")
      for space, name in (("\u00a0", "no-break space"), ("\u2007", "figure space"),
                          ("\u202f", "narrow no-break space"), ("\u3000", "ideographic space"))],
    ({"module": MODULE.replace("number: 1", f"number:{NBSP}1")}, f"number:{NBSP}1", "after 'number:'"),
    ({"module": MODULE.replace("  ru:", f"{NBSP} ru:")}, f"{NBSP} ru:", "no-break space (U+00A0) in the indentation"),
    ({"quiz": SECTION + block()}, f"ru:{NBSP}Выбор", "no-break space (U+00A0) after 'ru:'"),
    ({"quiz": code_question("def f(x):\n    return 2 * x").replace("      return", f"{NBSP}     return")},
     f"{NBSP}     return", "no-break space (U+00A0) in the indentation"),
    ({"quiz": checker_question().replace("  - {", f"  -{NBSP}{{")}, f"-{NBSP}{{", "no-break space (U+00A0) after '-'"),
    ({"quiz": block(yaml="type: single\nanswer\uff1a B")}, "answer\uff1a", "fullwidth colon (U+FF1A) after 'answer'"),
    ({"quiz": block(yaml=f"type: single\nanswer: B{NBSP}")}, f"answer: B{NBSP}",
     f"'B{NBSP}' holds an invisible no-break space (U+00A0) after 'B'"),
    ({"quiz": numeric("  x: {answer: 2}\n", ru=RU_NUMERIC.replace("- x:", "\u2013 x:"))}, "\u2013 x:",
     "en dash (U+2013)"),
    ({"quiz": numeric("  x: {answer: 2}\n", en=EN_NUMERIC.replace("- x:", "\u2022 x:"))}, "\u2022 x:",
     "bullet (U+2022)"),
])
def test_a_look_alike_of_what_yaml_or_a_list_needs_is_named_at_its_line(tmp_path: Path, files: dict[str, str],
                                                                         written: str, says: str) -> None:
    error = one_error(tmp_path, **{"quiz": block(), **files})
    text = files.get("quiz") or files["module"]
    assert (error.path, error.line) == (QUIZ if "quiz" in files else MODULE_YML, line_with(text, written)), str(error)
    assert says in str(error) and "in quotes" not in str(error), str(error)


def test_a_no_break_space_inside_a_text_is_kept(tmp_path: Path) -> None:
    # Russian typography binds short words to the next: 'в Москве'. Only where YAML needs a space is it a slip.
    [course] = load(tmp_path, quiz=block(), module=MODULE.replace("ru: Модуль", f"ru: Модуль в{NBSP}Москве"))
    assert course.modules[0].title["ru"] == f"Модуль в{NBSP}Москве"


# -- typographic quotes where YAML needs straight ones --------------------------------------------------------------


@pytest.mark.parametrize(("files", "written", "says"), [
    ({"module": MODULE.replace("ru: Модуль", "ru: “Основы: начало”")}, "“Основы", "'“' is a typographic quote"),
    ({"quiz": SECTION.replace(f"ru:{NBSP}Выбор", "ru: «Выбор: вариант»") + block()}, "«Выбор",
     "'«' is a typographic quote"),
    ({"quiz": block(yaml="type: single\nanswer: ‘B’")}, "‘B’", "'‘B’' is in typographic quotes"),
    ({"quiz": numeric("  x: {answer: «4/7»}\n")}, "«4/7»", "'«4/7»' is in typographic quotes"),
])
def test_typographic_quotes_are_told_from_straight_ones(tmp_path: Path, files: dict[str, str], written: str,
                                                        says: str) -> None:
    error = one_error(tmp_path, **{"quiz": block(), **files})
    text = files.get("quiz") or files["module"]
    assert (error.path, error.line) == (QUIZ if "quiz" in files else MODULE_YML, line_with(text, written)), str(error)
    assert says in str(error) and "straight quotes" in str(error) and "put the whole text" not in str(error), str(error)


def test_a_title_in_guillemets_above_a_slip_is_not_blamed(tmp_path: Path) -> None:
    error = one_error(tmp_path, quiz=block(), module=MODULE.replace("ru: Модуль", "ru: «Модуль»") + "  \tde: X\n")
    assert error.line == 5 and "typographic" not in str(error), str(error)


# -- values files and notebooks: their own lines, and names written on Windows ---------------------------------------

VALUES = "def values():\n    ratio = 1 / 2\n    return {'ratio': ratio}\n"


def with_values(base: Path, written: str, name: str = "files/variants.py", code: str = VALUES) -> None:
    write_course(base, quiz=block(), module=MODULE + f"values: {written}\n")
    (base / MODULE_DIR / name).parent.mkdir(parents=True, exist_ok=True)
    (base / MODULE_DIR / name).write_text(code, encoding="utf-8")


@pytest.mark.parametrize(("code", "line", "says"), [
    (VALUES.replace("    return", "\treturn"), 3, "TabError"),
    (VALUES.replace("ratio = 1", f"ratio ={NBSP}1"), 2, "U+00A0"),
    (VALUES.replace("1 / 2", "“1 / 2”"), 2, "U+201C"),
])
def test_a_syntax_error_in_a_values_file_is_placed_at_its_own_line(tmp_path: Path, code: str, line: int,
                                                                    says: str) -> None:
    with_values(tmp_path, "files/variants.py", code=code)
    error = one_error_of(tmp_path)
    assert (error.path, error.line) == (f"{MODULE_DIR}/files/variants.py", line), str(error)
    assert says in str(error) and "must return a dict" not in str(error), str(error)


@pytest.mark.parametrize(("written", "says"), [
    ("files\\variants.py", "write paths with '/': 'values: files/variants.py'"),
    (".\\files\\variants.py", "write paths with '/': 'values: ./files/variants.py'"),
    ('"files\\\\variants.py"', "write paths with '/': 'values: files/variants.py'"),
    ("files/Variants.py", "the file is 'files/variants.py'"),
    ("files/my variants #1.py", "put the name in quotes: 'values: \"files/my variants #1.py\"'"),
])
def test_a_values_file_named_as_windows_or_yaml_has_it_is_told_what_to_write(tmp_path: Path, written: str,
                                                                             says: str) -> None:
    name = "files/my variants #1.py" if "#" in written else "files/variants.py"
    with_values(tmp_path, written, name=name)
    error = one_error_of(tmp_path)
    assert (error.path, error.line) == (MODULE_YML, 5), str(error)
    assert says in str(error) and "must return a dict" not in str(error), str(error)


@pytest.mark.parametrize(("written", "says"), [
    ("sub\\notebook.ipynb", "write paths with '/': 'file: sub/notebook.ipynb'"),
    ("sub/Notebook.ipynb", "the file is 'sub/notebook.ipynb'"),
    ("my notebook #1.ipynb", "put the name in quotes: 'file: \"my notebook #1.ipynb\"'"),
])
def test_a_notebook_named_as_windows_or_yaml_has_it_is_told_what_to_write(tmp_path: Path, written: str,
                                                                          says: str) -> None:
    exercises = block(kind="exercise", ident="E1", yaml=f"notebooks:\n  - file: {written}\n    section: Раздел",
                      ru="Посчитайте.\n\nsolution:\nВот так.", en="Compute it.\n\nsolution:\nLike so.")
    write_course(tmp_path, exercises=exercises)
    name = "my notebook #1.ipynb" if "#" in written else "sub/notebook.ipynb"
    (tmp_path / MODULE_DIR / "files" / name).parent.mkdir(parents=True)
    (tmp_path / MODULE_DIR / "files" / name).write_text("{}", encoding="utf-8")
    error = one_error_of(tmp_path)
    assert error.line == line_with(exercises, "- file:") and says in str(error), str(error)


# -- links written with '\' ------------------------------------------------------------------------------------------

EXERCISE_RU = "Посчитайте.\n\nsolution:\nВот так."
EXERCISE_EN = "Compute it.\n\nsolution:\nLike so."


@pytest.mark.parametrize(("ru", "en", "written", "says"), [
    ("Откройте [тетрадь](files\\notebook.ipynb).\n\nsolution:\nВот так.", EXERCISE_EN, "files\\notebook",
     "write '/': 'files/notebook.ipynb'"),
    (EXERCISE_RU, "Compute it.\n\nsolution:\nLike so:\n\n![graph](..\\img\\pic.png)", "..\\img",
     "write '/': '../img/pic.png'"),
])
def test_a_link_written_with_backslashes_is_named_at_its_line(tmp_path: Path, ru: str, en: str, written: str,
                                                              says: str) -> None:
    exercises = block(kind="exercise", ident="E1", yaml="", ru=ru, en=en)
    error = one_error(tmp_path, exercises=exercises)
    assert (error.path, error.line) == (f"{MODULE_DIR}/exercises.md", line_with(exercises, written)), str(error)
    assert says in str(error), str(error)


@pytest.mark.parametrize("code", [
    "Так:\n\n    re.findall(r\"[a-z](\\d+)\", text)\n",
    "Или <code>m[0](\\w)</code>.\n",
])
def test_a_regex_in_indented_code_or_html_code_is_no_link(tmp_path: Path, code: str) -> None:
    """A regex such as [a-z](\\d+) in an indented code block or in <code> stopped the build as a link written
    with '\\' (the review of the audit's fix): only a target that names a file (it has an extension) is one."""
    ru = f"Посчитайте.\n\n{code}\nsolution:\nВот так."
    [course] = load(tmp_path, exercises=block(kind="exercise", ident="E1", yaml="", ru=ru, en=EXERCISE_EN))
    assert course.modules[0].exercises[0].id == "E1"


def test_backslashes_in_code_math_and_escapes_are_no_links(tmp_path: Path) -> None:
    ru = "Путь `[a](C:\\Users\\a)`, $[0, 1](x\\in X)$ и [ссылка](https://example.org/a\\_b).\n\nsolution:\nВот так."
    [course] = load(tmp_path, exercises=block(kind="exercise", ident="E1", yaml="", ru=ru, en=EXERCISE_EN))
    assert course.modules[0].exercises[0].id == "E1"
