"""Synthetic courses for the build benchmark: the same questions as Zadachnik sources and as plain
mkdocs-material pages (arithmatex, math left to the browser)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

PER_MODULE = 25
TYPES = ("single", "multiple", "numeric", "matching", "open", "mixed", "code")


def formula(rng: random.Random) -> str:
    a, b, c = rng.randint(2, 99), rng.randint(2, 99), rng.randint(2, 9)
    return rng.choice([
        rf"\frac{{{a}\cdot 10^{{{c}}}}}{{2^{{{b % 40}}}}}\approx {a / 7:.3f}",
        rf"\sum_{{i=1}}^{{{a}}} i^{{{c}}} = S_{{{b}}}",
        rf"\sqrt{{{a}\,{b}}} + \log_{{{c}}} {a}",
        rf"L(N) = {a}.{b} + {c}\,N^{{-0.{b}}}",
    ])


def question(rng: random.Random, qid: str, kind: str) -> tuple[str, dict[str, str]]:
    """Zadachnik source of one question, and its text per language for the plain page."""
    # Real courses write the same formulas in both languages.
    inline, display, because, block = formula(rng), formula(rng), formula(rng), formula(rng)
    texts = {}
    yaml = {"single": "type: single\nanswer: B", "multiple": "type: multiple\nanswer: [A, C]",
            "numeric": 'type: numeric\nfields:\n  x: {answer: "16/7", atol: 0.0001}\n'
                       '  y: {answer: "7e9*12/2**30", rtol: 0.01}',
            "matching": "type: matching\nanswer: {1: B, 2: A}", "open": "type: open",
            "mixed": 'type: mixed\nauto: numeric\nfields:\n  x: {answer: "8/10", atol: 0.000001}',
            "code": 'type: code\nsolution: |\n  def f(x):\n      return 2 * x\ntests:\n  - test: f(2) == 4\n'
                    '    message: {ru: "f(2) равно 4", en: "f(2) is 4"}'}[kind]
    parts = []
    for lang, word in (("ru", "Вопрос"), ("en", "Question")):
        body = f"{word} {qid}: estimate ${inline}$ for the given budget.\n\n$$\n{display}\n$$"
        lists = {"single": "options:\nA. First\nB. Second $x^2$\nC. Third",
                 "multiple": "options:\nA. One\nB. Two\nC. Three",
                 "numeric": "fields:\n- x: Ratio\n- y: Memory, GiB",
                 "matching": "items:\n1. Cat\n2. Dog\n\noptions:\nA. Barks\nB. Meows",
                 "open": "", "mixed": "fields:\n- x: $\\rho$", "code": ""}[kind]
        explanation = f"Because ${because}$ and\n\n$$\n{block}\n$$"
        parts.append(f"//// {lang} | {word} {qid}\n{body}\n\n{lists}\n\nexplanation:\n{explanation}\n////\n")
        texts[lang] = f"### {qid}\n\n{body}\n\n{lists.replace('options:', '').replace('fields:', '')}\n\n" \
                      f"??? note \"Answer\"\n    {explanation.replace(chr(10), chr(10) + '    ')}\n"
    return f"/// question | {qid}\n{yaml}\n\n" + "\n".join(parts) + "///\n", texts


def generate(root: Path, questions: int, seed: int = 7) -> None:
    """root/zadachnik (a site with exercises/) and root/plain (the same text as Markdown pages)."""
    if root.exists():
        shutil.rmtree(root)
    rng = random.Random(seed)
    modules = (questions + PER_MODULE - 1) // PER_MODULE
    z_site, p_site = root / "zadachnik", root / "plain"
    course = z_site / "exercises" / "bench"
    course.mkdir(parents=True)
    (course / "course.yml").write_text(f"id: bench\ntitle: {{ru: Курс, en: Course}}\nmodules: {modules}\n")
    for number in range(1, modules + 1):
        folder = course / f"m{number:03d}"
        folder.mkdir()
        (folder / "module.yml").write_text(f"number: {number}\ntitle: {{ru: Модуль {number}, en: Module {number}}}\n")
        sources, plain = [], {"ru": [f"# Модуль {number}\n"], "en": [f"# Module {number}\n"]}
        for index in range(PER_MODULE):
            if (number - 1) * PER_MODULE + index >= questions:
                break
            source, texts = question(rng, f"Q{index + 1}", TYPES[index % len(TYPES)])
            sources.append(source)
            for lang in plain:
                plain[lang].append(texts[lang])
        (folder / "quiz.md").write_text("\n".join(sources), encoding="utf-8")
        for lang, prefix in (("ru", ""), ("en", "en/")):
            page = p_site / "docs" / prefix / "bench" / f"m{number:03d}.md"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text("\n".join(plain[lang]), encoding="utf-8")
    for site in (z_site, p_site):
        (site / "docs" / "en").mkdir(parents=True, exist_ok=True)
        (site / "docs" / "index.md").write_text("# Bench\n\n<!-- zadachnik:courses -->\n")
        (site / "docs" / "en" / "index.md").write_text("# Bench\n\n<!-- zadachnik:courses -->\n")
    common = """theme:
  name: material
  font: false
markdown_extensions:
  - admonition
  - attr_list
  - pymdownx.details
  - pymdownx.superfences
"""
    (z_site / "mkdocs.yml").write_text("site_name: Bench\n" + common + "plugins:\n  - search\n  - zadachnik\n")
    (p_site / "mkdocs.yml").write_text("site_name: Bench\n" + common + "  - pymdownx.arithmatex:\n      generic: true\n"
                                       "plugins:\n  - search\n")


# Words and formulas the huge explanation is made of: prose with a formula now and then, as an author writes it.
HUGE_WORDS = ("the", "model", "reads", "every", "token", "once", "and", "its", "loss", "falls", "with", "scale")


def huge_explanation(size: int, seed: int = 7) -> str:
    """About `size` characters of explanation: paragraphs of words, a few of them inline formulas."""
    rng = random.Random(seed)
    paragraphs, total = [], 0
    while total < size:
        words = [rng.choice(HUGE_WORDS) for _ in range(60)]
        for at in rng.sample(range(60), 3):
            words[at] = rng.choice(("$x$", f"$x_{{{rng.randint(0, 99)}}}$", f"$N^{{{rng.randint(2, 9)}}}$"))
        paragraphs.append(" ".join(words) + ".")
        total += len(paragraphs[-1]) + 2
    return "\n\n".join(paragraphs)


def generate_huge(root: Path, size: int) -> Path:
    """A site with one course, one module and one question whose explanation is `size` characters in all (half in
    each language); returns the site's folder."""
    if root.exists():
        shutil.rmtree(root)
    module = root / "exercises" / "huge" / "m001"
    module.mkdir(parents=True)
    (module.parent / "course.yml").write_text("id: huge\ntitle: {ru: Курс, en: Course}\nmodules: 1\n")
    (module / "module.yml").write_text("number: 1\ntitle: {ru: Модуль, en: Module}\n")
    parts = [f"//// {lang} | {word}\n{word}?\n\noptions:\nA. 1\nB. 2\n\nexplanation:\n"
             f"{huge_explanation(size // 2, seed)}\n////\n"
             for seed, (lang, word) in enumerate((("ru", "Вопрос"), ("en", "Question")))]
    (module / "quiz.md").write_text("/// question | Q1\ntype: single\nanswer: B\n\n" + "\n".join(parts) + "///\n",
                                    encoding="utf-8")
    (root / "docs" / "en").mkdir(parents=True)
    (root / "docs" / "index.md").write_text("# Huge\n\n<!-- zadachnik:courses -->\n")
    (root / "docs" / "en" / "index.md").write_text("# Huge\n\n<!-- zadachnik:courses -->\n")
    (root / "mkdocs.yml").write_text("site_name: Huge\ntheme:\n  name: material\n  font: false\n"
                                     "plugins:\n  - search\n  - zadachnik\n")
    return root
