"""The checkout's sites: where they are, building one as `mkdocs build --strict` does, and copies to break."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_SITE = ROOT / "tests" / "fixtures" / "site"


def build_site(config_file: Path, site_dir: Path, cache: bool = False, dirty: bool = False, **overrides) -> Path:
    """Build an MkDocs site as `mkdocs build --strict` would, into `site_dir`. Without `cache`, the plugin keeps
    no modules or pages between builds: tests that change the plugin's code in the process (monkeypatching) must
    not be handed pages an earlier build made with other code (tests/incremental/test_build_cache.py tests the
    cache)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    overrides.setdefault("strict", True)
    config = load_config(config_file=str(config_file), site_dir=str(site_dir), **overrides)
    if "zadachnik" in config.plugins:
        config.plugins["zadachnik"].config["cache"] = cache
    config.plugins.on_startup(command="build", dirty=dirty)
    try:
        build(config, dirty=dirty)
    finally:
        config.plugins.on_shutdown()
    return site_dir


def build_failure(config_file: Path, site_dir: Path, caplog) -> str:
    """The messages a failed build gives the author (MkDocs logs page errors, then aborts)."""
    from mkdocs.exceptions import Abort, PluginError

    try:
        build_site(config_file, site_dir)
    except PluginError as error:
        return str(error)
    except Abort:
        return "\n".join(record.getMessage() for record in caplog.records if record.levelname == "ERROR")
    raise AssertionError("the build was expected to fail")


def copy_site(source: Path, target: Path) -> Path:
    """A writable copy of a site's sources (config, docs, exercises) to break on purpose."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("build", ".cache"))
    return target


def as_exam(module: Path, settings: str = "", questions: str = "") -> Path:
    """A module of a writable copy made an exam (`mode: exam`, then `settings`: a time limit…), with `questions`
    added at the end of its quiz. The module's folder."""
    meta = module / "module.yml"
    meta.write_text(meta.read_text(encoding="utf-8") + "mode: exam\n" + settings, encoding="utf-8")
    if questions:
        quiz = module / "quiz.md"
        quiz.write_text(quiz.read_text(encoding="utf-8") + questions, encoding="utf-8")
    return module


def sample_copy(target: Path) -> Path:
    """The sample site's sources (config, pages, courses) to break on purpose; no caches, no build."""
    target.mkdir()
    shutil.copy(ROOT / "mkdocs.yml", target / "mkdocs.yml")
    for folder in ("docs", "exercises"):
        shutil.copytree(ROOT / folder, target / folder, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def add_second_module(course: Path) -> Path:
    """A copy of `course`'s first module as its module 2 (folder 02-more), the course's count of modules raised to
    2 where it was 1: a course with a book of its own, and a module to edit while the other stays as it was. The
    new module's folder."""
    first = next(folder for folder in sorted(course.iterdir()) if (folder / "module.yml").is_file())
    second = course / "02-more"
    shutil.copytree(first, second)
    meta = second / "module.yml"
    meta.write_text(meta.read_text(encoding="utf-8").replace("number: 1", "number: 2"), encoding="utf-8")
    settings = course / "course.yml"
    settings.write_text(re.sub(r"^modules: 1$", "modules: 2", settings.read_text(encoding="utf-8"), flags=re.M),
                        encoding="utf-8")
    return second


def two_module_site(tmp_path: Path) -> Path:
    """The fixture site's sources with a second module (a copy of the first)."""
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    add_second_module(site / "exercises/demo")
    return site


# A book's hard cases, in both languages: a collapsed block, content tabs, a heading its own text links, an
# inline SVG naming its own ids, a raw-HTML id in single quotes, a hint, Parsons lines to indent and a text with
# blanks whose number gap has a tolerance (tests of the problem books).
# What D1 shows in both languages: ids of the author's own, an SVG's referred to by url(#…) and <use>, and one in
# single quotes.
OWN_IDS = """<svg width="120" height="40"><defs>
<marker id="arrow" markerWidth="10" markerHeight="10" refX="5" refY="5"><path d="M0,0 L10,5 L0,10 z"/></marker>
<linearGradient id="grad"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient>
<path id="dot" d="M0,0 h2"/></defs>
<line x1="5" y1="20" x2="100" y2="20" stroke="url(#grad)" marker-end="url(#arrow)"/><use href="#dot"/></svg>

<span id='single'>SINGLE</span>
"""
BOOK_QUESTIONS = """
/// question | D1
type: open

//// ru | Свёрнутый блок
Прочтите справку. [одинарные](#single)

@@OWN_IDS@@

??? note "Справка"
    СВЁРНУТЫЙ-ТЕКСТ-Д1.

=== "Способ А"
    ВКЛАДКА-А.

=== "Способ Б"
    ВКЛАДКА-Б.

hints:
1. ПОДСКАЗКА-Д1.

explanation:
#### Rayleigh

См. [заголовок](#rayleigh). ОБЪЯСНЕНИЕ-Д1.
////

//// en | A collapsed block
Read the note. [single](#single)

@@OWN_IDS@@

??? note "Note"
    COLLAPSED-TEXT-D1.

=== "Way A"
    TAB-A.

=== "Way B"
    TAB-B.

hints:
1. HINT-D1.

explanation:
#### Rayleigh

See [the heading](#rayleigh). EXPLANATION-D1.
////
///

/// question | P1
type: parsons
lines: |
  def mean(xs):
      return sum(xs) / len(xs)

//// ru | Среднее
Соберите функцию.

explanation:
ОБЪЯСНЕНИЕ-P1.
////

//// en | The mean
Assemble the function.

explanation:
EXPLANATION-P1.
////
///

/// question | B1
type: blanks
gaps:
  trend:
    options:
      ru: [растёт, падает]
      en: [grows, falls]
    answer: 1
  rho: {answer: "8/9", atol: 0.001}

//// ru | Пропуски
Очередь [[gap:trend]], загрузка $\\rho\\approx$ [[gap:rho]].

explanation:
ОБЪЯСНЕНИЕ-B1.
////

//// en | Gaps
The queue [[gap:trend]], the load is $\\rho\\approx$ [[gap:rho]].

explanation:
EXPLANATION-B1.
////
///
""".replace("@@OWN_IDS@@\n", OWN_IDS)
# Exercise E1's statement gets a collapsed block, its solution (the same formula in both languages) content tabs.
BOOK_EXERCISE_PARTS = {
    "Посчитайте $\\sum_{i=1}^{n} i$.": '\n\n??? note "Справка"\n    СВЁРНУТЫЙ-ТЕКСТ-У1.',
    "Compute $\\sum_{i=1}^{n} i$.": '\n\n??? note "Note"\n    COLLAPSED-TEXT-E1.',
    "\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\n$$": '\n\n=== "A"\n    SOLUTION-A.\n\n=== "B"\n    SOLUTION-B.',
}


def book_sources(tmp_path: Path) -> Path:
    """The fixture site's sources for the problem books: module 1 with BOOK_QUESTIONS and E1's collapsed block and
    tabs, and module 2 a copy of it made an exam, so that the course has a book of both."""
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    first = site / "exercises/demo/01-basics"
    quiz = first / "quiz.md"
    quiz.write_text(quiz.read_text(encoding="utf-8") + BOOK_QUESTIONS, encoding="utf-8")
    exercises = first / "exercises.md"
    text = exercises.read_text(encoding="utf-8")
    for after, added in BOOK_EXERCISE_PARTS.items():
        assert after in text, after
        text = text.replace(after, after + added)
    exercises.write_text(text, encoding="utf-8")
    as_exam(add_second_module(site / "exercises/demo"))
    return site


def right_to_left_site(target: Path) -> Path:
    """tests/fixtures/lang-en-de with its German made Hebrew's (`he`, written right to left; the words are
    English ones, from a site words file): pages whose direction is right to left."""
    import yaml

    site = copy_site(ROOT / "tests/fixtures/lang-en-de", target)
    (site / "docs/de").rename(site / "docs/he")
    for path in (site / "exercises").rglob("*"):
        if path.suffix in (".md", ".yml"):
            text = path.read_text(encoding="utf-8")
            path.write_text(re.sub(r"(?m)^(//// )de \|", r"\1he |", text).replace(" de: ", " he: ")
                            .replace("\nde: ", "\nhe: "), encoding="utf-8")
    words = yaml.safe_load((ROOT / "plugins/zadachnik/rendering/words/en.yml").read_text(encoding="utf-8"))
    (site / "words-he.yml").write_text(yaml.safe_dump(words, allow_unicode=True), encoding="utf-8")
    config = site / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("languages: [en, de]",
                                                                 "languages: [en, he]\n      words:\n"
                                                                 "        he: words-he.yml"), encoding="utf-8")
    return site
