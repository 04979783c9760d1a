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
    a text with blanks."""
    return [strong.get_text() for strong in answer.select("li > strong, strong.zq-gap-answer")]


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
