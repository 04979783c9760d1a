"""Checks of a course's answer keys, run at build time with the browser's own grading rules."""
