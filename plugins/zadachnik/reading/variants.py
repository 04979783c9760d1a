"""Variants: a question whose figures the author's Python draws afresh for every variant.

`variants: p02` (or `variants: {from: p02, count: 10, invalid: error}`) names a function of the module's values
file, `def p02(rng): return {"N": 7e9, "B": 12}`. Variant k is drawn with `random.Random("P02/k")` (then k+count,
k+2·count … for a draw the author lets be skipped, or one that would show what an earlier variant shows), so every
build makes the same variants. Each variant is a concrete question: its text with the variant's figures put in
(`{{ N:.3g }}`, written per language as values are) and its numeric answers and tolerances computed from those
names (`answer: "N*B/1e9"`). The question itself stays variant 1: what the page shows without JavaScript, and
what print, the problem books and search see.
"""

from __future__ import annotations

import ast
import copy
import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zadachnik.core.arith import UnknownName, evaluate, free_names
from zadachnik.core.errors import SourceError
from zadachnik.core.text import Fragment, Localized
from zadachnik.qtypes import Entry, Invalid, ListParts, QuestionType
from zadachnik.qtypes.mixed import Mixed, MixedKey
from zadachnik.reading.values import PlaceholderError, shown_from, substitute

if TYPE_CHECKING:
    from zadachnik.reading.model import Question

DEFAULT_COUNT = 10
MAX_COUNT = 100
KEYS = ("from", "count", "invalid")
INVALID = ("error", "skip")
# Seeds tried for one variant when bad draws are skipped, or draws repeat an earlier variant: k, k+count, …,
# k+(SKIP_TRIES-1)·count.
SKIP_TRIES = 10
# Repeated variants a warning names one by one.
SHOWN_REPEATS = 8
# All the draws of one question, in one run of the values file.
VARIANTS_TIME_LIMIT = 60.0
# The numbers of a numeric field that may be arithmetic over the variant's names.
FIELD_NUMBERS = ("answer", "atol", "rtol")
# Graded by Python from hidden tests: their parameters are not the page's figures (not yet).
# What each type without variants is called in the message that says so.
NO_VARIANTS = {"code": "a code exercise", "formula": "a formula question", "blanks": "a question with blanks",
               "parsons": "a Parsons problem"}


@dataclass
class Variant:
    """One concrete version of a question: its figures, its text per language with them put in, its key."""

    # 1-based, as the page says it ("Variant 3 of 10").
    number: int
    seed: int
    # What the author's function returned for this seed (the module's values are not repeated here).
    values: dict[str, float]
    title: Localized
    body: Localized
    explanation: Localized
    lists: ListParts
    key: Any
    # The question's hints (if any), with the variant's figures.
    hints: list[Localized] = field(default_factory=list)


@dataclass
class Variants:
    """A question's `variants:`: the function that draws them, how many, what a bad draw does, and the variants
    made from it at build (filled in once the module's values file is known)."""

    function: str
    count: int = DEFAULT_COUNT
    # "error": a bad draw stops the build; "skip": it is left out and the next seed for that variant is tried.
    invalid: str = "error"
    # The line of `variants:` in the quiz file.
    line: int = 0
    # The question's YAML, from which each variant's key is built with its names; and the line of each of its keys.
    config: dict[str, Any] = field(default_factory=dict, repr=False)
    lines: dict[tuple[str, ...], int] = field(default_factory=dict, repr=False)
    items: list[Variant] = field(default_factory=list)
    # Variants that still repeat an earlier one after every seed tried, as the build's warning says it (a text:
    # modules are kept between builds, and the warning comes again with a kept one).
    warning: str = ""


def read_variants(value: Any, qtype_name: str) -> Variants:
    """What the author wrote under `variants:`; Invalid (with its key's path) says what to write instead."""
    if qtype_name in NO_VARIANTS:
        raise Invalid(f"{NO_VARIANTS[qtype_name]} cannot have variants yet", ("variants",),
                      "variants are for numeric, choice, matching, mixed and open questions: remove 'variants:'")
    if isinstance(value, str):
        value = {"from": value}
    if not isinstance(value, dict):
        raise Invalid("'variants' names the function that makes them", ("variants",),
                      "write 'variants: p02', or 'variants:' with 'from: p02', 'count: 10' and 'invalid: error'")
    for key in value:
        if key not in KEYS:
            close = difflib.get_close_matches(str(key), KEYS, n=1, cutoff=0.5)
            guess = f"did you mean '{close[0]}'? " if close else ""
            raise Invalid(f"unknown key '{key}' in 'variants'", ("variants", str(key)),
                          f"{guess}'variants:' takes {', '.join(KEYS)}")
    function = value.get("from")
    if not isinstance(function, str) or not function.isidentifier():
        raise Invalid("'from' names the function of the module's values file that makes the variants",
                      ("variants", "from") if "from" in value else ("variants",),
                      "write e.g. 'from: p02' for 'def p02(rng): return {...}'")
    count = value.get("count", DEFAULT_COUNT)
    if type(count) is not int or not 1 <= count <= MAX_COUNT:
        raise Invalid(f"'count' is how many variants the build makes, from 1 to {MAX_COUNT} (not {count!r})",
                      ("variants", "count"), f"write e.g. 'count: {DEFAULT_COUNT}'")
    invalid = value.get("invalid", "error")
    if invalid not in INVALID:
        raise Invalid(f"'invalid' is 'error' or 'skip' (not {invalid!r})", ("variants", "invalid"),
                      "'error' stops the build at a bad draw; 'skip' leaves it out and draws another")
    return Variants(function, count, invalid)


def provisional_key(qtype: QuestionType, config: dict[str, Any]) -> Any:
    """A question's key before its variants are made: none, but a mixed question's auto part (its type alone)."""
    return MixedKey(qtype.auto_type(config), None) if isinstance(qtype, Mixed) else None


def defined_names(node: ast.stmt) -> list[str]:
    """The names a statement of a values file defines at its top: a function, a name assigned (a lambda) or
    imported (a function of a helper module)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [target.id for target in node.targets if isinstance(target, ast.Name)]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    return []


class VariantProblem(ValueError):
    """A variant that cannot be made; `skippable` when it is a bad draw rather than a mistake in the source."""

    def __init__(self, message: str, line: int, hint: str = "", skippable: bool = False):
        super().__init__(message)
        self.line = line
        self.hint = hint
        self.skippable = skippable


@dataclass
class Expander:
    """Makes a module's variants: runs each question's function in the build's Python runner, and builds every
    variant it draws. Problems are SourceErrors of the quiz file (`shown` is its path as messages show it)."""

    values_file: Path | None
    module_values: dict[str, float]
    languages: list[str]
    shown: str
    # The module's folder: places in the author's code are shown from there (`variants.py:7`).
    folder: Path

    def expand(self, question: Question) -> SourceError | None:
        variants = question.variants
        assert variants is not None
        try:
            self.defined(question)
            variants.items = self.draw(question)
        except VariantProblem as problem:
            return SourceError(self.shown, problem.line, str(problem), problem.hint)
        variants.warning = self.repeats_warning(question)
        first = variants.items[0]
        question.title, question.body, question.explanation = first.title, first.body, first.explanation
        question.lists, question.key, question.hints = first.lists, first.key, first.hints
        return None

    def defined(self, question: Question) -> None:
        """The function is a function of the values file (read, not run: a did-you-mean needs its names)."""
        variants = question.variants
        assert variants is not None
        if self.values_file is None:
            raise VariantProblem(f"question {question.id} has variants, but its module has no values file",
                                 variants.line, f"add 'values: variants.py' to module.yml, and in that file "
                                 f"'def {variants.function}(rng): return {{...}}'")
        try:
            # Python runs a file that starts with a byte order mark (Notepad's), but ast.parse of its text refuses it.
            tree = ast.parse(self.values_file.read_text(encoding="utf-8-sig"))
        except (SyntaxError, ValueError, OSError):
            return  # the values file's own error is reported on module.yml already
        functions = list(dict.fromkeys(name for node in tree.body for name in defined_names(node)))
        if variants.function in functions:
            return
        candidates = [name for name in functions if name != "values"]
        close = difflib.get_close_matches(variants.function, candidates, n=1, cutoff=0.5)
        known = ", ".join(candidates[:12])
        hint = (f"did you mean '{close[0]}'?" if close else
                f"its functions are {known}" if known else f"define 'def {variants.function}(rng): return {{...}}'")
        raise VariantProblem(f"the values file {self.values_file.name} defines no function {variants.function}",
                             variants.line, hint)

    def draw(self, question: Question) -> list[Variant]:
        """Variant k of question P05 is drawn by `random.Random("P05/k")` (values_files.variant_seed: the question's
        id and a number, not the bare number k); a skipped draw is drawn again with "P05/k+count", "P05/k+2·count" …,
        and so is a variant that shows what an earlier one shows ("New variant" would change nothing), whatever
        `invalid` says."""
        from zadachnik.python.runner import run_isolated

        variants = question.variants
        assert variants is not None and self.values_file is not None
        made: dict[int, Variant] = {}
        last: dict[int, VariantProblem] = {}
        # A good draw that repeated an earlier variant: kept if no later seed draws better (the build warns).
        repeating: dict[int, Variant] = {}
        pending = list(range(1, variants.count + 1))
        tries = SKIP_TRIES
        for attempt in range(tries):
            seeds = [number + attempt * variants.count for number in pending]
            result = run_isolated("variants", {"path": str(self.values_file.resolve()), "function": variants.function,
                                      "seeds": seeds, "question": question.id}, VARIANTS_TIME_LIMIT)
            drawn = self.results(question, result, seeds)
            still = []
            for number, seed, outcome in zip(pending, seeds, drawn, strict=True):
                try:
                    if isinstance(outcome, VariantProblem):
                        raise outcome
                    made[number] = self.variant(question, number, seed, outcome)
                except VariantProblem as problem:
                    if variants.invalid != "skip" or not problem.skippable:
                        raise Expander.named(problem, question, number, seed) from None
                    last[number] = problem
                    still.append(number)
            if attempt < tries - 1:
                for number in repeated_variants(made):
                    repeating.setdefault(number, made.pop(number))
                    still.append(number)
            pending = sorted(still)
            if not pending:
                break
        for number in [number for number in pending if number in repeating]:
            made[number] = repeating[number]
            pending.remove(number)
        if pending:
            number = pending[0]
            tried = ", ".join(str(number + attempt * variants.count) for attempt in range(tries))
            problem = last[number]
            raise VariantProblem(
                f"variant {number} of {question.id}: {variants.function}() rejected seeds {tried} "
                f"(the last: {problem})", variants.line,
                "make fewer of its draws bad, or ask for fewer variants with 'count:'")
        return [made[number] for number in sorted(made)]

    def repeats_warning(self, question: Question) -> str:
        """The variants that repeat an earlier one with every seed tried, as a warning at `variants:`."""
        variants = question.variants
        assert variants is not None
        repeats = repeated_variants({item.number: item for item in variants.items})
        if not repeats:
            return ""
        pairs = ", ".join(f"{number} = {earlier}" for number, earlier in list(repeats.items())[:SHOWN_REPEATS])
        pairs += ", …" if len(repeats) > SHOWN_REPEATS else ""
        distinct = len(variants.items) - len(repeats)
        return str(SourceError(self.shown, variants.line,
                           f"{question.id}: {len(repeats)} of its {len(variants.items)} variants show what an earlier "
                           f"one shows ({pairs}), with every seed tried: 'New variant' would not change the question",
                           f"let {variants.function}() draw from more figures, or ask for fewer variants with "
                           f"'count: {distinct}'"))

    def results(self, question: Question, result: dict[str, Any], seeds: list[int]) -> list[Any]:
        """Each seed's figures, or the VariantProblem that seed's draw is; a failure of the whole run (the file
        itself, a time limit) is raised at once."""
        variants = question.variants
        assert variants is not None
        if "timeout" in result:
            raise VariantProblem(f"{variants.function}() of {question.id} did not make its variants within "
                                 f"{result['timeout']:g} s", variants.line, "make the function faster")
        if "variants" not in result:
            raise VariantProblem(f"{question.id}: {self.error_text(result.get('error') or {})}", variants.line,
                                 "fix the values file")
        drawn: list[Any] = []
        for outcome in result["variants"][:len(seeds)]:
            if "values" in outcome:
                drawn.append(outcome["values"])
                continue
            drawn.append(self.draw_problem(variants, outcome.get("error") or {}))
        return drawn

    def draw_problem(self, variants: Variants, error: dict[str, Any]) -> VariantProblem:
        """What one seed's failed draw tells the author. Only an exception is a bad draw 'invalid: skip' may leave
        out: a function that exits, reads input or returns no dict of numbers is a mistake of its own."""
        function, line, code = variants.function, variants.line, error.get("code")
        place = f"{shown_from(Path(error['file']), self.folder)}:{error['line']}" if error.get("file") else ""
        at = f" at {place}" if place else ""
        if code == "exit":
            return VariantProblem(f"{function}() exits the process ({error.get('text')}{at})", line,
                                  "a variant function returns its figures: remove the exit")
        if code == "no_input":
            return VariantProblem(f"{function}() reads input{at}", line,
                                  "a variant function reads no input: draw the figures with rng")
        if "type" in error:
            return VariantProblem(f"{function}() raised {self.error_text(error)}", line,
                                  f"fix {function}() for this draw, or, if such draws are bad, let it raise on them "
                                  "and write 'invalid: skip' under 'variants:'", skippable=code != "died")
        return VariantProblem(self.error_text(error), line,
                              f"{function}(rng) returns a dict of names to finite numbers, e.g. {{'N': 7e9, 'B': 12}}")

    def error_text(self, error: dict[str, Any]) -> str:
        """`ZeroDivisionError in variants.py:7 (division by zero)`, or the runner's own words."""
        if error.get("code") == "died":
            return f"the Python process running it stopped ({error.get('message')})"
        if "type" not in error:
            return str(error.get("text") or "the values file failed")
        place = f" in {shown_from(Path(error['file']), self.folder)}:{error['line']}" if error.get("file") else ""
        message = error.get("message") or ""
        return f"{error['type']}{place}" + (f" ({message})" if message else "")

    @staticmethod
    def named(problem: VariantProblem, question: Question, number: int, seed: int) -> VariantProblem:
        return VariantProblem(f"variant {number} of {question.id} (seed {seed}): {problem}",
                              problem.line, problem.hint, problem.skippable)

    # -- one variant ---------------------------------------------------------------------------------------

    def variant(self, question: Question, number: int, seed: int, values: dict[str, float]) -> Variant:
        for name in values:
            if not name.isidentifier():
                raise VariantProblem(f"it returns the name {name!r}, which text and answers cannot use",
                                     question.variants.line if question.variants else question.line,
                                     "name each figure like a Python variable: letters, digits and '_'")
        names = {**self.module_values, **values}
        lists = {part: [Entry(entry.key, self.localized(entry.text, names)) for entry in entries]
                 for part, entries in question.lists.items()}
        hints = [self.localized(hint, names) for hint in question.hints]
        return Variant(number, seed, values, self.localized(question.title, names),
                       self.localized(question.body, names), self.localized(question.explanation, names),
                       lists, self.key(question, names, lists), hints)

    def localized(self, text: Localized, names: dict[str, float]) -> Localized:
        result = {}
        for lang, fragment in text.items():
            try:
                result[lang] = Fragment(substitute(fragment.markdown, names, lang), fragment.line)
            except PlaceholderError as problem:
                line = fragment.line + fragment.markdown.count("\n", 0, problem.offset)
                hint = problem.hint.replace("values() defines", "the variant and the module's values give")
                raise VariantProblem(str(problem).replace("unknown value", "no variant defines"), line,
                                     hint) from None
        return result

    def key(self, question: Question, names: dict[str, float], lists: ListParts) -> Any:
        """The question's key from its YAML, each numeric field's answer and tolerances computed with `names`."""
        variants = question.variants
        assert variants is not None
        config = {key: value for key, value in variants.config.items() if key != "variants"}
        return named_key(question.qtype, config, NamedLines(variants.lines, variants.line), names, lists,
                         tuple(self.languages))


@dataclass
class NamedLines:
    """Where each key of a question's YAML stands in its file, and the line of the YAML itself."""

    lines: dict[tuple[str, ...], int]
    line: int

    def of(self, path: tuple[str, ...]) -> int:
        while path and path not in self.lines:
            path = path[:-1]
        return self.lines.get(path, self.line)


@dataclass
class NamedSource:
    """A question without variants whose numeric answers compute with the module's values: its YAML, kept
    until the values are known."""

    config: dict[str, Any]
    lines: NamedLines
    names: list[str]


def named_key(qtype: QuestionType, config: dict[str, Any], lines: NamedLines, names: dict[str, float],
              lists: ListParts, languages: tuple[str, ...]) -> Any:
    """A key whose numeric fields are arithmetic over `names` (a variant's figures, the module's values): each
    answer and tolerance computed, then the type's own build. Problems are VariantProblems at their line."""
    config = copy.deepcopy(config)
    fields = config.get("fields")
    for field_id, spec in (fields.items() if isinstance(fields, dict) else ()):
        if not isinstance(spec, dict):
            continue
        for name in FIELD_NUMBERS:
            # A list is no figure of a draw: the type's own reading says what to write (qtypes.numeric).
            if spec.get(name) is None or isinstance(spec[name], (bool, list)):
                continue
            line = lines.of(("fields", str(field_id), name))
            try:
                spec[name] = evaluate(spec[name], names)
            except UnknownName as problem:
                raise VariantProblem(str(problem), line, problem.hint) from None
            except ValueError as problem:
                raise VariantProblem(str(problem), line, "check the function's figures for this draw",
                                     skippable=True) from None
    try:
        return qtype.build(config, lists, languages)
    except Invalid as problem:
        raise VariantProblem(str(problem), lines.of(problem.path), problem.hint) from None


def field_names(config: dict[str, Any]) -> list[str]:
    """The names a question's numeric fields compute with (`answer: "N*B/1e9"` gives N and B), in order."""
    fields = config.get("fields")
    found: list[str] = []
    for spec in (fields.values() if isinstance(fields, dict) else ()):
        for name in FIELD_NUMBERS if isinstance(spec, dict) else ():
            if isinstance(spec.get(name), str):
                found += [found_name for found_name in free_names(spec[name]) if found_name not in found]
    return found


def shown_text(variant: Variant) -> tuple[Any, ...]:
    """What a variant shows the learner before an answer: its title, text and lists, in every language."""
    return (sorted((lang, text.markdown) for lang, text in variant.title.items()),
            sorted((lang, text.markdown) for lang, text in variant.body.items()),
            sorted((part, [(entry.key, sorted((lang, text.markdown) for lang, text in entry.text.items()))
                           for entry in entries]) for part, entries in variant.lists.items()))


def repeated_variants(made: dict[int, Variant]) -> dict[int, int]:
    """Each variant that shows what a variant of a lower number shows, and that variant's number."""
    first: dict[str, int] = {}
    repeats = {}
    for number in sorted(made):
        shown = repr(shown_text(made[number]))
        if shown in first:
            repeats[number] = first[shown]
        else:
            first[shown] = number
    return repeats
