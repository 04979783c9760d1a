"""`markdown_extensions: [zadachnik.mathtex]`: the plugin's build-time KaTeX for a site's own pages, by a short
name that stays put wherever the rendering stage keeps its code."""

from __future__ import annotations

from typing import Any

from zadachnik.rendering.mathtex import MathExtension, MathSourceError


def makeExtension(**kwargs: Any) -> MathExtension:  # noqa: N802 - the name Python-Markdown looks for
    """Under MkDocs, a bad formula stops the build as one message (a PluginError), not a traceback; under plain
    Python-Markdown, as a MathSourceError."""
    try:
        from mkdocs.exceptions import PluginError
    except ImportError:
        return MathExtension(error_type=MathSourceError, **kwargs)
    return MathExtension(error_type=PluginError, **kwargs)
