"""Question types: each a small declarative class that reads its answer key and describes it to the browser.

A type names the YAML keys it accepts, the list parts its text needs in every language (options, items,
fields), the template that renders it and the browser module that grades it. Adding a type means one module
here, one template, one JS module and their tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from zadachnik.core.text import Localized


class Invalid(ValueError):
    """A problem in an answer key, with the YAML key path it is about (for the line number)."""

    def __init__(self, message: str, path: tuple[str, ...] = (), hint: str = "", offset: int = 0):
        super().__init__(message)
        self.path = path
        self.hint = hint
        # Lines below the key's own: a line inside a block of code (`lines: |` is at offset 0, its first line 1).
        self.offset = offset


def python_syntax_error(error: SyntaxError, path: tuple[str, ...], code: str) -> Invalid:
    """A syntax error in the Python code under a key, at the code's own line of the file, so that an editor's "go
    to file:line" lands on it. Code of several lines is a block (`check: |`), whose first line is below the key."""
    line = error.lineno or 1
    return Invalid(f"Python syntax error in '{path[-1]}' (its line {line}): {error.msg}", path,
                   offset=line if "\n" in code else 0)


@dataclass
class Entry:
    """One option, item or field label, in every language."""

    key: str
    text: Localized


ListParts = dict[str, list[Entry]]


class QuestionType:
    name: ClassVar[str]
    keys: ClassVar[tuple[str, ...]] = ()
    list_parts: ClassVar[tuple[str, ...]] = ()
    # Counted in "Checked k / n": graded by the page, not by the learner.
    auto: ClassVar[bool] = True
    # Graded by Python in the browser's worker (code exercises); other auto types may opt in with `check:`.
    python: ClassVar[bool] = False
    # An author's `check:` may replace the type's grading (with `wrong:` answers it must reject).
    takes_checker: ClassVar[bool] = True
    template: ClassVar[str]
    # The browser's module for it (runtime/assets/js/types/<name>.js), when not named as the type is.
    browser_module: ClassVar[str] = ""
    # Sections of the page words (rendering/words/<lang>.yml) its page needs besides "runtime".
    word_sections: ClassVar[tuple[str, ...]] = ()

    def allowed_keys(self, config: dict[str, Any]) -> tuple[str, ...]:
        return self.keys

    def runs_python(self, key: Any) -> bool:
        """Graded by Python in the browser's worker with this key: a code exercise always, a Parsons problem when
        it has tests."""
        return self.python

    def parts_for(self, config: dict[str, Any]) -> tuple[str, ...]:
        """The list parts (options, items, fields) every language must give."""
        return self.list_parts

    def build(self, config: dict[str, Any], parts: ListParts, languages: tuple[str, ...] = ()) -> Any:
        """The answer key; raises Invalid."""
        raise NotImplementedError

    def spec(self, key: Any) -> dict[str, Any]:
        """What the browser needs to grade the question."""
        raise NotImplementedError

    def grade(self, spec: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        """The reference verdict for a learner's answer; the browser's JS module follows the same rules."""
        raise NotImplementedError

    def marked_words(self, key: Any) -> dict[str, Any]:
        """Words an answer names by their place, beside the options and items (which every type's revision
        holds): the key's revision holds them too, since with the words reordered a saved place names another."""
        return {}

    # What of the browser's spec only shows and grades nothing (a code exercise's starter and solution).
    shown_only: ClassVar[tuple[str, ...]] = ()

    def graded(self, spec: dict[str, Any]) -> dict[str, Any]:
        """What of the browser's spec a verdict stands on, which the key's revision digests: all of it but what
        only shows, and its tests' messages (a reworded message or a better reference solution must not withdraw
        learners' verdicts)."""
        kept = {name: value for name, value in spec.items() if name not in self.shown_only}
        if isinstance(kept.get("tests"), list):
            kept["tests"] = [{name: value for name, value in test.items() if name != "message"}
                             for test in kept["tests"]]
        return kept

    def reference_answer(self, spec: dict[str, Any], show: Any) -> dict[str, Any]:
        """The answer the page reveals, as a learner would enter it (`show` formats a numeric field)."""
        raise NotImplementedError

    def author_answer(self, value: Any) -> dict[str, Any]:
        """An answer an author writes in YAML (a checker's `wrong:` list), as the page would collect it."""
        raise Invalid("this question type takes no 'wrong:' answers")


def marker_list(value: Any, what: str, path: tuple[str, ...], hint: str) -> list[str]:
    """The markers `value` names; `hint` says what to write instead ("write e.g. 'answer: B'")."""
    items = value if isinstance(value, list) else [value]
    if not items or any(isinstance(item, (dict, list)) or item is None for item in items):
        raise Invalid(f"{what} must name option markers", path, hint)
    return [str(item) for item in items]


def answer_example(entries: list[Entry], several: bool) -> str:
    """'answer: …' in the question's own markers, for hints: options numbered 1, 2, 3 were told to write B. The
    second option, or the first and the third ('answer: B', 'answer: [A, C]' when they are lettered)."""
    keys = [entry.key for entry in entries] or ["A", "B", "C"]
    if not several:
        return f"'answer: {keys[min(1, len(keys) - 1)]}'"
    return f"'answer: [{', '.join(dict.fromkeys([keys[0], keys[min(2, len(keys) - 1)]]))}]'"


def known_markers(names: list[str], entries: list[Entry], what: str, path: tuple[str, ...]) -> None:
    keys = [entry.key for entry in entries]
    for name in names:
        if name not in keys:
            several = [part.strip() for part in name.split(",")]
            hint = (f"several markers are a list: write [{', '.join(several)}]" if len(several) > 1
                    and all(part in keys for part in several) else f"use one of the markers {', '.join(keys)}")
            raise Invalid(f"{what} '{name}' does not exist", path, hint)


def registry() -> dict[str, QuestionType]:
    from zadachnik.qtypes.blanks import Blanks
    from zadachnik.qtypes.choice import MultipleChoice, SingleChoice
    from zadachnik.qtypes.code import Code
    from zadachnik.qtypes.formula import Formula
    from zadachnik.qtypes.matching import Matching
    from zadachnik.qtypes.mixed import Mixed
    from zadachnik.qtypes.numeric import Numeric
    from zadachnik.qtypes.open import Open
    from zadachnik.qtypes.ordering import Ordering
    from zadachnik.qtypes.parsons import Parsons

    types: list[QuestionType] = [SingleChoice(), MultipleChoice(), Numeric(), Formula(), Blanks(), Matching(),
                                 Ordering(), Parsons(), Open(), Mixed(), Code()]
    return {qtype.name: qtype for qtype in types}
