"""Our scripts and stylesheets go out minified by esbuild: the copies made with the package (scripts/vendor_assets.py)
or, for a source edited since in a checkout, esbuild's output for that very text; never a copy of an older source.
Each minified module parses and passes the JavaScript unit tests, and `minify: false` ships the package's files."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from support.sites import FIXTURE_SITE, ROOT, build_site, copy_site
from zadachnik.runtime import shipping
from zadachnik.runtime.shipping import ASSETS, minified, offline_runtime, own_asset_text
from zadachnik.runtime.vendored import (
    ESBUILD,
    INLINED,
    MinifyError,
    esbuild_bundle,
    esbuild_inline,
    esbuild_minify,
    inlined_modules,
    minified_name,
    own_assets,
    rewired,
    shipped_source,
)

NODE = shutil.which("node") or "node"
JS = ASSETS / "js"
# What a site ships of the runtime: every module but the SCORM bridge, which only a package carries, bundled.
MODULES = sorted(name for path in JS.rglob("*.js") if f"js/{(name := path.relative_to(JS).as_posix())}"
                 not in shipping.PACKAGE_ONLY)
# The modules a minified site has as files of their own (the others are inlined into a script that imports them).
SHIPPED_MODULES = [name for name in MODULES if f"js/{name}" not in inlined_modules()]
IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["'`](\.{1,2}/[^"'`]+)["'`]""")
# As esbuild writes them: `import{a as b,c}from"../zadachnik.js"` and `export{W as COUNTED,ye as LAST_PLACE_KEY}`.
NAMED_IMPORT_MINIFIED = re.compile(r'\bimport\s*\{([^}]*)\}\s*from\s*"(\.{1,2}/[^"]+)"')
EXPORT_LIST = re.compile(r"\bexport\s*\{([^}]*)\}")
STYLESHEETS = sorted(path.name for path in ASSETS.glob("*.css"))


@pytest.fixture(autouse=True)
def tools_are_there() -> None:
    assert shutil.which("node"), "Node.js is needed to run the minified modules"
    assert ESBUILD.is_file(), "esbuild comes with 'npm ci' (package-lock.json)"


def shipped_text(name: str) -> str:
    text = own_asset_text(ASSETS, f"js/{name}", minify=True)
    assert text is not None
    return text


def test_our_assets_are_every_script_and_stylesheet_but_the_vendored() -> None:
    names = own_assets()
    assert {"js/zadachnik.js", "js/types/code.js", "js/python-worker.js", "zadachnik.css"} <= set(names)
    assert not [name for name in names if name.startswith("vendor/")]
    assert len(names) == len(MODULES) + len(shipping.PACKAGE_ONLY) + len(STYLESHEETS)


def test_each_minified_module_parses(tmp_path: Path) -> None:
    """node --check reads each one as an ES module (a .mjs copy); the offline bundle, as a classic script."""
    for name in SHIPPED_MODULES:
        copy = tmp_path / (name.replace("/", "-").removesuffix(".js") + ".mjs")
        copy.write_text(shipped_text(name), encoding="utf-8")
        checked = subprocess.run([NODE, "--check", str(copy)], capture_output=True, text=True, timeout=60)
        assert checked.returncode == 0, f"{name}: {checked.stderr}"
    classic = tmp_path / "bundle.cjs"
    classic.write_text(offline_runtime(minify=True), encoding="utf-8")
    checked = subprocess.run([NODE, "--check", str(classic)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr


def test_the_javascript_unit_tests_pass_on_the_minified_modules(tmp_path: Path) -> None:
    """The grader's vectors and the store's tests (node --test), run against esbuild's minified copy of each
    module. Each alone, as written: the shipped copies import what is joined into zadachnik.js from it, whose
    shipped copy sets the page up as it runs and exports only what the other modules import."""
    copied_js = tmp_path / "plugins/zadachnik/runtime/assets/js"
    for name, text in esbuild_minify({name: (JS / name).read_text(encoding="utf-8") for name in MODULES}).items():
        (copied_js / name).parent.mkdir(parents=True, exist_ok=True)
        (copied_js / name).write_text(text, encoding="utf-8")
    shutil.copytree(ROOT / "tests/vectors", tmp_path / "tests/vectors")
    (tmp_path / "tests/js").mkdir()
    for test in ("js_vectors.test.mjs", "js_storage.test.mjs"):
        shutil.copy(ROOT / "tests/js" / test, tmp_path / "tests/js" / test)
    (tmp_path / "package.json").write_text(json.dumps({"type": "module"}), encoding="utf-8")
    done = subprocess.run([NODE, "--test", "tests/js/js_vectors.test.mjs", "tests/js/js_storage.test.mjs"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout


def test_the_offline_bundle_is_esbuilds_and_each_module_keeps_its_own_address() -> None:
    """One classic script with every module, those imported by `import("./x.js")` too; `import.meta.url` stands
    for each module's own place (Ace is found from js/types/code.js two folders up, as over http)."""
    readable = offline_runtime(minify=False)
    assert readable == esbuild_bundle(False)
    assert offline_runtime(minify=True) == esbuild_bundle(True)
    assert len(offline_runtime(minify=True)) < len(readable) * 0.6
    # The code imports nothing but the question types' modules a page reached by instant navigation lacks, from
    # grading.js's loadTypes, which the offline copy never calls: it runs every type first and has no instant
    # navigation.
    code = re.sub(r"^\s*//.*$", "", readable, flags=re.MULTILINE)
    assert re.findall(r"(?<![\"'])\bimport\(.*", code) == ["import(path);"] and "import.meta" not in code
    assert not re.search(r"^\s*(?:import|export)\b", readable, re.MULTILINE)
    for name in ("variants.js", "shuffle.js", "hints.js", "progress.js", "types/code.js"):
        assert f"// {name}\n" in readable, f"{name} is in the bundle"
    assert 'new URL("../../ace/ace.js", new URL("types/code.js", __zqBase).href)' in readable
    assert 'new URL("../course-progress.js", new URL("progress.js", __zqBase).href)' in readable


def test_the_site_ships_esbuild_copies_and_minify_false_ships_the_sources(fixture_site: Path,
                                                                          tmp_path: Path) -> None:
    shipped = fixture_site / "assets/zadachnik"
    sources = {name: shipped_source(name) for name in own_assets()
               if name not in inlined_modules() | shipping.PACKAGE_ONLY}
    by_esbuild = {**esbuild_minify({name: text for name, text in sources.items() if name not in INLINED}),
                  **{name: esbuild_inline(name) for name in INLINED}}
    for name, text in by_esbuild.items():
        got = (shipped / name).read_text(encoding="utf-8")
        assert len(text) < len(sources[name]) * 0.8, name
        # The search wrapper comes after a line of the site's languages.
        assert got.endswith("\n" + text) if name == "js/search-lang.js" else got == text, name
    source = copy_site(FIXTURE_SITE, tmp_path / "src")
    config = source / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("- zadachnik:", "- zadachnik:\n      minify: false",
                                                                   1), encoding="utf-8")
    assert "minify: false" in config.read_text(encoding="utf-8")
    readable = build_site(config, tmp_path / "site") / "assets/zadachnik"
    for name in MODULES:
        assert (readable / "js" / name).read_bytes().endswith((JS / name).read_bytes()), name
    for name in STYLESHEETS:
        assert (readable / name).read_bytes() == (ASSETS / name).read_bytes(), name
    assert not (fixture_site / "assets/zadachnik/minified").exists(), "the copies go out in their sources' places"
    for name in inlined_modules():
        assert not (shipped / name).exists() and (readable / name).is_file(), name


def test_no_shipped_module_imports_a_joined_one_and_the_script_exports_what_they_take() -> None:
    """A module joined into a script and imported as a file of its own too would run twice, each copy with state
    of its own (the question types' registry, the store's writes, print's `bound`): the shipped copies of the
    other modules import it from the script, which exports each name they take."""
    exported: dict[str, set[str]] = {}
    for script in INLINED:
        text = shipped_text(script.removeprefix("js/"))
        exported[script] = {name.split(" as ")[-1].strip() for block in EXPORT_LIST.findall(text)
                            for name in block.split(",")}
    taken_from_scripts = 0
    for name in SHIPPED_MODULES:
        text = shipped_text(name)
        for target in IMPORT.findall(text):
            path = (JS / name).parent.joinpath(target).resolve().relative_to(ASSETS).as_posix()
            assert path not in inlined_modules(), f"{name} imports {path}, joined into {INLINED}"
        for names, target in NAMED_IMPORT_MINIFIED.findall(text):
            path = (JS / name).parent.joinpath(target).resolve().relative_to(ASSETS).as_posix()
            if path in INLINED:
                taken = {part.split(" as ")[0].strip() for part in names.split(",")}
                assert taken <= exported[path], f"{name} takes {taken - exported[path]}, which {path} lacks"
                taken_from_scripts += len(taken)
    assert taken_from_scripts > 10, "the types, variants, exam and home modules take names from zadachnik.js"


def test_a_module_that_imports_a_joined_one_whole_is_refused() -> None:
    with pytest.raises(MinifyError, match=r"js/types/new\.js imports \.\./storage\.js, which is joined into "
                                          r"js/zadachnik\.js: only its names"):
        rewired("js/types/new.js", 'import * as storage from "../storage.js";\n')
    with pytest.raises(MinifyError, match=r"imports \.\./grading\.js, which is joined"):
        rewired("js/types/new.js", "const grading = await import(`../grading.js`);\n")
    assert rewired("js/types/new.js", 'import { Store } from "../storage.js";\nimport { x } from "./y.js";\n') \
        == 'import { Store } from "../zadachnik.js";\nimport { x } from "./y.js";\n'
    assert rewired("js/new.js", "import { register } from './grading.js';\n") \
        == "import { register } from './zadachnik.js';\n"


def test_the_shipped_runtime_holds_its_inlined_modules_and_imports_the_rest() -> None:
    shipped = shipped_text("zadachnik.js")
    imported = set(IMPORT.findall(shipped))
    assert {"./variants.js", "./python.js"} <= imported
    assert not imported & {"./place.js", "./print.js", "./progress.js", "./grading.js", "./storage.js"}
    # What place.js and print.js do is in it: the pending place's key, the print buttons' selector.
    assert '"zadachnik:place"' in shipped and "[data-zq-print]" in shipped
    assert "Module not found in bundle" not in shipped, "esbuild listed a folder of modules into it"


def test_a_script_is_named_by_the_names_other_modules_take_from_it(tmp_path: Path) -> None:
    """A module that starts to import another name from a joined module needs a copy of the script that exports
    it: the script's copy is named by those names too, not only by the texts joined into it."""
    shutil.copytree(ASSETS, tmp_path, ignore=shutil.ignore_patterns("vendor"), dirs_exist_ok=True)
    script = next(iter(INLINED))
    before = shipped_source(script, tmp_path)
    choice = tmp_path / "js/types/choice.js"
    choice.write_text('import { SCHEMA } from "../storage.js";\n' + choice.read_text(encoding="utf-8") +
                      "export const schema = SCHEMA;\n", encoding="utf-8")
    after = shipped_source(script, tmp_path)
    assert "SCHEMA" not in json.loads(before)["exports"]["js/storage.js"]
    assert "SCHEMA" in json.loads(after)["exports"]["js/storage.js"]
    assert minified_name(script, after) != minified_name(script, before)


def test_the_copy_of_a_script_is_named_by_its_inlined_modules_too(tmp_path: Path) -> None:
    """An edit to place.js alone makes a new minified zadachnik.js, in a checkout and in the site's cache."""
    script, modules = next(iter(INLINED.items()))
    for name in (script, *modules):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ASSETS / name, tmp_path / name)
    before = minified_name(script, shipped_source(script, tmp_path))
    with (tmp_path / modules[0]).open("a", encoding="utf-8") as module:
        module.write("\n// edited\n")
    assert minified_name(script, shipped_source(script, tmp_path)) != before


def test_a_copy_is_taken_for_its_very_source_only(tmp_path: Path, monkeypatch) -> None:
    """The package's copies are found by their source's digest; a source edited since (in a checkout) is minified
    by esbuild as it is now, and without esbuild the build stops and says what to do, rather than ship an older
    copy."""
    source = (JS / "seed.js").read_text(encoding="utf-8")
    edited = source + "\nexport const EDITED_JUST_NOW = 'edited';\n"
    copies = tmp_path / "minified"
    copies.mkdir()
    (copies / minified_name("js/seed.js", source)).write_text("// the package's copy\n", encoding="utf-8")
    monkeypatch.setattr(shipping, "MINIFIED", copies)
    monkeypatch.setattr(shipping, "_minified", {})
    assert minified("js/seed.js", source) == "// the package's copy\n"
    assert "EDITED_JUST_NOW" in minified("js/seed.js", edited)
    monkeypatch.setattr(shipping, "_minified", {})
    monkeypatch.setattr(shipping, "ESBUILD", tmp_path / "no-esbuild")
    assert minified("js/seed.js", source) == "// the package's copy\n"
    with pytest.raises(MinifyError, match=r"js/seed\.js has no minified copy .* 'minify: false'"):
        minified("js/seed.js", edited)


def test_a_script_esbuild_cannot_read_is_refused_with_its_name_and_line() -> None:
    with pytest.raises(MinifyError, match=r"Unexpected \";\"\s+js/broken\.js:2:10"):
        esbuild_minify({"js/fine.js": "export const a = 1;\n", "js/broken.js": "const a = 1;\nconst b = ;\n"})


def test_what_esbuild_warns_about_is_refused_too() -> None:
    """A warning is code that would not work as written: it is not shipped."""
    with pytest.raises(MinifyError, match=r'"strng".*\s+js/typo\.js:1'):
        esbuild_minify({"js/typo.js": 'export const isText = (value) => typeof value === "strng";\n'})
