"""What the export tests share: running `zadachnik export` on a course, and reading its files back as Moodle's
GIFT importer and the QTI 2.1 information model read them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from zadachnik.cli import main

from support.sites import ROOT

SOURCES = {
    "sample": (ROOT / "exercises", ["ru", "en"]),
    "fixture": (ROOT / "tests" / "fixtures" / "site" / "exercises", ["ru", "en"]),
    "signs": (ROOT / "tests" / "fixtures" / "export" / "exercises", ["en"]),
}
QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"


def run_export(tmp_path: Path, fmt: str, lang: str, source: str, capsys: pytest.CaptureFixture[str],
               *extra: str) -> tuple[int, str, str, Path]:
    exercises, languages = SOURCES[source]
    out = tmp_path / f"{source}-{fmt}-{lang}"
    status = main(["export", "--format", fmt, "--language", lang, "--languages", ",".join(languages),
                   "--out", str(out), str(exercises), *extra])
    captured = capsys.readouterr()
    return status, captured.out, captured.err, out


def text_of(element: etree.Element | None, *path: str) -> str:
    """getpath(…, '#', 'text', 0, '#'): the <text> under the element, trimmed as Moodle trims it."""
    for name in path:
        assert element is not None
        element = element.find(name)
    assert element is not None, f"no {'/'.join(path)}"
    text = element.find("text")
    assert text is not None, f"no <text> in {'/'.join(path) or element.tag}"
    return (text.text or "").strip()


CLOZE_NUMERICAL = re.compile(r"\{(\d*):(?:NUMERICAL|NM):=([^:}]+):([^}]+)\}")


@dataclass
class GiftQuestion:
    name: str
    qtype: str
    text: str
    general_feedback: str
    # multichoice: (fraction, text); numerical: (answer, tolerance); match: (item, option).
    answers: list[tuple[object, object]] = field(default_factory=list)
    single: bool = True
    # The category the import puts it in: the last `$CATEGORY:` line before it.
    category: str = ""


ESCAPES = {"\\:": "&&058;", "\\#": "&&035;", "\\=": "&&061;", "\\{": "&&123;", "\\}": "&&125;", "\\~": "&&126;",
           "\\n": "&&010"}
WEIGHT = re.compile(r"^%-*([0-9]{1,2})\.?([0-9]*)%")


def gift_pre(text: str) -> str:
    text = text.replace("\\\\", "&&092;")
    for escaped, placeholder in ESCAPES.items():
        text = text.replace(escaped, placeholder)
    return text.replace("&&092;", "\\")


def gift_post(text: str) -> str:
    for escaped, placeholder in ESCAPES.items():
        text = text.replace(placeholder, "\n" if escaped == "\\n" else escaped[1])
    return text


def gift_text(text: str) -> str:
    """parse_text_with_format: an optional [format] prefix, then the text unescaped and trimmed."""
    if text.startswith("["):
        assert text.startswith("[html]"), text[:20]
        text = text[len("[html]"):]
    return gift_post(text).strip()


def gift_weight(answer: str) -> tuple[float, str]:
    """answerweightparser: `%50%` → 0.5, the rest of the answer after it."""
    end = answer.index("%", 1)
    return float(answer[1:end]) / 100, answer[end + 1:]


# What PHP's trim() takes off a line.
PHP_SPACE = " \t\n\r\0\x0b"


def gift_paragraphs(source: str) -> list[list[str]]:
    """qformat_default::readquestions: the file's lines (PHP's file() breaks at \\n only), each trimmed; a line
    PHP calls empty ('' or '0') ends a question."""
    paragraphs: list[list[str]] = [[]]
    for line in source.split("\n"):
        line = line.strip(PHP_SPACE)
        if line in ("", "0"):
            paragraphs.append([])
        else:
            paragraphs[-1].append(line)
    return [paragraph for paragraph in paragraphs if paragraph]


def parse_gift(source: str) -> tuple[str, list[GiftQuestion]]:
    """Moodle's qformat_gift::readquestion, for the types the export writes."""
    category, questions = "", []
    for paragraph in gift_paragraphs(source):
        lines = [" " if line.startswith("//") else line for line in paragraph]
        text = gift_pre("\n".join(lines).strip(PHP_SPACE))
        if text.startswith("$CATEGORY:"):
            # The path as Moodle keeps it: escapedchar_pre's work, and no escapedchar_post.
            category = text[len("$CATEGORY:"):].strip(PHP_SPACE)
            continue
        assert text.startswith("::"), text[:40]
        text = text[2:]
        end = text.index("::")
        name, text = gift_post(text[:end]), text[end + 2:].strip()
        start, finish = text.index("{"), text.index("}")
        assert finish == len(text) - 1, f"{name}: text after the answers, or an unescaped brace"
        answer_text = text[start + 1:finish].strip()
        question_text = text[:start]
        general = ""
        if "####" in answer_text:
            separator = answer_text.rindex("####")
            general, answer_text = answer_text[separator + 4:], answer_text[:separator].strip()
        question = GiftQuestion(name, "", gift_text(question_text), gift_text(general) if general else "",
                                category=category)
        if answer_text == "":
            question.qtype = "essay"
        elif answer_text.startswith("#"):
            question.qtype = "numerical"
            for answer in [part.strip() for part in answer_text[1:].split("=") if part.strip()]:
                value, _, tolerance = answer.partition(":")
                question.answers.append((float(value), float(tolerance or 0)))
        elif "~" in answer_text:
            question.qtype = "multichoice"
            question.single = "=" in answer_text
            for answer in [part.strip() for part in answer_text.replace("=", "~=").split("~") if part.strip()]:
                if answer.startswith("="):
                    weight, answer = 1.0, answer[1:]
                elif WEIGHT.match(answer):
                    weight, answer = gift_weight(answer)
                else:
                    weight = 0.0
                question.answers.append((weight, gift_text(answer.split("#", 1)[0].strip())))
        elif "=" in answer_text and "->" in answer_text:
            question.qtype = "match"
            for answer in [part.strip() for part in answer_text.split("=") if part.strip()]:
                marker = answer.index("->")
                question.answers.append((gift_text(answer[:marker]), gift_post(answer[marker + 2:]).strip()))
        else:
            pytest.fail(f"{name}: a GIFT type the export does not write: {answer_text[:40]}")
        questions.append(question)
    return category, questions


def qti_value(element: etree.Element | None) -> list[str]:
    return [value.text for value in element.findall(f"{QTI}correctResponse/{QTI}value")] if element is not None else []


def qti_score(item: etree.Element, responses: dict[str, object]) -> tuple[float, float]:
    """An item's SCORE and MAXSCORE for the responses given (identifiers, or floats for boxes), its
    responseProcessing run as the QTI 2.1 information model runs it, for the rules the export writes."""
    outcomes = {declaration.get("identifier"): float(declaration.findtext(f"{QTI}defaultValue/{QTI}value") or 0)
                for declaration in item.findall(f"{QTI}outcomeDeclaration") if declaration.get("baseType") == "float"}
    correct = {declaration.get("identifier"): declaration.findtext(f"{QTI}correctResponse/{QTI}value")
               for declaration in item.findall(f"{QTI}responseDeclaration")}

    def value(expression: etree.Element) -> object:
        tag = expression.tag.removeprefix(QTI)
        children = list(expression)
        if tag == "baseValue":
            return float(expression.text) if expression.get("baseType") == "float" else expression.text
        if tag == "variable":
            name = expression.get("identifier")
            return outcomes[name] if name in outcomes else responses.get(name)
        if tag == "correct":
            return correct[expression.get("identifier")]
        if tag == "sum":
            return sum(value(child) for child in children)
        if tag == "and":
            return all(value(child) for child in children)
        if tag in ("gt", "gte", "lte"):
            given, bound = (value(child) for child in children)
            if given is None:
                return False
            return {"gt": given > bound, "gte": given >= bound, "lte": given <= bound}[tag]
        if tag == "match":
            given, right = (value(child) for child in children)
            return given is not None and given == right
        if tag == "equal":
            given, right = (value(child) for child in children)
            tolerance = float(expression.get("tolerance", 0)) if expression.get("toleranceMode") == "absolute" else 0
            return given is not None and abs(float(given) - float(right)) <= tolerance
        raise AssertionError(f"an expression the export does not write: {tag}")

    def run(rules: list[etree.Element]) -> None:
        for rule in rules:
            tag = rule.tag.removeprefix(QTI)
            if tag == "setOutcomeValue":
                if rule.get("identifier") in outcomes:
                    outcomes[rule.get("identifier")] = value(rule[0])
            elif tag == "responseCondition":
                for branch in rule:
                    test = branch.tag.removeprefix(QTI) == "responseElse" or value(branch[0])
                    if test:
                        run(list(branch) if branch.tag.removeprefix(QTI) == "responseElse" else list(branch)[1:])
                        break
            else:
                raise AssertionError(f"a rule the export does not write: {tag}")

    run(list(item.find(f"{QTI}responseProcessing")))
    return outcomes["SCORE"], outcomes["MAXSCORE"]


def qti_bounds(item: etree.Element) -> dict[str, tuple[float, float]]:
    """Each number response's accepted interval, as the export writes it: `equal` to a value (exact), or `gte` and
    `lte` bounds (qti.tolerance_rule)."""
    bounds: dict[str, list[float]] = {}
    for rule in item.iter():
        tag = rule.tag.removeprefix(QTI)
        if tag in ("equal", "gte", "lte"):
            name = rule.find(f"{QTI}variable").get("identifier")
            number = float(rule.find(f"{QTI}baseValue").text)
            assert tag != "equal" or rule.get("toleranceMode") == "exact"
            bounds.setdefault(name, []).append(number)
    return {name: (min(numbers), max(numbers)) for name, numbers in bounds.items()}
