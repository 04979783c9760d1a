"""A question's variants on its page: variant 1 as the page shows it, the others as data for variants.js.

The parts of a question that can change between variants carry `data-zq-slot="…"` (title, body, option texts,
field labels and tolerances, the revealed answer, the explanation). Every other variant is rendered with the same
templates, and only the slots whose HTML differs from variant 1's are kept, in one
`<template data-zq-variant-of="P02" data-zq-variant="k">` per variant; the browser swaps them in. Controls are
never repeated, so a learner's input, its listeners and its labels stay where they are.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import jinja2
from markupsafe import Markup, escape

from zadachnik.core.text import Fragment

if TYPE_CHECKING:
    from zadachnik.reading.model import Question
    from zadachnik.rendering.render import PagePlan

_SLOT_START = re.compile(r'<(?P<tag>[a-z][a-z0-9]*)\b[^>]*?\sdata-zq-slot="(?P<name>[^"]+)"[^>]*>')


def question_fragments(question: Question, lang: str) -> list[Fragment]:
    """The question's texts in one language, in an order every variant shares."""
    entries = [entry.text[lang] for listed in question.lists.values() for entry in listed]
    hints = [hint[lang] for hint in getattr(question, "hints", [])]
    return [question.title[lang], question.body[lang], *entries, *hints, question.explanation[lang]]


def add_variant_pieces(plan: PagePlan, question: Question, lang: str) -> None:
    """Variants 2… of a question on the page's plan: a piece for each text that differs from variant 1's (the
    question's own pieces), variant 1's piece for one that does not (rendered once)."""
    first = question_fragments(question, lang)
    for other in question.variant_questions[1:]:
        for base, fragment in zip(first, question_fragments(other, lang), strict=True):
            if fragment.markdown == base.markdown:
                plan.alias(fragment, base)
            else:
                plan.add(fragment)


def slot(question: Question, name: str, varying: Any = False) -> Markup:
    """` data-zq-slot="name"` on a part of a question with variants (or of one of its variants being rendered)."""
    if question.variants is None and not varying:
        return Markup("")
    return Markup(f' data-zq-slot="{escape(name)}"')


def slots_of(html: str) -> dict[str, str]:
    """Each slot's inner HTML in a rendered question (slots never nest; their content is well-formed HTML)."""
    found = {}
    for match in _SLOT_START.finditer(html):
        tag = match["tag"]
        depth, position = 1, match.end()
        tags = re.compile(rf"<(/?){tag}\b[^>]*>")
        while depth:
            inner = tags.search(html, position)
            if inner is None:
                raise ValueError(f"slot {match['name']} is not closed")
            depth += -1 if inner[1] else 1
            position = inner.end()
        found[match["name"]] = html[match.end():inner.start()]
    return found


@jinja2.pass_context
def variant_templates(context: jinja2.runtime.Context, question: Question) -> Markup:
    """The data of variants 2…: per variant, the slots whose HTML differs from variant 1's."""
    template = context.environment.get_template("question.html")
    values = context.get_all()

    def rendered(variant: Question) -> dict[str, str]:
        return slots_of(template.render({**values, "q": variant, "varying": True}))

    first = rendered(question)
    parts = []
    for number, variant in enumerate(question.variant_questions[1:], 2):
        changed = "".join(f'<div data-zq-slot="{escape(name)}">{html}</div>'
                          for name, html in rendered(variant).items() if first.get(name) != html)
        parts.append(f'<template data-zq-variant-of="{escape(question.id)}" data-zq-variant="{number}">'
                     f"{changed}</template>")
    return Markup("\n".join(parts))


def question_spec(question: Question) -> dict[str, Any]:
    """What the browser grades a question by; with variants, each variant's too (variant 1's is the question's)."""
    spec = question.spec
    if question.variants is None:
        return spec
    return {**spec, "variants": [variant.spec for variant in question.variant_questions]}
