"""The starter site `zadachnik new` writes: mkdocs.yml, a home page per language and one small module whose quiz
uses every question type (a code exercise, a checker and a Parsons problem without tests among them; the starter's
tests hold it to the plugin's registry of types) and whose exercises page has course files.

The texts are data, one file per language in texts/ (a language of the starter is its file); here is what every
language shares: the files, the blocks' ids and their YAML. A site in one language gets what its author would
write: plain strings, and blocks without language parts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

TEXTS_DIR = Path(__file__).parent / "texts"
SUPPORTED = tuple(sorted(path.stem for path in TEXTS_DIR.glob("*.yml")))
COURSE_ID = "first-course"
MODULE = "01-first-steps"

# The Markdown extensions the guide recommends: admonitions, tables and content tabs work in questions too.
MKDOCS_YML = """\
# A Zadachnik course site: `mkdocs serve` previews it, `mkdocs build --strict` writes it to site/.
site_name: {site_name}
strict: true

theme:
  name: material
  # The plugin sets each page's language itself ({first} at the root).
  language: {first}
  features:
    - navigation.sections
    - navigation.top
    - content.tabs.link
    - search.highlight
  # No fonts from the web: the system's own.
  font: false

markdown_extensions:
  - admonition
  - attr_list
  - md_in_html
  - tables
  - pymdownx.details
  - pymdownx.superfences
  - pymdownx.tabbed:
      alternate_style: true
  - toc:
      permalink: true

plugins:
  - search:
      lang: [{languages}]
  - zadachnik:
      exercises_dir: exercises
      languages: [{languages}]
"""

# What the build and the commands write: the site, the cache, and build/ (zadachnik pdf's default).
GITIGNORE = "site/\n.cache/\nbuild/\n"

MEAN_PY = '''\
"""The mean of a list of numbers, as question Q7 asks for it."""


def mean(numbers):
    return sum(numbers) / len(numbers)


if __name__ == "__main__":
    print(mean([1, 2, 3]))
'''

@dataclass(frozen=True)
class Block:
    """A block of the starter: its YAML, where each {name} becomes the block's text `name` in every language
    (a YAML string or list, or a Python string in a checker's code)."""

    kind: str
    id: str
    yaml: str
    in_python: tuple[str, ...] = ()


QUIZ = (
    Block("question", "Q1", "type: single\nanswer: B"),
    Block("question", "Q2", "type: multiple\nanswer: [1, 3]\nscoring: net-correct"),
    Block("question", "Q3", "type: numeric\nfields:\n  speed: {answer: 120/1.5, rtol: 0.01, unit: {unit}}"),
    Block("question", "Q4", "type: matching\nanswer: {1: B, 2: A, 3: C}"),
    Block("question", "Q5", "type: open"),
    Block("question", "Q6", "type: mixed\nauto: single\nanswer: B"),
    Block("question", "Q7", """\
type: code
time_limit: 5
starter: |
  def mean(numbers):
      ...
solution: |
  def mean(numbers):
      return sum(numbers) / len(numbers)
tests:
  - test: mean([1, 2, 3]) == 2
    message: {first_test}
  - test: abs(mean([0.5, 0.25]) - 0.375) < 1e-12
    message: {second_test}"""),
    Block("question", "Q8", """\
type: numeric
fields:
  half: {answer: 1/2, atol: 0.001}
check: |
  def check(answer):
      value = answer["fields"]["half"]["value"]
      if within(value, 0.5, 0.001, 0):
          return True
      if within(value, 50, 0.1, 0):
          return True, {percentage}
      if within(value, 2, 0.001, 0):
          return False, {upside_down}
      return False
wrong:
  - {half: "2"}
  - {half: "0.6"}""", in_python=("percentage", "upside_down")),
    Block("question", "Q9", "type: ordering"),
    Block("question", "Q10", """\
type: formula
answer: n*(n+1)/2
variables: {n: [1, 100]}
wrong: [n^2/2, n*(n-1)/2, n*(n+1)]"""),
    Block("question", "Q11", """\
type: blanks
gaps:
  area: {answer: 9}
  growth: {options: {growth_words}, answer: 3}"""),
    # No tests: graded by order and indentation, so the build needs no Python for it.
    Block("question", "Q12", """\
type: parsons
lines: |
  def factorial(n):
      result = 1
      for k in range(2, n + 1):
          result *= k
      return result"""),
)
EXERCISES = (Block("exercise", "E1", "label: {label}"),)


@cache
def texts(lang: str) -> dict[str, Any]:
    """The starter's texts in `lang` (texts/<lang>.yml)."""
    return yaml.safe_load((TEXTS_DIR / f"{lang}.yml").read_text(encoding="utf-8"))


def flow(values: dict[str, str], languages: list[str]) -> str:
    """A YAML flow mapping with one text per language, {ru: "…", en: "…"}; a plain string in one language."""
    if len(languages) == 1:
        return json.dumps(values[languages[0]], ensure_ascii=False)
    return "{" + ", ".join(f"{lang}: {json.dumps(values[lang], ensure_ascii=False)}" for lang in languages) + "}"


def python_texts(values: dict[str, str], languages: list[str]) -> str:
    """A checker's message as Python: a dict per language, {"ru": "…", "en": "…"}; a string in one language."""
    if len(languages) == 1:
        return json.dumps(values[languages[0]], ensure_ascii=False)
    return "{" + ", ".join(f"{json.dumps(lang)}: {json.dumps(values[lang], ensure_ascii=False)}"
                           for lang in languages) + "}"


def per_language(key: str, languages: list[str], block_id: str | None = None) -> dict[str, str]:
    """One text of the starter in each of `languages`: a top-level key, or a key of the block `block_id`."""
    return {lang: (texts(lang)["blocks"][block_id] if block_id else texts(lang))[key] for lang in languages}


def block_source(block: Block, languages: list[str]) -> str:
    """The block as an author writes it: one part per language, or (in one language) the title after the id."""
    source = block.yaml
    for name in [name for name in texts(languages[0])["blocks"][block.id] if name not in ("title", "text")]:
        written = python_texts if name in block.in_python else flow
        source = source.replace("{" + name + "}", written(per_language(name, languages, block.id), languages))
    titles = per_language("title", languages, block.id)
    bodies = {lang: text.rstrip("\n") for lang, text in per_language("text", languages, block.id).items()}
    if len(languages) == 1:
        lang = languages[0]
        return "\n".join([f"/// {block.kind} | {block.id} | {titles[lang]}", source, "", bodies[lang], "///"]) + "\n"
    parts = [f"/// {block.kind} | {block.id}", source, ""]
    for lang in languages:
        parts += [f"//// {lang} | {titles[lang]}", bodies[lang], "////", ""]
    parts[-1] = "///"
    return "\n".join(parts) + "\n"


def starter_files(languages: list[str]) -> dict[str, str]:
    """Path (relative to the new site's folder) → text, for a site in `languages` (the first at the root)."""
    first = languages[0]
    module = f"exercises/{COURSE_ID}/{MODULE}"
    files = {
        "mkdocs.yml": MKDOCS_YML.format(site_name=json.dumps(texts(first)["site_name"], ensure_ascii=False),
                                        first=first, languages=", ".join(languages)),
        ".gitignore": GITIGNORE,
        f"exercises/{COURSE_ID}/course.yml": (
            f"id: {COURSE_ID}\ntitle: {flow(per_language('course', languages), languages)}\nmodules: 1\n"),
        f"{module}/module.yml": f"number: 1\ntitle: {flow(per_language('module', languages), languages)}\n",
        f"{module}/quiz.md": "\n".join(block_source(block, languages) for block in QUIZ),
        f"{module}/exercises.md": "\n".join(block_source(block, languages) for block in EXERCISES),
        f"{module}/files/mean.py": MEAN_PY,
        f"{module}/files/README.md": texts(first)["readme"],
    }
    for lang in languages:
        prefix = "" if lang == first else f"{lang}/"
        files[f"docs/{prefix}index.md"] = texts(lang)["home"]
    return files
