"""Running Python: the runner process used at build time, whose handler the browser's worker also runs."""
