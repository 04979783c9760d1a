// Exam mode (`mode: exam` in module.yml, reading/exam.py): the page shows no Check, hints or answers; the learner
// answers, then submits everything at once. The exam's own entry (`@exam`, beside the questions', so it travels
// with them between languages, tabs, exports and an LMS) says when the first answer came (the time limit runs from
// it) and when the exam was submitted. Submitting is that one write: the answers are frozen from then on, and
// their verdicts are what follows from them, graded now or, should the page close first, on the next visit.
import { COUNTED, grade, moduleFor, needsPython, standing } from "./grading.js";
import { startPython } from "./pyclient.js";
import { adopt } from "./look.js";

const TICK_MS = 1000;
// When the time left is said aloud: five minutes and one minute before the end.
const WARN_AT = [300000, 60000];

// The time left stays in sight while the learner scrolls; one Submit at the end, asked twice.
adopt(`.zq-exam__timer {
  position: sticky; top: 2.6rem; z-index: 1; display: inline-block; padding: .2em .6em; font-weight: 700;
  font-variant-numeric: tabular-nums; background: var(--md-default-bg-color);
  border: 1px solid var(--md-default-fg-color--lighter); border-radius: .2rem;
}
.zq-exam { margin: 2em 0 1em; }
.zq-page :is(input, select, textarea, button, summary) { scroll-margin-top: 5rem; }
.zq-exam__confirm p { font-weight: 700; }`);

const isTime = (value) => value === undefined || (Number.isFinite(value) && value > 0);

// The exam entry's own shape: anything else is set aside as a bad entry is.
export function examProblem(entry) {
  for (const field of ["started", "submitted"]) {
    if (!isTime(entry[field])) return { field, expected: "number" };
  }
  // The questions the exam had when it was submitted.
  const { questions } = entry;
  return questions === undefined || (Array.isArray(questions) && questions.every((id) => typeof id === "string"))
    ? null : { field: "questions", expected: "texts" };
}

// "1:05:09" or "4:07": what is left, rounded up to the second.
export function clock(milliseconds) {
  const seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  const [hours, minutes, rest] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60];
  const two = (value) => String(value).padStart(2, "0");
  return hours ? `${hours}:${two(minutes)}:${two(rest)}` : `${minutes}:${two(rest)}`;
}

// Whether the learner has given the question an answer: an option ticked, an item matched, a field filled, an
// expression typed, items or lines moved, or code other than the starter.
function answered(page, question) {
  const answer = moduleFor(page.specs[question.dataset.zqQuestion]).collect(question);
  const filled = (values) => values.some((value) => String(value ?? "").trim() !== "");
  if (Array.isArray(answer.choice)) return answer.choice.length > 0;
  if (answer.pairs) return filled(Object.values(answer.pairs));
  if (answer.fields) return filled(Object.values(answer.fields));
  if (typeof answer.expression === "string") return filled([answer.expression]);
  // An order is always there (the learner's first one): it is an answer once a move has saved it.
  if (answer.order) return Boolean(page.store.get(page.key(question.dataset.zqQuestion))?.answer);
  if (typeof answer.code === "string") {
    const source = question.querySelector("[data-zq-source]");
    return answer.code.trim() !== (source ? source.dataset.zqStarter || "" : "").trim();
  }
  return false;
}

// After the exam an empty or unreadable answer is a wrong one: it is graded, with nothing to its credit.
function final(verdict) {
  if (verdict.status !== "unanswered" && verdict.status !== "unreadable") return verdict;
  return { ...verdict, status: "wrong", score: 0 };
}

function freeze(page, question) {
  question.zqFrozen = true;
  const spec = page.specs[question.dataset.zqQuestion];
  for (const input of (spec && moduleFor(spec)?.inputs(question)) || []) {
    if (input.matches("input[type=text], textarea")) input.readOnly = true;
    else input.disabled = true;
  }
  for (const text of question.querySelectorAll("[data-zq-notes], [data-zq-source]")) text.readOnly = true;
  // An editor mounted later takes the textarea's read-only (types/code.js); Reset would put the starter back.
  if (question.zqEditor) question.zqEditor.setReadOnly(true);
  for (const reset of question.querySelectorAll("[data-zq-code-reset]")) reset.disabled = true;
}

export function setup(page, store) {
  const { root } = page;
  const key = page.examKey;
  store.expect(key, examProblem);
  const panel = root.querySelector("[data-zq-exam-submit]");
  const button = panel.querySelector("[data-zq-exam-button]");
  const confirm = panel.querySelector("[data-zq-exam-confirm]");
  const status = panel.querySelector("[data-zq-exam-status]");
  const timer = root.querySelector("[data-zq-exam-timer]");
  // The questions the page grades (an open question has no grader: it is frozen with the rest).
  const questions = [...root.querySelectorAll("[data-zq-question]")].filter((question) => {
    const spec = page.specs[question.dataset.zqQuestion];
    return spec && moduleFor(spec);
  });
  const state = () => store.get(key) || {};
  // Submitted when the time ran out (by this tab, another, or while the page was closed), not by the learner.
  const endedByTime = () => state().submitted >= state().started + page.examLimit;
  let ticking = null;
  let grading = null;
  let warned = Infinity;

  // Until the exam is in, no verdict shows, not even one saved before the module was an exam or merged in by an
  // import: it would tell which answers are right. The saved ones show once it is submitted.
  const showVerdict = page.showVerdict.bind(page);
  page.showVerdict = (question, spec, verdict) => showVerdict(question, spec, state().submitted ? verdict : null);
  const showAllSaved = () => {
    for (const question of questions) {
      const id = question.dataset.zqQuestion;
      page.showSaved(question, page.specs[id], store.get(page.key(id))?.verdict);
    }
  };

  page.progressLine = () => (state().submitted ? null : page.progress.dataset.zqExamTemplate
    .replace("{answered}", String(questions.filter((question) => answered(page, question)).length))
    .replace("{total}", page.progress.dataset.zqTotal));

  const tick = () => {
    const { started, submitted } = state();
    // The timer is on the page only when the exam has a time limit.
    if (!timer || submitted || !started) return;
    const left = started + page.examLimit - Date.now();
    timer.hidden = false;
    timer.textContent = page.say("exam_time_left", { time: clock(left) });
    // A screen reader reads the clock only when asked: the page says the time left once at each mark.
    const mark = WARN_AT.find((at) => left <= at && at < warned && at < page.examLimit);
    if (mark && left > 0 && page.live) {
      warned = mark;
      page.live.textContent = timer.textContent;
    }
    if (left <= 0) submit(true);
  };

  // Every question without a verdict graded, those the page grades itself first: a Python still starting (or
  // never starting) holds up only its own questions.
  const gradeRest = async (timeUp) => {
    // The learner whose time ran out is told so at once, not only once Python is done.
    const say = (word) => (timeUp && word !== "exam_time_up" ? `${page.say("exam_time_up")} ${page.say(word)}`
      : page.say(word));
    status.textContent = say("exam_grading");
    let missing = 0;
    const byPython = (question) => needsPython(page.specs[question.dataset.zqQuestion]);
    const taken = state().questions;
    // Grading in the browser never waits: without a pause for one frame here "Grading…" never painted before a
    // long exam's verdicts, and the page looked hung for seconds on a slow phone. (A hidden tab draws no frames:
    // it goes on after a moment. A page left meanwhile grades as it goes: what the browser grades is done before
    // it is gone.)
    await new Promise((resume) => {
      const go = () => {
        removeEventListener("pagehide", go);
        resume();
      };
      requestAnimationFrame(() => setTimeout(go));
      setTimeout(go, 200);
      addEventListener("pagehide", go);
    });
    for (const question of [...questions.filter((item) => !byPython(item)), ...questions.filter(byPython)]) {
      // A question the author added after this exam was submitted was never the learner's to answer.
      if (taken && !taken.includes(question.dataset.zqQuestion)) {
        question.querySelector("[data-zq-verdict]").textContent = page.say("exam_added_later");
        continue;
      }
      const saved = store.get(page.key(question.dataset.zqQuestion)) || {};
      const spec = page.specs[question.dataset.zqQuestion];
      // A frozen answer whose key the author has corrected since is graded again.
      if (COUNTED.includes(standing(saved.verdict, spec.rev)?.status)) continue;
      const verdict = await page.grade(question, spec, moduleFor(spec), { final, quiet: true });
      if (!verdict) missing += 1;
    }
    page.updateProgress();
    button.hidden = !missing;
    button.textContent = page.say("exam_check_rest");
    status.textContent = say(missing ? "exam_incomplete" : timeUp ? "exam_time_up" : "exam_submitted");
  };

  const showSubmitted = (timeUp = false) => {
    clearInterval(ticking);
    if (timer) timer.hidden = true;
    if (page.frozen) return grading || Promise.resolve();
    page.frozen = true;
    for (const question of questions) freeze(page, question);
    for (const question of root.querySelectorAll("[data-zq-question]")) {
      if (!questions.includes(question)) freeze(page, question);
    }
    const focused = confirm.contains(document.activeElement);
    confirm.hidden = true;
    button.hidden = true;
    for (const details of root.querySelectorAll("details[data-zq-after-submit]")) {
      details.hidden = false;
      details.open = true;
    }
    // "Yes", now hidden, had the focus: the status line that follows the grading takes it, once the answers
    // opened above it have pushed it down, and in the middle of the screen, clear of the header.
    if (focused) {
      status.tabIndex = -1;
      status.focus({ preventScroll: true });
      status.scrollIntoView({ block: "center" });
    }
    // The exam's questions as submitted: one the author added since is not counted.
    const taken = state().questions;
    if (taken && page.progress) {
      page.progress.dataset.zqTotal = questions.filter((question) => taken.includes(question.dataset.zqQuestion)).length;
    }
    showAllSaved();
    page.updateProgress();
    return gradeOnce(timeUp);
  };

  const gradeOnce = (timeUp) => {
    grading ||= gradeRest(timeUp).finally(() => {
      grading = null;
    });
    return grading;
  };

  function submit(timeUp = false) {
    if (!state().submitted) {
      store.update(key, { submitted: Date.now(), questions: questions.map((question) => question.dataset.zqQuestion) });
    }
    return showSubmitted(timeUp);
  }

  button.addEventListener("click", () => {
    if (page.frozen) {
      // After a submission some answers could not be graded (Python did not start): start it again, and grade
      // those.
      button.hidden = true;
      startPython().then((runner) => runner.retry()).finally(() => gradeOnce(false));
      return;
    }
    // Nothing is checked before Submit: an answer this page cannot read (no number, or one its locale reads two
    // ways, as a comma typed on another language's page) would count as wrong, so it is named first. A field or
    // gap left empty is no such answer.
    const unreadable = questions.filter((question) => {
      const spec = page.specs[question.dataset.zqQuestion];
      if (needsPython(spec) || !answered(page, question)) return false;
      const verdict = grade(spec, moduleFor(spec).collect(question), question.zqTyped || page.say.conventions);
      return verdict.status === "unreadable" && (!verdict.fields
        || Object.values(verdict.fields).some((field) => field.status === "unreadable" && field.error !== "empty"));
    }).map((question) => question.dataset.zqQuestion);
    const warning = confirm.querySelector("[data-zq-exam-unreadable]");
    warning.hidden = !unreadable.length;
    warning.textContent = unreadable.length ? page.say("exam_unreadable", { questions: unreadable.join(", ") }) : "";
    confirm.hidden = false;
    button.hidden = true;
    confirm.querySelector("[data-zq-exam-yes]").focus();
  });
  confirm.querySelector("[data-zq-exam-no]").addEventListener("click", () => {
    confirm.hidden = true;
    button.hidden = false;
    button.focus();
  });
  confirm.querySelector("[data-zq-exam-yes]").addEventListener("click", () => submit(false));

  // The time runs from the first answer (reading the questions costs none of it): a question's control, not a tab
  // of its statement (pymdownx.tabbed's radios) nor the page's tools (Import's picker, whose entry would then be
  // newer than an imported submission).
  const started = (event) => {
    const target = event?.target;
    if (target && (!target.closest("[data-zq-question]") || target.matches(".tabbed-set > input"))) return;
    if (page.frozen || state().started) return;
    store.update(key, { started: Date.now() });
    tick();
  };
  root.addEventListener("input", started, true);
  root.addEventListener("change", started, true);
  // Reset after a submission starts the exam over: its own entry goes with the answers', and the page loads afresh,
  // as frozen answers and shown explanations are not put back one by one. (Capturing: before zadachnik.js's own
  // Reset, which empties the answers only.)
  root.querySelector("[data-zq-reset]")?.addEventListener("click", (event) => {
    if (!state().submitted) return;
    event.stopImmediatePropagation();
    if (!window.confirm(page.say("reset_confirm"))) return;
    store.removeAll([...page.entryKeys(), key]);
    location.reload();
  }, true);
  // Another tab (or language) of the same exam submitted, or answered first.
  window.addEventListener("storage", (event) => {
    if (event.key !== key && event.key !== null) return;
    if (!root.isConnected) return;
    if (state().submitted) showSubmitted(endedByTime());
    else tick();
  });

  if (state().submitted) {
    showSubmitted(endedByTime());
  } else {
    showAllSaved();
    // An answer given on this page before this part was set up (zadachnik.js marks it) starts the time too;
    // answers saved before the module was an exam do not: the time runs from the first answer given on the exam.
    if (questions.some((question) => question.zqAnswered)) started();
    ticking = setInterval(() => (root.isConnected ? tick() : clearInterval(ticking)), TICK_MS);
    tick();
    page.updateProgress();
  }
}
