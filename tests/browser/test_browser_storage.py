"""The learner's saved work in Chromium: malformed, full, shared, broken and hostile storage; two tabs;
reveals saved the moment they are opened; exercise notes. Unit tests of the store itself run in Node."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from support.browser import let_runtime_go, opened_with_runtime_held, serve
from support.sites import FIXTURE_SITE, ROOT, build_site, copy_site

QUIZ = "demo/01-basics/quiz/"
EXERCISES = "demo/01-basics/exercises/"
KEY = "zadachnik:demo/1/"
SET_ASIDE = "zadachnik-quarantine:demo/1/"


def watched(page):
    """A page whose script errors fail the test."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def ready(page) -> None:
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")


def open_page(page, server: str, path: str = QUIZ, lang: str = "ru"):
    page.goto(server + ("en/" if lang == "en" else "") + path)
    ready(page)
    return page


def verdict(page, qid: str) -> str:
    return page.locator(f"#q-{qid} [data-zq-verdict]").inner_text()


def check(page, qid: str) -> str:
    page.click(f"#q-{qid} [data-zq-check]")
    return verdict(page, qid)


def stored(page, qid: str):
    text = page.evaluate(f"localStorage.getItem('{KEY}{qid}')")
    return json.loads(text) if text is not None else None


def put(page, entries: dict[str, object]) -> None:
    """Writes raw values (strings as they are, anything else as JSON) straight into localStorage."""
    raw = {key: value if isinstance(value, str) else json.dumps(value) for key, value in entries.items()}
    page.evaluate("(raw) => { for (const [k, v] of Object.entries(raw)) localStorage.setItem(k, v); }", raw)


def seed(page, server: str, entries: dict[str, object]) -> None:
    """Entries written from the site's home page, which has no questions: no page of ours reads them before
    the test opens one (leaving a quiz page re-reads its entries, and would set bad ones aside already)."""
    page.goto(server)
    put(page, entries)


def export(page, tmp_path: Path, name: str = "progress.json") -> dict:
    with page.expect_download() as download:
        page.click("[data-zq-export]")
    target = tmp_path / name
    download.value.save_as(target)
    return json.loads(target.read_text(encoding="utf-8"))


def import_file(page, tmp_path: Path, document: object, name: str = "import.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    page.evaluate("document.querySelector('[data-zq-tools-result]').textContent = ''")
    page.set_input_files("[data-zq-import]", str(path))
    page.wait_for_function("document.querySelector('[data-zq-tools-result]').textContent.length > 0")
    return page.locator("[data-zq-tools-result]").inner_text()


def fill_storage(page) -> int:
    """Another app on the same origin fills localStorage to its quota; returns how many characters it took."""
    return page.evaluate("""() => {
        let chunk = 'x'.repeat(1 << 20), index = 0, used = 0;
        while (chunk.length >= 1) {
            try { localStorage.setItem('other-app:' + index, chunk); index += 1; used += chunk.length; }
            catch { chunk = chunk.slice(0, chunk.length >> 1); }
        }
        return used;
    }""")


# -- Store unit tests in Node ------------------------------------------------------------------------


def test_store_in_node() -> None:
    """Store against fake storages that throw, fill up, hold junk or are shared by two tabs."""
    node = shutil.which("node")
    assert node, "Node.js is needed for the store's unit tests"
    result = subprocess.run([node, "--test", str(ROOT / "tests/js/js_storage.test.mjs")], capture_output=True,
                            text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


# -- a malformed entry -------------------------------------------------------------------------------

MALFORMED = {
    "choice is a number": {"answer": {"choice": 5}},
    "verdict is empty": {"answer": {"choice": ["B"]}, "verdict": {}},
    "choice is a string": {"answer": {"choice": "B"}},
    "reveals is a list": {"reveals": ["explanation"]},
}


@pytest.mark.parametrize("bad", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_entry_is_set_aside_and_the_page_keeps_working(page, fixture_server, tmp_path, bad) -> None:
    seed(page, fixture_server, {
        f"{KEY}Q1": {"v": 1, "t": 1, **bad},
        f"{KEY}Q3": {"v": 1, "t": 1, "answer": {"fields": {"ratio": "16/7", "mem": ""}}},
        f"{KEY}Q5": {"v": 1, "t": 1, "notes": "draft"},
    })
    open_page(page, fixture_server)
    # Questions after the bad one are restored, and the tools are there.
    assert page.input_value("#zq-Q3-ratio") == "16/7"
    assert page.input_value("#zq-Q5-notes") == "draft"
    assert page.locator("[data-zq-tools]").is_visible()
    note = page.locator("[data-zq-storage]")
    assert note.is_visible() and "повреждена" in note.inner_text()
    # Set aside, not lost: moved under the quarantine key, and carried by an export.
    raw = page.evaluate(f"localStorage.getItem('{SET_ASIDE}Q1')")
    assert json.loads(raw) == {"v": 1, "t": 1, **bad}
    assert stored(page, "Q1") is None
    assert export(page, tmp_path)["quarantined"] == {f"{SET_ASIDE}Q1": raw}
    # Every question still saves, the bad one included.
    page.check("#q-Q1 input[value=B]")
    assert check(page, "Q1") == "✓ Верно"
    page.check("#q-Q2 input[value='3']")
    assert stored(page, "Q1")["verdict"]["status"] == "correct"
    assert stored(page, "Q2")["answer"] == {"choice": ["3"]}
    page.reload()
    ready(page)
    assert page.is_checked("#q-Q2 input[value='3']") and verdict(page, "Q1") == "✓ Верно"
    assert note.is_hidden(), "reported once: the entry is out of the way now"


def test_import_with_one_bad_entry_changes_nothing_and_says_what_is_wrong(page, fixture_server, tmp_path) -> None:
    open_page(page, fixture_server, lang="en")
    page.fill("#zq-Q5-notes", "mine")
    message = import_file(page, tmp_path, {
        "format": "zadachnik-progress", "schema": 1,
        "entries": {
            f"{KEY}Q3": {"v": 1, "t": 9e12, "answer": {"fields": {"ratio": "2", "mem": "78"}}},
            f"{KEY}Q5": {"v": 1, "t": 9e12, "notes": "imported"},
            f"{KEY}Q1": {"v": 1, "t": 9e12, "answer": {"choice": 5}},
        },
    })
    assert "nothing was changed" in message
    assert "demo/1/Q1" in message and "answer.choice" in message and "a list of strings" in message
    assert page.input_value("#zq-Q5-notes") == "mine"
    assert stored(page, "Q5")["notes"] == "mine" and stored(page, "Q3") is None


def test_import_refusals_name_the_problem_in_russian(page, fixture_server, tmp_path) -> None:
    open_page(page, fixture_server)
    message = import_file(page, tmp_path, {"format": "zadachnik-progress", "entries": {"zadachnik:settings": {}}})
    assert message == "Файл не загружен, ничего не изменено: «zadachnik:settings»\u00a0— не ключ записи Задачника."
    message = import_file(page, tmp_path, {
        "format": "zadachnik-progress", "entries": {f"{KEY}Q1": {"verdict": {"status": 3}}},
    }, "second.json")
    assert message.startswith("Файл не загружен, ничего не изменено: в записи demo/1/Q1 поле verdict.status")


# -- full storage ------------------------------------------------------------------------------------


def answer_six(page) -> None:
    page.check("#q-Q1 input[value=B]")
    check(page, "Q1")
    page.check("#q-Q2 input[value='3']")
    page.fill("#zq-Q3-ratio", "2,2857")
    page.select_option("#zq-Q4-1", "B")
    page.fill("#zq-Q5-notes", "Rayleigh")
    page.fill("#zq-Q6-rho", "0,8")


def assert_six_shown(page) -> None:
    assert page.is_checked("#q-Q1 input[value=B]") and verdict(page, "Q1") == "✓ Верно"
    assert page.is_checked("#q-Q2 input[value='3']")
    assert page.input_value("#zq-Q3-ratio") == "2,2857"
    assert page.input_value("#zq-Q4-1") == "B"
    assert page.input_value("#zq-Q5-notes") == "Rayleigh"
    assert page.input_value("#zq-Q6-rho") == "0,8"


def test_full_storage_still_shows_saved_progress_and_exports_everything(page, fixture_server, tmp_path) -> None:
    open_page(page, fixture_server)
    answer_six(page)
    assert fill_storage(page) > 0
    page.reload()
    ready(page)
    assert_six_shown(page)
    note = page.locator("[data-zq-storage]")
    assert note.is_hidden(), "nothing is wrong until a write fails"
    page.fill("#zq-Q8-x", "4/7")
    assert note.is_visible() and "не удаётся сохранить" in note.inner_text()
    page.fill("#zq-Q8-x", "8/14")
    assert page.locator("[data-zq-storage]").inner_text().count("не удаётся") == 1, "said once"
    entries = export(page, tmp_path)["entries"]
    assert sorted(entries) == [KEY + q for q in ("Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q8")]
    assert entries[f"{KEY}Q8"]["answer"] == {"fields": {"x": "8/14"}}


def comes_into_view(locator) -> bool:
    """Whether the element is (or is soon scrolled) wholly inside the window, to the pixel."""
    try:
        locator.page.wait_for_function("""(element) => { const box = element.getBoundingClientRect();
            return box.top >= 0 && box.bottom <= innerHeight + 1; }""", arg=locator.element_handle(), timeout=3000)
    except PlaywrightTimeout:
        return False
    return True


@pytest.mark.parametrize("size", [None, {"width": 360, "height": 640}], ids=["desktop", "phone"])
def test_storage_filling_while_typing_is_said_where_the_learner_is(page, fixture_server, tmp_path, size) -> None:
    """The note, at the top of the page, was off-screen and silent while the learner typed far below it. It comes
    just below the field, into sight, without covering the field or what follows."""
    if size:
        page.set_viewport_size(size)
    open_page(page, fixture_server)
    fill_storage(page)
    field = page.locator("#zq-Q8-x")
    field.fill("4/7")
    note = page.locator("#q-Q8 .zq-field + [data-zq-storage]")
    expect(note).to_contain_text("не удаётся сохранить")
    assert comes_into_view(note), "beside the question being typed in"
    assert comes_into_view(field), "the field stays in sight"
    for control in (field, page.locator("#q-Q8 [data-zq-check]")):
        assert control.evaluate("""(control) => { const box = control.getBoundingClientRect();
            const seen = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            return !seen || !seen.closest('[data-zq-storage]'); }"""), "the note covers nothing"
    expect(page.locator("[data-zq-live]")).to_contain_text("не удаётся сохранить")
    with page.expect_download() as download:
        note.locator("button").click()
    download.value.save_as(tmp_path / "kept.json")
    entries = json.loads((tmp_path / "kept.json").read_text(encoding="utf-8"))["entries"]
    assert entries[f"{KEY}Q8"]["answer"] == {"fields": {"x": "4/7"}}


def asked_on_leaving(page) -> list[str]:
    """The dialogs the page raised as it was left (reloaded; each accepted, so it goes)."""
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.accept()))
    page.reload()
    ready(page)
    return asked


def test_leaving_with_answers_storage_could_not_keep_asks_first(context, fixture_server, tmp_path) -> None:
    saved = open_page(context.new_page(), fixture_server)
    saved.fill("#zq-Q8-x", "4/7")
    assert asked_on_leaving(saved) == [], "nothing unsaved: leaving asks nothing"
    # Each page below types where nothing was saved: a same-sized change of a saved entry fits in full storage.
    page = open_page(context.new_page(), fixture_server)
    fill_storage(page)
    page.fill("#zq-Q5-notes", "Rayleigh")
    assert asked_on_leaving(page) == ["beforeunload"]
    exported = open_page(context.new_page(), fixture_server)
    exported.fill("#zq-Q6-rho", "0,8")
    expect(exported.locator("[data-zq-storage]")).to_be_visible()
    assert export(exported, tmp_path)["entries"][f"{KEY}Q6"]["answer"]["fields"]["rho"] == "0,8"
    assert asked_on_leaving(exported) == [], "what was unsaved is in the file"


def test_an_import_into_full_storage_alone_asks_nothing_on_leaving(context, fixture_server, tmp_path) -> None:
    """What an import could not store is in the learner's file: leaving loses nothing of it."""
    page = open_page(context.new_page(), fixture_server)
    page.fill("#zq-Q5-notes", "Rayleigh")
    data = export(page, tmp_path)
    page.evaluate("localStorage.clear()")
    page.reload()
    ready(page)
    fill_storage(page)
    assert "только до закрытия страницы" in import_file(page, tmp_path, data)
    assert asked_on_leaving(page) == []


def test_a_check_whose_verdict_storage_refuses_says_both(page, fixture_server) -> None:
    """The answer fitted, the verdict did not: the live region said the storage note, then the verdict in the same
    task, and a screen reader heard only the verdict."""
    page.add_init_script("""{
        const write = Storage.prototype.setItem;
        Storage.prototype.setItem = function (key, value) {
            if (String(value).includes('"verdict":{')) throw new DOMException('full', 'QuotaExceededError');
            return write.call(this, key, value);
        };
    }""")
    open_page(page, fixture_server)
    page.check("#q-Q1 input[value=B]")
    page.click("#q-Q1 [data-zq-check]")
    live = page.locator("[data-zq-live]")
    expect(live).to_contain_text("Верно")
    expect(live).to_contain_text("не удаётся сохранить")
    expect(page.locator("#q-Q1 [data-zq-storage]")).to_be_visible()


def test_an_opened_solution_storage_refuses_keeps_the_note_in_sight(page, fixture_server) -> None:
    """The note went after the whole solution and the page scrolled there, taking the learner away from it."""
    open_page(page, fixture_server, EXERCISES)
    fill_storage(page)
    summary = page.locator('#e-E1 [data-zq-reveal="solution"] > summary')
    summary.click()
    note = page.locator("#e-E1 [data-zq-storage]")
    expect(note).to_be_visible()
    assert comes_into_view(note) and comes_into_view(summary)


def test_a_reveal_closed_while_storage_refuses_keeps_the_note_in_sight(page, fixture_server) -> None:
    """Closing a reveal put the note just after its summary: inside the reveal it closed, hidden."""
    open_page(page, fixture_server, EXERCISES)
    fill_storage(page)
    summary = page.locator('#e-E1 [data-zq-reveal="solution"] > summary')
    summary.click()
    summary.click()
    expect(page.locator('#e-E1 [data-zq-reveal="solution"]')).not_to_have_attribute("open", "")
    note = page.locator("#e-E1 [data-zq-storage]")
    expect(note).to_be_visible()
    assert comes_into_view(note) and comes_into_view(summary)


# -- two tabs ----------------------------------------------------------------------------------------


def test_two_tabs_see_each_other_and_lose_nothing(context, fixture_server) -> None:
    russian = open_page(watched(context.new_page()), fixture_server)
    english = open_page(watched(context.new_page()), fixture_server, lang="en")
    russian.check("#q-Q1 input[value=B]")
    assert check(russian, "Q1") == "✓ Верно"
    english.wait_for_function("document.querySelector('#q-Q1 [data-zq-verdict]').textContent === '✓ Correct'")
    assert english.is_checked("#q-Q1 input[value=B]")
    assert english.locator("[data-zq-progress]").inner_text() == "Checked 1 / 7 · Correct 1"
    english.locator("#q-Q1 details summary").click()
    english.fill("#zq-Q5-notes", "from English")
    russian.wait_for_function("document.querySelector('#zq-Q5-notes').value === 'from English'")
    russian.wait_for_function("document.querySelector('#q-Q1 details').open")
    russian.fill("#zq-Q3-ratio", "2,2857")
    english.wait_for_function("document.querySelector('#zq-Q3-ratio').value === '2,2857'")
    english.fill("#zq-Q3-mem", "78")
    russian.wait_for_function("document.querySelector('#zq-Q3-mem').value === '78'")
    russian.locator("#q-Q5 details summary").click()
    english.wait_for_function("document.querySelector('#q-Q5 details').open")
    for tab in (russian, english):
        tab.reload()
        ready(tab)
        assert tab.is_checked("#q-Q1 input[value=B]")
        assert tab.locator("#q-Q1 details").get_attribute("open") is not None
        assert tab.input_value("#zq-Q3-ratio") == "2,2857" and tab.input_value("#zq-Q3-mem") == "78"
        assert tab.input_value("#zq-Q5-notes") == "from English"
        assert tab.locator("#q-Q5 details").get_attribute("open") is not None
        assert not tab.errors, tab.errors


def test_other_tab_never_clobbers_what_is_being_typed(context, fixture_server) -> None:
    typing = open_page(watched(context.new_page()), fixture_server)
    other = open_page(watched(context.new_page()), fixture_server, lang="en")
    typing.click("#zq-Q3-mem")
    typing.keyboard.type("7")
    other.wait_for_function("document.querySelector('#zq-Q3-mem').value === '7'")
    # The other tab writes the very field being typed in, and another field of the same question.
    other.fill("#zq-Q3-mem", "9")
    other.fill("#zq-Q3-ratio", "2,2857")
    typing.wait_for_function("document.querySelector('#zq-Q3-ratio').value === '2,2857'")
    assert typing.input_value("#zq-Q3-mem") == "7", "the field being typed in keeps its text"
    assert typing.evaluate("[document.activeElement.id, document.activeElement.selectionStart]") == ["zq-Q3-mem", 1]
    typing.keyboard.type("8")
    assert typing.input_value("#zq-Q3-mem") == "78"
    other.wait_for_function("document.querySelector('#zq-Q3-mem').value === '78'")
    assert stored(typing, "Q3")["answer"] == {"fields": {"ratio": "2,2857", "mem": "78"}}
    # Notes being typed keep their text too, while the same question's reveal follows the other tab.
    typing.click("#zq-Q5-notes")
    typing.keyboard.type("half a tho")
    other.wait_for_function("document.querySelector('#zq-Q5-notes').value === 'half a tho'")
    other.fill("#zq-Q5-notes", "theirs")
    other.locator("#q-Q5 details summary").click()
    typing.wait_for_function("document.querySelector('#q-Q5 details').open")
    assert typing.input_value("#zq-Q5-notes") == "half a tho"
    typing.keyboard.type("ught")
    assert typing.input_value("#zq-Q5-notes") == "half a thought"
    other.wait_for_function("document.querySelector('#zq-Q5-notes').value === 'half a thought'")
    assert stored(typing, "Q5")["notes"] == "half a thought" and stored(typing, "Q5")["reveals"]["explanation"]
    assert not typing.errors and not other.errors


def test_exercise_pages_in_two_tabs_follow_each_other(context, fixture_server) -> None:
    russian = open_page(watched(context.new_page()), fixture_server, EXERCISES)
    english = open_page(watched(context.new_page()), fixture_server, EXERCISES, lang="en")
    russian.fill("#zq-E1-notes", "пары: 1+n, 2+(n-1)")
    english.wait_for_function("document.querySelector('#zq-E1-notes').value === 'пары: 1+n, 2+(n-1)'")
    english.locator('#e-E2 [data-zq-reveal="criteria"] summary').click()
    russian.wait_for_function("document.querySelector('#e-E2 [data-zq-reveal=\"criteria\"]').open")
    russian.once("dialog", lambda dialog: dialog.accept())
    russian.click("[data-zq-reset]")
    english.wait_for_function("document.querySelector('#zq-E1-notes').value === ''"
                              " && !document.querySelector('#e-E2 [data-zq-reveal=\"criteria\"]').open")
    assert not russian.errors and not english.errors


def test_clearing_storage_in_another_tab_shows_an_empty_page(context, fixture_server) -> None:
    first = open_page(watched(context.new_page()), fixture_server)
    second = open_page(watched(context.new_page()), fixture_server, lang="en")
    first.fill("#zq-Q5-notes", "gone soon")
    second.wait_for_function("document.querySelector('#zq-Q5-notes').value === 'gone soon'")
    first.evaluate("localStorage.clear()")
    second.wait_for_function("document.querySelector('#zq-Q5-notes').value === ''")


# -- reveals are saved the moment they open ----------------------------------------------------------

# The toggle event comes a task after the click; these tests stop it reaching the page, so only a save made
# on the click itself (or on leaving the page) can keep the reveal: they never depend on timing.
NO_TOGGLE = "window.addEventListener('toggle', (event) => event.stopImmediatePropagation(), true);"


def test_reveal_is_saved_by_the_click_itself(page, fixture_server) -> None:
    open_page(page, fixture_server, EXERCISES)
    saved = page.evaluate(f"""() => {{
        document.querySelector('#e-E2 [data-zq-reveal="criteria"] summary').click();
        return localStorage.getItem('{KEY}E2');
    }}""")
    assert saved is not None and json.loads(saved)["reveals"] == {"criteria": True}


def test_reveal_opened_by_keyboard_is_saved(page, fixture_server) -> None:
    page.add_init_script(NO_TOGGLE)
    open_page(page, fixture_server, EXERCISES)
    page.focus('#e-E1 [data-zq-reveal="solution"] summary')
    page.keyboard.press("Enter")
    assert stored(page, "E1")["reveals"] == {"solution": True}
    page.keyboard.press(" ")
    assert stored(page, "E1")["reveals"] == {"solution": False}


def test_reveal_opened_without_a_click_is_saved_when_leaving(page, fixture_server) -> None:
    page.add_init_script(NO_TOGGLE)
    open_page(page, fixture_server, EXERCISES)
    # As a browser does for find-in-page or a link to an anchor inside the solution.
    page.evaluate("document.querySelector('#e-E1 [data-zq-reveal=\"solution\"]').open = true")
    open_page(page, fixture_server, EXERCISES, lang="en")
    assert page.locator('#e-E1 [data-zq-reveal="solution"]').get_attribute("open") is not None


@pytest.fixture(scope="module")
def instant_server(tmp_path_factory):
    """The fixture site with Material's instant navigation on."""
    source = copy_site(FIXTURE_SITE, tmp_path_factory.mktemp("instant") / "src")
    site = source / "build"
    site.mkdir()
    # Instant navigation takes only links its sitemap lists, as site_url + path: the server's own address.
    url, server = serve(site)
    config = source / "mkdocs.yml"
    features = "    - content.tabs.link\n"
    text = config.read_text().replace(features, features + "    - navigation.instant\n")
    config.write_text(f"site_url: {url}\n" + text)
    build_site(config, site)
    yield url
    server.shutdown()


def test_reveal_survives_instant_navigation(page, instant_server) -> None:
    """Leaving by instant navigation: no pagehide, so only the click's own save keeps the reveal."""
    page.add_init_script(NO_TOGGLE)
    open_page(page, instant_server, EXERCISES)
    page.evaluate("window.__samePage = true")
    page.locator('#e-E2 [data-zq-reveal="criteria"] summary').click()
    page.locator(".md-header__button.md-logo").click()
    page.wait_for_function("location.pathname === '/'")
    assert page.evaluate("window.__samePage") is True, "instant navigation, not a new document"
    open_page(page, instant_server, EXERCISES, lang="en")
    assert page.locator('#e-E2 [data-zq-reveal="criteria"]').get_attribute("open") is not None


def test_storage_refusing_work_after_instant_navigation_is_said_there(page, instant_server) -> None:
    """The note was placed and said once per document: on a page reached by instant navigation it stayed at the
    page's top, unsaid."""
    open_page(page, instant_server)
    fill_storage(page)
    page.fill("#zq-Q8-x", "4/7")
    expect(page.locator("#q-Q8 [data-zq-storage]")).to_be_visible()
    page.evaluate("window.__samePage = true")
    page.locator('.md-nav__link[href$="exercises/"]').first.click()
    page.wait_for_function("location.pathname.endsWith('/exercises/')")
    ready(page)
    assert page.evaluate("window.__samePage") is True, "instant navigation, not a new document"
    page.evaluate("document.querySelector('[data-zq-live]').textContent = ''")
    page.fill("#e-E2 textarea[data-zq-notes]", "notes")
    expect(page.locator("#e-E2 [data-zq-storage]")).to_be_visible()
    expect(page.locator("[data-zq-live]")).to_contain_text("не удаётся сохранить")


def test_the_notes_export_works_while_a_page_reached_by_instant_navigation_loads_its_types(
        context, instant_server, tmp_path) -> None:
    """The storage note and its Export button show as a page is set up; the button did nothing until the page's
    question types had loaded, a round trip later on a page reached by instant navigation."""
    context.add_init_script(HOSTILE["getItem throws"][0])
    page = context.new_page()
    open_page(page, instant_server, EXERCISES)
    page.evaluate("window.__samePage = true")
    held: list = []
    page.route("**/js/types/*.js", lambda route: held.append(route))
    page.locator('.md-nav__link[href$="quiz/"]').first.click()
    note = page.locator(".zq-page[data-zq-ready=starting] [data-zq-storage]")
    expect(note).to_be_visible()
    assert held and page.evaluate("window.__samePage") is True, "instant navigation, its types held back"
    with page.expect_download(timeout=5000) as download:
        note.locator("button").click()
    assert json.loads(Path(download.value.path()).read_text(encoding="utf-8"))["format"] == "zadachnik-progress"
    for route in held:
        route.continue_()
    ready(page)


# -- exercise notes ----------------------------------------------------------------------------------


def test_exercise_notes_are_saved_shared_exported_and_reset(page, fixture_server, tmp_path) -> None:
    open_page(page, fixture_server, EXERCISES)
    label = page.locator("label[for=zq-E1-notes]")
    assert label.inner_text() == "Ваши заметки и решение"
    page.fill("#zq-E1-notes", "n(n+1)/2 by pairing")
    page.fill("#zq-E2-notes", "plan")
    open_page(page, fixture_server, EXERCISES, lang="en")
    assert page.locator("label[for=zq-E1-notes]").inner_text() == "Your notes and working"
    assert page.input_value("#zq-E1-notes") == "n(n+1)/2 by pairing"
    page.reload()
    ready(page)
    assert page.input_value("#zq-E2-notes") == "plan"
    data = export(page, tmp_path)
    assert data["entries"][f"{KEY}E1"]["notes"] == "n(n+1)/2 by pairing"
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-zq-reset]")
    ready(page)
    assert page.input_value("#zq-E1-notes") == "" and stored(page, "E1") is None
    page.set_input_files("[data-zq-import]", str(tmp_path / "progress.json"))
    page.wait_for_function("document.querySelector('#zq-E1-notes').value === 'n(n+1)/2 by pairing'")
    assert page.input_value("#zq-E2-notes") == "plan"


def test_the_notes_export_still_works_after_a_reset(page, fixture_server, tmp_path) -> None:
    """Reset sets up a fresh copy of the page, which keeps the storage note about an entry set aside: its Export
    button was wired on the first copy only, and did nothing after."""
    seed(page, fixture_server, {f"{KEY}Q1": {"v": 1, "t": 1, "answer": "not an answer"}})
    open_page(page, fixture_server, lang="en")
    note = page.locator("[data-zq-storage]")
    expect(note).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-zq-reset]")
    ready(page)
    expect(note).to_be_visible()
    with page.expect_download(timeout=5000) as download:
        note.locator("button").click()
    assert json.loads(Path(download.value.path()).read_text(encoding="utf-8"))["format"] == "zadachnik-progress"


def test_reset_and_import_keep_the_focus_and_say_what_they_did(page, fixture_server, tmp_path) -> None:
    """The page is put back in its saved state by a fresh copy of it: the focus stays on the control the learner
    used (it fell to the page's body), and the status line says what the last one did (after an import, a reset
    left "Imported entries: …" on it, and a screen reader heard nothing)."""
    open_page(page, fixture_server, lang="en")
    page.fill("#zq-Q5-notes", "mine")
    export(page, tmp_path)
    page.locator("[data-zq-import]").focus()
    page.set_input_files("[data-zq-import]", str(tmp_path / "progress.json"))
    result = page.locator("[data-zq-tools-result]")
    expect(result).to_have_text(re.compile("^Imported entries: "))
    ready(page)
    assert page.evaluate("document.activeElement.matches('[data-zq-import]')")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-zq-reset]")
    expect(result).to_have_text("This page’s answers, drafts and opened reveals are erased.")
    ready(page)
    assert page.evaluate("document.activeElement.matches('[data-zq-reset]')")
    assert page.input_value("#zq-Q5-notes") == ""


# -- broken and hostile storage ----------------------------------------------------------------------

HOSTILE = {
    # Only for our keys: Material's own settings are not this test's business.
    "getItem throws": ("const read = Storage.prototype.getItem; Storage.prototype.getItem = function (key) {"
                       " if (String(key).startsWith('zadachnik')) throw new DOMException('denied', 'SecurityError');"
                       " return read.call(this, key); };", {}, "can’t be saved"),
    "setItem throws": ("Storage.prototype.setItem = function () {"
                       " throw new DOMException('full', 'QuotaExceededError'); };", {}, "can’t be saved"),
    "values that are not JSON": ("", {f"{KEY}Q1": "{oops", f"{KEY}Q2": "undefined", f"{KEY}E1": "NaN"}, "damaged"),
    "a huge junk value": ("", {f"{KEY}Q2": "[" * 2_000_000}, "damaged"),
    "foreign keys under our prefix": ("", {"zadachnik:settings": "dark", "zadachnik:probe": "{}",
                                           "zadachnik:x/y/z": "[]", "zadachnik:": "null"}, ""),
}


@pytest.mark.parametrize("case", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_storage_never_breaks_the_page(context, fixture_server, tmp_path, case) -> None:
    script, junk, said = case
    page = watched(context.new_page())
    good = {"v": 1, "t": 1, "answer": {"fields": {"ratio": "16/7", "mem": ""}}}
    seed(page, fixture_server, {**junk, f"{KEY}Q3": good})
    if script:
        context.add_init_script(script)
    open_page(page, fixture_server, lang="en")
    if "getItem" not in script:
        assert page.input_value("#zq-Q3-ratio") == "16/7", "the good entry is still read"
    page.check("#q-Q1 input[value=B]")
    assert check(page, "Q1") == "✓ Correct"
    page.check("#q-Q2 input[value='3']")
    page.fill("#zq-Q5-notes", "still here")
    note = page.locator("[data-zq-storage]")
    if said:
        assert note.is_visible() and said in note.inner_text()
    else:
        assert note.is_hidden()
    data = export(page, tmp_path)
    assert {f"{KEY}Q1", f"{KEY}Q2", f"{KEY}Q5"} <= set(data["entries"])
    assert data["entries"][f"{KEY}Q5"]["notes"] == "still here"
    for key in junk:
        if key.startswith("zadachnik:") and key.count("/") < 2:
            assert page.evaluate("(key) => localStorage.getItem(key)", key) == junk[key], "not ours: untouched"
    open_page(page, fixture_server, EXERCISES, lang="en")
    page.locator('#e-E1 [data-zq-reveal="solution"] summary').click()
    assert page.locator('#e-E1 [data-zq-reveal="solution"]').get_attribute("open") is not None
    assert not page.errors, page.errors


# -- words that name what every JavaScript object inherits ---------------------------------------------

# A status from storage or a file is looked up in tables of words: each of these is found in any table that is
# looked up without an own-property check (a function, or Object.prototype itself).
INHERITED = ["toString", "__proto__", "constructor", "hasOwnProperty", "valueOf", "isPrototypeOf",
             "propertyIsEnumerable"]
ANSWERED_Q2 = {"v": 1, "t": 1, "answer": {"choice": ["3"]}, "verdict": {"status": "wrong", "score": 0}}


def assert_page_works(page) -> None:
    """The other answers are shown and the page's tools are there."""
    assert page.is_checked("#q-Q2 input[value='3']") and verdict(page, "Q2") == "✗ Неверно"
    assert page.input_value("#zq-Q5-notes") == "draft"
    for tool in ("[data-zq-reset]", "[data-zq-export]", "label.zq-import"):
        assert page.locator(tool).is_visible(), tool


@pytest.mark.parametrize("word", INHERITED)
def test_stored_status_named_like_an_inherited_property_is_set_aside(page, fixture_server, word) -> None:
    question = {"v": 1, "t": 1, "answer": {"choice": ["B"]}, "verdict": {"status": word}}
    field = {"v": 1, "t": 1, "answer": {"fields": {"ratio": "2", "mem": "78"}},
             "verdict": {"status": "wrong", "score": 0, "fields": {"ratio": {"status": word}}}}
    # An error's kind is looked up in words too (no shape of its own): said as it is, never thrown on.
    code = {"v": 1, "t": 1, "answer": {"code": "pass"},
            "verdict": {"status": "wrong", "score": 0, "error": {"code": word, "text": "x"}, "tests": []}}
    seed(page, fixture_server, {f"{KEY}Q1": question, f"{KEY}Q3": field, f"{KEY}Q2": ANSWERED_Q2,
                                f"{KEY}Q5": {"v": 1, "t": 1, "notes": "draft"}, f"{KEY}Q7": code})
    open_page(page, fixture_server)
    assert_page_works(page)
    assert verdict(page, "Q7") == "✗ Неверно"
    # …and its kind is never read from Object.prototype (a function's source shown as the error's words).
    assert "native code" not in page.locator("#q-Q7").inner_text()
    assert "повреждена" in page.locator("[data-zq-storage]").inner_text()
    for qid, entry in (("Q1", question), ("Q3", field)):
        assert stored(page, qid) is None, qid
        assert json.loads(page.evaluate(f"localStorage.getItem('{SET_ASIDE}{qid}')")) == entry
    assert page.input_value("#zq-Q3-ratio") == "" and verdict(page, "Q1") == ""


@pytest.mark.parametrize("word", INHERITED)
def test_imported_status_named_like_an_inherited_property_is_refused(page, fixture_server, tmp_path, word) -> None:
    seed(page, fixture_server, {f"{KEY}Q2": ANSWERED_Q2, f"{KEY}Q5": {"v": 1, "t": 1, "notes": "draft"}})
    open_page(page, fixture_server)
    for qid, entry in (("Q1", {"answer": {"choice": ["B"]}, "verdict": {"status": word}}),
                       ("Q3", {"verdict": {"status": "wrong", "fields": {"ratio": {"status": word}}}})):
        message = import_file(page, tmp_path, {"format": "zadachnik-progress", "schema": 1, "entries": {
            f"{KEY}Q5": {"v": 1, "t": 9e12, "notes": "imported"}, f"{KEY}{qid}": {"v": 1, "t": 9e12, **entry},
        }}, f"{qid}.json")
        assert message.startswith(f"Файл не загружен, ничего не изменено: в записи demo/1/{qid} поле verdict."), message
        assert stored(page, qid) is None
        assert_page_works(page)


def open_held(page, url: str) -> list:
    """`url` with the runtime's script held back, its questions shown: the routes to let go."""
    held = opened_with_runtime_held(page, url)
    page.wait_for_selector("#zq-Q5-notes")
    page.wait_for_timeout(200)  # nothing has let the script through meanwhile
    assert len(held) == 1 and page.evaluate("document.querySelector('.zq-page').dataset.zqReady") is None
    return held


def test_what_a_learner_does_before_the_page_is_set_up_is_kept_and_saved(page, fixture_server) -> None:
    """On a slow connection the questions show before their scripts: what the learner types or ticks then stays
    and is saved, over what an earlier visit saved, control by control: the saved parts of an answer the learner
    did not touch are kept (they were wiped). Notes typed into a box that looked empty go after the saved ones
    (they replaced them). A script's change (not the learner's) does not count, and the saved answer is put back
    over it."""
    url = fixture_server + "en/" + QUIZ
    open_page(page, fixture_server, lang="en")
    page.check("#q-Q1 input[value=A]")
    page.check("#q-Q2 input[value='1']")
    page.fill("#zq-Q3-ratio", "16/7")
    page.fill("#zq-Q3-mem", "78")
    page.fill("#zq-Q6-rho", "4/5")
    page.fill("#zq-Q5-notes", "saved before")
    held = open_held(page, url)
    page.check("#q-Q1 input[value=B]")
    page.check("#q-Q2 input[value='3']")
    page.fill("#zq-Q3-mem", "80")
    page.fill("#zq-Q5-notes", "typed while it loaded")
    page.evaluate("""() => {
        const rho = document.querySelector('#zq-Q6-rho');
        rho.value = '9';
        rho.dispatchEvent(new Event('input', { bubbles: true }));
    }""")
    let_runtime_go(page, held)
    assert page.is_checked("#q-Q1 input[value=B]") and stored(page, "Q1")["answer"] == {"choice": ["B"]}
    assert page.input_value("#zq-Q3-mem") == "80" and stored(page, "Q3")["answer"]["fields"]["mem"] == "80"
    assert page.input_value("#zq-Q3-ratio") == "16/7" and stored(page, "Q3")["answer"]["fields"]["ratio"] == "16/7"
    assert sorted(stored(page, "Q2")["answer"]["choice"]) == ["1", "3"]
    assert page.input_value("#zq-Q5-notes") == "saved before\ntyped while it loaded"
    assert stored(page, "Q5")["notes"] == "saved before\ntyped while it loaded"
    assert page.input_value("#zq-Q6-rho") == "4/5" and stored(page, "Q6")["answer"]["fields"]["rho"] == "4/5"
    # The same after a reload: it was saved, not only left on the screen.
    page.reload()
    assert page.is_checked("#q-Q1 input[value=B]") and page.input_value("#zq-Q3-mem") == "80"
    assert page.input_value("#zq-Q5-notes") == "saved before\ntyped while it loaded"
    # Typed after the saved notes the browser put back itself (as on a return to the page): not said twice.
    held = open_held(page, url)
    page.evaluate("document.querySelector('#zq-Q5-notes').value = 'saved before\\ntyped while it loaded'")
    page.locator("#zq-Q5-notes").press("End")
    page.locator("#zq-Q5-notes").type(", and more")
    let_runtime_go(page, held)
    assert stored(page, "Q5")["notes"] == "saved before\ntyped while it loaded, and more"


def test_code_typed_before_the_page_is_set_up_keeps_the_saved_code(page, fixture_server) -> None:
    """The code box shows the starter until set-up: what the learner types into it goes after their saved code,
    which it replaced."""
    saved = "def double(x):\n    return x + x\n"
    seed(page, fixture_server, {f"{KEY}Q7": {"v": 1, "t": 1, "answer": {"code": saved}}})
    held = open_held(page, fixture_server + "en/" + QUIZ)
    page.fill("#q-Q7 [data-zq-source]", "print(2)")
    let_runtime_go(page, held)
    assert stored(page, "Q7")["answer"] == {"code": saved + "\nprint(2)"}


def test_typing_on_a_first_visit_before_the_page_is_set_up_is_saved(page, fixture_server) -> None:
    """A code question's plain textarea, which its editor later covers, counts too."""
    held = open_held(page, fixture_server + "en/" + QUIZ)
    page.fill("#zq-Q3-mem", "78")
    page.fill("#q-Q7 [data-zq-source]", "def double(x):\n    return x * 2\n")
    let_runtime_go(page, held)
    assert stored(page, "Q3")["answer"]["fields"]["mem"] == "78"
    assert stored(page, "Q7")["answer"] == {"code": "def double(x):\n    return x * 2\n"}
    assert page.locator("[data-zq-progress]").inner_text().startswith("Checked 0")


def test_what_reset_did_is_said_in_a_status_line_already_on_the_page(page, fixture_server) -> None:
    """Reset puts in a fresh copy of the page and says what it did in its status line: written in the same task
    as the copy went in, a screen reader, which reads changes to a live region it already knows, said nothing
    (the accessibility audit). A mutation observer runs before the next task: it sees the new line empty only if
    its words come in a later one. (It measured the time between the two, which a busy machine shortened: the
    observer runs once the copy's set-up is done, and that took longer than the words' wait.)"""
    open_page(page, fixture_server, lang="en")
    page.check("#q-Q1 input[value=B]")
    page.evaluate("""() => {
      const before = document.querySelector("[data-zq-tools-result]");
      window.zqSeen = {};
      new MutationObserver(() => {
        const line = document.querySelector("[data-zq-tools-result]");
        if (line !== before && !window.zqSeen.line) window.zqSeen = { line, first: line.textContent };
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    }""")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-zq-reset]")
    expect(page.locator("[data-zq-tools-result]")).to_have_text(
        "This page’s answers, drafts and opened reveals are erased.")
    assert page.evaluate("window.zqSeen.first") == ""
