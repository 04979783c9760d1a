"""The words of the page furniture, per language: data files in words/, one per language, which a site can
override word by word or extend by whole languages. Names of languages, lists ("A, B and C") and plural forms come
from the locale data of Babel (CLDR), not from tables written here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from string import Formatter
from typing import Any

import yaml
from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from babel.numbers import format_decimal

from zadachnik.core.errors import SourceError
from zadachnik.core.formatting import format_number
from zadachnik.reading.source import read_source

WORDS_DIR = Path(__file__).parent / "words"
# "editor": the code editor's own messages (Ace's), by Ace's ids, for the runtime to hand it.
SECTIONS = ("page", "runtime", "file_kinds", "editor")
# Missing words in any language come from here.
FALLBACK = "en"
# What a number in an instruction or a message example looks like: written the page's way by the formatter.
EXAMPLE_NUMBER = 2629.07


class WordsError(ValueError):
    """A site's own words that can't be used: the message names the place and what to write."""


@cache
def shipped(lang: str) -> dict[str, dict[str, Any]] | None:
    """The words the package ships for `lang`, or None."""
    path = WORDS_DIR / f"{lang}.yml"
    if not path.is_file():
        return None
    # libyaml's loader where PyYAML has it: the pure-Python one costs every build some 30 ms for these files.
    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def base_language(code: str) -> str:
    """The language of a code with a region or script: 'es-MX' and 'es_MX' → 'es'."""
    return code.replace("_", "-").split("-")[0]


def regional(lang: str) -> dict[str, dict[str, Any]] | None:
    """The words shipped for `lang`, or for its language ('es-MX' takes Spanish's), less the language's name,
    which Babel gives the regional code ("español (México)"), so that a site in both tells them apart."""
    own = shipped(lang)
    if own is not None or base_language(lang) == lang:
        return own
    words = shipped(base_language(lang))
    if words is None:
        return None
    return {**words, "page": {key: text for key, text in words["page"].items() if key != "language_name"}}


def shipped_languages() -> list[str]:
    return sorted(path.stem for path in WORDS_DIR.glob("*.yml"))


@dataclass
class Vocabulary:
    """The words of a site's languages: shipped, then the site's own, then English for what is still missing."""

    words: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    # Keys each language took from English, for one warning per language.
    missing: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, languages: Iterable[str], overrides: Mapping[str, Mapping[str, Any]] | None = None) -> Vocabulary:
        fallback = shipped(FALLBACK)
        assert fallback is not None, "the package ships English words"
        vocabulary = cls()
        for lang in languages:
            own = merged(regional(lang) or {}, sectioned((overrides or {}).get(lang) or {}, fallback, lang))
            words = {section: {**fallback[section], **own.get(section, {})} for section in SECTIONS}
            words["runtime"] = with_plural_forms(words["runtime"])
            vocabulary.words[lang] = words
            missing = [key for section in SECTIONS for key in fallback[section] if key not in own.get(section, {})]
            if missing:
                vocabulary.missing[lang] = missing
        return vocabulary

    def section(self, lang: str, section: str) -> dict[str, Any]:
        words = self.words.get(lang)
        if words is None:
            words = self.words[lang] = Vocabulary.of([lang]).words[lang]
        return words[section]


def merged(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {section: {**(base.get(section) or {}), **(extra.get(section) or {})} for section in SECTIONS}


def sectioned(words: Mapping[str, Any], fallback: Mapping[str, Any], lang: str) -> dict[str, dict[str, Any]]:
    """A site's words for one language, either in the shipped files' shape (page:, runtime:, file_kinds:) or flat
    (check: "Submit"): each key is put in the section that has it, and a key no section has is refused."""
    result: dict[str, dict[str, Any]] = {section: {} for section in SECTIONS}
    for key, value in words.items():
        if key in SECTIONS and isinstance(value, Mapping):
            for inner, text in value.items():
                result[key][str(inner)] = checked_word(lang, key, str(inner), text, fallback)
            continue
        if key == "language_name":
            result["page"][key] = str(value)
            continue
        section = next((name for name in SECTIONS if key in fallback[name] or counted_form(key, fallback[name])),
                       None)
        if section is None:
            raise WordsError(f"words: {lang}: '{key}' is not a Zadachnik word; the words are the keys of "
                             f"{WORDS_DIR.name}/{FALLBACK}.yml in the package, e.g. check, reveal, correct")
        result[section][str(key)] = checked_word(lang, section, str(key), value, fallback)
    return result


# CLDR's plural categories (the browser's Intl.PluralRules names the one a count is in).
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")


def is_counted(word: str, words: Mapping[str, Any]) -> bool:
    """Whether the page counts with `word` (English gives its singular too, 'decimals_one')."""
    return word in words and f"{word}_one" in words


def counted_form(key: str, words: Mapping[str, Any]) -> str | None:
    """The counted word `key` is a plural form of ('decimals_few' → 'decimals')."""
    base, _, category = key.rpartition("_")
    return base if category in PLURAL_CATEGORIES and is_counted(base, words) else None


def with_plural_forms(words: dict[str, Any]) -> dict[str, Any]:
    """Every category's form of each counted word, so the browser finds whichever its count is in: the form
    given, else the word's singular for 'one' and its plain form for the rest."""
    complete = dict(words)
    for base in [word for word in words if is_counted(word, words)]:
        for category in PLURAL_CATEGORIES:
            complete.setdefault(f"{base}_{category}", words[f"{base}_one"] if category == "one" else words[base])
    return complete


def checked_word(lang: str, section: str, key: str, value: Any, fallback: Mapping[str, Any]) -> Any:
    if key not in fallback[section] and (base := counted_form(key, fallback[section])):
        return checked_word(lang, section, base, value, fallback)
    if key not in fallback[section]:
        raise WordsError(f"words: {lang}: {section}: '{key}' is not a Zadachnik word")
    if section == "file_kinds":
        if not isinstance(value, Mapping) or not value:
            raise WordsError(f"words: {lang}: file_kinds: {key}: write its plural forms, e.g. "
                             "{one: notebook, other: notebooks}")
        return {str(form): str(text) for form, text in value.items()}
    if not isinstance(value, str):
        raise WordsError(f"words: {lang}: {key}: write the word as a string in quotes")
    expected, given = placeholders(fallback[section][key]), placeholders(value)
    if given - expected:
        allowed = ", ".join("{" + name + "}" for name in sorted(expected)) or "none"
        raise WordsError(f"words: {lang}: {key}: {{{sorted(given - expected)[0]}}} is not filled in here; "
                         f"the placeholders of '{key}' are {allowed}")
    return value


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


def load_site_words(option: Mapping[str, Any], base: Path) -> dict[str, Mapping[str, Any]]:
    """The `words:` option: per language, a mapping of words, or the name of a YAML file (relative to mkdocs.yml)
    holding one, in the shipped files' shape."""
    result: dict[str, Mapping[str, Any]] = {}
    for lang, value in (option or {}).items():
        if isinstance(value, str):
            path = base / value
            try:
                value = yaml.safe_load(read_source(path, value))
            except SourceError as error:
                raise WordsError(f"words: {lang}: {error}") from None
            except OSError as error:
                raise WordsError(f"words: {lang}: cannot read {value}: {error.strerror or error}") from None
            except yaml.YAMLError as error:
                raise WordsError(f"words: {lang}: {value} is not YAML: {error}") from None
        if not isinstance(value, Mapping):
            raise WordsError(f"words: {lang}: write a mapping of words (check: \"Submit\") or a YAML file's name")
        result[str(lang)] = value
    return result


_active = Vocabulary.of(shipped_languages())


def use_words(languages: list[str], overrides: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, list[str]]:
    """Make these the words of the pages built next; returns, per language, the keys taken from English."""
    global _active
    _active = Vocabulary.of(languages, overrides)
    return _active.missing


def strings(lang: str) -> dict[str, Any]:
    return _active.section(lang, "page")


def runtime_strings(lang: str) -> dict[str, Any]:
    return _active.section(lang, "runtime")


def section_strings(lang: str, section: str) -> dict[str, Any]:
    return _active.section(lang, section)


@cache
def locale_of(lang: str) -> Locale | None:
    try:
        return Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return None


def language_name(code: str) -> str:
    """The language's name in itself, as a selector shows it: "Deutsch", "Français", "Русский"."""
    own = strings(code).get("language_name") if code in _active.words else None
    if own:
        return own
    locale = locale_of(code)
    name = locale.get_display_name(locale) if locale is not None else None
    return (name[:1].upper() + name[1:]) if name else code


def language_list(codes: list[str], lang: str) -> str:
    """The languages' names in the page's language, as a list: "Russian and English", "русский и английский"."""
    locale = locale_of(lang)
    names = []
    for code in codes:
        name = locale.languages.get(code.replace("-", "_")) if locale is not None else None
        names.append(name or language_name(code))
    return joined(names, lang)


def joined(parts: list[str], lang: str, style: str = "standard") -> str:
    locale = locale_of(lang) or locale_of(FALLBACK)
    return format_list(parts, style=style, locale=locale)


def number_examples(lang: str) -> list[str]:
    """A number written grouped and plain, the two ways a field reads it: larger where the locale leaves four
    digits ungrouped (Spanish writes 2629,07 either way), and once where it never groups."""
    for value in (EXAMPLE_NUMBER, EXAMPLE_NUMBER * 10, EXAMPLE_NUMBER * 1000):
        grouped, plain = format_number(value, lang), format_number(value, lang, group=False)
        if grouped != plain:
            return [grouped, plain]
    return [format_number(EXAMPLE_NUMBER, lang)]


def quiz_instruction(lang: str, languages: list[str], exam: Any = None) -> str:
    """What the quiz page says first; an exam's (reading/exam.py) says how it is taken, and its time limit."""
    t = strings(lang)
    examples = joined(number_examples(lang), lang, style="or")
    said = [t["exam_instruction" if exam else "quiz_instruction"].format(examples=examples, fraction="16/7")]
    if exam and exam.time_limit:
        minutes = format_decimal(round(exam.time_limit / 60, 2), locale=locale_of(lang) or "en")
        said.append(t["exam_time_limit"].format(minutes=minutes))
    return " ".join([*said, saved_sentence(t, "saved", lang, languages)])


def exercises_instruction(lang: str, languages: list[str]) -> str:
    t = strings(lang)
    return " ".join([t["exercises_instruction"], saved_sentence(t, "exercises_saved", lang, languages)])


def saved_sentence(t: Mapping[str, str], prefix: str, lang: str, languages: list[str]) -> str:
    """Where answers stay, and with a page in several languages, that its versions share them."""
    if len(languages) < 2:
        return t[f"{prefix}_here"]
    return t[f"{prefix}_shared"].format(languages=language_list(languages, lang))


def files_about(counts: dict[str, int], file_languages: list[str], lang: str, languages: list[str]) -> str:
    """What the course-files zip holds; the site's languages its files come in, when there are several."""
    t = strings(lang)
    shown = [code for code in languages if code in file_languages]
    if len(shown) >= 2:
        return t["files_about_languages"].format(contents=files_contents(counts, lang),
                                                 languages=language_list(shown, lang))
    return t["files_about"].format(contents=files_contents(counts, lang))


def counted(count: int, forms: Mapping[str, str], lang: str) -> str:
    """"4 notebooks", "4 ноутбука": the form of the count's CLDR plural category."""
    locale = locale_of(lang)
    category = locale.plural_form(count) if locale is not None else ("one" if count == 1 else "other")
    form = forms.get(category) or forms.get("other") or next(iter(forms.values()))
    return f"{format_number(count, lang)} {form}"


def files_contents(counts: dict[str, int], lang: str) -> str:
    """"4 notebooks, 2 Python modules and 1 text file" in the page's language."""
    kinds = _active.section(lang, "file_kinds")
    return joined([counted(counts[kind], kinds[kind], lang) for kind in kinds if counts.get(kind)], lang)


def file_size(size: int, lang: str) -> str:
    """Kibibytes (1024 bytes) with one decimal: "2588,1 КиБ", "2,588.1 KiB"."""
    return f"{format_number(round(size / 1024, 1), lang, 1)}\u00a0{strings(lang)['kibibytes']}"


# CLDR's supplemental paperSize: the territories that print on US Letter; every other one prints on A4. Babel
# carries no paper sizes, so the list is CLDR's own, copied here.
LETTER_TERRITORIES = frozenset({"BZ", "CA", "CL", "CO", "CR", "GT", "MX", "NI", "PA", "PH", "PR", "SV", "US", "VE"})
PAPER_SIZES = {"a4": "A4", "letter": "Letter"}


def paper_size(lang: str) -> str:
    """The paper a page in `lang` prints on: its territory's (en-CA, es-MX), or where the language is most
    spoken when the code names none (CLDR's likely subtags: en → US, es → ES)."""
    from babel.core import get_global

    locale = locale_of(lang)
    territory = locale.territory if locale is not None else None
    if territory is None:
        likely = get_global("likely_subtags").get(lang.replace("-", "_").split("_")[0], "")
        territory = likely.split("_")[-1] if likely else None
    return PAPER_SIZES["letter"] if territory in LETTER_TERRITORIES else PAPER_SIZES["a4"]


# Where mkdocs-material keeps each language's theme words, in its templates and in a site's overrides.
THEME_LANGUAGES_DIR = Path("partials") / "languages"


def theme_languages(theme_dirs: Iterable[str | Path]) -> set[str]:
    """The languages the site's theme has words for: mkdocs-material's own and any the site's overrides add."""
    return {
        path.stem for folder in theme_dirs for path in (Path(folder) / THEME_LANGUAGES_DIR).glob("*.html")
        if path.stem != "custom"
    }


def site_theme_dirs(custom_dir: Path | None) -> list[Path]:
    """The folders MkDocs looks in for mkdocs-material's templates: the site's overrides first. Found without
    importing the theme, which imports MkDocs (`zadachnik check` runs without it)."""
    from importlib.util import find_spec

    spec = find_spec("material")
    folders = list(spec.submodule_search_locations or []) if spec else []
    return [*([custom_dir] if custom_dir else []), *(Path(folder) / "templates" for folder in folders[:1])]


def language_code_problems(codes: Iterable[str], theme_dirs: Iterable[str | Path]) -> list[str]:
    """What is wrong with the `languages` option, one line per code: a code the theme cannot show pages in would
    end the build inside mkdocs-material's templates (`TemplateNotFound: partials/languages/sp.html`)."""
    known = theme_languages(theme_dirs)
    problems, seen = [], set()
    for code in codes:
        if code in seen:
            problems.append(f"'{code}' is named twice: name each language once")
        seen.add(code)
        if code in known or not known:
            continue
        problems.append(unknown_code(code, known))
    return problems


def unknown_code(code: str, known: set[str]) -> str:
    """Why `code` is refused: the closest guesses, the languages Zadachnik has words for, and how many more the
    theme knows (counted, not listed: some sixty codes would bury the guess)."""
    guesses = guessed_languages(code, known)
    hint = f"did you mean '{guesses[0]}'? " if guesses else ""
    if len(guesses) > 1:
        hint += f"(or {', '.join(repr(guess) for guess in guesses[1:])}) "
    own = shipped_languages()
    others = len(known - set(own))
    return (f"'{code}' is not a language code mkdocs-material knows: {hint}Zadachnik has page words for "
            f"{', '.join(own)}; the theme knows {others} more (the files of its {THEME_LANGUAGES_DIR.as_posix()})")


def theme_language_problems(code: Any, theme_dirs: Iterable[str | Path]) -> list[str]:
    """What is wrong with the theme's own `language` (mkdocs-material's 404 page and search are in it): a code it
    has no words for ends the build in its templates as a wrong `languages` code would. `custom` is the theme's
    name for a site's own words, in its overrides' custom.html."""
    folders = list(theme_dirs)
    if code is None or (code == "custom" and any((Path(folder) / THEME_LANGUAGES_DIR / "custom.html").is_file()
                                                 for folder in folders)):
        return []
    known = theme_languages(folders)
    return [] if str(code) in known or not known else [unknown_code(str(code), known)]


def site_language_problems(codes: Iterable[str], theme_language: Any, theme_dirs: Iterable[str | Path],
                           languages_option: str = "the zadachnik plugin's 'languages'") -> list[str]:
    """The build's and `zadachnik check`'s refusal of the site's language codes, each line naming its option."""
    folders = list(theme_dirs)
    return [*(f"{languages_option}: {problem}" for problem in language_code_problems(codes, folders)),
            *(f"the theme's 'language': {problem}" for problem in theme_language_problems(theme_language, folders))]


def theme_language_warnings(theme_language: Any, languages: list[str], languages_written: bool) -> list[str]:
    """The theme's own `language` (as written; None when it is left to the plugin) against the site's first one:
    mkdocs-material's words on a page of no language (the 404 page) are in the theme's, and a site that left
    `languages` at its default may have meant the theme's language."""
    if theme_language in (None, "custom") or str(theme_language) == languages[0]:
        return []
    if not languages_written:
        return [f"the zadachnik plugin's 'languages' is not set, so the site is in {', '.join(languages)} (its "
                f"default), while the theme's 'language' is '{theme_language}': write 'languages: "
                f"[{theme_language}]' under the plugin for a site in that language"]
    return [f"the theme's 'language' is '{theme_language}', but the site's first language is '{languages[0]}', so "
            f"mkdocs-material's own words on the 404 page would be in '{theme_language}': write 'language: "
            f"{languages[0]}' under 'theme:' (or leave it out: the plugin then sets it)"]


def theme_direction_warnings(direction: Any, languages: list[str]) -> list[str]:
    """mkdocs-material gives every page the theme's `direction` when it is set, over each page language's own:
    on a site whose languages write in other directions, their pages are turned too (English right to left)."""
    if not direction:
        return []
    turned = [code for code in languages if (locale := locale_of(code)) is not None
              and locale.text_direction != direction]
    if not turned:
        return []
    return [f"the theme's 'direction' is '{direction}', which mkdocs-material gives every page, so the pages in "
            f"{', '.join(turned)} are written {direction} too: leave 'direction' out under 'theme:', and each page "
            "takes its own language's direction"]


def missing_words_warnings(missing: Mapping[str, list[str]]) -> list[str]:
    """The build's warning (which `mkdocs build --strict` stops at, and `zadachnik check` reports) for each
    language that takes some of its page words from English: `missing` as use_words returns it."""
    return [f"Zadachnik lacks {len(keys)} of its words for '{lang}', so its pages use English for them "
            f"({', '.join(keys[:8])}{', …' if len(keys) > 8 else ''}). Give them under `words: {lang}:` in the "
            f"plugin's options, or name a file of them there: a translated copy of {WORDS_DIR / (FALLBACK + '.yml')}"
            " has them all." for lang, keys in missing.items()]


def guessed_languages(written: str, known: set[str], most: int = 3) -> list[str]:
    """The codes an author likely meant, likeliest first: languages whose English name starts with what was
    written ('sp' → Spanish → es, 'german' → de, 'po' → pl, pt, pt-BR), Zadachnik's own first; failing those,
    the codes closest in spelling ('pt-br' → pt-BR)."""
    import difflib

    names = Locale("en").languages
    start = written.strip().lower()
    guesses: list[str] = []
    # The same code with other capitals or '_' ('pt_br' → pt-BR), then its language ('en-GB' → en, 'zh-Hans' → zh).
    guesses += [code for code in sorted(known) if code.lower() == start.replace("_", "-")]
    guesses += [code for code in sorted(known) if code == base_language(start) and code not in guesses]
    if len(start) >= 2 and not guesses:
        by_name = sorted(code for code in known if names.get(code.replace("-", "_"), "").lower().startswith(start))
        guesses += [code for code in by_name if code in shipped_languages()]
        guesses += [code for code in by_name if code not in guesses]
    if not guesses:
        guesses = difflib.get_close_matches(start, sorted(known), n=most, cutoff=0.6)
    return guesses[:most]
