"""The plugin's options, as in mkdocs-material's plugins: one flat Config of typed options."""

from __future__ import annotations

from mkdocs.config import config_options as opt
from mkdocs.config.base import Config


class ZadachnikConfig(Config):
    # Folder of the course sources, relative to mkdocs.yml.
    exercises_dir = opt.Type(str, default="exercises")
    # Site languages; the first is served at the site root, each other one under its code (en/…).
    languages = opt.ListOfItems(opt.Type(str), default=["ru", "en"])
    # A copy of the site that works opened from disk: the runtime as a classic script, Pyodide embedded.
    # Needs use_directory_urls: false, and mkdocs-material's offline plugin for search.
    offline = opt.Type(bool, default=False)
    # Where the offline build writes the zip of the whole site (relative to mkdocs.yml); empty: no zip.
    offline_zip = opt.Type(str, default="")
    # The site's own page words, per language: single words over the shipped ones (`en: {check: Submit}`), or a
    # whole language, as a mapping or the name of a YAML file (relative to mkdocs.yml) shaped like words/en.yml.
    words = opt.Type(dict, default={})
    # The site gets our scripts and stylesheets minified (comments and indentation out); false ships them as the
    # package has them, to read in the browser while debugging.
    minify = opt.Type(bool, default=True)
    # Modules and pages a build made are kept in .cache/zadachnik beside mkdocs.yml, and a later build takes
    # each again while nothing it is made of changed (its sources, the site's settings, the code): false reads,
    # checks and converts everything on every build. Rendered formulas are kept there either way (by their TeX).
    cache = opt.Type(bool, default=True)
    # A file in a module's files/ larger than this (bytes) gets a build warning.
    course_files_max_size = opt.Type(int, default=25 * 2**20)
