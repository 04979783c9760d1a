"""Page words are data: one file per language in the package, complete and alike, which a site overrides word by
word or extends by a whole language from mkdocs.yml; names of languages, lists and plurals come from CLDR."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import yaml
from babel import Locale
from bs4 import BeautifulSoup
from support.sites import FIXTURE_SITE, build_failure, build_site, copy_site
from zadachnik.rendering import i18n

SHIPPED = ["de", "en", "es", "fr", "ru"]
QUIZ = "demo/01-basics/quiz/index.html"
EXERCISES = "demo/01-basics/exercises/index.html"
# Counts whose plural categories cover every one CLDR gives these languages (fr and es: "many" for millions).
COUNTS = [*range(0, 202), 1_000_000, 2_000_000, 10_000_000]


def test_the_package_ships_the_five_languages() -> None:
    assert i18n.shipped_languages() == SHIPPED


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_language_has_every_word_with_the_same_placeholders(lang: str) -> None:
    english, words = i18n.shipped("en"), i18n.shipped(lang)
    assert words is not None and english is not None
    assert list(words) == list(i18n.SECTIONS)
    for section in ("page", "runtime"):
        assert set(words[section]) == set(english[section]), section
        for key, text in words[section].items():
            assert isinstance(text, str) and text.strip(), f"{lang}.yml {section}.{key} is empty"
            assert i18n.placeholders(text) == i18n.placeholders(english[section][key]), f"{lang}.yml {key}"
    assert set(words["file_kinds"]) == set(english["file_kinds"])
    categories = {Locale.parse(lang).plural_form(count) for count in COUNTS}
    for kind, forms in words["file_kinds"].items():
        assert categories <= set(forms), f"{lang}.yml file_kinds.{kind} lacks {categories - set(forms)}"


def test_the_check_of_placeholders_can_fail() -> None:
    assert i18n.placeholders("Checked {checked} / {total}") == {"checked", "total"}
    assert i18n.placeholders("Checked {checked}") != i18n.placeholders("Checked {checked} / {total}")


@pytest.mark.parametrize("code, name", [("ru", "Русский"), ("en", "English"), ("de", "Deutsch"),
                                        ("fr", "Français"), ("es", "Español")])
def test_language_names_are_the_locales_own(code: str, name: str) -> None:
    i18n.use_words(["en", code])
    assert i18n.language_name(code) == name


def test_language_lists_and_plurals_follow_the_page_language() -> None:
    i18n.use_words(["ru", "en", "fr"])
    assert i18n.language_list(["ru", "en", "fr"], "en") == "Russian, English, and French"
    assert i18n.language_list(["ru", "en", "fr"], "ru") == "русский, английский и французский"
    assert i18n.files_contents({"notebooks": 4, "texts": 1}, "ru") == "4 ноутбука и 1 текстовый файл"
    assert i18n.files_contents({"notebooks": 5}, "ru") == "5 ноутбуков"
    assert i18n.files_contents({"notebooks": 1, "code": 2}, "fr").startswith("1 notebook et 2 ")


def test_the_instruction_speaks_of_languages_only_on_a_site_with_several() -> None:
    i18n.use_words(["en"])
    alone = i18n.quiz_instruction("en", ["en"])
    assert "stay in this browser." in alone and "versions" not in alone and "Russian" not in alone
    i18n.use_words(["en", "de"])
    assert "in English and German" in i18n.quiz_instruction("en", ["en", "de"])
    assert "Englisch und Deutsch" in i18n.exercises_instruction("de", ["en", "de"])


def with_options(tmp_path: Path, options: str) -> Path:
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    config = site / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("      languages: [ru, en]\n",
                                                                 "      languages: [ru, en]\n" + options),
                      encoding="utf-8")
    return config


def test_a_site_overrides_single_words(tmp_path: Path) -> None:
    config = with_options(tmp_path, "      words:\n        en: {check: Submit, page: {reveal: Show the answer}}\n")
    site = build_site(config, tmp_path / "site")
    english = BeautifulSoup((site / "en" / QUIZ).read_text(encoding="utf-8"), "html.parser")
    assert english.select_one("[data-zq-check]").get_text(strip=True) == "Submit"
    assert "Show the answer" in english.get_text()
    russian = BeautifulSoup((site / QUIZ).read_text(encoding="utf-8"), "html.parser")
    assert russian.select_one("[data-zq-check]").get_text(strip=True) == "Проверить"


def test_a_word_that_does_not_exist_is_named(tmp_path: Path, caplog) -> None:
    config = with_options(tmp_path, "      words:\n        en: {chek: Submit}\n")
    message = build_failure(config, tmp_path / "site", caplog)
    assert "mkdocs.yml: words: en: 'chek' is not a Zadachnik word" in message


def test_a_word_with_a_placeholder_of_another_is_refused(tmp_path: Path, caplog) -> None:
    config = with_options(tmp_path, "      words:\n        en: {progress: \"Done {done}\"}\n")
    message = build_failure(config, tmp_path / "site", caplog)
    assert "progress: {done} is not filled in here" in message and "{checked}" in message


def test_a_whole_language_from_a_file_and_english_for_what_it_lacks(tmp_path: Path, caplog) -> None:
    """A language the package lacks: the site's file gives some words, English the rest, with one warning."""
    config = with_options(tmp_path, "      words:\n        en: words-en.yml\n")
    english = yaml.safe_load((Path(i18n.WORDS_DIR) / "en.yml").read_text(encoding="utf-8"))
    english["page"]["check"] = "Try it"
    (config.parent / "words-en.yml").write_text(yaml.safe_dump(english, allow_unicode=True), encoding="utf-8")
    site = build_site(config, tmp_path / "site")
    page = BeautifulSoup((site / "en" / QUIZ).read_text(encoding="utf-8"), "html.parser")
    assert page.select_one("[data-zq-check]").get_text(strip=True) == "Try it"

    i18n.shipped.cache_clear()
    with caplog.at_level(logging.WARNING):
        missing = i18n.use_words(["en", "uk"], {"uk": {"check": "Перевірити"}})
    assert "check" not in missing["uk"] and "reveal" in missing["uk"] and "en" not in missing
    assert i18n.strings("uk")["check"] == "Перевірити" and i18n.strings("uk")["reveal"] == "Answer and explanation"


def test_missing_words_warn_once_and_fail_a_strict_build(tmp_path: Path, caplog) -> None:
    config = with_options(tmp_path, "      words:\n        en: {check: Submit}\n")
    config.write_text(config.read_text(encoding="utf-8").replace("languages: [ru, en]", "languages: [ru, en, uk]"),
                      encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        with pytest.raises(Exception):  # noqa: B017 - MkDocs' Abort for warnings in strict mode
            build_site(config, tmp_path / "site")
    warnings = [record.getMessage() for record in caplog.records if "of its words for 'uk'" in record.getMessage()]
    assert len(warnings) == 1 and "words: uk:" in warnings[0]
    # Where to start from: the package's English words, all of them.
    shipped = str(i18n.WORDS_DIR / "en.yml")
    assert shipped in warnings[0] and Path(shipped).is_file()


def test_sizes_are_kibibytes_in_every_language() -> None:
    i18n.use_words(SHIPPED)
    for lang in SHIPPED:
        assert i18n.file_size(2048, lang).endswith("\u00a0" + i18n.strings(lang)["kibibytes"])
    assert i18n.strings("en")["kibibytes"] == "KiB"


@pytest.fixture(autouse=True)
def restore_words():
    yield
    i18n.shipped.cache_clear()
    i18n.use_words(i18n.shipped_languages())
