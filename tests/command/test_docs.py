"""What the guides and the README say of the repository and of the product's messages stays true: a path they
name exists, and a message they quote is the message an author gets (the guide audit found a deleted file named
and an out-of-date list of question types quoted)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.sites import ROOT
from support.sources import EN, EN_NUMERIC, EN_SINGLE, RU, RU_NUMERIC, block, one_error

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "en").glob("*.md"))]
GUIDES = [ROOT / "docs" / "authoring.md", ROOT / "docs" / "en" / "authoring.md"]
REPOSITORY_PATH = re.compile(r"(?<![\w/.-])((?:plugins/zadachnik|scripts|tests)/[\w./-]*[\w/])")


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_repository_path_a_document_names_exists(doc: Path) -> None:
    named = set(REPOSITORY_PATH.findall(doc.read_text(encoding="utf-8")))
    assert not sorted(path for path in named if not (ROOT / path).exists())


def quoted(guide: Path, start: str) -> str:
    """The message a guide quotes in backquotes from `start` on, its line breaks undone."""
    text = " ".join(guide.read_text(encoding="utf-8").split())
    found = re.search(rf"`({re.escape(start)}[^`]*)`", text)
    assert found, f"{guide.name} quotes no message starting {start!r}"
    return found[1]


def said(error) -> str:
    """An error as the author reads it, without its place."""
    return str(error).split(": ", 1)[1]


def agrees(quote: str, message: str) -> bool:
    """Whether a quote is the message, but for what it leaves out where it writes '…'."""
    position = 0
    for piece in (piece.strip() for piece in quote.split("…")):
        found = message.find(piece, position)
        if found < 0:
            return False
        position = found + len(piece)
    return quote.endswith("…") or message.endswith(quote.split("…")[-1].strip())


MODULE_WITHOUT_EN = "number: 1\ntitle:\n  ru: Модуль\n"
NO_TESTS = "type: code\nsolution: |\n  def f(x):\n      return 2 * x\n"
QUOTED_MESSAGES = {
    "unknown question type 'singel'": {"quiz": block(yaml="type: singel\nanswer: B")},
    "'title' has no text in en": {"quiz": block(), "module": MODULE_WITHOUT_EN},
    "this question has no 'solution:' part": {"quiz": block(en=EN_SINGLE + "\n\nsolution:\nIt is 4.")},
    "question Q01 has no 'en' text": {"quiz": block(ident="Q01", en=None)},
    "a code exercise needs hidden tests": {"quiz": block(yaml=NO_TESTS, ru=RU, en=EN)},
    "a numeric question has no options to shuffle": {
        "quiz": block(yaml="type: numeric\nshuffle: true\nfields:\n  x: {answer: 1}", ru=RU_NUMERIC, en=EN_NUMERIC)},
    "YAML anchors (&a) are not allowed": {"quiz": block(yaml="type: single\nanswer: &a B\nscoring: *a")},
    "the section title 'Método: Newton' holds ': '": {"quiz": "/// section | 1.1\nMétodo: Newton\n///\n\n" + block()},
    "the key 'answer' is given twice": {"quiz": block(yaml="type: single\nanswer: B\nanswer: C")},
    "question Q01 has no type": {"quiz": block(ident="Q01", yaml="answer: B")},
    "single choice has exactly one correct option, not 2": {"quiz": block(yaml="type: single\nanswer: [A, B]")},
    "unknown key 'rtoll' in field 'gib'": {"quiz": block(
        yaml="type: numeric\nfields:\n  gib: {answer: 1, rtoll: 0.1}",
        ru="Сколько?\n\nfields:\n- gib: ГиБ\n\nexplanation:\nТак.",
        en="How many?\n\nfields:\n- gib: GiB\n\nexplanation:\nSo.")},
    "the notebook '.ipynb_checkpoints/nb-checkpoint.ipynb' is in": {"exercises": block(
        kind="exercise", ident="E1",
        yaml="notebooks:\n  - file: .ipynb_checkpoints/nb-checkpoint.ipynb\n    section: {ru: Начало, en: Start}",
        ru="Посчитайте.\n\nsolution:\nТак.", en="Compute.\n\nsolution:\nSo.")},
    "this exercise has a 'criteria:' part": {"exercises": block(
        kind="exercise", ident="E1", yaml="",
        ru="Посчитайте.\n\nsolution:\nТак.\n\ncriteria:\nРаботает.", en="Compute.\n\nsolution:\nSo.")},
}


@pytest.mark.parametrize("guide", GUIDES, ids=lambda path: path.relative_to(ROOT).as_posix())
@pytest.mark.parametrize("start", QUOTED_MESSAGES)
def test_a_message_the_guides_quote_is_the_one_an_author_gets(tmp_path: Path, guide: Path, start: str) -> None:
    error = one_error(tmp_path, **QUOTED_MESSAGES[start])
    quote = quoted(guide, start)
    # A guide may quote the message alone and say what to do in its own words.
    assert agrees(quote, said(error)) or quote == error.message, \
        f"{guide.name} quotes\n  {quote}\nThe author gets\n  {said(error)}"
