"""Math: `$…$` and `$$…$$` rendered by KaTeX at build time, so pages need no math script.

Math is protected from Markdown the way pymdown-extensions' arithmatex does it: inline patterns just below
code spans and a block processor for `$$` blocks, whose output is stashed so no other extension touches it. A
`$$ … $$` within a paragraph (under a line of text, in a sentence, in a tight list item) is display math too, as
arithmatex has it; a `$$` left over after them opens nothing, and fails the page with its line, as does a `$` left
over with TeX after it (a formula whose closing `$` is missing).
KaTeX's own JavaScript runs in an embedded V8 (mini-racer), many formulas per call; renders are cached by TeX
for the life of the process, so a rebuild under `mkdocs serve` renders only formulas that changed, and on disk
beside mkdocs.yml (.cache/zadachnik), so the next build renders only formulas that are new.

Used alone, as `markdown_extensions: [zadachnik.rendering.mathtex]`, it renders math without the plugin (the site then
links KaTeX's CSS itself) and fails a page's conversion on a formula KaTeX refuses, naming its line.
"""

from __future__ import annotations

import atexit
import hashlib
import html
import json
import logging
import os
import re
import xml.etree.ElementTree as etree
from collections.abc import Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from markdown import Extension, Markdown
from markdown.blockprocessors import BlockProcessor
from markdown.inlinepatterns import InlineProcessor
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString

KATEX_DIR = Path(__file__).parents[1] / "runtime" / "assets" / "vendor" / "katex"
# `$` not followed by a space opens, `$` not preceded by one closes, so "$5 and $10" stays text.
_INLINE = r"(?<![\\$])\$(?![\s$])((?:\\.|[^\\$\n])+?)(?<!\s)\$(?!\d)"
_BLOCK = re.compile(r"^\s*\$\$(?P<tex>(?:\\.|[^\\])+?)\$\$\s*$", re.DOTALL)
# A `$` that would open an inline formula, as _INLINE's opening has it.
_OPENER = re.compile(r"(?<![\\$])\$(?![\s$])")
# A `$` right after a word, with a space, punctuation or the text's end after it: the shape of a closing `$`.
_CLOSER = re.compile(r"(?<=[^\s\\$])\$(?=\s|$|[?!,;:.)}»”’…])")
# TeX after a `$` that nothing closed: a command (`\sum`), or a `^` or `_` between what it attaches to and its
# argument (`x_i`, `e^{…}`). Not Markdown's `_emphasis_`, nor a brace alone (`{: .class }`, `${HOME}`).
_TEX_SIGN = re.compile(r"\\[A-Za-z]+|(?<=[^\s_^])[_^](?=[A-Za-z0-9{\\])")
# `$$ … $$` inside a paragraph, over its lines if need be; a single `$` may be inside (`\text{$x$}`).
_DISPLAY_IN_TEXT = r"(?<![\\$])\$\$((?:\\.|[^\\$]|\$(?!\$))+?)\$\$"
# Punctuation a line must not start with, kept in one box with the formula before it. Not ']' (a link's text
# ends there), not straight quotes (SmartyPants curls them later), not a dot that starts '...'.
_PUNCTUATION_AFTER = re.compile(r"(?:[?!,;:)}»”’…]|\.(?!\.))+")
_CODE = re.compile(r"^(```|~~~).*?^\1|`[^`\n]+`", re.DOTALL | re.MULTILINE)
_ANNOTATION = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.DOTALL)
# Around each rendered formula while the page is built: search indexes the TeX instead of KaTeX's markup
# (parsing that markup was most of a build's time), then the marks are removed (`for_search`, `finished`).
MATH_START, MATH_END = "<!--zq-math-->", "<!--/zq-math-->"

# Limits on what a formula may ask of KaTeX. The sample course needs at most 10 macro expansions per formula,
# sizes of a few em and nesting of a few levels; beyond these a formula only breaks the page or the build.
MAX_SIZE_EM = 50  # about the width of a page's text column
MAX_ARRAY_STRETCH = 10
MAX_EXPAND = 200
MAX_NESTING = 50
# A formula longer than this is quoted in messages as a window around the error.
QUOTE_WHOLE = 80
QUOTE_AROUND = 30

_LIMITS_JS = (f"const zadachnikLimits = {{maxSize: {MAX_SIZE_EM}, maxStretch: {MAX_ARRAY_STRETCH}, "
              f"maxExpand: {MAX_EXPAND}}};")
_RENDER_JS = _LIMITS_JS + """
// Points per unit as KaTeX's units.js has them; an em is 10pt at KaTeX's normal size.
const zadachnikPoints = {pt: 1, mm: 7227 / 2540, cm: 7227 / 254, in: 72.27, bp: 803 / 800, pc: 12,
  dd: 1238 / 1157, cc: 14856 / 1157, nd: 685 / 642, nc: 1370 / 107, sp: 1 / 65536, px: 803 / 800};
// Only these can carry a size: a number and a unit, or a macro that makes one.
const zadachnikSized = [/\\d\\s*(?:em|ex|mu|pt|mm|cm|in|bp|pc|dd|cc|nd|nc|sp|px)/, /arraystretch/,
  /\\\\(?:[gex]?def|let|futurelet|(?:re|provide)?newcommand|global)/];

function zadachnikEm(size) {
  if (size.unit === "em") return size.number;
  if (size.unit === "ex") return size.number * 0.431;
  if (size.unit === "mu") return size.number / 18;
  return size.number * (zadachnikPoints[size.unit] || 0) / 10;
}

// KaTeX caps sizes at maxSize without a word: find the first one too large in the parse tree, to refuse it.
function zadachnikTooLarge(tex, settings) {
  const pending = [[katex.__parse(tex, settings), null]];
  const seen = new Set();
  while (pending.length) {
    const [value, loc] = pending.pop();
    if (value === null || typeof value !== "object" || seen.has(value)) continue;
    seen.add(value);
    const here = value.loc && typeof value.loc.start === "number" ? value.loc : loc;
    if (typeof value.number === "number" && typeof value.unit === "string"
        && Math.abs(zadachnikEm(value)) > zadachnikLimits.maxSize) {
      return {error: `the size ${value.number}${value.unit} is too large (at most ${zadachnikLimits.maxSize}em)`,
              position: here ? here.start : null};
    }
    if (typeof value.arraystretch === "number" && value.arraystretch > zadachnikLimits.maxStretch) {
      return {error: `\\\\arraystretch ${value.arraystretch} is too large (at most ${zadachnikLimits.maxStretch})`,
              position: here ? here.start : null};
    }
    for (const key of Object.keys(value)) {
      if (key !== "loc") pending.push([value[key], here]);
    }
  }
  return null;
}

function zadachnikRender(tex, display) {
  // Links, pictures and HTML attributes: KaTeX would show an untrusted one as its own red source, quietly.
  const untrusted = [];
  const trust = (context) => { untrusted.push(context.command); return false; };
  const settings = {displayMode: display, throwOnError: true, output: "htmlAndMathml", trust: trust,
                    maxSize: zadachnikLimits.maxSize, maxExpand: zadachnikLimits.maxExpand};
  try {
    const sized = zadachnikSized.some(pattern => pattern.test(tex));
    const refused = sized ? zadachnikTooLarge(tex, settings) : null;
    const html = refused ? "" : katex.renderToString(tex, settings);
    if (untrusted.length) {
      return {error: `${untrusted[0]} is not allowed in formulas: put links and pictures in the text around it`,
              position: Math.max(0, tex.indexOf(untrusted[0]))};
    }
    return refused || {html: html};
  } catch (error) {
    const position = error && typeof error.position === "number" ? error.position : null;
    return {error: String(error && error.message || error), position: position};
  }
}

// Many formulas in one call, JSON in and out: a call into V8 and back costs more than rendering a formula.
// zadachnikRender catches each formula's own errors, so one bad formula spoils none of the others.
function zadachnikRenderBatch(json) {
  return JSON.stringify(JSON.parse(json).map(([tex, display]) => zadachnikRender(tex, display)));
}
"""
# KaTeX's own message ends with its context, which the plugin's message quotes already.
_KATEX_CONTEXT = re.compile(r" at (position \d+|end of input): .*\Z", re.DOTALL)
# \begin and \end count as a level each; the braces of their names balance by themselves.
_NESTING_TOKEN = re.compile(r"\\(?:left\b|right\b|begin\b|end\b|.)|[{}]", re.DOTALL)


class MathError(ValueError):
    """A formula KaTeX refuses. `source` is the whole formula, to find its line; `tex` is what messages quote:
    all of a short formula, a window around the error in a long one."""

    def __init__(self, tex: str, message: str, display: bool = False, position: int | None = None):
        super().__init__(message)
        self.source = tex
        self.position = position
        self.tex = quote(tex, position)
        self.display = display


def quote(tex: str, position: int | None) -> str:
    if len(tex) <= QUOTE_WHOLE:
        return tex
    at = min(max(position or 0, 0), len(tex))
    start, end = max(0, at - QUOTE_AROUND), min(len(tex), at + QUOTE_AROUND)
    return ("…" if start > 0 else "") + tex[start:end] + ("…" if end < len(tex) else "")


def too_deep(tex: str) -> int | None:
    """Where a formula's groups ({…}, \\left…\\right, \\begin…\\end) first nest deeper than MAX_NESTING: KaTeX
    would run out of stack and say only that."""
    depth = 0
    for token in _NESTING_TOKEN.finditer(tex):
        text = token.group()
        if text == "{" or text.startswith(("\\left", "\\begin")):
            depth += 1
            if depth > MAX_NESTING:
                return token.start()
        elif text == "}" or text.startswith(("\\right", "\\end")):
            depth = max(0, depth - 1)
    return None


class KatexUnavailable(RuntimeError):
    @classmethod
    def missing(cls, path: Path) -> KatexUnavailable:
        """A vendored browser file is not in the installed package: the package is broken, not the author's site,
        so the one thing to say is how to get a complete one (a release carries them; a source build makes them)."""
        return cls(f"the installed Zadachnik lacks its browser files ({path} is missing): reinstall it, "
                   "'pip install --force-reinstall zadachnik', or build it from source with Node and npm on the PATH")


# Formulas per V8 call: enough that the call's own cost vanishes, few enough that a batch's JSON stays small.
BATCH_SIZE = 200
# Search indexes the visible rendering once; MathML and its TeX annotation stay for screen readers.
_MATHML_OPEN = '<span class="katex-mathml">'
_MATHML_EXCLUDED = '<span class="katex-mathml" data-search-exclude>'
# A formula reads left to right on a right-to-left page too: its boxes would inherit the page's direction and
# come out mirrored (`27 = 3^3` as `3^3 = 27`). The attribute also isolates it from the text around it.
_FORMULA_OPEN = '<span class="katex">'
_FORMULA_LTR = '<span class="katex" dir="ltr">'

FormulaKey = tuple[str, bool]
_log = logging.getLogger("mkdocs.plugins.zadachnik")


class FormulaKeeper(Protocol):
    """Where rendered formulas stay between builds (incremental.formulas.FormulaStore): the renderer only asks."""

    path: Path

    def stamp(self) -> tuple[int, int, int] | None: ...

    def load(self) -> dict[FormulaKey, str]: ...

    def save(self, formulas: dict[FormulaKey, str]) -> None: ...


class Katex:
    """KaTeX in an embedded V8, with a cache by (TeX, display): in memory for the life of the process, and with
    `use_disk_cache`, on disk between builds."""

    def __init__(self, katex_js: Path = KATEX_DIR / "katex.min.js"):
        self.katex_js = katex_js
        self.cache: dict[FormulaKey, str] = {}
        self.pending: dict[FormulaKey, Future] = {}
        # (message, position) of formulas a prefetch process could not render.
        self.failed: dict[FormulaKey, tuple[str, int | None]] = {}
        self._pool = None
        # Formulas KaTeX rendered (V8 calls are fewer: one per batch).
        self.renders = 0
        self._context = None
        self._closes_at_exit = False
        self._engine_key: str | None = None
        self._disk: FormulaKeeper | None = None
        self._from_disk: set[FormulaKey] = set()
        self._disk_read = False
        self._disk_stamp: tuple[int, int, int] | None = None
        self._renders_at_start = 0
        # The formulas of the current build: what the disk cache keeps.
        self.used: set[FormulaKey] = set()

    def _engine(self):
        if self._context is None:
            if not self.katex_js.is_file():
                raise KatexUnavailable.missing(self.katex_js)
            from py_mini_racer import MiniRacer

            context = MiniRacer()
            context.eval(self.katex_js.read_text(encoding="utf-8"))
            context.eval(_RENDER_JS)
            self._context = context
            self._close_at_exit()
        return self._context

    def _close_at_exit(self) -> None:
        # For a process that never reaches the plugin's on_shutdown (the extension alone, a failed build).
        if not self._closes_at_exit:
            atexit.register(self.close)
            self._closes_at_exit = True

    def close(self) -> None:
        """End the prefetch processes and V8 now; left to the interpreter's exit, they once kept a finished
        build's process from ending. The cache stays; a later render starts V8 again."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        self.pending.clear()
        if self._context is not None:
            self._context.close()
            self._context = None

    def engine_key(self) -> str:
        """What a rendering depends on besides its TeX and display mode: KaTeX's script, the render script (which
        holds every setting, macros and limits included), the nesting limit, the HTML's touch-up and the format."""
        if self._engine_key is None:
            digest = hashlib.sha256(self.katex_js.read_bytes())
            for part in (_RENDER_JS, str(MAX_NESTING), _MATHML_EXCLUDED, _FORMULA_LTR):
                digest.update(b"\0" + part.encode())
            self._engine_key = digest.hexdigest()
        return self._engine_key

    def use_disk_cache(self, store: FormulaKeeper | None) -> None:
        """Start a build: formulas rendered by earlier builds come from `store` (read when the build first needs a
        formula: a build whose pages all come from the page cache reads none), and `save_disk_cache` keeps this
        build's there."""
        self.used = set()
        self._renders_at_start = self.renders
        if store is None:
            self._disk = None
            return
        if self._disk is not None and self._disk.path == store.path and self._disk_read \
                and store.stamp() == self._disk_stamp:
            return  # the file this process read or wrote last (a rebuild under `mkdocs serve`): in memory already
        self._disk = store
        self._disk_read = False

    def _read_disk(self) -> None:
        if self._disk is None or self._disk_read:
            return
        self._disk_read = True
        self._disk_stamp = self._disk.stamp()
        loaded = self._disk.load()
        for key, rendered in loaded.items():
            self.cache.setdefault(key, rendered)
        self._from_disk = set(loaded)

    def mark_used(self, formulas: Iterable[FormulaKey]) -> None:
        """Formulas a page taken from the page cache draws: the disk cache keeps them as if rendered here."""
        self.used.update(formulas)

    def save_disk_cache(self) -> None:
        """After a successful build: the formulas it used, and only those (errors are never stored, so their
        messages always come from KaTeX itself). Nothing is written when the file holds exactly them already, or
        when the build needed no formula it had not (it never read the file)."""
        if self._disk is None or (not self._disk_read and self.renders == self._renders_at_start):
            return
        self._read_disk()
        formulas = {key: self.cache[key] for key in self.used if key in self.cache}
        if set(formulas) == self._from_disk:
            return
        try:
            self._disk.save(formulas)
        except OSError as error:
            # The site is built all the same; only the next build is slower.
            _log.info(f"Zadachnik: cannot write the formula cache {self._disk.path}: {error}")
            return
        self._from_disk = set(formulas)
        self._disk_stamp = self._disk.stamp()

    def render(self, tex: str, display: bool) -> str:
        key = (tex, display)
        rendered = self.cache.get(key)
        if rendered is None and not self._disk_read:
            self._read_disk()
            rendered = self.cache.get(key)
        if rendered is None and key in self.pending:
            rendered = self._from_batch(key)
        if rendered is None:
            rendered = self.render_now(tex, display)
        self.used.add(key)
        return rendered

    def render_now(self, tex: str, display: bool) -> str:
        """Render with this instance's own V8, one call for this formula, whatever is cached or under way."""
        deep_at = too_deep(tex)
        if deep_at is not None:
            raise _too_deep_error(tex, display, deep_at)
        return self._finish(tex, display, self._engine().call("zadachnikRender", tex, display))

    def render_many(self, formulas: list[FormulaKey]) -> list[str | MathError]:
        """Each formula's HTML or its MathError, exactly as `render_now` gives them, with one V8 call per batch."""
        results: list[str | MathError] = []
        for start in range(0, len(formulas), BATCH_SIZE):
            results.extend(self._render_batch(formulas[start:start + BATCH_SIZE]))
        return results

    def _render_batch(self, formulas: list[FormulaKey]) -> list[str | MathError]:
        from py_mini_racer import JSEvalException

        results: list[str | MathError | None] = [None] * len(formulas)
        for index, (tex, display) in enumerate(formulas):
            deep_at = too_deep(tex)
            if deep_at is not None:
                results[index] = _too_deep_error(tex, display, deep_at)
        to_katex = [index for index, result in enumerate(results) if result is None]
        if not to_katex:
            return results  # type: ignore[return-value]
        try:
            answers = json.loads(self._engine().call("zadachnikRenderBatch", json.dumps(
                [formulas[index] for index in to_katex])))
        except JSEvalException:
            # What no single formula meets (V8 short of memory for the whole batch): one call per formula.
            answers = None
        for position, index in enumerate(to_katex):
            tex, display = formulas[index]
            try:
                results[index] = (self._finish(tex, display, answers[position]) if answers is not None
                                  else self.render_now(tex, display))
            except MathError as error:
                results[index] = error
        return results  # type: ignore[return-value]

    def _finish(self, tex: str, display: bool, result: Any) -> str:
        """The page's HTML from zadachnikRender's answer for one formula (cached), or its MathError."""
        if "error" in result:
            message = _KATEX_CONTEXT.sub(r" at \1", str(result["error"]).removeprefix("KaTeX parse error: "))
            # KaTeX's own advice names settings an author can't change.
            if message.startswith("Too many expansions"):
                message = (f"more than {MAX_EXPAND} macro expansions: a macro that calls itself, or macros that "
                           "multiply text")
            elif "call stack" in message:
                message = "nested too deeply for KaTeX: write it flatter"
            raise MathError(tex, message, display, result.get("position"))
        self.renders += 1
        rendered = result["html"].replace(_MATHML_OPEN, _MATHML_EXCLUDED, 1).replace(_FORMULA_OPEN, _FORMULA_LTR, 1)
        self.cache[(tex, display)] = rendered
        return rendered

    def _missing(self, formulas: list[FormulaKey]) -> list[FormulaKey]:
        return [key for key in dict.fromkeys(formulas) if key not in self.cache and key not in self.pending]

    def prefetch(self, formulas: list[FormulaKey], workers: int) -> None:
        """Render the formulas not cached yet before pages need them: a few here at once, in batches; many in
        other processes (each with its own V8) while MkDocs builds the pages on this one, where `render` waits
        for a formula already under way instead of rendering it twice. (Threads don't help: mini-racer keeps
        each call on the calling thread's interpreter lock.) Failures are left for the page that has them,
        which renders them again for its message."""
        if formulas:
            self._read_disk()
        todo = self._missing(formulas)
        if not todo:
            return
        if len(todo) < PREFETCH_MINIMUM or workers < 1:
            self.render_many(todo)
            return
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        if self._pool is None:
            self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
            self._close_at_exit()
        for start in range(0, len(todo), PREFETCH_CHUNK):
            chunk = todo[start:start + PREFETCH_CHUNK]
            future = self._pool.submit(render_batch, str(self.katex_js), chunk)
            future.add_done_callback(self._store_batch)
            for item in chunk:
                self.pending[item] = future

    def _store_batch(self, future: Future) -> None:
        if future.cancelled() or future.exception() is not None:
            return
        for item, rendered, error in future.result():
            if error is None:
                if item not in self.cache:
                    self.cache[item] = rendered
                    self.renders += 1
            else:
                self.failed[item] = error

    def _from_batch(self, key: FormulaKey) -> str | None:
        future = self.pending.pop(key)
        try:
            future.result()
        except Exception:  # noqa: BLE001 - a broken pool only means rendering here instead
            return None
        self._store_batch(future)
        if key in self.failed:
            message, position = self.failed[key]
            raise MathError(key[0], message, key[1], position)
        return self.cache.get(key)


def _too_deep_error(tex: str, display: bool, deep_at: int) -> MathError:
    return MathError(tex, f"groups nested more than {MAX_NESTING} deep: write it flatter", display, deep_at)


# Formulas go to the other processes in chunks, in the order pages need them; each chunk is one V8 call there.
PREFETCH_CHUNK = 100
PREFETCH_MINIMUM = 200
_batch_engine: Katex | None = None


def render_batch(katex_js: str, items: list[FormulaKey]
                 ) -> list[tuple[FormulaKey, str, tuple[str, int | None] | None]]:
    """In a prefetch process: each formula's HTML, or its error and where in the formula it is."""
    global _batch_engine
    if _batch_engine is None:
        _batch_engine = Katex(Path(katex_js))
    return [(item, result, None) if isinstance(result, str) else (item, "", (str(result), result.position))
            for item, result in zip(items, _batch_engine.render_many(items), strict=True)]


_shared: Katex | None = None


def shared_katex() -> Katex:
    """One engine per process: V8 start-up and the cache outlive each build under `mkdocs serve`."""
    global _shared
    if _shared is None:
        _shared = Katex()
    return _shared


@dataclass
class MathLog:
    """What the extension met while converting: the plugin turns errors into file:line messages."""

    errors: list[MathError] = field(default_factory=list)
    # The formulas drawn, for a page the page cache keeps: the formula cache keeps them while the page is kept.
    formulas: list[FormulaKey] = field(default_factory=list)

    def start_page(self) -> None:
        self.errors.clear()
        self.formulas = []


class _InlineMath(InlineProcessor):
    def __init__(self, extension: MathExtension, md: Markdown):
        super().__init__(_INLINE, md)
        self.extension = extension

    def handleMatch(self, m: re.Match[str], data: str):  # type: ignore[override]
        rendered = self.extension.render(m.group(1), display=False)
        after = _PUNCTUATION_AFTER.match(data, m.end(0))
        if after is None:
            return self.md.htmlStash.store(rendered), m.start(0), m.end(0)
        # One inline block, so Chromium never breaks between the formula and its '?' (white-space: nowrap does
        # not stop it there, and would stop the breaks KaTeX allows within a long formula).
        kept = f'<span class="zq-math-punct">{rendered}{html.escape(after.group())}</span>'
        return self.md.htmlStash.store(kept), m.start(0), after.end()


class _DisplayMathInText(InlineProcessor):
    def __init__(self, extension: MathExtension, md: Markdown):
        super().__init__(_DISPLAY_IN_TEXT, md)
        self.extension = extension

    def handleMatch(self, m: re.Match[str], data: str):  # type: ignore[override]
        rendered = self.extension.render(m.group(1).strip(), display=True)
        # A span (a paragraph holds no div), a block by the stylesheet: it scrolls as a display formula does.
        return self.md.htmlStash.store(f'<span class="zq-math">{rendered}</span>'), m.start(0), m.end(0)


UNCLOSED_DISPLAY = ("'$$' opens a display formula that nothing closes in its paragraph: end it with '$$' "
                    "(a formula holds no blank line), or write \\$ for a dollar sign")
UNOPENED_INLINE = ("'$' closes a formula that nothing opened: put '$' right before the formula (no space after "
                    "it), or write \\$ for a dollar sign")
UNCLOSED_INLINE = ("'$' opens a formula that nothing closes in its paragraph: end it with '$' (right after the "
                   "formula, no space before it), or write \\$ for a dollar sign")
_SKIPPED_TAGS = frozenset({"code", "pre", "kbd", "samp"})
_PLACEHOLDER_START, _PLACEHOLDER_END = "\x02", "\x03"
_PLACEHOLDER = re.compile(f"{_PLACEHOLDER_START}[^{_PLACEHOLDER_END}]*{_PLACEHOLDER_END}")
# The word a closing `$` ends: back to a space or to a formula already stashed.
_WORD_BEFORE = re.compile(f"[^\\s{_PLACEHOLDER_END}]*\\Z")


class _RefuseUnclosedInline(InlineProcessor):
    """Just after the formulas were found, in the paragraph as the author wrote it (code and formulas stashed, so
    the check, which drops the later patterns, sees what the build sees): a `$` left that could open a formula and
    is followed by TeX before the next such `$` or the paragraph's end lost its closing `$`, and the page would
    show its TeX raw. A dollar of prose (`costs $5`, `$HOME`) has no TeX after it and stays text."""

    def __init__(self, extension: MathExtension, md: Markdown):
        super().__init__(_OPENER.pattern, md)
        self.extension = extension

    def handleMatch(self, m: re.Match[str], data: str):  # type: ignore[override]
        following = _OPENER.search(data, m.end())
        after = _PLACEHOLDER.sub(" ", data[m.end():following.start() if following else len(data)])
        if _TEX_SIGN.search(after):
            self.extension.log.errors.append(stray_error(data, m.start(), "$", UNCLOSED_INLINE))
        # Never a match: the text stays as it is.
        return None, None, None


class _RefuseUnopenedInline(InlineProcessor):
    """As _RefuseUnclosedInline, for the other slip: a `$` in closing position whose word before it is TeX
    (`x^2$ is`) lost its opening `$`. Only that word is read, so `costs 5$` and a `snake_case` word earlier in the
    paragraph stay prose."""

    def __init__(self, extension: MathExtension, md: Markdown):
        super().__init__(_CLOSER.pattern, md)
        self.extension = extension

    def handleMatch(self, m: re.Match[str], data: str):  # type: ignore[override]
        word = _WORD_BEFORE.search(data, 0, m.start()).group()
        if _TEX_SIGN.search(word):
            error = MathError(word + "$", UNOPENED_INLINE, display=True, position=len(word))
            error.tex = word + "$"
            self.extension.log.errors.append(error)
        return None, None, None


class _RefuseUnrenderedDisplay(Treeprocessor):
    """After the inline patterns, a `$$` still in the text opens no formula: the page would show it raw."""

    def __init__(self, extension: MathExtension, md: Markdown):
        super().__init__(md)
        self.extension = extension

    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            if element.tag not in _SKIPPED_TAGS:
                self.check(element.text)
            self.check(element.tail)

    def check(self, text: str | None) -> None:
        if not text or "$$" not in text or isinstance(text, AtomicString):
            return
        self.extension.log.errors.append(stray_error(text, text.find("$$"), "$$", UNCLOSED_DISPLAY))


def stray_error(text: str, at: int, opener: str, message: str) -> MathError:
    """A `$` or `$$` at `at` in `text` that opens a formula nothing closes. Its `source` is text to find in the
    author's, so it is taken as written (display); it is quoted as `$$`, or as the `$` and what follows it on its
    line (a line may hold several `$`)."""
    context, position = _stray_context(text, at, len(opener))
    error = MathError(context, message, display=True, position=position)
    error.tex = opener if opener == "$$" else quote(context[position:], 0)
    return error


def _stray_context(text: str, at: int, width: int) -> tuple[str, int]:
    """A stray `$` or `$$` (`width` long) with what follows it on its line, or, alone on its line, the next line or
    the one before: text to find in the author's source (no stash placeholder in it), and where the opener is in
    it."""
    start = at
    end = len(text) if (newline := text.find("\n", at)) < 0 else newline
    if not text[at + width:end].strip():
        if end < len(text):
            end = len(text) if (newline := text.find("\n", end + 1)) < 0 else newline
        else:
            start = text.rfind("\n", 0, max(0, text.rfind("\n", 0, at))) + 1
    start = max(start, text.rfind(_PLACEHOLDER_END, 0, at) + 1)
    if (placeholder := text.find(_PLACEHOLDER_START, at)) >= 0:
        end = min(end, placeholder)
    return text[start:end].strip(), at - start - (len(text[start:end]) - len(text[start:end].lstrip()))


class _BlockMath(BlockProcessor):
    def __init__(self, extension: MathExtension, md: Markdown):
        super().__init__(md.parser)
        self.extension = extension

    def test(self, parent: etree.Element, block: str) -> bool:
        return _BLOCK.match(block) is not None

    def run(self, parent: etree.Element, blocks: list[str]) -> bool:
        tex = _BLOCK.match(blocks.pop(0))["tex"]  # type: ignore[index]
        rendered = self.extension.render(tex.strip(), display=True)
        paragraph = etree.SubElement(parent, "p")
        # Atomic, as arithmatex makes it: no inline pattern can match the stash's placeholder, so none is tried.
        paragraph.text = AtomicString(self.parser.md.htmlStash.store(f'<div class="zq-math">{rendered}</div>'))
        return True


# The paragraph a page the plugin generates puts before each piece of author text (rendering/render.py splits the
# HTML at them). Thousands on a large course: as a paragraph of text each was offered to every inline pattern and
# tested by every block processor before the paragraph one, a fifth of such a page's conversion.
PIECE_MARKER = "ZQ\u2060PIECE\u2060"
_PIECE_MARKER_BLOCK = re.compile(PIECE_MARKER + r"\d+")


class _PieceMarker(BlockProcessor):
    """A marker block becomes the paragraph the paragraph processor made of it, with text no inline pattern
    reads (an AtomicString): the same HTML, without the inline pass."""

    def test(self, parent: etree.Element, block: str) -> bool:
        return block.startswith(PIECE_MARKER) and _PIECE_MARKER_BLOCK.fullmatch(block) is not None

    def run(self, parent: etree.Element, blocks: list[str]) -> bool:
        paragraph = etree.SubElement(parent, "p")
        paragraph.text = AtomicString(blocks.pop(0))
        return True


class _KeepSource(Preprocessor):
    """Alone, the extension names a bad formula's line: the text as it came, before anything changes it."""

    def __init__(self, extension: MathExtension, md: Markdown):
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        self.extension.source = "\n".join(lines)
        return lines


class _RefuseBadMath(Postprocessor):
    def __init__(self, extension: MathExtension, md: Markdown):
        super().__init__(md)
        self.extension = extension

    def run(self, text: str) -> str:
        errors = self.extension.log.errors
        if errors:
            lines = [f"  line {line_of([(self.extension.source, 1)], error) or 1}: invalid TeX '{error.tex}': {error}"
                     for error in errors]
            raise self.extension.error_type("KaTeX cannot render:\n" + "\n".join(lines)
                             + "\n  (fix the formula; KaTeX's supported functions: katex.org/docs/supported)")
        return text


class MathSourceError(ValueError):
    """A page's formulas KaTeX refuses, when the extension runs alone (`error_type` tells MkDocs' own kind)."""


# The last of the extension's inline patterns: those after it find no formula and report none (`zadachnik check`
# drops them).
UNCLOSED_PATTERN = "zadachnik-math-unclosed"


class MathExtension(Extension):
    """Inside the plugin (`log` given) errors go to the plugin, which names file and line, and formulas carry
    marks for its search index; alone, the extension refuses a page with a bad formula itself, and adds no marks."""

    def __init__(self, katex: Katex | None = None, log: MathLog | None = None,
                 error_type: type[Exception] = MathSourceError, **kwargs: Any):
        super().__init__(**kwargs)
        # Under MkDocs an error it reports as one message after the page's name, not as a traceback.
        self.error_type = error_type
        self.katex = katex or shared_katex()
        self.standalone = log is None
        self.log = log or MathLog()
        self.source = ""

    def render(self, tex: str, display: bool) -> str:
        try:
            rendered = self.katex.render(tex, display)
        except MathError as error:
            self.log.errors.append(error)
            return f'<code class="zq-math-error">{html.escape(tex)}</code>'
        self.log.formulas.append((tex, display))
        return rendered if self.standalone else MATH_START + rendered + MATH_END

    def reset(self) -> None:
        # The plugin clears its own log per page.
        if self.standalone:
            self.log.start_page()
            self.source = ""

    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        # `\$` writes a dollar sign that opens no formula.
        if "$" not in md.ESCAPED_CHARS:
            md.ESCAPED_CHARS.append("$")
        # Just below backtick code spans (190), as arithmatex: code keeps its dollars.
        md.inlinePatterns.register(_DisplayMathInText(self, md), "zadachnik-math-display-inline", 189.95)
        md.inlinePatterns.register(_InlineMath(self, md), "zadachnik-math-inline", 189.9)
        md.inlinePatterns.register(_RefuseUnopenedInline(self, md), "zadachnik-math-unopened", 189.86)
        md.inlinePatterns.register(_RefuseUnclosedInline(self, md), UNCLOSED_PATTERN, 189.85)
        # After the inline patterns (20): what they left is text.
        md.treeprocessors.register(_RefuseUnrenderedDisplay(self, md), "zadachnik-math-unrendered", 15)
        md.parser.blockprocessors.register(_BlockMath(self, md), "zadachnik-math-block", 79.9)
        if not self.standalone:
            # Above every other block processor: a marker is tested once, not by each of them in turn.
            md.parser.blockprocessors.register(_PieceMarker(md.parser), "zadachnik-piece-marker", 200)
        if self.standalone:
            md.preprocessors.register(_KeepSource(self, md), "zadachnik-math-source", 1000)
            md.postprocessors.register(_RefuseBadMath(self, md), "zadachnik-math-errors", 0)


def formulas_in(markdown: str) -> list[tuple[str, bool]]:
    """The formulas a Markdown text probably holds, as the extension will see them (for `prefetch`: a miss or
    an extra only costs time, never changes a page)."""
    found = []
    text = _CODE.sub("", markdown)
    for block in re.split(r"\n\s*\n", text):
        match = _BLOCK.match(block)
        if match:
            found.append((match["tex"].strip(), True))
        else:
            found.extend((tex.strip(), True) for tex in re.findall(_DISPLAY_IN_TEXT, block))
            found.extend((tex, False) for tex in re.findall(_INLINE, re.sub(_DISPLAY_IN_TEXT, " ", block)))
    return found


def annotations(page_html: str) -> list[str]:
    """The TeX of every formula on a page, in order, from KaTeX's MathML annotations."""
    return [html.unescape(tex) for tex in _ANNOTATION.findall(page_html)]


def line_of(sources: list[tuple[str, int]], error: MathError) -> int | None:
    """The line of a bad formula among (text, first line) sources: delimited first, so `$\\frac{1$` is not
    taken for the start of `$\\frac{16}{7}$`; None when it is in none of them. In a formula over several lines,
    the line of the error within it."""
    tex = error.source
    candidates = [(tex, 0)] if error.display else [(f"${tex}$", 1), (tex, 0)]
    within = min(max(error.position or 0, 0), len(tex))
    for candidate, opening in candidates:
        for text, first_line in sources:
            index = _find_lines(text, candidate)
            if index >= 0:
                return first_line + text.count("\n", 0, index) + candidate.count("\n", 0, opening + within)
    return None


def _find_lines(text: str, candidate: str) -> int:
    """Where `candidate` is in `text`; over several lines, whatever indents them there (a list item, an
    admonition, a quote's '>'), since Markdown takes that away before the extension sees them."""
    if "\n" not in candidate:
        return text.find(candidate)
    between = r"[ \t]*\n[ \t]*(?:>[ \t]?)*"
    found = re.search(between.join(re.escape(line.strip()) for line in candidate.split("\n")), text)
    return found.start() if found else -1


def for_search(page_html: str) -> str:
    """The page with each formula as its TeX in plain text: what the search index should hold."""

    # A find loop, not a lazy pattern over the whole page: the pattern retried at every character of KaTeX's
    # markup (a tenth of a second per 1,000 questions); the text is the same.
    parts, position = [], 0
    while (start := page_html.find(MATH_START, position)) != -1:
        end = page_html.find(MATH_END, start + len(MATH_START))
        if end == -1:
            break
        found = _ANNOTATION.search(page_html, start + len(MATH_START), end)
        parts += [page_html[position:start], f" {found.group(1)} " if found else " "]
        position = end + len(MATH_END)
    parts.append(page_html[position:])
    return "".join(parts)


_MARKS = re.compile(f"{re.escape(MATH_START)}|{re.escape(MATH_END)}")


def finished(page_html: str) -> str:
    """The page without the build-time marks around formulas: one pass, one copy of a page of megabytes."""
    return _MARKS.sub("", page_html) if MATH_START in page_html else page_html


def prefetch_formulas(texts: Iterable[str]) -> None:
    """Render the formulas of these page texts on the other cores while MkDocs builds pages on one, in the order
    it will need them."""
    formulas = [formula for text in texts for formula in formulas_in(text)]
    shared_katex().prefetch(formulas, max(1, (os.cpu_count() or 1) - 1))
