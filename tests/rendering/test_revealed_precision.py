"""Revealed numeric answers at the precision their statements ask for (issue 28, item 6), over every page of the
sample course: each quiz's variants (the page's own answer for variant 1, the <template> of each other variant
for its own) and the problem books, in both languages.

A field with an absolute tolerance asks for the decimals that tolerance resolves (±0.0001 → four): its answer
shows that many, zeros included (2,2000, not 2,2), and "≈" only where they are a rounding of the answer. A field
with only a relative tolerance is written as before, and is not checked here.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag
from zadachnik.core.formatting import conventions
from zadachnik.core.numbers import needed_decimals, read_number

LANGUAGES = {"ru": "", "en": "en/"}
MODULES = ("rl-for-llm/12-infrastructure", "modern-llms/09-pretraining")


def parsed(path: Path) -> BeautifulSoup:
    # Without string containers the text in a <template> is a plain string, which get_text() returns.
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser", string_containers={})


def quiz_spec(page: BeautifulSoup) -> dict:
    return json.loads(html.unescape(page.select_one("template.zq-spec").decode_contents()))


def shown_answers(answer: Tag) -> list[str]:
    """The texts of a revealed answer: a numeric answer's list, or the numbers and words filled into the gaps of
    a text with blanks, each read with the "≈" the author wrote right before its gap (`$\\rho\\approx$`)."""
    return [("≈ " if sign_before(strong) else "") + strong.get_text()
            for strong in answer.select("li > strong, strong.zq-gap-answer")]


def sign_before(strong: Tag) -> bool:
    """Whether the text a reader sees right before a filled gap ends with "≈" (a formula's last is KaTeX's)."""
    if "zq-gap-answer" not in strong.get("class", []):
        return False
    before = next((text for text in strong.find_all_previous(string=True) if text.strip()), "")
    return before.rstrip().endswith("≈")


def field_order(question: Tag, spec: dict) -> list[str]:
    """The fields in the order the answer shows them: the spec's, or for blanks the order of the gaps in the
    language's text."""
    if spec["type"] == "blanks":
        return [gap["data-zq-field"] for gap in question.select(".zq-question__body [data-zq-field]")]
    return [field["id"] for field in spec["fields"]]


def problems(shown: list[str], fields: list[dict], lang: str, where: str) -> list[str]:
    """What is wrong with each revealed text against its field: its decimals, and its "≈"."""
    page = conventions(lang)
    found = []
    assert len(shown) == len(fields), (where, shown)
    for text, field in zip(shown, fields, strict=True):
        if not field.get("atol"):
            continue
        approximate = text.startswith("≈ ")
        number = text.removeprefix("≈ ")
        match = re.fullmatch(rf"[−-]?[\d\u00a0\u202f.,]+?(?:{re.escape(page['decimal'])}(\d+))?", number)
        decimals = len(match.group(1) or "") if match else None
        asked = needed_decimals(field["atol"])
        if decimals != asked:
            found.append(f"{where} {field['id']}: {text!r} shows {decimals} decimals, ±{field['atol']:g} asks {asked}")
        reading = read_number(number, page)
        if approximate == (reading.get("value") == field["answer"]):
            found.append(f"{where} {field['id']}: {text!r} for {field['answer']!r}: '≈' only before a rounding")
    return found


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_revealed_answer_shows_the_decimals_its_tolerance_asks_for(sample_site: Path, lang: str) -> None:
    found: list[str] = []
    checked = 0
    for module in MODULES:
        folder = sample_site / LANGUAGES[lang] / module
        quiz = parsed(folder / "quiz" / "index.html")
        specs = quiz_spec(quiz)
        book = parsed(folder / "book" / "index.html")
        for question, spec in specs.items():
            if "fields" not in spec:
                continue
            section = quiz.select_one(f"#q-{question}")
            own = section.select_one(".zq-reveal .zq-answer:is(ul, .zq-answer--blanks)")
            order = field_order(section, spec)
            variants = spec.get("variants") or [spec]
            for number, variant in enumerate(variants, 1):
                answer = own
                template = quiz.select_one(f'template[data-zq-variant-of="{question}"][data-zq-variant="{number}"]')
                if template is not None and template.select_one('[data-zq-slot="answer"]') is not None:
                    answer = template.select_one('[data-zq-slot="answer"]')
                fields = {field["id"]: field for field in variant["fields"]}
                found += problems(shown_answers(answer), [fields[name] for name in order], lang,
                                  f"{module} {question}@{number}")
                checked += 1
            # The book prints variant 1.
            printed = book.select_one(f'[data-zq-book-answer="{question}"] .zq-answer:is(ul, .zq-answer--blanks)')
            fields = {field["id"]: field for field in variants[0]["fields"]}
            found += problems(shown_answers(printed), [fields[name] for name in order], lang,
                              f"{module} book {question}")
    assert checked >= 50, checked
    assert not found, "\n".join(found)


# A text with blanks whose number gaps follow an approximation sign the author wrote, in a formula or in the text,
# and one that follows none, and two whose sign stands before bold or a line break; each answer a rounding but
# `exact` (0.5 to two decimals).
APPROX_BLANKS = r"""
/// question | B1
type: blanks
gaps:
  rho: {answer: "8/9", atol: 0.001}
  spaced: {answer: "1/3", atol: 0.01}
  text: {answer: "2/3", atol: 0.01}
  exact: {answer: "0.5", atol: 0.01}
  plain: {answer: "1/7", atol: 0.01}
  bold: {answer: "2/7", atol: 0.001}
  broken: {answer: "2/7", atol: 0.001}

//// ru | Пропуски
Загрузка $\rho\approx$ [[gap:rho]], $x \approx\,$ [[gap:spaced]], y ≈ [[gap:text]], z ≈ [[gap:exact]],
w = [[gap:plain]], u ≈ **[[gap:bold]]**, v ≈<br>[[gap:broken]].

explanation:
Так.
////

//// en | Blanks
The load $\rho\approx$ [[gap:rho]], $x \approx\,$ [[gap:spaced]], y ≈ [[gap:text]], z ≈ [[gap:exact]],
w = [[gap:plain]], u ≈ **[[gap:bold]]**, v ≈<br>[[gap:broken]].

explanation:
So.
////
///
"""
# What each gap's revealed answer shows: no second "≈" after the author's, also with the gap in bold or on a line
# of its own.
APPROX_ANSWERS = {"en": ["0.889", "0.33", "0.67", "0.50", "≈ 0.14", "0.286", "0.286"],
                  "ru": ["0,889", "0,33", "0,67", "0,50", "≈ 0,14", "0,286", "0,286"]}


@pytest.fixture(scope="module")
def approx_site(tmp_path_factory) -> Path:
    from support.sites import FIXTURE_SITE, build_site, copy_site

    work = tmp_path_factory.mktemp("approx-blanks")
    source = copy_site(FIXTURE_SITE, work / "src")
    quiz = source / "exercises/demo/01-basics/quiz.md"
    quiz.write_text(quiz.read_text(encoding="utf-8") + APPROX_BLANKS, encoding="utf-8")
    return build_site(source / "mkdocs.yml", work / "site")


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("page", ["quiz", "book"])
def test_a_gap_after_an_approximation_sign_shows_no_second_one(approx_site: Path, lang: str, page: str) -> None:
    parsed_page = parsed(approx_site / LANGUAGES[lang] / "demo/01-basics" / page / "index.html")
    answer = parsed_page.select_one("#q-B1 .zq-reveal .zq-answer--blanks" if page == "quiz"
                                    else '[data-zq-book-answer="B1"] .zq-answer--blanks')
    assert [strong.get_text() for strong in answer.select("strong.zq-gap-answer")] == APPROX_ANSWERS[lang]
