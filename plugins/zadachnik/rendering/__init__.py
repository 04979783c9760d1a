"""Course pages: their plans, templates, words per language, math, and the site's addresses."""
