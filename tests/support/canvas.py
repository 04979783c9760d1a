"""A QTI 2.1 package read as Canvas's importer reads it (instructure/canvas-lms,
gems/plugins/qti_exporter/lib/qti/): which of its converters takes an item, and what that converter keeps. No live
Canvas is at hand, so the tests check the package against these rules; each function names the Canvas code it
mirrors, and follows it only as far as the export's items need.

Nokogiri's CSS selectors without a prefix match elements of the document's default namespace (the manifest's:
IMS CP), which is how Canvas finds `interactionType` and `instructureMetadata` in a manifest."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as etree
import zipfile
from pathlib import Path

from support.exports import QTI

CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}"
# The namespaces assessment_item_converter.rb's get_interaction_type looks in, after the manifest's own
# (Qti::Converter's QTI_2_1_URL, QTI_2_0_URL, QTI_2_1_ITEM_URL, QTI_2_0_ITEM_URL).
INTERACTION_TYPE_NAMESPACES = ["http://www.imsglobal.org/xsd/imscp_v1p1", "http://www.imsglobal.org/xsd/imsqti_v2p1",
                               "http://www.imsglobal.org/xsd/imsqti_v2p0",
                               "http://www.imsglobal.org/xsd/imsqti_item_v2p1",
                               "http://www.imsglobal.org/xsd/imsqti_item_v2p0"]


def interaction_type(resource: etree.Element) -> str | None:
    """AssessmentItemConverter.get_interaction_type: the first interactionType of the first namespace that has one."""
    for namespace in INTERACTION_TYPE_NAMESPACES:
        found = resource.find(f".//{{{namespace}}}interactionType")
        if found is not None:
            return (found.text or "").strip()
    return None


def question_type_field(resource: etree.Element) -> str | None:
    """`instructureMetadata instructureField[name=question_type]`'s value, in the manifest's namespace."""
    for metadata in resource.iter(f"{CP}instructureMetadata"):
        for field in metadata.iter(f"{CP}instructureField"):
            if field.get("name") == "question_type":
                return field.get("value")
    return None


def guess(item: etree.Element) -> tuple[str | None, str | None]:
    """QuestionTypeEducatedGuesser.educatedly_guess_type, for an item whose manifest names no interaction."""
    def has(name: str) -> bool:
        return next(item.iter(f"{QTI}{name}"), None) is not None

    if has("choiceInteraction"):
        return "choiceInteraction", "matching" if len(list(item.iter(f"{QTI}choiceInteraction"))) > 1 else None
    for name, custom in (("associateInteraction", "matching"), ("extendedTextInteraction", None),
                         ("textEntryInteraction", "text_entry_interaction"), ("matchInteraction", "matching")):
        if has(name):
            return name, custom
    if has("inlineChoiceInteraction"):
        return "multiple_dropdowns_question", "inline_choice"
    return None, None


def route(resource: etree.Element, item: etree.Element) -> tuple[str, str | None]:
    """AssessmentItemConverter.create_instructure_question: the converter class that takes the item, and the
    custom type it is given."""
    kind = interaction_type(resource)
    kind = kind.lower() if kind else None
    custom = None
    if (question_type := question_type_field(resource)) is not None:
        question_type = question_type.lower()
        custom = question_type
        if question_type == "matching_question":
            kind, custom = "choiceinteraction", "canvas_matching"
        elif question_type == "matching":
            custom = "respondus_matching"
        elif re.search(r"fillInMultiple|fill_in_multiple_blanks_question|fill in the blanks", question_type, re.I):
            kind = "fill_in_multiple_blanks_question"
        elif question_type == "multiple_dropdowns_question":
            kind = "multiple_dropdowns_question"
    if kind is None:
        # The guesser's answer replaces both (`opts[:interaction_type], opts[:custom_type] = …`).
        kind, custom = guess(item)
    return converter(kind, custom), custom


def converter(kind: str | None, custom: str | None) -> str:
    """create_instructure_question's `case opts[:interaction_type]`: its regular expressions, unanchored."""
    if kind is None:
        return "AssessmentItemConverter"  # raises in parse_question_data: an "Error" question
    if re.search(r"choiceinteraction|multiple_choice_question|multiple_answers_question|true_false_question|"
                 r"stupid_likert_scale_question", kind, re.I):
        return "AssociateInteraction" if custom and re.search(r"^matching$|respondus_matching|canvas_matching",
                                                              custom) else "ChoiceInteraction"
    if re.search(r"associateinteraction|matching_question|matchinteraction", kind, re.I):
        return "AssociateInteraction"
    if re.search(r"extendedtextinteraction|extendedtextentryinteraction|textinteraction|essay_question|"
                 r"short_answer_question", kind, re.I):
        if custom and re.search(r"calculated", custom, re.I):
            return "CalculatedInteraction"
        if custom and re.search(r"numeric|numerical_question", custom):
            return "NumericInteraction"
        return "ExtendedTextInteraction"
    if re.search(r"orderinteraction|ordering_question", kind, re.I):
        return "OrderInteraction"
    if re.search(r"fill_in_multiple_blanks_question|multiple_dropdowns_question|textentryinteraction", kind, re.I):
        return "FillInTheBlank"
    return "AssessmentItemConverter"


def numeric_answer(item: etree.Element) -> tuple[str, float, float] | None:
    """NumericInteraction.get_answer_values: the first `responseCondition gte baseValue` and `… lte baseValue`
    make a range; else the first `responseCondition equal baseValue` an exact answer. (get_canvas_answers adds
    only answers written with Canvas's own customOperators, which the export does not write.)"""
    def first(tag: str) -> float | None:
        for condition in item.iter(f"{QTI}responseCondition"):
            for operator in condition.iter(f"{QTI}{tag}"):
                value = operator.find(f".//{QTI}baseValue")
                if value is not None:
                    return float(value.text)
        return None

    start, end = first("gte"), first("lte")
    if start is not None and end is not None:
        return "range_answer", start, end
    exact = first("equal")
    return ("exact_answer", exact, exact) if exact is not None else None


def feedback_kinds(item: etree.Element) -> list[str | None]:
    """AssessmentItemConverter.get_feedback: where each modalFeedback goes, by its identifier (None: dropped)."""
    kinds: list[str | None] = []
    for feedback in item.iter(f"{QTI}modalFeedback"):
        name = feedback.get("identifier", "")
        if re.search(r"wrong|incorrect|(_IC$)", name, re.I):
            kinds.append("incorrect_comments")
        elif re.search(r"correct|(_C$)", name, re.I):
            kinds.append("correct_comments")
        elif re.search(r"solution", name, re.I):
            kinds.append("example_solution")
        elif re.search(r"general_|_all", name, re.I):
            kinds.append("neutral_comments")
        else:
            kinds.append(None)
    return kinds


def choice_question_type(item: etree.Element) -> str:
    """ChoiceInteraction.set_question_type: the options correctResponse names are right (weight 100); one right
    option makes a multiple_choice_question (radio buttons), more a multiple_answers_question."""
    right = [value for correct in item.iter(f"{QTI}correctResponse") for value in correct.findall(f"{QTI}value")]
    return "multiple_choice_question" if len(right) == 1 else "multiple_answers_question"


def text_entry_answers(item: etree.Element) -> dict[str, list[str]]:
    """FillInTheBlank.process_text_entry: each response's correctResponse values, taken as the exact text."""
    return {declaration.get("identifier"): [value.text for value in declaration.iter(f"{QTI}value")]
            for declaration in item.iter(f"{QTI}responseDeclaration")
            if declaration.find(f"{QTI}correctResponse") is not None}


def text_only_questions(test: etree.Element) -> list[str]:
    """AssessmentTestConverter.process_section: a visible section with a title becomes a text-only question."""
    return [section.get("title") for section in test.iter(f"{QTI}assessmentSection")
            if re.search(r"true", section.get("visible", ""), re.I) and section.get("title")]


def order_answers(item: etree.Element) -> list[str]:
    """OrderInteraction.get_all_matches / get_correct_responses: a matching question whose answers are the
    positions 1, 2 …, each matched to the text of the line (stripped) correctResponse puts there."""
    texts = {choice.get("identifier"): "".join(choice.itertext()).strip()
             for interaction in item.iter(f"{QTI}orderInteraction") for choice in interaction}
    return [texts[value.text.strip()] for correct in item.iter(f"{QTI}correctResponse") for value in correct]


def canvas_package(package: Path) -> tuple[etree.Element, dict[str, tuple[etree.Element, etree.Element]]]:
    """Qti.convert_questions and convert_assessments: the test, and each item by its identifier with the manifest
    resource (`resource[type^=imsqti_item_xmlv2p]`) Canvas passes its converter as `manifest_node`."""
    with zipfile.ZipFile(package) as archive:
        manifest = etree.parse(io.BytesIO(archive.read("imsmanifest.xml"))).getroot()
        test, items = None, {}
        for resource in manifest.iter(f"{CP}resource"):
            root = etree.parse(io.BytesIO(archive.read(resource.get("href")))).getroot()
            if resource.get("type", "").startswith("imsqti_item_xmlv2p"):
                items[root.get("identifier")] = (resource, root)
            elif resource.get("type") == "imsqti_test_xmlv2p1":
                test = root
    assert test is not None
    return test, items
