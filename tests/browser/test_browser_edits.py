"""A learner's saved work after the author edits the course and publishes it again (the audit of a course edited
after learners worked on it). Each test serves builds of the fixture site one after the other at one address,
as a host serves a site rebuilt in place, so the browser's storage carries over from one to the next.

A verdict is saved with the revision of the key it was given under (the page's spec and the progress manifest
carry the key's revision now: rendering/variants.key_revision). One given under another key is withdrawn: not
shown as right or wrong, not counted, and the verdict line says the question changed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect
from support.browser import serve
from support.sites import FIXTURE_SITE, as_exam, build_site, copy_site

QUIZ = "demo/01-basics/quiz/"
CHANGED = {
    "en": "Changed since you checked it: the author has corrected this question. Check it again.",
    "ru": "Вопрос изменился после вашей проверки: автор его исправил. Проверьте ответ ещё раз.",
}
PROGRESS = {"en": "Checked {checked} / 7 · Correct {correct}", "ru": "Проверено: {checked} / 7 · Верно: {correct}"}


class Host:
    """One address whose site is replaced by another build, as a host's is when the author publishes again."""

    def __init__(self, root: Path, builds: dict[str, Path]) -> None:
        self.live = root / "live"
        self.builds = builds
        self.live.mkdir()
        self.url, self.server = serve(self.live)

    def publish(self, name: str) -> None:
        for child in self.live.iterdir():
            shutil.rmtree(child) if child.is_dir() else child.unlink()
        shutil.copytree(self.builds[name], self.live, dirs_exist_ok=True)


ADDED = """
/// question | Q9
type: numeric
fields:
  y: {answer: 3}

//// ru | Добавленный
Сколько будет $1+2$?

fields:
- y: Сумма

explanation:
Три.
////

//// en | Added
What is $1+2$?

fields:
- y: Sum

explanation:
Three.
////
///
"""


def added(quiz: Path) -> None:
    """A question added at the end."""
    quiz.write_text(quiz.read_text(encoding="utf-8") + ADDED, encoding="utf-8")


def corrected(quiz: Path) -> None:
    """Q1's key corrected from B to C."""
    text = quiz.read_text(encoding="utf-8")
    quiz.write_text(text.replace("type: single\nanswer: B", "type: single\nanswer: C", 1), encoding="utf-8")


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    work = tmp_path_factory.mktemp("edits")

    def built(name: str, edit=None, exam: bool = False) -> Path:
        source = copy_site(FIXTURE_SITE, work / f"src-{name}")
        module = source / "exercises" / "demo" / "01-basics"
        if exam:
            as_exam(module)
        if edit:
            edit(module / "quiz.md")
        return build_site(source / "mkdocs.yml", work / f"site-{name}")

    builds = {"base": built("base"), "again": built("again"), "corrected": built("corrected", corrected),
              "exam": built("exam", exam=True), "exam-corrected": built("exam-corrected", corrected, exam=True),
              "exam-added": built("exam-added", added, exam=True)}
    running = Host(work, builds)
    yield running
    running.server.shutdown()


def open_quiz(page, host: Host, lang: str = "en") -> None:
    page.goto(host.url + ("en/" if lang == "en" else "") + QUIZ)
    page.wait_for_selector(".zq-page[data-zq-ready=yes]")


def check_q1(page, option: str) -> None:
    page.check(f"#q-Q1 input[value={option}]")
    page.click("#q-Q1 [data-zq-check]")
    expect(page.locator("#q-Q1 [data-zq-verdict]")).not_to_have_text("")


def test_a_verdict_given_before_the_key_was_corrected_is_withdrawn_and_said_so(page, host: Host) -> None:
    host.publish("base")
    open_quiz(page, host)
    check_q1(page, "B")
    expect(page.locator("#q-Q1 [data-zq-verdict]")).to_have_text("✓ Correct")
    host.publish("corrected")
    for lang in ("en", "ru"):
        open_quiz(page, host, lang)
        # The learner's answer stays; its old ✓ does not, on any page, nor in the counts.
        expect(page.locator("#q-Q1 [data-zq-verdict]")).to_have_text(CHANGED[lang])
        assert page.locator("#q-Q1").get_attribute("data-zq-status") == ""
        assert page.locator("#q-Q1 input[value=B]").is_checked()
        expect(page.locator("[data-zq-progress]")).to_have_text(PROGRESS[lang].format(checked=0, correct=0))
    page.goto(host.url + "en/")
    expect(page.locator('[data-zq-progress-of="demo/1"]')).to_contain_text(PROGRESS["en"].format(checked=0, correct=0))
    # Checked again, it is graded by the corrected key.
    open_quiz(page, host)
    page.click("#q-Q1 [data-zq-check]")
    expect(page.locator("#q-Q1 [data-zq-verdict]")).to_contain_text("Wrong")
    expect(page.locator("[data-zq-progress]")).to_have_text(PROGRESS["en"].format(checked=1, correct=0))


def test_a_site_built_again_from_the_same_sources_keeps_every_verdict(page, host: Host) -> None:
    host.publish("base")
    open_quiz(page, host)
    check_q1(page, "B")
    host.publish("again")
    for lang in ("en", "ru"):
        open_quiz(page, host, lang)
        assert page.locator("#q-Q1").get_attribute("data-zq-status") == "correct"
        expect(page.locator("[data-zq-progress]")).to_have_text(PROGRESS[lang].format(checked=1, correct=1))


def submit_the_exam_with_q1_right(page, host: Host) -> None:
    host.publish("exam")
    open_quiz(page, host)
    page.check("#q-Q1 input[value=B]")
    page.locator("[data-zq-exam-button]").click()
    page.locator("[data-zq-exam-yes]").click()
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")


def test_a_submitted_exams_answer_is_graded_again_by_a_corrected_key(page, host: Host) -> None:
    """The answers of a submitted exam are frozen; the key is the author's, and a correction applies to them."""
    submit_the_exam_with_q1_right(page, host)
    host.publish("exam-corrected")
    open_quiz(page, host)
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "wrong")
    assert page.locator("#q-Q1 input[value=B]").is_checked()
    expect(page.locator("#q-Q1 [data-zq-verdict]")).to_contain_text("Wrong")


def test_a_question_added_to_a_submitted_exam_is_not_graded_as_a_wrong_answer(page, host: Host) -> None:
    """It was graded wrong on its empty field, and counted, though the learner never saw it."""
    submit_the_exam_with_q1_right(page, host)
    host.publish("exam-added")
    open_quiz(page, host)
    expect(page.locator("#q-Q9 [data-zq-verdict]")).to_have_text(
        "Added after you submitted: not part of your exam, and not graded.")
    assert page.locator("#q-Q9").get_attribute("data-zq-status") in (None, "")
    expect(page.locator("#q-Q1")).to_have_attribute("data-zq-status", "correct")
    # Nor counted: the page's total and the home page's are the exam's seven questions, not eight.
    expect(page.locator("[data-zq-progress]")).to_contain_text("/ 7 ·")
    page.goto(host.url + "en/")
    expect(page.locator('[data-zq-progress-of="demo/1"]')).to_contain_text("/ 7 ·")
