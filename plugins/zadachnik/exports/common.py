"""What every export format needs: a module's exportable questions in one language, their text as HTML with the
math kept as TeX for the LMS's MathJax, tolerances made absolute, and the reasons a question is left out."""

from __future__ import annotations

import html
import math
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from html.parser import HTMLParser
from typing import Any

from zadachnik.core.formatting import answer_shown_exactly
from zadachnik.core.numbers import slack
from zadachnik.qtypes.choice import ChoiceKey
from zadachnik.qtypes.matching import MatchingKey
from zadachnik.qtypes.numeric import NumericField, NumericKey
from zadachnik.reading.model import Course, Module, Question
from zadachnik.reading.shuffle import OPTION_REFERENCE_HTML
from zadachnik.rendering.i18n import strings
from zadachnik.rendering.mathtex import MathExtension

# The site's own extensions where an LMS shows their output as it is; pymdownx.superfences and its highlighting
# give way to plain fenced code, which needs no stylesheet.
MARKDOWN_EXTENSIONS = ["tables", "fenced_code", "admonition", "attr_list", "md_in_html", "pymdownx.details",
                       "pymdownx.tabbed"]
MARKDOWN_CONFIGS = {"pymdownx.tabbed": {"alternate_style": True}}
VOID_ELEMENTS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Skipped:
    """A question a format cannot carry, and why, for the line the command prints."""

    question: Question
    reason: str

    def __str__(self) -> str:
        return f"{self.question.id}: left out: {self.reason}"


@dataclass
class ModuleExport:
    """One module's questions in one language, as every format reads them."""

    course: Course
    module: Module
    lang: str
    questions: list[Question]
    skipped: list[Skipped] = field(default_factory=list)
    # Lines about what was exported with less than the site has (a checker's key only).
    notes: list[str] = field(default_factory=list)
    text: TextRenderer = field(default_factory=lambda: TextRenderer())
    # Per question with variants, its variants' ids (unique_variant_ids): every format names them so.
    variant_ids: dict[str, list[str]] = field(default_factory=dict)
    # Per mixed question without variants, its explanation box's id in Moodle XML (unique_explanation_ids).
    explanation_ids: dict[str, str] = field(default_factory=dict)

    @property
    def words(self) -> dict[str, Any]:
        return strings(self.lang)

    def title(self, question: Question) -> str:
        return self.text.plain(question.title[self.lang].markdown)

    def name(self, question: Question) -> str:
        """The name an LMS lists the question under: its id, then its title."""
        return f"{question.id} {self.title(question)}"

    def variant_questions(self, question: Question) -> list[Question]:
        """A question with variants as one question per variant, its figures in its text and its own key, each
        with the id the LMS names and numbers it by (P02-v3); a question without variants alone."""
        if question.variants is None:
            return [question]
        ids = self.variant_ids[question.id]
        return [replace(variant, id=given) for given, variant in zip(ids, question.variant_questions, strict=True)]

    def item_count(self) -> int:
        """How many questions the LMS gets: one per question, or per variant."""
        return sum(len(self.variant_questions(question)) for question in self.questions)

    def category(self, *names: str) -> str:
        """`$course$/top/Course/Module[/name…]`: the category of a question bank an import puts questions into
        (Moodle's XML and GIFT alike), one line. As Moodle's assemble_category_path writes it: a slash inside a name
        doubled, and a space between a name's slash and the one that parts it from the next name."""
        parts = [" ".join(part.split()).replace("/", "//")
                 for part in [self.course.title[self.lang], self.module.title[self.lang], *names]]
        return xml_text("/".join(["$course$", "top", *(separated(part) for part in parts)]))

    # `letters`: whether the format shows an unshuffled question's options with the author's letters (Moodle XML
    # and GIFT do; a QTI player shows none), so that `[[option:B]]` may stay B.
    def body(self, question: Question, letters: bool = True) -> str:
        return self.named_options(question, self.text.html(question.body[self.lang].markdown), letters)

    def explanation(self, question: Question, letters: bool = True) -> str:
        return self.named_options(question, self.text.html(question.explanation[self.lang].markdown), letters)

    def hint(self, question: Question, hint: dict[str, Any]) -> str:
        return self.named_options(question, self.text.html(hint[self.lang].markdown))

    def named_options(self, question: Question, text: str, letters: bool = True) -> str:
        """`[[option:B]]` as the LMS can read it: its letter where the LMS shows the options in the author's order
        with the author's letters, else (shuffled, a matching question's list, which has no letters, or a format
        without letters) the option's own text, quoted."""
        if letters and not question.shuffle and question.auto_type != "matching":
            return text
        return OPTION_REFERENCE_HTML.sub(lambda found: html.escape(self.words["option_named"].format(
            text=self.entry_plain(question, "options", html.unescape(found.group(1)))), quote=False), text)

    def entry_html(self, question: Question, part: str, key: str) -> str:
        entry = next(entry for entry in question.lists[part] if entry.key == key)
        return self.text.inline(entry.text[self.lang].markdown)

    def entry_plain(self, question: Question, part: str, key: str) -> str:
        entry = next(entry for entry in question.lists[part] if entry.key == key)
        return self.text.plain(entry.text[self.lang].markdown)

    def markers(self, question: Question, part: str) -> list[str]:
        return [entry.key for entry in question.lists[part]]

    def unit(self, numeric_field: NumericField) -> str:
        unit = numeric_field.unit
        if isinstance(unit, dict):
            unit = unit.get(self.lang, "")
        # One line: it follows a label, in a name or a category too.
        return " ".join((unit or "").split())

    def field_label(self, question: Question, numeric_field: NumericField) -> str:
        """A field's label as the page shows it beside its box, its unit after it."""
        label = self.entry_html(question, "fields", numeric_field.id)
        unit = self.unit(numeric_field)
        return f"{label} ({html.escape(unit)})" if unit else label

    def field_label_plain(self, question: Question, numeric_field: NumericField) -> str:
        label = self.entry_plain(question, "fields", numeric_field.id)
        unit = self.unit(numeric_field)
        return f"{label} ({unit})" if unit else label


# What XML 1.0 cannot hold (control characters but tab and line breaks): an author's text pasted with one made
# the whole file unreadable to the importer.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    return _NOT_XML.sub("", text)


def separated(name: str) -> str:
    """A category's name, its slashes doubled, that starts or ends with one: a space keeps it from the slash that
    parts it from its neighbour (Moodle trims the names it reads)."""
    return (" " if name.startswith("/") else "") + name + (" " if name.endswith("/") else "")


# Types no format can carry, and why: every export leaves them out with this line.
NO_LMS_TYPE = {
    "code": "a Python code exercise has no question type that LMSs share (its hidden tests run only on the site)",
    "formula": "a formula answer is graded by its values at random points, which Moodle's standard types and QTI's "
               "interactions cannot do (Moodle has it only through the STACK plugin): take the page itself into the "
               "LMS as a SCORM package",
}


def module_export(course: Course, module: Module, lang: str, text: TextRenderer | None = None) -> ModuleExport:
    """The module's questions an LMS can take; code exercises are left out, checkers travel as their plain key.
    `text`: what writes their texts (the site's footnotes taken into account), one shared by the modules."""
    variant_ids = unique_variant_ids(module.questions)
    export = ModuleExport(course, module, lang, [], text=text or TextRenderer(), variant_ids=variant_ids,
                          explanation_ids=unique_explanation_ids(module.questions, variant_ids))
    for question in module.questions:
        if question.type in NO_LMS_TYPE:
            export.skipped.append(Skipped(question, NO_LMS_TYPE[question.type]))
            continue
        if question.checker is not None:
            if question.key is None:
                export.skipped.append(Skipped(question, "its checker (Python) cannot travel and it has no plain key"))
                continue
            export.notes.append(f"{question.id}: its checker (Python) cannot travel: exported with its plain key, "
                                "which accepts only what the key does")
        if question.hints and question.type == "open":
            export.notes.append(f"{question.id}: its hints are left out: an essay in an LMS shows none")
        if any(_PICTURE.search(text) for text in question_texts(question, lang)):
            export.notes.append(f"{question.id}: its pictures are not carried: the LMS shows a broken image until "
                                "they are uploaded there and the question edited to use them")
        if question.variants is not None:
            count = len(question.variants.items)
            export.notes.append(f"{question.id}: its {count} variants go out as {count} questions grouped for a "
                                "quiz to draw one (a category of their own; in QTI, a section that selects one)")
            export.notes.extend(renamed_variants(question, export.variant_ids[question.id]))
        export.questions.append(question)
    return export


def moodle_gives_shares(question: Question) -> bool:
    """An all-or-nothing multiple choice with several right options: Moodle adds up the ticked options' shares
    (choice_fractions), so some of the right ones alone earn theirs, where the site gives nothing."""
    return any(concrete.auto_type == "multiple" and concrete.auto_key.scoring == "all-or-nothing"
               and len(concrete.auto_key.correct) > 1 for concrete in question.variant_questions)


def moodle_grading_notes(question: Question, lms: str) -> list[str]:
    """What Moodle grades otherwise than the site, whichever of its formats (`lms`: "Moodle XML", "GIFT")
    carries the question there."""
    lines = []
    if question.auto_type == "matching":
        lines.append(f"{question.id}: {lms} gives a share of the mark for each item matched right; the site gives the "
                     "mark only when every item is")
    if moodle_gives_shares(question):
        lines.append(f"{question.id}: {lms} gives 1/{len(question.auto_key.correct)} of the mark for each right "
                     "option ticked (a wrong one takes it all); the site gives the mark only when exactly the right "
                     "options are")
    if any(moodle_margin_swamps(numeric) for numeric in number_fields(question)):
        lines.append(f"{question.id}: Moodle accepts any answer within 1e-14 of the right one (its margin for "
                     "rounding), which for an answer this small takes answers the site refuses, 0 among them: "
                     "give it in units that make it larger (2 fs rather than 2e-15 s)")
    return lines


# Moodle's numerical question widens every tolerance by 10^-precision·max(1, |answer|), PHP's default precision
# being 14 (question/type/numerical/question.php, get_tolerance_interval).
MOODLE_MARGIN = 1e-14


def moodle_margin_swamps(numeric: NumericField) -> bool:
    """Whether Moodle's own margin accepts answers the site refuses that are off by more than a millionth."""
    margin = MOODLE_MARGIN * max(1.0, abs(numeric.value))
    return margin > absolute_tolerance(numeric) and margin > 1e-6 * abs(numeric.value)


def number_fields(question: Question) -> list[NumericField]:
    """The boxes for numbers of a question's checked part, in every variant."""
    fields = []
    for variant in question.variant_questions or [question]:
        if variant.auto_type == "numeric":
            fields += numeric_fields(variant.auto_key)
        elif variant.auto_type == "blanks":
            fields += [gap for gap in variant.auto_key.gaps if isinstance(gap, NumericField)]
    return fields


def no_hints_note(question: Question, lms: str) -> list[str]:
    """A checked question's hints, in a format that has none (an open question's are said for every format)."""
    if not question.hints or question.type == "open":
        return []
    return [f"{question.id}: {lms} has no hints: they are left out"]


# A picture in author Markdown: an image's Markdown or an <img> element.
_PICTURE = re.compile(r"!\[[^\]]*\]\(|<img\b", re.IGNORECASE)


def question_texts(question: Question, lang: str) -> list[str]:
    """Every text of a question a learner sees in an LMS, as the author wrote it: title, body, lists, explanation,
    hints."""
    texts = [question.title[lang].markdown, question.body[lang].markdown, question.explanation[lang].markdown]
    texts += [entry.text[lang].markdown for entries in question.lists.values() for entry in entries]
    return texts + [hint[lang].markdown for hint in question.hints]


def unique_variant_ids(questions: list[Question]) -> dict[str, list[str]]:
    """Per question with variants, an id for each variant, P02-v3, that no other question or variant of the module
    has (an author may name a question P02-v3: in QTI the two took one item and file, one over the other); a taken
    one gets a number after it, P02-v3_2. Every format names variants so, and QTI names their files after them."""
    taken = {question.id.casefold() for question in questions}
    return {question.id: [free_id(variant_id(question, item.number), taken) for item in question.variants.items]
            for question in questions if question.variants is not None}


def unique_explanation_ids(questions: list[Question], variant_ids: dict[str, list[str]]) -> dict[str, str]:
    """Per mixed question without variants, the id of the explanation box Moodle XML adds beside it, X1-explanation,
    that no question or variant of the module has. (A variant's box has a category of its own.)"""
    taken = {name.casefold() for name in [question.id for question in questions]
             + [given for ids in variant_ids.values() for given in ids]}
    return {question.id: free_id(f"{question.id}-explanation", taken) for question in questions
            if question.type == "mixed" and question.variants is None}


def free_id(wanted: str, taken: set[str]) -> str:
    """`wanted`, or with a number after it when `taken` has it in any case (Moodle's id numbers ignore case, and
    so do the file names of a QTI package unzipped on macOS or Windows); taken from then on."""
    given, suffix = wanted, 1
    while given.casefold() in taken:
        suffix += 1
        given = f"{wanted}_{suffix}"
    taken.add(given.casefold())
    return given


def variant_id(question: Question, number: int) -> str:
    return f"{question.id}-v{number}"


def renamed_variants(question: Question, ids: list[str]) -> list[str]:
    """A line for each variant whose id is not the usual one, since a question has it."""
    assert question.variants is not None
    return [f"{question.id}: its variant {item.number} goes out as {given}: {variant_id(question, item.number)} is "
            "another question's id" for item, given in zip(question.variants.items, ids, strict=True)
            if given != variant_id(question, item.number)]


# -- the parts of a key ------------------------------------------------------------------------------------------


def auto_part(question: Question) -> tuple[str, Any]:
    """The type and key an LMS grades: a mixed question's checked part, or the question's own."""
    return question.auto_type, question.auto_key


# The shares of a mark Moodle grades an answer with (question_bank::fraction_options_full, and their negatives):
# an import stops at any other.
MOODLE_FRACTIONS = (1.0, 0.9, 0.8333333, 0.8, 0.75, 0.7, 0.6666667, 0.6, 0.5, 0.4, 0.3333333, 0.3, 0.25, 0.2,
                    0.1666667, 0.1428571, 0.125, 0.1111111, 0.1, 0.05, 0.0)


def moodle_choice(export: ModuleExport, question: Question, option: str) -> str:
    """A matching question's option as both Moodle formats store it: plain text, which Moodle shows through
    format_string, stripping what looks like a tag (`List<int>` showed as `List`); written as HTML, it shows as
    written."""
    return html.escape(export.entry_plain(question, "options", option), quote=False)


def moodle_refuses(question: Question) -> str | None:
    """Why Moodle's importers (XML and GIFT) cannot take a question: a multiple-choice share it has no grade for,
    or a type only some Moodles have."""
    if auto_part(question)[0] == "ordering":
        return ("Moodle's Ordering question type is a plugin, not in every Moodle, and GIFT has none: export it as "
                "QTI (an orderInteraction) or take the page itself as a SCORM package")
    if auto_part(question)[0] == "parsons":
        return ("Moodle has no Parsons problems (its Ordering plugin, not in every Moodle, knows no indentation or "
                "tests) and GIFT has none: export it as QTI (an orderInteraction, when it has neither tests nor "
                "lines that belong nowhere) or take the page itself as a SCORM package")
    for concrete in question.variant_questions:
        auto_type, key = auto_part(concrete)
        if auto_type != "multiple":
            continue
        shares = choice_fractions(key, [entry.key for entry in concrete.lists["options"]]).values()
        if not all(any(abs(abs(share) - grade) < 5e-8 for grade in MOODLE_FRACTIONS) for share in shares):
            return (f"its {len(key.correct)} right options would earn 1/{len(key.correct)} of the mark each, a share "
                    "Moodle has no grade for (its import would stop at the file): give it at most 10 right options, "
                    "or export it as QTI")
    return None


def choice_fractions(key: ChoiceKey, markers: list[str]) -> dict[str, float]:
    """Each option's share of the mark, as LMSs that add up ticked options grade: right ones share 1; under
    net-correct each wrong pick takes back one right one's share (exactly the site's rule, floored at 0), under
    all-or-nothing any wrong pick takes it all (a partial pick of right ones still earns its share)."""
    share = 1 / len(key.correct)
    penalty = -share if key.scoring == "net-correct" else -1.0
    return {marker: share if marker in key.correct else penalty for marker in markers}


def numeric_fields(key: Any) -> list[NumericField]:
    assert isinstance(key, NumericKey)
    return key.fields


def matching_pairs(key: Any) -> dict[str, str]:
    assert isinstance(key, MatchingKey)
    return key.pairs


def absolute_tolerance(numeric_field: NumericField) -> float:
    """The site accepts a value within atol or within rtol·|answer|: one interval, the wider of the two. An exact
    answer the page can only reveal rounded (0.3333333333 for 1/3) gets the site's slack (core.numbers.slack)
    instead of none: an LMS comparing exactly refused the answer the site reveals and accepts."""
    atol, answer = numeric_field.atol or 0.0, abs(numeric_field.value)
    tolerance = max(atol, (numeric_field.rtol or 0.0) * answer)
    if tolerance or answer_shown_exactly(numeric_field.value, numeric_field.atol, numeric_field.rtol):
        return tolerance
    return slack(answer, answer, atol)


def number_text(value: float) -> str:
    """A number as importers read it: the shortest digits that give back the same double, never an exponent
    (GIFT's and Moodle's readers take plain decimals everywhere)."""
    if not math.isfinite(value):
        raise ValueError(f"{value} is not a number an LMS can take")
    if value == int(value) and abs(value) < 1e16:
        return str(int(value))
    text = format(Decimal(repr(value)), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def percent_text(fraction: float) -> str:
    """A fraction as the percentage Moodle writes (100, 50, 33.33333, -25)."""
    percent = round(fraction * 100, 5)
    return str(int(percent)) if percent == int(percent) else f"{percent:.5f}".rstrip("0")


# -- text --------------------------------------------------------------------------------------------------------


class KeepTex:
    """Stands in for KaTeX in the math extension: a formula stays TeX, in the delimiters MathJax reads."""

    def render(self, tex: str, display: bool) -> str:
        escaped = html.escape(tex, quote=False)
        return f"\\[{escaped}\\]" if display else f"\\({escaped}\\)"


class TextRenderer:
    """Author Markdown → HTML for an LMS: the site's math rules, TeX kept, tabs written out one after another.
    `footnotes`: the options of the site's Markdown footnotes, when it has them (each text's notes at its end)."""

    def __init__(self, footnotes: dict[str, Any] | None = None) -> None:
        import markdown

        extensions: list[Any] = [*MARKDOWN_EXTENSIONS, MathExtension(katex=KeepTex())]
        configs = dict(MARKDOWN_CONFIGS)
        if footnotes is not None:
            extensions.append("footnotes")
            configs["footnotes"] = footnotes
        self.markdown = markdown.Markdown(extensions=extensions, extension_configs=configs)
        self.cache: dict[tuple[str, str], str] = {}

    def tree(self, markdown_text: str) -> etree.Element:
        return tidy(parse_html(xml_text(self.markdown.reset().convert(markdown_text))))

    def html(self, markdown_text: str) -> str:
        return self.cached("html", markdown_text, lambda: serialize_html(self.tree(markdown_text)))

    def inline(self, markdown_text: str) -> str:
        """A one-line text (an option, a label): its paragraph's content, without the paragraph."""
        def convert() -> str:
            root = self.tree(markdown_text)
            if len(root) == 1 and root[0].tag == "p" and not (root.text or "").strip():
                root = root[0]
            return serialize_html(root)
        return self.cached("inline", markdown_text, convert)

    def plain(self, markdown_text: str) -> str:
        """Text without markup, math as TeX in its delimiters: for names and for answers LMSs show as text."""
        return self.cached("plain", markdown_text,
                           lambda: " ".join("".join(self.tree(markdown_text).itertext()).split()))

    def cached(self, kind: str, markdown_text: str, convert: Callable[[], str]) -> str:
        key = (kind, markdown_text)
        if key not in self.cache:
            self.cache[key] = xml_text(convert())
        return self.cache[key]


class TreeBuilder(HTMLParser):
    """HTML (an author's own tags included, closed or not) into an element tree under one <div>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = etree.Element("div")
        self.open: list[etree.Element] = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = etree.SubElement(self.open[-1], tag, {name: value or "" for name, value in attrs})
        if tag not in VOID_ELEMENTS:
            self.open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        etree.SubElement(self.open[-1], tag, {name: value or "" for name, value in attrs})

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        parent = self.open[-1]
        if len(parent):
            parent[-1].tail = (parent[-1].tail or "") + data
        else:
            parent.text = (parent.text or "") + data


def parse_html(text: str) -> etree.Element:
    builder = TreeBuilder()
    builder.feed(text)
    builder.close()
    return builder.root


def tidy(root: etree.Element) -> etree.Element:
    """What only the site makes sense of: tab sets become each tab's name in bold above its text, heading
    permalinks go, and links within the site (references such as [[P01]], course files) become their text: an
    LMS has no such page. A text's notes stay listed at its end, their numbers without links or ids: an LMS shows
    many questions on a page, and another's notes could have the same."""
    for parent in list(root.iter()):
        for child in list(parent):
            classes = child.get("class", "").split()
            for element in note_markup(child, classes):
                element.attrib.pop("id", None)
            if "footnote-backref" in classes:
                remove_keeping_tail(parent, child, trimmed="\xa0")
            elif "tabbed-set" in classes:
                index = list(parent).index(child)
                parent.remove(child)
                for offset, element in enumerate(written_out_tabs(child)):
                    parent.insert(index + offset, element)
            elif child.tag == "a" and "headerlink" in classes:
                remove_keeping_tail(parent, child)
            elif child.tag == "a" and not _ABSOLUTE_URL.match(child.get("href", "")):
                unwrap(parent, child)
    return root


_ABSOLUTE_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


def note_markup(element: etree.Element, classes: list[str]) -> list[etree.Element]:
    """The elements whose ids the footnotes extension wrote, if `element` is its markup: a reference
    (`<sup id="fnref:…"><a class="footnote-ref">`) or a text's list of notes (`<div class="footnote">`, each
    `<li id="fn:…">`). An author's own `{#fn-intro}` is none of them."""
    if element.tag == "sup" and any("footnote-ref" in link.get("class", "").split() for link in element.iter("a")):
        return [element]
    if element.tag == "div" and "footnote" in classes:
        return [item for notes in element.findall("ol") for item in notes.findall("li")]
    return []


def unwrap(parent: etree.Element, child: etree.Element) -> None:
    """The child's text and children take its place."""
    index = list(parent).index(child)
    previous = parent[index - 1] if index > 0 else None
    text = child.text or ""
    if previous is not None:
        previous.tail = (previous.tail or "") + text
    else:
        parent.text = (parent.text or "") + text
    parent.remove(child)
    for offset, grandchild in enumerate(list(child)):
        parent.insert(index + offset, grandchild)
    last = parent[index + len(child) - 1] if len(child) else previous
    tail = child.tail or ""
    if last is not None:
        last.tail = (last.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail


def written_out_tabs(tab_set: etree.Element) -> list[etree.Element]:
    labels = ["".join(label.itertext()) for label in tab_set.iter("label")]
    blocks = [element for element in tab_set.iter() if "tabbed-block" in element.get("class", "").split()]
    written: list[etree.Element] = []
    for label, block in zip(labels, blocks, strict=False):
        heading = etree.Element("p")
        etree.SubElement(heading, "strong").text = label
        block.attrib.pop("class", None)
        block.tail = "\n"
        written.extend([heading, block])
    return written


def remove_keeping_tail(parent: etree.Element, child: etree.Element, trimmed: str = "") -> None:
    """The child goes, its tail stays; `trimmed`: characters that went with it from the end of the text before it
    (the no-break space before a note's link back)."""
    index = list(parent).index(child)
    if index > 0:
        parent[index - 1].tail = (parent[index - 1].tail or "").rstrip(trimmed) + (child.tail or "")
    else:
        parent.text = (parent.text or "").rstrip(trimmed) + (child.tail or "")
    parent.remove(child)


def serialize_html(root: etree.Element) -> str:
    """The root's content (not the root itself) as HTML."""
    text = html.escape(root.text or "", quote=False)
    return (text + "".join(etree.tostring(child, encoding="unicode", method="html") for child in root)).strip()
