"""`markdown_extensions: [zadachnik.mathtex]`: the plugin's build-time KaTeX for a site's own pages, by a short
name that stays put wherever the rendering stage keeps its code."""

from zadachnik.rendering.mathtex import MathExtension, makeExtension

__all__ = ["MathExtension", "makeExtension"]
