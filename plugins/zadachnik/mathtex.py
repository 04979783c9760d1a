"""Math: `$…$` and `$$…$$` rendered by KaTeX at build time, so pages need no math script.

Math is protected from Markdown the way pymdown-extensions' arithmatex does it: an inline pattern just below
code spans and a block processor for `$$` blocks, whose output is stashed so no other extension touches it.
KaTeX's own JavaScript runs in an embedded V8 (mini-racer); renders are cached by TeX for the life of the
process, so a rebuild under `mkdocs serve` renders only formulas that changed.
"""

from __future__ import annotations

import atexit
import html
import re
import xml.etree.ElementTree as etree
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

from markdown import Extension, Markdown
from markdown.blockprocessors import BlockProcessor
from markdown.inlinepatterns import InlineProcessor

KATEX_DIR = Path(__file__).parent / "assets" / "vendor" / "katex"
# `$` not followed by a space opens, `$` not preceded by one closes, so "$5 and $10" stays text.
_INLINE = r"(?<![\\$])\$(?![\s$])((?:\\.|[^\\$\n])+?)(?<!\s)\$(?!\d)"
_BLOCK = re.compile(r"^\s*\$\$(?P<tex>(?:\\.|[^\\])+?)\$\$\s*$", re.DOTALL)
_CODE = re.compile(r"^(```|~~~).*?^\1|`[^`\n]+`", re.DOTALL | re.MULTILINE)
_ANNOTATION = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.DOTALL)
# Around each rendered formula while the page is built: search indexes the TeX instead of KaTeX's markup
# (parsing that markup was most of a build's time), then the marks are removed (`for_search`, `finished`).
MATH_START, MATH_END = "<!--zq-math-->", "<!--/zq-math-->"
_MARKED = re.compile(r"<!--zq-math-->(.*?)<!--/zq-math-->", re.DOTALL)

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


class Katex:
    """KaTeX in an embedded V8, with a cache by (TeX, display)."""

    def __init__(self, katex_js: Path = KATEX_DIR / "katex.min.js"):
        self.katex_js = katex_js
        self.cache: dict[tuple[str, bool], str] = {}
        self.pending: dict[tuple[str, bool], Future] = {}
        # (message, position) of formulas a prefetch process could not render.
        self.failed: dict[tuple[str, bool], tuple[str, int | None]] = {}
        self._pool = None
        self.renders = 0
        self._context = None

    def _engine(self):
        if self._context is None:
            if not self.katex_js.is_file():
                raise KatexUnavailable.missing(self.katex_js)
            from py_mini_racer import MiniRacer

            context = MiniRacer()
            context.eval(self.katex_js.read_text(encoding="utf-8"))
            context.eval(_RENDER_JS)
            self._context = context
        return self._context

    def render(self, tex: str, display: bool) -> str:
        key = (tex, display)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        if key in self.pending:
            rendered = self._from_batch(key)
            if rendered is not None:
                return rendered
        return self.render_now(tex, display)

    def render_now(self, tex: str, display: bool) -> str:
        """Render with this instance's own V8, whatever is cached or under way."""
        key = (tex, display)
        deep_at = too_deep(tex)
        if deep_at is not None:
            raise MathError(tex, f"groups nested more than {MAX_NESTING} deep: write it flatter", display, deep_at)
        result = self._engine().call("zadachnikRender", tex, display)
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
        # Search indexes the visible rendering once; MathML and its TeX annotation stay for screen readers.
        rendered = result["html"].replace(
            '<span class="katex-mathml">', '<span class="katex-mathml" data-search-exclude>', 1
        )
        self.cache[key] = rendered
        return rendered


    def prefetch(self, formulas: list[tuple[str, bool]], workers: int) -> None:
        """Start rendering formulas in other processes (each with its own V8) while MkDocs builds the pages on
        this one; `render` waits for a formula already under way instead of rendering it twice. (Threads don't
        help: mini-racer keeps each call on the calling thread's interpreter lock.)"""
        todo = [item for item in dict.fromkeys(formulas) if item not in self.cache and item not in self.pending]
        if len(todo) < PREFETCH_MINIMUM or workers < 1:
            return
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        if self._pool is None:
            self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
            atexit.register(self._pool.shutdown, wait=False, cancel_futures=True)
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
                self.cache[item] = rendered
                self.renders += 1
            else:
                self.failed[item] = error

    def _from_batch(self, key: tuple[str, bool]) -> str | None:
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


# Formulas go to the other processes in chunks, in the order pages need them.
PREFETCH_CHUNK = 100
PREFETCH_MINIMUM = 200
_batch_engine: Katex | None = None


def render_batch(katex_js: str, items: list[tuple[str, bool]]
                 ) -> list[tuple[tuple[str, bool], str, tuple[str, int | None] | None]]:
    """In a prefetch process: each formula's HTML, or its error and where in the formula it is."""
    global _batch_engine
    if _batch_engine is None:
        _batch_engine = Katex(Path(katex_js))
    results = []
    for tex, display in items:
        try:
            results.append(((tex, display), _batch_engine.render_now(tex, display), None))
        except MathError as error:
            results.append(((tex, display), "", (str(error), error.position)))
    return results


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


class _InlineMath(InlineProcessor):
    def __init__(self, extension: MathExtension, md: Markdown):
        super().__init__(_INLINE, md)
        self.extension = extension

    def handleMatch(self, m: re.Match[str], data: str):  # type: ignore[override]
        return self.md.htmlStash.store(self.extension.render(m.group(1), display=False)), m.start(0), m.end(0)


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
        paragraph.text = self.parser.md.htmlStash.store(f'<div class="zq-math">{rendered}</div>')
        return True


class MathExtension(Extension):
    def __init__(self, katex: Katex | None = None, log: MathLog | None = None):
        super().__init__()
        self.katex = katex or shared_katex()
        self.log = log or MathLog()

    def render(self, tex: str, display: bool) -> str:
        try:
            return MATH_START + self.katex.render(tex, display) + MATH_END
        except MathError as error:
            self.log.errors.append(error)
            return f'<code class="zq-math-error">{html.escape(tex)}</code>'

    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        # `\$` writes a dollar sign that opens no formula.
        if "$" not in md.ESCAPED_CHARS:
            md.ESCAPED_CHARS.append("$")
        # Just below backtick code spans (190), as arithmatex: code keeps its dollars.
        md.inlinePatterns.register(_InlineMath(self, md), "zadachnik-math-inline", 189.9)
        md.parser.blockprocessors.register(_BlockMath(self, md), "zadachnik-math-block", 79.9)


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
            found.extend((tex, False) for tex in re.findall(_INLINE, block))
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
            index = text.find(candidate)
            if index >= 0:
                return first_line + text.count("\n", 0, index + opening + within)
    return None


def for_search(page_html: str) -> str:
    """The page with each formula as its TeX in plain text: what the search index should hold."""

    def tex(match: re.Match[str]) -> str:
        found = _ANNOTATION.search(match.group(1))
        return f" {found.group(1)} " if found else " "

    return _MARKED.sub(tex, page_html)


def finished(page_html: str) -> str:
    """The page without the build-time marks around formulas."""
    return page_html.replace(MATH_START, "").replace(MATH_END, "")
