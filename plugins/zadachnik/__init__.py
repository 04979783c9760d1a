"""Zadachnik: Markdown exercise sources become bilingual course pages on mkdocs-material."""

__version__ = "0.1.0"
