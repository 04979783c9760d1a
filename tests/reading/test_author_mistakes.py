"""A stranger's first course (issue 27): mistakes a new author makes, each answered with the place and what to
write instead, by the build and by `zadachnik check` alike, never with a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support.sites import ROOT, build_failure, build_site, copy_site
from zadachnik.core.errors import SourceErrors
from zadachnik.reading.model import load_courses
from zadachnik.reading.yamlsource import YamlProblem, load_with_lines
from zadachnik.rendering.i18n import (
    WORDS_DIR,
    Vocabulary,
    WordsError,
    language_code_problems,
    number_examples,
    quiz_instruction,
    shipped_languages,
    site_theme_dirs,
    theme_direction_warnings,
    theme_language_warnings,
)

MONOLINGUAL = ROOT / "tests" / "fixtures" / "lang-en"


def check(site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "zadachnik", "check"], cwd=site, capture_output=True, text=True,
                          timeout=120)


def with_languages(site: Path, codes: str) -> None:
    """The site in `codes` ("[it]"), its theme in the first of them, as a site in those languages has it."""
    config = site / "mkdocs.yml"
    first = codes.strip("[]").split(",")[0].strip()
    config.write_text(config.read_text(encoding="utf-8").replace("languages: [en]", f"languages: {codes}")
                      .replace("  language: en\n", f"  language: {first}\n"), encoding="utf-8")


# -- languages ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("codes", "guess"), [(["sp"], "es"), (["german"], "de"), (["EN"], "en")])
def test_a_language_code_the_theme_lacks_is_refused_with_a_guess(codes: list[str], guess: str) -> None:
    problems = language_code_problems(codes, site_theme_dirs(None))
    assert len(problems) == 1
    assert f"'{codes[0]}' is not a language code" in problems[0] and f"did you mean '{guess}'?" in problems[0]
    assert "de, en, es, fr, ru" in problems[0]


def test_codes_the_theme_has_pass_and_a_repeated_one_is_named() -> None:
    assert language_code_problems(["ru", "en", "pt-BR", "zh-Hant"], site_theme_dirs(None)) == []
    twice = language_code_problems(["es", "es"], site_theme_dirs(None))
    assert twice == ["'es' is named twice: name each language once"]


def test_a_language_of_the_sites_own_overrides_is_taken(tmp_path: Path) -> None:
    overrides = tmp_path / "overrides"
    (overrides / "partials" / "languages").mkdir(parents=True)
    (overrides / "partials" / "languages" / "qya.html").write_text("{% macro t(key) %}{% endmacro %}\n")
    assert language_code_problems(["qya"], site_theme_dirs(overrides)) == []
    assert language_code_problems(["qya"], site_theme_dirs(None))


def test_an_unknown_language_fails_the_build_and_the_check_naming_the_option(tmp_path: Path, caplog) -> None:
    site = copy_site(MONOLINGUAL, tmp_path / "site")
    with_languages(site, "[sp]")
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert "mkdocs.yml: the zadachnik plugin's 'languages': 'sp' is not a language code" in message
    assert "did you mean 'es'?" in message and "TemplateNotFound" not in message
    result = check(site)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "mkdocs.yml: the zadachnik plugin's 'languages': 'sp' is not a language code" in result.stderr
    assert "fine" not in result.stdout and "Traceback" not in result.stderr


def test_an_exercises_dir_that_is_no_folder_fails_the_build_and_the_check_alike(tmp_path: Path, caplog) -> None:
    """A typo there built a site with no course at all, strictly and without a word, where the check refused."""
    site = copy_site(MONOLINGUAL, tmp_path / "site")
    config = site / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("exercises_dir: exercises", "exercises_dir: exercise"),
                      encoding="utf-8")
    expected = "mkdocs.yml: the zadachnik plugin's 'exercises_dir': 'exercise' is no folder beside mkdocs.yml"
    message = build_failure(config, tmp_path / "out", caplog)
    assert expected in message and "did you mean 'exercises'?" in message, message
    result = check(site)
    assert result.returncode == 2, result.stdout + result.stderr
    assert expected in result.stderr and "did you mean 'exercises'?" in result.stderr
    assert "fine" not in result.stdout and "Traceback" not in result.stderr


@pytest.mark.parametrize("written", ["docs/exercises", "docs"])
def test_an_exercises_dir_inside_docs_dir_fails_the_build_and_the_check(tmp_path: Path, caplog, written: str) -> None:
    """MkDocs published every source there as a page, answer keys included, with a strict build and a fine check."""
    import shutil

    site = copy_site(MONOLINGUAL, tmp_path / "site")
    if written == "docs/exercises":
        shutil.move(site / "exercises", site / "docs" / "exercises")
    config = site / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("exercises_dir: exercises",
                                                                 f"exercises_dir: {written}"), encoding="utf-8")
    expected = (f"mkdocs.yml: the zadachnik plugin's 'exercises_dir': '{written}' is inside docs_dir (docs), "
                "whose every file MkDocs publishes, answer keys included")
    message = build_failure(config, tmp_path / "out", caplog)
    assert expected in message and "move the folder beside docs/" in message, message
    result = check(site)
    assert result.returncode == 2, result.stdout + result.stderr
    assert expected in result.stderr and "move the folder beside docs/" in result.stderr, result.stderr
    assert "fine" not in result.stdout and "Traceback" not in result.stderr


@pytest.mark.parametrize("page", ["quiz.md", "book.md"])
def test_a_hand_written_page_where_a_generated_one_goes_fails_the_build_and_the_check(tmp_path: Path, caplog,
                                                                                    page: str) -> None:
    """The generated page replaced the author's own without a word (an INFO DeprecationWarning at most)."""
    site = copy_site(MONOLINGUAL, tmp_path / "site")
    mine = site / "docs" / "units" / "01-measures" / page
    mine.parent.mkdir(parents=True)
    mine.write_text("# About this module\n", encoding="utf-8")
    expected = (f"docs/units/01-measures/{page}: a hand-written page where Zadachnik puts a page of the module "
                "exercises/units/01-measures")
    message = build_failure(site / "mkdocs.yml", tmp_path / "out", caplog)
    assert expected in message and "rename or move your page" in message, message
    result = check(site)
    assert result.returncode == 1, result.stdout + result.stderr
    assert expected in result.stderr and "Traceback" not in result.stderr, result.stderr


def test_a_refused_code_names_guesses_and_zadachniks_languages_not_every_theme_code() -> None:
    [problem] = language_code_problems(["sp"], site_theme_dirs(None))
    assert "did you mean 'es'?" in problem and "de, en, es, fr, ru" in problem
    # The theme's other codes (some 60) are counted, not listed.
    assert "zh-Hant" not in problem and "ku-IQ" not in problem and len(problem) < 300, problem


@pytest.mark.parametrize("codes", ["[en]", None])
def test_a_theme_language_the_theme_lacks_fails_the_build_and_the_check_naming_the_option(
        tmp_path: Path, caplog, codes: str | None) -> None:
    site = copy_site(MONOLINGUAL, tmp_path / "site")
    config = site / "mkdocs.yml"
    text = config.read_text(encoding="utf-8").replace("  language: en\n", "  language: sp\n")
    if codes is None:
        # No `languages`: the plugin's default ones.
        text = text.replace("      languages: [en]\n", "")
    config.write_text(text, encoding="utf-8")
    message = build_failure(config, tmp_path / "out", caplog)
    expected = "mkdocs.yml: the theme's 'language': 'sp' is not a language code mkdocs-material knows"
    assert expected in message and "did you mean 'es'?" in message, message
    assert "TemplateNotFound" not in message
    result = check(site)
    assert result.returncode == 2, result.stdout + result.stderr
    assert expected in result.stderr and "did you mean 'es'?" in result.stderr
    assert "fine" not in result.stdout and "Traceback" not in result.stderr


def test_a_language_without_page_words_is_reported_by_the_check_as_by_the_strict_build(tmp_path: Path,
                                                                                       caplog) -> None:
    site = copy_site(MONOLINGUAL, tmp_path / "site")
    with_languages(site, "[it]")
    with pytest.raises(Exception):  # noqa: B017 - MkDocs' Abort for warnings in strict mode
        build_site(site / "mkdocs.yml", tmp_path / "out")
    [warning] = [record.getMessage().removeprefix("zadachnik: ") for record in caplog.records
                 if "of its words for 'it'" in record.getMessage()]
    result = check(site)
    assert result.returncode == 1, result.stdout + result.stderr
    assert warning in result.stderr and "fine" not in result.stdout
    # Given under `words: it:`, as the message says, the words are there and the check is content.
    config = site / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "      words:\n        it: it.yml\n", encoding="utf-8")
    (site / "it.yml").write_text((WORDS_DIR / "en.yml").read_text(encoding="utf-8"), encoding="utf-8")
    result = check(site)
    assert result.returncode == 0 and "fine (it)" in result.stdout, result.stdout + result.stderr


# -- YAML as authors write it ---------------------------------------------------------------------------------

NUMERIC = """/// question | Q1 | Una cuerda
type: numeric
fields:
  x1: {field}

Una cuerda de 9,5 m se corta en dos. ¿Cuánto mide cada trozo?

fields:
- x1: Longitud

explanation:
La mitad de 9,5 m.
///
"""


def source_errors(base: Path, quiz: str, languages: tuple[str, ...] = ("es",)) -> list[str]:
    folder = base / "exercises" / "c" / "01-m"
    folder.mkdir(parents=True)
    (folder.parent / "course.yml").write_text("id: c\ntitle: Curso\nmodules: 1\n", encoding="utf-8")
    (folder / "module.yml").write_text("number: 1\ntitle: Cuerdas\n", encoding="utf-8")
    (folder / "quiz.md").write_text(quiz, encoding="utf-8")
    with pytest.raises(SourceErrors) as info:
        load_courses(base / "exercises", list(languages), base)
    return [str(error) for error in info.value.errors]


@pytest.mark.parametrize(("field", "written", "meant"), [
    ("{answer: 4.75, atol: 0,0005}", "0,0005", "0.0005"),
    ("{answer: 4,75, atol: 0.01}", "4,75", "4.75"),
    ('{answer: "4,75", atol: 0.01}', "4,75", "4.75"),
    ("{answer: 4.75, atol: '0,01'}", "0,01", "0.01"),
    ("{answer: 45/2,5, atol: 0.01}", "45/2,5", "45/2.5"),
])
def test_a_decimal_comma_in_a_key_says_to_write_a_point(tmp_path: Path, field: str, written: str, meant: str) -> None:
    [error] = source_errors(tmp_path, NUMERIC.replace("{field}", field))
    assert error.startswith("exercises/c/01-m/quiz.md:4: "), error
    assert f"'{written}'" in error and "decimal point" in error and f"write {meant}" in error
    assert "unknown key" not in error and "not plain arithmetic" not in error


@pytest.mark.parametrize(("field", "reads_as", "advice"), [
    # YAML 1.1 reads digits joined by colons as a number in base 60 (a time): a ratio became 967.
    ("{answer: 16:7, atol: 0.001}", "967", '"16/7"'),
    ("\n    answer: 1:30", "90", '"1/30"'),
    ("{answer: 2:30.5}", "150.5", "in quotes"),
    # and a leading zero as octal.
    ("{answer: 010}", "8", "write 10"),
    ("\n    answer: -0755", "-493", "write -755"),
])
def test_a_number_yaml_reads_in_base_60_or_8_is_refused_with_what_it_became(tmp_path: Path, field: str,
                                                                            reads_as: str, advice: str) -> None:
    [error] = source_errors(tmp_path, NUMERIC.replace("{field}", field))
    assert error.startswith("exercises/c/01-m/quiz.md:"), error
    assert f"reads in YAML as {reads_as}" in error and advice in error, error


def test_every_sources_yaml_refuses_a_time_and_keeps_the_numbers_it_means() -> None:
    """module.yml's `time_limit: 1:30` was 90 minutes, whatever the author meant by it."""
    data, _ = load_with_lines("time_limit: 90\nzero: 0\nhex: 0x1F\nquoted: '16:7'\nclock: '010'\nbig: 1_000\n")
    assert data == {"time_limit": 90, "zero": 0, "hex": 31, "quoted": "16:7", "clock": "010", "big": 1000}
    with pytest.raises(YamlProblem, match="reads in YAML as 90") as info:
        load_with_lines("number: 1\nmode: exam\ntime_limit: 1:30\n")
    assert info.value.line_offset == 2


GROUP_OR_DECIMAL = "write 2.629 for a decimal, or 2629 if the comma groups thousands"


@pytest.mark.parametrize(("field", "says"), [
    # Three digits after the comma: a decimal comma or a group of thousands, so both readings are said.
    ("{answer: 2,629}", GROUP_OR_DECIMAL),
    ("{answer: 2,629, atol: 0.01}", GROUP_OR_DECIMAL),
    ("{answer: '2,629'}", GROUP_OR_DECIMAL),
    ("\n    answer: 2,629", GROUP_OR_DECIMAL),
    # A point after the comma, or several commas: the commas group thousands.
    ("{answer: 1,000.5}", "write 1000.5"),
    ("{answer: 1,000.5, atol: 0.1}", "write 1000.5"),
    ("\n    answer: 1,000.5", "write 1000.5"),
    ("{answer: 1,000,000}", "write 1000000"),
    # Other than three digits, or a leading zero: a decimal comma only.
    ("{answer: 0,500}", "write 0.500"),
    ("{answer: 12,5}", "write 12.5"),
])
def test_a_comma_in_a_number_says_each_reading_it_may_have(tmp_path: Path, field: str, says: str) -> None:
    [error] = source_errors(tmp_path, NUMERIC.replace("{field}", field))
    assert says in error, error
    assert "unknown key" not in error and error.count(" (") <= 1 and error.count("write ") == 1, error


@pytest.mark.parametrize("field", ["{answer: 79.5,5}", "{answer: '79.5,5'}", "\n    answer: 79.5,5",
                                   "{answer: 1,5,7}"])
def test_a_number_with_a_comma_that_reads_no_way_gets_no_advice_to_write_a_non_number(tmp_path: Path,
                                                                                       field: str) -> None:
    [error] = source_errors(tmp_path, NUMERIC.replace("{field}", field))
    assert "79.5.5" not in error and "1.5.7" not in error and "1.57" not in error, error
    assert "no comma" in error and "unknown key" not in error, error


@pytest.mark.parametrize("field", ["\n    answer: 4.75\n    atol: 0,0005", "\n    answer: 4,75\n    atol: 0.01",
                                   "{answer: 4.75, atol: '0,0005'}"])
def test_a_decimal_comma_in_block_style_gets_one_hint(tmp_path: Path, field: str) -> None:
    [error] = source_errors(tmp_path, NUMERIC.replace("{field}", field))
    assert "has a decimal comma" in error and error.count("write") == 1 and error.endswith(")"), error
    assert "e.g." not in error and "such as" not in error, error


YAML_SLIPS = {
    "a colon in a text": ("type: numeric\nhint_note: Método: Newton", "put the whole text in quotes"),
    "a tab": ("type: numeric\n\tauto: true", "replace the tab by spaces"),
    "an unclosed quote": ("type: numeric\nexplanation_title: 'Método", "never closed"),
    "TeX in double quotes": ('type: numeric\nunit: "$\\frac{m}{s}$"', "single quotes"),
}


@pytest.mark.parametrize("name", YAML_SLIPS)
def test_a_yaml_slip_says_what_to_write(tmp_path: Path, name: str) -> None:
    yaml_text, expected = YAML_SLIPS[name]
    quiz = NUMERIC.replace("type: numeric", yaml_text).replace("{field}", "{answer: 4.75, atol: 0.01}")
    errors = source_errors(tmp_path, quiz)
    assert len(errors) == 1, errors
    assert errors[0].startswith("exercises/c/01-m/quiz.md:"), errors[0]
    assert expected in errors[0]


def test_a_new_line_in_double_quotes_outside_formulas_stays_a_new_line() -> None:
    data, _ = load_with_lines('a: "one\\ntwo"\nb: "$x$ \\\\frac"\n')
    assert data == {"a": "one\ntwo", "b": "$x$ \\frac"}


# -- the page's own words ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", shipped_languages())
def test_the_instruction_shows_each_way_of_writing_a_number_once(lang: str) -> None:
    examples = number_examples(lang)
    assert len(set(examples)) == len(examples) >= 2, examples
    instruction = quiz_instruction(lang, [lang])
    for example in examples:
        assert instruction.count(example) == 1, instruction


def test_spanish_shows_a_grouped_number_its_locale_groups() -> None:
    assert number_examples("es") == ["26.290,7", "26290,7"]
    assert number_examples("en") == ["2,629.07", "2629.07"]


def test_a_colon_in_a_section_title_says_to_quote_it(tmp_path: Path) -> None:
    quiz = "/// section | 1.1\nMétodo: Newton\n///\n\n" + NUMERIC.replace("{field}", "{answer: 4.75, atol: 0.01}")
    [error] = source_errors(tmp_path, quiz)
    assert error == ("exercises/c/01-m/quiz.md:2: the section title 'Método: Newton' holds ': ', which YAML reads "
                     "as a key and its value (put the title in quotes: \"Método: Newton\")")
    # Quoted, as the message says, it is the title.
    (tmp_path / "exercises/c/01-m/quiz.md").write_text(quiz.replace("Método: Newton", '"Método: Newton"'))
    [course] = load_courses(tmp_path / "exercises", ["es"], tmp_path)
    assert course.modules[0].quiz[0].title["es"].markdown == "Método: Newton"


# -- answers from the module's values (item 4) ------------------------------------------------------------------

VALUES = "def values():\n    return {'L': 9.5, 'parts': 2}\n"


def module_with_values(base: Path, field: str, values: str | None = VALUES) -> Path:
    folder = base / "exercises" / "c" / "01-m"
    folder.mkdir(parents=True)
    (folder.parent / "course.yml").write_text("id: c\ntitle: Curso\nmodules: 1\n", encoding="utf-8")
    meta = "number: 1\ntitle: Cuerdas\n"
    if values is not None:
        (folder / "calc.py").write_text(values, encoding="utf-8")
        meta += "values: calc.py\n"
    (folder / "module.yml").write_text(meta, encoding="utf-8")
    (folder / "quiz.md").write_text(NUMERIC.replace("{field}", field).replace("9,5 m", "{{ L }} m"),
                                    encoding="utf-8")
    return base


def load_errors(base: Path) -> list[str]:
    with pytest.raises(SourceErrors) as info:
        load_courses(base / "exercises", ["es"], base)
    return [str(error) for error in info.value.errors]


def test_a_numeric_answer_computes_with_the_modules_values(tmp_path: Path) -> None:
    module_with_values(tmp_path, '{answer: "L/parts", atol: "L/1000"}')
    [course] = load_courses(tmp_path / "exercises", ["es"], tmp_path)
    [question] = course.modules[0].quiz
    [field] = question.key.fields
    assert (field.value, field.atol) == (4.75, 0.0095)
    assert question.body["es"].markdown.startswith("Una cuerda de 9,5 m")


def test_an_answer_naming_a_value_the_module_lacks_says_which_it_has(tmp_path: Path) -> None:
    module_with_values(tmp_path, '{answer: "Lenght/parts", atol: 0.01}')
    [error] = load_errors(tmp_path)
    assert error.startswith("exercises/c/01-m/quiz.md:4: 'Lenght' in 'Lenght/parts' is not a name of the "
                            "module's values"), error
    assert "did you mean 'L'?" in error or "L, parts" in error


def test_an_answer_with_names_in_a_module_without_values_says_to_name_a_file(tmp_path: Path) -> None:
    module_with_values(tmp_path, '{answer: "L/parts", atol: 0.01}', values=None)
    errors = load_errors(tmp_path)
    # {{ L }} in the text is reported on its own; the answer's names at the answer's line.
    [error] = [error for error in errors if "L/parts" in error]
    assert error.startswith("exercises/c/01-m/quiz.md:4: 'L' in 'L/parts' is not plain arithmetic"), error
    assert "name a values file in exercises/c/01-m/module.yml ('values: files/values.py'" in error
    assert "returns {'L': …}" in error


def test_a_values_figure_that_breaks_an_answer_is_reported_at_the_answer(tmp_path: Path) -> None:
    module_with_values(tmp_path, '{answer: "L/(parts-2)", atol: 0.01}')
    [error] = load_errors(tmp_path)
    assert error.startswith("exercises/c/01-m/quiz.md:4: 'L/(parts-2)' divides by zero"), error
    assert "values() returns" in error


# -- characters an author cannot see ---------------------------------------------------------------------------

CHOICE = """/// question | Q1 | Un primo
type: single
answer: B

¿Cuál es primo?

options:
A. 21
B. 23
C. 27

explanation:
23 solo se divide entre 1 y 23.
///
"""


@pytest.mark.parametrize(("quiz", "line", "named"), [
    # A Russian keyboard's С and В look like the Latin C and B.
    (CHOICE.replace("C. 27", "\u0421. 27"), 10, "'\u0421' is cyrillic capital letter es (U+0421), not a Latin letter"),
    (CHOICE.replace("answer: B", "answer: \u0412"), 3, "'\u0412' is cyrillic capital letter ve (U+0412), not a Latin"),
    (CHOICE.replace("type: single", "type: singl\u0435"), 2,
     "'singl\u0435' mixes Latin letters with \u0435, cyrillic small letter ie (U+0435)"),
    (CHOICE.replace("type: single", "typ\u0435: single"), 2,
     "'typ\u0435' mixes Latin letters with \u0435, cyrillic small letter ie (U+0435)"),
    (CHOICE.replace("| Q1 |", "| Q1\u200b |"), 1, "'Q1\u200b' holds an invisible zero width space (U+200B) after 'Q1'"),
    (NUMERIC.replace("  x1: {field}", "  x\u04371: {answer: 4.75, atol: 0.01}"), 4,
     "'x\u04371' mixes Latin letters with \u0437, cyrillic small letter ze (U+0437)"),
])
def test_a_look_alike_or_invisible_character_is_named(tmp_path: Path, quiz: str, line: int, named: str) -> None:
    [error] = source_errors(tmp_path, quiz)
    assert error.startswith(f"exercises/c/01-m/quiz.md:{line}: "), error
    assert named in error, error


def test_a_misspelt_type_key_is_named_rather_than_a_missing_type(tmp_path: Path) -> None:
    [error] = source_errors(tmp_path, CHOICE.replace("type: single", "tipe: single"))
    assert error.startswith("exercises/c/01-m/quiz.md:2: unknown key 'tipe'"), error
    assert "did you mean 'type'?" in error


def test_a_label_in_another_script_is_not_called_a_look_alike(tmp_path: Path) -> None:
    quiz = NUMERIC.replace("- x1: Longitud", "- x2: Длина v")
    [error] = source_errors(tmp_path, quiz)
    assert "mixes" not in error and "U+" not in error, error


# -- the theme's language and the site's (the languages audit) ---------------------------------------------------


def test_a_regional_code_takes_the_words_of_its_language() -> None:
    vocabulary = Vocabulary.of(["es-MX", "de_AT"])
    assert vocabulary.missing == {}
    assert vocabulary.words["es-MX"]["page"]["check"] == Vocabulary.of(["es"]).words["es"]["page"]["check"]
    # Its own name, not its language's: a site in es and es-MX tells them apart in the selector.
    assert "language_name" not in vocabulary.words["es-MX"]["page"]


@pytest.mark.parametrize(("written", "meant"), [
    ("zh-Hans", "zh"), ("zh-CN", "zh"), ("zh_CN", "zh"), ("en-GB", "en"), ("en_GB", "en"), ("en-US", "en"),
    ("de-DE", "de"), ("fr-CA", "fr"), ("ar-EG", "ar"), ("pt_BR", "pt-BR"), ("pt-br", "pt-BR"), ("zh_TW", "zh-TW"),
])
def test_a_code_with_a_region_the_theme_lacks_is_told_its_language(written: str, meant: str) -> None:
    [problem] = language_code_problems([written], site_theme_dirs(None))
    assert f"did you mean '{meant}'?" in problem, problem


@pytest.mark.parametrize(("theme", "languages", "written", "says"), [
    ("de", ["ru", "en"], False, "write 'languages: [de]'"),
    ("en", ["de"], True, "write 'language: de' under 'theme:'"),
    ("ru", ["ru", "en"], True, None),
    ("ru", ["ru", "en"], False, None),
    (None, ["de"], True, None),
    ("custom", ["de"], True, None),
])
def test_a_theme_language_that_is_not_the_sites_first_is_named(theme: str | None, languages: list[str],
                                                               written: bool, says: str | None) -> None:
    warnings = theme_language_warnings(theme, languages, written)
    assert (warnings[0] if warnings else None) is None if says is None else says in warnings[0]


@pytest.mark.parametrize(("direction", "languages", "turned"), [
    ("rtl", ["ar", "en"], "en"),
    ("rtl", ["en", "he"], "en"),
    ("ltr", ["ar", "en"], "ar"),
    ("rtl", ["ar", "fa"], None),
    ("ltr", ["ru", "en"], None),
    (None, ["ar", "en"], None),
])
def test_a_theme_direction_that_turns_other_languages_pages_is_named(direction: str | None, languages: list[str],
                                                                     turned: str | None) -> None:
    """mkdocs-material gives every page the theme's `direction`, as its docs tell right-to-left sites to set: on
    an Arabic and English site the English pages were right to left, without a word."""
    warnings = theme_direction_warnings(direction, languages)
    if turned is None:
        assert warnings == []
    else:
        assert len(warnings) == 1 and f"the pages in {turned} are written {direction}" in warnings[0]
        assert "leave 'direction' out under 'theme:'" in warnings[0]


def test_the_check_names_a_theme_direction_too(tmp_path: Path) -> None:
    site = copy_site(MONOLINGUAL, tmp_path / "site")
    config = site / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("  language: en\n", "  language: en\n  direction: rtl\n", 1), encoding="utf-8")
    result = check(site)
    assert result.returncode == 1 and "the pages in en are written rtl" in result.stderr, result.stderr


def test_the_check_names_a_theme_language_the_default_languages_ignore(tmp_path: Path) -> None:
    site = copy_site(MONOLINGUAL, tmp_path / "site")
    config = site / "mkdocs.yml"
    text = config.read_text(encoding="utf-8").replace("      languages: [en]\n", "")
    config.write_text(text.replace("  language: en\n", "  language: de\n", 1), encoding="utf-8")
    result = check(site)
    assert result.returncode == 1 and "write 'languages: [de]'" in result.stderr, result.stderr


def test_a_counted_word_takes_a_form_for_each_plural_category() -> None:
    """Polish says 4 "cyfry" but 5 "cyfr": a word the page counts with may be given for each of CLDR's
    categories, and every category the browser may ask for is on the page, the word's plain form otherwise."""
    vocabulary = Vocabulary.of(["pl", "ru"], {"pl": {"significant": "{count} cyfr znaczących",
                                                   "significant_one": "{count} cyfry znaczącej",
                                                   "significant_few": "{count} cyfry znaczące"}})
    polish, russian = vocabulary.words["pl"]["runtime"], vocabulary.words["ru"]["runtime"]
    assert polish["significant_few"] == "{count} cyfry znaczące"
    assert polish["significant_many"] == polish["significant_other"] == "{count} cyfr znaczących"
    assert polish["significant_one"] == "{count} cyfry znaczącej"
    for category in ("zero", "one", "two", "few", "many", "other"):
        assert f"decimals_{category}" in russian and f"correct_after_hints_{category}" in russian
    assert russian["decimals_few"] == russian["decimals"]


def test_a_plural_form_of_a_word_that_is_not_counted_is_refused() -> None:
    with pytest.raises(WordsError, match="'check_few' is not a Zadachnik word"):
        Vocabulary.of(["pl"], {"pl": {"check_few": "Sprawdź"}})
