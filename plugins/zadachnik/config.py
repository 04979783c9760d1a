"""The plugin's options, as in mkdocs-material's plugins: one flat Config of typed options."""

from __future__ import annotations

from mkdocs.config import config_options as opt
from mkdocs.config.base import Config


class ZadachnikConfig(Config):
    # Folder of the course sources, relative to mkdocs.yml.
    exercises_dir = opt.Type(str, default="exercises")
    # Site languages; the first is served at the site root, each other one under its code (en/…).
    languages = opt.ListOfItems(opt.Type(str), default=["ru", "en"])
    # A file in a module's files/ larger than this (bytes) gets a build warning.
    course_files_max_size = opt.Type(int, default=25 * 2**20)
