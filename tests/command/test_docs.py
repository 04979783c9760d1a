"""What the guides and the README say of the repository and of the product's messages stays true: a path they
name exists, and a message they quote is the message an author gets (the guide audit found a deleted file named
and an out-of-date list of question types quoted)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.sites import ROOT
from support.sources import block, one_error

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


@pytest.mark.parametrize("guide", GUIDES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_the_unknown_type_message_the_guides_quote_is_the_real_one(tmp_path: Path, guide: Path) -> None:
    error = one_error(tmp_path, quiz=block(yaml="type: singel\nanswer: B"))
    assert quoted(guide, "unknown question type 'singel'") == f"{error.message} ({error.hint})"
