"""Accessibility of the built pages: controls' names, heading levels, and axe on every page in both palettes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from support.browser import THEME_VIOLATIONS, axe_findings, serve
from support.sites import FIXTURE_SITE, build_site, copy_site

SAMPLE_PAGES = [
    "", "authoring/", "glossary/",
    "rl-for-llm/12-infrastructure/quiz/", "modern-llms/09-pretraining/quiz/", "modern-llms/09-pretraining/exercises/",
]
COURSE_PAGES = [path for path in SAMPLE_PAGES if path.endswith(("quiz/", "exercises/"))]

# Roles of what a learner operates: its name is what a screen reader says for it.
CONTROL_ROLES = {
    "button", "textbox", "searchbox", "combobox", "listbox", "option", "MenuListOption", "radio", "checkbox",
    "spinbutton", "switch", "slider", "DisclosureTriangle",
}
# A TeX command that lost its backslash and ran into what followed ("binom496", "P(textHH)").
GLUED_TEX = re.compile(
    r"(?<![\\A-Za-z])(?:binom|d?frac|tfrac|text(?:bf|it)?|math(?:rm|bf|cal|bb)|operatorname|sqrt|cdot|times|"
    r"approx|leq?|geq?|sum|prod|alpha|beta|gamma|delta|epsilon|lambda|sigma|theta|rho|mu|top)(?=[A-Z0-9{(_^])"
)
# Each control of the course pages with the TeX of the formulas in its visible label, for the name to carry.
MARK_CONTROLS = """() => {
  let index = 0;
  for (const control of document.querySelectorAll('.zq-page :is(input, select, option, button, textarea, summary)')) {
    const labels = control.labels && control.labels.length ? [...control.labels] : [control];
    const tex = labels.flatMap((label) =>
      [...label.querySelectorAll('annotation[encoding="application/x-tex"]')].map((a) => a.textContent));
    control.dataset.a11yProbe = JSON.stringify({index: index++, tex});
  }
  return index;
}"""


def without_spaces(text: str) -> str:
    return re.sub(r"\s+", "", text)


def control_names(page) -> list[dict]:
    """Every control in the page's accessibility tree (Chromium's computed names, as a screen reader gets them),
    with the formulas of its label when it is one of the course page's own."""
    marked = page.evaluate(MARK_CONTROLS)
    cdp = page.context.new_cdp_session(page)
    controls = []
    for node in cdp.send("Accessibility.getFullAXTree")["nodes"]:
        role = node.get("role", {}).get("value")
        if node.get("ignored") or role not in CONTROL_ROLES or "backendDOMNodeId" not in node:
            continue
        element = cdp.send("DOM.describeNode", {"backendNodeId": node["backendDOMNodeId"]})["node"]
        attributes = dict(zip(element.get("attributes", [])[::2], element.get("attributes", [])[1::2], strict=True))
        probe = json.loads(attributes["data-a11y-probe"]) if "data-a11y-probe" in attributes else None
        controls.append({"role": role, "name": node.get("name", {}).get("value", ""), "probe": probe,
                         "tag": element.get("localName"), "id": attributes.get("id", "")})
    cdp.detach()
    assert marked and any(c["probe"] for c in controls), "the course page's controls are in the tree"
    return controls


def name_problems(controls: list[dict]) -> list[tuple]:
    problems = []
    for control in controls:
        name = control["name"].strip()
        where = (control["role"], control["tag"], control["id"], name)
        if not name:
            problems.append(("no name", *where))
        elif GLUED_TEX.search(name):
            problems.append(("TeX command glued to its argument", *where))
        for tex in (control["probe"] or {}).get("tex", []):
            if without_spaces(tex) not in without_spaces(name):
                problems.append((f"the formula {tex!r} is missing", *where))
    return problems


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("path", COURSE_PAGES)
def test_every_control_of_the_sample_course_has_a_readable_name(page, sample_server, path: str, lang: str) -> None:
    page.goto(sample_server + ("en/" if lang == "en" else "") + path)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    assert not name_problems(control_names(page))


MATH_LABELS = r"""
/// question | M1
type: numeric
fields:
  ways: {answer: "3921225", atol: 0}
  heads: {answer: "0.25", atol: 0.001}

//// ru | Формулы в подписях полей
Посчитайте.

fields:
- ways: Число сочетаний $\binom{96}{4}$
- heads: Вероятность $P(\text{HH})$

explanation:
Так.
////

//// en | Formulas in field labels
Work them out.

fields:
- ways: Number of combinations $\binom{96}{4}$
- heads: Probability $P(\text{HH})$

explanation:
Like so.
////
///

/// question | M2
type: single
answer: B

//// ru | Формулы в вариантах
Что больше?

options:
A. $\frac{1}{3}$
B. $\sqrt{2}$ и ещё немного

explanation:
Так.
////

//// en | Formulas in options
Which is larger?

options:
A. $\frac{1}{3}$
B. $\sqrt{2}$ and a little more

explanation:
Like so.
////
///

/// question | M3
type: matching
answer: {1: A, 2: B}

//// ru | Формулы в сопоставлении
Сопоставьте.

items:
1. Функция $e^{x}$
2. Функция $\ln x$

options:
A. Растёт быстро
B. Растёт медленно, как $\log x$

explanation:
Так.
////

//// en | Formulas in matching
Match them.

items:
1. The function $e^{x}$
2. The function $\ln x$

options:
A. Grows fast
B. Grows slowly, like $\log x$

explanation:
Like so.
////
///
"""


@pytest.fixture(scope="module")
def math_label_server(tmp_path_factory):
    """The fixture course with formulas in field labels, options and matched items."""
    source = copy_site(FIXTURE_SITE, tmp_path_factory.mktemp("math-labels") / "src")
    quiz = source / "exercises/demo/01-basics/quiz.md"
    quiz.write_text(quiz.read_text(encoding="utf-8") + MATH_LABELS, encoding="utf-8")
    url, server = serve(build_site(source / "mkdocs.yml", source / "site"))
    yield url
    server.shutdown()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_formulas_in_labels_are_named_by_their_tex(page, math_label_server, lang: str) -> None:
    page.goto(math_label_server + ("en/" if lang == "en" else "") + "demo/01-basics/quiz/")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    controls = control_names(page)
    assert not name_problems(controls)
    names = {control["id"]: control["name"] for control in controls if control["id"]}
    assert without_spaces(r"\binom{96}{4}") in without_spaces(names["zq-M1-ways"])
    assert without_spaces(r"P(\text{HH})") in without_spaces(names["zq-M1-heads"])
    assert names["zq-M1-heads"].startswith("Вероятность" if lang == "ru" else "Probability")
    assert names["zq-M3-2"].startswith("2.") and r"\ln x" in names["zq-M3-2"]
    radios = [c["name"] for c in controls if c["role"] == "radio" and c["name"].startswith(("A. $", "A. \\"))]
    assert radios == [r"A. \frac{1}{3}"], radios
    # A matching list shows letters; each letter is read with its option's text.
    options = {c["name"] for c in controls if c["role"] in ("option", "MenuListOption")}
    assert ({"A. Растёт быстро", r"B. Растёт медленно, как \log x"} if lang == "ru"
            else {"A. Grows fast", r"B. Grows slowly, like \log x"}) <= options, options
    # What the select shows: each option's text after its label, but TeX, which it can't draw (the review).
    shown = page.eval_on_selector_all("#zq-M3-2 option", "(options) => options.map((o) => o.textContent)")
    assert shown[1:] == (["A. Растёт быстро", "B"] if lang == "ru" else ["A. Grows fast", "B"]), shown


# -- headings -------------------------------------------------------------------------------------


def heading_levels(html: str) -> list[tuple[int, str]]:
    content = BeautifulSoup(html, "html.parser").select_one(".md-content")
    return [(int(h.name[1]), h.get("id", "")) for h in content.find_all(re.compile(r"^h[1-6]$"))]


@pytest.mark.parametrize(("lang", "name", "row"), [("ru", "Ваш код на Python", "курсор в строке"),
                                                    ("en", "Your Python code", "Cursor at row")])
def test_the_code_editor_keeps_its_name_and_speaks_the_pages_language(page, fixture_server, lang: str, name: str,
                                                                     row: str) -> None:
    """Ace names its text box by the cursor's row each time the cursor moves: the box lost its name ("Cursor at
    row 2"), and Ace's own words were English on a Russian page."""
    page.goto(fixture_server + ("en/" if lang == "en" else "") + "demo/01-basics/quiz/")
    page.locator("#q-Q7").scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#q-Q7').zqEditor", timeout=20_000)
    page.evaluate("() => { const editor = document.querySelector('#q-Q7').zqEditor; editor.focus();"
                  " editor.gotoLine(2, 0); }")
    label = "#q-Q7 .ace_text-input"
    page.wait_for_function("([selector, row]) => document.querySelector(selector).getAttribute('aria-label')"
                           ".includes(row)", arg=[label, row])
    assert page.locator(label).get_attribute("aria-label") == f"{name}, {row} 2"
    scroller = page.locator("#q-Q7 .ace_scroller").get_attribute("aria-label")
    assert ("Editor content" in scroller) == (lang == "en"), scroller


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("path", SAMPLE_PAGES)
def test_headings_go_down_one_level_at_a_time(sample_site: Path, path: str, lang: str) -> None:
    html = (sample_site / ("en/" if lang == "en" else "") / path / "index.html").read_text(encoding="utf-8")
    levels = heading_levels(html)
    assert levels[0][0] == 1
    jumps = [(before, after) for before, after in zip(levels, levels[1:], strict=False) if after[0] > before[0] + 1]
    assert not jumps, jumps


# -- axe ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("path", SAMPLE_PAGES)
def test_axe_finds_nothing_serious_on_any_page(page, sample_server, path: str, lang: str, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    page.goto(sample_server + ("en/" if lang == "en" else "") + path)
    if path in COURSE_PAGES:
        # Explanations and solutions too: axe skips what a closed <details> hides.
        page.evaluate("document.querySelectorAll('.zq-page details').forEach((d) => { d.open = true; })")
    expected_scheme = "slate" if scheme == "dark" else "default"
    assert page.locator("body").get_attribute("data-md-color-scheme") == expected_scheme
    findings = axe_findings(page)
    serious = [f for f in findings if f[1] in ("serious", "critical") and (f[0], f[2]) not in THEME_VIOLATIONS]
    assert not serious, serious
    # Moderate ones of our own making too: a quiz without sections once jumped from h1 to h3.
    assert not [f for f in findings if f[0] == "heading-order"]


@pytest.mark.parametrize("path", ["rl-for-llm/12-infrastructure/quiz/", "en/rl-for-llm/12-infrastructure/quiz/"])
def test_what_a_field_reads_as_is_not_spoken_at_every_keystroke(sample_site: Path, path: str) -> None:
    """An <output> is a polite live region by default: a screen reader said "read as 1", "read as 12" … at each
    key typed into a numeric or formula field (the accessibility audit). The reading stays the field's
    description (aria-describedby), said when the learner asks; the verdict after Check is the page's to say."""
    soup = BeautifulSoup((sample_site / path / "index.html").read_text(encoding="utf-8"), "html.parser")
    outputs = soup.select("output")
    assert outputs and all(output.get("aria-live") == "off" for output in outputs), [
        str(output)[:80] for output in outputs if output.get("aria-live") != "off"]


def test_a_control_with_the_keyboards_focus_shows_it_clear_of_the_header(page, fixture_server) -> None:
    """Material takes the outline off inputs, and nothing put one back: Tab reached a checkbox or a field with no
    sign of it; Shift+Tab scrolled a control up under the sticky header (the accessibility audit)."""
    page.goto(fixture_server + "en/demo/01-basics/quiz/")
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    for selector in ("#q-Q2 input[type=checkbox]", "#q-Q1 input[type=radio]", "#zq-Q3-mem"):
        control = page.locator(selector).first
        control.focus()
        # Focus by keyboard, as :focus-visible asks: Tab away and back.
        page.keyboard.press("Tab")
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.matches(':focus-visible')"), selector
        style = control.evaluate("(box) => getComputedStyle(box).outlineStyle")
        assert style != "none", selector
        # Scrolled just out of sight above, then focused: it comes into view below the header.
        top = control.evaluate("(box) => { scrollTo(0, box.getBoundingClientRect().top + scrollY + 30); box.blur();"
                               " box.focus(); const header = document.querySelector('.md-header');"
                               " return box.getBoundingClientRect().top - header.getBoundingClientRect().bottom; }")
        assert top >= 0, (selector, top)


@pytest.mark.parametrize("path", ["en/rl-for-llm/12-infrastructure/quiz/", "en/modern-llms/09-pretraining/quiz/"])
def test_on_a_phone_with_large_text_nothing_runs_past_the_screen(page, sample_server, path: str) -> None:
    """A learner who sets a large text size on a phone: fields, lists and buttons ran past the screen's edge and
    the page scrolled sideways (the accessibility audit)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(sample_server + path)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")
    page.add_style_tag(content="html { font-size: 250% !important; }")
    # Formulas, code and tables scroll in boxes of their own.
    wide = page.evaluate("""() => [...document.querySelectorAll('.zq-page *')]
      .filter((box) => box.getBoundingClientRect().right > innerWidth + 1
        && !box.closest('.katex, pre, .md-typeset__table, .ace_editor'))
      .map((box) => box.tagName + '.' + box.className).slice(0, 5)""")
    assert not wide, wide


@pytest.mark.parametrize(("path", "said"), [("modern-llms/09-pretraining/quiz/", "Esc"),
                                            ("en/modern-llms/09-pretraining/quiz/", "Esc")])
def test_each_code_exercise_says_how_to_leave_its_editor(sample_site: Path, path: str, said: str) -> None:
    """In the editor, Tab indents: a sighted keyboard learner saw no way out, which only Ace's screen-reader
    words told (the accessibility audit)."""
    soup = BeautifulSoup((sample_site / path / "index.html").read_text(encoding="utf-8"), "html.parser")
    codes = soup.select("[data-zq-code]")
    assert codes and all(said in code.select_one(".zq-code__hint").get_text() for code in codes)


@pytest.mark.parametrize("path", ["rl-for-llm/12-infrastructure/quiz/", "en/rl-for-llm/12-infrastructure/quiz/"])
def test_a_number_gap_is_described_by_its_own_tolerance_only(sample_site: Path, path: str) -> None:
    """Each gap was described by the whole list of the question's gap notes: "Gap 1" was read with "Gap 2: exact
    answer" too (the accessibility audit)."""
    soup = BeautifulSoup((sample_site / path / "index.html").read_text(encoding="utf-8"), "html.parser")
    gaps = soup.select(".zq-gap input")
    assert gaps
    for gap in gaps:
        [note] = [soup.find(id=name) for name in gap["aria-describedby"].split()]
        assert note is not None and note.name == "li", gap["aria-describedby"]
        number = gap["aria-label"].split()[-1]
        assert number in note.get_text().split(":")[0], (gap["aria-label"], note.get_text())
