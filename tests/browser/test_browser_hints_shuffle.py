"""Hints and shuffled options in Chromium (issue 15, parts 2 and 3), on tests/fixtures/hints-shuffle: hints open
one at a time and stay open over a reload and in the page's other language; a question with hint_note says how
many were open when it was answered right; a shuffled order is the learner's own, the same over a reload and in
both languages, labelled in the order shown; saved answers keep pointing at the options when the seed changes."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from playwright.sync_api import expect
from support.browser import axe_findings, let_runtime_go, opened_with_runtime_held, serve, shuffled_order
from support.sites import ROOT, build_site

FIXTURE = ROOT / "tests" / "fixtures" / "hints-shuffle"
QUIZ = "hs/01-hints/quiz/"
SEED_KEY = "zadachnik-seed"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    site = build_site(FIXTURE / "mkdocs.yml", tmp_path_factory.mktemp("hints-shuffle-browser") / "site")
    url, running = serve(site)
    yield url
    running.shutdown()


def seeds_with_different_orders(keys: list[str], question: str) -> tuple[str, str]:
    """Two seeds whose orders differ from each other and from the author's (found, not hoped for)."""
    found: list[tuple[str, list[str]]] = []
    for number in range(1, 1000):
        seed = f"{number:08x}"
        order = shuffled_order(keys, seed, question)
        if order != keys and all(order != other for _, other in found):
            found.append((seed, order))
        if len(found) == 2:
            return found[0][0], found[1][0]
    raise AssertionError("no two seeds with different orders")


def open_quiz(page, url: str, lang: str = "ru") -> None:
    page.goto(url + ("en/" if lang == "en" else "") + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.wait_for_selector("#q-S1[data-zq-shuffled]", state="attached")
    page.wait_for_selector("#q-H1 [data-zq-hints][data-zq-ready]", state="attached")


def set_seed(page, seed: str) -> None:
    page.evaluate("([key, seed]) => localStorage.setItem(key, seed)", [SEED_KEY, seed])


def open_hints(page, question: str) -> list[bool]:
    return page.eval_on_selector_all(f"#q-{question} [data-zq-hint]", "(hints) => hints.map((hint) => !hint.hidden)")


def shown_choices(page, question: str) -> list[tuple[str, str]]:
    """(the author's marker, the label shown) of each option, in the order shown."""
    return [tuple(pair) for pair in page.eval_on_selector_all(
        f"#q-{question} .zq-option",
        "(labels) => labels.map((label) => [label.querySelector('input').value,"
        " label.querySelector('.zq-marker').textContent])")]


def choose(page, select: str, marker: str) -> None:
    """Picks the option whose value is the author's `marker`, as a learner's pick does: Playwright's select_option
    matches labels too, and in a shuffled question a shown label is another option's marker."""
    page.eval_on_selector(select, "(select, marker) => { select.value = marker;"
                          " select.dispatchEvent(new Event('change', {bubbles: true})); }", marker)


def stored(page, key: str):
    text = page.evaluate("(key) => localStorage.getItem(key)", key)
    return json.loads(text) if text else None


# -- hints ----------------------------------------------------------------------------------------------


def test_hints_open_in_order_and_are_remembered_over_reload_and_in_the_other_language(page, server) -> None:
    open_quiz(page, server)
    button = page.locator("#q-H1 [data-zq-hint-next]")
    assert open_hints(page, "H1") == [False, False, False]
    assert button.inner_text() == "Подсказка 1 из 3"
    button.click()
    assert open_hints(page, "H1") == [True, False, False]
    # The opened hint takes the focus: a screen reader reads its heading, "Подсказка 1 из 3", and its text.
    assert page.evaluate("document.activeElement.id") == "q-H1-hint-1"
    assert page.locator("#q-H1-hint-1").get_attribute("aria-labelledby") == "q-H1-hint-1-title"
    assert page.locator("#q-H1-hint-1-title").inner_text() == "Подсказка 1 из 3"
    assert button.inner_text() == "Подсказка 2 из 3"
    # Set off by a bar, as a quotation is: a look hints.js brings (look.js), not zadachnik.css.
    assert page.locator("#q-H1-hint-1").evaluate("hint => getComputedStyle(hint).borderLeftStyle") == "solid"
    # From the keyboard: the button is a real button, Enter opens the next hint.
    button.focus()
    page.keyboard.press("Enter")
    assert open_hints(page, "H1") == [True, True, False]
    assert page.evaluate("document.activeElement.id") == "q-H1-hint-2"
    assert stored(page, "zadachnik:hs/1/H1")["hints"] == 2
    page.reload()
    page.wait_for_selector("#q-H1 [data-zq-hints][data-zq-ready]", state="attached")
    assert open_hints(page, "H1") == [True, True, False]
    assert button.inner_text() == "Подсказка 3 из 3"
    assert open_hints(page, "H2") == [False], "another question's hints are its own"
    open_quiz(page, server, "en")
    assert open_hints(page, "H1") == [True, True, False]
    assert page.locator("#q-H1 [data-zq-hint-next]").inner_text() == "Hint 3 of 3"
    page.locator("#q-H1 [data-zq-hint-next]").click()
    assert open_hints(page, "H1") == [True, True, True]
    assert page.locator("#q-H1 [data-zq-hint-next]").is_hidden(), "no button once every hint is open"
    assert page.evaluate("document.activeElement.id") == "q-H1-hint-3"


def test_a_hint_opened_in_another_tab_shows_here_at_once(page, server) -> None:
    open_quiz(page, server, "en")
    other = page.context.new_page()
    open_quiz(other, server, "ru")
    other.locator("#q-H2 [data-zq-hint-next]").click()
    page.wait_for_function("!document.querySelector('#q-H2-hint-1').hidden")
    assert page.locator("#q-H2 [data-zq-hint-next]").is_hidden()
    other.close()


@pytest.mark.parametrize(("opened", "ru", "en"), [
    (2, "✓ Верно, после 2 подсказок", "✓ Correct, after 2 hints"),
    (1, "✓ Верно, после 1 подсказки", "✓ Correct, after 1 hint"),
    (0, "✓ Верно", "✓ Correct"),
])
def test_hint_note_says_how_many_hints_were_open_when_answered_right(page, server, opened, ru, en) -> None:
    open_quiz(page, server)
    for _ in range(opened):
        page.locator("#q-H1 [data-zq-hint-next]").click()
    page.fill("#zq-H1-x", "41")
    page.click("#q-H1 [data-zq-check]")
    page.wait_for_selector("#q-H1[data-zq-status=wrong]")
    assert page.locator("#q-H1 [data-zq-verdict]").inner_text() == "✗ Неверно"
    page.fill("#zq-H1-x", "42")
    page.click("#q-H1 [data-zq-check]")
    page.wait_for_selector("#q-H1[data-zq-status=correct]")
    assert page.locator("#q-H1 [data-zq-verdict]").inner_text() == ru
    assert ru in page.locator("[data-zq-live]").inner_text()
    open_quiz(page, server, "en")
    assert page.locator("#q-H1 [data-zq-verdict]").inner_text() == en


def test_without_hint_note_a_right_answer_after_hints_is_just_right(page, server) -> None:
    open_quiz(page, server, "en")
    page.locator("#q-H2 [data-zq-hint-next]").click()
    page.check("#q-H2 input[value=B]")
    page.click("#q-H2 [data-zq-check]")
    page.wait_for_selector("#q-H2[data-zq-status=correct]")
    assert page.locator("#q-H2 [data-zq-verdict]").inner_text() == "✓ Correct"


def test_a_broken_hint_count_is_set_aside_and_the_page_still_works(page, server) -> None:
    open_quiz(page, server)
    page.evaluate("localStorage.setItem('zadachnik:hs/1/H1', JSON.stringify({v: 1, hints: -2}))")
    page.reload()
    page.wait_for_selector("#q-H1 [data-zq-hints][data-zq-ready]", state="attached")
    assert open_hints(page, "H1") == [False, False, False]
    assert page.locator("[data-zq-storage]").is_visible()
    assert page.evaluate("localStorage.getItem('zadachnik-quarantine:hs/1/H1')") is not None
    # A count past the question's hints (the author removed some) opens those there are.
    page.evaluate("localStorage.setItem('zadachnik:hs/1/H1', JSON.stringify({v: 1, hints: 7}))")
    page.reload()
    page.wait_for_selector("#q-H1 [data-zq-hints][data-zq-ready]", state="attached")
    assert open_hints(page, "H1") == [True, True, True]


def test_reset_closes_the_hints_and_keeps_the_learners_order(page, server) -> None:
    open_quiz(page, server)
    page.locator("#q-H1 [data-zq-hint-next]").click()
    order = shown_choices(page, "S1")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-zq-reset]")
    # The page is put back as a copy of itself, with the old state of its hints until hints.js sets them up: a
    # copy does not carry the function hints.js gives the question.
    page.wait_for_function("() => !localStorage.getItem('zadachnik:hs/1/H1')"
                           " && document.querySelector('#q-H1').zqShowHints")
    assert open_hints(page, "H1") == [False, False, False]
    assert page.locator("#q-H1 [data-zq-hint-next]").inner_text() == "Подсказка 1 из 3"
    # The page put back after the reset works as before: its hints open, its order is the learner's.
    page.locator("#q-H1 [data-zq-hint-next]").click()
    assert open_hints(page, "H1") == [True, False, False]
    assert shown_choices(page, "S1") == order


def test_axe_finds_nothing_serious_in_hints(page, server) -> None:
    open_quiz(page, server)
    page.locator("#q-H1 [data-zq-hint-next]").click()
    findings = axe_findings(page)
    serious = [finding for finding in findings if finding[1] in ("serious", "critical")
               and (finding[0], finding[2]) != ("aria-dialog-name", ".md-search")]
    assert not serious, serious
    assert not [finding for finding in findings if finding[0] == "heading-order"]


# -- shuffled options -------------------------------------------------------------------------------------


def test_the_shuffled_order_is_the_seeds_the_same_over_reload_and_in_both_languages(page, server) -> None:
    keys = ["A", "B", "C", "D", "E"]
    seed, _ = seeds_with_different_orders(keys, "S1")
    open_quiz(page, server)
    set_seed(page, seed)
    page.reload()
    open_quiz(page, server)
    expected = shuffled_order(keys, seed, "S1")
    labels = ["A.", "B.", "C.", "D.", "E."]
    assert shown_choices(page, "S1") == list(zip(expected, labels, strict=True))
    page.reload()
    open_quiz(page, server)
    assert shown_choices(page, "S1") == list(zip(expected, labels, strict=True))
    open_quiz(page, server, "en")
    assert shown_choices(page, "S1") == list(zip(expected, labels, strict=True))
    # An unshuffled question keeps the author's order.
    assert page.eval_on_selector_all("#q-N1 .zq-option input", "(inputs) => inputs.map((i) => i.value)") == ["1", "2"]


def hold_shuffle_script(page) -> list:
    """Holds back the page's request for shuffle.js until the test lets it go (or aborts it)."""
    held: list = []
    page.route(re.compile(r".*/shuffle\.js$"), lambda route: held.append(route))
    return held


def wait_for_the_request(page, held: list) -> None:
    for _ in range(100):
        if held:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the page never asked for shuffle.js")


def test_a_shuffled_question_shows_no_options_until_they_are_in_the_learners_order(page, server) -> None:
    """Was a flash: the author's order showed while shuffle.js loaded, then the options jumped into the
    learner's. They keep their place on the page, hidden, until they are in order."""
    held = hold_shuffle_script(page)
    page.goto(server + QUIZ, wait_until="load")  # not set up: shuffle.js is held
    wait_for_the_request(page, held)
    options = page.locator("#q-S1 .zq-options")
    assert page.locator(".zq-page").get_attribute("data-zq-ready") == "starting"
    assert not options.is_visible()
    assert page.locator("#q-N1 .zq-options").is_visible(), "an unshuffled question shows at once"
    held[0].continue_()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert options.is_visible()
    assert page.locator("#q-S1").get_attribute("data-zq-shuffled")


def test_a_shuffled_question_shows_no_options_before_the_pages_script_runs(page, server) -> None:
    """The author's order never shows first, not even before zadachnik.js itself has run."""
    held = opened_with_runtime_held(page, server + QUIZ)
    page.wait_for_selector("#q-N1 .zq-options", state="attached")
    # Zadachnik's stylesheet applies (its progress line is bold): what it hides is hidden by then.
    page.wait_for_function("() => getComputedStyle(document.querySelector('.zq-progress')).fontWeight === '700'")
    assert page.locator(".zq-page").get_attribute("data-zq-ready") is None
    assert not page.locator("#q-S1 .zq-options").is_visible()
    assert page.locator("#q-N1 .zq-options").is_visible(), "an unshuffled question shows at once"
    assert held, "the script was not held back"
    let_runtime_go(page, held)
    assert page.locator("#q-S1 .zq-options").is_visible()


def test_a_shuffled_question_whose_script_fails_to_load_shows_its_options_all_the_same(page, server) -> None:
    held = hold_shuffle_script(page)
    page.goto(server + QUIZ, wait_until="load")  # not set up: shuffle.js is held
    wait_for_the_request(page, held)
    held[0].abort()
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert page.locator("#q-S1 .zq-options").is_visible()
    assert page.locator("#q-S1 .zq-option").count() == 5
    # The learner is told, and the hints, loaded after it, still work.
    words = yaml.safe_load((ROOT / "plugins/zadachnik/rendering/words/ru.yml").read_text(encoding="utf-8"))
    assert page.locator("[data-zq-storage]").inner_text() == words["runtime"]["page_part_failed"]
    page.wait_for_selector("#q-H1 [data-zq-hints][data-zq-ready]", state="attached")


def test_a_part_that_fails_to_set_up_is_said_and_the_parts_after_it_still_run(page, server) -> None:
    """A part's own set-up that throws (as variants.js did in an exam) stopped every part after it: the hints
    here, an exam's Submit on such a page."""
    page.route("**/js/shuffle.js", lambda route: route.fulfill(
        content_type="text/javascript", body="export function setup() { throw new Error('broken set-up'); }"))
    page.goto(server + QUIZ)
    page.wait_for_selector("#q-H1 [data-zq-hints][data-zq-ready]", state="attached")
    words = yaml.safe_load((ROOT / "plugins/zadachnik/rendering/words/ru.yml").read_text(encoding="utf-8"))
    expect(page.locator("[data-zq-storage]")).to_have_text(words["runtime"]["page_part_failed"], use_inner_text=True)


def test_a_new_learner_gets_a_seed_and_a_bad_one_is_replaced(page, server) -> None:
    open_quiz(page, server)
    first = page.evaluate("(key) => localStorage.getItem(key)", SEED_KEY)
    assert re.fullmatch(r"[0-9a-f]{8}", first)
    set_seed(page, "not a seed")
    page.reload()
    open_quiz(page, server)
    replaced = page.evaluate("(key) => localStorage.getItem(key)", SEED_KEY)
    assert re.fullmatch(r"[0-9a-f]{8}", replaced)
    expected = shuffled_order(list("ABCDE"), replaced, "S1")
    assert shown_choices(page, "S1") == list(zip(expected, ["A.", "B.", "C.", "D.", "E."], strict=True))


def test_saved_answers_keep_their_options_when_the_seed_changes(page, server) -> None:
    first, second = seeds_with_different_orders(list("ABCDE"), "S1")
    open_quiz(page, server)
    set_seed(page, first)
    page.reload()
    open_quiz(page, server)
    page.check("#q-S1 input[value=B]")
    page.check("#q-S1 input[value=D]")
    choose(page, "#zq-S2-1", "A")
    choose(page, "#zq-S2-3", "C")
    assert sorted(stored(page, "zadachnik:hs/1/S1")["answer"]["choice"]) == ["B", "D"], "saved by marker"
    before = shown_choices(page, "S1")
    set_seed(page, second)
    page.reload()
    open_quiz(page, server)
    after = shown_choices(page, "S1")
    assert [key for key, _ in after] != [key for key, _ in before], "the new seed shows another order"
    checked = page.eval_on_selector_all("#q-S1 .zq-option input:checked", "(inputs) => inputs.map((i) => i.value)")
    assert sorted(checked) == ["B", "D"]
    assert page.input_value("#zq-S2-1") == "A" and page.input_value("#zq-S2-3") == "C"
    page.click("#q-S1 [data-zq-check]")
    page.wait_for_selector("#q-S1[data-zq-status=correct]")


def test_the_reveal_and_the_explanation_name_options_by_their_shown_labels(page, server) -> None:
    seed, _ = seeds_with_different_orders(list("ABCDE"), "S1")
    open_quiz(page, server, "en")
    set_seed(page, seed)
    page.reload()
    open_quiz(page, server, "en")
    shown = dict(shown_choices(page, "S1"))
    page.click("#q-S1 details.zq-reveal > summary")
    answer = page.locator("#q-S1 .zq-answer").inner_text()
    assert answer == f"Correct answer: {shown['B'][0]}, {shown['D'][0]}"
    explanation = page.locator("#q-S1 .zq-explanation").inner_text()
    assert explanation.startswith(f"{shown['B'][0]} and {shown['D'][0]} are prime")
    # The label shown beside each right option is the one the reveal names.
    for key in ("B", "D"):
        assert page.locator(f"#q-S1 .zq-option:has(input[value={key}]) .zq-marker").inner_text() == shown[key]


def test_a_shuffled_matching_question_shuffles_its_right_hand_column_only(page, server) -> None:
    seed, _ = seeds_with_different_orders(list("ABCD"), "S2")
    open_quiz(page, server)
    set_seed(page, seed)
    page.reload()
    open_quiz(page, server)
    page.wait_for_selector("#q-S2[data-zq-shuffled]", state="attached")
    expected = shuffled_order(list("ABCD"), seed, "S2")
    listed = page.eval_on_selector_all("#q-S2 .zq-matching__options li", "(items) => items.map((li) => "
                                       "[li.dataset.zqChoice, li.querySelector('.zq-marker').textContent])")
    assert listed == [[key, f"{label}."] for key, label in zip(expected, "ABCD", strict=True)]
    # The items keep their order; each select lists the options as shown, by the labels shown.
    assert page.eval_on_selector_all("#q-S2 [data-zq-item]", "(items) => items.map((i) => i.dataset.zqItem)") == [
        "1", "2", "3", "4"]
    # Each option says its text after its label: a phone's picker shows only the options' texts, far from the
    # list above (it showed the letters alone).
    options = page.eval_on_selector_all("#zq-S2-1 option", "(options) => options.map((o) => [o.value, o.textContent])")
    capitals = dict(zip("ABCD", ("Париж", "Рим", "Мадрид", "Берлин"), strict=True))
    assert options[1:] == [[key, f"{label}. {capitals[key]}"] for key, label in zip(expected, "ABCD", strict=True)]
    shown = {key: label for key, label in zip(expected, "ABCD", strict=True)}
    # The key 1→A … 4→D is no longer the letters in order.
    page.click("#q-S2 details.zq-reveal > summary")
    assert page.locator("#q-S2 .zq-answer").inner_text() == (
        "Правильное соответствие: " + "; ".join(f"{item} → {shown[key]}" for item, key in zip("1234", "ABCD",
                                                                                           strict=True)))
    for item, key in zip("1234", "ABCD", strict=True):
        choose(page, f"#zq-S2-{item}", key)
    page.click("#q-S2 [data-zq-check]")
    page.wait_for_selector("#q-S2[data-zq-status=correct]")


# -- from disk --------------------------------------------------------------------------------------------


@pytest.mark.own_context
def test_hints_and_shuffling_work_from_disk(page, tmp_path_factory) -> None:
    """The offline copy runs the runtime as one classic script: hints.js and shuffle.js are in it, not imported.
    (The one import left is grading.js's of the question types a page reached by instant navigation lacks: the
    offline copy runs every type first, and has no instant navigation.)"""
    site = build_site(FIXTURE / "mkdocs.offline.yml", tmp_path_factory.mktemp("hints-shuffle-offline") / "site")
    bundle = (site / "assets/zadachnik/js/zadachnik.bundle.js").read_text(encoding="utf-8")
    assert "import(" not in re.sub(r"import\(`\./types/\$\{\w+\}\.js`\)", "", bundle)
    page.goto((site / "hs/01-hints/quiz.html").as_uri())
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.wait_for_selector("#q-S1[data-zq-shuffled]", state="attached")
    page.wait_for_selector("#q-H1 [data-zq-hints][data-zq-ready]", state="attached")
    seed = page.evaluate("(key) => localStorage.getItem(key)", SEED_KEY)
    expected = shuffled_order(list("ABCDE"), seed, "S1")
    assert [key for key, _ in shown_choices(page, "S1")] == expected
    page.locator("#q-H1 [data-zq-hint-next]").click()
    assert open_hints(page, "H1") == [True, False, False]
    page.reload()
    page.wait_for_selector("#q-H1 [data-zq-hints][data-zq-ready]", state="attached")
    assert open_hints(page, "H1") == [True, False, False]
    assert [key for key, _ in shown_choices(page, "S1")] == expected


def test_a_new_variant_of_a_shuffled_question_keeps_the_labels_shown(page, server) -> None:
    """variants.js swaps in a variant's text, names and revealed answer: they come with the author's markers,
    and the page labels them again as shown."""
    # A seed that does not show A first: its label on the page is not its marker.
    seed = next(f"{n:08x}" for n in range(1, 1000) if shuffled_order(list("ABC"), f"{n:08x}", "SV")[0] != "A")
    open_quiz(page, server, "en")
    set_seed(page, seed)
    page.reload()
    open_quiz(page, server, "en")
    page.wait_for_selector("#q-SV[data-zq-shuffled]", state="attached")
    shown = dict(shown_choices(page, "SV"))
    right = shown["A"][0]
    assert right != "A"
    page.click("#q-SV details.zq-reveal > summary")
    assert page.locator("#q-SV .zq-answer").inner_text() == f"Correct answer: {right}"
    # Which variant is shown: its line changes with it (two variants' figures might be the same).
    before = page.locator("#q-SV [data-zq-variant-line]").inner_text()
    page.click("#q-SV [data-zq-new-variant]")
    page.wait_for_function("(before) => document.querySelector('#q-SV [data-zq-variant-line]').innerText !== before",
                           arg=before)
    # The new variant starts with its reveal closed: its text is read as text, not as shown.
    page.wait_for_function("(right) => document.querySelector('#q-SV .zq-answer').textContent.endsWith(': ' + right)",
                           arg=right)
    assert page.locator("#q-SV .zq-explanation").text_content().strip().startswith(f"{right} is right")
    assert dict(shown_choices(page, "SV")) == shown
    names = page.eval_on_selector_all("#q-SV .zq-option input", "(inputs) => inputs.map((i) => [i.value,"
                                      " i.getAttribute('aria-label')])")
    assert all(name.startswith(f"{shown[key][0]}. ") for key, name in names), names


def test_hints_of_a_question_with_variants_belong_to_its_variant(page, server) -> None:
    """Each variant has its own entry: a new variant starts with its hints closed, and opening one saves it there."""
    open_quiz(page, server, "en")
    page.wait_for_selector("#q-SV [data-zq-hints][data-zq-ready]", state="attached")
    page.locator("#q-SV [data-zq-hint-next]").click()
    assert open_hints(page, "SV") == [True]
    # The question's own entry says which variant is shown; the variant's entry holds its answer and hints.
    first = page.evaluate("Object.keys(localStorage).filter((key) => key.startsWith('zadachnik:hs/1/SV@'))")
    assert len(first) == 1 and stored(page, first[0])["hints"] == 1
    page.click("#q-SV details.zq-reveal > summary")
    page.click("#q-SV [data-zq-new-variant]")
    page.wait_for_function("document.querySelector('#q-SV-hint-1').hidden")
    assert page.locator("#q-SV [data-zq-hint-next]").inner_text() == "Hint 1 of 1"
    page.locator("#q-SV [data-zq-hint-next]").click()
    keys = page.evaluate("Object.keys(localStorage).filter((key) => key.startsWith('zadachnik:hs/1/SV@'))")
    opened = sorted(key for key in keys if (stored(page, key) or {}).get("hints") == 1)
    assert len(opened) == 2, keys
