"""The `zadachnik` command: `check` finds what the build finds, with the build's messages, reading mkdocs.yml as
MkDocs does; `new` writes a starter site that builds as it is. Run as the installed console script and as
`python -m`."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from support.sites import ROOT, build_failure, build_site, sample_copy
from zadachnik import __version__
from zadachnik.qtypes import registry
from zadachnik.rendering.i18n import shipped_languages

CONSOLE_SCRIPT = Path(sys.executable).parent / "zadachnik"
RUNNERS = {"script": [str(CONSOLE_SCRIPT)], "module": [sys.executable, "-m", "zadachnik"]}
# Every type the plugin knows: the starter promises a question of each (starter/__init__.py).
QUESTION_TYPES = set(registry())
INFRA = Path("exercises/rl-for-llm/12-infrastructure")
PRETRAINING = Path("exercises/modern-llms/09-pretraining")
STARTER_TEXTS = ROOT / "plugins" / "zadachnik" / "starter" / "texts"
WORDS = ROOT / "plugins" / "zadachnik" / "rendering" / "words"


def zadachnik(*args: str, cwd: Path, runner: str = "script") -> subprocess.CompletedProcess[str]:
    assert CONSOLE_SCRIPT.is_file(), "the console script is missing: run '.venv/bin/pip install -e . -q --no-deps'"
    return subprocess.run([*RUNNERS[runner], *args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def problem_lines(output: str) -> set[str]:
    """The file:line messages of a report: the indented lines naming a place."""
    return {line.strip() for line in output.splitlines()
            if line.startswith("  ") and line.strip().startswith("exercises/")}


# -- check -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("runner", RUNNERS)
def test_check_passes_on_the_sample_course(runner: str) -> None:
    result = zadachnik("check", cwd=ROOT, runner=runner)
    assert result.returncode == 0, result.stderr
    assert "are fine" in result.stdout and result.stderr == ""


def test_check_finds_the_config_above_the_exercises_it_is_given(tmp_path: Path) -> None:
    # Run from elsewhere: the languages come from the mkdocs.yml beside the exercises folder.
    site = sample_copy(tmp_path / "site")
    edit(site / "mkdocs.yml", "languages: [ru, en]", "languages: [en, ru]")
    edit(site / "mkdocs.yml", "  language: ru\n", "  language: en\n")
    second_home(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = zadachnik("check", str(site / "exercises"), cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    assert "(en, ru)" in result.stdout


def test_languages_option_overrides_the_config() -> None:
    # The sample sources have ru and en parts: a site in en alone refuses the ru parts, at their lines.
    result = zadachnik("check", "--languages", "en", cwd=ROOT)
    assert result.returncode == 1
    assert f"{INFRA}/quiz.md:" in result.stderr and "unknown language 'ru'" in result.stderr


def second_home(site: Path) -> None:
    """The home page of ru as the second language, for a site whose languages were turned round to [en, ru]."""
    (site / "docs" / "ru").mkdir()
    shutil.copy(site / "docs" / "index.md", site / "docs" / "ru" / "index.md")


def new_site(folder: Path) -> Path:
    """The starter site (ru, en), written by `zadachnik new`: small, and it passes the check."""
    assert zadachnik("new", "site", cwd=folder).returncode == 0
    return folder / "site"


def kept_modules(site: Path) -> list[Path]:
    return list(site.glob(".cache/zadachnik/*/modules/*"))


def test_check_reads_the_config_as_mkdocs_does(tmp_path: Path, monkeypatch) -> None:
    # The plugin's options in an INHERITed file, two of them from the environment, typed as YAML types them.
    site = new_site(tmp_path)
    base = (site / "mkdocs.yml").read_text(encoding="utf-8")
    options = "      exercises_dir: exercises\n      languages: [ru, en]\n"
    assert options in base
    (site / "base.yml").write_text(base.replace("  language: ru\n", "  language: en\n").replace(options, (
        "      exercises_dir: !ENV [ZQ_TEST_EXERCISES, exercises]\n      languages: [en, ru]\n"
        "      cache: !ENV [ZQ_TEST_CACHE, true]\n")), encoding="utf-8")
    (site / "mkdocs.yml").write_text("INHERIT: base.yml\nsite_name: Inherited\n", encoding="utf-8")
    second_home(site)
    shutil.copytree(site / "exercises", site / "course")
    monkeypatch.delenv("ZQ_TEST_EXERCISES", raising=False)
    monkeypatch.delenv("ZQ_TEST_CACHE", raising=False)
    result = zadachnik("check", cwd=site)
    assert result.returncode == 0, result.stderr
    assert "in exercises are fine (en, ru)" in result.stdout
    assert kept_modules(site), "the default of 'cache' is true: the check keeps the modules it read"
    shutil.rmtree(site / ".cache")
    monkeypatch.setenv("ZQ_TEST_EXERCISES", "course")
    monkeypatch.setenv("ZQ_TEST_CACHE", "false")
    result = zadachnik("check", cwd=site)
    assert result.returncode == 0, result.stderr
    assert "in course are fine (en, ru)" in result.stdout
    assert kept_modules(site) == [], "'false' from the environment is YAML's false: nothing is kept"


def test_check_takes_the_plugins_defaults_from_its_schema(tmp_path: Path, monkeypatch, capsys) -> None:
    # In-process, with the schema's default changed: the check has no default of its own to fall back on.
    from zadachnik.cli import main
    from zadachnik.config import ZadachnikConfig

    site = new_site(tmp_path)
    edit(site / "mkdocs.yml", "      exercises_dir: exercises\n", "")
    (site / "exercises").rename(site / "course")
    monkeypatch.setattr(ZadachnikConfig.exercises_dir, "default", "course")
    monkeypatch.chdir(site)
    assert main(["check"]) == 0, capsys.readouterr().err
    assert "in course are fine (ru, en)" in capsys.readouterr().out


def link_out(files: Path) -> None:
    (files / "passwd").symlink_to("/etc/passwd")


def link_loop(files: Path) -> None:
    (files / "a").symlink_to("b")
    (files / "b").symlink_to("a")


def cp1251_name(files: Path) -> None:
    with open(os.path.join(os.fsencode(files), "Пример.txt".encode("cp1251")), "w") as written:
        written.write("x")


def emptied(files: Path) -> None:
    (files / "notebook.ipynb").unlink()
    edit(files.parent / "exercises.md",
         'notebooks:\n  - file: notebook.ipynb\n    section: {ru: "1. Начало", en: "1. Start"}\n', "")


def case_twins(files: Path) -> None:
    (files / "Data.csv").write_text("A")
    (files / "data.csv").write_text("a")


@pytest.mark.parametrize("spoil, said", [
    (link_out, "Zadachnik: cannot zip exercises/demo/01-basics/files: exercises/demo/01-basics/files/passwd: a link "
               "to /etc/passwd, outside the module"),
    (link_loop, "a loop of links that never reaches a file (replace the links with the file itself)"),
    (cp1251_name, "exercises/demo/01-basics/files/\\xcf\\xf0\\xe8\\xec\\xe5\\xf0.txt: the name is not valid UTF-8"),
    (emptied, "exercises/demo/01-basics/files is empty"),
    (case_twins, "exercises/demo/01-basics/files/data.csv: the name differs only in case from "
                 "exercises/demo/01-basics/files/Data.csv"),
])
def test_check_finds_what_the_build_finds_in_course_files(tmp_path: Path, monkeypatch, capsys, spoil: Callable,
                                                          said: str) -> None:
    """Was a bug: the check said the sources were fine while the build stopped at (or warned of) files/."""
    from support.sites import FIXTURE_SITE, copy_site
    from zadachnik.cli import main

    site = copy_site(FIXTURE_SITE, tmp_path / "site")
    spoil(site / "exercises/demo/01-basics/files")
    monkeypatch.chdir(site)
    assert main(["check", "--no-cache"]) == 1
    assert said in capsys.readouterr().err


def test_check_takes_the_extensions_relative_paths(tmp_path: Path) -> None:
    # !relative in an extension's settings: the config's folder, the docs folder, the page's (resolved by MkDocs'
    # placeholders only when the extension uses them, as the pages are converted).
    site = new_site(tmp_path)
    edit(site / "mkdocs.yml", "  - toc:\n", "  - pymdownx.snippets:\n      check_paths: true\n      base_path:\n"
         "        - !relative $config_dir/snippets\n        - !relative $docs_dir\n        - !relative\n  - toc:\n")
    (site / "snippets").mkdir()
    result = zadachnik("check", cwd=site)
    assert result.returncode == 0, result.stderr


WRONG_OPTIONS = {
    "one language code": ("languages: [ru, en]", "languages: en"),
    "no language": ("languages: [ru, en]", "languages: []"),
    "a number for a folder": ("exercises_dir: exercises", "exercises_dir: 5"),
    "a word for a switch": ("languages: [ru, en]", "languages: [ru, en]\n      cache: sometimes"),
}


@pytest.mark.parametrize("name", WRONG_OPTIONS)
def test_a_wrong_option_gets_the_builds_message(name: str, tmp_path: Path, caplog) -> None:
    # The plugin's own schema judges its options, in the check as in the build: one line, naming the file.
    old, new = WRONG_OPTIONS[name]
    site = sample_copy(tmp_path / "site")
    edit(site / "mkdocs.yml", old, new)
    built = build_failure(site / "mkdocs.yml", tmp_path / "built", caplog)
    assert built.startswith("Config value 'plugins': Plugin 'zadachnik' option "), built
    result = zadachnik("check", cwd=site)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr == f"zadachnik check: mkdocs.yml: {built}\n"


def test_an_unknown_option_fails_the_check_as_it_fails_the_strict_build(tmp_path: Path, caplog) -> None:
    """MkDocs takes an unknown option for a warning, which stops a strict build: the check said "fine"."""
    site = sample_copy(tmp_path / "site")
    edit(site / "mkdocs.yml", "exercises_dir: exercises", "exercise_dir: exercises")
    build_failure(site / "mkdocs.yml", tmp_path / "built", caplog)
    said = "Plugin 'zadachnik' option 'exercise_dir': Unrecognised configuration name: exercise_dir"
    assert said in caplog.text
    result = zadachnik("check", cwd=site)
    assert result.returncode == 2, result.stdout + result.stderr
    assert said in result.stderr and "fine" not in result.stdout


def test_offline_zip_without_offline_fails_the_check_as_it_fails_the_build(tmp_path: Path, caplog) -> None:
    site = sample_copy(tmp_path / "site")
    edit(site / "mkdocs.yml", "languages: [ru, en]", "languages: [ru, en]\n      offline_zip: course.zip")
    built = build_failure(site / "mkdocs.yml", tmp_path / "built", caplog)
    assert "'offline_zip' needs 'offline: true' beside it" in built, built
    result = zadachnik("check", cwd=site)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "mkdocs.yml: 'offline_zip' needs 'offline: true' beside it" in result.stderr


def test_one_language_code_gets_the_list_to_write(tmp_path: Path) -> None:
    site = sample_copy(tmp_path / "site")
    edit(site / "mkdocs.yml", "languages: [ru, en]", "languages: en")
    result = zadachnik("check", cwd=site)
    assert "write e.g. 'languages: [en]'" in result.stderr, result.stderr


def bad_answer_key(site: Path) -> None:
    edit(site / INFRA / "quiz.md", "type: single\nanswer: 2\n", "type: single\nanswer: 9\n")


def revealed_answer_contradicts_key(site: Path) -> None:
    # The Russian page reveals 0,5 (a decimal comma), which this checker does not take for the key's 0.5.
    edit(site / INFRA / "quiz.md", '  util: {answer: "(4+4+4+12)/(4*12)"}\n',
         '  util: {answer: "(4+4+4+12)/(4*12)"}\ncheck: |\n  def check(answer):\n'
         '      return answer["fields"]["util"]["text"] == "0.5"\n')


def failing_reference_solution(site: Path) -> None:
    edit(site / INFRA / "quiz.md", "      return total * total / squares\n", "      return total / squares\n")


def checker_accepting_a_wrong_answer(site: Path) -> None:
    edit(site / INFRA / "quiz.md", '  util: {answer: "(4+4+4+12)/(4*12)"}\n',
         '  util: {answer: "(4+4+4+12)/(4*12)"}\ncheck: |\n  def check(answer):\n'
         '      return True\nwrong:\n  - {util: "0.9"}\n')


def bad_formula(site: Path) -> None:
    edit(site / INFRA / "quiz.md", "где 1\u00a0GB = $10^9$\u00a0байт;", "где 1\u00a0GB = $10^{9$\u00a0байт;")


def broken_values_file(site: Path) -> None:
    edit(site / PRETRAINING / "files" / "pretrain_calc.py", "def values() -> dict[str, float]:\n",
         "def values() -> dict[str, float]:\n    1 / 0\n")


def unclosed_html_tag(site: Path) -> None:
    edit(site / INFRA / "quiz.md", "Назовите хотя бы четыре возможные причины и опишите",
         "<div>\n\nНазовите хотя бы четыре возможные причины и опишите")


BROKEN: dict[str, tuple[Callable[[Path], None], str]] = {
    "bad answer key": (bad_answer_key, f"{INFRA}/quiz.md:3: the correct option '9' does not exist"),
    "reveal contradicts key": (revealed_answer_contradicts_key,
                               f"{INFRA}/quiz.md:@check: |@: question P06: its checker rejects the answer its 'ru' "
                               "page reveals ({'fields': {'util': '0,5'}})"),
    "failing reference solution": (failing_reference_solution,
                                   f"{INFRA}/quiz.md:@P08a@: question P08a: the reference solution fails"),
    "checker accepts a wrong answer": (checker_accepting_a_wrong_answer,
                                       f"{INFRA}/quiz.md:@- {{util: \"0.9\"}}@: question P06: its checker accepts "
                                       "{'fields': {'util': '0.9'}}, listed under 'wrong'"),
    "bad formula": (bad_formula, f"{INFRA}/quiz.md:@$10^{{9$@: invalid TeX '10^{{9': "),
    "unclosed HTML tag": (unclosed_html_tag, f"{INFRA}/quiz.md:@Роллаут сгенерирован@: text starting at line "
                          "@Роллаут сгенерирован@ is not closed"),
    "broken values file": (broken_values_file, f"{PRETRAINING}/module.yml:5: cannot read the module's values: "
                           "division by zero (ZeroDivisionError at files/pretrain_calc.py:337)"),
}


def with_lines(expected: str, source: Path) -> str:
    """`expected` with each @P08a@ (a question's id) or @text@ replaced by the line of the broken source it is
    on: the sample course changes, the places stay exact."""
    lines = source.read_text(encoding="utf-8").splitlines()

    def line(match: re.Match[str]) -> str:
        wanted = match[1]
        found = [number for number, text in enumerate(lines, 1)
                 if text == f"/// question | {wanted}" or (not wanted.startswith("P") and wanted in text)]
        assert len(found) == 1, (wanted, found)
        return str(found[0])

    return re.sub(r"@([^@]+)@", line, expected)


@pytest.mark.parametrize("name", BROKEN)
def test_check_reports_what_the_build_reports(name: str, tmp_path: Path, caplog) -> None:
    breakage, expected = BROKEN[name]
    site = sample_copy(tmp_path / "site")
    breakage(site)
    expected = with_lines(expected, site / INFRA / "quiz.md")
    result = zadachnik("check", cwd=site)
    assert result.returncode == 1, result.stdout + result.stderr
    assert expected in result.stderr
    found = problem_lines(result.stderr)
    assert found, result.stderr
    built = build_failure(site / "mkdocs.yml", tmp_path / "built", caplog)
    assert found == problem_lines("\n".join(f"  {line.strip()}" for line in built.splitlines()))


def test_formula_in_code_is_not_a_formula(tmp_path: Path) -> None:
    # As in the build: a code span keeps its dollars, even with the inline patterns after math left out.
    site = sample_copy(tmp_path / "site")
    edit(site / INFRA / "quiz.md", "где 1\u00a0GB = $10^9$\u00a0байт;", "где 1\u00a0GB = `$10^{9$`\u00a0байт;")
    result = zadachnik("check", cwd=site)
    assert result.returncode == 0, result.stderr


CONFIG_MISTAKES = {
    "not YAML": ("site_name: [unclosed\n", "MkDocs encountered an error parsing the configuration file"),
    "not a mapping": ("5\n", "not a mapping of options"),
    "a list, not a mapping": ("- site_name: S\n", "Expected a key-value mapping"),
    "inherits a file that is not there": ("INHERIT: nowhere.yml\nsite_name: S\n",
                                          "Inherited config file 'nowhere.yml' does not exist"),
    "plugins not a list": ("site_name: S\nplugins: 5\n", "Config value 'plugins': Invalid Plugins configuration"),
    "plugin options not a mapping": ("site_name: S\nplugins:\n  - zadachnik: [en]\n",
                                     "Invalid config options for the 'zadachnik' plugin"),
    "unknown extension": ("site_name: S\nmarkdown_extensions:\n  - no_such_extension_here\n",
                          "Config value 'markdown_extensions': Failed to load extension 'no_such_extension_here'. "
                          "ModuleNotFoundError: No module named 'no_such_extension_here'"),
    "unknown Python name": ("site_name: S\nx: !!python/name:no_such_module.thing\n",
                            "MkDocs encountered an error parsing the configuration file"),
}


@pytest.mark.parametrize("name", CONFIG_MISTAKES)
def test_a_config_it_cannot_use_is_one_line_not_a_traceback(name: str, tmp_path: Path) -> None:
    config, expected = CONFIG_MISTAKES[name]
    site = sample_copy(tmp_path / "site")
    (site / "mkdocs.yml").write_text(config, encoding="utf-8")
    result = zadachnik("check", cwd=site)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.startswith("zadachnik check: mkdocs.yml: "), result.stderr
    assert expected in result.stderr and "Traceback" not in result.stderr and '  File "' not in result.stderr


def test_a_package_without_its_katex_says_how_to_reinstall(tmp_path: Path) -> None:
    # In-process, with KaTeX's script pointed elsewhere: the installed package must not lose its files here.
    program = ("import sys\nfrom pathlib import Path\nfrom zadachnik.rendering import mathtex\n"
               "mathtex.shared_katex().katex_js = Path(sys.argv[1])\n"
               "from zadachnik.cli import main\nsys.exit(main(['check', 'exercises']))")
    result = subprocess.run([sys.executable, "-c", program, str(tmp_path / "katex.min.js")], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "lacks its browser files" in result.stderr and "Traceback" not in result.stderr


def test_a_config_that_is_not_there_is_named(tmp_path: Path) -> None:
    result = zadachnik("check", "--config", "nowhere.yml", cwd=ROOT)
    assert result.returncode == 2 and "nowhere.yml: no such file" in result.stderr


def test_check_without_sources_says_so(tmp_path: Path) -> None:
    result = zadachnik("check", cwd=tmp_path)
    assert result.returncode == 2
    assert "is not a folder of course sources" in result.stderr and "Traceback" not in result.stderr


def test_pre_commit_hooks_run_the_check(tmp_path: Path) -> None:
    # Each hook as pre-commit runs it: its entry, with no file names, in the root of the author's repository.
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert {hook["id"] for hook in hooks} == {"zadachnik-check", "zadachnik-check-installed"}
    site = sample_copy(tmp_path / "site")
    bad_formula(site)
    for hook in hooks:
        assert hook["pass_filenames"] is False
        assert re.search(hook["files"], f"{INFRA}/quiz.md") and re.search(hook["files"], "mkdocs.yml")
        command = shlex.split(hook["entry"])
        assert command[0] == "zadachnik"
        assert zadachnik(*command[1:], cwd=ROOT).returncode == 0
        assert zadachnik(*command[1:], cwd=site).returncode == 1


# -- new ---------------------------------------------------------------------------------------------------------


def starter_texts(lang: str) -> dict:
    return yaml.safe_load((STARTER_TEXTS / f"{lang}.yml").read_text(encoding="utf-8"))


def page_words(lang: str) -> dict:
    return yaml.safe_load((WORDS / f"{lang}.yml").read_text(encoding="utf-8"))["page"]


# Each shipped language alone, the default (ru,en) and a mix of two that is not the default; each built once.
STARTER_SITES = {"default": ["ru", "en"], **{lang: [lang] for lang in shipped_languages()}, "es,en": ["es", "en"]}


@pytest.fixture(scope="module", params=STARTER_SITES)
def starter_site(request, tmp_path_factory) -> tuple[list[str], Path, Path]:
    """(languages, the sources `zadachnik new` wrote, the site `mkdocs build --strict` made of them)."""
    languages = STARTER_SITES[request.param]
    folder = tmp_path_factory.mktemp("starter")
    chosen = [] if request.param == "default" else ["--languages", ",".join(languages)]
    result = zadachnik("new", "course", *chosen, cwd=folder)
    assert result.returncode == 0, result.stderr
    assert f"A course site in {', '.join(languages)} is in course" in result.stdout
    return languages, folder / "course", build_site(folder / "course" / "mkdocs.yml", folder / "built")


def test_new_site_builds_strict_with_every_question_type(starter_site: tuple[list[str], Path, Path]) -> None:
    languages, site, built = starter_site
    module = "first-course/01-first-steps"
    # The quiz's sources name every registered type, so a new type without a starter question fails here.
    written = (site / "exercises" / module / "quiz.md").read_text(encoding="utf-8")
    assert set(re.findall(r"^type: (\S+)$", written, flags=re.MULTILINE)) == QUESTION_TYPES
    for lang in languages:
        prefix = "" if lang == languages[0] else f"{lang}/"
        quiz = BeautifulSoup((built / prefix / module / "quiz" / "index.html").read_text(encoding="utf-8"),
                             "html.parser")
        assert {section["data-zq-type"] for section in quiz.select("[data-zq-type]")} == QUESTION_TYPES
        assert '"check"' in quiz.decode(), "the starter has a question with a checker"
        exercises = (built / prefix / module / "exercises" / "index.html").read_text(encoding="utf-8")
        assert "01-first-steps-files.zip" in exercises
    assert (built / module / "01-first-steps-files.zip").is_file()
    home = (built / "index.html").read_text(encoding="utf-8")
    assert "first-steps/quiz/" in home and "zadachnik-courses" not in home, "the home page lists the course"
    # The first language at the root, each other one in its folder.
    assert sorted(path.name for path in built.iterdir() if path.name in shipped_languages()) == sorted(languages[1:])


def test_new_site_is_written_in_its_languages(starter_site: tuple[list[str], Path, Path]) -> None:
    # Each language's pages carry its page words and its texts file's titles: nothing of another language.
    languages, _, built = starter_site
    module = "first-course/01-first-steps"
    for lang in languages:
        prefix = built / ("" if lang == languages[0] else lang)
        texts, words = starter_texts(lang), page_words(lang)
        quiz = BeautifulSoup((prefix / module / "quiz" / "index.html").read_text(encoding="utf-8"), "html.parser")
        assert quiz.html["lang"] == lang
        assert {button.get_text() for button in quiz.select("[data-zq-check]")} == {words["check"]}
        assert words["module"].format(number=1, title=texts["module"]) in quiz.select_one("#zq-title").get_text()
        for block, block_texts in texts["blocks"].items():
            if block.startswith("Q"):
                assert block_texts["title"] in quiz.select_one(f"#q-{block}-title").get_text(), (lang, block)
        exercises = BeautifulSoup((prefix / module / "exercises" / "index.html").read_text(encoding="utf-8"),
                                  "html.parser")
        exercise_title = exercises.select_one("#e-E1-title").get_text()
        assert texts["blocks"]["E1"]["label"] in exercise_title and texts["blocks"]["E1"]["title"] in exercise_title
        home = BeautifulSoup((prefix / "index.html").read_text(encoding="utf-8"), "html.parser")
        assert texts["home"].splitlines()[0].removeprefix("# ") in home.select_one("h1").get_text()
        assert texts["course"] in home.get_text()


def test_new_site_passes_the_check(starter_site: tuple[list[str], Path, Path]) -> None:
    languages, site, _ = starter_site
    result = zadachnik("check", cwd=site)
    assert result.returncode == 0, result.stderr
    assert f"are fine ({', '.join(languages)})" in result.stdout


def test_new_sites_gitignore_names_what_the_commands_write(starter_site: tuple[list[str], Path, Path]) -> None:
    """`zadachnik pdf` writes build/pdf by default, which git then offered to commit next to the sources."""
    _, site, _ = starter_site
    assert set((site / ".gitignore").read_text(encoding="utf-8").split()) == {"site/", ".cache/", "build/"}


def test_the_starter_comes_in_every_shipped_language() -> None:
    # Adding a language to the package is adding its page words and its starter texts, one file each.
    from zadachnik.starter import SUPPORTED

    assert list(SUPPORTED) == shipped_languages()
    english = starter_texts("en")
    for lang in SUPPORTED:
        texts = starter_texts(lang)
        assert texts.keys() == english.keys(), lang
        assert {block: sorted(entry) for block, entry in texts["blocks"].items()} == {
            block: sorted(entry) for block, entry in english["blocks"].items()}, lang


def test_new_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    target = tmp_path / "mine"
    target.mkdir()
    (target / "mkdocs.yml").write_text("site_name: Mine\n", encoding="utf-8")
    result = zadachnik("new", str(target), cwd=tmp_path)
    assert result.returncode == 2
    assert "is not empty" in result.stderr and "overwrites nothing" in result.stderr
    assert [path.name for path in target.iterdir()] == ["mkdocs.yml"]
    assert (target / "mkdocs.yml").read_text(encoding="utf-8") == "site_name: Mine\n"


def test_new_into_a_place_it_cannot_write_says_so(tmp_path: Path) -> None:
    # A file where the folder's parent should be: nothing can be created there.
    (tmp_path / "taken").write_text("a file\n", encoding="utf-8")
    result = zadachnik("new", str(tmp_path / "taken" / "course"), cwd=tmp_path)
    assert result.returncode == 2
    assert "cannot write the starter site" in result.stderr and "Traceback" not in result.stderr


def test_new_refuses_a_language_without_starter_texts(tmp_path: Path) -> None:
    result = zadachnik("new", "course", "--languages", "ru,it", cwd=tmp_path)
    assert result.returncode == 2
    assert "'it'" in result.stderr and "de, en, es, fr, ru" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "course").exists()


@pytest.mark.parametrize(("given", "kind"), [
    ("exercises/first-course", "a course's folder"),
    ("exercises/first-course/01-first-steps", "a module's folder"),
    ("exercises/first-course/01-first-steps/files", "a module's folder"),
])
def test_check_given_a_course_or_module_folder_names_the_folder_to_give(tmp_path: Path, given: str,
                                                                       kind: str) -> None:
    site = new_site(tmp_path)
    result = zadachnik("check", given, cwd=site)
    assert result.returncode == 2, result.stderr
    assert f"{kind}" in result.stderr and "give the folder that holds the courses" in result.stderr, result.stderr
    assert "without course.yml" not in result.stderr


def test_check_of_a_folder_without_courses_says_so(tmp_path: Path) -> None:
    (tmp_path / "stuff").mkdir()
    result = zadachnik("check", "stuff", cwd=tmp_path)
    assert result.returncode == 1 and "holds no course" in result.stderr, result.stdout + result.stderr
    assert "fine" not in result.stdout


def test_check_of_a_site_whose_mkdocs_yml_lacks_the_plugin_says_so(tmp_path: Path) -> None:
    site = new_site(tmp_path)
    config = site / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    start = text.index("  - zadachnik:")
    end = text.index("\n", text.index("languages:", start)) + 1
    config.write_text(text[:start] + text[end:], encoding="utf-8")
    result = zadachnik("check", cwd=site)
    assert result.returncode == 2, result.stderr
    assert "does not use the zadachnik plugin" in result.stderr and "has no language parts" not in result.stderr


def test_new_quotes_a_folder_name_the_shell_would_split(tmp_path: Path) -> None:
    result = zadachnik("new", "курс с пробелом", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "cd 'курс с пробелом'" in result.stdout


def test_new_takes_a_code_in_capitals_as_the_language_it_names(tmp_path: Path) -> None:
    result = zadachnik("new", "course", "--languages", "EN", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "languages: [en]" in (tmp_path / "course" / "mkdocs.yml").read_text(encoding="utf-8")


def test_new_guesses_the_language_meant_by_its_name(tmp_path: Path) -> None:
    result = zadachnik("new", "course", "--languages", "en,german", cwd=tmp_path)
    assert result.returncode == 2
    assert "'german'" in result.stderr and "did you mean 'de'?" in result.stderr
    assert not (tmp_path / "course").exists()


# -- version and help --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("runner", RUNNERS)
def test_version(runner: str, tmp_path: Path) -> None:
    result = zadachnik("--version", cwd=tmp_path, runner=runner)
    assert result.returncode == 0
    assert result.stdout.strip() == f"zadachnik {__version__}"


@pytest.mark.parametrize("command", ["new", "check"])
def test_help_of_each_command(command: str, tmp_path: Path) -> None:
    result = zadachnik(command, "--help", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.startswith(f"usage: zadachnik {command}") and "--languages" in result.stdout


@pytest.mark.parametrize("theme", ["mkdocs", "readthedocs"])
def test_a_theme_other_than_material_fails_the_build_and_the_check(theme: str, tmp_path: Path, caplog) -> None:
    """MkDocs' own themes built without a word, and their pages loaded highlight.js from a CDN: the pages are made
    for mkdocs-material."""
    site = sample_copy(tmp_path / "site")
    edit(site / "mkdocs.yml", "  name: material\n", f"  name: {theme}\n")
    said = f"theme '{theme}': Zadachnik's pages are made for mkdocs-material: write 'name: material' under 'theme:'"
    assert said in build_failure(site / "mkdocs.yml", tmp_path / "built", caplog)
    result = zadachnik("check", cwd=site)
    assert result.returncode == 2, result.stdout + result.stderr
    assert said in result.stderr


def test_a_zip_written_into_the_site_it_packs_leaves_itself_out(tmp_path: Path) -> None:
    """`zadachnik pdf site --zip site/copy.zip`, run twice: the second zip held the first (the serve audit)."""
    from zadachnik.runtime.offline import zip_site

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<p>home</p>", encoding="utf-8")
    for _ in range(2):
        zip_site(site, site / "copy.zip", "site")
    with zipfile.ZipFile(site / "copy.zip") as archive:
        assert archive.namelist() == ["site/index.html"]
