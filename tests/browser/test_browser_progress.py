"""Course progress across pages (issue 16): each module's line on the home page, a mark on each module page in
the navigation, and "Continue where you left off", read from the learner's storage in every language, over http,
with instant navigation and from disk; with storage broken the home page still works and says so."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from support.browser import THEME_VIOLATIONS, axe_findings
from support.node import run_node_tests
from zadachnik.runtime.shipping import PROGRESS_MANIFEST

RL_QUIZ = "rl-for-llm/12-infrastructure/quiz/"
LLM_QUIZ = "modern-llms/09-pretraining/quiz/"
LLM_EXERCISES = "modern-llms/09-pretraining/exercises/"
RL_TOTAL = 14
LLM_TOTAL = 22
LLM_EXERCISE_COUNT = 5
STATE_WORDS = {
    "ru": {"new": "не начато", "started": "в процессе", "done": "выполнено"},
    "en": {"new": "not started", "started": "in progress", "done": "done"},
}
HOME_LINE = {
    "ru": "Проверено: {checked} / {total} · Верно: {correct}",
    "en": "Checked {checked} / {total} · Correct {correct}",
}
SOLUTIONS = {"ru": "Открыто решений: {opened} / {total}", "en": "Solutions opened {opened} / {total}"}
CONTINUE = {"ru": "Продолжить с того места, где вы остановились", "en": "Continue where you left off"}


# Every exercise's solution open, as the exercises page writes it.
ALL_SOLUTIONS_OPEN = {f"zadachnik:modern-llms/9/E{n}": {"v": 1, "t": 1, "reveals": {"solution": True}}
                      for n in range(1, LLM_EXERCISE_COUNT + 1)}


def put(page, entries: dict[str, object]) -> None:
    page.evaluate("(entries) => { for (const [key, value] of Object.entries(entries))"
                  " localStorage.setItem(key, JSON.stringify(value)); }", entries)


def prefix(lang: str) -> str:
    return "" if lang == "ru" else "en/"


def open_page(page, server: str, path: str, lang: str = "ru") -> None:
    page.goto(server + prefix(lang) + path)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")


def answer_p01(page) -> None:
    page.check("#q-P01 input[value='2']")
    page.click("#q-P01 [data-zq-check]")
    expect(page.locator("#q-P01 [data-zq-verdict]")).to_have_text(re.compile("✓"))


def module_line(page, course: str, module: int):
    return page.locator(f'[data-zq-progress-of="{course}/{module}"]')


MARK = """([path, state, words]) => {
    // Links are relative (the page's own is "./"): matched by the address they lead to.
    const link = [...document.querySelectorAll('.md-nav--primary a.md-nav__link')]
        .find((candidate) => candidate.href.split('#')[0].endsWith(path));
    const mark = link && link.querySelector(':scope > .zq-nav-mark');
    return Boolean(mark) && mark.dataset.zqState === state && mark.textContent.includes(words);
}"""


def expect_mark(page, path: str, state: str, lang: str) -> None:
    """The mark of a module page's link in the primary navigation: its state, said in words (not by a symbol or a
    colour alone)."""
    page.wait_for_function(MARK, arg=[path, state, STATE_WORDS[lang][state]])


def expect_home(page, lang: str, rl_checked: int, rl_correct: int) -> None:
    expect(module_line(page, "rl-for-llm", 12)).to_have_text(
        HOME_LINE[lang].format(checked=rl_checked, total=RL_TOTAL, correct=rl_correct))


# -- the manifest -----------------------------------------------------------------------------------------------


def manifest(site: Path) -> dict:
    text = (site / PROGRESS_MANIFEST).read_text(encoding="utf-8")
    assert text.startswith("window.__zqProgress = ") and text.endswith(";\n")
    data = text.removeprefix("window.__zqProgress = ").removesuffix(";\n")
    # Every page loads it: written without spaces.
    assert data == json.dumps(json.loads(data), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return json.loads(data)


def test_the_manifest_holds_each_modules_totals_and_pages(sample_site: Path) -> None:
    data = manifest(sample_site)
    modules = {(entry["course"], entry["module"]): entry for entry in data["modules"]}
    assert set(modules) == {("modern-llms", "9"), ("rl-for-llm", "12")}
    for (course, number), entry in modules.items():
        for lang in ("ru", "en"):
            for kind, url in entry["pages"][lang].items():
                html = (sample_site / url / "index.html").read_text(encoding="utf-8")
                # The page the manifest names is that module's page, and its totals are the page's own.
                assert f'data-zq-course="{course}" data-zq-module="{number}" data-zq-kind="{kind}"' in html
                if kind == "quiz":
                    assert f'data-zq-total="{len(entry["auto"])}"' in html
                    assert re.findall(r'data-zq-question="([^"]+)"', html) == entry["questions"]
                else:
                    assert re.findall(r'data-zq-exercise="([^"]+)"', html) == entry["exercises"]
    assert len(modules[("rl-for-llm", "12")]["auto"]) == RL_TOTAL
    assert modules[("rl-for-llm", "12")]["pages"]["en"] == {"quiz": "en/" + RL_QUIZ}
    assert len(modules[("modern-llms", "9")]["exercises"]) == LLM_EXERCISE_COUNT
    assert data["words"]["en"]["progress"] == HOME_LINE["en"]


def test_the_home_page_has_a_place_for_each_modules_progress(sample_site: Path) -> None:
    html = (sample_site / "en/index.html").read_text(encoding="utf-8")
    assert html.count("data-zq-progress-of=") == 2
    assert re.search(r'<p class="zq-continue" data-zq-continue data-zq-lang="en" hidden>', html)


# -- over http ---------------------------------------------------------------------------------------------------


def test_answering_shows_on_the_home_page_and_in_the_navigation_in_both_languages(page, sample_server) -> None:
    page.goto(sample_server)
    expect_home(page, "ru", 0, 0)
    expect_mark(page, RL_QUIZ, "new", "ru")
    open_page(page, sample_server, RL_QUIZ)
    answer_p01(page)
    page.fill("#zq-P03-kv_gib", "1")
    page.click("#q-P03 [data-zq-check]")
    expect(page.locator("#q-P03 [data-zq-verdict]")).to_have_text(re.compile("✗"))
    # The page's own mark follows at once; its table of contents, inside the navigation too (the drawer on a
    # phone), has no mark: a link to a place in the page is not the page's (each section was said "in progress").
    expect_mark(page, RL_QUIZ, "started", "ru")
    assert page.locator(".md-nav--primary .md-nav--secondary a.md-nav__link").count() > 0
    assert page.locator(".md-nav--primary a.md-nav__link[href*='#'] .zq-nav-mark").count() == 0
    expect_mark(page, LLM_QUIZ, "new", "ru")
    for lang in ("en", "ru"):
        page.goto(sample_server + prefix(lang))
        expect_home(page, lang, 2, 1)
        expect(module_line(page, "modern-llms", 9)).to_have_text(
            HOME_LINE[lang].format(checked=0, total=LLM_TOTAL, correct=0)
            + " · " + SOLUTIONS[lang].format(opened=0, total=LLM_EXERCISE_COUNT))
        expect_mark(page, RL_QUIZ, "started", lang)
        expect_mark(page, LLM_EXERCISES, "new", lang)
        page.reload()
        expect_home(page, lang, 2, 1)
        expect_mark(page, RL_QUIZ, "started", lang)


def count_reads(page) -> None:
    """From now on, `self.zqReads` counts the page's reads of localStorage."""
    page.evaluate("""() => {
        self.zqReads = 0;
        const read = Storage.prototype.getItem;
        Storage.prototype.getItem = function (key) { self.zqReads += 1; return read.call(this, key); };
    }""")


def test_typing_reads_the_modules_entries_once_the_learner_pauses_not_at_every_key(page, sample_server) -> None:
    """Was a bug: each keystroke counted the module's progress for the navigation anew, reading and parsing every
    entry of the module (a 300-question page lost a quarter of a second a key on a slow phone). The marks follow
    once the typing pauses."""
    open_page(page, sample_server, RL_QUIZ)
    expect_mark(page, RL_QUIZ, "new", "ru")
    count_reads(page)
    page.locator("#zq-P03-kv_gib").press_sequentially("12345678", delay=20)
    reads_while_typing = page.evaluate("self.zqReads")
    questions = page.evaluate("""() => window.__zqProgress.modules
        .find((module) => module.course === 'rl-for-llm' && module.module === '12').questions.length""")
    # Its own entry and the last place, a few times a key: not the module's every question at each of the 8.
    assert reads_while_typing < 2 * questions, (reads_while_typing, questions)
    expect_mark(page, RL_QUIZ, "started", "ru")


def test_the_other_languages_tab_counts_once_the_typing_pauses(page, sample_server) -> None:
    """Was a bug: each key typed in one tab made the page's other language, open in another tab, count the whole
    site's progress twice (the answer's storage event and the last place's), reading and parsing every entry of
    every module: 203 ms a key on a slow phone for a 300-question module."""
    open_page(page, sample_server, RL_QUIZ, lang="en")
    expect_mark(page, RL_QUIZ, "new", "en")
    count_reads(page)
    typing = page.context.new_page()
    open_page(typing, sample_server, RL_QUIZ)
    typing.locator("#zq-P03-kv_gib").press_sequentially("12345678", delay=20)
    expect(page.locator("#zq-P03-kv_gib")).to_have_value("12345678")
    expect_mark(page, RL_QUIZ, "started", "en")
    entries = page.evaluate("""() => window.__zqProgress.modules
        .reduce((sum, module) => sum + module.questions.length + module.exercises.length, 0)""")
    reads = page.evaluate("self.zqReads")
    # Two counts of the whole site a key were 2 × 8 × entries reads (440 here); now the changed entry at each key
    # and the site once the typing pauses (56), a few times over on a loaded machine: under one count a key.
    assert reads < 8 * entries, (reads, entries)


def test_opened_solutions_count_and_a_page_is_done_when_all_is_checked(page, sample_server) -> None:
    open_page(page, sample_server, LLM_EXERCISES, lang="en")
    page.locator('#e-E1 [data-zq-reveal="solution"] > summary').click()
    page.locator('#e-E2 [data-zq-reveal="solution"] > summary').click()
    expect_mark(page, LLM_EXERCISES, "started", "en")
    page.goto(sample_server)
    expect(module_line(page, "modern-llms", 9)).to_contain_text(SOLUTIONS["ru"].format(opened=2, total=5))
    # Every exercise's solution open: the page is done.
    put(page, ALL_SOLUTIONS_OPEN)
    page.reload()
    expect_mark(page, LLM_EXERCISES, "done", "ru")
    expect_mark(page, LLM_QUIZ, "new", "ru")


def test_an_entry_of_the_wrong_shape_counts_for_nothing_and_is_left_for_its_page(page, sample_server) -> None:
    page.goto(sample_server)
    bad = {"v": 1, "t": 1, "verdict": {"status": 3}}
    page.evaluate("(bad) => localStorage.setItem('zadachnik:rl-for-llm/12/P01', JSON.stringify(bad))", bad)
    page.reload()
    expect_home(page, "ru", 0, 0)
    expect_mark(page, RL_QUIZ, "new", "ru")
    # Only its quiz page, which knows the question, sets it aside.
    assert json.loads(page.evaluate("localStorage.getItem('zadachnik:rl-for-llm/12/P01')")) == bad


def test_another_tabs_answer_shows_on_the_home_page_at_once_and_a_reset_clears_the_mark(page, sample_server) -> None:
    page.goto(sample_server + "en/")
    expect_home(page, "en", 0, 0)
    quiz = page.context.new_page()
    errors: list[str] = []
    quiz.on("pageerror", lambda error: errors.append(str(error)))
    open_page(quiz, sample_server, RL_QUIZ)
    answer_p01(quiz)
    # The other tab's write arrives as a storage event: no reload.
    expect_home(page, "en", 1, 1)
    expect_mark(page, RL_QUIZ, "started", "en")
    quiz.once("dialog", lambda dialog: dialog.accept())
    quiz.click("[data-zq-reset]")
    expect_mark(quiz, RL_QUIZ, "new", "ru")
    expect_home(page, "en", 0, 0)
    assert not errors, errors


def test_marks_do_not_move_the_navigation(page, sample_server) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    open_page(page, sample_server, RL_QUIZ, lang="en")
    answer_p01(page)
    expect_mark(page, RL_QUIZ, "started", "en")
    links = page.locator(".md-nav--primary a.md-nav__link:has(.zq-nav-mark)")
    assert links.count() >= 3
    # Measured, marks taken out, measured again, in one go: nothing else can move the page in between.
    marked, unmarked = page.evaluate("""() => {
        const boxes = () => [...document.querySelectorAll(
            '.md-nav--primary a.md-nav__link, .md-nav--primary a.md-nav__link > .md-ellipsis')]
            .map((element) => { const box = element.getBoundingClientRect();
                                return [box.x, box.y, box.width, box.height]; });
        const marked = boxes();
        document.querySelectorAll('.zq-nav-mark').forEach((mark) => mark.remove());
        return [marked, boxes()];
    }""")
    assert unmarked == marked, "the text and the lines stay where they are with or without marks"


def test_the_home_page_does_not_move_when_its_progress_is_filled_in(page, sample_server) -> None:
    open_page(page, sample_server, RL_QUIZ, lang="en")
    answer_p01(page)
    page.goto(sample_server + "en/")
    expect_home(page, "en", 1, 1)
    expect(page.locator("[data-zq-continue]")).to_be_visible()

    # As built, before the browser fills them in, the lines and the link take the same room.
    filled, empty = page.evaluate("""() => {
        const boxes = () => [...document.querySelectorAll('.md-content :is(h2, li, p)')]
            .map((element) => { const box = element.getBoundingClientRect();
                                return [box.x, box.y, box.width, box.height]; });
        const filled = boxes();
        document.querySelectorAll('[data-zq-progress-of]').forEach((line) => { line.textContent = ''; });
        document.querySelectorAll('[data-zq-continue]').forEach((link) => { link.hidden = true; });
        return [filled, boxes()];
    }""")
    assert empty == filled


def test_continue_leads_to_the_last_question_in_the_home_pages_language(page, sample_server) -> None:
    page.goto(sample_server + "en/")
    expect_home(page, "en", 0, 0)
    expect(page.locator("[data-zq-continue]")).to_be_hidden()
    open_page(page, sample_server, RL_QUIZ)
    page.fill("#zq-P05-seq", "600")
    page.goto(sample_server + "en/")
    link = page.locator("[data-zq-continue] a")
    expect(link).to_be_visible()
    expect(link).to_have_text(CONTINUE["en"])
    assert link.get_attribute("href").endswith("/en/" + RL_QUIZ + "#q-P05")
    link.click()
    page.wait_for_selector('.zq-page[data-zq-lang="en"][data-zq-ready=yes]')
    assert page.url == sample_server + "en/" + RL_QUIZ + "#q-P05"
    expect(page.locator("#q-P05")).to_be_in_viewport()
    assert page.input_value("#zq-P05-seq") == "600"
    # Opening a solution is touching too; the Russian home leads there in Russian.
    open_page(page, sample_server, LLM_EXERCISES, lang="en")
    page.locator('#e-E3 [data-zq-reveal="solution"] > summary').click()
    page.goto(sample_server)
    link = page.locator("[data-zq-continue] a")
    expect(link).to_have_attribute("href", sample_server + LLM_EXERCISES + "#e-E3")
    expect(link).to_be_visible()
    expect(link).to_have_text(CONTINUE["ru"])


def test_a_last_place_that_is_not_a_question_of_the_site_is_ignored(page, sample_server) -> None:
    page.goto(sample_server)
    good = {"course": "rl-for-llm", "module": "12", "kind": "quiz", "anchor": "q-P01"}
    junk_places = ["{oops", "[]", "null", *(json.dumps({**good, **change}) for change in [
        {"anchor": 5}, {"course": "gone"}, {"module": 12}, {"anchor": "q-P99"}, {"anchor": "e-P01"},
        {"kind": "exercises"}, {"kind": "constructor"}, {"kind": "__proto__"}])]
    for junk in junk_places:
        page.evaluate("(text) => localStorage.setItem('zadachnik-last-place', text)", junk)
        page.reload()
        expect_home(page, "ru", 0, 0)
        expect(page.locator("[data-zq-continue]")).to_be_hidden()
    page.evaluate("(text) => localStorage.setItem('zadachnik-last-place', text)", json.dumps(good))
    page.reload()
    expect(page.locator("[data-zq-continue] a")).to_have_attribute("href", sample_server + RL_QUIZ + "#q-P01")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_in_the_progress_shown(page, sample_server, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    open_page(page, sample_server, RL_QUIZ, lang="en")
    answer_p01(page)
    put(page, ALL_SOLUTIONS_OPEN)
    page.goto(sample_server + "en/")
    expect_home(page, "en", 1, 1)
    expect_mark(page, LLM_EXERCISES, "done", "en")
    expect_mark(page, RL_QUIZ, "started", "en")
    expect_mark(page, LLM_QUIZ, "new", "en")
    expect(page.locator("[data-zq-continue]")).to_be_visible()
    # Every section of the navigation open: axe checks only what is shown.
    page.evaluate("document.querySelectorAll('.md-nav--primary .md-nav__toggle')"
                  ".forEach((toggle) => { toggle.checked = true; })")
    for mark in page.locator(".md-nav--primary .zq-nav-mark").all():
        expect(mark).to_be_visible()
    # Material fades opened sections in: a link measured mid-fade is half transparent, and axe then finds a
    # contrast its readers never see (a flaky failure until this waited for the fades to end).
    page.wait_for_function("document.getAnimations().every((animation) => animation.playState !== 'running')")
    findings = axe_findings(page)
    serious = [f for f in findings if f[1] in ("serious", "critical") and (f[0], f[2]) not in THEME_VIOLATIONS]
    assert not serious, serious


BROKEN = {
    # Reading fails: the home page says so, with the quiz pages' words.
    "getItem throws": ("const read = Storage.prototype.getItem; Storage.prototype.getItem = function (key) {"
                       " if (String(key).startsWith('zadachnik')) throw new DOMException('denied', 'SecurityError');"
                       " return read.call(this, key); };", True),
    # Writing fails (full, or disabled as in some private modes): nothing is wrong until a page writes.
    "setItem throws": ("Storage.prototype.setItem = function () {"
                       " throw new DOMException('full', 'QuotaExceededError'); };", False),
}


@pytest.mark.parametrize("case", BROKEN.values(), ids=BROKEN.keys())
def test_the_home_page_works_with_storage_broken(page, sample_server, case) -> None:
    script, said = case
    page.add_init_script(script)
    page.goto(sample_server + "en/")
    expect_home(page, "en", 0, 0)
    expect_mark(page, RL_QUIZ, "new", "en")
    note = page.locator("[data-zq-storage]")
    if said:
        expect(note).to_have_text(re.compile("^Progress can’t be saved in this browser"))
    else:
        expect(note).to_be_hidden()
    expect(page.locator("[data-zq-continue]")).to_be_hidden()
    # The list's links still lead to the pages, which work as they do with such storage: what is answered there
    # shows in the navigation (kept in memory when it could not be saved).
    page.locator(f'.md-content a[href="{RL_QUIZ}"]').click()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    answer_p01(page)
    expect_mark(page, RL_QUIZ, "started", "en")
    expect(page.locator(".zq-page [data-zq-storage]")).to_contain_text("Progress can’t be saved in this browser")


# -- instant navigation and the offline copy ---------------------------------------------------------------------


def test_progress_with_instant_navigation(page, instant_server) -> None:
    page.goto(instant_server + "en/")
    expect_home(page, "en", 0, 0)
    page.evaluate("window.zqSamePage = true")
    page.evaluate(f"document.querySelector('.md-content a[href*=\"{RL_QUIZ}\"]').click()")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    answer_p01(page)
    page.fill("#zq-P05-seq", "600")
    expect_mark(page, RL_QUIZ, "started", "en")
    page.evaluate("[...document.querySelectorAll('.md-nav--primary a.md-nav__link')]"
                  ".find((link) => link.href === location.origin + '/en/').click()")
    expect_home(page, "en", 1, 1)
    assert page.evaluate("window.zqSamePage"), "instant navigation: no reload"
    expect_mark(page, RL_QUIZ, "started", "en")
    link = page.locator("[data-zq-continue] a")
    expect(link).to_be_visible()
    link.scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 0
    # Material writes the offset into the history entry 100 ms after a scroll: a click before that lands it on the
    # next page's entry, and Material then restores that offset instead of going to the address's #anchor.
    page.wait_for_function("history.state !== null && history.state.y === window.scrollY")
    link.click()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.url == instant_server + "en/" + RL_QUIZ + "#q-P05"
    expect(page.locator("#q-P05")).to_be_in_viewport()
    assert page.input_value("#zq-P05-seq") == "600"
    assert page.evaluate("window.zqSamePage"), "instant navigation: no reload"


@pytest.mark.own_context
def test_the_offline_copy_shows_progress_from_disk(page, offline_copy: Path) -> None:
    page.goto((offline_copy / "demo/01-basics/quiz.html").as_uri())
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.check("#q-Q1 input[value=B]")
    page.click("#q-Q1 [data-zq-check]")
    expect(page.locator("#q-Q1 [data-zq-verdict]")).to_have_text("✓ Верно")
    expect_mark(page, "demo/01-basics/quiz.html", "started", "ru")
    page.goto((offline_copy / "en/index.html").as_uri())
    expect(module_line(page, "demo", 1)).to_contain_text("Checked 1 / 7 · Correct 1")
    expect_mark(page, "demo/01-basics/quiz.html", "started", "en")
    link = page.locator("[data-zq-continue] a")
    expect(link).to_have_text(CONTINUE["en"])
    link.click()
    page.wait_for_selector('.zq-page[data-zq-lang="en"][data-zq-ready=yes]')
    assert page.url == (offline_copy / "en/demo/01-basics/quiz.html").as_uri() + "#q-Q1"


def test_how_progress_counts_a_saved_entry() -> None:
    run_node_tests("js_progress.test.mjs")
