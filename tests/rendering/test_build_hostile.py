"""Hostile or careless author input at build time: each case is refused quickly with file:line and what to write
instead, or accepted on purpose, never a traceback, a hang or a leak.

Most cases load a small course with `load_courses` (milliseconds); a few build the fixture site to see the
message the author gets from `mkdocs build`.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support.sites import FIXTURE_SITE, add_second_module, build_failure, copy_site
from zadachnik.core.errors import SourceError, SourceErrors
from zadachnik.reading.coursefiles import CourseFileProblem, UnsafeLink, zip_course_files
from zadachnik.reading.model import Course, load_courses
from zadachnik.reading.yamlsource import YamlProblem, load_with_lines

LANGS = ["ru", "en"]
MODULE_DIR = "exercises/course/01-m"
COURSE = "id: course\ntitle:\n  ru: Курс\n  en: Course\nmodules: 3\n"
MODULE = "number: 1\ntitle:\n  ru: Модуль\n  en: Module\n"
QUESTION_YAML = "type: single\nanswer: B"
RU = "Сколько будет 2+2?\n\noptions:\nA. Три\nB. Четыре\nC. Пять\n\nexplanation:\nПотому что так."
EN = "What is 2+2?\n\noptions:\nA. Three\nB. Four\nC. Five\n\nexplanation:\nBecause it is."
BOM = "\ufeff"


def question(yaml: str = QUESTION_YAML, ident: str = "Q1") -> str:
    return (f"/// question | {ident}\n{yaml}\n\n//// ru | Вопрос\n{RU}\n////\n\n"
            f"//// en | Question\n{EN}\n////\n///\n")


def exercise(yaml: str = "") -> str:
    return (f"/// exercise | E1\n{yaml}\n\n//// ru | Упражнение\nПосчитайте.\n\nsolution:\nВот так.\n////\n\n"
            f"//// en | Exercise\nCompute it.\n\nsolution:\nLike so.\n////\n///\n")


def write_course(base: Path, quiz: str | None = None, exercises: str | None = None, course: str = COURSE,
                 module: str = MODULE) -> Path:
    """exercises/course/{course.yml, 01-m/{module.yml, quiz.md, exercises.md}} under base; returns exercises/."""
    module_dir = base / MODULE_DIR
    module_dir.mkdir(parents=True, exist_ok=True)
    (module_dir.parent / "course.yml").write_text(course, encoding="utf-8")
    (module_dir / "module.yml").write_text(module, encoding="utf-8")
    for name, text in (("quiz.md", quiz), ("exercises.md", exercises)):
        if text is not None:
            (module_dir / name).write_text(text, encoding="utf-8")
    return base / "exercises"


def load(base: Path, **files: str) -> list[Course]:
    return load_courses(write_course(base, **files), LANGS, base)


def one_error(base: Path, **files: str) -> SourceError:
    with pytest.raises(SourceErrors) as info:
        load(base, **files)
    errors = info.value.errors
    assert len(errors) == 1, [str(error) for error in errors]
    return errors[0]


def line_of(text: str, exact: str) -> int:
    numbers = [number for number, line in enumerate(text.splitlines(), start=1) if line == exact]
    assert len(numbers) == 1, f"{exact!r} is on lines {numbers}"
    return numbers[0]


# -- YAML anchors and aliases --------------------------------------------------------------------------

# The tester's "billion laughs": each level names the previous one nine times. Following every alias to number
# the lines took 4.8 s and 1.45 GB at 7 levels and more than two minutes at 9.
BOMB_LEVELS = 9
BOMB = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * 9)}]\n" for level in range(1, BOMB_LEVELS))


def test_alias_bomb_is_refused_at_once() -> None:
    started = time.perf_counter()
    with pytest.raises(YamlProblem) as info:
        load_with_lines("type: single\nanswer: B\n" + BOMB)
    # Refused before any pass follows an alias: a tenth of a millisecond, against minutes before.
    assert time.perf_counter() - started < 10
    # The first anchor, on the third line of the text (0-based offset 2).
    assert info.value.line_offset == 2
    assert "&a0" in str(info.value) and "write the value out" in str(info.value)


@pytest.mark.parametrize("yaml, marker, offset", [
    ("type: single\nanswer: &right B\nwrong: *right", "&right", 1),
    ("type: single\nanswer: B\nwrong: *nowhere", "*nowhere", 2),
    ("type: single\n<<: &base {answer: B}", "&base", 1),
])
def test_anchor_or_alias_alone_is_refused(yaml: str, marker: str, offset: int) -> None:
    with pytest.raises(YamlProblem) as info:
        load_with_lines(yaml)
    assert marker in str(info.value)
    assert info.value.line_offset == offset


def test_ampersands_and_stars_in_values_are_text() -> None:
    data, _ = load_with_lines('title: "Q&A * notes"\nformula: a*b & c\nlist: ["*", "&"]')
    assert data == {"title": "Q&A * notes", "formula": "a*b & c", "list": ["*", "&"]}


@pytest.mark.parametrize("word", ["No", "no", "On", "off", "Yes", "y", "n"])
def test_yes_no_on_off_are_text_not_booleans(tmp_path: Path, word: str) -> None:
    """YAML 1.1 reads these as booleans: a module titled 'No' or 'On' showed "False" or "True"."""
    assert load_with_lines(f"title: {word}")[0] == {"title": word}
    course = load(tmp_path, quiz=question(), module=f"number: 1\ntitle:\n  ru: {word}\n  en: {word}\n")[0]
    assert course.modules[0].title == {"ru": word, "en": word}


def test_true_and_false_are_still_booleans() -> None:
    assert load_with_lines("a: true\nb: False\nc: TRUE")[0] == {"a": True, "b": False, "c": True}


def test_alias_in_a_quiz_block_names_its_line(tmp_path: Path) -> None:
    quiz = question(yaml="type: single\nanswer: B\n" + BOMB)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (f"{MODULE_DIR}/quiz.md", line_of(quiz, "a0: &a0 [x, x, x, x, x, x, x, x, x]"))
    assert "anchor" in error.message


def test_alias_in_an_exercise_block_names_its_line(tmp_path: Path) -> None:
    exercises = exercise(yaml="notebooks: &n []\nfiles: *n")
    error = one_error(tmp_path, quiz=question(), exercises=exercises)
    assert (error.path, error.line) == (f"{MODULE_DIR}/exercises.md", line_of(exercises, "notebooks: &n []"))


@pytest.mark.parametrize("name, text, line", [
    ("course.yml", "id: course\ntitle: &t\n  ru: Курс\n  en: Course\nmodules: 3\n", 2),
    ("01-m/module.yml", "number: 1\ntitle:\n  ru: Модуль\n  en: Module\nvalues: *v\n", 5),
])
def test_alias_in_course_and_module_yml_names_its_line(tmp_path: Path, name: str, text: str, line: int) -> None:
    files = {"course": text} if name == "course.yml" else {"module": text}
    error = one_error(tmp_path, quiz=question(), **files)
    assert (error.path, error.line) == (f"exercises/course/{name}", line)
    assert "write the value out" in (error.message + error.hint)


def test_deep_nesting_is_refused_not_a_recursion_error(tmp_path: Path) -> None:
    # libyaml stops at 1,000 levels; just under that, constructing the value overflowed Python's stack.
    depth = 990
    module = MODULE + "values: " + "[" * depth + "]" * depth + "\n"
    error = one_error(tmp_path, quiz=question(), module=module)
    assert (error.path, error.line) == (f"{MODULE_DIR}/module.yml", 5)
    assert "nested" in error.message



def test_whole_number_too_long_is_refused_not_a_value_error(tmp_path: Path) -> None:
    """Was a bug: past 4,300 digits Python refuses to read an int, and its ValueError escaped load_courses."""
    quiz = question(yaml="type: single\nanswer: B\nwrong: " + "9" * 5000)
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (f"{MODULE_DIR}/quiz.md", 4)
    assert "5000 digits" in error.message and len(error.message) < 200


# -- a UTF-8 byte order mark: accepted at the start of every kind of source -----------------------------
# Windows editors write one; MkDocs accepts it in Markdown pages, so the course sources accept it too.


@pytest.mark.parametrize("where", ["course", "module", "quiz", "exercises"])
def test_byte_order_mark_at_the_start_is_accepted(tmp_path: Path, where: str) -> None:
    files = {"course": COURSE, "module": MODULE, "quiz": question(), "exercises": exercise()}
    files[where] = BOM + files[where]
    module = load(tmp_path, **files)[0].modules[0]
    assert [q.id for q in module.questions] == ["Q1"] and [e.id for e in module.exercises] == ["E1"]
    assert load_courses(tmp_path / "exercises", LANGS, tmp_path)[0].title == {"ru": "Курс", "en": "Course"}


def test_byte_order_mark_at_the_start_of_a_comment_line(tmp_path: Path) -> None:
    module = load(tmp_path, quiz=BOM + "<!-- notes -->\n" + question())[0].modules[0]
    assert [q.id for q in module.questions] == ["Q1"]


@pytest.mark.parametrize("where", ["quiz", "module"])
def test_byte_order_mark_inside_a_file_is_named(tmp_path: Path, where: str) -> None:
    # Two files pasted together: the second one's mark is invisible in an editor.
    if where == "quiz":
        quiz = question() + "\n" + BOM + question(ident="Q2")
        error = one_error(tmp_path, quiz=quiz)
        assert (error.path, error.line) == (f"{MODULE_DIR}/quiz.md", line_of(quiz, BOM + "/// question | Q2"))
    else:
        error = one_error(tmp_path, quiz=question(), module=MODULE.replace("title:", BOM + "title:"))
        assert (error.path, error.line) == (f"{MODULE_DIR}/module.yml", 2)
    assert "U+FEFF" in error.message and "delete" in (error.message + error.hint)



@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x1c"])
def test_unusual_line_separators_do_not_shift_line_numbers(tmp_path: Path, separator: str) -> None:
    """Was a bug (source.split_blocks): str.splitlines also breaks at U+2028 and the like (pasted from the web),
    which editors don't count as lines, so every later line number was one off."""
    quiz = question().replace("Сколько будет 2+2?", f"Сколько{separator}будет 2+2?") + "\n" + question(
        yaml="type: single\nanswer: B\nbogus: 1", ident="Q2")
    error = one_error(tmp_path, quiz=quiz)
    assert (error.path, error.line) == (f"{MODULE_DIR}/quiz.md", quiz.split("\n").index("bogus: 1") + 1)



@pytest.mark.parametrize("where", ["module", "quiz"])
def test_unusual_line_separator_in_yaml_is_named_at_its_line(tmp_path: Path, where: str) -> None:
    """YAML counts U+2028, U+2029 and U+0085 as line breaks, editors don't: refused where it is, so no later line
    number is off."""
    if where == "module":
        error = one_error(tmp_path, quiz=question(), module=MODULE.replace("ru: Модуль", "ru: Мо\u2028дуль"))
        assert (error.path, error.line) == (f"{MODULE_DIR}/module.yml", 3)
    else:
        quiz = question(yaml="type: single\nanswer: B\nwrong: {A: \"Три\u2029\"}")
        error = one_error(tmp_path, quiz=quiz)
        assert (error.path, error.line) == (f"{MODULE_DIR}/quiz.md", 4)
    assert "U+202" in error.message and "delete" in error.message


# -- links in a module's files/ -------------------------------------------------------------------------
# The course-files zip is public: a link must never carry a file from outside the module into it.

FILES_SHOWN = "exercises/c/m/files"


def module_with_files(tmp_path: Path) -> tuple[Path, Path]:
    """exercises/c/m with files/notebook.ipynb, and a secret file outside the module; returns (files/, secret)."""
    files = tmp_path / "exercises/c/m/files"
    files.mkdir(parents=True)
    (files / "notebook.ipynb").write_text("{}")
    secret = tmp_path / "secret.txt"
    secret.write_text("password")
    return files, secret


def zipped(files: Path) -> dict[str, bytes]:
    import io
    import zipfile

    archive, _ = zip_course_files(files, "m", 10**6, FILES_SHOWN)
    assert archive is not None
    with zipfile.ZipFile(io.BytesIO(archive.data)) as opened:
        return {name: opened.read(name) for name in opened.namelist()}


def refused(files: Path) -> str:
    with pytest.raises(UnsafeLink) as info:
        zip_course_files(files, "m", 10**6, FILES_SHOWN)
    assert isinstance(info.value, OSError), "the plugin reports OSErrors from zipping as build errors"
    return str(info.value)


def test_link_to_a_file_outside_is_refused(tmp_path: Path) -> None:
    files, _ = module_with_files(tmp_path)
    (files / "passwd").symlink_to("/etc/passwd")
    message = refused(files)
    assert message.startswith(f"{FILES_SHOWN}/passwd: ")
    assert "/etc/passwd" in message and "outside the module" in message and "copy" in message


def test_relative_link_out_of_the_module_is_refused(tmp_path: Path) -> None:
    files, _ = module_with_files(tmp_path)
    (files / "data").mkdir()
    (files / "data" / "secret.txt").symlink_to("../../../../../secret.txt")
    assert refused(files).startswith(f"{FILES_SHOWN}/data/secret.txt: ")


def test_linked_folder_outside_is_refused(tmp_path: Path) -> None:
    files, secret = module_with_files(tmp_path)
    (files / "etc").symlink_to(secret.parent, target_is_directory=True)
    assert refused(files).startswith(f"{FILES_SHOWN}/etc: ")


def test_link_to_a_link_that_leaves_is_refused(tmp_path: Path) -> None:
    files, secret = module_with_files(tmp_path)
    (files / "hop").symlink_to(secret)
    (files / "innocent.txt").symlink_to("hop")
    message = refused(files)
    # Either link may be met first; both lead out.
    assert message.startswith((f"{FILES_SHOWN}/hop: ", f"{FILES_SHOWN}/innocent.txt: "))
    assert "outside the module" in message


def test_link_that_leaves_and_comes_back_is_refused(tmp_path: Path) -> None:
    files, _ = module_with_files(tmp_path)
    (tmp_path / "bounce").symlink_to(files / "notebook.ipynb")
    (files / "copy.ipynb").symlink_to(tmp_path / "bounce")
    assert refused(files).startswith(f"{FILES_SHOWN}/copy.ipynb: ")


def test_files_folder_itself_linked_outside_is_refused(tmp_path: Path) -> None:
    files, secret = module_with_files(tmp_path)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "x.txt").write_text("x")
    linked = files.parent / "linked-files"
    linked.symlink_to(outside, target_is_directory=True)
    with pytest.raises(UnsafeLink) as info:
        zip_course_files(linked, "m", 10**6, "exercises/c/m/linked-files")
    assert str(info.value).startswith("exercises/c/m/linked-files: ")


def test_link_loop_and_broken_link_are_named(tmp_path: Path) -> None:
    files, _ = module_with_files(tmp_path)
    (files / "a").symlink_to("b")
    (files / "b").symlink_to("a")
    assert "loop" in refused(files)
    (files / "a").unlink()
    (files / "b").unlink()
    (files / "gone.csv").symlink_to("nothing-here.csv")
    message = refused(files)
    assert message.startswith(f"{FILES_SHOWN}/gone.csv: ") and "nothing" in message


def test_folder_link_back_up_is_refused_not_endless(tmp_path: Path) -> None:
    files, _ = module_with_files(tmp_path)
    (files / "sub").mkdir()
    (files / "sub" / "up").symlink_to("..", target_is_directory=True)
    message = refused(files)
    assert message.startswith(f"{FILES_SHOWN}/sub/up: ") and "holds" in message


def test_links_within_the_module_are_followed(tmp_path: Path) -> None:
    files, _ = module_with_files(tmp_path)
    module = files.parent
    (module / "data").mkdir()
    (module / "data" / "table.csv").write_text("a,b\n1,2\n")
    (files / "table.csv").symlink_to("../data/table.csv")
    (files / "data").symlink_to("../data", target_is_directory=True)
    (files / "same.ipynb").symlink_to("notebook.ipynb")
    assert zipped(files) == {"m/data/table.csv": b"a,b\n1,2\n", "m/notebook.ipynb": b"{}",
                             "m/same.ipynb": b"{}", "m/table.csv": b"a,b\n1,2\n"}


def test_hidden_links_are_left_out_unfollowed(tmp_path: Path) -> None:
    files, secret = module_with_files(tmp_path)
    (files / ".secret").symlink_to(secret)
    assert zipped(files) == {"m/notebook.ipynb": b"{}"}



def test_file_name_that_is_not_utf8_is_named_not_a_crash(tmp_path: Path) -> None:
    """Was a bug: a name in another encoding (cp1251 from an old archive) raised UnicodeEncodeError in zipfile."""
    import os

    files, _ = module_with_files(tmp_path)
    with open(os.path.join(os.fsencode(files), "Пример.txt".encode("cp1251")), "w") as written:
        written.write("x")
    with pytest.raises(CourseFileProblem) as info:
        zip_course_files(files, "m", 10**6, FILES_SHOWN)
    assert isinstance(info.value, OSError)
    message = str(info.value)
    assert message.startswith(f"{FILES_SHOWN}/") and "UTF-8" in message and "rename" in message


def test_link_outside_fails_the_build_naming_the_link(tmp_path: Path, caplog) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    (site / "exercises/demo/01-basics/files/passwd").symlink_to("/etc/passwd")
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert "exercises/demo/01-basics/files/passwd: " in message and "/etc/passwd" in message
    assert "Traceback" not in message
    assert not (tmp_path / "out/demo/01-basics/01-basics-files.zip").exists()


# -- TeX: sizes, expansion, nesting, and messages that quote a window, not the whole formula ----------------

HUGE_SIZES = [
    r"\rule{100000em}{1em}",
    r"a\kern{99999em}b",
    r"a\hspace{5000cm}b",
    r"\raisebox{9999em}{x}",
    r"\begin{aligned}a\\[9999em]b\end{aligned}",
    r"\def\wide{99999em}\rule{\wide}{1pt}",
    r"a\kern -99999pt b",
    r"\def\arraystretch{1000}\begin{array}{c}a\\b\end{array}",
]


@pytest.fixture(scope="module")
def katex():
    from zadachnik.rendering.mathtex import Katex

    return Katex()


@pytest.mark.parametrize("tex", HUGE_SIZES)
def test_huge_size_is_refused(katex, tex: str) -> None:
    from zadachnik.rendering.mathtex import MathError

    with pytest.raises(MathError) as info:
        katex.render_now(tex, True)
    assert "too large" in str(info.value)


@pytest.mark.parametrize("tex", [r"\rule{0pt}{2.5em}x", r"a\hspace{2em}b\kern-0.2em c", r"a\\[1ex]b",
                                 r"a\quad b\qquad c", r"\rule{10cm}{0.4pt}",
                                 r"\def\arraystretch{1.5}\begin{array}{c}a\\b\end{array}"])
def test_ordinary_sizes_render(katex, tex: str) -> None:
    assert "katex" in katex.render_now(tex, True)


def test_macro_expansion_bomb_is_refused(katex) -> None:
    from zadachnik.rendering.mathtex import MathError

    # 30 characters, ten by ten by nine times: 300 kB of HTML and a second of V8 within KaTeX's default limit.
    tex = (r"\def\a{\b\b\b\b\b\b\b\b\b\b}\def\b{\c\c\c\c\c\c\c\c\c\c}\def\c{xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx}"
           r"\a\a\a\a\a\a\a\a\a")
    with pytest.raises(MathError) as info:
        katex.render_now(tex, True)
    assert "expansions" in str(info.value)


def test_deep_nesting_is_refused_with_a_short_quote(katex) -> None:
    from zadachnik.rendering.mathtex import MathError

    tex = "{" * 3000 + "x" + "}" * 3000
    with pytest.raises(MathError) as info:
        katex.render_now(tex, False)
    assert "nested" in str(info.value)
    assert len(info.value.tex) < 100 and len(str(info.value)) < 200


def test_parse_error_in_a_long_formula_quotes_a_window(katex) -> None:
    from zadachnik.rendering.mathtex import MathError

    tex = "x+" * 5000 + r"\frac{1"
    with pytest.raises(MathError) as info:
        katex.render_now(tex, True)
    assert info.value.tex.endswith(r"x+x+\frac{1") and info.value.tex.startswith("…")
    assert len(info.value.tex) < 100 and len(str(info.value)) < 200
    assert info.value.source == tex


def test_short_formula_is_quoted_whole(katex) -> None:
    from zadachnik.rendering.mathtex import MathError

    with pytest.raises(MathError) as info:
        katex.render_now(r"\frac{1", True)
    assert info.value.tex == r"\frac{1"



@pytest.mark.parametrize("tex", [r"\href{https://example.org}{x}", r"\url{https://example.org}",
                                 r"\includegraphics[height=1em]{https://example.org/a.png}", r"\htmlClass{a}{x}",
                                 r"\htmlStyle{color: red}{x}"])
def test_links_pictures_and_html_in_formulas_are_refused(katex, tex: str) -> None:
    """Was a silent failure: KaTeX renders a command it does not trust as its own red source text."""
    from zadachnik.rendering.mathtex import MathError

    with pytest.raises(MathError) as info:
        katex.render_now(tex, False)
    command = tex.split("{")[0].split("[")[0]
    assert f"{command} is not allowed in formulas" in str(info.value)


def test_nesting_counts_environments_once() -> None:
    from zadachnik.rendering.mathtex import MAX_NESTING, too_deep

    nested = r"\begin{matrix}" * (MAX_NESTING + 1) + "x" + r"\end{matrix}" * (MAX_NESTING + 1)
    assert too_deep(nested) is not None and too_deep(nested) < len(r"\begin{matrix}") * (MAX_NESTING + 1)
    # Environments one after another, each opened and closed: no depth left over, and none taken off.
    flat = r"\begin{aligned}a\end{aligned}" * 100 + "{" * MAX_NESTING + "x" + "}" * MAX_NESTING
    assert too_deep(flat) is None
    assert too_deep(r"\begin{aligned}a\end{aligned}" * 100 + "{" * (MAX_NESTING + 1)) is not None
    assert too_deep(r"\leftarrow \left( \frac{a}{b} \right) \endgraf") is None


def test_huge_rule_fails_the_build_with_file_and_line(tmp_path: Path, caplog) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    quiz = site / "exercises/demo/01-basics/quiz.md"
    text = quiz.read_text().replace("Почему небо голубое?", r"Почему небо $\rule{99999em}{99999em}$ голубое?")
    quiz.write_text(text)
    line = text.splitlines().index(r"Почему небо $\rule{99999em}{99999em}$ голубое?") + 1
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert f"exercises/demo/01-basics/quiz.md:{line}: invalid TeX" in message and "too large" in message


def test_error_in_a_10_kb_formula_is_reported_in_a_short_message(tmp_path: Path, caplog) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    quiz = site / "exercises/demo/01-basics/quiz.md"
    formula = "$" + "x+" * 5000 + r"\frac{1" + "$"
    text = quiz.read_text().replace("Почему небо голубое?", f"Почему небо {formula} голубое?")
    quiz.write_text(text)
    line = text.splitlines().index(f"Почему небо {formula} голубое?") + 1
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert f"exercises/demo/01-basics/quiz.md:{line}: invalid TeX" in message
    assert len(message) < 600, message


def test_error_in_a_formula_over_several_lines_names_its_own_line(tmp_path: Path, caplog) -> None:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    quiz = site / "exercises/demo/01-basics/quiz.md"
    formula = "$$\na + b\n+ \\nosuch c\n+ d\n$$\n"
    text = quiz.read_text().replace("Почему небо голубое?", "Почему небо голубое?\n\n" + formula)
    quiz.write_text(text)
    line = text.splitlines().index("+ \\nosuch c") + 1
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert f"exercises/demo/01-basics/quiz.md:{line}: invalid TeX" in message and "\\nosuch" in message


# -- where pages live -------------------------------------------------------------------------------------


def test_course_id_that_is_a_language_folder_is_refused(tmp_path: Path, caplog) -> None:
    """Was a silent success: a course with the id 'en' put its Russian pages in en/, where they were served as
    English pages (html lang="en", the language selector leading to the wrong pages)."""
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    course = site / "exercises/demo/course.yml"
    course.write_text(course.read_text().replace("id: demo", "id: en"))
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert "exercises/demo/course.yml:1: the course id 'en' is also the folder of the pages in 'en'" in message
    assert "another id" in message
    assert "Traceback" not in message


# -- paths that leave the module: a values file or a notebook is the module's own -------------------------------
# A values file is run by the build, and a notebook link names a file of the module's public zip: one named past
# the module's folder (a parent, an absolute path, a link) would run or point at whatever is there.

VALUES_HINT = "put the file into the module's folder and name it from there, e.g. 'values: files/values.py'"


def outside_values(base: Path) -> tuple[Path, Path]:
    """A values file outside the module, which leaves a mark when it runs; returns (file, mark)."""
    mark = base / "ran"
    other = base / "other"
    other.mkdir(parents=True, exist_ok=True)
    (other / "values.py").write_text(f"open({str(mark)!r}, 'w').close()\n\n\ndef values():\n    return {{'n': 4}}\n",
                                     encoding="utf-8")
    return other / "values.py", mark


@pytest.mark.parametrize("name", ["../../../other/values.py", "files/../../../../other/values.py", "ABSOLUTE",
                                  "/etc/passwd"])
def test_values_path_out_of_the_module_is_refused_unrun(tmp_path: Path, name: str) -> None:
    values, mark = outside_values(tmp_path)
    written = str(values) if name == "ABSOLUTE" else name
    (tmp_path / MODULE_DIR / "files").mkdir(parents=True)
    error = one_error(tmp_path, quiz=question(), module=MODULE + f"values: {written}\n")
    assert (error.path, error.line) == (f"{MODULE_DIR}/module.yml", 5)
    assert error.message == f"the values file must be inside the module's folder: '{written}' is outside it"
    assert error.hint == VALUES_HINT
    assert not mark.exists(), "the file outside the module was run"


def test_values_file_linked_from_outside_is_refused_unrun(tmp_path: Path) -> None:
    values, mark = outside_values(tmp_path)
    (tmp_path / MODULE_DIR / "files").mkdir(parents=True)
    (tmp_path / MODULE_DIR / "files" / "values.py").symlink_to(values)
    error = one_error(tmp_path, quiz=question(), module=MODULE + "values: files/values.py\n")
    assert (error.path, error.line) == (f"{MODULE_DIR}/module.yml", 5)
    assert error.message == ("the values file must be inside the module's folder: 'files/values.py' is a link to "
                             f"{values}, outside the module")
    assert "copy the file into the module's folder" in error.hint
    assert not mark.exists(), "the file outside the module was run"


def test_values_file_inside_the_module_is_taken_through_a_link_or_a_detour(tmp_path: Path) -> None:
    # A link that stays in the module, and a path that steps out of files/ but not out of the module.
    module = tmp_path / MODULE_DIR
    (module / "files").mkdir(parents=True)
    (module / "calc.py").write_text("def values():\n    return {'n': 4}\n", encoding="utf-8")
    (module / "files" / "values.py").symlink_to("../calc.py")
    quiz = question().replace("Потому что так.", "Потому что {{ n }}.")
    for name in ("files/values.py", "files/../calc.py"):
        (module / "module.yml").write_text(MODULE + f"values: {name}\n", encoding="utf-8")
        (module / "quiz.md").write_text(quiz, encoding="utf-8")
        (module.parent / "course.yml").write_text(COURSE, encoding="utf-8")
        [question_read] = load_courses(tmp_path / "exercises", LANGS, tmp_path)[0].modules[0].questions
        assert question_read.explanation["ru"].markdown == "Потому что 4."


def notebook_exercise(file: str) -> str:
    return exercise(yaml=f"notebooks:\n  - file: {file}\n    section: S")


@pytest.mark.parametrize("name", ["../../x.ipynb", "../x.ipynb", "ABSOLUTE", "{ru: notebook.ipynb, en: ../x.ipynb}"])
def test_notebook_path_out_of_files_is_refused(tmp_path: Path, name: str) -> None:
    files = tmp_path / MODULE_DIR / "files"
    files.mkdir(parents=True)
    (files / "notebook.ipynb").write_text("{}")
    for outside in (files.parent / "x.ipynb", files.parent.parent / "x.ipynb"):
        outside.write_text("{}")
    written = str(files.parent.parent / "x.ipynb") if name == "ABSOLUTE" else name
    exercises = notebook_exercise(written)
    error = one_error(tmp_path, quiz=question(), exercises=exercises)
    assert (error.path, error.line) == (f"{MODULE_DIR}/exercises.md", line_of(exercises, f"  - file: {written}"))
    leaving = "../x.ipynb" if name.startswith("{") else written
    assert error.message == f"the notebook must be in this module's files/: '{leaving}' is outside it"
    assert error.hint == "put the notebook into files/ and name it from there, e.g. 'file: name.ipynb'"


def test_notebook_linked_from_outside_is_refused(tmp_path: Path) -> None:
    files = tmp_path / MODULE_DIR / "files"
    files.mkdir(parents=True)
    secret = tmp_path / "x.ipynb"
    secret.write_text("{}")
    (files / "notebook.ipynb").symlink_to(secret)
    exercises = notebook_exercise("notebook.ipynb")
    error = one_error(tmp_path, quiz=question(), exercises=exercises)
    assert (error.path, error.line) == (f"{MODULE_DIR}/exercises.md", line_of(exercises, "  - file: notebook.ipynb"))
    assert error.message == ("the notebook must be in this module's files/: 'notebook.ipynb' is a link to "
                             f"{secret}, outside the module")
    assert "copy the file into the module's folder" in error.hint


def test_notebook_in_a_subfolder_or_linked_within_the_module_is_taken(tmp_path: Path) -> None:
    files = tmp_path / MODULE_DIR / "files"
    (files / "sub").mkdir(parents=True)
    (files / "sub" / "a.ipynb").write_text("{}")
    (files.parent / "b.ipynb").write_text("{}")
    (files / "b.ipynb").symlink_to("../b.ipynb")
    exercises = exercise(yaml="notebooks:\n  - file: sub/a.ipynb\n    section: S\n  - file: b.ipynb\n    section: T")
    [read] = load(tmp_path, quiz=question(), exercises=exercises)[0].modules[0].exercises
    assert [link.file["en"] for link in read.notebooks] == ["sub/a.ipynb", "b.ipynb"]


def test_paths_out_of_the_module_fail_the_build_and_the_check_alike(tmp_path: Path, caplog, capsys) -> None:
    from zadachnik.cli import main

    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    module = site / "exercises/demo/01-basics"
    (tmp_path / "values.py").write_text("def values():\n    return {}\n", encoding="utf-8")
    (tmp_path / "x.ipynb").write_text("{}")
    (module / "module.yml").write_text((module / "module.yml").read_text() + "values: ../../../../values.py\n")
    exercises = (module / "exercises.md").read_text()
    (module / "exercises.md").write_text(exercises.replace("file: notebook.ipynb", "file: ../../../../../x.ipynb"))
    line = line_of(exercises, "  - file: notebook.ipynb")
    expected = [f"exercises/demo/01-basics/module.yml:5: the values file must be inside the module's folder: "
                f"'../../../../values.py' is outside it ({VALUES_HINT})",
                f"exercises/demo/01-basics/exercises.md:{line}: the notebook must be in this module's files/: "
                "'../../../../../x.ipynb' is outside it"]
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert all(text in message for text in expected), message
    assert "Traceback" not in message
    capsys.readouterr()
    assert main(["check", "--no-cache", "--config", str(site / "mkdocs.yml")]) == 1
    report = capsys.readouterr().err
    assert all(text in report for text in expected), report


# -- a huge text: assembled into its pages without a copy at every template level -------------------------------


def converted(plan) -> str:
    """A page's Markdown as MkDocs converts it, for plans whose pieces are paragraphs of words, inline formulas
    (drawn as a span between the marks the math extension puts round a formula) and links: each piece a paragraph
    after its marker."""
    import html
    import re

    from zadachnik.rendering.mathtex import MATH_END, MATH_START, PIECE_MARKER

    def paragraph(markdown: str) -> str:
        link = re.fullmatch(r"\[(.*)\]\((.*)\.md\)", markdown)
        if link:
            return f'<a href="{link[2]}/">{link[1]}</a>'
        return re.sub(r"\$([^$]*)\$", rf'{MATH_START}<span class="katex">\1</span>{MATH_END}', html.escape(markdown))

    pieces = [f"<p>{PIECE_MARKER}{number}</p>\n<p>{paragraph(fragment.markdown)}</p>\n"
              for number, fragment in enumerate(plan.pieces)]
    return "".join(pieces) + f"<p>{PIECE_MARKER}{len(plan.pieces)}</p>\n"


def test_a_huge_explanation_is_copied_into_its_pages_a_bounded_number_of_times(tmp_path: Path) -> None:
    """Was a bug: every macro and include a text passed through copied it (Jinja's output, markupsafe's escape of
    a Markup), a dozen times for a problem book: 10 MB of explanation took 3.3 GB and half a minute to build. What
    a page's assembly holds at its peak, in copies of the text: the quiz page the pieces it is split into, the same
    without the formulas' marks for its books, and the page; a book its page alone."""
    import tracemalloc

    from zadachnik.rendering.render import Renderer, plan_pages
    from zadachnik.rendering.site import Languages

    words = "слово $x$ и ещё одно. " * 2**18
    exercises = write_course(tmp_path, quiz=question().replace("Потому что так.", words))
    # A second module, so that the course has a book of its own.
    (add_second_module(exercises / "course") / "quiz.md").write_text(question(), encoding="utf-8")
    [course] = load_courses(exercises, LANGS, tmp_path)
    plans = plan_pages([course], Languages(LANGS))
    renderer = Renderer()
    # Once before measuring: the words of the page's language are read on its first page.
    renderer.assemble(plans["course/01-m/quiz.md"], converted(plans["course/01-m/quiz.md"]))
    renderer.assemble(plans["course/02-more/quiz.md"], converted(plans["course/02-more/quiz.md"]))
    text = max(converted(plans["course/01-m/quiz.md"]).splitlines(), key=len)
    copies = {}
    for uri in ("course/01-m/quiz.md", "course/01-m/book.md", "course/book.md"):
        page_html = converted(plans[uri])
        tracemalloc.start()
        page = renderer.assemble(plans[uri], page_html)
        # Two bytes a character, as any text with a Cyrillic letter.
        copies[uri] = tracemalloc.get_traced_memory()[1] / (2 * len(text))
        tracemalloc.stop()
        assert page.count("ещё одно") == 2**18, uri
    assert copies["course/01-m/quiz.md"] < 3.5 and copies["course/01-m/book.md"] < 1.5, copies
    assert copies["course/book.md"] < 1.5, copies
