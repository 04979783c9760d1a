"""Benchmarks: build scaling against plain mkdocs-material, math, page speed, offline, `zadachnik check` against a
build, Python's start, a huge explanation, and the test suite against an earlier commit's (only when named: it runs
`make test` twice). Writes bench/results.md.

Machines here are shared and noisy, so targets are ratios measured in one run, never absolute timings in tests.
Run with `make bench`; `python bench/run.py build math` measures only those sections and rewrites only them in
bench/results.md.
"""

from __future__ import annotations

import gzip
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))
from generate import generate, generate_huge  # noqa: E402

SIZES = (250, 500, 1000, 2000)
# The course size the build targets are set at.
CACHE_QUESTIONS = 1000
SECTIONS = ("build", "math", "pages", "offline", "check", "python", "huge", "suite")
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def timed_build(site: Path, out: Path, cpu: dict[str, list[float]] | None = None) -> float:
    """A build's wall time; with `cpu`, its process's user and system CPU seconds are added to it too."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(out)], cwd=site, env=ENV, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    if cpu is not None:
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.setdefault("user", []).append(after.ru_utime - before.ru_utime)
        cpu.setdefault("system", []).append(after.ru_stime - before.ru_stime)
    return wall


def build_scaling(work: Path, rounds: int = 3) -> list[dict]:
    """Cold builds (no formula cache) of each size, Zadachnik and plain in turn; the fastest of `rounds` each, the
    figure least touched by whatever else the shared machine runs."""
    from zadachnik.incremental.site import CACHE_DIR

    rows = []
    for size in SIZES:
        root = work / f"q{size}"
        generate(root, size)
        zadachnik, plain = [], []
        for _ in range(rounds):
            shutil.rmtree(root / "zadachnik" / CACHE_DIR, ignore_errors=True)
            zadachnik.append(timed_build(root / "zadachnik", work / f"out-z{size}"))
            plain.append(timed_build(root / "plain", work / f"out-p{size}"))
        rows.append({"questions": size, "zadachnik": min(zadachnik), "plain": min(plain),
                     "ratio": min(zadachnik) / min(plain)})
    return rows


def cache_builds(work: Path, questions: int = CACHE_QUESTIONS, rounds: int = 5) -> dict:
    """Cold (formula cache removed), warm (the cache the build before left) and plain builds of one course, in
    turn, so a busy moment of the machine falls on all three alike; the fastest of `rounds` each."""
    from zadachnik.incremental.formulas import FormulaStore
    from zadachnik.incremental.site import CACHE_DIR
    from zadachnik.rendering.mathtex import Katex

    root = work / f"cache{questions}"
    generate(root, questions)
    site = root / "zadachnik"
    source = site / "exercises" / "bench" / "m001" / "quiz.md"
    text = source.read_text(encoding="utf-8")
    times: dict[str, list[float]] = {"cold": [], "warm": [], "edited": [], "plain": []}
    cpu: dict[str, dict[str, list[float]]] = {key: {} for key in times}
    try:
        for index in range(rounds):
            shutil.rmtree(site / CACHE_DIR, ignore_errors=True)
            times["cold"].append(timed_build(site, work / "out-cold", cpu["cold"]))
            times["warm"].append(timed_build(site, work / "out-warm", cpu["warm"]))
            source.write_text(text.replace("estimate", f"work out {index}", 1), encoding="utf-8")
            times["edited"].append(timed_build(site, work / "out-edited", cpu["edited"]))
            source.write_text(text, encoding="utf-8")
            times["plain"].append(timed_build(root / "plain", work / "out-plain", cpu["plain"]))
    finally:
        source.write_text(text, encoding="utf-8")
    timed_build(site, work / "out-warm")
    result: dict = {key: min(values) for key, values in times.items()}
    # The least of each, as for the wall times: what a build needs, not what the machine's load added.
    result["cpu"] = {key: {kind: min(values) for kind, values in kinds.items()} for key, kinds in cpu.items()}
    result["files"] = {name: sum(1 for path in (work / folder).rglob("*") if path.is_file())
                       for name, folder in (("zadachnik", "out-warm"), ("plain", "out-plain"))}
    result["build_cache_mb"] = sum(path.stat().st_size for path in (site / CACHE_DIR).glob("build-*/*/*")) / 2**20
    store = FormulaStore(site / CACHE_DIR, Katex().engine_key())
    started = time.perf_counter()
    cached = store.load()
    result["load_s"] = time.perf_counter() - started
    started = time.perf_counter()
    store.save(cached)
    result["save_s"] = time.perf_counter() - started
    result["cached"] = len(cached)
    result["cache_mb"] = store.path.stat().st_size / 2**20
    result["cold_renders"], result["warm_renders"] = renders_per_build(site, work)
    result["weight"] = {"zadachnik": output_weight(work / "out-warm"), "plain": output_weight(work / "out-plain")}
    return result


def renders_per_build(site: Path, work: Path) -> tuple[int, int]:
    """Formulas KaTeX renders in a build as a new process does it, without and then with the disk cache."""
    from support.sites import build_site
    from zadachnik.incremental.site import CACHE_DIR
    from zadachnik.rendering import mathtex

    shutil.rmtree(site / CACHE_DIR, ignore_errors=True)
    counts = []
    for name in ("count-cold", "count-warm"):
        mathtex._shared = None
        build_site(site / "mkdocs.yml", work / name, strict=False)
        counts.append(mathtex.shared_katex().renders)
    mathtex._shared = None
    return counts[0], counts[1]


# A rebuild as `mkdocs serve` makes it: the process, its plugin instances and caches outlive each build, and the
# configuration is read again. One question's text is edited before each rebuild.
REBUILD = """
import sys, time
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config
site, out, source, rounds = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), int(sys.argv[4])
config = load_config(config_file=str(site / "mkdocs.yml"), site_dir=out)
config.plugins.on_startup(command="serve", dirty=False)
build(config)
text, times = source.read_text(encoding="utf-8"), []
try:
    for index in range(rounds):
        source.write_text(text.replace("estimate", f"work out {index}", 1), encoding="utf-8")
        started = time.process_time()
        build(load_config(config_file=str(site / "mkdocs.yml"), site_dir=out))
        times.append(time.process_time() - started)
finally:
    source.write_text(text, encoding="utf-8")
    config.plugins.on_shutdown()
print(min(times))
"""


def serve_rebuilds(work: Path, questions: int = CACHE_QUESTIONS, rounds: int = 3) -> dict[str, float]:
    """The least CPU time of `rounds` rebuilds after editing one question's text (its Russian part; on the plain
    site, the Russian page), in one process each as under `mkdocs serve`, Zadachnik's with its formula cache warm.
    CPU time of the building process: the two processes can't take turns, and wall time on a shared machine moves
    with whatever else runs."""
    root = work / f"cache{questions}"
    sources = {"zadachnik": root / "zadachnik/exercises/bench/m001/quiz.md", "plain": root / "plain/docs/bench/m001.md"}
    found = {}
    for name, source in sources.items():
        done = subprocess.run([sys.executable, "-c", REBUILD, str(root / name), str(work / f"serve-{name}"),
                               str(source), str(rounds)], env=ENV, check=True, capture_output=True, text=True)
        found[name] = float(done.stdout.split()[-1])
    return found


def output_weight(site: Path) -> dict[str, float]:
    """A built site's bytes in MB: in all, in its HTML pages, its search index, and its assets."""
    files = [path for path in site.rglob("*") if path.is_file()]

    def megabytes(chosen) -> float:
        return sum(path.stat().st_size for path in chosen) / 1e6

    return {"total": megabytes(files), "html": megabytes(p for p in files if p.suffix == ".html"),
            "search": megabytes(p for p in files if p.parent.name == "search"),
            "assets": megabytes(p for p in files if p.relative_to(site).parts[0] == "assets")}


def math_costs(work: Path, rounds: int = 3) -> dict:
    """KaTeX per formula, one V8 call each against one call per batch, each round with fresh engines (as a
    build starts); and a rebuild as under `mkdocs serve`."""
    from support.sites import build_site
    from zadachnik.rendering.mathtex import Katex, MathError, formulas_in, shared_katex

    site = work / "q250/zadachnik"
    if not site.exists():
        generate(work / "q250", 250)
    formulas = []
    for path in sorted((site / "exercises").rglob("quiz.md")):
        formulas.extend(formulas_in(path.read_text(encoding="utf-8")))
    unique = list(dict.fromkeys(formulas))
    single_ms, batch_ms, identical = [], [], True
    for _ in range(rounds):
        single, batch = Katex(), Katex()
        single._engine(), batch._engine()
        started = time.perf_counter()
        one_by_one = []
        for tex, display in unique:
            try:
                one_by_one.append(single.render_now(tex, display))
            except MathError as error:
                one_by_one.append(str(error))
        single_ms.append((time.perf_counter() - started) / len(unique) * 1000)
        started = time.perf_counter()
        batched = batch.render_many(unique)
        batch_ms.append((time.perf_counter() - started) / len(unique) * 1000)
        identical &= one_by_one == [result if isinstance(result, str) else str(result) for result in batched]
        single.close()
        batch.close()
    # A rebuild as under `mkdocs serve`: the plugin's process keeps its renders; one module is edited.
    build_site(site / "mkdocs.yml", work / "serve-1", strict=False)
    quiz = site / "exercises/bench/m001/quiz.md"
    quiz.write_text(quiz.read_text(encoding="utf-8").replace("estimate", "work out", 1), encoding="utf-8")
    before = shared_katex().renders
    started = time.perf_counter()
    build_site(site / "mkdocs.yml", work / "serve-2", strict=False)
    rebuild = time.perf_counter() - started
    single_median, batch_median = statistics.median(single_ms), statistics.median(batch_ms)
    return {"formulas": len(unique), "single_ms": single_median, "batch_ms": batch_median,
            "speedup": single_median / batch_median, "identical": identical, "rebuild_s": rebuild,
            "rebuild_renders": shared_katex().renders - before}


def own_bytes(site: Path, page: str) -> tuple[int, int]:
    """A page's own JS and CSS gzipped, as tests/rendering/test_page_weight.py counts it (imports and dynamic imports
    followed): as the site ships it (minified), and the same files as the package writes them."""
    from support.assets import gzipped_size, own_assets
    from zadachnik.runtime.vendored import ASSETS, INLINED

    assets = own_assets(site, page)
    shipped = site / "assets" / "zadachnik"
    written = 0
    for path in assets:
        if "katex" in path.parts:
            continue
        name = path.relative_to(shipped).as_posix()
        # A shipped script with modules joined into it counts their sources too.
        for part in (name, *INLINED.get(name, ())):
            source = ASSETS / part
            written += len(gzip.compress((source if source.is_file() else path).read_bytes(), 9))
    return gzipped_size(assets), written


LONGEST_TASK = """window.__longest = 0; new PerformanceObserver(list => {
    for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
}).observe({type: 'longtask', buffered: true});"""


VERDICT_TIME = """() => {
    const verdict = document.querySelector('#q-P08a [data-zq-verdict]');
    new MutationObserver(() => {
        if (verdict.textContent.includes('Correct') && !window.__verdictAt) window.__verdictAt = performance.now();
    }).observe(verdict, {childList: true, characterData: true, subtree: true});
}"""


def page_speed(sample: Path) -> dict:
    from playwright.sync_api import sync_playwright
    from support.browser import serve

    url, server = serve(sample)
    bare = sample / "bench-bare.html"
    bare.write_text("""<!doctype html><script type="module">
const { loadPyodide } = await import("./assets/zadachnik/pyodide/pyodide.mjs");
const pyodide = await loadPyodide();
pyodide.runPython("1 + 1");
window.bareDone = performance.now();
</script>""")
    results: dict = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(url + "en/rl-for-llm/12-infrastructure/quiz/")
            page.wait_for_selector(".zq-page[data-zq-ready=yes]")
            page.fill("#zq-P07-rho", "0.8")
            times = []
            for index in range(50):
                page.fill("#zq-P07-rho", "0.8" if index % 2 else "0,8")
                times.append(page.evaluate("""() => {
                    const start = performance.now();
                    document.querySelector('#q-P07 [data-zq-check]').click();
                    return new Promise(resolve => requestAnimationFrame(() => resolve(performance.now() - start)));
                }"""))
            results["check_ms_median"] = statistics.median(times)
            # Each run in a fresh context: both sides start with an empty cache (no compiled WebAssembly kept).
            for _ in range(3):
                context = browser.new_context()
                bare_page = context.new_page()
                bare_page.goto(url + "bench-bare.html")
                bare_page.wait_for_function("window.bareDone", timeout=120_000)
                results.setdefault("bare_ms", []).append(bare_page.evaluate("window.bareDone"))
                context.close()
            for _ in range(3):
                context = browser.new_context()
                context.add_init_script(LONGEST_TASK)
                page = context.new_page()
                page.goto(url + "en/rl-for-llm/12-infrastructure/quiz/")
                page.wait_for_selector(".zq-page[data-zq-ready=yes]")
                # Long tasks while Pyodide starts: from a ready page until Python is ready, nothing scrolled.
                page.evaluate("window.__longest = 0")
                page.wait_for_function(
                    "document.querySelector('[data-zq-python-status]').textContent.includes('ready')", timeout=120_000)
                results.setdefault("longest_task_ms", []).append(page.evaluate("window.__longest"))
                page.locator("#q-P08a").scroll_into_view_if_needed()
                page.wait_for_function("document.querySelector('#q-P08a').zqEditor", timeout=60_000)
                page.evaluate("document.querySelector('#q-P08a').zqEditor.setValue("
                              "'def ess(w):\\n    return sum(w) ** 2 / sum(x * x for x in w)\\n', 1)")
                # Both sides in the page's own clock, from navigation: bare page to Python's first result, this page
                # to the first verdict (page, editor and Python start-up all included).
                page.evaluate(VERDICT_TIME)
                page.click("#q-P08a [data-zq-check]")
                page.wait_for_function("window.__verdictAt", timeout=120_000)
                results.setdefault("first_check_ms", []).append(page.evaluate("window.__verdictAt"))
                warm = []
                for _ in range(5):
                    started = time.perf_counter()
                    page.click("#q-P08a [data-zq-check]")
                    page.wait_for_function("document.querySelector('#q-P08a [data-zq-verdict]').textContent"
                                           ".includes('Correct')", timeout=60_000)
                    warm.append((time.perf_counter() - started) * 1000)
                results.setdefault("warm_check_ms", []).append(statistics.median(warm))
                context.close()
            browser.close()
    finally:
        server.shutdown()
        bare.unlink()
    for key in ("bare_ms", "first_check_ms", "longest_task_ms", "warm_check_ms"):
        results[key] = statistics.median(results[key])
    return results


def offline(work: Path) -> dict:
    from playwright.sync_api import sync_playwright

    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", "mkdocs.offline.yml"], cwd=ROOT, env=ENV,
                   check=True)
    archive = ROOT / "build/zadachnik-offline.zip"
    target = work / "offline"
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(target)
    page_path = target / "zadachnik/en/rl-for-llm/12-infrastructure/quiz.html"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        page = browser.new_page()
        started = time.perf_counter()
        page.goto(page_path.as_uri())
        page.wait_for_function("document.querySelector('[data-zq-python-status]').textContent.includes('ready')",
                               timeout=120_000)
        ready = time.perf_counter() - started
        browser.close()
    return {"zip_mb": archive.stat().st_size / 2**20, "python_ready_s": ready}


def versions() -> dict:
    cpu = "unknown"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        found = re.search(r"model name\s*:\s*(.+)", cpuinfo.read_text())
        cpu = found.group(1) if found else cpu
    chromium = subprocess.run(["chromium", "--version"], capture_output=True, text=True).stdout.strip()
    import markdown
    import material
    import mkdocs

    return {"cpu": f"{cpu} ({os.cpu_count()} cores)", "python": platform.python_version(),
            "mkdocs": mkdocs.__version__, "material": material.__version__ if hasattr(material, "__version__")
            else "9.x", "markdown": markdown.__version__, "chromium": chromium,
            "pyodide": json.loads((ROOT / "node_modules/pyodide/package.json").read_text())["version"],
            "katex": json.loads((ROOT / "node_modules/katex/package.json").read_text())["version"]}


def verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"


def build_section(work: Path) -> list[str]:
    builds = build_scaling(work)
    cache = cache_builds(work)
    at = {row["questions"]: row for row in builds}
    linear = all(at[2 * size]["zadachnik"] / at[size]["zadachnik"] <= 2.1 for size in (250, 500, 1000))
    cold, warm = cache["cold"] / cache["plain"], cache["warm"] / cache["plain"]
    edited = cache["edited"] / cache["plain"]
    serve = serve_rebuilds(work)
    rebuild = serve["zadachnik"] / serve["plain"]
    weight = cache["weight"]

    def cpu_of(build: str) -> str:
        return f"{cache['cpu'][build]['user']:.2f} | {cache['cpu'][build]['system']:.2f}"
    lines = ["## 1. Build scaling", "", measured("build"), "",
             "Synthetic courses (every question type, four formulas per question, the same text in both languages), "
             "built by Zadachnik and, as plain mkdocs-material pages with arithmatex (math left to the browser), "
             "in the same run, in turn; the fastest of three each. Zadachnik's builds here are cold: no formula "
             "cache.", "",
             "| questions | Zadachnik, s | plain, s | ratio |", "|---:|---:|---:|---:|"]
    for row in builds:
        lines.append(f"| {row['questions']} | {row['zadachnik']:.2f} | {row['plain']:.2f} | {row['ratio']:.2f} |")
    lines += ["", "- Target linear (2× questions ≤ 2.1× time): "
              + ", ".join(f"{size}→{2 * size}: {at[2 * size]['zadachnik'] / at[size]['zadachnik']:.2f}×"
                          for size in (250, 500, 1000)) + f", {verdict(linear)}.", "",
              f"At {CACHE_QUESTIONS:,} questions, cold (`.cache/zadachnik` removed), warm (the cache the build "
              "before left: formulas, modules and pages), warm after editing one question's text, and plain "
              "builds in turn, each a new `mkdocs build` process, the fastest of five each:", "",
              "| build | s | × plain | user CPU, s | system CPU, s | target |", "|---|---:|---:|---:|---:|---|",
              f"| cold | {cache['cold']:.2f} | {cold:.2f} | {cpu_of('cold')} | ≤ 1.3×: {verdict(cold <= 1.3)} |",
              f"| warm cache | {cache['warm']:.2f} | {warm:.2f} | {cpu_of('warm')} | ≤ 1.1×: "
              f"{verdict(warm <= 1.1)} |",
              f"| warm cache, one question edited | {cache['edited']:.2f} | {edited:.2f} | {cpu_of('edited')} | |",
              f"| plain mkdocs-material | {cache['plain']:.2f} | 1.00 | {cpu_of('plain')} | |", "",
              "- CPU columns: the building process's, with the processes it waited for (in a cold build, KaTeX's, "
              "which renders formulas on the other core), the least of the five. Files written: "
              f"{cache['files']['zadachnik']} by the warm build, {cache['files']['plain']} by plain.", "",
              "Rebuilds as under `mkdocs serve` after editing one question's text (one process each, the plugin "
              "kept between builds as `serve` keeps it, with its formulas and the modules and pages the edit did "
              "not touch), the least CPU time of three "
              "(the building process's own: a shared machine's load moves wall time more than the difference):", "",
              "| rebuild | Zadachnik, CPU s | plain, CPU s | ratio | target |", "|---|---:|---:|---:|---|",
              f"| one question edited | {serve['zadachnik']:.2f} | {serve['plain']:.2f} | {rebuild:.2f} | "
              f"≤ 1.2×: {verdict(rebuild <= 1.2)} |", "",
              "Output of the warm build against plain's, MB:", "",
              "| site | in all | HTML pages | search index | assets |", "|---|---:|---:|---:|---:|",
              *(f"| {name} | {w['total']:.1f} | {w['html']:.1f} | {w['search']:.1f} | {w['assets']:.1f} |"
                for name, w in (("Zadachnik", weight["zadachnik"]), ("plain", weight["plain"]))), "",
              f"- Formulas KaTeX rendered: {cache['cold_renders']} in the cold build, {cache['warm_renders']} in "
              "the warm one.",
              f"- The formula cache: {cache['cached']} formulas, {cache['cache_mb']:.1f} MB; reading it takes "
              f"{cache['load_s'] * 1000:.0f} ms, writing it {cache['save_s'] * 1000:.0f} ms (a warm build whose "
              "pages all come from the page cache neither reads nor writes it).",
              f"- The modules and pages kept (`.cache/zadachnik/build-*`): {cache['build_cache_mb']:.1f} MB.", ""]
    return lines


def math_section(work: Path) -> list[str]:
    math = math_costs(work)
    return ["## 2. Math", "", measured("math"), "",
            f"- KaTeX per formula ({math['formulas']} distinct formulas, fresh engines, median of three): "
            f"{math['single_ms']:.2f} ms with one V8 call each, {math['batch_ms']:.2f} ms in batches of one call "
            f"each, {math['speedup']:.1f}× faster; output "
            + ("byte-identical." if math["identical"] else "**not identical**."),
            f"- Rebuild after editing one module (as under `mkdocs serve`): {math['rebuild_s']:.2f} s, "
            f"{math['rebuild_renders']} formulas rendered again.", ""]


def pages_section(work: Path) -> list[str]:
    from support.assets import QUIZ, SAMPLE_PAGES

    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(work / "sample")], cwd=ROOT, env=ENV,
                   check=True)
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", "tests/fixtures/site/mkdocs.yml", "-d",
                    str(work / "fixture")], cwd=ROOT, env=ENV, check=True)
    sizes = {kind: own_bytes(work / site, page) for kind, site, page in (
        ("quiz, module 12 (variants, shuffled options, Python)", "sample", SAMPLE_PAGES[0]),
        ("quiz, module 9 (hints, ordering, Parsons, Python)", "sample", SAMPLE_PAGES[1]),
        ("demo quiz (tests' fixture site)", "fixture", QUIZ),
        ("exercises", "sample", "en/modern-llms/09-pretraining/exercises/index.html"),
        ("home", "sample", "en/index.html"))}
    pages = page_speed(work / "sample")
    lines = ["## 3. Pages (Chromium, localhost)", "",
             "Own JS + CSS as tests/rendering/test_page_weight.py counts it: the scripts and stylesheets a page names "
             "(the modules of its own question types among them), every module they import, statically or by "
             "`import(\"./x.js\")`, and the optional parts its markup asks for (variants, shuffled options, hints, "
             "an exam); not the Python worker's script. \"Shipped\" is what the site serves (minified, with the "
             "two modules only zadachnik.js imports joined into it); \"as written\", the same files as the package "
             "has them.", "",
             "| page | own JS + CSS shipped, gzipped | as written, gzipped |", "|---|---:|---:|"]
    for kind, (shipped, written) in sizes.items():
        lines.append(f"| {kind} | {shipped / 1024:.1f} KB | {written / 1024:.1f} KB |")
    over = [f"{kind.split(' (')[0]}, {shipped / 1024:.1f} KB" for kind, (shipped, _) in sizes.items()
            if shipped > 30 * 1024]
    first_ratio = pages["first_check_ms"] / pages["bare_ms"]
    lines += ["", "- Budget ≤ 30 KB (KiB) per page: " + (
        f"**missed** by {'; '.join(over)}, met by every other page." if over else "met by every page."),
              f"- Check click → verdict shown, median of 50: {pages['check_ms_median']:.1f} ms "
              f"(target ≤ 50 ms: {verdict(pages['check_ms_median'] <= 50)}).",
              f"- Python, first check after opening the page: {pages['first_check_ms']:.0f} ms; a bare "
              f"`loadPyodide` page: {pages['bare_ms']:.0f} ms; ratio {first_ratio:.2f} (target ≤ 1.2: "
              f"{verdict(first_ratio <= 1.2)}). The bare page starts Pyodide at once, on an empty page; the quiz "
              "page asks for Python only once its HTML is read and its modules have loaded (about a third of a "
              "second here, the same on every visit), its first start also takes the memory snapshot later visits "
              "restore, and the check waits for the editor too. These costs do not shrink with the machine's load, "
              "so the ratio is highest on a quiet machine, and single runs vary: two other quiet runs the same "
              "day (load 1 to 3) gave 1.39 and 1.43.",
              f"- Warm check: {pages['warm_check_ms']:.0f} ms (target ≤ 150 ms: "
              f"{verdict(pages['warm_check_ms'] <= 150)}).",
              f"- Longest main-thread task while Pyodide starts: {pages['longest_task_ms']:.0f} ms (target ≤ 50 ms: "
              f"{verdict(pages['longest_task_ms'] <= 50)}).", ""]
    return lines


def offline_section(work: Path) -> list[str]:
    away = offline(work)
    return ["## 4. Offline", "", f"- Site zip: {away['zip_mb']:.1f} MB.",
            f"- From file://, opening the quiz page to Python ready: {away['python_ready_s']:.1f} s.", ""]


def timed_check(site: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "zadachnik", "check"], cwd=site, env=ENV, check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def check_against_build(site: Path, work: Path, rounds: int = 3) -> dict[str, float]:
    """`zadachnik check` and a build of the same site in turn, cold (no cache) and warm (the cache the build
    before left); the fastest of `rounds` each."""
    from zadachnik.incremental.site import CACHE_DIR

    times: dict[str, list[float]] = {"check cold": [], "build cold": [], "check warm": [], "build warm": []}
    for _ in range(rounds):
        shutil.rmtree(site / CACHE_DIR, ignore_errors=True)
        times["check cold"].append(timed_check(site))
        # The check keeps the modules it read: the cold build starts from nothing too.
        shutil.rmtree(site / CACHE_DIR, ignore_errors=True)
        times["build cold"].append(timed_build(site, work / "out-check"))
        times["check warm"].append(timed_check(site))
        times["build warm"].append(timed_build(site, work / "out-check"))
    return {key: min(values) for key, values in times.items()}


def check_section(work: Path) -> list[str]:
    sample = work / "check-sample"
    sample.mkdir()
    shutil.copy(ROOT / "mkdocs.yml", sample / "mkdocs.yml")
    for folder in ("docs", "exercises"):
        shutil.copytree(ROOT / folder, sample / folder)
    generate(work / f"check{CACHE_QUESTIONS}", CACHE_QUESTIONS)
    synthetic = work / f"check{CACHE_QUESTIONS}" / "zadachnik"
    courses = {"sample course": sample, f"{CACHE_QUESTIONS:,} questions": synthetic}
    lines = ["## 5. Check", "", measured("check"), "",
             "`zadachnik check` (every source read and checked as the build does: answer keys, reference solutions, "
             "checkers, values files, formulas; no site written) against `mkdocs build` of the same site, each a "
             "new process, in turn; cold with `.cache/zadachnik` removed, warm with the cache the build before "
             "left (both take the modules it keeps, and the build its pages); the fastest of three each. The "
             "target is the sample course's; the synthetic course's rows are for comparison.", "",
             "| course | cache | check, s | build, s | check / build | target ≤ 0.5× |", "|---|---|---:|---:|---:|---|"]
    for name, site in courses.items():
        found = check_against_build(site, work)
        for cache in ("cold", "warm"):
            ratio = found[f"check {cache}"] / found[f"build {cache}"]
            target = verdict(ratio <= 0.5) if site is sample else "(not a target)"
            lines.append(f"| {name} | {cache} | {found[f'check {cache}']:.2f} | {found[f'build {cache}']:.2f} | "
                         f"{ratio:.2f} | {target} |")
    return [*lines, "",
            "- Where the difference comes from: the check converts each generated page's Markdown with the site's "
            "extensions, as the build does, but only with the inline patterns up to math's (code spans decide "
            "what is a formula; links and emphasis decide nothing it reports), renders formulas in its own "
            "process, and writes no pages: no templates, navigation, search index, assets or zips. Warm, both take "
            "the modules the cache keeps, read and checked; the build takes its pages too, which the check, "
            "converting each page to find its formulas' problems, does not keep.", ""]


# When the page first says Python is ready (the English page's words), in its own clock.
READY_AT = """new MutationObserver(() => {
    const status = document.querySelector('[data-zq-python-status]');
    if (!window.__readyAt && status && status.textContent.includes('ready')) window.__readyAt = performance.now();
}).observe(document, {childList: true, characterData: true, subtree: true});"""
# The last commit before memory snapshots: its page and worker give the "before" figures in the same run.
BEFORE_SNAPSHOTS = "1a916e9"
# pyclient.js too: today's starts the worker itself, which the old python.js would not take over.
BEFORE_FILES = ("python-worker.js", "python.js", "pyclient.js")
READY_LINE = re.compile(r"Python ready in (\d+) ms \(worker (\d+) ms\) from (.+)\.$")
ENDLESS = "def ess(weights):\n    while True:\n        pass\n"


def python_starts(browser, url: str, before: bool = False) -> dict[str, float]:
    """One round in a new browser context (empty caches): a first visit, a second visit, a restart after a time
    limit, and a normal start with the HTTP cache warm (what a restart cost before snapshots: a whole start in a
    new worker). Visits count from navigation to Python ready, in the page's clock; starts in a page, from
    asking for a worker to Python ready."""
    context = browser.new_context()
    context.add_init_script(READY_AT)
    starts: list[tuple[float, str]] = []

    def heard(message) -> None:
        found = READY_LINE.search(message.text)
        if found:
            starts.append((float(found.group(1)), found.group(3)))

    def visit(expected: str):
        page = context.new_page()
        page.on("console", heard)
        page.goto(url)
        page.wait_for_function("window.__readyAt", timeout=120_000)
        how = page.evaluate("document.documentElement.dataset.zqPythonStart")
        assert how == expected or expected == "before", f"Python started from {how}, not {expected}"
        return page, page.evaluate("window.__readyAt")

    if before:
        before_ms = visit("before")[1]
        context.close()
        return {"before_first_ms": before_ms}
    first, first_ms = visit("fresh")
    first_start = starts[-1][0]
    first.wait_for_function("document.documentElement.dataset.zqPythonKept === 'cache'", timeout=120_000)
    first.close()
    second, second_ms = visit("cache")
    second_start = starts[-1][0]
    second.locator("#q-P08a").scroll_into_view_if_needed()
    second.wait_for_function("document.querySelector('#q-P08a').zqEditor", timeout=60_000)
    second.evaluate("code => document.querySelector('#q-P08a').zqEditor.setValue(code, 1)", ENDLESS)
    second.click("#q-P08a [data-zq-check]")
    second.wait_for_function("document.documentElement.dataset.zqPythonStarts === '2'", timeout=120_000)
    restart_ms, how = starts[-1]
    assert how == "the page's snapshot", how
    second.evaluate("caches.delete('zadachnik-python')")
    second.close()
    warm, _ = visit("fresh")
    warm_start = starts[-1][0]
    context.close()
    return {"first_ms": first_ms, "second_ms": second_ms, "first_start_ms": first_start,
            "second_start_ms": second_start, "restart_ms": restart_ms, "warm_fresh_ms": warm_start}


def python_section(work: Path, rounds: int = 4) -> list[str]:
    from playwright.sync_api import sync_playwright
    from support.browser import serve

    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(work / "python-sample")], cwd=ROOT,
                   env=ENV, check=True)
    page = "en/rl-for-llm/12-infrastructure/quiz/"
    before = work / "python-before"
    shutil.copytree(work / "python-sample", before)
    for name in BEFORE_FILES:
        (before / "assets/zadachnik/js" / name).write_bytes(subprocess.run(
            ["git", "show", f"{BEFORE_SNAPSHOTS}:plugins/zadachnik/runtime/assets/js/{name}"], cwd=ROOT,
            check=True, capture_output=True).stdout)
    url, server = serve(work / "python-sample")
    before_url, before_server = serve(before)
    offline_page = offline_copy(work) / "zadachnik/en/rl-for-llm/12-infrastructure/quiz.html"
    found: dict[str, dict[str, list[float]]] = {"http": {}, "file://": {}}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            for round_number in range(rounds):
                visits = [("http", url + page, False), ("http", before_url + page, True)]
                # Which of the two goes first alternates: whatever the round before left running falls on both.
                if round_number % 2:
                    visits.reverse()
                for where, address, old in (*visits, ("file://", offline_page.as_uri(), False)):
                    for key, value in python_starts(browser, address, old).items():
                        found[where].setdefault(key, []).append(value)
            browser.close()
    finally:
        server.shutdown()
        before_server.shutdown()
    lines = ["## 6. Python start", "", measured("python"), "",
             "Each visit in a new browser context (nothing stored): the sample site over http (localhost), the "
             f"same site with the page and worker of commit {BEFORE_SNAPSHOTS} (before snapshots; the two in "
             "alternating order), and its offline copy opened from disk; medians of "
             f"{rounds} rounds. A visit counts from navigation to Python ready; a start, from the page asking for a "
             "worker to Python ready. \"Normal start, warm\" is a start without a snapshot with the browser's HTTP "
             "cache warm, which is what every restart after a time limit cost before snapshots.", "",
             "| | first visit, ms | second visit, ms | second / first | restart after a time limit, ms "
             "| normal start, warm, ms | restart / before snapshots |", "|---|---:|---:|---:|---:|---:|---:|"]
    ratios = {}
    for where, values in found.items():
        median = {key: statistics.median(value) for key, value in values.items()}
        second, restart = median["second_ms"] / median["first_ms"], median["restart_ms"] / median["warm_fresh_ms"]
        ratios[where] = (second, restart)
        lines.append(f"| {where} | {median['first_ms']:.0f} | {median['second_ms']:.0f} | {second:.2f} | "
                     f"{median['restart_ms']:.0f} | {median['warm_fresh_ms']:.0f} | {restart:.2f} |")
    second, restart = ratios["http"]
    http = {key: statistics.median(value) for key, value in found["http"].items()}
    first = http["first_ms"] / http["before_first_ms"]
    return [*lines, "",
            f"- Second visit ≤ 0.4× the first, on http: {second:.2f}×, {verdict(second <= 0.4)}.",
            f"- First visit no worse than before snapshots (commit {BEFORE_SNAPSHOTS}'s page and worker, same run): "
            f"{http['first_ms']:.0f} ms against {http['before_first_ms']:.0f} ms, {first:.2f}×, "
            f"{verdict(first <= 1.1)} (within 10%: single visits on this shared machine vary by more).",
            f"- Restart after a time limit ≤ 0.3× a restart before snapshots, on http: {restart:.2f}×, "
            f"{verdict(restart <= 0.3)}.",
            f"- Where a second visit's time goes, on http: {http['second_start_ms']:.0f} ms from asking for a worker "
            f"to Python ready (the worker's own start, which waits for the page's main thread while the page sets "
            f"itself up, then reading and checking the 30 MB snapshot while Pyodide compiles its engine, then "
            f"copying it in), the other {http['second_ms'] - http['second_start_ms']:.0f} ms the page itself "
            f"before it asks for Python. A first visit's start takes {http['first_start_ms']:.0f} ms (taking the "
            "snapshot, tens of ms, included; it is stored after Python is ready), so the start alone is "
            f"{http['second_start_ms'] / http['first_start_ms']:.2f}× on a second visit. The page asks as soon as "
            "its script runs, before it wires its questions (pyclient.js; python.js loads meanwhile and takes the "
            "worker over): what comes before is the page's HTML read and its modules fetched. A script in <head> "
            "that started the worker while the HTML was still being read was tried too: the worker then competed "
            "with the page's main thread, and the second visit was no faster (0.87 s against 0.89 s on a quiet "
            "machine, 1.53 s against 1.32 s under load 10; medians of 4 rounds), so it was left out.",
            "- From file://, Chromium gives the offline copy Cache Storage too, so it restores as over http. A "
            "restart reuses the engine the page kept compiled; most of its time is starting the Blob worker, whose "
            "script carries Pyodide's loader and engine glue (about 2.5 MB of JavaScript).",
            f"- Load average (1 min) as the run ended: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; every "
            "figure here grows with it, the page's own part included.",
            "- Every figure by round: " + "; ".join(
                f"{where} {key} " + "/".join(f"{value:.0f}" for value in values[key])
                for where, values in found.items() for key in ("before_first_ms", "first_ms", "second_ms",
                                                               "restart_ms", "warm_fresh_ms") if key in values)
            + " ms.", ""]


# One cold build in a process of its own, measured from inside: its time, the CPU of it and of the processes it
# waited for (KaTeX's), its peak memory, and the memory it took afresh from the system (minor page faults: each
# copy of a text of megabytes is new memory, the system's to hand out page by page).
MEASURED_BUILD = """
import json, resource, sys, time
from mkdocs.__main__ import cli
started = time.perf_counter()
cli(["build", "-q", "-d", sys.argv[1]], standalone_mode=False)
own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": time.perf_counter() - started,
                  "cpu": own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime,
                  "peak_gib": own.ru_maxrss / 2**20, "fresh_gib": own.ru_minflt * resource.getpagesize() / 2**30}))
"""
# The explanation sizes, MB; and the commit the red team measured (issue 31), built in the same run for "before".
HUGE_SIZES = (2.5, 5, 10)
HUGE_BEFORE = "fc98492"


def measured_build(site: Path, out: Path, plugins: Path | None = None) -> dict[str, float]:
    from zadachnik.incremental.site import CACHE_DIR

    shutil.rmtree(site / CACHE_DIR, ignore_errors=True)
    env = {**ENV, "PYTHONPATH": str(plugins)} if plugins else ENV
    done = subprocess.run([sys.executable, "-c", MEASURED_BUILD, str(out)], cwd=site, env=env, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def huge_builds(work: Path, rounds: int = 2) -> dict[str, dict[str, float]]:
    """Cold builds of one question whose explanation is each size (a fresh process each, the fastest of `rounds`
    for time, the least memory), and of the largest with the plugin as it was at HUGE_BEFORE."""
    before = work / "huge-before"
    archive = subprocess.run(["git", "archive", HUGE_BEFORE, "plugins"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    before.mkdir()
    subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
    vendor = "plugins/zadachnik/runtime/assets/vendor"
    (before / vendor).symlink_to(ROOT / vendor, target_is_directory=True)
    builds: list[tuple[str, float, Path | None]] = [(f"{size:g}", size, None) for size in HUGE_SIZES]
    builds.append((f"{HUGE_SIZES[-1]:g} at {HUGE_BEFORE}", HUGE_SIZES[-1], before / "plugins"))
    rows: dict[str, dict[str, float]] = {}
    for name, size, plugins in builds:
        site = generate_huge(work / f"huge-{name.replace(' ', '-')}", int(size * 2**20))
        found = [measured_build(site, work / "huge-out", plugins) for _ in range(rounds)]
        rows[name] = {key: min(result[key] for result in found) for key in found[0]}
    return rows


def huge_section(work: Path) -> list[str]:
    rows = huge_builds(work)
    lines = ["## 7. A huge explanation", "", measured("huge"), "",
             "One question whose explanation is megabytes of text (paragraphs of words, three inline formulas in "
             "each, half the text in each language: bench/generate.py's `generate_huge`), built cold (no "
             "`.cache/zadachnik`) in a process of its own, the fastest of two; its text is on six pages (the quiz "
             "page, the module's book and the course's book, in each language), each about 8 times as many bytes "
             "of HTML as its language's Markdown (KaTeX's markup). Memory taken afresh is the building process's "
             "minor page faults: what its copies of page-sized texts cost the system (issue 31 measured 27–29 s "
             f"and 3.3 GB for 10 MB at {HUGE_BEFORE}).", "",
             "| explanation, MB | build, s | CPU, s | peak memory, GiB | memory taken afresh, GiB |",
             "|---|---:|---:|---:|---:|"]
    for name, row in rows.items():
        lines.append(f"| {name} | {row['wall']:.1f} | {row['cpu']:.1f} | {row['peak_gib']:.2f} | "
                     f"{row['fresh_gib']:.2f} |")
    small, large = rows[f"{HUGE_SIZES[0]:g}"], rows[f"{HUGE_SIZES[-1]:g}"]
    scale = HUGE_SIZES[-1] / HUGE_SIZES[0]
    lines += ["", f"- {scale:g}× the text: {large['wall'] / small['wall']:.2f}× the time, "
              f"{large['peak_gib'] / small['peak_gib']:.2f}× the peak memory.", ""]
    return lines


def offline_copy(work: Path) -> Path:
    """The sample course's offline zip, built and unzipped once per run."""
    target = work / "offline"
    if not target.exists():
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", "mkdocs.offline.yml"], cwd=ROOT,
                       env=ENV, check=True)
        with zipfile.ZipFile(ROOT / "build/zadachnik-offline.zip") as opened:
            opened.extractall(target)
    return target


# The commit whose suite the suite section compares with: main before the suite was split into stage folders and
# run in parallel (issue 26, section 4). BENCH_SUITE_BASE names another.
SUITE_BASE = "29e0941"


def timed_make_test(clone: Path) -> dict:
    """`make test` in a fresh clone, set-up included (venv, pip, npm, vendored assets), as CI runs it."""
    started = time.perf_counter()
    done = subprocess.run(["make", "test"], cwd=clone, capture_output=True, text=True, env=ENV)
    wall = time.perf_counter() - started
    summaries = re.findall(r"^=+ (.*(?:passed|failed|error).*) in [0-9.]+s", done.stdout, re.M)
    return {"wall": wall, "rc": done.returncode, "summary": "; ".join(summaries), "tail": done.stdout[-3000:]}


def suite_runs(work: Path) -> dict[str, dict]:
    """Today's suite and the base commit's, each in a clean clone of this repository, one after the other."""
    base = os.environ.get("BENCH_SUITE_BASE", SUITE_BASE)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    runs = {}
    for name, commit in ((f"before ({base})", base), (f"now ({head})", head)):
        clone = work / commit
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "checkout", "-q", commit], cwd=clone, check=True)
        runs[name] = timed_make_test(clone)
        shutil.rmtree(clone, ignore_errors=True)
    return runs


def suite_section(work: Path) -> list[str]:
    runs = suite_runs(work)
    lines = ["## 8. Test suite", "", measured("suite"), "",
             "A fresh clone's `make test` (set-up included: the venv, pip, npm and the vendored assets; Chromium and "
             "poppler were on the machine for both), the base commit's and today's one after the other in one run, "
             f"on {os.cpu_count()} cores.", "",
             "| suite | wall, min | exit | pytest's summaries |", "|---|---:|---:|---|"]
    for name, run in runs.items():
        lines.append(f"| {name} | {run['wall'] / 60:.1f} | {run['rc']} | {run['summary']} |")
    before, now = runs.values()
    ratio = now["wall"] / before["wall"]
    lines += ["", f"- Target ≤ 0.5× the time before: {ratio:.2f}×, {verdict(ratio <= 0.5 and now['rc'] == 0)}.", ""]
    for name, run in runs.items():
        if run["rc"]:
            lines += [f"- {name} failed; its last lines:", "", "```", run["tail"].strip(), "```", ""]
    return lines


def measured(section: str) -> str:
    return f"Measured {time.strftime('%Y-%m-%d')} by `python bench/run.py {section}`."


def splice(previous: str, sections: dict[str, list[str]]) -> str:
    """The results file with the given sections replaced (each from its `## N.` heading to the next `## `)."""
    parts = re.split(r"(?m)^(?=## )", previous)
    for name, lines in sections.items():
        number = SECTIONS.index(name) + 1
        at = next((i for i, part in enumerate(parts) if part.startswith(f"## {number}.")), None)
        text = "\n".join(lines) + "\n"
        if at is None:
            parts.append(text)
        else:
            parts[at] = text
    return "".join(parts)


def main(chosen: list[str]) -> None:
    unknown = [name for name in chosen if name not in SECTIONS]
    if unknown:
        raise SystemExit(f"unknown sections {unknown}: choose from {', '.join(SECTIONS)}")
    # The suite section runs `make test` twice (about half an hour): only when named.
    chosen = chosen or [name for name in SECTIONS if name != "suite"]
    makers = {"build": build_section, "math": math_section, "pages": pages_section, "offline": offline_section,
              "check": check_section, "python": python_section, "huge": huge_section, "suite": suite_section}
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        sections = {name: makers[name](work) for name in SECTIONS if name in chosen}
    info = versions()
    results = ROOT / "bench" / "results.md"
    # Notes come last, from notes.md, whatever was measured.
    previous = re.split(r"(?m)^## Notes$", results.read_text(encoding="utf-8"))[0] if results.exists() else ""
    if len(sections) >= len(SECTIONS) - 1 or not previous:
        text = "\n".join(["# Benchmark results", "",
                          f"Measured {time.strftime('%Y-%m-%d')} by `make bench` on {info['cpu']}.",
                          "Versions: " + ", ".join(f"{key} {value}" for key, value in info.items() if key != "cpu")
                          + ".", "", ""])
        kept_suite = [part for part in re.split(r"(?m)^(?=## )", previous) if part.startswith("## 8.")]
        text = splice(text, sections) + ("" if "suite" in sections else "".join(kept_suite))
    else:
        text = splice(previous, sections)
    notes = ROOT / "bench" / "notes.md"
    if notes.exists():
        text = text.rstrip("\n") + "\n\n## Notes\n\n" + notes.read_text(encoding="utf-8").strip() + "\n"
    results.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main(sys.argv[1:])
