"""Every formula on a built page shows its own TeX.

The seed site put formulas in the wrong questions (substitution by position). Here each formula's KaTeX
annotation is compared, element by element and in order, with the TeX written in that element's source text,
found by a regex of this test's own rather than by the plugin's parser.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from support.sites import FIXTURE_SITE, ROOT
from zadachnik.reading.model import Course, Question, Section, load_courses

_CODE = re.compile(r"^(```|~~~).*?^\1|`[^`\n]+`", re.DOTALL | re.MULTILINE)
_TEX = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(?!\s)([^$\n]+?)(?<!\s)\$", re.DOTALL)


def tex_in(markdown: str) -> list[str]:
    text = _CODE.sub("", markdown)
    return [(display or inline).strip() for display, inline in _TEX.findall(text)]


def annotations(element) -> list[str]:
    return [html.unescape(a.decode_contents()).strip()
            for a in element.select('annotation[encoding="application/x-tex"]')]


def quiz_expectations(question: Question, lang: str) -> list[tuple[str, list[str]]]:
    """(CSS selector within the question, the TeX its elements must show in order)."""
    lists = question.lists
    expected = [
        (".zq-question__title", tex_in(question.title[lang].markdown)),
        (".zq-question__body", tex_in(question.body[lang].markdown)),
    ]
    if "options" in lists and "items" not in lists:
        expected.append((".zq-option__text", [t for e in lists["options"] for t in tex_in(e.text[lang].markdown)]))
    if question.auto_type == "ordering":
        expected.append((".zq-ordering__text", [t for e in lists["items"] for t in tex_in(e.text[lang].markdown)]))
    elif "items" in lists:
        expected.append((".zq-matching__options li",
                         [t for e in lists["options"] for t in tex_in(e.text[lang].markdown)]))
        expected.append((".zq-matching__item label",
                         [t for e in lists["items"] for t in tex_in(e.text[lang].markdown)]))
    if "fields" in lists:
        fields = question.key.key.fields if question.type == "mixed" else question.key.fields
        labels = {e.key: e.text[lang].markdown for e in lists["fields"]}
        expected.append((".zq-field__label", [t for f in fields for t in tex_in(labels[f.id])]))
    expected.append((".zq-hint__text", [t for hint in question.hints for t in tex_in(hint[lang].markdown)]))
    expected.append((".zq-explanation", tex_in(question.explanation[lang].markdown)))
    return expected


def check_quiz_page(soup: BeautifulSoup, course: Course, module, lang: str) -> int:
    checked = 0
    sections = [item for item in module.quiz if isinstance(item, Section)]
    headings = soup.select("h2.zq-section")
    assert [annotations(h) for h in headings] == [tex_in(s.title[lang].markdown) for s in sections]
    for question in module.questions:
        element = soup.select_one(f'[data-zq-question="{question.id}"]')
        seen_total = len(annotations(element)) - len(annotations_in_all(element, ".zq-answer"))
        expected_total = 0
        for selector, expected in quiz_expectations(question, lang):
            shown = [t for part in element.select(selector) for t in annotations(part)]
            assert shown == expected, (question.id, lang, selector)
            expected_total += len(expected)
            checked += len(expected)
        assert seen_total == expected_total, (question.id, lang, "a formula that belongs to no source text")
    return checked


def annotations_in_all(element, selector: str) -> list[str]:
    return [t for part in element.select(selector) for t in annotations(part)]


def check_exercises_page(soup: BeautifulSoup, module, lang: str) -> int:
    checked = 0
    for exercise in module.exercises:
        element = soup.select_one(f'[data-zq-exercise="{exercise.id}"]')
        parts = [("h2", exercise.title), (".zq-exercise__statement", exercise.statement),
                 ('[data-zq-reveal="solution"]', exercise.solution)]
        if exercise.criteria:
            parts.append(('[data-zq-reveal="criteria"]', exercise.criteria))
        for selector, text in parts:
            expected = tex_in(text[lang].markdown)
            assert annotations_in_all(element, selector) == expected, (exercise.id, lang, selector)
            checked += len(expected)
    return checked


def check_site(site: Path, source_root: Path, exercises: Path) -> int:
    checked = 0
    for course in load_courses(exercises, ["ru", "en"], source_root):
        for module in course.modules:
            for lang, prefix in (("ru", ""), ("en", "en/")):
                base = site / prefix / course.id / module.slug
                if module.quiz is not None:
                    soup = BeautifulSoup((base / "quiz/index.html").read_text(encoding="utf-8"), "html.parser")
                    checked += check_quiz_page(soup, course, module, lang)
                if module.exercises is not None:
                    soup = BeautifulSoup((base / "exercises/index.html").read_text(encoding="utf-8"), "html.parser")
                    checked += check_exercises_page(soup, module, lang)
    return checked


def test_fixture_formulas_show_their_own_tex(fixture_site: Path) -> None:
    assert check_site(fixture_site, FIXTURE_SITE, FIXTURE_SITE / "exercises") > 20


def test_sample_course_formulas_show_their_own_tex(sample_site: Path) -> None:
    # Module 12 alone has about fifty formulas per language.
    assert check_site(sample_site, ROOT, ROOT / "exercises") >= 100


def test_the_check_catches_a_swapped_formula(fixture_site: Path, tmp_path: Path) -> None:
    """The seed's defect, made on purpose: two questions' explanations swapped on a built page."""
    page = fixture_site / "demo/01-basics/quiz/index.html"
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    q1, q3 = (soup.select_one(f'[data-zq-question="{q}"] .zq-explanation') for q in ("Q1", "Q3"))
    q1_html, q3_html = q1.decode_contents(), q3.decode_contents()
    q1.clear()
    q1.append(BeautifulSoup(q3_html, "html.parser"))
    q3.clear()
    q3.append(BeautifulSoup(q1_html, "html.parser"))
    course = load_courses(FIXTURE_SITE / "exercises", ["ru", "en"], FIXTURE_SITE)[0]
    with pytest.raises(AssertionError):
        check_quiz_page(soup, course, course.modules[0], "ru")
