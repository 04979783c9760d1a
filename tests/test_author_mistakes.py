"""A stranger's first course (issue 27): mistakes a new author makes, each answered with the place and what to
write instead, by the build and by `zadachnik check` alike, never with a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, build_failure, copy_site
from zadachnik.rendering.i18n import language_code_problems, site_theme_dirs

MONOLINGUAL = ROOT / "tests" / "fixtures" / "lang-en"


def check(site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "zadachnik", "check"], cwd=site, capture_output=True, text=True,
                          timeout=120)


def with_languages(site: Path, codes: str) -> None:
    config = site / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("languages: [en]", f"languages: {codes}"),
                      encoding="utf-8")


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
