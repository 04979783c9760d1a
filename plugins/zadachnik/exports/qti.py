"""IMS QTI 2.1 content package: imsmanifest.xml, an assessmentTest of the module and one assessmentItem per
question, zipped, for Canvas, Blackboard, ILIAS and other LMSs that import QTI 2.1.

single → choiceInteraction (maxChoices 1); multiple → choiceInteraction scored all-or-nothing (match) or
net-correct (a mapping floored at 0, the site's rule); numeric → one textEntryInteraction per field, each compared
with an absolute tolerance, all of them right for the mark; matching → matchInteraction, all pairs right;
blanks → where each gap stands in the text, a textEntryInteraction (a number, with its tolerance) or an
inlineChoiceInteraction (its words), each gap right earning its share of the mark, as on the site;
open → extendedTextInteraction with the explanation in a rubric for the scorer; mixed → its checked part and an
extendedTextInteraction in one item. The explanation is the item's modal feedback, shown after an answer.

Canvas reads a package by its own rules (gems/plugins/qti_exporter in canvas-lms): the manifest tells it which of
its question types takes each item (item_metadata), a tolerance is written as its lower and upper bounds, which
Canvas reads as a range, and what Canvas still grades otherwise gets a line (canvas_notes).

A question with variants is one item per variant, grouped in the test by an invisible assessmentSection that
selects one of them (`<selection select="1"/>`), so each candidate gets one variant; an LMS that does not honour
selection still imports every variant as an item of its own, named P02-v1, P02-v2 …"""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as etree
import zipfile
from decimal import Decimal

from zadachnik.core.zips import add_entry
from zadachnik.exports.common import (
    ModuleExport,
    absolute_tolerance,
    auto_part,
    choice_fractions,
    matching_pairs,
    no_hints_note,
    number_text,
    numeric_fields,
    parse_html,
)
from zadachnik.qtypes.blanks import BlanksKey, ChoiceGap, Gap
from zadachnik.qtypes.numeric import NumericField
from zadachnik.reading.model import Question

QTI_NS = "http://www.imsglobal.org/xsd/imsqti_v2p1"
# QTI 2.1's metadata for a package's items (imsqti_metadata_v2p1.xsd), in the manifest.
QTI_METADATA_NS = "http://www.imsglobal.org/xsd/imsqti_metadata_v2p1"
QTI_XSD = "http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"
CP_NS = "http://www.imsglobal.org/xsd/imscp_v1p1"
CP_XSD = "http://www.imsglobal.org/xsd/qti/qtiv2p1/qtiv2p1_imscpv1p2_v1p0.xsd"
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
# The XHTML subset QTI 2.1 allows in content, and the attributes each keeps; anything else is unwrapped.
COMMON_ATTRIBUTES = ("class",)
XHTML = {
    **{tag: () for tag in ("abbr", "acronym", "address", "b", "big", "blockquote", "br", "caption", "cite", "code",
                           "dd", "dfn", "div", "dl", "dt", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i",
                           "kbd", "li", "ol", "p", "pre", "q", "samp", "small", "span", "strong", "sub", "sup",
                           "tbody", "tfoot", "thead", "tr", "tt", "ul", "var")},
    "a": ("href", "type"), "img": ("src", "alt", "width", "height"), "table": ("summary",),
    "td": ("rowspan", "colspan", "scope"), "th": ("rowspan", "colspan", "scope"), "col": ("span",),
    "colgroup": ("span",),
}
# What carries content but is not QTI's: written as the nearest QTI element.
RENAMED = {"details": "div", "summary": "p", "s": "span", "del": "span", "ins": "span", "u": "span", "mark": "span"}
DROPPED = {"input", "button", "script", "style", "select", "textarea"}
# The interactions put_gaps writes into a text, kept as they are (no HTML element has their names).
GAP_INTERACTIONS = {"textEntryInteraction", "inlineChoiceInteraction"}
# What an NCName may hold after its first character (letters and digits of any script among them): each id the
# sources allow (fields like ρ and σ) keeps a name of its own.
_NOT_IDENTIFIER = re.compile(r"[^\w.\-]")
# The explanation's modalFeedback: Canvas keeps a feedback only by its identifier (assessment_item_converter.rb,
# get_feedback), and one starting "general_" is its neutral comment, shown to every student after an answer.
EXPLANATION_FEEDBACK = "general_explanation"



def q(tag: str) -> str:
    """A QTI element's tag: the files declare QTI's namespace as the default one on their root (`xmlns`), which
    ElementTree writes as it is, so the importers read every element in that namespace."""
    return tag


def identifier(prefix: str, name: str) -> str:
    """An NCName: ids like 9.4.1 start with a digit, which QTI's identifiers may not."""
    return prefix + _NOT_IDENTIFIER.sub("_", name)


def file_name(export: ModuleExport) -> str:
    return f"{export.course.id}-{export.module.slug}-{export.lang}.qti21.zip"


def qti_package(export: ModuleExport) -> bytes:
    # Each question with the items it becomes: itself, or one per variant (their ids unique in the module, and so
    # their files: common.unique_variant_ids), each with the question it was made of.
    groups = [(question, {item_href(variant): (variant, assessment_item(export, variant))
                          for variant in export.variant_questions(question)}) for question in export.questions]
    items = {href: made for _, members in groups for href, made in members.items()}
    if len(items) != export.item_count():
        raise ValueError(f"{export.module.slug}: two items would share one file: every item must have its own")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        # Dated entries of their own: the same questions make the same package (they carried the time of export).
        add_entry(package, "imsmanifest.xml", xml_bytes(manifest(export, items), indented=True), 6)
        add_entry(package, "test.xml", xml_bytes(
            assessment_test(export, [(question, list(members)) for question, members in groups]), indented=True), 6)
        for href, (_, item) in items.items():
            add_entry(package, href, xml_bytes(item), 6)
    return buffer.getvalue()


def item_href(question: Question) -> str:
    return f"items/{identifier('Q-', question.id)}.xml"


def xml_bytes(root: etree.Element, indented: bool = False) -> bytes:
    """Items are not indented: indenting would add white space to the author's text, a <pre> block's above all."""
    if indented:
        etree.indent(root)
    return etree.tostring(root, encoding="UTF-8", xml_declaration=True) + b"\n"


# -- the package -------------------------------------------------------------------------------------------------


def manifest(export: ModuleExport, items: dict[str, tuple[Question, etree.Element]]) -> etree.Element:
    root = etree.Element("manifest", {
        "xmlns": CP_NS, "xmlns:imsqti": QTI_METADATA_NS,
        "identifier": identifier("M-", f"{export.course.id}-{export.module.slug}-{export.lang}"),
        f"{{{XSI_NS}}}schemaLocation": f"{CP_NS} {CP_XSD}"})
    metadata = etree.SubElement(root, "metadata")
    etree.SubElement(metadata, "schema").text = "QTIv2.1 Package"
    etree.SubElement(metadata, "schemaversion").text = "1.0.0"
    etree.SubElement(root, "organizations")
    resources = etree.SubElement(root, "resources")
    test = etree.SubElement(resources, "resource", identifier="R-test", type="imsqti_test_xmlv2p1",
                            href="test.xml")
    etree.SubElement(test, "file", href="test.xml")
    for href in items:
        etree.SubElement(test, "dependency", identifierref=resource_id(href))
    for href, (question, item) in items.items():
        resource = etree.SubElement(resources, "resource", identifier=resource_id(href), type="imsqti_item_xmlv2p1",
                                    href=href)
        resource.append(item_metadata(question, item))
        etree.SubElement(resource, "file", href=href)
    return root


def resource_id(href: str) -> str:
    return "R-" + href.removeprefix("items/").removesuffix(".xml")


def item_metadata(question: Question, item: etree.Element) -> etree.Element:
    """What other tools and Canvas read of an item before the item itself. QTI's own metadata lists the item's
    interactions (qtiMetadata/interactionType, in the namespace of QTI 2.1's metadata binding). Canvas's
    instructureMetadata, which other tools ignore, pins the converter Canvas takes the item with: the first
    interactionType in the manifest's own namespace comes before QTI's (get_interaction_type), and with the
    question_type field chooses the converter (create_instructure_question); with neither, Canvas guesses from
    the item and sends any item with a text box to fill-in-the-blank."""
    metadata = etree.Element("metadata")
    qti = etree.SubElement(metadata, "imsqti:qtiMetadata")
    for interaction in dict.fromkeys(element.tag for element in item.iter() if element.tag.endswith("Interaction")):
        etree.SubElement(qti, "imsqti:interactionType").text = interaction
    interaction, question_type = canvas_route(question)
    canvas = etree.SubElement(metadata, "instructureMetadata")
    etree.SubElement(canvas, "interactionType").text = interaction
    if question_type is not None:
        etree.SubElement(canvas, "instructureField", name="question_type", value=question_type)
    return metadata


def canvas_route(question: Question) -> tuple[str, str | None]:
    """The interaction type and question_type Canvas's create_instructure_question needs to take a question with
    the converter nearest its meaning. A lone number: "textInteraction" is a name its NumericInteraction branch
    matches (QTI's "textEntryInteraction" does not), and numerical_question picks it, which reads the bounds as a
    range. Several numbers, or numbers in gaps: fill-in-the-blank with each value as text (process_text_entry,
    the route Canvas's guesser gives them; notes() says what is lost). Gaps of words alone: the guesser's
    dropdowns (process_inline), since QTI's "inlineChoiceInteraction" would match Canvas's choice branch."""
    auto_type, key = auto_part(question)
    if question.type == "open":
        return "extendedTextInteraction", None
    if auto_type in CANVAS_INTERACTIONS:
        return CANVAS_INTERACTIONS[auto_type], None
    if auto_type == "numeric" and len(numeric_fields(key)) == 1:
        return "textInteraction", "numerical_question"
    if auto_type == "blanks" and all(isinstance(gap, ChoiceGap) for gap in key.gaps):
        return "multiple_dropdowns_question", "inline_choice"
    return "textEntryInteraction", "text_entry_interaction"


# The types whose own interaction Canvas's create_instructure_question takes with the right converter.
CANVAS_INTERACTIONS = {"single": "choiceInteraction", "multiple": "choiceInteraction", "matching": "matchInteraction",
                       "ordering": "orderInteraction", "parsons": "orderInteraction"}


def assessment_test(export: ModuleExport, groups: list[tuple[Question, list[str]]]) -> etree.Element:
    """One section of the module's items in order; a question with variants is a section within it that
    selects one of its variants' items (invisible: its item shows as one of the module's). The module's section is
    invisible too: the test's title already names the module, and Canvas makes a visible section's title a
    text-only question (assessment_test_converter.rb, process_section)."""
    title = export.module.title[export.lang]
    root = etree.Element(q("assessmentTest"), {
        "xmlns": QTI_NS, "identifier": identifier("T-", f"{export.course.id}-{export.module.slug}"), "title": title,
        f"{{{XSI_NS}}}schemaLocation": f"{QTI_NS} {QTI_XSD}"})
    part = etree.SubElement(root, q("testPart"), identifier="P-1", navigationMode="nonlinear",
                            submissionMode="individual")
    section = etree.SubElement(part, q("assessmentSection"), identifier="S-1", title=title, visible="false")
    for question, hrefs in groups:
        parent = section
        if question.variants is not None:
            # "V-": the module's own section is S-1, which a question's id could repeat.
            parent = etree.SubElement(section, q("assessmentSection"), identifier=identifier("V-", question.id),
                                      title=export.name(question), visible="false")
            etree.SubElement(parent, q("selection"), select="1")
        for href in hrefs:
            etree.SubElement(parent, q("assessmentItemRef"),
                             identifier=href.removeprefix("items/").removesuffix(".xml"), href=href)
    return root


# -- one item ----------------------------------------------------------------------------------------------------


def assessment_item(export: ModuleExport, question: Question) -> etree.Element:
    item = etree.Element(q("assessmentItem"), {
        "xmlns": QTI_NS, "identifier": identifier("Q-", question.id), "title": export.name(question),
        "adaptive": "false", "timeDependent": "false", XML_LANG: export.lang,
        f"{{{XSI_NS}}}schemaLocation": f"{QTI_NS} {QTI_XSD}"})
    declarations: list[etree.Element] = []
    body = etree.Element(q("itemBody"))
    # The text as every format has it (options named as the LMS can read them), as a tree to put gaps into.
    text = parse_html(export.body(question, letters=False))
    score_rules: list[etree.Element] = []
    auto_type, key = auto_part(question)
    if auto_type == "blanks":
        put_gaps(export, text, key)
    body.append(content("div", text))
    if question.type != "open":
        if auto_type in ("single", "multiple"):
            declarations.append(choice_declaration(export, question, auto_type, key))
            body.append(choice_interaction(export, question, auto_type))
            score_rules.append(choice_scoring(auto_type, key))
        elif auto_type == "numeric":
            declarations.extend(numeric_declarations(key))
            body.append(numeric_interactions(export, question))
            score_rules.append(all_right([tolerance_rule(field) for field in numeric_fields(key)]))
        elif auto_type == "matching":
            declarations.append(matching_declaration(key))
            body.append(match_interaction(export, question))
            score_rules.append(all_right([match_rule("RESPONSE")]))
        elif auto_type == "ordering":
            declarations.append(ordering_declaration(key))
            body.append(order_interaction(export, question))
            score_rules.append(all_right([match_rule("RESPONSE")]))
        elif auto_type == "parsons":
            declarations.append(ordering_declaration(key))
            body.append(parsons_interaction(key))
            score_rules.append(all_right([match_rule("RESPONSE")]))
        elif auto_type == "blanks":
            declarations.extend(gap_declarations(key))
            score_rules.extend(share_for_each([gap_rule(gap) for gap in key.gaps]))
        else:
            raise ValueError(f"question {question.id}: no QTI interaction for '{auto_type}'")
    if question.type in ("open", "mixed"):
        response = "RESPONSE" if question.type == "open" else "EXPLANATION"
        declarations.append(etree.Element(q("responseDeclaration"), identifier=response, cardinality="single",
                                          baseType="string"))
        if question.type == "mixed":
            label = etree.SubElement(body, q("p"))
            etree.SubElement(label, q("strong")).text = export.words["explanation_label"]
        etree.SubElement(body, q("extendedTextInteraction"), responseIdentifier=response)
        rubric = etree.SubElement(body, q("rubricBlock"), view="scorer")
        rubric.append(content("div", parse_html(export.explanation(question, letters=False))))
    item.extend(declarations)
    item.extend(outcome_declarations(scored=question.type != "open"))
    item.append(body)
    item.append(response_processing(score_rules))
    feedback = etree.SubElement(item, q("modalFeedback"), outcomeIdentifier="FEEDBACK", showHide="show",
                                identifier=EXPLANATION_FEEDBACK)
    feedback.append(content("div", parse_html(export.explanation(question, letters=False))))
    return item


def outcome_declarations(scored: bool) -> list[etree.Element]:
    outcomes = []
    for name, value in (("SCORE", "0"), ("MAXSCORE", "1" if scored else "0")):
        outcome = etree.Element(q("outcomeDeclaration"), identifier=name, cardinality="single", baseType="float")
        etree.SubElement(etree.SubElement(outcome, q("defaultValue")), q("value")).text = value
        outcomes.append(outcome)
    outcomes.append(etree.Element(q("outcomeDeclaration"), identifier="FEEDBACK", cardinality="single",
                                  baseType="identifier"))
    return outcomes


def response_processing(score_rules: list[etree.Element]) -> etree.Element:
    """The score rules, then the explanation shown whatever the answer."""
    processing = etree.Element(q("responseProcessing"))
    processing.extend(score_rules)
    show = etree.SubElement(processing, q("setOutcomeValue"), identifier="FEEDBACK")
    etree.SubElement(show, q("baseValue"), baseType="identifier").text = EXPLANATION_FEEDBACK
    return processing


def set_score(parent: etree.Element, expression: etree.Element) -> None:
    setter = etree.SubElement(parent, q("setOutcomeValue"), identifier="SCORE")
    setter.append(expression)


def float_value(value: str) -> etree.Element:
    element = etree.Element(q("baseValue"), baseType="float")
    element.text = value
    return element


def all_right(conditions: list[etree.Element]) -> etree.Element:
    """SCORE 1 when every condition holds (an empty answer holds none), as the site grades: all or nothing."""
    condition = etree.Element(q("responseCondition"))
    branch = etree.SubElement(condition, q("responseIf"))
    if len(conditions) == 1:
        branch.append(conditions[0])
    else:
        etree.SubElement(branch, q("and")).extend(conditions)
    set_score(branch, float_value("1"))
    return condition


def share_for_each(conditions: list[etree.Element]) -> list[etree.Element]:
    """Each condition that holds adds its share to SCORE (an empty answer holds none), as the site grades a text
    with gaps: the share of them filled right; all of them right make exactly the whole mark."""
    rules = []
    for rule in conditions:
        condition = etree.Element(q("responseCondition"))
        branch = etree.SubElement(condition, q("responseIf"))
        branch.append(rule)
        total = etree.Element(q("sum"))
        etree.SubElement(total, q("variable"), identifier="SCORE")
        total.append(float_value(share_text(1 / len(conditions))))
        set_score(branch, total)
        rules.append(condition)
    return [*rules, score_capped()]


def score_capped() -> etree.Element:
    """SCORE at most 1: shares are rounded up (share_text), so all of them came to 1.0000002 of a MAXSCORE of 1."""
    condition = etree.Element(q("responseCondition"))
    branch = etree.SubElement(condition, q("responseIf"))
    above = etree.SubElement(branch, q("gt"))
    etree.SubElement(above, q("variable"), identifier="SCORE")
    above.append(float_value("1"))
    set_score(branch, float_value("1"))
    return condition


def match_rule(response: str) -> etree.Element:
    rule = etree.Element(q("match"))
    etree.SubElement(rule, q("variable"), identifier=response)
    etree.SubElement(rule, q("correct"), identifier=response)
    return rule


# -- choice ------------------------------------------------------------------------------------------------------


def choice_declaration(export: ModuleExport, question: Question, auto_type: str, key) -> etree.Element:
    declaration = etree.Element(q("responseDeclaration"), identifier="RESPONSE",
                                cardinality="single" if auto_type == "single" else "multiple", baseType="identifier")
    correct = etree.SubElement(declaration, q("correctResponse"))
    for marker in key.correct:
        etree.SubElement(correct, q("value")).text = identifier("C-", marker)
    if auto_type == "multiple" and key.scoring == "net-correct":
        mapping = etree.SubElement(declaration, q("mapping"), lowerBound="0", upperBound="1", defaultValue="0")
        for marker, fraction in choice_fractions(key, export.markers(question, "options")).items():
            etree.SubElement(mapping, q("mapEntry"), mapKey=identifier("C-", marker), mappedValue=share_text(fraction))
    return declaration


def share_text(fraction: float) -> str:
    """A share of the mark with seven decimals, away from zero: six shares of 1/6 add up to the whole mark (the
    mapping's upper bound caps the sum), where their doubles gave 0.9999999999999999, partly right."""
    return number_text(math.copysign(math.ceil(round(abs(fraction) * 1e7, 6)) / 1e7, fraction))


def choice_interaction(export: ModuleExport, question: Question, auto_type: str) -> etree.Element:
    markers = export.markers(question, "options")
    interaction = etree.Element(q("choiceInteraction"), responseIdentifier="RESPONSE",
                                shuffle="true" if question.shuffle else "false",
                                maxChoices="1" if auto_type == "single" else str(len(markers)))
    for marker in markers:
        choice = content("simpleChoice", export.text.tree(entry_markdown(export, question, "options", marker)))
        choice.set("identifier", identifier("C-", marker))
        interaction.append(choice)
    return interaction


def choice_scoring(auto_type: str, key) -> etree.Element:
    if auto_type == "multiple" and key.scoring == "net-correct":
        condition = etree.Element(q("responseCondition"))
        branch = etree.SubElement(condition, q("responseIf"))
        etree.SubElement(etree.SubElement(branch, q("not")), q("isNull")).append(
            etree.Element(q("variable"), identifier="RESPONSE"))
        mapped = etree.Element(q("mapResponse"), identifier="RESPONSE")
        set_score(branch, mapped)
        return condition
    return all_right([match_rule("RESPONSE")])


def entry_markdown(export: ModuleExport, question: Question, part: str, key: str) -> str:
    return next(entry for entry in question.lists[part] if entry.key == key).text[export.lang].markdown


# -- numeric -----------------------------------------------------------------------------------------------------


def field_response(field_id: str) -> str:
    return identifier("RESPONSE-", field_id)


def single_response(response: str, base_type: str, correct: str) -> etree.Element:
    """A response of one value, with the right one."""
    declaration = etree.Element(q("responseDeclaration"), identifier=response, cardinality="single",
                                baseType=base_type)
    etree.SubElement(etree.SubElement(declaration, q("correctResponse")), q("value")).text = correct
    return declaration


def numeric_declarations(key) -> list[etree.Element]:
    return [single_response(field_response(field.id), "float", number_text(field.value))
            for field in numeric_fields(key)]


def numeric_interactions(export: ModuleExport, question: Question) -> etree.Element:
    """Each field's label, its box (inline, so inside a paragraph), its unit."""
    fields = etree.Element(q("div"))
    for field in numeric_fields(auto_part(question)[1]):
        line = content("p", export.text.tree(entry_markdown(export, question, "fields", field.id)))
        box = etree.SubElement(line, q("textEntryInteraction"), responseIdentifier=field_response(field.id),
                               expectedLength="12")
        box.tail = f" {export.unit(field)}" if export.unit(field) else None
        if len(line) > 1:
            line[-2].tail = (line[-2].tail or "") + ": "
        else:
            line.text = (line.text or "") + ": "
        fields.append(line)
    return fields


def tolerance_rule(field: NumericField) -> etree.Element:
    """A number right within its absolute tolerance, written as its bounds: lower <= answer <= upper is the rule
    QTI's `equal` with toleranceMode="absolute" states (both bounds included), and the one form Canvas reads as a
    range (numeric_interaction.rb, get_answer_values: `gte` and `lte` with a baseValue each; it ignores `equal`'s
    tolerance and took the value as exact). Without a tolerance, `equal` to the value itself, Canvas's exact answer.
    The bounds are the decimal sums of the value's and tolerance's shortest digits, as the author reads them."""
    response = field_response(field.id)
    tolerance = absolute_tolerance(field)
    if not tolerance:
        rule = etree.Element(q("equal"), toleranceMode="exact")
        etree.SubElement(rule, q("variable"), identifier=response)
        rule.append(float_value(number_text(field.value)))
        return rule
    value, allowed = Decimal(number_text(field.value)), Decimal(number_text(tolerance))
    rule = etree.Element(q("and"))
    for operator, bound in (("gte", value - allowed), ("lte", value + allowed)):
        comparison = etree.SubElement(rule, q(operator))
        etree.SubElement(comparison, q("variable"), identifier=response)
        comparison.append(float_value(decimal_text(bound)))
    return rule


def decimal_text(number: Decimal) -> str:
    """A bound as plain decimal digits, without trailing zeros (importers read plain decimals)."""
    text = format(number, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


# -- matching ----------------------------------------------------------------------------------------------------


def matching_declaration(key) -> etree.Element:
    declaration = etree.Element(q("responseDeclaration"), identifier="RESPONSE", cardinality="multiple",
                                baseType="directedPair")
    correct = etree.SubElement(declaration, q("correctResponse"))
    for item, option in matching_pairs(key).items():
        etree.SubElement(correct, q("value")).text = f"{identifier('I-', item)} {identifier('O-', option)}"
    return declaration


def match_interaction(export: ModuleExport, question: Question) -> etree.Element:
    items, options = export.markers(question, "items"), export.markers(question, "options")
    interaction = etree.Element(q("matchInteraction"), responseIdentifier="RESPONSE",
                                shuffle="true" if question.shuffle else "false",
                                maxAssociations=str(len(items)))
    for part, prefix, match_max in (("items", "I-", "1"), ("options", "O-", str(len(items)))):
        match_set = etree.SubElement(interaction, q("simpleMatchSet"))
        for marker in items if part == "items" else options:
            choice = content("simpleAssociableChoice", export.text.tree(entry_markdown(export, question, part,
                                                                                       marker)))
            choice.set("identifier", identifier(prefix, marker))
            choice.set("matchMax", match_max)
            if question.shuffle and part == "items":
                choice.set("fixed", "true")  # as on the site: only the right-hand column is shuffled
            match_set.append(choice)
    return interaction


# -- ordering ----------------------------------------------------------------------------------------------------


def ordering_declaration(key) -> etree.Element:
    declaration = etree.Element(q("responseDeclaration"), identifier="RESPONSE", cardinality="ordered",
                                baseType="identifier")
    correct = etree.SubElement(declaration, q("correctResponse"))
    for item in key.order:
        etree.SubElement(correct, q("value")).text = identifier("I-", item)
    return declaration


def order_interaction(export: ModuleExport, question: Question) -> etree.Element:
    interaction = etree.Element(q("orderInteraction"), responseIdentifier="RESPONSE", shuffle="true")
    for marker in export.markers(question, "items"):
        choice = content("simpleChoice", export.text.tree(entry_markdown(export, question, "items", marker)))
        choice.set("identifier", identifier("I-", marker))
        interaction.append(choice)
    return interaction


def parsons_interaction(key) -> etree.Element:
    """A Parsons problem's lines as an orderInteraction's choices, each a line of code: with the indentation the
    site shows when the learner does not set it, without any when they do (QTI asks the order alone)."""
    interaction = etree.Element(q("orderInteraction"), responseIdentifier="RESPONSE", shuffle="true")
    for line in key.lines:
        choice = etree.SubElement(interaction, q("simpleChoice"), identifier=identifier("I-", line.key))
        etree.SubElement(choice, q("pre")).text = line.text if key.indent else key.unit * line.depth + line.text
    return interaction


# -- blanks ------------------------------------------------------------------------------------------------------


def word_choice(gap: ChoiceGap, place: int) -> str:
    return identifier("W-", f"{gap.id}-{place}")


def gap_declarations(key: BlanksKey) -> list[etree.Element]:
    """A number gap's response is a float, as a numeric field's; a word gap's, the identifier of its right word."""
    return [single_response(field_response(gap.id), "identifier", word_choice(gap, gap.answer))
            if isinstance(gap, ChoiceGap) else single_response(field_response(gap.id), "float", number_text(gap.value))
            for gap in key.gaps]


def gap_rule(gap: Gap) -> etree.Element:
    return match_rule(field_response(gap.id)) if isinstance(gap, ChoiceGap) else tolerance_rule(gap)


def put_gaps(export: ModuleExport, html_root: etree.Element, key: BlanksKey) -> None:
    """Each gap's place in the text (the page's empty <span class="zq-gap">) becomes its interaction, inline where
    it stands: a box for a number (its unit after it), or a list of the gap's words in this language."""
    gaps = {gap.id: gap for gap in key.gaps}
    for parent in list(html_root.iter()):
        for index, element in enumerate(list(parent)):
            gap = gaps.get(element.get("data-zq-gap", "")) if element.tag == "span" else None
            if gap is None:
                continue
            if isinstance(gap, ChoiceGap):
                interaction = etree.Element(q("inlineChoiceInteraction"), responseIdentifier=field_response(gap.id),
                                            shuffle="false")
                for place, word in enumerate(gap.options[export.lang], start=1):
                    etree.SubElement(interaction, q("inlineChoice"), identifier=word_choice(gap, place)).text = word
                tail = element.tail
            else:
                interaction = etree.Element(q("textEntryInteraction"), responseIdentifier=field_response(gap.id),
                                            expectedLength="12")
                unit = export.unit(gap)
                tail = f" {unit}{element.tail or ''}" if unit else element.tail
            interaction.tail = tail
            parent[index] = interaction


def refuses(question: Question) -> str | None:
    if question.auto_type == "parsons" and question.auto_key.tests:
        return ("a Parsons problem with tests is graded by running its program, which no LMS format can do (the "
                "tests run only on the site): take the page itself as a SCORM package")
    if question.auto_type == "parsons" and question.auto_key.distractors:
        return ("QTI's orderInteraction orders every line it shows, so lines that belong nowhere cannot be left out: "
                "take the page itself as a SCORM package")
    return None


def notes(export: ModuleExport, question: Question) -> list[str]:
    """What QTI carries with less than the site: hints, an ordering question's or a Parsons problem's partial
    credit, and a Parsons problem's indentation."""
    auto_type, key = auto_part(question)
    lines = no_hints_note(question, "QTI")
    if auto_type in ("ordering", "parsons") and key.scoring != "exact":
        lines.append(f"{question.id}: QTI grades the order all or nothing; the site's partial credit "
                     f"('scoring: {key.scoring}') stays on the site")
    if auto_type == "parsons" and key.indent:
        lines.append(f"{question.id}: QTI asks the order alone: its lines go without indentation, which the site "
                     "asks the learner to set as well")
    return lines + canvas_notes(question)


def canvas_notes(question: Question) -> list[str]:
    """What Canvas, which the guide names for QTI, takes otherwise than the site: the converter canvas_route
    chooses keeps the most Canvas's question types can hold, and each line says what is still lost."""
    auto_type, key = auto_part(question)
    lines = [f"{question.id}: {line}" for line in choice_lines(question) + CANVAS_LOSSES.get(auto_type, [])]
    if auto_type == "numeric" and len(numeric_fields(key)) > 1:
        lines.append(f"{question.id}: Canvas's numerical question holds one number: its {len(numeric_fields(key))} "
                     "boxes go into Canvas as a fill-in-the-blanks question, each right only when typed exactly as "
                     "the number in the file, without the tolerance")
    if auto_type == "blanks" and not all(isinstance(gap, ChoiceGap) for gap in key.gaps):
        lines.append(f"{question.id}: {number_gaps_line(key)}")
    if auto_type == "parsons" and not key.indent and any(line.depth for line in key.lines):
        lines.append(f"{question.id}: Canvas shows each line without the indentation the site shows it with")
    if question.type == "mixed":
        lines.append(f"{question.id}: Canvas takes one answer a question: it keeps the checked part and leaves out "
                     "the explanation box (its label stays in the text); ask for the explanation in an essay "
                     "question of its own")
    return lines


# What Canvas grades otherwise, by the type Canvas takes a question as (its quiz_question models grade a matching
# question, and so an order, by the share of answers right).
CANVAS_LOSSES = {
    "matching": ["Canvas gives a share of the mark for each item matched right; the site and QTI give the mark only "
                 "when every item is"],
    "ordering": ["Canvas takes the order as a matching question, each position (1, 2 …) matched with an entry "
                 "from a list, and gives a share of the mark for each position right; QTI gives the mark only for "
                 "the whole order"],
}
CANVAS_LOSSES["parsons"] = CANVAS_LOSSES["ordering"]


def choice_lines(question: Question) -> list[str]:
    """Canvas makes a choice question of several right options a multiple-answers one, which gives a share for
    each right option ticked and takes one back for each wrong one: the site's net-correct, not all-or-nothing.
    One right option makes a multiple-choice one, whose round buttons let a student pick a single option."""
    concrete = [variant.auto_key for variant in question.variant_questions if variant.auto_type == "multiple"]
    lines = []
    if any(key.scoring == "all-or-nothing" and len(key.correct) > 1 for key in concrete):
        lines.append("Canvas gives a share of the mark for each right option ticked and takes one back for each "
                     "wrong one (it has no all-or-nothing); the site gives the mark only when exactly the right "
                     "options are")
    if any(len(key.correct) == 1 for key in concrete):
        lines.append("Canvas makes a question with one right option a multiple-choice one, whose round buttons let "
                     "a student pick a single option and so tell them only one is right")
    return lines


def number_gaps_line(key: BlanksKey) -> str:
    """Canvas's fill-in-the-blanks compares text (process_text_entry takes each correct value as it is written);
    its dropdowns are a question type of their own, so words and numbers in one text cannot both stay."""
    line = ("Canvas has no gap that takes a number with a tolerance: its gaps go into Canvas as a fill-in-the-blanks "
            "question, each number right only when typed exactly as in the file")
    if any(isinstance(gap, ChoiceGap) for gap in key.gaps):
        line += ("; its word gaps lose their lists of words and expect the code of the right one (W-…): set them "
                 "again in Canvas")
    return line


# -- content -----------------------------------------------------------------------------------------------------


def content(tag: str, html_root: etree.Element) -> etree.Element:
    """An HTML tree (under a root <div>) as the content of a QTI element: the XHTML subset QTI allows, in its
    namespace; other elements give their content to their parent. A lone paragraph gives its inline content."""
    element = etree.Element(q(tag))
    source = html_root
    if tag != "div" and len(source) == 1 and source[0].tag == "p" and not (source.text or "").strip() and not (
            source[0].tail or "").strip():
        source = source[0]
    element.text = source.text
    for child in source:
        append_converted(element, child)
    return element


def append_converted(parent: etree.Element, node: etree.Element) -> None:
    if node.tag in GAP_INTERACTIONS:
        # Put where the page had a gap (put_gaps): QTI's already.
        parent.append(node)
        return
    tag = RENAMED.get(node.tag, node.tag)
    if tag in DROPPED:
        append_text(parent, node.tail)
        return
    if tag not in XHTML:
        # Unwrapped: its text and children go to the parent, in place.
        append_text(parent, node.text)
        for child in node:
            append_converted(parent, child)
        append_text(parent, node.tail)
        return
    element = etree.SubElement(parent, q(tag), {name: value for name, value in node.attrib.items()
                                                if name in XHTML[tag] + COMMON_ATTRIBUTES})
    element.text = node.text
    element.tail = node.tail
    for child in node:
        append_converted(element, child)


def append_text(parent: etree.Element, text: str | None) -> None:
    if not text:
        return
    if len(parent):
        parent[-1].tail = (parent[-1].tail or "") + text
    else:
        parent.text = (parent.text or "") + text
