"""References: `[[E1]]` in author text prints the exercise's (question's, section's) label in the page's language
and links to it, on its own page or on the module's other page; an unknown one fails the build with file:line.

The sample course cites exercises only this way, and its notebooks and README, which the plugin does not
render, cite each exercise by the label of their own language. The sample course, the site's pages and the
page words in English use British spelling, checked here against a list of American spellings.
"""

from __future__ import annotations

import io
import json
import logging
import re
import tokenize
from pathlib import Path

import pytest
from support.sites import FIXTURE_SITE, ROOT, build_site
from zadachnik.core.errors import SourceError, SourceErrors
from zadachnik.reading.model import Course, Exercise, Module, Question, Section, load_courses

LANGS = ["ru", "en"]
MODULE_DIR = "exercises/course/01-m"
QUIZ = f"{MODULE_DIR}/quiz.md"
EXERCISES = f"{MODULE_DIR}/exercises.md"

COURSE_YML = "id: course\ntitle:\n  ru: Курс\n  en: Course\nmodules: 3\n"
MODULE_YML = "number: 1\ntitle:\n  ru: Модуль\n  en: Module\n"

# A quiz and an exercises page that refer to each other, to themselves and to a section.
QUIZ_SOURCE = """\
/// section | 1.1
ru: "Раздел про [[E1]]"
en: "A section on [[E1]]"
///

/// question | 1.1.1
type: single
answer: B

//// ru | Вопрос к [[E1]]
Сколько будет 2+2? Это посчитано в упражнении [[E1]], см. также [[1.1.2]].

options:
A. Три, как в [[E1]]
B. Четыре
C. Пять

explanation:
Верен вариант B (упражнение [[E1]], раздел [[1.1]]). Код `[[1]]` и формула $[[a]]$ остаются как есть.
////

//// en | A question on [[E1]]
What is 2+2? It is worked out in exercise [[E1]]; see also [[1.1.2]].

options:
A. Three, as in [[E1]]
B. Four
C. Five

explanation:
B is correct (exercise [[E1]], section [[1.1]]). Code `[[1]]` and the formula $[[a]]$ stay as they are.
////
///

/// question | 1.1.2
type: single
answer: A

//// ru | Второй вопрос
Выберите A.

options:
A. Да
B. Нет

explanation:
Так и есть, см. [[1.1.1]].
////

//// en | Second question
Choose A.

options:
A. Yes
B. No

explanation:
So it is, see [[1.1.1]].
////
///
"""

EXERCISES_SOURCE = """\
/// exercise | E1
label: {ru: У1, en: E1}

//// ru | Сумма
Посчитайте $2+2$ (вопрос [[1.1.1]]).

```python
print([[E1]])
```

solution:
Четыре, как и в [[E2]].
////

//// en | The sum
Compute $2+2$ (question [[1.1.1]]).

```python
print([[E1]])
```

solution:
Four, as in [[E2]].
////
///

/// exercise | E2
label: {ru: У2, en: E2}
project: true

//// ru | Проект
Продолжите [[E1]].

solution:
Ответ в [[E1]] и в разделе [[1.1]].

criteria:
- Сделано то же, что в [[E1]].
////

//// en | Project
Carry on from [[E1]].

solution:
The answer is in [[E1]] and in section [[1.1]].

criteria:
- The same as in [[E1]] is done.
////
///
"""


def write_course(base: Path, quiz: str | None = QUIZ_SOURCE, exercises: str | None = EXERCISES_SOURCE) -> Path:
    module_dir = base / MODULE_DIR
    module_dir.mkdir(parents=True)
    (module_dir.parent / "course.yml").write_text(COURSE_YML, encoding="utf-8")
    (module_dir / "module.yml").write_text(MODULE_YML, encoding="utf-8")
    for name, text in (("quiz.md", quiz), ("exercises.md", exercises)):
        if text is not None:
            (module_dir / name).write_text(text, encoding="utf-8")
    return base / "exercises"


def load_module(base: Path, **sources: str | None) -> Module:
    courses: list[Course] = load_courses(write_course(base, **sources), LANGS, base)
    return courses[0].modules[0]


def errors_of(base: Path, **sources: str | None) -> list[SourceError]:
    with pytest.raises(SourceErrors) as info:
        load_module(base, **sources)
    return info.value.errors


def line_of(text: str, needle: str) -> int:
    numbers = [number for number, line in enumerate(text.splitlines(), start=1) if needle in line]
    assert len(numbers) == 1, f"{needle!r} is on lines {numbers}"
    return numbers[0]


# -- what a reference becomes ------------------------------------------------------------------------------------


def test_a_quiz_refers_to_an_exercise_by_its_label_in_each_language(tmp_path: Path) -> None:
    module = load_module(tmp_path)
    question: Question = module.questions[0]
    assert "в упражнении [У1](exercises.md#e-E1)," in question.body["ru"].markdown
    assert "in exercise [E1](exercises.md#e-E1);" in question.body["en"].markdown
    assert "(упражнение [У1](exercises.md#e-E1)," in question.explanation["ru"].markdown
    assert "(exercise [E1](exercises.md#e-E1)," in question.explanation["en"].markdown


def test_references_on_the_same_page_link_to_the_anchor(tmp_path: Path) -> None:
    module = load_module(tmp_path)
    first, second = module.questions
    for lang in LANGS:
        assert "[1.1.2](#q-1.1.2)" in first.body[lang].markdown
        assert "[1.1](#s-1.1)" in first.explanation[lang].markdown
        assert "[1.1.1](#q-1.1.1)" in second.explanation[lang].markdown
    project: Exercise = module.exercises[1]
    assert "Продолжите [У1](#e-E1)." == project.statement["ru"].markdown
    assert "Carry on from [E1](#e-E1)." == project.statement["en"].markdown
    assert "- Сделано то же, что в [У1](#e-E1)." == project.criteria["ru"].markdown


def test_exercises_refer_to_the_quiz_page(tmp_path: Path) -> None:
    module = load_module(tmp_path)
    first, project = module.exercises
    assert "(вопрос [1.1.1](quiz.md#q-1.1.1))" in first.statement["ru"].markdown
    assert "(question [1.1.1](quiz.md#q-1.1.1))" in first.statement["en"].markdown
    assert first.solution["ru"].markdown == "Четыре, как и в [У2](#e-E2)."
    assert "разделе [1.1](quiz.md#s-1.1)." in project.solution["ru"].markdown
    assert "section [1.1](quiz.md#s-1.1)." in project.solution["en"].markdown


def test_titles_and_options_show_the_label_without_a_link(tmp_path: Path) -> None:
    """A link inside a heading (and its line in the contents) or inside an option's label would be a trap."""
    module = load_module(tmp_path)
    section: Section = module.quiz[0]
    question = module.questions[0]
    assert section.title["ru"].markdown == "Раздел про У1"
    assert section.title["en"].markdown == "A section on E1"
    assert question.title["ru"].markdown == "Вопрос к У1"
    assert question.lists["options"][0].text["ru"].markdown == "Три, как в У1"
    assert question.lists["options"][0].text["en"].markdown == "Three, as in E1"


def test_code_and_math_are_left_alone(tmp_path: Path) -> None:
    module = load_module(tmp_path)
    for lang in LANGS:
        assert "`[[1]]`" in module.questions[0].explanation[lang].markdown
        assert "$[[a]]$" in module.questions[0].explanation[lang].markdown
        assert "print([[E1]])" in module.exercises[0].statement[lang].markdown


# -- an author's mistakes ----------------------------------------------------------------------------------------


def test_an_unknown_reference_is_reported_with_its_line_and_the_ids_to_use(tmp_path: Path) -> None:
    quiz = QUIZ_SOURCE.replace("см. [[1.1.1]].", "см. [[1.1.11]].")
    errors = errors_of(tmp_path, quiz=quiz)
    assert len(errors) == 1, [str(error) for error in errors]
    error = errors[0]
    assert (error.path, error.line) == (QUIZ, line_of(quiz, "см. [[1.1.11]]."))
    assert error.message == "unknown reference [[1.1.11]]"
    assert "[[1.1.1]]" in error.hint
    assert str(error).startswith(f"{QUIZ}:{error.line}: unknown reference [[1.1.11]] (")


def test_an_id_in_the_wrong_case_is_suggested_in_its_own(tmp_path: Path) -> None:
    exercises = EXERCISES_SOURCE.replace("Продолжите [[E1]].", "Продолжите [[e1]].")
    error, = errors_of(tmp_path, exercises=exercises)
    assert error.message == "unknown reference [[e1]]" and "did you mean [[E1]]?" in error.hint


def test_a_label_instead_of_an_id_says_which_id_to_write(tmp_path: Path) -> None:
    exercises = EXERCISES_SOURCE.replace("Продолжите [[E1]].", "Продолжите [[У1]].")
    error, = errors_of(tmp_path, exercises=exercises)
    assert (error.path, error.line) == (EXERCISES, line_of(exercises, "Продолжите [[У1]]."))
    assert error.message == "unknown reference [[У1]]"
    assert "write [[E1]]" in error.hint


def test_every_unknown_reference_is_reported_and_a_missing_page_too(tmp_path: Path) -> None:
    """Without an exercises page the quiz's references to exercises cannot resolve: one error for each."""
    errors = errors_of(tmp_path, exercises=None)
    shown = sorted((error.line, error.message) for error in errors)
    lines = [number for number, line in enumerate(QUIZ_SOURCE.splitlines(), start=1) if "[[E1]]" in line]
    assert [line for line, _ in shown] == lines
    assert {message for _, message in shown} == {"unknown reference [[E1]]"}
    assert all(error.path == QUIZ and error.hint for error in errors)


def test_a_file_that_cannot_be_read_gets_no_unknown_references_to_it(tmp_path: Path) -> None:
    """One structural mistake drops the whole quiz; the exercises' [[1.1.1]] and [[1.1]], which are there, were
    reported as unknown too, with advice to write an id that exists."""
    quiz = QUIZ_SOURCE.replace("So it is, see [[1.1.1]].\n////\n", "So it is, see [[1.1.1]].\n")
    error, = errors_of(tmp_path, quiz=quiz)
    assert error.message == "the 'en' part opened here is not closed", error


def test_a_block_that_cannot_be_read_gets_no_unknown_references_to_it(tmp_path: Path) -> None:
    quiz = QUIZ_SOURCE.replace("/// question | 1.1.1\ntype: single", "/// question | 1.1.1\ntype: singel")
    error, = errors_of(tmp_path, quiz=quiz)
    assert error.message.startswith("unknown question type 'singel'"), error


def test_an_unknown_reference_beside_a_block_that_cannot_be_read_is_still_reported(tmp_path: Path) -> None:
    quiz = QUIZ_SOURCE.replace("/// question | 1.1.1\ntype: single", "/// question | 1.1.1\ntype: singel")
    exercises = EXERCISES_SOURCE.replace("Продолжите [[E1]].", "Продолжите [[E9]].")
    errors = errors_of(tmp_path, quiz=quiz, exercises=exercises)
    assert sorted(error.message.split(" (")[0] for error in errors) == [
        "unknown question type 'singel'", "unknown reference [[E9]]"], errors


def test_an_empty_reference_is_reported(tmp_path: Path) -> None:
    quiz = QUIZ_SOURCE.replace("So it is, see [[1.1.1]].", "So it is, see [[]].")
    error, = errors_of(tmp_path, quiz=quiz)
    assert (error.line, error.message) == (line_of(quiz, "see [[]]."), "unknown reference [[]]")
    assert "1.1.1" in error.hint


def test_an_unknown_reference_fails_the_build(tmp_path: Path, caplog) -> None:
    from support.sites import build_failure

    site = site_sources(tmp_path / "src", quiz=QUIZ_SOURCE.replace("см. [[1.1.1]].", "см. [[Q9]]."))
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert f"{QUIZ}:{line_of(QUIZ_SOURCE, 'см. [[1.1.1]].')}: unknown reference [[Q9]]" in message
    assert "Traceback" not in message


# -- in a built site ---------------------------------------------------------------------------------------------


def site_sources(folder: Path, **sources: str | None) -> Path:
    """The fixture site's config and home pages with the two-page course above."""
    folder.mkdir(parents=True)
    (folder / "mkdocs.yml").write_text((FIXTURE_SITE / "mkdocs.yml").read_text(encoding="utf-8"), encoding="utf-8")
    for page in ("index.md", "en/index.md"):
        (folder / "docs" / page).parent.mkdir(parents=True, exist_ok=True)
        (folder / "docs" / page).write_text("# Home\n", encoding="utf-8")
    write_course(folder, **sources)
    return folder


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, list[str]]:
    """The site, and the messages MkDocs logged about links and anchors while building it."""
    folder = tmp_path_factory.mktemp("references")
    site_sources(folder / "src")
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.DEBUG)
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("mkdocs")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        site = build_site(folder / "src" / "mkdocs.yml", folder / "site")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    return site, [record.getMessage() for record in records if "link" in record.getMessage()]


LINK = re.compile(r'<a href="(?P<href>[^"]*)">(?P<text>[^<]*)</a>')


def links_in(page: Path) -> list[tuple[str, str]]:
    return [(m["href"], m["text"]) for m in LINK.finditer(page.read_text(encoding="utf-8"))
            if "#" in m["href"] and not m["href"].startswith(("#__", "#zq"))]


def resolve(page: Path, href: str) -> tuple[Path, str]:
    path, _, anchor = href.partition("#")
    target = (page.parent / path).resolve() if path else page
    return (target / "index.html" if target.is_dir() else target), anchor


@pytest.mark.parametrize("lang, prefix", [("ru", ""), ("en", "en/")])
def test_built_links_reach_their_targets_with_the_language_label(built, lang: str, prefix: str) -> None:
    site, _ = built
    label = {"ru": "У", "en": "E"}[lang]
    quiz = site / prefix / "course/01-m/quiz/index.html"
    exercises = site / prefix / "course/01-m/exercises/index.html"
    expected = {
        quiz: {("../exercises/#e-E1", f"{label}1"), ("#q-1.1.2", "1.1.2"), ("#s-1.1", "1.1"), ("#q-1.1.1", "1.1.1")},
        exercises: {("../quiz/#q-1.1.1", "1.1.1"), ("#e-E2", f"{label}2"), ("#e-E1", f"{label}1"),
                    ("../quiz/#s-1.1", "1.1")},
    }
    for page, links in expected.items():
        found = set(links_in(page))
        assert links <= found, (page, found)
        for href, _ in found:
            target, anchor = resolve(page, href)
            assert f'id="{anchor}"' in target.read_text(encoding="utf-8"), (page, href)


def test_mkdocs_finds_every_anchor_a_reference_links_to(built) -> None:
    """MkDocs checks links to anchors against the ids of the pages it rendered: none may look missing."""
    _, messages = built
    assert [message for message in messages if "anchor" in message] == []


def test_the_anchor_list_for_link_checks_does_not_reach_the_page(built) -> None:
    site, _ = built
    html = (site / "course/01-m/quiz/index.html").read_text(encoding="utf-8")
    assert html.count('id="q-1.1.1"') == 1 and html.count('id="s-1.1"') == 1
    html = (site / "course/01-m/exercises/index.html").read_text(encoding="utf-8")
    assert html.count('id="e-E1"') == 1


# -- the sample course -------------------------------------------------------------------------------------------

SAMPLE_MODULES = sorted((ROOT / "exercises").glob("*/*/module.yml"))
# An exercise label typed by hand (У1, E1) rather than written as a reference.
TYPED_LABEL = re.compile(r"(?<![\w\[])(?:У|E)\d+\b")


def prose_lines(text: str) -> list[str]:
    """A source's lines other than block openers, exercise labels and HTML comments, with references and code
    spans taken out."""
    text = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
    lines = [line for line in text.splitlines() if not line.startswith(("///", "label:"))]
    return [re.sub(r"`[^`\n]*`", "", re.sub(r"\[\[[^\]]*\]\]", "", line)) for line in lines]


@pytest.mark.parametrize("module_yml", SAMPLE_MODULES, ids=[p.parent.name for p in SAMPLE_MODULES])
def test_the_sample_course_cites_exercises_only_by_reference(module_yml: Path) -> None:
    """No label (У1, E1) and no id of the module's questions and sections (9.4.2, P08) is typed by hand."""
    sources = {name: module_yml.parent / name for name in ("quiz.md", "exercises.md")}
    ids = [match for path in sources.values() if path.is_file()
           for match in re.findall(r"^/// (?:question|section|exercise) \| (\S+)$", path.read_text(encoding="utf-8"),
                                   re.MULTILINE)]
    longest_first = sorted(ids, key=len, reverse=True)
    typed_id = re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, longest_first)) + r")(?![\w]|\.\w)")
    for name, path in sources.items():
        if path.is_file():
            lines = prose_lines(path.read_text(encoding="utf-8"))
            assert [line for line in lines if TYPED_LABEL.search(line)] == [], name
            assert [line for line in lines if typed_id.search(line)] == [], name


@pytest.fixture(scope="module")
def sample_module9() -> Module:
    courses = load_courses(ROOT / "exercises", LANGS, ROOT)
    course = next(c for c in courses if c.id == "modern-llms")
    return next(m for m in course.modules if m.number == 9)


def cited_labels(text: str, labels: dict[str, set[str]]) -> list[str]:
    every = sorted({label for by_lang in labels.values() for label in by_lang}, key=len, reverse=True)
    return re.findall(r"(?<!\w)(" + "|".join(map(re.escape, every)) + r")(?!\w)", text)


def notebook_text(path: Path) -> str:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    parts = []
    for cell in notebook["cells"]:
        parts.append("".join(cell["source"]))
        parts += ["".join(output.get("text", "")) for output in cell.get("outputs", [])]
    return "\n".join(parts)


def test_notebooks_and_readme_cite_the_labels_of_their_language(sample_module9: Module) -> None:
    labels = {lang: {exercise.label[lang] for exercise in sample_module9.exercises} for lang in LANGS}
    files = sample_module9.files_dir
    assert files is not None
    russian, english = (files / "README.md").read_text(encoding="utf-8").split("\n---\n")
    texts = {(f"README.md ({lang})", lang): text for lang, text in (("ru", russian), ("en", english))}
    for notebook in sorted(files.glob("*.ipynb")):
        lang = notebook.stem.rsplit("_", 1)[1]
        texts[(notebook.name, lang)] = notebook_text(notebook)
    cited_somewhere = {lang: set() for lang in LANGS}
    for (name, lang), text in texts.items():
        cited = cited_labels(text, labels)
        wrong = [label for label in cited if label not in labels[lang]]
        assert wrong == [], (name, wrong)
        cited_somewhere[lang] |= set(cited)
    # Each language's files do cite exercises, so the check above has something to check.
    assert all(cited_somewhere[lang] for lang in LANGS), cited_somewhere


# -- British spelling in English --------------------------------------------------------------------------------

AMERICAN = re.compile(
    r"\b(?!(?:re|over|down)?siz|pri[sz]|seiz|capsiz|maiz)[a-z]+iz(?:e|es|ed|ing|er|ers|ation|ations|able)\b"
    r"|\b[a-z]+yz(?:e|es|ed|ing|er|ers)\b"
    r"|\b(?:behavio|colo|favo|hono|labo|neighbo|flavo|humo|rumo|harbo|endeavo|armo|odo|rigo|vigo)r\w*"
    r"|\b(?:center|theater|fiber|liter|caliber|meager|luster|maneuver)(?:s|ed|ing)?\b"
    r"|\b(?:defense|offense|pretense|license)s?\b"
    r"|\b(?:travel|cancel|label|model|signal|level|total|fuel|channel|tunnel|marvel)(?:ed|ing|er|ers)\b"
    r"|\b(?:enrollment|fulfillment|skillful|willful|installment|acknowledgment|judgment)s?\b"
    r"|\b(?:gray|catalogs?|dialogs?|artifacts?|aluminum|toward|afterward|math)\b",
    re.IGNORECASE,
)
# Words that match the patterns above and are British too.
BRITISH_TOO = {"modeller", "modellers", "labeller", "traveller", "travellers"}
# Code, math, and anchors (`{#math}`, a link's `(#math)`): names, not prose.
_CODE = re.compile(r"^[ \t]*(`{3,}|~{3,}).*?^[ \t]*\1[ \t]*$|`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]*\$|\{[#.][^}\n]*\}"
                   r"|\]\(#[^)\n]*\)",
                   re.MULTILINE | re.DOTALL)


def american(text: str) -> list[str]:
    """American spellings in prose: code fences, code spans and math are left out."""
    prose = _CODE.sub(" ", text)
    return [word for word in (m.group(0) for m in AMERICAN.finditer(prose)) if word.lower() not in BRITISH_TOO]


def python_prose(source: str) -> str:
    """A Python file's comments and strings of several words (one-word strings are keys and names)."""
    parts = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT or (token.type == tokenize.STRING and " " in token.string):
            parts.append(token.string)
    return "\n".join(parts)


def english_texts() -> dict[str, str]:
    """Every English text of the repository that a reader sees, by where it is."""
    texts: dict[str, str] = {}
    courses = load_courses(ROOT / "exercises", LANGS, ROOT)
    for course in courses:
        texts[f"{course.id}: title"] = course.title["en"]
        for module in course.modules:
            parts = [module.title["en"]]
            for item in module.quiz or []:
                localized = [item.title] if isinstance(item, Section) else [
                    item.title, item.body, item.explanation,
                    *[entry.text for entries in item.lists.values() for entry in entries]]
                parts += [text["en"].markdown for text in localized]
                if isinstance(item, Question) and item.type == "code":
                    parts += [test.message["en"] for test in item.key.tests]
            for exercise in module.exercises or []:
                for text in (exercise.title, exercise.statement, exercise.solution, exercise.criteria or {}):
                    parts += [text["en"].markdown] if text else []
            texts[f"{course.id}/{module.slug}"] = "\n".join(parts)
    for source in sorted((ROOT / "exercises").rglob("*.md")):
        comments = re.findall(r"<!--.*?-->", source.read_text(encoding="utf-8"), re.DOTALL)
        texts[f"{source.relative_to(ROOT)} (comments)"] = "\n".join(comments)
    for source in sorted((ROOT / "exercises").rglob("*.py")):
        texts[str(source.relative_to(ROOT))] = python_prose(source.read_text(encoding="utf-8"))
    for notebook in sorted((ROOT / "exercises").rglob("*_en.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        parts = ["".join(cell["source"]) if cell["cell_type"] == "markdown" else python_prose("".join(cell["source"]))
                 for cell in cells]
        parts += ["".join(output.get("text", "")) for cell in cells for output in cell.get("outputs", [])]
        texts[str(notebook.relative_to(ROOT))] = "\n".join(parts)
    for readme in sorted((ROOT / "exercises").rglob("README.md")):
        texts[f"{readme.relative_to(ROOT)} (English)"] = readme.read_text(encoding="utf-8").split("\n---\n")[-1]
    for page in sorted((ROOT / "docs").rglob("*.md")):
        texts[str(page.relative_to(ROOT))] = page.read_text(encoding="utf-8")
    from zadachnik.rendering import i18n

    def strings_in(value: object) -> list[str]:
        if isinstance(value, str):
            return [value]
        inner = value.values() if isinstance(value, dict) else value if isinstance(value, (tuple, list)) else []
        return [text for item in inner for text in strings_in(item)]

    for section, words in (i18n.shipped("en") or {}).items():
        texts[f"words/en.yml {section} (en)"] = "\n".join(strings_in(words))
    return texts


def test_the_spelling_list_finds_american_spellings() -> None:
    sample = ("We normalize the color, optimize the optimizer, analyze its behavior, center the labeled "
              "gray artifact and write the math in `normalize()` and $color$.")
    assert american(sample) == ["normalize", "color", "optimize", "optimizer", "analyze", "behavior", "center",
                                "labeled", "gray", "artifact", "math"]
    assert american("Its size, the prize, seized, resized; a labelled colour, normalised, centred maths.") == []
    assert american("See [Formulas](#math) and [the colour](#color).") == []


def test_english_text_uses_british_spelling() -> None:
    texts = english_texts()
    assert len([name for name in texts if name.endswith("(en)")]) >= 2  # the page words were found
    found = {name: american(text) for name, text in texts.items()}
    assert {name: words for name, words in found.items() if words} == {}


def test_links_follow_the_site_url_style(tmp_path: Path) -> None:
    """With `use_directory_urls: false` (as the offline copy needs) a reference links to the .html page."""
    sources = site_sources(tmp_path / "src")
    site = build_site(sources / "mkdocs.yml", tmp_path / "site", use_directory_urls=False)
    quiz, exercises = site / "en/course/01-m/quiz.html", site / "en/course/01-m/exercises.html"
    assert ("exercises.html#e-E1", "E1") in links_in(quiz)
    assert ("quiz.html#q-1.1.1", "1.1.1") in links_in(exercises)
    for page in (quiz, exercises):
        for href, _ in links_in(page):
            target, anchor = resolve(page, href)
            assert f'id="{anchor}"' in target.read_text(encoding="utf-8"), (page, href)
