"""What a page's making read decides whether a build may keep it (issue 26 §1): the files opened, listed or looked
at while a generated page is converted are recorded with their digests, and a later build takes the page only
while every one of them is as it was. No list of extensions says which pages read files."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
from support.caching import site_files
from support.sites import ROOT, build_site, copy_site

MONOLINGUAL = ROOT / "tests" / "fixtures" / "lang-en"
QUIZ = "exercises/units/01-measures/quiz.md"
PAGE = "units/01-measures/quiz/index.html"
# A small local Markdown extension, as an author writes one: `@@paste NAME@@` becomes the text of NAME in its
# folder, or of the first of its folders that has it.
PASTE = '''
import os
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor


class Paste(Preprocessor):
    def __init__(self, md, folders):
        super().__init__(md)
        self.folders = folders

    def run(self, lines):
        result = []
        for line in lines:
            if line.startswith("@@paste ") and line.endswith("@@"):
                name = line[len("@@paste "):-2]
                found = [folder for folder in self.folders if os.path.exists(os.path.join(folder, name))]
                with open(os.path.join(found[0] if found else self.folders[0], name), encoding="utf-8") as text:
                    result.extend(text.read().splitlines())
            else:
                result.append(line)
        return result


class PasteExtension(Extension):
    def __init__(self, **kwargs):
        self.config = {"folders": [[], "where pasted files are"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md):
        md.preprocessors.register(Paste(md, self.getConfig("folders")), "paste", 30)


def makeExtension(**kwargs):
    return PasteExtension(**kwargs)
'''


@pytest.fixture
def pasting_site(tmp_path: Path, monkeypatch) -> Path:
    site = copy_site(MONOLINGUAL, tmp_path / "src")
    module = f"paste_{abs(hash(str(tmp_path))) % 10**8}"
    (site / f"{module}.py").write_text(textwrap.dedent(PASTE), encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, module, raising=False)
    for folder in ("shared", "first"):
        (site / folder).mkdir()
    (site / "shared/note.md").write_text("FIRST-VERSION\n", encoding="utf-8")
    config = site / "mkdocs.yml"
    config.write_text(config.read_text().replace(
        "  - toc:\n", f"  - {module}:\n      folders: [{site / 'first'}, {site / 'shared'}]\n  - toc:\n"))
    quiz = site / QUIZ
    quiz.write_text(quiz.read_text().replace("How long is each piece?\n", "How long is each piece?\n\n"
                                             "@@paste note.md@@\n"))
    return site


def warm_equals_fresh(site: Path, tmp_path: Path, change) -> str:
    """A cold build, `change()`, a warm build; the warm build's site is the one a build without the cache
    writes. The warm page."""
    build_site(site / "mkdocs.yml", tmp_path / "cold", cache=True)
    change()
    build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)
    build_site(site / "mkdocs.yml", tmp_path / "fresh")
    warm, fresh = site_files(tmp_path / "warm"), site_files(tmp_path / "fresh")
    assert warm.keys() == fresh.keys()
    assert [name for name in fresh if warm[name] != fresh[name]] == []
    return (tmp_path / "warm" / PAGE).read_text(encoding="utf-8")


def test_a_page_is_made_afresh_when_a_file_its_extension_pasted_changes(pasting_site: Path, tmp_path: Path) -> None:
    def change() -> None:
        assert "FIRST-VERSION" in (tmp_path / "cold" / PAGE).read_text(encoding="utf-8")
        (pasting_site / "shared/note.md").write_text("SECOND-VERSION\n", encoding="utf-8")

    assert "SECOND-VERSION" in warm_equals_fresh(pasting_site, tmp_path, change)


def test_a_file_that_appears_where_the_extension_looked_first_is_seen(pasting_site: Path, tmp_path: Path) -> None:
    """The extension only asked whether first/note.md exists (a stat, no open): that question is recorded too."""
    def change() -> None:
        (pasting_site / "first/note.md").write_text("NEARER-VERSION\n", encoding="utf-8")

    assert "NEARER-VERSION" in warm_equals_fresh(pasting_site, tmp_path, change)


def test_an_unchanged_pasted_file_keeps_the_page(pasting_site: Path, tmp_path: Path, monkeypatch) -> None:
    from zadachnik.rendering.render import Renderer

    assembled: list[str] = []
    assemble = Renderer.assemble

    def counted(renderer, plan, html, reuse=None):
        assembled.append(plan.kind)
        return assemble(renderer, plan, html, reuse)

    build_site(pasting_site / "mkdocs.yml", tmp_path / "cold", cache=True)
    monkeypatch.setattr(Renderer, "assemble", counted)
    build_site(pasting_site / "mkdocs.yml", tmp_path / "warm", cache=True)
    assert assembled == [], "a page whose reads are unchanged was made again"
    assert "FIRST-VERSION" in (tmp_path / "warm" / PAGE).read_text(encoding="utf-8")


# -- the rule as a property: warm equals fresh after any sequence of edits ---------------------------------------

from hypothesis import settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule  # noqa: E402

HOOK = "def on_post_page(output, page, config):\n    return output.replace('</body>', '<!--hook {n}--></body>')\n"
OVERRIDE = '{{% extends "base.html" %}}\n{{% block extrahead %}}<meta name="edition" content="{n}">{{% endblock %}}\n'
MARKED = """How long is each piece?

TEXT-0 and {{ share:g }}.

--8<-- "note.md"

@@paste note.md@@
"""
versions = st.integers(min_value=0, max_value=2)


class EditsThenBuilds(RuleBasedStateMachine):
    """A site with all that a page's making can read: a values file, course files, a snippet, a local extension's
    pasted file, a template override, extra CSS, a hook and other plugins' options. Each step edits one of them
    (often back to what it was before), then builds with the cache and without it: the two sites are the same."""

    def __init__(self) -> None:
        super().__init__()
        import tempfile

        self.root = Path(tempfile.mkdtemp(prefix="zadachnik-edits-"))
        self.module_name = f"paste_{self.root.name.replace('-', '_')}"
        self.site = copy_site(MONOLINGUAL, self.root / "src")
        sys.path.insert(0, str(self.site))
        self.builds = 0

    @initialize()
    def make_site(self) -> None:
        site, module = self.site, self.site / "exercises/units/01-measures"
        (site / f"{self.module_name}.py").write_text(textwrap.dedent(PASTE), encoding="utf-8")
        for folder in ("shared", "first", "snippets", "overrides", "docs/css", module / "files"):
            (site / folder).mkdir(parents=True, exist_ok=True)
        self.write("shared/note.md", "PASTED-0\n")
        self.write("snippets/note.md", "SNIPPET-0\n")
        self.write(module / "files/data.txt", "DATA-0\n")
        self.write(module / "calc.py", "def values():\n    return {'share': 0.5}\n")
        self.write("overrides/main.html", OVERRIDE.format(n=0))
        self.write("docs/css/extra.css", ".edition { color: #000; }\n")
        self.write("hooks.py", HOOK.format(n=0))
        (module / "module.yml").write_text("number: 1\ntitle: Measuring\nvalues: calc.py\n", encoding="utf-8")
        quiz = site / QUIZ
        quiz.write_text(quiz.read_text().replace("How long is each piece?\n", MARKED), encoding="utf-8")
        config = site / "mkdocs.yml"
        config.write_text(config.read_text()
                          .replace("  font: false\n", "  font: false\n  custom_dir: overrides\n")
                          .replace("  - toc:\n", f"  - {self.module_name}:\n      folders: [{site / 'first'}, "
                                   f"{site / 'shared'}]\n  - pymdownx.snippets:\n      base_path: "
                                   f"[{site / 'snippets'}]\n  - toc:\n")
                          .replace("  - search\n", "  - search:\n      separator: '[\\s\\-]+'\n")
                          + "extra_css: [css/extra.css]\nhooks: [hooks.py]\ncopyright: EDITION-0\n",
                          encoding="utf-8")

    def write(self, path: str | Path, text: str) -> None:
        (self.site / path).write_text(text, encoding="utf-8")

    def replace(self, path: str | Path, pattern: str, text: str) -> None:
        import re

        target = self.site / path
        target.write_text(re.sub(pattern, text, target.read_text(encoding="utf-8")), encoding="utf-8")

    @rule(n=versions)
    def question_text(self, n: int) -> None:
        self.replace(QUIZ, r"TEXT-\d+", f"TEXT-{n}")

    @rule(n=versions)
    def values_file(self, n: int) -> None:
        self.write("exercises/units/01-measures/calc.py", f"def values():\n    return {{'share': {n}.5}}\n")

    @rule(n=versions)
    def course_file(self, n: int) -> None:
        self.write("exercises/units/01-measures/files/data.txt", f"DATA-{n}\n")

    @rule(n=versions)
    def snippet(self, n: int) -> None:
        self.write("snippets/note.md", f"SNIPPET-{n}\n")

    @rule(n=versions, nearer=st.booleans())
    def pasted_file(self, n: int, nearer: bool) -> None:
        # The nearer folder's file wins where it exists: making or removing it changes what is pasted.
        if nearer:
            self.write("first/note.md", f"NEARER-{n}\n")
        else:
            (self.site / "first/note.md").unlink(missing_ok=True)
            self.write("shared/note.md", f"PASTED-{n}\n")

    @rule(n=versions)
    def template_override(self, n: int) -> None:
        self.write("overrides/main.html", OVERRIDE.format(n=n))

    @rule(n=versions)
    def site_option(self, n: int) -> None:
        self.replace("mkdocs.yml", r"copyright: EDITION-\d+", f"copyright: EDITION-{n}")

    @rule(n=versions)
    def extra_css(self, n: int) -> None:
        self.write("docs/css/extra.css", f".edition {{ color: #00{n}; }}\n")

    @rule(n=versions)
    def hook_file(self, n: int) -> None:
        self.write("hooks.py", HOOK.format(n=n))

    @rule(separator=st.sampled_from(["'[\\s\\-]+'", "'[\\s\\-,]+'", "'[\\s]+'"]))
    def other_plugins_options(self, separator: str) -> None:
        self.replace("mkdocs.yml", r"separator: .*", f"separator: {separator}".replace("\\", "\\\\"))

    @rule()
    def nothing(self) -> None:
        pass

    @invariant()
    def warm_equals_fresh(self) -> None:
        self.builds += 1
        warm, fresh = self.root / f"warm{self.builds}", self.root / f"fresh{self.builds}"
        sys.modules.pop(self.module_name, None)
        build_site(self.site / "mkdocs.yml", warm, cache=True)
        build_site(self.site / "mkdocs.yml", fresh)
        warm_files, fresh_files = site_files(warm), site_files(fresh)
        assert warm_files.keys() == fresh_files.keys()
        assert [name for name in fresh_files if warm_files[name] != fresh_files[name]] == []

    def teardown(self) -> None:
        import shutil

        sys.path.remove(str(self.site))
        sys.modules.pop(self.module_name, None)
        shutil.rmtree(self.root, ignore_errors=True)


EditsThenBuilds.TestCase.settings = settings(max_examples=10, stateful_step_count=8, deadline=None)
test_a_warm_build_equals_a_fresh_one_after_any_edits = EditsThenBuilds.TestCase


def test_every_kind_of_edit_in_turn_keeps_warm_equal_to_fresh() -> None:
    """Each edit of the property above once, in a fixed order: every kind is tried on every run."""
    machine = EditsThenBuilds()
    try:
        machine.make_site()
        machine.warm_equals_fresh()
        edits = [machine.question_text, machine.values_file, machine.course_file, machine.snippet,
                 machine.template_override, machine.site_option, machine.extra_css, machine.hook_file]
        for edit in edits:
            edit(1)
            machine.warm_equals_fresh()
        for nearer in (True, False):
            machine.pasted_file(1, nearer)
            machine.warm_equals_fresh()
        machine.other_plugins_options("'[\\s]+'")
        machine.warm_equals_fresh()
    finally:
        machine.teardown()


# -- other plugins that put files into pages ----------------------------------------------------------------------

INCLUDING_PLUGINS = {
    # A generated page has no folder of its own: the file is named by its full path.
    "include-markdown": ("  - include-markdown\n",
                         '{{% include-markdown "{site}/shared/note.md" rewrite-relative-urls=false %}}'),
    "macros": ("  - macros:\n      include_dir: {site}/shared\n", '{{% include "note.md" %}}'),
}


@pytest.mark.parametrize("name", INCLUDING_PLUGINS)
def test_a_file_another_plugin_includes_is_included_anew(tmp_path: Path, name: str) -> None:
    """mkdocs-include-markdown-plugin and mkdocs-macros-plugin put a file into the page's Markdown: the page their
    handler changed is converted afresh, and the ones it left alone are kept."""
    plugin, directive = INCLUDING_PLUGINS[name]
    site = copy_site(MONOLINGUAL, tmp_path / "src")
    (site / "shared").mkdir()
    (site / "shared/note.md").write_text("FIRST-VERSION\n", encoding="utf-8")
    config = site / "mkdocs.yml"
    config.write_text(config.read_text().replace("  - search\n", "  - search\n" + plugin.format(site=site)),
                      encoding="utf-8")
    quiz = site / QUIZ
    included = f"How long is each piece?\n\n{directive.format(site=site)}\n"
    quiz.write_text(quiz.read_text().replace("How long is each piece?\n", included), encoding="utf-8")

    def change() -> None:
        assert "FIRST-VERSION" in (tmp_path / "cold" / PAGE).read_text(encoding="utf-8")
        (site / "shared/note.md").write_text("SECOND-VERSION\n", encoding="utf-8")

    assert "SECOND-VERSION" in warm_equals_fresh(site, tmp_path, change)
