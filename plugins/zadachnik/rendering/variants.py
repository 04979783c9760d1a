"""A question's variants on its page: variant 1 as the page shows it, the others as data for variants.js.

The parts of a question that can change between variants carry `data-zq-slot="…"` (title, body, option texts,
field labels and tolerances, the revealed answer, the explanation); a control named by a text with a formula gets
its variant's name (`data-zq-aria`). Every other variant is rendered with the same
templates, and only the slots whose HTML differs from variant 1's are kept, in one
`<template data-zq-variant-of="P02" data-zq-variant="k">` per variant; the browser swaps them in. Controls are
never repeated, so a learner's input, its listeners and its labels stay where they are.
"""

from __future__ import annotations

import hashlib
import json
import re
from html import unescape
from typing import TYPE_CHECKING, Any

import jinja2
from markupsafe import Markup, escape

from zadachnik.core.text import Fragment

if TYPE_CHECKING:
    from zadachnik.reading.model import Question
    from zadachnik.rendering.render import PagePlan

_TAG = re.compile(r"<(?P<tag>[a-z][a-z0-9]*)\b(?P<attributes>[^>]*)>")
_ATTRIBUTE = re.compile(r'(?P<name>[\w-]+)="(?P<value>[^"]*)"')
_SLOT_START = re.compile(r'<(?P<tag>[a-z][a-z0-9]*)\b[^>]*?\sdata-zq-slot="(?P<name>[^"]+)"[^>]*>')


def question_fragments(question: Question, lang: str) -> list[Fragment]:
    """The question's texts in one language, in an order every variant shares."""
    entries = [entry.text[lang] for listed in question.lists.values() for entry in listed]
    hints = [hint[lang] for hint in question.hints]
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
                # A variant's title or option is one line as variant 1's is.
                plan.add(fragment, one_line=plan.is_one_line(base))


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


def spoken_names(html: str) -> dict[str, str | None]:
    """The accessible name (aria-label, None for none) of each control of a rendered question that may carry one,
    by its address: `section` (the question), `#id` (a field's input, a select, a select's option named by a
    formula), `option:A` (an option's input).
    A name holds a formula's TeX (render.spoken), so a variant's figures are in it too."""
    names: dict[str, str | None] = {}
    for match in _TAG.finditer(html):
        attributes = {found["name"]: found["value"] for found in _ATTRIBUTE.finditer(match["attributes"])}
        if match["tag"] == "section" and "data-zq-question" in attributes:
            address = "section"
        elif "data-zq-option" in attributes:
            address = f"option:{attributes['data-zq-option']}"
        elif "id" in attributes and match["tag"] in ("input", "select", "textarea", "option"):
            address = f"#{attributes['id']}"
        else:
            continue
        label = attributes.get("aria-label")
        names[address] = unescape(label) if label is not None else None
    return names


@jinja2.pass_context
def variant_templates(context: jinja2.runtime.Context, question: Question) -> Markup:
    """The data of the variants: per variant 2…, the slots (and accessible names) that differ from variant 1's; for
    variant 1, its own of those."""
    template = context.environment.get_template("question.html")
    values = context.get_all()

    def rendered(variant: Question) -> tuple[dict[str, str], dict[str, str | None]]:
        html = template.render({**values, "q": variant, "varying": True})
        return slots_of(html), spoken_names(html)

    first, first_names = rendered(question)
    changes: list[tuple[dict[str, str], dict[str, str | None]]] = []
    for variant in question.variant_questions[1:]:
        slots, names = rendered(variant)
        changes.append(({name: html for name, html in slots.items() if first.get(name) != html},
                        {address: name for address, name in names.items() if first_names.get(address) != name}))
    # Variant 1's own parts, where another variant differs: what the page goes back to (also after a reset, when
    # the page it copies shows another variant).
    changed_slots = {name for slots, _ in changes for name in slots}
    changed_names = {address for _, names in changes for address in names}
    changes.insert(0, ({name: html for name, html in first.items() if name in changed_slots},
                       {address: name for address, name in first_names.items() if address in changed_names}))
    parts = []
    for number, (slots, names) in enumerate(changes, 1):
        changed = "".join(f'<div data-zq-slot="{escape(name)}">{html}</div>' for name, html in slots.items())
        # A control named by a text with a formula: its name follows the variant's figures too.
        changed += "".join(f'<div data-zq-aria="{escape(address)}"{" data-zq-none" if name is None else ""}>'
                           f"{escape(name or '')}</div>" for address, name in names.items())
        parts.append(f'<template data-zq-variant-of="{escape(question.id)}" data-zq-variant="{number}">'
                     f"{changed}</template>")
    return Markup("\n".join(parts))


def question_spec(question: Question) -> dict[str, Any]:
    """What the browser grades a question by, with the revision of its key that a saved verdict is compared
    with (`rev`); with variants, each variant's too (variant 1's is the question's)."""
    rev = key_revision(question)
    if question.variants is None:
        return {**question.spec, "rev": rev}
    return {**question.spec, "rev": rev,
            "variants": [{**variant.spec, "rev": rev} for variant in question.variant_questions]}


def key_revision(question: Question) -> str:
    """A short digest of what a verdict on the question stands on: each variant's key, and the texts its options
    and items are marked by in every language (an option put in before another moves the markers answers are
    saved by). The same on every page of the question, and in every build of the same source."""
    versions = question.variant_questions if question.variants is not None else [question]
    marked = [[version.qtype.graded(version.spec), marked_texts(version)] for version in versions]
    digest = hashlib.sha256(json.dumps(_rounded(marked), ensure_ascii=False, sort_keys=True).encode("utf-8"))
    return digest.hexdigest()[:12]


def marked_texts(question: Question) -> dict[str, Any]:
    """Each option's and item's marker with its text in every language, as the author wrote them, and the words
    its type's answers name by place."""
    return {**{name: [[entry.key, {lang: text.markdown for lang, text in entry.text.items()}]
                      for entry in question.lists.get(name, [])] for name in ("options", "items")},
            **question.qtype.marked_words(question.key)}


def _rounded(value: Any) -> Any:
    """`value` with every float to 12 significant digits: the build's arithmetic may differ in the last bits
    between machines' maths libraries, and a build elsewhere must not withdraw learners' verdicts."""
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if isinstance(value, dict):
        return {name: _rounded(item) for name, item in value.items()}
    if isinstance(value, list | tuple):
        return [_rounded(item) for item in value]
    return value
