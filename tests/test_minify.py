"""Our scripts and stylesheets go out minified: each minified module parses, behaves as its source does, keeps its
template literals (some hold Python) byte for byte, and the site ships the minified copies (`minify: false`, the
package's own files)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FIXTURE_SITE, ROOT, build_site, copy_site
from zadachnik.runtime.bundle import bundle
from zadachnik.runtime.minify import MinifyError, minify_css, minify_js, tokenize
from zadachnik.runtime.shipping import ASSETS, offline_runtime

NODE = shutil.which("node") or "node"
JS = ASSETS / "js"
MODULES = sorted(path.relative_to(JS).as_posix() for path in JS.rglob("*.js"))
STYLESHEETS = sorted(path.name for path in ASSETS.glob("*.css"))


@pytest.fixture(autouse=True)
def node_is_there() -> None:
    assert shutil.which("node"), "Node.js is needed to run the minified modules"


def run_node(script: str, folder: Path, name: str = "run.mjs") -> str:
    (folder / name).write_text(script, encoding="utf-8")
    done = subprocess.run([NODE, str(folder / name)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


# Each snippet prints what it computes: minified, it must print the same. Every one is a way to go wrong.
SNIPPETS = {
    "python in a template literal": ('const code = `def f(x):\n    if x:\n        return ${"`"}1${"`"}  # no comment\n'
                                     '    /* kept */ return 2\n`;\nconsole.log(JSON.stringify(code));'),
    "nested templates and braces": ("const a = 1;\n"
                                    'console.log(`x${`y${ {b: a}.b }z`}w ${ [1, 2].map((v) => `${v}`) }`);'),
    "regex with slashes and comment marks": 'console.log("a//b/*c*/".replace(/\\/\\/|\\/\\*|[/*]/g, "-"));',
    "regex after a condition": 'if (true) /x y/.test("x y") && console.log("matched");',
    "regex after a block": 'function f() {}\n/a b/g.exec("a b") && console.log("block");',
    "division is not a regex": 'const a = 6, b = 3, g = 2;\nconsole.log(a / b / g, (a) / b, [a][0] / b);',
    "return then a line break": "function f() {\n  return\n  42;\n}\nconsole.log(f());",
    "statements without semicolons": "let a = 1\nlet b = a\n++b\nconsole.log(a, b)",
    "signs that must not join": "const x = 1, y = 2;\nconsole.log(x + +y, x - -y, x+ ++[y][0], x - --[y][0]);",
    "a number then a dot": "console.log(1 .toString(), 1.5.toFixed(1), 2..toString());",
    "comments that hide nothing": 'const s = "// not a comment"; /* a\n comment */ const t = \'/* nor */\';\n'
                                  'console.log(s, t); // gone',
    "optional chaining and a ternary with a decimal": "const o = null; const p = true ?.5 : 1;\n"
                                                      "console.log(o?.x, p);",
    "words that need their space": 'const items = { a: 1 };\nconsole.log(typeof items, "a" in items, '
                                   "void 0, items instanceof Object);",
    "a template's escapes": "console.log(`\\`${1}\\${2}\\n`.length);",
    "an async arrow and await": "const f = async () => {\n  const v = await Promise.resolve(3);\n  return v / 1;\n};\n"
                                "f().then((v) => console.log(v));",
    "a class with a private field": "class C {\n  #n = 2;\n  static of() { return new C(); }\n  get n() {\n"
                                    "    return this.#n;\n  }\n}\nconsole.log(C.of().n);",
}


@pytest.mark.parametrize("name", SNIPPETS)
def test_a_minified_snippet_prints_what_its_source_prints(name: str, tmp_path: Path) -> None:
    source = SNIPPETS[name]
    expected = run_node(source, tmp_path, "source.mjs")
    assert expected.strip(), "the snippet prints something"
    assert run_node(minify_js(source), tmp_path, "minified.mjs") == expected


def template_pieces(text: str) -> list[str]:
    return [token.text for token in tokenize(text) if token.kind == "template"]


def test_python_in_a_template_literal_survives_byte_for_byte() -> None:
    python = "def ess(weights):\n    total = sum(weights)  # a comment // and /* this */\n\n        return total\n"
    source = f"// the worker's start\nconst CODE = `{python}`;\n  export const RUN = `import x\n${{CODE}}\n  pass`;\n"
    minified = minify_js(source)
    assert f"`{python}`" in minified
    assert "`import x\n${CODE}\n  pass`" in minified
    assert "the worker's start" not in minified


@pytest.mark.parametrize("name", MODULES)
def test_each_module_keeps_its_template_literals_and_loses_its_comments(name: str) -> None:
    source = (JS / name).read_text(encoding="utf-8")
    minified = minify_js(source)
    pieces = template_pieces(source)
    assert template_pieces(minified) == pieces
    for piece in pieces:
        assert piece in minified
    assert "\n  " not in minified.replace("".join(pieces), ""), "indentation is gone (outside templates)"
    assert len(minified) < len(source)


def test_each_minified_module_parses(tmp_path: Path) -> None:
    """node --check reads each one as an ES module (a .mjs copy); the offline bundle, as a classic script."""
    for name in MODULES:
        copy = tmp_path / (name.replace("/", "-").removesuffix(".js") + ".mjs")
        copy.write_text(minify_js((JS / name).read_text(encoding="utf-8")), encoding="utf-8")
        checked = subprocess.run([NODE, "--check", str(copy)], capture_output=True, text=True, timeout=60)
        assert checked.returncode == 0, f"{name}: {checked.stderr}"
    classic = tmp_path / "bundle.cjs"
    classic.write_text(offline_runtime(minify=True), encoding="utf-8")
    checked = subprocess.run([NODE, "--check", str(classic)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr


def test_the_javascript_unit_tests_pass_on_the_minified_modules(tmp_path: Path) -> None:
    """The grader's vectors and the store's tests (node --test), run against minified copies of the modules."""
    copied_js = tmp_path / "plugins/zadachnik/runtime/assets/js"
    for name in MODULES:
        (copied_js / name).parent.mkdir(parents=True, exist_ok=True)
        (copied_js / name).write_text(minify_js((JS / name).read_text(encoding="utf-8")), encoding="utf-8")
    shutil.copytree(ROOT / "tests/vectors", tmp_path / "tests/vectors")
    for test in ("js_vectors.test.mjs", "js_storage.test.mjs"):
        shutil.copy(ROOT / "tests" / test, tmp_path / "tests" / test)
    (tmp_path / "package.json").write_text(json.dumps({"type": "module"}), encoding="utf-8")
    done = subprocess.run([NODE, "--test", "tests/js_vectors.test.mjs", "tests/js_storage.test.mjs"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout


def test_the_bundle_is_made_from_the_readable_modules_then_minified() -> None:
    """The bundler reads the modules' import lines as the package writes them: minified first, it would find
    none."""
    readable = bundle(JS, "zadachnik.js")
    assert offline_runtime(minify=False) == readable
    assert offline_runtime(minify=True) == minify_js(readable)


@pytest.mark.parametrize("source, problem", [
    ("const a = `never ends;\n", "template literal that never ends"),
    ('const a = "runs\npast";\n', "string that runs past its line"),
    ("const a = 1; /* open\n", "comment that never ends"),
    ("if (a) { b();\n", "never closed"),
    ("const r = /open\n;", "regular expression that runs past its line"),
])
def test_source_the_minifier_cannot_read_is_refused_with_its_line(source: str, problem: str) -> None:
    with pytest.raises(MinifyError, match=problem) as error:
        minify_js(source)
    assert str(error.value).startswith("line ")


CSS = """/* The page's own styles. */
@import url("print.css") print;
.zq-a :hover,
.zq-b > .zq-c {
  margin: 0 auto;   /* centred */
  content: "a  ;}  b: c";
  width: calc(100% - 2em);
}
@media (max-width: 40em) and (min-width: 10em) {
  .zq-d::before { content: '/* kept */'; }
}
"""


def test_css_keeps_what_its_spaces_mean() -> None:
    minified = minify_css(CSS)
    assert minified == ('@import url("print.css") print;.zq-a :hover,.zq-b > .zq-c{margin:0 auto;'
                        'content:"a  ;}  b: c";width:calc(100% - 2em)}@media (max-width: 40em) and '
                        "(min-width: 10em){.zq-d::before{content:'/* kept */'}}\n")


@pytest.mark.parametrize("name", STYLESHEETS)
def test_our_stylesheets_minify(name: str) -> None:
    source = (ASSETS / name).read_text(encoding="utf-8")
    minified = minify_css(source)
    assert "/*" not in minified and "\n" not in minified.rstrip("\n")
    assert minified.count("{") == re.sub(r"/\*.*?\*/", "", source, flags=re.DOTALL).count("{")


def test_the_site_ships_minified_copies_and_minify_false_ships_the_sources(fixture_site: Path,
                                                                           tmp_path: Path) -> None:
    shipped = fixture_site / "assets/zadachnik"
    for name in MODULES:
        text = (shipped / "js" / name).read_text(encoding="utf-8")
        minified = minify_js((JS / name).read_text("utf-8"))
        # The search wrapper comes after a line of the site's languages.
        assert text.endswith(minified) if name == "search-lang.js" else text == minified, name
    for name in STYLESHEETS:
        assert (shipped / name).read_text(encoding="utf-8") == minify_css((ASSETS / name).read_text("utf-8")), name
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


@pytest.mark.parametrize("line", [
    'const load = () => import("./b.js");',
    'const part = await import(`./${name}.js`);',
])
def test_the_bundler_refuses_a_dynamic_import_it_would_leave_as_it_is(tmp_path: Path, line: str) -> None:
    """Was a bug: only `await import("…")` is bundled; any other import() stayed in the classic script, where the
    offline copy fails at the first page that needs it."""
    (tmp_path / "a.js").write_text(line + "\n", encoding="utf-8")
    (tmp_path / "b.js").write_text("export const b = 1;\n", encoding="utf-8")
    with pytest.raises(ValueError, match="a.js: an import or export form the bundler does not know"):
        bundle(tmp_path, "a.js")
