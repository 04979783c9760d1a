"""Model stage: blocks become courses, modules, sections, questions and exercises.

Every check of an author's source that needs no rendering lives here or in `qtypes`; each problem becomes a
SourceError with the file, the line and what to write instead.
"""

from __future__ import annotations

import ast
import difflib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from zadachnik.core.errors import SourceError, SourceErrors
from zadachnik.core.text import Fragment, Localized, TextProblem, per_language
from zadachnik.qtypes import Entry, Invalid, ListParts, QuestionType, python_syntax_error, registry
from zadachnik.qtypes.mixed import MixedKey
from zadachnik.reading.coursefiles import LINK_OUT_HINT, left_out_part, named_from_module, outside_of
from zadachnik.reading.exam import MODULE_KEYS as EXAM_KEYS
from zadachnik.reading.exam import Exam, exam_of
from zadachnik.reading.gaps import place_gaps
from zadachnik.reading.hints import HINTS, merged_hints, split_hints
from zadachnik.reading.names import SAFE, address_problem
from zadachnik.reading.shuffle import (
    HINT_NOTE,
    QUESTION_OPTIONS,
    check_question_options,
    flag,
    module_options,
    settle,
)
from zadachnik.reading.source import (
    YAML_KEY,
    Block,
    LangBlock,
    Line,
    read_source,
    split_blocks,
    split_yaml_and_text,
    track_fence,
)
from zadachnik.reading.values import (
    PlaceholderError,
    ValuesError,
    load_values,
    placeholder_without_values,
    substitute,
    unfinished_placeholder,
)
from zadachnik.reading.variants import (
    Expander,
    NamedLines,
    NamedSource,
    VariantProblem,
    Variants,
    field_names,
    named_key,
    provisional_key,
    read_variants,
)
from zadachnik.reading.yamlsource import KeyPath, YamlProblem, dash_slip, load_with_lines

TEXT_PARTS = ("explanation", "solution", "criteria")
LIST_PARTS = ("options", "items", "fields")
PART_NAMES = ("options", "items", "fields", "explanation", "solution", "criteria", "hints")
_PART_LINE = re.compile(rf"^(?P<name>{'|'.join(PART_NAMES)}):\s*$")
# A word alone on its line before a colon: a part heading written nearly right ("hint:", "Explanation :").
_NEAR_PART_LINE = re.compile(r"^\s*(?P<word>[A-Za-z]+)\s*:\s*$")
# A marker typed on another keyboard layout: a Cyrillic А, В, С looks like the Latin one.
_FOREIGN_MARKER = re.compile(r"^(?P<key>[^\W\d_A-Z])[.)]\s")
_MARKER = re.compile(r"^(?P<key>[A-Z]|\d{1,3})[.)]\s+(?P<text>\S.*)$")
_LABEL = re.compile(r"^[-*]\s+(?P<key>[\w.\-]+):\s+(?P<text>\S.*)$")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")
EXERCISE_KEYS = ("project", "notebooks", "label")
QUIZ_FILE = "quiz.md"
EXERCISES_FILE = "exercises.md"


@dataclass
class Section:
    id: str
    title: Localized
    line: int


@dataclass
class Checker:
    """An author's `check(answer)` in Python, with answers it must reject."""

    source: str
    wrong: list[dict[str, Any]]
    line: int
    # Each wrong answer's own line: a checker that accepts one is reported there, not at 'check:'.
    wrong_lines: list[int]


@dataclass
class Question:
    id: str
    qtype: QuestionType
    line: int
    section: Section | None
    title: Localized
    body: Localized
    explanation: Localized
    lists: ListParts
    key: Any
    checker: Checker | None = None
    # Made by the author's Python, one concrete version per seed; the question's own text and key are variant 1's.
    variants: Variants | None = None
    # Shown one at a time before the explanation: hint n in every language (see hints.py).
    hints: list[Localized] = field(default_factory=list)
    # None until the module's defaults are applied (shuffle.settle).
    shuffle: bool | None = None
    hint_note: bool | None = None
    # What the question or its module.yml says of hint_note (None: neither): course.yml decides the rest. A module
    # is kept between builds by its folder alone, so the course's default is applied to it on every load.
    own_hint_note: bool | None = None
    # Numeric answers over the module's values (`answer: "N*B/2**30"`): the key is built once they are known.
    named: NamedSource | None = None

    @property
    def variant_questions(self) -> list[Question]:
        """Each variant as a question of its own (its text and key, no variants): what the build checks and
        renders for each; the question alone when it has no variants."""
        if self.variants is None:
            return [self]
        return [replace(self, title=item.title, body=item.body, explanation=item.explanation, lists=item.lists,
                        hints=item.hints, key=item.key, variants=None) for item in self.variants.items]

    @property
    def python(self) -> bool:
        """Graded by Python in the browser's worker."""
        return self.qtype.runs_python(self.key) or self.checker is not None

    @property
    def type(self) -> str:
        return self.qtype.name

    @property
    def auto_type(self) -> str:
        """The type that grades the question: its own, or a mixed question's auto-checked part."""
        return self.key.auto.name if isinstance(self.key, MixedKey) else self.type

    @property
    def browser_module(self) -> str | None:
        """The browser's module grading the question (runtime/assets/js/types/<name>.js); None where it has none."""
        qtype = self.key.auto if isinstance(self.key, MixedKey) else self.qtype
        return (qtype.browser_module or qtype.name) if qtype.auto else None

    @property
    def auto_key(self) -> Any:
        """The key of the part that grades the question (a mixed question's auto-checked part's)."""
        return self.key.key if isinstance(self.key, MixedKey) else self.key

    @property
    def spec(self) -> dict[str, Any]:
        """What the browser's grader (and the reference grader) needs of the question: its type's key, its
        author's checker, and whether Python grades it."""
        spec = {"type": self.type, **self.qtype.spec(self.key)}
        if self.checker is not None:
            spec["check"] = self.checker.source
        if self.python:
            # The page starts Python for it as it opens, before any module of its type has loaded.
            spec["python"] = True
        return spec


@dataclass
class NotebookLink:
    # The notebook each language's page points to (the same file, or one per language).
    file: dict[str, str]
    section: dict[str, str]


@dataclass
class Exercise:
    id: str
    line: int
    project: bool
    title: Localized
    statement: Localized
    solution: Localized
    criteria: Localized | None
    notebooks: list[NotebookLink]
    # Shown before the title, per language; the id unless the author gives one.
    label: dict[str, str] = field(default_factory=dict)


@dataclass
class Module:
    slug: str
    number: int
    title: dict[str, str]
    path: Path
    quiz: list[Section | Question] | None = None
    exercises: list[Exercise] | None = None
    # Files outside the module's folder its code read as it was read (a values file's data, a helper it
    # imports), by their digests: a module kept between builds is read again when one of them changed.
    outside: dict[str, str] = field(default_factory=dict)
    # `mode: exam` (reading/exam.py): one Submit for the whole quiz; None: practice.
    exam: Exam | None = None

    @property
    def questions(self) -> list[Question]:
        return [item for item in self.quiz or [] if isinstance(item, Question)]

    @property
    def files_dir(self) -> Path | None:
        folder = self.path / "files"
        return folder if folder.is_dir() else None


@dataclass
class Course:
    id: str
    title: dict[str, str]
    modules_total: int
    path: Path
    modules: list[Module] = field(default_factory=list)
    # course.yml's hint_note: the default of its modules that say nothing of it.
    hint_note: bool = False


@dataclass
class Unread:
    """What of a module's sources could not be read, its problem reported: a reference to an id that may be in it
    is not reported as unknown too (the id is likely there, and the advice to write another would be wrong)."""

    ids: set[str] = field(default_factory=set)
    # A file that could not be split into blocks: any id may be in it.
    whole_file: bool = False

    def may_hold(self, ref: str) -> bool:
        return self.whole_file or ref in self.ids


@dataclass
class Loader:
    """Reads every course under one folder, collecting all problems before it reports them."""

    root: Path
    languages: list[str]
    # Paths in messages are shown relative to this folder (the site's config folder).
    base: Path
    errors: list[SourceError] = field(default_factory=list)
    # Each course id read so far, without case, and the course.yml (as messages show it) that gave it, as written.
    _course_ids: dict[str, tuple[str, str]] = field(default_factory=dict, repr=False)
    # Each path as messages show it, worked out once: blocks and questions ask for their file's again and again.
    _shown: dict[Path, str] = field(default_factory=dict, repr=False)

    def shown(self, path: Path) -> str:
        found = self._shown.get(path)
        if found is None:
            found = self._shown[path] = self.relative(path)
        return found

    def relative(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.base))
        except ValueError:
            return str(path)

    def load(self) -> list[Course]:
        courses = []
        if self.root.is_dir():
            for folder in sorted(p for p in self.root.iterdir() if p.is_dir() and not p.name.startswith(".")):
                course = self.course(folder)
                if course is not None:
                    courses.append(course)
        if self.errors:
            raise SourceErrors(self.errors)
        return courses

    # -- courses and modules -------------------------------------------------------------------------

    def course(self, folder: Path) -> Course | None:
        path = folder / "course.yml"
        if not path.is_file():
            self.errors.append(
                SourceError(self.shown(folder), 0, "a course folder without course.yml",
                            "add course.yml with id, title (per language) and modules (their number)")
            )
            return None
        loaded = self.yaml_file(path, ("id", "title", "modules", HINT_NOTE))
        if loaded is None:
            return None
        data, lines = loaded
        key = "modules"
        try:
            total = data.get("modules")
            if type(total) is not int or total < 1:
                raise ValueError("'modules' must be the number of modules in the course, e.g. 'modules: 13'")
            key = "id"
            course_id = check_id(str(data.get("id", folder.name)))
            # Pages and learners' saved answers are kept under the id: a second course would take the first's.
            # Without case, as macOS and Windows compare the site's folders.
            first, written = self._course_ids.setdefault(course_id.casefold(), (self.shown(path), course_id))
            if first != self.shown(path):
                raise SourceError(self.shown(path), lines.get(("id",), 0) + 1,
                                  f"the course id '{course_id}' is also the id of {first}"
                                  + (f", written '{written}'" if written != course_id else ""),
                                  "give each course an id of its own, whatever their case (id: in course.yml; the "
                                  "folder's name without one): its pages and learners' saved answers are kept "
                                  "under it, and macOS and Windows take demo/ and Demo/ for one folder")
            key = "title"
            course = Course(id=course_id, title=self.titles(data.get("title"), "title"), modules_total=total,
                            path=folder)
            course.hint_note = bool(flag(data.get(HINT_NOTE), HINT_NOTE, self.shown(path),
                                         lines.get((HINT_NOTE,), 0) + 1))
        except ValueError as error:
            self.errors.append(SourceError(self.shown(path), lines.get((key,), 0) + 1, str(error),
                                           getattr(error, "hint", "")))
            return None
        except SourceError as error:
            self.errors.append(error)
            return None
        folders: dict[str, Path] = {}
        for module_dir in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
            if problem := address_problem(module_dir.name):
                self.errors.append(SourceError(
                    self.shown(module_dir), 0, f"the module folder's name '{module_dir.name}' {problem}",
                    f"rename the folder: its name is part of its pages' addresses and of exported files' names; "
                    f"use {SAFE}",
                ))
                continue
            # The folder's name is its pages' address, which macOS and Windows compare without case.
            first_folder = folders.setdefault(module_dir.name.casefold(), module_dir)
            if first_folder != module_dir:
                self.errors.append(SourceError(
                    self.shown(module_dir), 0,
                    f"the module folder's name '{module_dir.name}' is already used at {self.shown(first_folder)}",
                    "rename one of the folders: names must differ whatever their case, as a module's pages are "
                    "kept under its folder's name and macOS and Windows take 01-Intro/ and 01-intro/ for one",
                ))
                continue
            module = self.module(module_dir)
            if module is not None:
                course.modules.append(module)
        course.modules.sort(key=lambda module: module.number)
        for module in course.modules:
            for question in module.questions:
                own = question.own_hint_note
                question.hint_note = (course.hint_note if own is None else own) and question.qtype.auto \
                    and bool(question.hints)
        self.no_duplicate_numbers(course)
        return course

    def module(self, folder: Path) -> Module | None:
        quiz, exercises = folder / QUIZ_FILE, folder / EXERCISES_FILE
        meta = folder / "module.yml"
        if not quiz.is_file() and not exercises.is_file():
            self.errors.append(
                SourceError(self.shown(folder), 0, "a module folder with neither quiz.md nor exercises.md",
                            "add quiz.md and/or exercises.md, or move the folder out of exercises/")
            )
            return None
        if not meta.is_file():
            self.errors.append(
                SourceError(self.shown(folder), 0, "a module folder without module.yml",
                            "add module.yml with 'number:' and 'title:' per language")
            )
            return None
        loaded = self.yaml_file(meta, ("number", "title", "values", *QUESTION_OPTIONS, *EXAM_KEYS))
        if loaded is None:
            return None
        data, lines = loaded
        key = "number"
        try:
            number = data.get("number")
            if type(number) is not int or number < 0:
                raise ValueError("'number' must be the module's number, e.g. 'number: 12'")
            key = "title"
            module = Module(folder.name, number, self.titles(data.get("title"), "title"), folder)
        except ValueError as error:
            self.errors.append(SourceError(self.shown(meta), lines.get((key,), 0) + 1, str(error),
                                           getattr(error, "hint", "")))
            return None
        try:
            module.exam = exam_of(data, self.shown(meta), lines, quiz.is_file())
        except SourceError as error:
            self.errors.append(error)
        ids: dict[str, tuple[Path, int, str]] = {}
        unread = Unread()
        if quiz.is_file():
            module.quiz = self.quiz_file(quiz, ids, unread)
            self.settle_questions(module, meta, data, lines)
        if exercises.is_file():
            module.exercises = self.exercises_file(exercises, ids, unread)
        varied = [question for question in module.questions if question.variants is not None]
        values: dict[str, float] | None = {}
        self.placeholders_written_right(module, "values" in data)
        self.links_written_right(module)
        if "values" in data:
            values = self.fill_values(module, meta, data["values"], lines.get(("values",), 0) + 1, bool(varied))
        self.named_keys(module, meta, values)
        self.resolve_references(module, unread)
        if varied and values is not None:
            values_file = module.path / str(data["values"]) if "values" in data else None
            expander = Expander(values_file, values, self.languages, self.shown(quiz), module.path)
            for question in varied:
                problem = expander.expand(question)
                if problem is not None:
                    self.errors.append(problem)
        return module

    def named_keys(self, module: Module, meta: Path, values: dict[str, float] | None) -> None:
        """The keys of questions whose numeric answers compute with the module's values, now that they are known
        (None: the values file failed, and was reported)."""
        quiz = self.shown(module.path / QUIZ_FILE)
        for question in module.questions:
            named = question.named
            if named is None or values is None:
                continue
            if not values:
                self.errors.append(self.unnamed_key_problem(question, named, quiz, meta))
                continue
            try:
                question.key = named_key(question.qtype, named.config, named.lines, values, question.lists,
                                         tuple(self.languages))
            except VariantProblem as problem:
                hint = "check the figures values() returns" if problem.skippable else problem.hint
                self.errors.append(SourceError(quiz, problem.line, str(problem).replace(
                    "a name of the variant", "a name of the module's values"), hint))

    def unnamed_key_problem(self, question: Question, named: NamedSource, quiz: str, meta: Path) -> SourceError:
        """Names in the answers of a module without values: the plain reading's own message at the field's line,
        and the way to give the names figures."""
        values_hint = (f"to compute with the module's figures, name a values file in {self.shown(meta)} ('values: "
                       f"files/values.py', whose values() returns {{'{named.names[0]}': …}})")
        try:
            question.qtype.build(named.config, question.lists, tuple(self.languages))
        except Invalid as problem:
            return SourceError(quiz, named.lines.of(problem.path), str(problem), f"{problem.hint}; or, {values_hint}")
        # A free name never reads as plain arithmetic; should it ever, the module still lacks the values.
        return SourceError(quiz, named.lines.of(("fields",)), f"{question.id}'s answers compute with "
                           f"{', '.join(named.names)}, but the module has no values", values_hint)

    def settle_questions(self, module: Module, meta: Path, data: dict[str, Any], lines: dict[KeyPath, int]) -> None:
        """module.yml's shuffle and hint_note for questions that say nothing, and each question's `[[option:B]]`."""
        try:
            defaults = module_options(data, self.shown(meta), lines)
        except SourceError as error:
            self.errors.append(error)
            return
        quiz = self.shown(module.path / QUIZ_FILE)
        module_says = data.get(HINT_NOTE) is not None
        for question in module.questions:
            question.own_hint_note = question.hint_note if question.hint_note is not None \
                else defaults.hint_note if module_says else None
            self.errors.extend(settle(question, defaults, quiz))
            self.errors.extend(place_gaps(question, quiz))

    def resolve_references(self, module: Module, unread: Unread) -> None:
        """`[[E1]]` in author text becomes the target's label in the page's language, linked to its anchor
        on this page or on the module's other page; an unknown one is reported with its line."""
        targets = reference_targets(module)
        for page, source, lang, fragment, linked in referring_fragments(module):
            # Only `[[…]]` is ever replaced: most text has none, and needs no pass of the pattern.
            if "[[" not in fragment.markdown:
                continue
            resolve = partial(self.reference, targets, unread, page, lang, linked, source, fragment)
            fragment.markdown = _REFERENCE.sub(resolve, fragment.markdown)

    def reference(self, targets: dict[str, Target], unread: Unread, page: str, lang: str, linked: bool,
                  source: Path, fragment: Fragment, match: re.Match[str]) -> str:
        if match["ref"] is None:  # code or math, where [[…]] is not a reference
            return match[0]
        target = targets.get(match["ref"])
        if target is None and unread.may_hold(match["ref"]):
            return match[0]
        if target is None:
            line = fragment.line + fragment.markdown.count("\n", 0, match.start())
            self.errors.append(SourceError(self.shown(source), line, f"unknown reference {match[0]}",
                                           reference_hint(match["ref"], targets)))
            return match[0]
        label = target.label.get(lang, target.id)
        if not linked:
            return label
        href = f"#{target.anchor}" if target.page == page else f"{PAGE_FILES[target.page]}#{target.anchor}"
        text = _LINK_TEXT_SPECIAL.sub(r"\\\g<0>", label)
        return f"[{text}]({href})"

    def fill_values(self, module: Module, meta: Path, name: Any, line: int,
                    optional: bool = False) -> dict[str, float] | None:
        """Put the figures a module's code computes into its text: `{{ name:.3f }}`. A question with variants gets
        them with its variant's own figures, later. `optional`: the file may define variant functions only.
        The values, or None when the file cannot give them (reported)."""
        path = module.path / str(name)
        # Checked before the file runs: the build runs it, and only the module's own files are part of it.
        leaving = outside_of(module.path, str(name), module.path)
        if leaving is not None:
            self.errors.append(SourceError(
                self.shown(meta), line, f"the values file must be inside the module's folder: {leaving.problem}",
                LINK_OUT_HINT if leaving.linked else "put the file into the module's folder and name it from there, "
                "e.g. 'values: files/values.py'"))
            return None
        if not path.is_file():
            written = read_source(meta, self.shown(meta)).split("\n")[line - 1]
            self.errors.append(SourceError(
                self.shown(meta), line, f"'values' names {name}, which is not in the module's folder",
                missing_file_hint(module.path, str(name), written, "values")
                or "put the file into the module's folder or fix its name"))
            return None
        try:
            # Python would refuse it too, but with a line of its own and no word of what to do.
            read_source(path, self.shown(path))
            values = load_values(path, module.path, optional)
        except SourceError as error:
            self.errors.append(error)
            return None
        except ValuesError as error:
            if error.file is not None:
                self.errors.append(SourceError(self.shown(error.file), error.line, str(error), error.hint))
            else:
                self.errors.append(SourceError(self.shown(meta), line, f"cannot read the module's values: {error}",
                                               error.hint))
            return None
        except Exception as error:  # noqa: BLE001 - the author's code: any failure is reported, with its file
            self.errors.append(SourceError(self.shown(meta), line, f"cannot read the module's values: {error}",
                                           getattr(error, "hint", "values() must return a dict of names to numbers")))
            return None
        for source, fragments in module_fragments(module, varied=False):
            for lang, fragment in fragments:
                try:
                    fragment.markdown = substitute(fragment.markdown, values, lang)
                except PlaceholderError as problem:
                    where = fragment.line + fragment.markdown.count("\n", 0, problem.offset)
                    self.errors.append(SourceError(self.shown(source), where, str(problem), problem.hint))
        return values

    def placeholders_written_right(self, module: Module, values_file: bool) -> None:
        """The first placeholder of the module's texts that the page would show as written: one begun but not
        ended as one, or, without a values file, any outside the questions with variants (which have figures
        of their own)."""
        checks = [(unfinished_placeholder, True)]
        if not values_file:
            checks.append((placeholder_without_values, False))
        for problem_of, varied in checks:
            for source, fragments in module_fragments(module, varied=varied):
                for _, fragment in fragments:
                    problem = problem_of(fragment.markdown)
                    if problem is not None:
                        where = fragment.line + fragment.markdown.count("\n", 0, problem.offset)
                        self.errors.append(SourceError(self.shown(source), where, str(problem), problem.hint))
                        return

    def links_written_right(self, module: Module) -> None:
        """A link or picture of the module's texts whose target is written with '\\', as Windows writes paths: MkDocs
        would name the generated page, with no line, and the link would lead nowhere."""
        for source, fragments in module_fragments(module):
            for _, fragment in fragments:
                for match in _LINK_TARGET.finditer(fragment.markdown):
                    target = match["target"]
                    if target and _PATH_BACKSLASH.search(target):
                        where = fragment.line + fragment.markdown.count("\n", 0, match.start("target"))
                        self.errors.append(SourceError(
                            self.shown(source), where, f"the link '{target}' is written with '\\'",
                            f"write '/': '{target.replace(chr(92), '/')}'"))

    def no_duplicate_numbers(self, course: Course) -> None:
        seen: dict[int, Module] = {}
        for module in course.modules:
            if module.number in seen:
                self.errors.append(
                    SourceError(self.shown(module.path / "module.yml"), 1,
                                f"module number {module.number} is also used by {seen[module.number].slug}",
                                "give every module of a course its own number")
                )
            seen[module.number] = module
            if module.number > course.modules_total:
                self.errors.append(
                    SourceError(self.shown(module.path / "module.yml"), 1,
                                f"module {module.number} is past the course's {course.modules_total} modules",
                                "raise 'modules:' in course.yml or fix the number")
                )

    def titles(self, value: Any, key: str) -> dict[str, str]:
        """A course's or module's title: one for every language, or one per language (TextProblem)."""
        return per_language(value, self.languages, f"'{key}'", key)

    def yaml_file(self, path: Path, keys: tuple[str, ...]) -> tuple[dict[str, Any], dict[KeyPath, int]] | None:
        try:
            data, lines = load_with_lines(read_source(path, self.shown(path)))
        except YamlProblem as problem:
            self.errors.append(SourceError(self.shown(path), problem.line_offset + 1, str(problem)))
            return None
        except SourceError as error:
            self.errors.append(error)
            return None
        if not isinstance(data, dict):
            self.errors.append(SourceError(self.shown(path), 1, "expected YAML keys", f"write {', '.join(keys)}"))
            return None
        for key in data:
            if key not in keys:
                self.errors.append(unknown_key(self.shown(path), lines[(str(key),)] + 1, str(key), keys))
                return None
        return data, lines

    # -- quiz and exercises files -------------------------------------------------------------------

    def blocks(self, path: Path, kind: str, unread: Unread) -> list[Block]:
        """The file's blocks; none, and the problem noted, when it cannot be split or holds none (an empty page
        in the navigation, never what its author meant); `kind` is the block it should hold."""
        try:
            blocks = split_blocks(read_source(path, self.shown(path)), self.shown(path))
        except SourceError as error:
            self.errors.append(error)
            unread.whole_file = True
            return []
        if not blocks:
            self.errors.append(SourceError(self.shown(path), 1, f"{path.name} holds no {kind}",
                                           f"write a '/// {kind} | ID' block, or delete the file: a module needs "
                                           "only one of quiz.md and exercises.md"))
        return blocks

    def quiz_file(self, path: Path, ids: dict[str, tuple[Path, int, str]], unread: Unread
                  ) -> list[Section | Question]:
        items: list[Section | Question] = []
        section: Section | None = None
        for block in self.blocks(path, "question", unread):
            reader = BlockReader(self, path, block)
            try:
                if block.kind == "section":
                    section = reader.section()
                    items.append(section)
                elif block.kind == "question":
                    items.append(reader.question(section))
                    self.unique_id(ids, block, path)
                else:
                    raise reader.fail(
                        f"unknown block '{block.kind}' in a quiz", block.line,
                        "a quiz holds '/// question | ID' and '/// section | ID' blocks",
                    )
            except SourceError as error:
                self.errors.append(error)
                unread.ids.add(block.arg)
        return items

    def exercises_file(self, path: Path, ids: dict[str, tuple[Path, int, str]], unread: Unread) -> list[Exercise]:
        items: list[Exercise] = []
        for block in self.blocks(path, "exercise", unread):
            reader = BlockReader(self, path, block)
            try:
                if block.kind != "exercise":
                    raise reader.fail(
                        f"unknown block '{block.kind}' in exercises", block.line,
                        "an exercises file holds '/// exercise | ID' blocks",
                    )
                items.append(reader.exercise())
                self.unique_id(ids, block, path)
            except SourceError as error:
                self.errors.append(error)
                unread.ids.add(block.arg)
        return items

    def unique_id(self, ids: dict[str, tuple[Path, int, str]], block: Block, path: Path) -> None:
        # Without case: `q1` and `Q1` would be one file in a QTI package unzipped on macOS or Windows, and one id
        # number in Moodle.
        key = block.arg.casefold()
        if key in ids:
            where, line, written = ids[key]
            raise SourceError(
                self.shown(path), block.line, f"the id '{block.arg}' is already used at {self.shown(where)}:{line}"
                + (f", written '{written}'" if written != block.arg else ""),
                "ids key saved answers and name the questions of an export, so each must be unique in the module, "
                "whatever their case",
            )
        # The path as messages show it is worked out only for a message.
        ids[key] = (path, block.line, block.arg)


def module_fragments(module: Module, varied: bool = True):
    """Every piece of author text of a module, per source file, as (language, fragment); without the questions
    that have variants unless `varied`."""
    quiz: list[tuple[str, Fragment]] = []
    for item in module.quiz or []:
        if isinstance(item, Question) and item.variants is not None and not varied:
            continue
        if isinstance(item, Section):
            texts = [item.title]
        else:
            entries = [entry.text for listed in item.lists.values() for entry in listed]
            texts = [item.title, item.body, item.explanation, *item.hints, *entries]
        quiz.extend(pair for text in texts for pair in text.items())
    exercises: list[tuple[str, Fragment]] = []
    for exercise in module.exercises or []:
        for text in (exercise.title, exercise.statement, exercise.solution, exercise.criteria or {}):
            exercises.extend(text.items())
    yield module.path / QUIZ_FILE, quiz
    yield module.path / EXERCISES_FILE, exercises


# -- references: `[[E1]]`, `[[9.4.2]]`, `[[9.4]]` -----------------------------------------------------------------

# A reference, unless it stands in text that is not prose: a code fence, a code span, math (or an escaped $).
_NOT_PROSE = (r"^[ \t]*(?P<fence>`{3,}|~{3,})[^\n]*\n.*?^[ \t]*(?P=fence)[ \t]*$"
              r"|(?P<ticks>`+)[^\n]*?(?P=ticks)|\\\$|\$\$.*?\$\$|\$[^$\n]+\$")
_REFERENCE = re.compile(_NOT_PROSE + r"|\[\[(?P<ref>[^\[\]\n]*)\]\]", re.MULTILINE | re.DOTALL)
# A link's or a picture's target, unless it stands in code or math (as for references above).
_LINK_TARGET = re.compile(_NOT_PROSE + r"|\]\((?P<target>[^)\s]*)", re.MULTILINE | re.DOTALL)
# A file's path as Windows writes it: a backslash that separates folders (before punctuation it is Markdown's
# escape, 'a\_b'), and a file name with an extension at the end. A regex such as [a-z](\d+) in code that is no
# fence (an indented block, <code>) names no file.
_PATH_BACKSLASH = re.compile(r"\\(?![!-/:-@\[-`{-~]).*\.[A-Za-z0-9]{1,8}(?:#.*)?$")
# A module's pages in one language are siblings named like its sources (see site.module_page_uri), so a link
# to the other page's .md file is relative, and MkDocs writes it in the site's URL style.
PAGE_FILES = {"quiz": QUIZ_FILE, "exercises": EXERCISES_FILE}
_LINK_TEXT_SPECIAL = re.compile(r"[\\\[\]]")


@dataclass(frozen=True)
class Target:
    """What a reference names: an exercise, a question or a section, where it is and how each page shows it."""

    id: str
    page: str
    anchor: str
    label: dict[str, str] = field(default_factory=dict)


def reference_targets(module: Module) -> dict[str, Target]:
    """Ids a module's text can refer to; a question or an exercise wins over a section of the same id."""
    targets: dict[str, Target] = {}
    for exercise in module.exercises or []:
        targets[exercise.id] = Target(exercise.id, "exercises", f"e-{exercise.id}", exercise.label)
    for item in module.quiz or []:
        if isinstance(item, Question):
            targets[item.id] = Target(item.id, "quiz", f"q-{item.id}")
    for item in module.quiz or []:
        if isinstance(item, Section):
            targets.setdefault(item.id, Target(item.id, "quiz", f"s-{item.id}"))
    return targets


def referring_fragments(module: Module) -> Iterator[tuple[str, Path, str, Fragment, bool]]:
    """Author text that may refer: (page, source, language, fragment, linked). Titles and list entries get the
    label without a link: a heading's line in the contents is plain text, and a link inside an option's label
    would take a click meant for the option."""
    quiz_source, exercises_source = module.path / QUIZ_FILE, module.path / EXERCISES_FILE
    for item in module.quiz or []:
        texts: list[tuple[Localized, bool]]
        if isinstance(item, Section):
            texts = [(item.title, False)]
        else:
            entries = [(entry.text, False) for listed in item.lists.values() for entry in listed]
            texts = [(item.title, False), (item.body, True), (item.explanation, True),
                     *((hint, True) for hint in item.hints), *entries]
        for text, linked in texts:
            for lang, fragment in text.items():
                yield "quiz", quiz_source, lang, fragment, linked
    for exercise in module.exercises or []:
        parts = [(exercise.title, False), (exercise.statement, True), (exercise.solution, True),
                 (exercise.criteria or {}, True)]
        for text, linked in parts:
            for lang, fragment in text.items():
                yield "exercises", exercises_source, lang, fragment, linked


def reference_hint(written: str, targets: dict[str, Target]) -> str:
    by_label = [target.id for target in targets.values() if written in target.label.values()]
    if by_label:
        return f"'{written}' is how a page shows {by_label[0]}: write [[{by_label[0]}]]"
    same_but_case = [name for name in targets if name.casefold() == written.casefold()]
    close = same_but_case or difflib.get_close_matches(written, targets, n=1, cutoff=0.6)
    if close:
        return f"did you mean [[{close[0]}]]? (the id of an exercise, question or section of this module)"
    names = [f"[[{name}]]" for name in targets]
    known = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "") \
        or "none: the module has no exercises or questions"
    return f"write the id of an exercise, question or section of this module: {known}"


def unknown_key(path: str, line: int, key: str, allowed: tuple[str, ...]) -> SourceError:
    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return SourceError(path, line, f"unknown key '{key}'", f"{hint}allowed here: {', '.join(allowed)}")


def question_keys(types: dict[str, QuestionType]) -> tuple[str, ...]:
    """Every key a question's YAML may have, whatever its type."""
    keys = ("type", "auto", "check", "wrong", "variants", *QUESTION_OPTIONS,
            *(key for qtype in types.values() for key in qtype.keys))
    return tuple(dict.fromkeys(keys))


def section_title_hint(languages: list[str]) -> str:
    """A section's title is its YAML, so the hint shows lines rather than a 'key: …'."""
    if len(languages) == 1:
        return "write the title alone on the line below the opener"
    lines = " and ".join(f"'{lang}: Title'" for lang in languages)
    return f"write one line per language, {lines}, or the title alone for every language"


def check_id(value: str) -> str:
    if not _ID.match(value):
        raise ValueError(f"'{value}' cannot be an id: use Latin letters, digits, '.', '-' and '_' without spaces")
    return value


@dataclass
class BlockReader:
    """Reads one block: its YAML, its language parts, and (through its type) its answer key."""

    loader: Loader
    path: Path
    block: Block
    config: dict[str, Any] = field(default_factory=dict)
    key_lines: dict[KeyPath, int] = field(default_factory=dict)
    # A block without language parts: its text, below its YAML (None: the block has language parts).
    text_lines: list[Line] | None = None

    @property
    def shown(self) -> str:
        return self.loader.shown(self.path)

    @property
    def languages(self) -> list[str]:
        return self.loader.languages

    def fail(self, message: str, line: int, hint: str = "") -> SourceError:
        return SourceError(self.shown, line, message, hint)

    def line_of(self, path: KeyPath) -> int:
        while path not in self.key_lines and path:
            path = path[:-1]
        if path in self.key_lines:
            return self.block.yaml_first_line + self.key_lines[path]
        return self.block.line

    def read_yaml(self, allowed: tuple[str, ...] | None) -> dict[str, Any]:
        try:
            data, self.key_lines = load_with_lines(self.block.yaml_text)
        except YamlProblem as problem:
            hint = "leave a blank line between the YAML and the text" if self.prose_in_yaml() else ""
            raise self.fail(str(problem), self.block.yaml_first_line + problem.line_offset, hint) from None
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise self.fail("expected 'key: value' lines after the block's first line", self.block.yaml_first_line)
        self.config = data
        if allowed is not None:
            for key in data:
                if key not in allowed:
                    raise unknown_key(self.shown, self.line_of((str(key),)), str(key), allowed)
        return data

    def prose_in_yaml(self) -> bool:
        """A block without language parts whose YAML holds a line at the margin that is no key, comment or list
        item: its text, with no blank line above it."""
        return self.text_lines is not None and any(
            line.text.strip() and not line.text[:1].isspace() and not YAML_KEY.match(line.text)
            and not line.text.startswith(("#", "-")) for line in self.block.yaml_lines)

    def split_text(self, yaml_keys: tuple[str, ...] | None) -> None:
        """A block without language parts (a monolingual source): its YAML ends at the first blank line, and
        its text follows."""
        if self.block.langs:
            return
        self.block.yaml_lines, self.text_lines = split_yaml_and_text(self.block.yaml_lines, yaml_keys)

    def no_yaml_in_text(self, keys: tuple[str, ...]) -> None:
        """A key of the block's YAML below a blank line, which the text now begins with: the author's YAML
        has a blank line in it. (`options:` or `fields:` alone at the margin starts a list of the text.) On a
        site in several languages, the missing language parts are what to report."""
        if len(self.languages) > 1:
            return
        lines = [line for line in self.text_lines or [] if line.text.strip()]
        match = YAML_KEY.match(lines[0].text) if lines else None
        if match is None or match["key"] not in keys:
            return
        inline_value = lines[0].text[match.end():].strip()
        indented_next = len(lines) > 1 and lines[1].text[:1].isspace()
        if inline_value or indented_next:
            blank = max(line.number for line in self.block.yaml_lines) + 1 if self.block.yaml_lines else (
                self.block.line + 1)
            raise self.fail(f"'{match['key']}:' is below a blank line, in the text", lines[0].number,
                            f"the first blank line ends the block's YAML: delete the one at line {blank}")

    def require_id(self) -> str:
        if not self.block.arg:
            raise self.fail(f"the {self.block.kind} has no id", self.block.line,
                            f"write '/// {self.block.kind} | ID', e.g. '/// {self.block.kind} | P05'")
        try:
            return check_id(self.block.arg)
        except ValueError as error:
            raise self.fail(str(error), self.block.line) from None

    # -- sections -----------------------------------------------------------------------------------

    def section(self) -> Section:
        """A section's YAML is its title: a plain string, or one line per language ('en: Title')."""
        section_id = self.require_id()
        if self.block.title:
            raise self.fail("a section's title is its YAML", self.block.line,
                            f"write it on the line below: '{self.block.title}'")
        if self.block.langs:
            raise self.fail("a section has no language parts", self.block.langs[0].line,
                            section_title_hint(self.languages))
        try:
            data, self.key_lines = load_with_lines(self.block.yaml_text)
        except YamlProblem as problem:
            raise self.fail(str(problem), self.block.yaml_first_line + problem.line_offset) from None
        if isinstance(data, dict):
            for key, value in data.items():
                if key in self.languages:
                    continue
                line = self.line_of((str(key),))
                if len(data) == 1 and isinstance(value, str | int | float):
                    # "Método: Newton" is YAML for a key and its value: a title with a colon, not a language.
                    title = f"{key}: {value}"
                    raise SourceError(self.shown, line, f"the section title '{title}' holds ': ', which YAML reads "
                                      "as a key and its value", f"put the title in quotes: \"{title}\"")
                raise unknown_key(self.shown, line, str(key), tuple(self.languages))
        try:
            texts = per_language(data, self.languages, "the section's title", "title", "Title")
        except TextProblem as problem:
            missing = [lang for lang in self.languages if isinstance(data, dict) and lang not in data]
            hint = ("add " + " and ".join(f"'{lang}: Title'" for lang in missing) if missing
                    else section_title_hint(self.languages))
            raise self.fail(str(problem), self.block.line, hint) from None
        title = {lang: Fragment(text, self.line_of((lang,))) for lang, text in texts.items()}
        return Section(section_id, title, self.block.line)

    # -- questions ----------------------------------------------------------------------------------

    def question(self, section: Section | None) -> Question:
        question_id = self.require_id()
        self.split_text(None)
        data = self.read_yaml(None)
        types = registry()
        self.no_yaml_in_text(question_keys(types))
        type_name = data.get("type")
        if type_name is None:
            misspelt = [key for key in data if difflib.get_close_matches(str(key), ["type"], cutoff=0.6)]
            if misspelt:
                raise unknown_key(self.shown, self.line_of((str(misspelt[0]),)), str(misspelt[0]),
                                  question_keys(types))
            raise self.fail(f"question {question_id} has no type", self.block.line,
                            f"add 'type:' with one of {', '.join(types)}")
        if not isinstance(type_name, str) or type_name not in types:
            raise self.fail(f"unknown question type '{type_name}'", self.line_of(("type",)),
                            f"use one of {', '.join(types)}")
        qtype = types[type_name]
        # Checkers replace a type's own grading; a mixed question's auto part is graded by its own rules.
        checker_keys = ("check", "wrong") if qtype.auto and not qtype.python and qtype.takes_checker else ()
        try:
            allowed = ("type", *qtype.allowed_keys(data), *checker_keys, *QUESTION_OPTIONS, "variants")
            list_parts = qtype.parts_for(data)
        except Invalid as problem:
            raise self.invalid(problem) from None
        for key in data:
            if key not in allowed:
                raise unknown_key(self.shown, self.line_of((str(key),)), str(key), allowed)
        try:
            variants = read_variants(data["variants"], qtype.name) if "variants" in data else None
        except Invalid as problem:
            raise self.invalid(problem) from None
        texts = self.language_parts(list_parts, ("explanation", HINTS), ("explanation",))
        lists = self.merged_lists(texts, list_parts)
        hints = self.hints(texts)
        try:
            # With variants, the key is built per variant, with the variant's names (reading.variants); until then
            # a mixed question's says which type its auto part is (shuffle asks).
            # Answers over the module's values wait for them in the same way (Reader.named_keys).
            names = field_names(data) if variants is None else []
            key = qtype.build(data, lists, tuple(self.languages)) if variants is None and not names \
                else provisional_key(qtype, data)
            checker = self.checker(qtype, data) if qtype.takes_checker else None
        except Invalid as problem:
            raise self.invalid(problem) from None
        lines = {path: self.block.yaml_first_line + offset for path, offset in self.key_lines.items()}
        if variants is not None:
            variants.line = self.line_of(("variants",))
            variants.config = data
            variants.lines = lines
        question = Question(
            id=question_id, qtype=qtype, line=self.block.line, section=section,
            title={lang: parts.title for lang, parts in texts.items()},
            body={lang: parts.body for lang, parts in texts.items()},
            explanation={lang: parts.texts["explanation"] for lang, parts in texts.items()},
            lists=lists, key=key, checker=checker, hints=hints, variants=variants,
            named=NamedSource(data, NamedLines(lines, self.block.line), names) if names else None,
        )
        check_question_options(question, data, self.shown, self.line_of)
        return question

    def hints(self, texts: dict[str, LanguageText]) -> list[Localized]:
        """Each language's numbered `hints:`, hint n in every language."""
        wrapped = bool(self.block.langs)
        per_lang = {lang: split_hints(parts.texts[HINTS], self.shown, f"the '{lang}'" if wrapped else "the")
                    if HINTS in parts.texts else None for lang, parts in texts.items()}
        part_lines = {lang_block.lang: lang_block.line for lang_block in self.block.langs}
        for lang, parts in texts.items():
            if HINTS in parts.texts:
                part_lines[lang] = parts.texts[HINTS].line
        return merged_hints(per_lang, part_lines, self.shown)

    def checker(self, qtype: QuestionType, data: dict[str, Any]) -> Checker | None:
        if "check" not in data:
            if "wrong" in data:
                raise Invalid("'wrong' lists answers a checker must reject, but there is no 'check'", ("wrong",),
                              "add 'check: |' with 'def check(answer): …', or remove 'wrong'")
            return None
        source = data["check"]
        if not isinstance(source, str):
            raise Invalid("'check' is Python code", ("check",), "write 'check: |' and a function 'def check(answer):'")
        try:
            tree = ast.parse(source)
        except SyntaxError as error:
            raise python_syntax_error(error, ("check",), source) from None
        if not any(isinstance(node, ast.FunctionDef) and node.name == "check" for node in tree.body):
            raise Invalid("'check' must define a function 'check(answer)'", ("check",),
                          "return True/False, or (verdict, message)")
        wrong = data.get("wrong") or []
        if not isinstance(wrong, list):
            raise Invalid("'wrong' is a list of answers the checker must reject", ("wrong",))
        answers = []
        for index, value in enumerate(wrong):
            try:
                answers.append(qtype.author_answer(value))
            except Invalid as problem:
                raise Invalid(str(problem), ("wrong", str(index)), problem.hint) from None
        return Checker(source, answers, self.line_of(("check",)),
                       [self.line_of(("wrong", str(index))) for index in range(len(answers))])

    def invalid(self, problem: Invalid) -> SourceError:
        return self.fail(str(problem), self.line_of(problem.path) + problem.offset, problem.hint)

    # -- exercises ----------------------------------------------------------------------------------

    def exercise(self) -> Exercise:
        exercise_id = self.require_id()
        self.split_text(EXERCISE_KEYS)
        self.no_yaml_in_text(EXERCISE_KEYS)
        data = self.read_yaml(EXERCISE_KEYS)
        label = self.label(data.get("label"), exercise_id)
        project = data.get("project", False)
        if not isinstance(project, bool):
            raise self.fail("'project' is true or false", self.line_of(("project",)))
        required = ("solution", "criteria") if project else ("solution",)
        texts = self.language_parts((), required, required)
        notebooks = self.notebooks(data.get("notebooks"))
        return Exercise(
            id=exercise_id, line=self.block.line, project=project,
            title={lang: parts.title for lang, parts in texts.items()},
            statement={lang: parts.body for lang, parts in texts.items()},
            solution={lang: parts.texts["solution"] for lang, parts in texts.items()},
            criteria={lang: parts.texts["criteria"] for lang, parts in texts.items()} if project else None,
            notebooks=notebooks, label=label,
        )

    def label(self, value: Any, exercise_id: str) -> dict[str, str]:
        """How each language numbers the exercise (У1 in Russian, E1 in English); the id by default."""
        if value is None:
            return {lang: exercise_id for lang in self.languages}
        try:
            return per_language(value, self.languages, "'label'", "label", exercise_id)
        except TextProblem as problem:
            raise self.fail(str(problem), self.line_of(("label",)),
                            f"{problem.hint}; or leave it out to show the id") from None

    def notebooks(self, value: Any) -> list[NotebookLink]:
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail("'notebooks' is a list", self.line_of(("notebooks",)),
                            "write a list of '- file: name.ipynb' with 'section:', the section's name")
        links = []
        for index, item in enumerate(value):
            where = ("notebooks", str(index))
            if not isinstance(item, dict):
                raise self.fail("each notebook link is 'file:' and 'section:'", self.line_of(where),
                                "write '- file: name.ipynb' and, below it, 'section: …'")
            extra = set(item) - {"file", "section"}
            if extra:
                raise unknown_key(self.shown, self.line_of((*where, sorted(extra)[0])), sorted(extra)[0],
                                  ("file", "section"))
            texts = {}
            for key, what, example in (("file", "the notebook's file", "name.ipynb"),
                                       ("section", "the notebook's section", "…")):
                try:
                    texts[key] = per_language(item.get(key), self.languages, what, key, example)
                except TextProblem as problem:
                    raise self.fail(str(problem), self.line_of((*where, key)), problem.hint) from None
            file, section = texts["file"], texts["section"]
            # Each file once, with the key that names it: 'file', or its language's in a per-language mapping.
            named: dict[str, str] = {}
            for lang in self.languages:
                named.setdefault(file[lang], lang if isinstance(item["file"], dict) else "file")
            for name, key in named.items():
                self.notebook_in_files(name, key, self.line_of((*where, "file")))
            links.append(NotebookLink({lang: file[lang] for lang in self.languages},
                                      {lang: str(section[lang]) for lang in self.languages}))
        return links

    def notebook_in_files(self, name: str, key: str, line: int) -> None:
        """A notebook link's file is in the module's files/ and named from there (`key` names it in the YAML)."""
        files = self.path.parent / "files"
        # The page names the file for the module's zip of files/, which holds nothing else.
        leaving = outside_of(files, name, self.path.parent)
        if leaving is not None:
            raise self.fail(f"the notebook must be in this module's files/: {leaving.problem}", line,
                            LINK_OUT_HINT if leaving.linked else
                            "put the notebook into files/ and name it from there, e.g. 'file: name.ipynb'")
        hidden = left_out_part(name)
        if hidden is not None:
            problem, hint = left_out_notebook(name, hidden, key)
            raise self.fail(problem, line, hint)
        if (files / name).is_file():
            return
        inside = named_from_module(name)
        if inside is not None:
            # As a values file is named: the notebook may well be in files/ already.
            raise self.fail(f"the notebook '{name}' is named from the module's folder: notebooks are named from "
                            "files/", line, f"write '{key}: {inside}'"
                            + ("" if (files / inside).is_file() else ", and put the notebook into files/"))
        written = next((source.text for source in self.block.yaml_lines if source.number == line), "")
        raise self.fail(f"the notebook '{name}' is not in this module's files/", line,
                        missing_file_hint(files, name, written, key) or
                        "put the notebook into files/ or fix the file name")

    # -- language parts -----------------------------------------------------------------------------

    def language_parts(
        self, list_parts: tuple[str, ...], text_parts: tuple[str, ...], required: tuple[str, ...]
    ) -> dict[str, LanguageText]:
        if self.text_lines is not None:
            return {self.languages[0]: self.one_language(self.unwrapped(), list_parts, text_parts, required)}
        if self.block.title:
            lang = self.block.langs[0].lang
            raise self.fail("a title after the id, and language parts", self.block.line,
                            f"a block with language parts has its title on each part's line ('//// {lang} | Title'):"
                            f" delete ' | {self.block.title}' after the id")
        by_lang: dict[str, LangBlock] = {}
        for lang_block in self.block.langs:
            if lang_block.lang not in self.languages:
                raise self.fail(f"unknown language '{lang_block.lang}'", lang_block.line,
                                f"this site's languages are {', '.join(self.languages)}")
            if lang_block.lang in by_lang:
                raise self.fail(f"a second '{lang_block.lang}' part", lang_block.line,
                                f"the first is at line {by_lang[lang_block.lang].line}")
            by_lang[lang_block.lang] = lang_block
        result = {}
        for lang in self.languages:
            if lang not in by_lang:
                raise self.fail(f"{self.block.kind} {self.block.arg} has no '{lang}' text", self.block.line,
                                f"add '//// {lang} | Title' … '////' inside the block (this site is in "
                                f"{', '.join(self.languages)})")
            result[lang] = self.one_language(by_lang[lang], list_parts, text_parts, required)
        return result

    def unwrapped(self) -> LangBlock:
        """The text of a block without language parts, as the part of the site's one language; refused on a
        site in several languages, where every language has its part."""
        kind, ident = self.block.kind, self.block.arg
        if len(self.languages) > 1:
            parts = " and ".join(f"'//// {lang} | Title' … '////'" for lang in self.languages)
            raise self.fail(f"{kind} {ident} has no language parts", self.block.line,
                            f"this site is in {', '.join(self.languages)}: add {parts} inside the block "
                            "(only a monolingual site may leave them out)")
        if not self.block.title:
            raise self.fail(f"{kind} {ident} has no title", self.block.line,
                            f"write it after the id: '/// {kind} | {ident} | Title'")
        if not any(line.text.strip() for line in self.text_lines or []):
            raise self.fail(f"{kind} {ident} has no text", self.block.line,
                            f"write the {kind}'s text below its YAML, after a blank line")
        return LangBlock(self.languages[0], self.block.title, self.block.line, self.text_lines or [], wrapped=False)

    def one_language(
        self, lang_block: LangBlock, list_parts: tuple[str, ...], text_parts: tuple[str, ...],
        required: tuple[str, ...],
    ) -> LanguageText:
        lang = lang_block.lang
        # Messages name the language's part, or (a monolingual block's whole text) the block.
        part = f"the '{lang}' part" if lang_block.wrapped else f"{self.block.kind} {self.block.arg}"
        whose = f"the '{lang}'" if lang_block.wrapped else "the"
        if not lang_block.title:
            raise self.fail(f"the '{lang}' part has no title", lang_block.line, f"write '//// {lang} | Title'")
        try:
            segments = split_parts(lang_block.lines)
        except SourceError as error:
            raise self.fail(error.message, error.line, error.hint) from None
        body_lines = segments.pop("", [])
        text = LanguageText(Fragment(lang_block.title, lang_block.line), to_fragment(body_lines, lang_block.line + 1))
        if not text.body.markdown:
            where = "'////' line" if lang_block.wrapped else "blank line below the YAML"
            first_line = lang_block.line + 1 if lang_block.wrapped else min(
                (line.number for line in lang_block.lines if line.text.strip()), default=lang_block.line)
            raise self.fail(f"{part} has no text before its parts", first_line,
                            f"write the question or statement right after the {where}")
        for name, (part_line, lines) in segments.items():
            if name in list_parts:
                text.lists[name] = self.list_entries(name, lines, part_line, whose)
            elif name in text_parts:
                text.texts[name] = to_fragment(lines, part_line + 1)
                if not text.texts[name].markdown:
                    verb = "are" if name in ("hints", "criteria") else "is"
                    raise self.fail(f"{whose} {name} {verb} empty", part_line, f"write the {name} under '{name}:'")
            else:
                raise self.unexpected_part(name, part_line, list_parts + text_parts)
        for name in (*list_parts, *required):
            if name not in text.lists and name not in text.texts:
                raise self.fail(f"{whose} text has no '{name}:' part", lang_block.line,
                                f"add a line '{name}:' followed by the {name}")
        return text

    def unexpected_part(self, name: str, line: int, parts: tuple[str, ...]) -> SourceError:
        if name == "criteria" and self.block.kind == "exercise":
            # What takes criteria is a line in the YAML, far from the part: say which.
            return self.fail("this exercise has a 'criteria:' part, which only a project has", line,
                             f"make it a project: write 'project: true' in its YAML, below '/// exercise | "
                             f"{self.block.arg}'; or delete 'criteria:' and the criteria")
        return self.fail(f"this {self.block.kind} has no '{name}:' part", line,
                         f"its parts are {', '.join(parts) or 'none'}")

    def list_entries(self, name: str, lines: list[Line], part_line: int, whose: str) -> list[tuple[str, Fragment]]:
        pattern = _LABEL if name == "fields" else _MARKER
        example = "- id: Label" if name == "fields" else "A. text' or '1. text"
        entries: list[tuple[str, list[Line], int]] = []
        for line in lines:
            if not line.text.strip():
                continue
            match = pattern.match(line.text)
            if match:
                entries.append((match["key"], [Line(line.number, match["text"])], line.number))
            elif entries and line.text.startswith(("  ", "\t")):
                entries[-1][1].append(Line(line.number, line.text.strip()))
            elif (slip := _FOREIGN_MARKER.match(line.text)) and name != "fields":
                raise self.fail(f"the marker '{slip['key']}' is not a Latin capital or a number", line.number,
                                "type the markers A, B, C … on a Latin keyboard layout, or number them 1, 2, 3 …")
            elif name == "fields" and (dash := dash_slip(line.text)):
                raise self.fail(dash, line.number)
            else:
                raise self.fail(f"cannot read this line of '{name}:'", line.number,
                                f"write '{example}'; continue a long one on lines indented by two spaces")
        if not entries:
            raise self.fail(f"{whose} {name} list is empty", part_line, f"write '{example}' lines under it")
        keys = [key for key, _, _ in entries]
        for index, key in enumerate(keys):
            if key in keys[:index]:
                raise self.fail(f"'{key}' appears twice in {name}", entries[index][2], "give each entry its own marker")
        if name != "fields":
            self.sequential(keys, name, entries[0][2])
        return [(key, Fragment(" ".join(line.text for line in body), line)) for key, body, line in entries]

    def sequential(self, keys: list[str], name: str, line: int) -> None:
        numbered = keys[0].isdigit()
        expected = [str(i + 1) for i in range(len(keys))] if numbered else [chr(65 + i) for i in range(len(keys))]
        if keys != expected:
            raise self.fail(f"{name} are marked {', '.join(keys)}", line, f"mark them {', '.join(expected)} in order")

    def merged_lists(self, texts: dict[str, LanguageText], list_parts: tuple[str, ...]) -> ListParts:
        """Entries keyed the same way in every language, in the first language's order."""
        first = self.languages[0]
        merged: ListParts = {}
        for name in list_parts:
            keys = [key for key, _ in texts[first].lists[name]]
            for lang in self.languages[1:]:
                other = [key for key, _ in texts[lang].lists[name]]
                if sorted(other) != sorted(keys):
                    line = texts[lang].lists[name][0][1].line
                    raise self.fail(
                        f"the '{lang}' {name} are {', '.join(other)} but the '{first}' ones are {', '.join(keys)}",
                        line, f"every language lists the same {name}",
                    )
            merged[name] = [
                Entry(key, {lang: dict(texts[lang].lists[name])[key] for lang in self.languages}) for key in keys
            ]
        return merged


@dataclass
class LanguageText:
    title: Fragment
    body: Fragment
    texts: dict[str, Fragment] = field(default_factory=dict)
    lists: dict[str, list[tuple[str, Fragment]]] = field(default_factory=dict)


def split_parts(lines: list[Line]) -> dict[str, tuple[int, list[Line]]]:
    """Body lines under "" and each part's lines under its name, ignoring part words inside code fences."""
    segments: dict[str, Any] = {"": []}
    current: list[Line] = segments[""]
    fence: str | None = None
    for line in lines:
        fence = track_fence(line.text, fence)
        match = _PART_LINE.match(line.text) if fence is None else None
        near = _NEAR_PART_LINE.match(line.text) if fence is None and not match else None
        meant = near_part_name(near["word"]) if near else None
        if meant:
            raise SourceError("", line.number, f"'{line.text.strip()}' is not a part heading",
                              f"write '{meant}:' alone on its line, in lower case with no space before the colon")
        if match:
            name = match["name"]
            if name in segments:
                raise SourceError("", line.number, f"a second '{name}:' part", "merge them into one")
            current = []
            segments[name] = (line.number, current)
            continue
        current.append(line)
    return segments


def near_part_name(word: str) -> str | None:
    """The part a heading's word stands for, in another case or number ("Hint" for hints), or None."""
    word = word.lower()
    return next((name for name in PART_NAMES if word in (name, name.removesuffix("s"), f"{name}s")), None)


def to_fragment(lines: list[Line], default_line: int) -> Fragment:
    while lines and not lines[0].text.strip():
        lines = lines[1:]
    while lines and not lines[-1].text.strip():
        lines = lines[:-1]
    if not lines:
        return Fragment("", default_line)
    return Fragment("\n".join(line.text for line in lines), lines[0].number)


def left_out_notebook(name: str, hidden: str, key: str) -> tuple[str, str]:
    """Why a notebook at `name` is not in the course-files zip, which leaves out `hidden` (the path up to the name
    it leaves out), and what to write instead."""
    if hidden != os.path.normpath(name):
        return (f"the notebook '{name}' is in '{hidden}/', which the course-files zip leaves out (names that start "
                "with a dot, and __pycache__)", f"move the notebook out of '{hidden}/' and name it from files/")
    folder, _, file = hidden.rpartition("/")
    renamed = f"{folder}/{file.lstrip('.')}" if folder else file.lstrip(".")
    return (f"the notebook '{name}' is left out of the course-files zip: its name starts with a dot",
            f"rename it, e.g. '{key}: {renamed}'")


def missing_file_hint(folder: Path, name: str, written: str, key: str) -> str | None:
    """What to write when the file `name`, named under `key` from `folder`, is missing for a slip of Windows' or of
    YAML's: a backslash, a letter's case (Windows and macOS match names without it), or a name that YAML cut at
    ' #', where a comment begins. `written` is the source line that names it. None for any other cause."""
    if "\\" in name:
        return f"write paths with '/': '{key}: {name.replace(chr(92), '/')}'"
    actual = folder
    for part in Path(os.path.normpath(name)).parts:
        found = [entry for entry in actual.iterdir() if entry.name.casefold() == part.casefold()] \
            if actual.is_dir() else []
        if len(found) != 1:
            break
        actual = found[0]
    else:
        if actual.is_file():
            shown = actual.relative_to(folder).as_posix()
            return f"the file is '{shown}', whose name differs in case, which Linux servers tell apart: write " \
                   f"'{key}: {shown}'"
    cut = written.find(f"{name} #")
    if cut >= 0:
        whole = written[cut:].strip()
        return f"YAML reads ' #' as the start of a comment: put the name in quotes: '{key}: \"{whole}\"'"
    return None


def load_courses(root: Path, languages: list[str], base: Path) -> list[Course]:
    return Loader(root, languages, base).load()


def sources_folder_problem(base: Path, written: str, docs_dir: Path | None = None) -> str | None:
    """Why the `exercises_dir` option (`written`, relative to the folder of mkdocs.yml, `base`) names no folder of
    course sources: a typo there would build a site without a single course; a folder inside `docs_dir` would be
    published by MkDocs, keys, solutions and hidden tests as pages."""
    if (base / written).is_dir():
        return None if docs_dir is None else published_sources_problem(base, written, docs_dir)
    folders = sorted(path.name for path in base.iterdir() if path.is_dir() and not path.name.startswith("."))
    close = difflib.get_close_matches(written, folders, n=1, cutoff=0.6)
    guess = f" (did you mean '{close[0]}'?)" if close else ""
    return (f"the zadachnik plugin's 'exercises_dir': '{written}' is no folder beside mkdocs.yml{guess}: write the "
            "folder that holds the courses' folders")


def published_sources_problem(base: Path, written: str, docs_dir: Path) -> str | None:
    sources, docs = (base / written).resolve(), (base / docs_dir).resolve()
    if not sources.is_relative_to(docs):
        return None
    shown_docs = docs.relative_to(base.resolve()).as_posix() if docs.is_relative_to(base.resolve()) else str(docs)
    return (f"the zadachnik plugin's 'exercises_dir': '{written}' is inside docs_dir ({shown_docs}), whose every file "
            "MkDocs publishes, answer keys included: move the folder beside docs/ (e.g. to exercises/, next to "
            "mkdocs.yml) and write 'exercises_dir: exercises'")


def source_warnings(courses: list[Course]) -> list[str]:
    """What the sources hold that works but is likely not what the author meant, in `path:line: …` form."""
    return [question.variants.warning for course in courses for module in course.modules
            for question in module.questions if question.variants is not None and question.variants.warning]
