"""Render stage: a module's page in one language, first as Markdown, then as the finished HTML.

MkDocs renders every piece of author text (title, body, option, label, explanation) in one pass over a
generated Markdown page, so links, admonitions, math and every configured extension behave as on any page.
Pieces are separated by HTML-comment markers; `assemble` splits the rendered HTML at the markers and puts
each piece into the page templates, which add the inputs, buttons and data attributes for the browser.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from zadachnik.core.formatting import answer_shown_exactly, conventions, format_number, rounded_answer
from zadachnik.core.text import Fragment
from zadachnik.qtypes.blanks import ChoiceGap
from zadachnik.qtypes.numeric import NumericField, NumericKey
from zadachnik.reading.coursefiles import CourseFiles
from zadachnik.reading.model import Course, Module, Question, Section
from zadachnik.reading.shuffle import option_reference
from zadachnik.rendering.footnotes import StrayReference, has_notes
from zadachnik.rendering.gaps import answer_copy, fill_gaps, gap_order
from zadachnik.rendering.i18n import (
    exercises_instruction,
    file_size,
    files_about,
    quiz_instruction,
    runtime_strings,
    section_strings,
    strings,
)
from zadachnik.rendering.mathtex import MATH_START, PIECE_MARKER, MathError, finished, for_search, line_of
from zadachnik.rendering.site import Languages, module_page_uri
from zadachnik.rendering.variants import add_variant_pieces, question_spec, slot, variant_templates

TEMPLATES = Path(__file__).parent / "templates"
# A paragraph of its own between pieces: cheaper for Markdown than raw HTML, and no author writes it. The math
# extension keeps it out of the inline pass (see mathtex.PIECE_MARKER).
_MARKER = PIECE_MARKER + "{}"
_MARKER_RE = re.compile(f"<p>{PIECE_MARKER}(\\d+)</p>")
_SINGLE_PARAGRAPH = re.compile(r"^<p>(.*)</p>$", re.DOTALL)
KINDS = ("quiz", "exercises")


class MissingPiece(ValueError):
    """Rendered HTML lost a marker: an unclosed fence or HTML tag in an author's text swallowed it."""

    def __init__(self, fragment: Fragment):
        super().__init__(f"text starting at line {fragment.line} is not closed (a code fence or an HTML tag?)")
        self.fragment = fragment


class NotesInALine(ValueError):
    """A title, an option or a label with a footnote's note: shown as a line of its own, it has no room for the
    list of notes that follows a text."""

    def __init__(self, fragment: Fragment):
        super().__init__("a title, an option or a field label holds a footnote's note (move the note and its "
                         "reference into the question's text or its explanation)")
        self.fragment = fragment


@dataclass
class PagePlan:
    course: Course
    module: Module
    kind: str
    lang: str
    pieces: list[Fragment] = field(default_factory=list)
    _index: dict[int, int] = field(default_factory=dict)
    # The module's course-files zip, on the page that links it, and its link relative to the page.
    course_files: CourseFiles | None = None
    files_link: str = ""
    # The site's languages: what the page says about sharing answers between its versions.
    languages: list[str] = field(default_factory=list)
    # The link to the module's problem book (see book.py), a piece of its own.
    book_link: Fragment | None = None
    # Each piece's HTML once the page is assembled: the module's problem book takes its text from here.
    rendered: list[str] | None = None
    # The pieces the page shows as one line (titles, options, items, field labels), by id as `_index`.
    _one_line: dict[int, Fragment] = field(default_factory=dict)

    def add(self, fragment: Fragment, one_line: bool = False) -> None:
        self._index[id(fragment)] = len(self.pieces)
        self.pieces.append(fragment)
        if one_line:
            self._one_line[id(fragment)] = fragment

    def is_one_line(self, fragment: Fragment) -> bool:
        return id(fragment) in self._one_line

    @property
    def one_line(self) -> list[Fragment]:
        return list(self._one_line.values())

    def index(self, fragment: Fragment) -> int:
        return self._index[id(fragment)]

    def alias(self, fragment: Fragment, same: Fragment) -> None:
        """`fragment` is rendered as `same` is (a variant's text that is variant 1's)."""
        self._index[id(fragment)] = self._index[id(same)]

    def rendered_pieces(self, page_html: str) -> list[str]:
        """Each piece's HTML, in plan order; kept for the module's problem books without the formulas' marks
        (search reads no book), so that the books, which repeat the page's text twice, have none to take out."""
        pieces = split_pieces(self, page_html)
        self.rendered = [finished(piece) for piece in pieces]
        return pieces

    @property
    def source(self) -> Path:
        return self.module.path / ("quiz.md" if self.kind == "quiz" else "exercises.md")

    @property
    def note_scope(self) -> str:
        """What the ids of this page's footnotes have after 'fn:' (rendering/footnotes.py): unique over its
        course, whose books take its pieces with their notes."""
        return f"m{self.module.number}{self.kind[0]}"

    @property
    def title(self) -> str:
        """What the navigation calls the page, under its module: "Quiz"."""
        return strings(self.lang)[self.kind]

    @property
    def full_title(self) -> str:
        """What a browser tab and a search result call it: "Module 12. RL infrastructure · Quiz"."""
        t = strings(self.lang)
        return f"{t['module'].format(number=self.module.number, title=self.module.title[self.lang])} · {self.title}"

    def anchors(self) -> str:
        """The ids the templates give this page's sections, questions and exercises, as empty elements before
        the first piece: MkDocs checks links to anchors (`[[E1]]` references) against the ids it sees in the
        Markdown, and `split_pieces` drops everything outside the pieces, so the page keeps one of each."""
        if self.kind == "quiz":
            ids = [f"{'s' if isinstance(item, Section) else 'q'}-{item.id}" for item in self.module.quiz or []]
        else:
            ids = [f"e-{exercise.id}" for exercise in self.module.exercises or []]
        spans = "".join(f'<span id="{html.escape(anchor)}"></span>' for anchor in ids)
        return f"<div hidden>{spans}</div>\n" if ids else ""

    def markdown(self) -> str:
        """The generated page: front matter, then every piece of author text after its marker."""
        parts = [f"---\ntitle: {json.dumps(self.full_title, ensure_ascii=False)}\n---\n", self.anchors()]
        for number, fragment in enumerate(self.pieces):
            parts.append(f"{_MARKER.format(number)}\n\n{fragment.markdown}\n")
        parts.append(_MARKER.format(len(self.pieces)))
        return "\n".join(parts) + "\n"


def plan_page(course: Course, module: Module, kind: str, lang: str, languages: list[str] | None = None) -> PagePlan:
    plan = PagePlan(course, module, kind, lang, languages=list(languages or [lang]))
    if kind == "quiz":
        for item in module.quiz or []:
            if isinstance(item, Section):
                plan.add(item.title[lang], one_line=True)
            else:
                plan.add(item.title[lang], one_line=True)
                plan.add(item.body[lang])
                for entries in item.lists.values():
                    for entry in entries:
                        plan.add(entry.text[lang], one_line=True)
                for hint in item.hints:
                    plan.add(hint[lang])
                plan.add(item.explanation[lang])
                if item.variants is not None:
                    add_variant_pieces(plan, item, lang)
    else:
        for exercise in module.exercises or []:
            plan.add(exercise.title[lang], one_line=True)
            for fragment in (exercise.statement[lang], exercise.solution[lang]):
                plan.add(fragment)
            if exercise.criteria:
                plan.add(exercise.criteria[lang])
    return plan


def split_pieces(plan: PagePlan, page_html: str) -> list[str]:
    """The rendered HTML of each piece, in plan order; MissingPiece if a marker was swallowed."""
    found = [(int(m.group(1)), m.start(), m.end()) for m in _MARKER_RE.finditer(page_html)]
    numbers = {number for number, _, _ in found}
    for expected, fragment in enumerate(plan.pieces):
        if expected not in numbers or expected + 1 not in numbers:
            raise MissingPiece(fragment)
    pieces = []
    for (_, _, end), (_, start, _) in zip(found, found[1:], strict=False):
        # Stripped by its bounds, not by strip() on the slice: a piece can be megabytes, copied once.
        while end < start and page_html[end].isspace():
            end += 1
        while start > end and page_html[start - 1].isspace():
            start -= 1
        pieces.append(page_html[end:start])
    return pieces


def notes_in_a_line(plan: PagePlan, pieces: list[str]) -> NotesInALine | None:
    """The first text shown as one line whose rendered piece (`pieces`, in plan order) lists notes. The build and
    `zadachnik check` both ask this: the check converts the page but assembles none."""
    return next((NotesInALine(fragment) for fragment in plan.one_line if has_notes(pieces[plan.index(fragment)])),
                None)


def stray_reference(plan: PagePlan, stray: StrayReference, shown: Callable[[Path], str]) -> str:
    """A reference to a footnote that its text does not hold, at its file:line, with what to write."""
    fragment = plan.pieces[stray.piece]
    written = f"[^{stray.label}]"
    lines = fragment.markdown.split("\n")
    offset = next((number for number, line in enumerate(lines) if written in line), 0)
    return (f"{shown(plan.source)}:{fragment.line + offset}: the footnote {written} is not written in this text: each "
            f"text lists its own notes at its end (write '{written}: …' in the text that refers to it; a title, an "
            "option or a field label holds no notes)")


def inline(piece: str) -> str:
    """A one-paragraph piece without its <p>, for titles, options and labels."""
    match = _SINGLE_PARAGRAPH.match(piece)
    return match.group(1) if match and "<p>" not in match.group(1) else piece


@dataclass
class Renderer:
    environment: jinja2.Environment = field(
        default_factory=lambda: jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True, trim_blocks=True, lstrip_blocks=True,
            # The package's own templates don't change while it runs: no file's time stamp read per include
            # (several per question, 7,000 a build of the benchmark course).
            auto_reload=False,
        )
    )

    def assemble(self, plan: PagePlan, page_html: str, reuse: Reuse | None = None) -> str:
        """The page's HTML from its pieces as MkDocs converted them (`page_html`). `reuse` may give a problem
        book's part of one module as an earlier build rendered it (incremental.pages)."""
        pieces = plan.rendered_pieces(page_html)
        if (problem := notes_in_a_line(plan, pieces)) is not None:
            raise problem
        large = LargeTexts()

        def text(fragment: Fragment, block: bool = False) -> Markup:
            piece = pieces[plan.index(fragment)]
            return large.stand_in(piece if block else inline(piece))

        def part(name: str, module: Module, macro: Callable[..., str], *arguments: Any) -> Markup:
            """A book's part of a module; one that `reuse` may keep for a later build, with its large texts in."""
            if reuse is None:
                return Markup(macro(module, *arguments))
            return large.stand_in(reuse(name, module, lambda *given: large.filled(macro(*given)), *arguments))

        def gap_text(question: Question, fragment: Fragment, mode: str) -> Markup:
            """A question with blanks' text with its gaps made for `mode` (rendering/gaps.py)."""
            piece = pieces[plan.index(fragment)]
            # The answer repeats the text the page or the book shows first: that showing's notes, its own ids.
            piece = answer_copy(piece) if mode == "answer" else piece
            return large.stand_in(fill_gaps(question, piece, plan.lang, mode, strings(plan.lang),
                                            lambda gap: gap_answer(gap, plan.lang),
                                            lambda gap: gap_unit(gap, plan.lang)))

        def name(fragment: Fragment, always: bool = False) -> str:
            """The accessible name a control labelled by this text needs: the words with each formula's TeX;
            '' when a label holding no formula already gives it, unless `always`."""
            piece = pieces[plan.index(fragment)]
            return spoken(piece) if always or has_math(piece) else ""

        template = self.environment.get_template(f"{plan.kind}.html")
        return large.filled(template.render(
            plan=plan, course=plan.course, module=plan.module, lang=plan.lang, t=strings(plan.lang), text=text,
            auto_count=sum(1 for q in plan.module.questions if q.qtype.auto),
            spec=Markup(spec_json(plan.module)), type_modules=" ".join(type_modules(plan)),
            tolerance=lambda f: tolerance_text(f, plan.lang), answer_text=lambda q: answer_text(q, plan.lang),
            unit=lambda f: unit_text(f, plan.lang), field_answer=lambda f: field_answer(f, plan.lang),
            numeric_fields=numeric_fields, auto_type=auto_type, is_section=lambda item: isinstance(item, Section),
            paper_order=paper_order,
            label_of=label_of, name=name, file_size=file_size, slot=slot, variant_templates=variant_templates,
            gap_text=gap_text, gap_order=gap_order, blank_gaps=blank_gaps,
            reuse=part,
            instruction=quiz_instruction(plan.lang, plan.languages, plan.module.exam) if plan.kind == "quiz"
            else exercises_instruction(plan.lang, plan.languages),
            exam=plan.module.exam if plan.kind == "quiz" else None,
            files_about=lambda files: files_about(files.counts, files.languages, plan.lang, plan.languages),
            runtime=Markup(safe_json(page_runtime_words(plan))),
            decimal=conventions(plan.lang)["decimal"],
        ))


# Past this many characters a text goes through the templates as a stand-in (LargeTexts).
LARGE_TEXT = 4096


@dataclass
class LargeTexts:
    """A page's large texts while its templates run, each as a short stand-in put in its place once the page is
    rendered. Jinja copies what it outputs at every macro and include it passes through (a book nests three deep),
    and each copy of a text of megabytes is memory fresh from the system: a 10 MB explanation's pages made
    dozens. The same text has the same stand-in, so comparing rendered HTML (variants.py) still compares texts."""

    # Random, so that no text an author writes can be taken for one.
    nonce: str = field(default_factory=lambda: secrets.token_hex(8))
    texts: dict[str, int] = field(default_factory=dict)

    def stand_in(self, html: str) -> Markup:
        if len(html) <= LARGE_TEXT:
            return Markup(html)
        return Markup(f"\x00{self.nonce}:{self.texts.setdefault(html, len(self.texts))}\x00")

    def filled(self, html: str) -> str:
        if not self.texts or f"\x00{self.nonce}:" not in html:
            return html
        texts = list(self.texts)
        # One pass, one copy of each text into the page.
        return re.sub(f"\x00{self.nonce}:(\\d+)\x00", lambda found: texts[int(found[1])], html)


# A book's part of one module: its name ("statements", "answers"), the module, the macro that renders it and the
# macro's other arguments; what it returns is the part's HTML.
Reuse = Callable[..., str]


def auto_type(question: Question) -> str:
    """For the templates: the type that grades a question (Question.auto_type)."""
    return question.auto_type


_TAG = re.compile(r"<[^>]+>")
_SPACE_BEFORE = re.compile(r"\s+([,.;:!?»)\]])")
_SPACE_AFTER = re.compile(r"([«(\[])\s+")


def spoken(piece_html: str) -> str:
    """A rendered piece of text as an accessible name: its words, and each formula as the TeX it was written in.
    Chromium names a control from its label's MathML without the formulas, and cutting the TeX's backslashes
    gave "binom496" for \\binom{96}{4}; the TeX source is what the author wrote and what search holds too."""
    text = html.unescape(_TAG.sub(" ", for_search(piece_html)))
    text = _SPACE_AFTER.sub(r"\1", _SPACE_BEFORE.sub(r"\1", " ".join(text.split())))
    return text.strip()


def has_math(piece_html: str) -> bool:
    return MATH_START in piece_html


def label_of(question: Question, field_id: str) -> Fragment | None:
    return next((entry.text for entry in question.lists["fields"] if entry.key == field_id), None)


def page_runtime_words(plan: PagePlan) -> dict[str, Any]:
    """What the page's runtime says, how it reads and writes numbers, and the sections of words its questions'
    types need (a code editor's, where one is mounted)."""
    words = {**runtime_strings(plan.lang), "number": conventions(plan.lang)}
    if plan.kind == "quiz":
        for section in sorted({name for question in plan.module.questions for name in question.qtype.word_sections}):
            words[section] = section_strings(plan.lang, section)
    return words


def type_modules(plan: PagePlan) -> list[str]:
    """The browser's modules grading the page's questions (a quiz's), each once."""
    if plan.kind != "quiz":
        return []
    return sorted({name for question in plan.module.questions if (name := question.browser_module)})


def spec_json(module: Module) -> str:
    """Each auto-checked question's key, for the browser's grader; `<` escaped to keep the script closed."""
    return safe_json({q.id: question_spec(q) for q in module.questions if q.qtype.auto})


def safe_json(data: Any) -> str:
    """JSON for a <template> element, read back as its text: with `<`, `>` and `&` escaped, no markup or
    character reference can occur in it. (Not a <script>: Material's instant navigation re-creates the
    content's scripts without their type, and would run the data as JavaScript.)"""
    return (json.dumps(data, ensure_ascii=False, sort_keys=True)
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def numeric_fields(question: Question) -> list[NumericField]:
    key = question.auto_key
    return key.fields if isinstance(key, NumericKey) else []


def unit_text(numeric_field: NumericField, lang: str) -> str:
    unit = numeric_field.unit
    if isinstance(unit, dict):
        return unit.get(lang, "")
    return unit or ""


def tolerance_text(numeric_field: NumericField, lang: str) -> str:
    t = strings(lang)
    parts = []
    if numeric_field.atol:
        parts.append(t["atol"].format(value=format_number(numeric_field.atol, lang)))
    if numeric_field.rtol:
        parts.append(t["rtol"].format(value=format_number(numeric_field.rtol * 100, lang)))
    return "; ".join(parts) or t["exact"]


def answer_text(question: Question, lang: str) -> Markup:
    """The answer key in words, shown above the explanation: each option as the element a shuffled question's
    page labels with the option's shown label (shuffle.js), the author's marker otherwise."""
    key: Any = question.auto_key

    if hasattr(key, "correct"):
        return Markup(", ".join(option_reference(marker) for marker in key.correct))
    if hasattr(key, "pairs"):
        return Markup("; ".join(f"{html.escape(item)} → {option_reference(marker)}"
                                for item, marker in key.pairs.items()))
    return Markup("")


def paper_order(question: Question) -> list[Any]:
    """An ordering question's items, or a Parsons problem's lines (its distractors among them), as paper shows
    them: in an order fixed by the question's id in which the right ones never stand in their right order (the
    page gives each learner their own)."""
    parsons = getattr(question, "auto_type", "ordering") == "parsons"
    items = list(question.auto_key.all_lines if parsons else question.lists["items"])
    right = [line.key for line in question.auto_key.lines] if parsons else [entry.key for entry in items]
    shown = sorted(items, key=lambda entry: hashlib.sha256(f"{question.id}/{entry.key}".encode()).hexdigest())
    if [entry.key for entry in shown if entry.key in right] == right:
        # The first of the right ones goes last.
        first = next(index for index, entry in enumerate(shown) if entry.key in right)
        shown = shown[:first] + shown[first + 1:] + [shown[first]]
    return shown


def gap_answer(gap: Any, lang: str) -> str:
    """A gap's right answer as its page shows it: the word, or the number as a numeric field's."""
    return gap.options[lang][gap.answer - 1] if isinstance(gap, ChoiceGap) else field_answer(gap, lang)


def gap_unit(gap: Any, lang: str) -> str:
    return "" if isinstance(gap, ChoiceGap) else unit_text(gap, lang)


def blank_gaps(question: Question, lang: str) -> list[tuple[int, NumericField]]:
    """A question with blanks' number gaps with their numbers in the language's text, for the tolerance notes."""
    return [(number, gap) for number, gap in enumerate(gap_order(question, question.body[lang].markdown), start=1)
            if not isinstance(gap, ChoiceGap)]


def field_answer(numeric_field: NumericField, lang: str) -> str:
    shown = rounded_answer(numeric_field.value, numeric_field.atol, numeric_field.rtol, lang)
    # The values compared, not two texts: "≈" only where the rounding shown is not the answer itself.
    exact = answer_shown_exactly(numeric_field.value, numeric_field.atol, numeric_field.rtol)
    return shown if exact else f"≈ {shown}"


def files_page(module: Module) -> str:
    """The page that links the course files: the exercises page, or the quiz when there is none."""
    return "exercises" if module.exercises is not None else "quiz"


def module_has(module: Module, kind: str) -> bool:
    return (module.quiz if kind == "quiz" else module.exercises) is not None


# What the search index needs of a quiz or exercises page: its words and headings, not its controls.
_SCRIPTS = re.compile(r"<(script|template)\b[^>]*>.*?</\1>", re.DOTALL)
_CONTROLS = re.compile(
    r"<(?:input|select|option|button|output|textarea)\b[^>]*>(?:[^<]*</(?:select|option|button|output|textarea)>)?"
)
_WRAPPERS = re.compile(r"</?(?:section|fieldset|legend|label|span|div|details|summary|strong)\b[^>]*>")


# The page's furniture (instruction and progress lines, tools, legends, tolerances), which the templates mark as
# mkdocs-material's search would skip it: none of these elements holds another of its own tag. Taken out before the
# wrappers are unwrapped, which would take their mark with them.
_FURNITURE = re.compile(
    r"<(p|div|span|ul|legend|label|summary)\b[^>]*\bdata-search-exclude\b[^>]*>(?:(?!<\1\b).)*?</\1>", re.DOTALL
)


def searchable(page_html: str) -> str:
    """A generated page reduced for mkdocs-material's search parser: scripts, data, the page's furniture and form
    controls dropped, wrapper elements unwrapped, headings and text kept (parsing the full markup was a third of a
    build)."""
    text = _SCRIPTS.sub(" ", page_html)
    if "data-search-exclude" in text:
        text = _FURNITURE.sub(" ", text)
    return _WRAPPERS.sub(" ", _CONTROLS.sub(" ", text))


def plan_pages(courses: list[Course], languages: Languages) -> dict[str, PagePlan]:
    """Every generated page by its place in the docs: each module's quiz and exercises, in every language."""
    plans: dict[str, PagePlan] = {}
    for course in courses:
        for module in course.modules:
            for kind in KINDS:
                if not module_has(module, kind):
                    continue
                for lang in languages.codes:
                    uri = module_page_uri(course, module, kind, lang, languages)
                    plans[uri] = plan_page(course, module, kind, lang, languages.codes)
    # The problem books last: a piece of text that breaks a page breaks its module's own page first.
    from zadachnik.rendering.book import add_book_links, plan_books

    add_book_links(plans.values())
    plans.update(plan_books(courses, languages, plans))
    return plans


def hand_written_page_problems(plans: dict[str, PagePlan], hand_written: Callable[[str], Path | None],
                               shown: Callable[[Path], str]) -> list[str]:
    """A page of the author's own at the address of a generated one (`hand_written`: its file, or None): MkDocs
    would quietly take the generated page instead, and the author's text would be gone from the site."""
    problems = []
    for uri, plan in plans.items():
        mine = hand_written(uri)
        if mine is None:
            continue
        modules = getattr(plan, "modules", None) or [plan.module]
        maker = (f"the module {shown(plan.module.path)}" if len(modules) == 1 else
                 f"the course {shown(plan.course.path)} (its problem book)")
        problems.append(f"{shown(mine)}: a hand-written page where Zadachnik puts a page of {maker} (rename or move "
                        f"your page, e.g. to {shown(mine.with_name('intro.md'))}, or delete it)")
    return problems


def attach_course_files(plans: dict[str, PagePlan], module: Module, archive: CourseFiles) -> None:
    """The module's zip is linked from its files page, in every language."""
    for plan in plans.values():
        if plan.module is module and plan.kind == files_page(module):
            plan.course_files = archive


def toc_tokens(plan: PagePlan) -> list[dict[str, Any]]:
    """Sections with their questions (or exercises), as Python-Markdown's toc tokens."""

    def plain(markdown: str) -> str:
        return html.escape(re.sub(r"\$+([^$]*)\$+", r"\1", markdown))

    if plan.kind == "book":
        from zadachnik.rendering.book import book_toc

        return book_toc(plan)  # type: ignore[arg-type]
    tokens: list[dict[str, Any]] = []
    parent: list[dict[str, Any]] = tokens
    if plan.kind == "exercises":
        for exercise in plan.module.exercises or []:
            name = f"{exercise.label.get(plan.lang, exercise.id)}. {plain(exercise.title[plan.lang].markdown)}"
            tokens.append({"level": 2, "id": f"e-{exercise.id}", "name": name, "children": []})
        return tokens
    for item in plan.module.quiz or []:
        if isinstance(item, Section):
            token = {"level": 2, "id": f"s-{item.id}", "name": f"{item.id}. {plain(item.title[plan.lang].markdown)}",
                     "children": []}
            tokens.append(token)
            parent = token["children"]
        else:
            name = f"{item.id} · {plain(item.title[plan.lang].markdown)}"
            parent.append({"level": 3 if parent is not tokens else 2, "id": f"q-{item.id}", "name": name,
                           "children": []})
    return tokens


def math_error_line(plan: PagePlan, error: MathError) -> int:
    """The line of a bad formula in the author's source of a generated page."""
    return line_of([(fragment.markdown, fragment.line) for fragment in plan.pieces], error) or 1
