"""Helpers the tests share, by theme; tests import them as `support.<theme>` (pyproject.toml puts tests/ on the
path). Fixtures stay in tests/conftest.py."""
