"""Small courses written into tmp_path: the blocks of a quiz, the course and module files around it, and what
loading or checking them reports."""

from __future__ import annotations

from pathlib import Path

import pytest
from zadachnik.checking.checks import check_answer_keys
from zadachnik.core.errors import SourceError, SourceErrors
from zadachnik.reading.model import Course, load_courses

LANGS = ["ru", "en"]

# Paths as the errors show them: relative to the `base` folder (tmp_path).
MODULE_DIR = "exercises/course/01-m"
QUIZ = f"{MODULE_DIR}/quiz.md"
MODULE_YML = f"{MODULE_DIR}/module.yml"

COURSE = "id: course\ntitle:\n  ru: Курс\n  en: Course\nmodules: 3\n"
MODULE = "number: 1\ntitle:\n  ru: Модуль\n  en: Module\n"

RU_SINGLE = "Сколько будет 2+2?\n\noptions:\nA. Три\nB. Четыре\nC. Пять\n\nexplanation:\nПотому что так."
EN_SINGLE = "What is 2+2?\n\noptions:\nA. Three\nB. Four\nC. Five\n\nexplanation:\nBecause it is."
RU_NUMERIC = "Найдите икс.\n\nfields:\n- x: Икс\n\nexplanation:\nИкс найден."
EN_NUMERIC = "Find x.\n\nfields:\n- x: Ex\n\nexplanation:\nFound it."
RU_MATCHING = "Сопоставьте.\n\nitems:\n1. Кошка\n2. Собака\n\noptions:\nA. Лает\nB. Мяукает\n\nexplanation:\nВот так."
EN_MATCHING = "Match them.\n\nitems:\n1. Cat\n2. Dog\n\noptions:\nA. Barks\nB. Meows\n\nexplanation:\nLike so."


# -- blocks and courses -------------------------------------------------------------------------------


def lang_part(lang: str, text: str, title: str | None) -> str:
    opener = f"//// {lang} | {title}" if title is not None else f"//// {lang}"
    return f"{opener}\n{text}\n////\n"


def block(
    kind: str = "question",
    ident: str = "Q1",
    yaml: str = "type: single\nanswer: B",
    ru: str | None = RU_SINGLE,
    en: str | None = EN_SINGLE,
    ru_title: str | None = "Вопрос",
    en_title: str | None = "Question",
) -> str:
    """One block; a language whose text is None is left out."""
    parts = [
        lang_part(lang, text, title)
        for lang, text, title in (("ru", ru, ru_title), ("en", en, en_title))
        if text is not None
    ]
    return f"/// {kind} | {ident}\n{yaml}\n\n" + "\n".join(parts) + "///\n"


def numeric(yaml_fields: str, ru: str = RU_NUMERIC, en: str = EN_NUMERIC, ident: str = "Q1") -> str:
    return block(ident=ident, yaml="type: numeric\nfields:\n" + yaml_fields, ru=ru, en=en)


def write_course(
    base: Path,
    quiz: str | None = None,
    exercises: str | None = None,
    course: str = COURSE,
    module: str = MODULE,
) -> Path:
    """exercises/course/{course.yml, 01-m/{module.yml, quiz.md, exercises.md}} under base; returns exercises/."""
    module_dir = base / MODULE_DIR
    module_dir.mkdir(parents=True)
    (module_dir.parent / "course.yml").write_text(course, encoding="utf-8")
    (module_dir / "module.yml").write_text(module, encoding="utf-8")
    for name, text in (("quiz.md", quiz), ("exercises.md", exercises)):
        if text is not None:
            (module_dir / name).write_text(text, encoding="utf-8")
    return base / "exercises"


# -- what loading and checking report -----------------------------------------------------------------


def load(base: Path, **files: str) -> list[Course]:
    return load_courses(write_course(base, **files), LANGS, base)


def errors_of(base: Path, **files: str) -> list[SourceError]:
    with pytest.raises(SourceErrors) as info:
        load(base, **files)
    return info.value.errors


def one_error(base: Path, **files: str) -> SourceError:
    errors = errors_of(base, **files)
    assert len(errors) == 1, [str(error) for error in errors]
    return errors[0]


def problems(tmp_path: Path, quiz: str) -> list:
    courses = load_courses(write_course(tmp_path, quiz=quiz), ["ru", "en"], tmp_path)
    return check_answer_keys(courses, ["ru", "en"], lambda path: str(path.relative_to(tmp_path)))


def lines_with(text: str, needle: str) -> list[int]:
    """1-based numbers of the lines containing needle."""
    return [number for number, line in enumerate(text.splitlines(), start=1) if needle in line]


def line_with(text: str, needle: str) -> int:
    numbers = lines_with(text, needle)
    assert len(numbers) == 1, f"{needle!r} is on lines {numbers}"
    return numbers[0]


# -- Python questions: a code exercise's solution and tests, a numeric question's checker ----------------

RU = "Напишите `f`.\n\nexplanation:\nВот так."
EN = "Write `f`.\n\nexplanation:\nLike this."


def code_question(solution: str, tests: str = None, extra: str = "") -> str:
    tests = tests or ('  - test: f(2) == 4\n    message: {ru: "f(2) равно 4", en: "f(2) is 4"}\n')
    indented = "".join(f"  {line}\n" for line in solution.splitlines())
    yaml = f"type: code\nsolution: |\n{indented}tests:\n{tests}{extra}"
    return block(yaml=yaml, ru=RU, en=EN)


CHECKER = """check: |
  def check(answer):
      x = answer["fields"]["x"]
      return within(x["value"], 0.5, 1e-9, 0), "half"
"""


def checker_question(check: str = CHECKER, wrong: str = "wrong:\n  - {x: \"0.4\"}\n") -> str:
    yaml = 'type: numeric\nfields:\n  x: {answer: "1/2", atol: 0.01}\n' + check + wrong
    return block(yaml=yaml, ru="Найдите x.\n\nfields:\n- x: Икс\n\nexplanation:\nПоловина.",
                 en="Find x.\n\nfields:\n- x: Ex\n\nexplanation:\nA half.")
