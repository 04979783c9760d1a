"""The plugin's options, as in mkdocs-material's plugins: one flat Config of typed options; and mkdocs.yml read
for the `zadachnik` commands as MkDocs reads it, with these options judged by this schema."""

from __future__ import annotations

import contextlib
import copy
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from mkdocs.config import config_options as opt
from mkdocs.config.base import Config, ValidationError
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import ConfigurationError

PLUGIN_NAME = "zadachnik"


class LanguageCodes(opt.ListOfItems):
    """A list of at least one language code; one code written alone is the likeliest slip: it gets the list it
    meant."""

    def run_validation(self, value: object) -> list[str]:
        if isinstance(value, str):
            example = f"[{value.strip()}]" if value.strip() else "[en]"
            raise ValidationError(f"a list of language codes, not {value!r} (write e.g. 'languages: {example}'; "
                                  "one code makes a monolingual site)")
        if value == []:
            raise ValidationError("no language: write at least one code, the site root's first (e.g. "
                                  "'languages: [en]')")
        return super().run_validation(value)


class ZadachnikConfig(Config):
    # Folder of the course sources, relative to mkdocs.yml.
    exercises_dir = opt.Type(str, default="exercises")
    # Site languages; the first is served at the site root, each other one under its code (en/…).
    languages = LanguageCodes(opt.Type(str), default=["ru", "en"])
    # A copy of the site that works opened from disk: the runtime as a classic script, Pyodide embedded.
    # Needs use_directory_urls: false, and mkdocs-material's offline plugin for search.
    offline = opt.Type(bool, default=False)
    # Where the offline build writes the zip of the whole site (relative to mkdocs.yml); empty: no zip.
    offline_zip = opt.Type(str, default="")
    # The site's own page words, per language: single words over the shipped ones (`en: {check: Submit}`), or a
    # whole language, as a mapping or the name of a YAML file (relative to mkdocs.yml) shaped like words/en.yml.
    words = opt.Type(dict, default={})
    # The site gets our scripts and stylesheets minified (by esbuild, when the package is made); false ships them
    # as the package has them, to read in the browser while debugging.
    minify = opt.Type(bool, default=True)
    # Modules and pages a build made are kept in .cache/zadachnik beside mkdocs.yml, and a later build takes
    # each again while nothing it is made of changed (its sources, the site's settings, the code): false reads,
    # checks and converts everything on every build. Rendered formulas are kept there either way (by their TeX).
    cache = opt.Type(bool, default=True)
    # A file in a module's files/ larger than this (bytes) gets a build warning.
    course_files_max_size = opt.Type(int, default=25 * 2**20)


class SiteOptionsError(Exception):
    """mkdocs.yml cannot be read, or an option the commands use is wrong: one line, in the build's words."""


@dataclass
class SiteOptions:
    """What the commands need of mkdocs.yml: the plugin's options, the theme's custom_dir, the Markdown extensions
    with MkDocs' built-in ones and their settings."""

    plugin: ZadachnikConfig
    custom_dir: str | None
    markdown_extensions: list[str]
    mdx_configs: dict[str, dict[str, Any]]
    # The theme's own `language`, as written (None: the theme's default).
    theme_language: Any = None
    # MkDocs' docs_dir, absolute (None: it names no folder).
    docs_dir: str | None = None
    # The theme's name, as written (MkDocs' default when mkdocs.yml names none).
    theme_name: Any = None
    # Whether the plugin's `languages` is written, or left at its default.
    languages_written: bool = False
    # Whether mkdocs.yml names the plugin at all (none: a command runs on its defaults).
    uses_plugin: bool = True
    # The theme's `direction`, as written (None: each page's language's).
    theme_direction: Any = None


def loaded_site(config_file: Path | None) -> MkDocsConfig:
    """mkdocs.yml as MkDocs loads it, nothing validated yet; no file: an empty config."""
    site = MkDocsConfig(config_file_path=str(config_file.resolve()) if config_file is not None else None)
    try:
        if config_file is not None:
            with config_file.open("rb") as source:
                site.load_file(source)
    except TypeError:
        # yaml_load looks for INHERIT in whatever the file holds: a lone number or true is no mapping.
        raise SiteOptionsError("not a mapping of options: write each as 'name: value' on its line") from None
    except (OSError, ConfigurationError) as error:
        raise SiteOptionsError(str(error)) from None
    return site


def read_site_options(config_file: Path | None) -> SiteOptions:
    """mkdocs.yml read by MkDocs' own loading (INHERIT, !ENV, !relative, !!python/name), the plugin's options
    validated by its schema and the extensions by MkDocs' option; no file: every default. Nothing else is
    validated: the site's other plugins and its theme are not loaded, as a command needs none of them."""
    site = loaded_site(config_file)
    # The extensions' `!relative $docs_dir` is the validated docs_dir. The course sources of a site without its
    # docs folder can still be checked: nothing is found in it either way.
    docs_dir = None
    with contextlib.suppress(SiteOptionsError):
        validate_option(site, "docs_dir")
        docs_dir = str(site["docs_dir"])
    validate_option(site, "markdown_extensions")
    # A bare `!relative` is the folder of the page being converted: the check converts generated pages, taken as
    # at the docs root, as MkDocs takes them while it validates the extensions.
    site._current_page = SimpleNamespace(file=SimpleNamespace(src_path=""))  # type: ignore[assignment]
    plugin = ZadachnikConfig(config_file_path=site.config_file_path)
    try:
        written = plugin_options(site["plugins"])
        plugin.load_dict(written)
    except ValidationError as error:
        raise SiteOptionsError(f"Config value 'plugins': {error}") from None
    errors, warnings = plugin.validate()
    # An unknown option is only a warning to MkDocs, but it stops a strict build, as the check must.
    found = [*errors, *warnings]
    if found:
        key, problem = found[0]
        raise SiteOptionsError(f"Config value 'plugins': Plugin '{PLUGIN_NAME}' option '{key}': {problem}")
    theme = site["theme"]
    if plugin.offline_zip and not plugin.offline:
        from zadachnik.runtime.shipping import offline_config_problems

        # The build's rule for this, which the rest of its offline rules (pages, theme) need no command for.
        raise SiteOptionsError(offline_config_problems(False, True, True, [])[0])
    custom_dir = theme.get("custom_dir") if isinstance(theme, dict) else None
    theme_language, languages_written = language_choices(site)
    return SiteOptions(plugin, str(custom_dir) if custom_dir else None, site["markdown_extensions"],
                       site["mdx_configs"], theme_language, docs_dir,
                       theme.get("name") if isinstance(theme, dict) else theme, languages_written,
                       config_file is None or names_plugin(site["plugins"]),
                       theme.get("direction") if isinstance(theme, dict) else None)


def language_choices(site: MkDocsConfig) -> tuple[Any, bool]:
    """The theme's `language` as mkdocs.yml (loaded, not validated) writes it (None: not written, so
    mkdocs-material's default), and whether the plugin's `languages` is written: what validated options cannot
    tell from their defaults."""
    theme = site.get("theme")
    return (theme.get("language") if isinstance(theme, dict) else None,
            "languages" in plugin_options(site.get("plugins", [])))


def written_language_choices(config_file: Path) -> tuple[Any, bool]:
    """language_choices of the file itself, for the build, whose validated config has lost them."""
    try:
        return language_choices(loaded_site(config_file))
    except (SiteOptionsError, ValidationError):
        return None, True


def theme_problem(name: object) -> str | None:
    """What is wrong with the site's theme: the pages are made for mkdocs-material's (its templates, its instant
    navigation and search), and MkDocs' own themes load their scripts and highlighting from CDNs."""
    if name == "material":
        return None
    return f"theme '{name}': Zadachnik's pages are made for mkdocs-material: write 'name: material' under 'theme:'"


# Search is left out of a package: its results would lead to pages the package does not hold.
SEARCH_PLUGINS = {"search", "material/search"}
INSTANT = "navigation.instant"


def package_site_overrides(config_file: Path) -> dict[str, Any]:
    """What a site built for a SCORM package changes in mkdocs.yml (read as MkDocs reads it): the offline copy's
    pages (relative links, classic scripts, Pyodide embedded) without search, the zip or instant navigation; the
    plugins written out as a list, which replaces the inherited one whole."""
    site = loaded_site(config_file)
    plugins: list[Any] = []
    for name, options in opt.Plugins._parse_configs(site["plugins"] or []):
        if name.lstrip("/") == PLUGIN_NAME:
            plugins.append({name: {**(options or {}), "offline": True, "offline_zip": ""}})
        elif name not in SEARCH_PLUGINS:
            plugins.append({name: options} if options else name)
    overrides: dict[str, Any] = {"use_directory_urls": False, "plugins": plugins}
    theme = site["theme"]
    if isinstance(theme, dict) and isinstance(theme.get("features"), list):
        overrides["theme"] = {**theme, "features": [feature for feature in theme["features"]
                                                    if not str(feature).startswith(INSTANT)]}
    return overrides


def validate_option(site: MkDocsConfig, key: str) -> None:
    """One option of `site` validated by MkDocs' own option for it, as MkDocs validates the whole config."""
    option = getattr(MkDocsConfig, key)
    option.pre_validation(site, key)
    try:
        site[key] = option.validate(site[key])
    except ValidationError as error:
        raise SiteOptionsError(f"Config value '{key}': {without_traceback(error)}") from None
    option.post_validation(site, key)


def plugin_entries(plugins: object) -> list[tuple[str, Any]]:
    """`plugins:` as MkDocs' own option parses it, on a copy: the parsing empties the mappings it is given."""
    if not isinstance(plugins, (list, tuple, dict)):
        raise ValidationError("Invalid Plugins configuration. Expected a list or dict.")
    # "/zadachnik" is the name without the theme's namespace: the same plugin.
    return [(name.lstrip("/"), options) for name, options in opt.Plugins._parse_configs(copy.deepcopy(plugins))]


def names_plugin(plugins: object) -> bool:
    return any(name == PLUGIN_NAME for name, _ in plugin_entries(plugins))


def plugin_options(plugins: object) -> dict[str, Any]:
    """The zadachnik plugin's options in `plugins:` (a list or a mapping, parsed by MkDocs' own option); none when
    the site does not use it."""
    for name, options in plugin_entries(plugins):
        if name == PLUGIN_NAME:
            if options is not None and not isinstance(options, dict):
                raise ValidationError(f"Invalid config options for the '{PLUGIN_NAME}' plugin.")
            return options or {}
    return {}


def without_traceback(error: ValidationError) -> str:
    """MkDocs' message for an extension that fails to load lists the stack between its first and last lines."""
    lines = str(error).splitlines()
    return lines[0] if len(lines) < 2 else f"{lines[0]} {lines[-1]}"
