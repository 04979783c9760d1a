"""Compiled page templates kept between builds (zadachnik.incremental.templates): taken only where a fresh compile
would give the same code, from the process's memory or the site's cache folder, never from a damaged file or one
this user's key did not sign; a build that takes them writes the site a build without them writes."""

from __future__ import annotations

import filecmp
import marshal
from pathlib import Path

import jinja2
import pytest
from support.sites import FIXTURE_SITE, build_site, copy_site
from zadachnik.incremental import templates
from zadachnik.incremental.blobs import BlobFolder
from zadachnik.incremental.templates import CompiledTemplates, signing_key

PAGE = "{{ title | shout }}{% if flag %}!{% endif %}"
KEY = b"k" * 32


def shout(value: str) -> str:
    return value.upper()


@jinja2.pass_context
def shout_with_context(context, value: str) -> str:
    return value.upper() + "?"


@pytest.fixture(autouse=True)
def fresh_process(monkeypatch) -> list[str]:
    """No template compiled by an earlier test of this process; the templates compiled where the cache is set, by
    name (mkdocs-material's search plugin compiles its words' templates in an environment of its own)."""
    monkeypatch.setattr(templates, "_COMPILED", {})
    compiled: list[str] = []
    original = jinja2.Environment.compile

    def counted(self, source, name=None, filename=None, raw=False, defer_init=False):
        if isinstance(self.bytecode_cache, CompiledTemplates):
            compiled.append(name)
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return compiled


def environment(cache: CompiledTemplates, source: str = PAGE, **settings) -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.DictLoader({"page.html": source}), **settings)
    env.filters["shout"] = shout
    env.bytecode_cache = cache
    return env


def render(env: jinja2.Environment) -> str:
    return env.get_template("page.html").render(title="zadachnik", flag=True)


def test_a_template_is_compiled_once_per_process(fresh_process: list[str]) -> None:
    assert render(environment(CompiledTemplates())) == "ZADACHNIK!"
    assert render(environment(CompiledTemplates())) == "ZADACHNIK!"
    assert fresh_process == ["page.html"]


def test_another_process_takes_it_from_the_store(tmp_path: Path, fresh_process: list[str], monkeypatch) -> None:
    store = BlobFolder(tmp_path)
    render(environment(CompiledTemplates(store, "code", KEY)))
    monkeypatch.setattr(templates, "_COMPILED", {})
    assert render(environment(CompiledTemplates(store, "code", KEY))) == "ZADACHNIK!"
    assert fresh_process == ["page.html"]
    # Other code making the site (a plugin upgraded) compiles again.
    monkeypatch.setattr(templates, "_COMPILED", {})
    render(environment(CompiledTemplates(store, "other code", KEY)))
    assert fresh_process == ["page.html", "page.html"]


def test_without_a_key_nothing_goes_to_disk(tmp_path: Path) -> None:
    render(environment(CompiledTemplates(BlobFolder(tmp_path), "code", None)))
    assert not list(tmp_path.iterdir())


def test_code_another_key_signed_is_never_run(tmp_path: Path, fresh_process: list[str], monkeypatch) -> None:
    """A cache folder from elsewhere (a CI cache other branches write, a copy of the site): its compiled templates
    are compiled again, whatever they hold."""
    store = BlobFolder(tmp_path)
    render(environment(CompiledTemplates(store, "code", b"another user's key".ljust(32))))
    monkeypatch.setattr(templates, "_COMPILED", {})
    assert render(environment(CompiledTemplates(store, "code", KEY))) == "ZADACHNIK!"
    assert fresh_process == ["page.html", "page.html"]


@pytest.mark.parametrize("damage", ["garbage", "cut", "unsigned code", "signed, not code", "empty"])
def test_a_damaged_or_foreign_entry_is_compiled_again(tmp_path: Path, fresh_process: list[str], monkeypatch,
                                                       damage: str) -> None:
    store = BlobFolder(tmp_path)
    cache = CompiledTemplates(store, "code", KEY)
    render(environment(cache))
    [bucket_key] = cache.used
    [entry] = tmp_path.glob("*.blob")
    key = entry.name.removesuffix(".blob")
    if damage == "garbage":
        entry.write_bytes(b"\x00\xff" * 300)
    elif damage == "cut":
        entry.write_bytes(entry.read_bytes()[:-40])
    elif damage == "unsigned code":
        store.put_bytes(key, marshal.dumps(compile("raise SystemExit('ran')", "x", "exec")))
    elif damage == "signed, not code":
        payload = marshal.dumps({"a": 1})
        store.put_bytes(key, cache.signature(bucket_key, payload) + payload)
    else:
        store.put_bytes(key, b"")
    monkeypatch.setattr(templates, "_COMPILED", {})
    assert render(environment(CompiledTemplates(store, "code", KEY))) == "ZADACHNIK!"
    assert fresh_process == ["page.html", "page.html"]


@pytest.mark.parametrize("change", ["source", "filter called otherwise", "filter of another name",
                                    "filter's code (a hook edited under mkdocs serve)", "extension",
                                    "syntax", "autoescape", "trim_blocks"])
def test_what_the_compiler_reads_changes_the_key(fresh_process: list[str], change: str) -> None:
    render(environment(CompiledTemplates()))
    settings = {"source": {}, "filter called otherwise": {}, "filter of another name": {},
                "filter's code (a hook edited under mkdocs serve)": {},
                "extension": {"extensions": ["jinja2.ext.loopcontrols"]},
                "syntax": {"variable_start_string": "{{", "variable_end_string": "}}", "comment_start_string": "{#!"},
                "autoescape": {"autoescape": True}, "trim_blocks": {"trim_blocks": True}}[change]
    env = environment(CompiledTemplates(), PAGE + " " if change == "source" else PAGE, **settings)
    if change == "filter called otherwise":
        env.filters["shout"] = shout_with_context
    elif change == "filter of another name":
        env.filters["shout"] = str.upper
    elif change.startswith("filter's code"):
        namespace = {"__name__": __name__}
        exec("def shout(value):\n    return value.upper() + ''\n", namespace)
        env.filters["shout"] = namespace["shout"]
    render(env)
    assert fresh_process == ["page.html", "page.html"]


def test_unchanged_settings_keep_the_key(fresh_process: list[str]) -> None:
    render(environment(CompiledTemplates(), extensions=["jinja2.ext.loopcontrols"], trim_blocks=True))
    render(environment(CompiledTemplates(), extensions=["jinja2.ext.loopcontrols"], trim_blocks=True))
    assert fresh_process == ["page.html"]


def test_a_filter_without_a_name_of_its_own_is_known_by_its_identity(fresh_process: list[str]) -> None:
    """The optimizer calls a filter on constants while compiling: two lambdas are two filters."""
    source = "{{ 'zadachnik' | shout }}"
    first = environment(CompiledTemplates(), source)
    first.filters["shout"] = lambda value: value.upper()
    second = environment(CompiledTemplates(), source)
    second.filters["shout"] = lambda value: value.title()
    assert (render(first), render(second)) == ("ZADACHNIK", "Zadachnik")


def test_the_key_is_made_once_for_the_user_alone(tmp_path: Path) -> None:
    key = signing_key(tmp_path / "user")
    assert key is not None and len(key) == 32
    assert signing_key(tmp_path / "user") == key
    assert (tmp_path / "user" / templates.KEY_FILE).stat().st_mode & 0o077 == 0
    # A folder the build may not write: templates stay in memory.
    (tmp_path / "file").write_text("")
    assert signing_key(tmp_path / "file" / "user") is None
    # No home directory to resolve `~` by (platformdirs then gives a relative path): none either.
    assert signing_key(Path("~/.cache/zadachnik")) is None


def test_a_warm_build_compiles_no_template_and_writes_the_same_site(tmp_path: Path, fresh_process: list[str],
                                                                     monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    site = copy_site(FIXTURE_SITE, tmp_path / "src")
    fresh = build_site(site / "mkdocs.yml", tmp_path / "fresh", cache=True)
    compiled_fresh = len(fresh_process)
    assert compiled_fresh > 20 and any((site / ".cache/zadachnik").glob("build-*/templates/*.blob"))
    # A new process: only the store is left.
    monkeypatch.setattr(templates, "_COMPILED", {})
    del fresh_process[:]
    warm = build_site(site / "mkdocs.yml", tmp_path / "warm", cache=True)
    assert fresh_process == []
    comparison = filecmp.dircmp(fresh, warm)
    assert not differences(comparison), differences(comparison)
    # Another user (another key) compiles them again.
    monkeypatch.setattr(templates, "_COMPILED", {})
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-user-cache"))
    build_site(site / "mkdocs.yml", tmp_path / "another", cache=True)
    assert len(fresh_process) == compiled_fresh


def differences(comparison: filecmp.dircmp) -> list[str]:
    found = [*comparison.left_only, *comparison.right_only, *comparison.diff_files, *comparison.funny_files]
    for sub in comparison.subdirs.values():
        found += differences(sub)
    return found


def test_another_process_computes_the_same_key() -> None:
    """What keys a template on disk holds nothing of one process: not a set's order, which string hashing changes
    from one process to the next (jinja2's `round` filter has a set among its constants)."""
    import os
    import subprocess
    import sys

    script = ("from mkdocs.config import load_config\n"
              "from zadachnik.incremental.templates import environment_key\n"
              f"config = load_config({str(FIXTURE_SITE / 'mkdocs.yml')!r})\n"
              "print(environment_key(config.theme.get_env()))\n")
    keys = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(keys) == 1 and "do_round" in next(iter(keys))
