// Zadachnik's page runtime: grades answers, keeps the progress line, saves and restores everything.
// Learner text only ever goes into .value and .textContent, never into HTML.
import { COUNTED, gradeAnywhere, gradedSpec, loadTypes, moduleFor, needsPython, scoreOf, standing } from "./grading.js";
import { describeError, retryButton, startPython } from "./pyclient.js";
import { MAX_LENGTH, neededDecimals, neededSignificant, readNumber, shownExactly, writeNumber } from "./numbers.js";
import { keepPlace } from "./place.js";
import { printButtons } from "./print.js";
import { handInCode } from "./handin.js";
import { ImportRefused, LAST_PLACE_KEY, PREFIX, Store, entryKey, isEntryKey, variantId } from "./storage.js";
import { showProgress as showCourseProgress, showProgressSoon } from "./progress.js";

let store = null;
// The pages set up in this document (more than one after instant navigation or a reset): storage events and
// leaving the page reach those still shown.
const pages = new Set();

function livePages() {
  for (const page of pages) if (!page.root.isConnected) pages.delete(page);
  return [...pages];
}

// The text control the learner is typing in inside `element`, if any: another tab's change never replaces it.
function typingIn(element) {
  const active = document.activeElement;
  if (!active || !document.hasFocus() || !element.contains(active)) return null;
  return active.matches("input[type=text],textarea") || active.closest(".ace_editor") ? active : null;
}

// The page's grading specs, read once: the early Python start below reads them before the page is set up.
function pageSpecs(root) {
  root.zqSpecs ||= readJson(root, "template.zq-spec");
  return root.zqSpecs;
}

function readJson(root, selector) {
  const element = root.querySelector(selector);
  try {
    // A <template>'s text lives in its content fragment.
    return element ? JSON.parse((element.content || element).textContent) : {};
  } catch {
    return {};
  }
}

// How a stored answer's numbers read: as the page that typed them wrote numbers (entry.typed, its decimal and
// group signs), where another language's page did: "1,655" typed on a Russian page is 1.655 on the English one.
function typedWith(typed, own) {
  return own && typeof typed === "string" && typed && typed !== own.decimal + own.group
    ? { ...own, decimal: typed[0], group: typed[1] || "" } : own;
}

function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

// What a numeric field's or a matching item's status says next to it.
const MARK_WORDS = new Map([["correct", "field_correct"], ["wrong", "field_wrong"], ["unanswered", "item_missing"]]);

// The words of the page's language, with helpers the type modules use. A name may come from storage or a file
// (a status, an error's kind): only the page's own words are words, anything else is said as it is.
function speaker(strings) {
  const word = (name) => (Object.hasOwn(strings, name) && typeof strings[name] === "string" && strings[name])
    || String(name);
  const say = (name, values = {}) => format(word(name), values);
  // How the page reads and writes numbers (formatting.conventions of its language).
  say.conventions = strings.number || null;
  // The code editor's own words (Ace's messages), on a page with a code question.
  say.editor = strings.editor;
  say.write = (value, group = true) => writeNumber(value, say.conventions, null, group);
  // A reading echoed to eight significant digits, with "…" when that is a rounding.
  say.number = (value) => {
    const shown = writeNumber(value, say.conventions, null, true, 8);
    return shownExactly(value, null, 8) ? shown : `${shown}…`;
  };
  say.status = (result) => (MARK_WORDS.has(result.status) ? say(MARK_WORDS.get(result.status)) : "");
  return say;
}

function deepFrozen(value) {
  if (value && typeof value === "object") for (const part of Object.values(value)) deepFrozen(part);
  return Object.freeze(value);
}

function numberWords(say, verdict) {
  const words = {
    example: say.write(2629.07),
    limit: say.write(MAX_LENGTH),
    // A list of decimals with decimal commas is separated by semicolons.
    examples: [say.write(3.14), "16/7", `${say.write(2.12)}e12`, `${say.write(2.12)}·10^12`]
      .join(say.conventions && say.conventions.decimal === "," ? "; " : ", "),
  };
  // A verdict may come from storage or an imported file: its readings are used only if they are numbers.
  const readings = [verdict.grouped, verdict.decimal];
  if (verdict.error !== "ambiguous" || !readings.every((value) => Number.isFinite(value))) return words;
  return { ...words, grouped: say.write(verdict.grouped), decimal: say.write(verdict.decimal),
    grouped_plain: say.write(verdict.grouped, false) };
}

function fieldMessage(say, field, text, verdict) {
  if (!verdict || verdict.status === "correct") return "";
  if (verdict.status === "unreadable") {
    const kind = verdict.error === "unreadable" ? "unreadable_number" : verdict.error;
    // 32 characters at most, cut between characters: a pasted page must not come back whole in the message.
    const quoted = 32;
    const typed = text.trim();
    const start = [...typed.slice(0, 2 * quoted)].slice(0, quoted).join("");
    return say(kind, { text: start.length < typed.length ? `${start}…` : typed, ...numberWords(say, verdict) });
  }
  if (verdict.precision) {
    const [name, count] = field.atol > 0
      ? ["decimals", neededDecimals(field.atol)] : ["significant", neededSignificant(field.rtol)];
    return say("precision", { digits: counted(say, name, count) });
  }
  return "";
}

// The words for `count` things: "1 знака", "4 cyfry", "5 cyfr": the form of the count's plural category in the
// page's language (the word `name`_few; the build gives every category a form, i18n.with_plural_forms).
function counted(say, name, count) {
  return say(`${name}_${new Intl.PluralRules(document.documentElement.lang || "en").select(count)}`, { count });
}

function questionMessage(say, verdict) {
  if (!verdict) return "";
  if (verdict.status === "partial") return say("partial", { percent: Math.round(verdict.score * 100) });
  if (verdict.status === "unavailable") return say(`python_unavailable_${verdict.reason}`);
  if (verdict.timeout && verdict.checker) return say("checker_timeout", { seconds: verdict.timeout });
  // Only code that never returns, or a first test that never does, suggests an endless loop.
  if (verdict.timeout && typeof verdict.timed_out === "number" && verdict.timed_out > 0) {
    return say("test_timed_out", { number: verdict.timed_out + 1, seconds: verdict.timeout });
  }
  if (verdict.timeout) return say("stopped_after", { seconds: verdict.timeout });
  if (verdict.status === "unreadable" && verdict.error) return say("python_error", { text: describeError(verdict.error, say) });
  // A checker's message in the page's language, when it gave one per language.
  const own = verdict.messages?.[say.conventions?.lang];
  if (verdict.message) return `${say(verdict.status)} ${typeof own == "string" ? own : verdict.message}`;
  // A question with hint_note: the hints that were open when it was answered right.
  if (verdict.status === "correct" && verdict.hints > 0) return counted(say, "correct_after_hints", verdict.hints);
  if (verdict.status === "unanswered" && verdict.missing) return say("unanswered_items", { items: verdict.missing.join(", ") });
  if (verdict.status === "wrong" && verdict.wrong) return say("wrong_items", { items: verdict.wrong.join(", ") });
  return say(verdict.status);
}

class Page {
  constructor(root) {
    this.root = root;
    this.course = root.dataset.zqCourse;
    this.module = root.dataset.zqModule;
    this.specs = pageSpecs(root);
    this.say = speaker(readJson(root, "template.zq-strings"));
    this.live = root.querySelector("[data-zq-live]");
    this.progress = root.querySelector("[data-zq-progress]");
    this.verdicts = new Map();
    // A question's current variant (variants.js): its answers are an entry of their own.
    this.variants = new Map();
    // An exam's questions are never checked one by one: exam.js grades them all when the exam is submitted, and
    // then freezes the answers. Its own entry, beside its questions', says when it was started and submitted.
    this.exam = "zqExam" in root.dataset;
    this.examKey = entryKey(this.course, this.module, "@exam");
    // Its time limit in milliseconds, from the first answer (none: Infinity).
    this.examLimit = root.dataset.zqExam * 1e3 || Infinity;
    // For the question types' own setup (an ordering question's first order comes from the learner's seed).
    this.store = store;
    this.frozen = false;
    // What the progress line says instead of the checked count (an exam before it is submitted), or null.
    this.progressLine = () => null;
  }

  key(id) {
    return entryKey(this.course, this.module, variantId(id, this.variants.get(id)));
  }

  // Where "Continue where you left off" leads; the navigation's mark of this page follows.
  touched(element) {
    this.notSaved(element);
    const place = { course: this.course, module: this.module, kind: this.root.dataset.zqKind, anchor: element.id };
    store.write(LAST_PLACE_KEY, JSON.stringify(place));
    // Once the learner pauses: each keystroke read every entry of the module again (a quarter of a second a key on
    // a slow phone with 300 questions), and the navigation's marks change at most at the first and the checks.
    showProgressSoon(store, this);
  }

  setup() {
    this.showStorageProblems();
    if (Object.values(this.specs).some(needsPython)) this.startPython();
    // A page opened as usual has run its types' scripts before this one: its questions are wired at once.
    if (Object.values(this.specs).every(moduleFor)) return this.wire();
    // Reached by instant navigation, or a type's script failed to load (said; the other questions still work).
    return loadTypes(this.root).catch(() => this.showNote("page_part_failed")).then(() => this.wire());
  }

  wire() {
    // An exam handed in, or whose time ran out while the page was closed, keeps the answers and notes it had:
    // nothing changed before set-up is taken.
    const exam = store.peek(this.examKey);
    if (exam?.submitted || exam?.started + this.examLimit < Date.now()) window.zqEarlyEdits = null;
    for (const question of this.root.querySelectorAll("[data-zq-question]:not([data-zq-variants])")) {
      this.setupQuestion(question);
    }
    for (const exercise of this.root.querySelectorAll("[data-zq-exercise]")) {
      const id = exercise.dataset.zqExercise;
      this.setupNotes(exercise, id, store.get(this.key(id)) || {});
      this.setupReveals(exercise, id);
    }
    this.noticeSetAside();
    this.setupTools();
    this.updateProgress();
    return this.extras();
  }

  // What only some pages have, loaded only there: shuffled options, hints.
  // One that fails to load (a dropped connection) or to set up is said on the page, and the others still run.
  async extras() {
    // First: a question with variants is set up once its variant is known, and hints key by it.
    const parts = [
      ["[data-zq-variants]", () => import("./variants.js")],
      ["[data-zq-shuffle]", () => import("./shuffle.js")],
      ["[data-zq-hints]", () => import("./hints.js")],
      // Last: it freezes what the others set up.
      ["[data-zq-exam-submit]", () => import("./exam.js")],
    ];
    for (const [selector, load] of parts) {
      if (!this.root.querySelector(selector)) continue;
      try {
        (await load()).setup(this, store);
      } catch (error) {
        this.showNote("page_part_failed");
        console.error(error);
      }
    }
  }

  // Started as soon as the page opens, so Python is ready by the time the learner checks. The line is no live
  // region: a screen reader is told only that Python failed, not of each start, unasked, on every page.
  startPython() {
    const status = this.root.querySelector("[data-zq-python-status]");
    startPython((state, reason) => {
      if (!status) return;
      // The line never gets shorter: a question moving up under a learner's finger takes the tap elsewhere.
      status.style.minHeight = `${status.getBoundingClientRect().height}px`;
      if (state !== "failed") {
        status.textContent = this.say(state === "starting" && reason === "fresh" ? "python_starting_fresh"
          : `python_${state}`);
        return;
      }
      status.replaceChildren(this.say(`python_unavailable_${reason}`), " ", retryButton(this.say));
      if (this.live) this.live.textContent = status.firstChild.textContent;
    });
  }

  showStorageProblems() {
    this.storageNote = this.root.querySelector("[data-zq-storage]");
    // Its own Export button works from the start, before the question types load, and on the fresh copy of the
    // page a reset or an import sets up (the note may still be showing).
    const exportButton = this.storageNote?.querySelector("button");
    if (exportButton) exportButton.onclick = exportProgress;
    this.storageProblems = new Set();
    this.setAsideSeen = store.setAsideCount;
    // Each page saves its entries under its own keys, and storage events find them here.
    this.elements = new Map();
    if (store.problems.has("unavailable")) this.showProblem("unavailable");
  }

  showProblem(problem) {
    this.showNote(`storage_${problem}`);
    if (!this.storageNote) return;
    // What storage did not keep, or set aside, is in an export (not so for a part of the page that did not load).
    this.storageNote.lastChild.hidden = false;
  }

  // Each problem is said once on the page, all of them in one note (before its Export button; a page written
  // before the note had one holds the words itself).
  showNote(word) {
    if (!this.storageNote || this.storageProblems.has(word)) return;
    this.storageProblems.add(word);
    (this.storageNote.firstChild || this.storageNote).textContent = [...this.storageProblems]
      .map((name) => this.say(name)).join(" ");
    this.storageNote.hidden = false;
  }

  // Work storage did not keep: the note goes just below the part being worked on (a field, the options, the code
  // box, an open reveal's summary, a closed reveal; the question's end otherwise), comes into sight, and is said
  // the first time. Not in an exam being graded, whose answers are no longer the learner's to change.
  notSaved(element) {
    if (this.frozen || !this.storageNote
        || !store.unsaved.has(this.key(element.dataset.zqQuestion || element.dataset.zqExercise))) return;
    const focused = document.activeElement;
    // Once the change that failed to save is shown: a field's reading above the note, a reveal opened or closed
    // by the click that saved it (the note inside a closed one would be hidden).
    setTimeout(() => {
      const part = element.contains(focused) && (focused.closest("details:not([open])")
        || focused.closest("summary,fieldset,.zq-field,.zq-code__editor,.zq-formula,p,.zq-notes"));
      if (part) part.after(this.storageNote);
      else element.append(this.storageNote);
      this.storageNote.scrollIntoView({ block: "nearest" });
    });
    if (this.told || !this.live) return;
    this.told = true;
    const said = this.storageNote.firstChild.textContent;
    this.live.textContent = said;
    // After a Check's verdict, said in the same task.
    queueMicrotask(() => this.live.textContent != said && (this.live.textContent += ` ${said}`));
  }

  // Entries of this page that were set aside while it read them.
  noticeSetAside() {
    if (store.setAsideCount > this.setAsideSeen) this.showProblem("corrupt");
    this.setAsideSeen = store.setAsideCount;
  }

  setupQuestion(question) {
    const id = question.dataset.zqQuestion;
    const spec = this.specs[id];
    const module = spec ? moduleFor(spec) : null;
    // Saved answers come from storage and imported files: their shape is checked before restore() sees them.
    if (module && module.answerProblem) {
      const answerSpec = gradedSpec(spec);
      store.expect(this.key(id), (saved) => (saved.answer ? module.answerProblem(saved.answer, answerSpec) : null));
    }
    const entry = store.get(this.key(id)) || {};
    if (module) {
      // The saved answer is put back (nothing saved: the question stays as the page shows it), then what the
      // learner changed before the page was set up, control by control, and that is saved below; a code box
      // showed its starter, and what was typed there goes after the saved code. A code question's textarea is
      // not among its inputs: the editor mounted over it reports its changes.
      const typed = [...module.inputs(question), ...question.querySelectorAll("[data-zq-source]")]
        .filter(editedEarly).map((control) => [control, control.value, control.checked]);
      if (entry.answer !== undefined) module.restore(question, entry.answer);
      question.zqTyped = typedWith(entry.typed, this.say.conventions);
      for (const [control, value, checked] of typed) {
        control.value = control.type == "textarea" ? joined(control.value, value) : value;
        control.checked = checked;
      }
      this.showSaved(question, spec, entry.verdict);
      for (const input of module.inputs(question)) {
        input.addEventListener(input.tagName === "SELECT" || input.type !== "text" ? "change" : "input", () => {
          this.answerChanged(question, spec, module);
        });
        if (input.dataset.zqInput) {
          input.addEventListener("keydown", (event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              this.check(question, spec, module);
            }
          });
        }
      }
      this.showReadings(question, spec);
      if (module.setup) module.setup(question, spec, this, () => this.answerChanged(question, spec, module));
      const button = question.querySelector("[data-zq-check]");
      if (button) button.addEventListener("click", () => this.check(question, spec, module));
      if (typed.length) this.answerChanged(question, spec, module);
    }
    this.setupNotes(question, id, entry);
    this.setupReveals(question, id);
  }

  setupNotes(element, id, entry) {
    const notes = element.querySelector("[data-zq-notes]");
    if (!notes) return;
    const save = () => {
      store.update(this.key(id), { notes: notes.value });
      this.touched(element);
    };
    const saved = typeof entry.notes === "string" ? entry.notes : "";
    // Typed before set-up into a box that looked empty: after the saved notes, not over them.
    if (editedEarly(notes)) {
      notes.value = joined(saved, notes.value);
      save();
    } else notes.value = saved;
    notes.addEventListener("input", save);
  }

  setupReveals(element, id) {
    this.elements.set(this.key(id), element);
    // Another tab's change held back while the learner typed here is shown once they leave the control.
    element.addEventListener("focusout", (event) => {
      if (element.zqPending && !element.contains(event.relatedTarget)) this.showStored(element);
    });
    const saved = (store.get(this.key(id)) || {}).reveals || {};
    for (const details of element.querySelectorAll("details[data-zq-reveal]")) {
      const name = details.dataset.zqReveal;
      details.open = Boolean(saved[name]);
      // The state last saved (or restored): setting .open fires a toggle later too, and only a change is saved.
      details.zqSaved = details.open;
      const save = (open) => {
        if (details.zqSaved === open) return;
        details.zqSaved = open;
        store.update(this.key(id), { reveals: { [name]: open } });
        this.touched(element);
      };
      // The toggle event comes a task after the click: too late when the learner leaves at once (or instant
      // navigation swaps the page), so the click (Enter and Space on the summary are clicks too) saves the state
      // it is about to produce, and toggle saves whatever opened it otherwise.
      const summary = details.querySelector(":scope > summary");
      if (summary) {
        summary.addEventListener("click", (event) => {
          if (!event.defaultPrevented && !event.target.closest("a")) save(!details.open);
        });
      }
      details.addEventListener("toggle", () => save(details.open));
    }
  }

  // Leaving the page: a reveal opened without a click (find in page, a link into it) whose toggle has not come
  // yet. Only such changes are written: what another tab saved or erased meanwhile is left alone.
  saveReveals() {
    for (const [key, element] of this.elements) {
      const reveals = [...element.querySelectorAll("details[data-zq-reveal]")];
      const changed = reveals.filter((item) => item.open !== item.zqSaved);
      if (!changed.length) continue;
      for (const item of changed) item.zqSaved = item.open;
      store.update(key, { reveals: Object.fromEntries(changed.map((item) => [item.dataset.zqReveal, item.open])) });
    }
  }

  // Another tab changed an entry (`key`), or cleared storage (null): show it here.
  refresh(key) {
    const keys = key === null ? [...this.elements.keys()] : [key];
    const elements = keys.map((target) => this.elements.get(target)).filter(Boolean);
    for (const element of elements) this.showStored(element);
    if (elements.length) {
      this.updateProgress();
      this.noticeSetAside();
    }
  }

  // The stored state of one question or exercise, except in a control the learner is typing in, which keeps its
  // text (the rest of its answer is still brought up to date) until they leave it.
  showStored(element) {
    element.zqPending = false;
    const id = element.dataset.zqQuestion || element.dataset.zqExercise;
    const entry = store.get(this.key(id)) || {};
    const typing = typingIn(element);
    const notes = element.querySelector("[data-zq-notes]");
    const spec = element.dataset.zqQuestion ? this.specs[id] : null;
    if (spec && typing && typing.closest(".ace_editor")) {
      element.zqPending = true;
    } else if (spec) {
      const kept = typing && typing !== notes ? { control: typing, value: typing.value,
        start: typing.selectionStart, end: typing.selectionEnd } : null;
      moduleFor(spec)?.restore(element, entry.answer);
      element.zqTyped = typedWith(entry.typed, this.say.conventions);
      const differs = kept && kept.control.value !== kept.value;
      if (differs) {
        kept.control.value = kept.value;
        kept.control.setSelectionRange(kept.start, kept.end);
        element.zqPending = true;
      }
      // A verdict belongs to the answer it checked, not to text being typed over it.
      this.showSaved(element, spec, differs ? null : entry.verdict);
      this.showReadings(element, spec);
    }
    if (notes && typing === notes) element.zqPending = true;
    else if (notes) notes.value = typeof entry.notes === "string" ? entry.notes : "";
    if (element.zqShowHints) element.zqShowHints(entry);
    const reveals = entry.reveals || {};
    for (const details of element.querySelectorAll("details[data-zq-reveal]")) {
      details.open = Boolean(reveals[details.dataset.zqReveal]);
      details.zqSaved = details.open;
    }
  }

  answerChanged(question, spec, module) {
    if (this.frozen) return;
    const id = question.dataset.zqQuestion;
    // A verdict belongs to the answer it checked: changing the answer withdraws it.
    const own = this.say.conventions;
    question.zqTyped = own;
    // Answered on this page: an exam's clock starts from it, whenever exam.js arrives.
    question.zqAnswered = true;
    store.update(this.key(id), { answer: module.collect(question), verdict: null, typed: own && own.decimal + own.group });
    this.showVerdict(question, spec, null);
    this.showReadings(question, spec);
    this.updateProgress();
    this.touched(question);
  }

  async check(question, spec, module) {
    if (!this.exam) await this.grade(question, spec, module);
  }

  // Grades the question's answer, saves and shows the verdict (`final` makes it the one saved: an exam's empty
  // answer is a wrong one), and says so unless `quiet`. Returns the verdict, or null when none could be given.
  async grade(question, spec, module, { final = (verdict) => verdict, quiet = false } = {}) {
    const id = question.dataset.zqQuestion;
    const answer = module.collect(question);
    const line = question.querySelector("[data-zq-verdict]");
    const button = question.querySelector("[data-zq-check]");
    if (needsPython(spec)) {
      if (line) line.textContent = this.say("checking");
      if (button) button.setAttribute("aria-busy", "true");
    }
    const verdict = final(await gradeAnywhere(spec, answer, this.root.dataset.zqLang, question.zqTyped || this.say.conventions));
    if (button) button.removeAttribute("aria-busy");
    if (verdict.status === "unavailable") {
      // Python could not start: no verdict on this answer (nothing is saved), and a way to try again.
      if (line) {
        line.replaceChildren(questionMessage(this.say, verdict), " ",
          retryButton(this.say, () => this.grade(question, spec, module, { final, quiet })));
      }
      if (module.show) module.show(question, verdict, this.say, spec);
      return null;
    }
    // The learner may have edited while Python was busy, or the question left the page (reset, import, instant
    // navigation): that verdict no longer belongs to the answer, and saving it would put the old one back.
    if (!question.isConnected || JSON.stringify(module.collect(question)) !== JSON.stringify(answer)) return null;
    if ("zqHintNote" in question.dataset) verdict.hints = question.querySelectorAll("[data-zq-hint]:not([hidden])").length;
    verdict.rev = spec.rev;
    store.update(this.key(id), { answer, verdict });
    this.showVerdict(question, spec, verdict);
    this.updateProgress();
    this.touched(question);
    const title = question.querySelector(".zq-question__id");
    if (this.live && !quiet) {
      this.live.textContent = `${title ? title.textContent : id}: ${questionMessage(this.say, verdict)}`;
    }
    this.announce(question, id, answer, verdict);
    return verdict;
  }

  // For sites that integrate (an LMS's bridge, their own analytics): one `zadachnik:checked` event per check,
  // bubbling from the question. Its detail is a frozen copy: a listener can neither change the saved verdict nor,
  // by throwing, stop the page (the browser reports a listener's error; dispatchEvent carries on).
  announce(question, id, answer, verdict) {
    const detail = deepFrozen(JSON.parse(JSON.stringify({
      course: this.course, module: this.module, question: id, variant: this.variants.get(id) ?? null,
      lang: this.root.dataset.zqLang, status: verdict.status, score: scoreOf(verdict), answer,
    })));
    question.dispatchEvent(new CustomEvent("zadachnik:checked", { bubbles: true, detail }));
  }

  // A saved verdict, unless the author has changed the question's key since: then the line says so.
  showSaved(question, spec, saved) {
    const verdict = standing(saved, spec.rev);
    this.showVerdict(question, spec, verdict);
    const line = question.querySelector("[data-zq-verdict]");
    if (saved && !verdict && line && !this.exam) line.textContent = this.say("verdict_changed");
  }

  showVerdict(question, spec, verdict) {
    this.verdicts.set(question.dataset.zqQuestion, verdict);
    question.dataset.zqStatus = verdict ? verdict.status : "";
    const line = question.querySelector("[data-zq-verdict]");
    if (line) line.textContent = questionMessage(this.say, verdict);
    const module = moduleFor(spec);
    if (module.show) module.show(question, verdict, this.say, spec);
    this.showFieldMessages(question, spec, verdict);
  }

  // Next to each numeric field: how the input was read, or why it could not be.
  showReadings(question, spec) {
    const fields = Object.fromEntries((spec.fields || []).map((field) => [field.id, field]));
    for (const input of question.querySelectorAll("[data-zq-field] [data-zq-input]")) {
      const output = input.closest("[data-zq-field]").querySelector("[data-zq-reading]");
      if (!output || !fields[input.dataset.zqInput]) continue;
      const reading = readNumber(input.value, question.zqTyped || this.say.conventions);
      output.textContent = "error" in reading ? "" : this.say("read_as", { value: this.say.number(reading.value) });
    }
  }

  showFieldMessages(question, spec, verdict) {
    for (const field of spec.fields || []) {
      const container = question.querySelector(`[data-zq-field="${CSS.escape(field.id)}"]`);
      const input = container?.querySelector("[data-zq-input]");
      if (!input) continue;
      const fields = verdict?.fields || {};
      const result = Object.hasOwn(fields, field.id) ? fields[field.id] : null;
      const message = fieldMessage(this.say, field, input.value, result);
      let note = container.querySelector("[data-zq-message]");
      if (!note) {
        note = document.createElement("span");
        note.className = "zq-message";
        note.dataset.zqMessage = "";
        note.id = `${input.id}-message`;
        container.append(note);
        // Once, with the note: a page set up again (reset, import) clones both.
        input.setAttribute("aria-describedby", `${input.getAttribute("aria-describedby") || ""} ${note.id}`.trim());
      }
      note.textContent = message;
      input.setAttribute("aria-invalid", String(Boolean(result) && result.status !== "correct"));
    }
  }

  updateProgress() {
    if (!this.progress) return;
    const instead = this.progressLine();
    if (instead !== null) {
      this.progress.textContent = instead;
      return;
    }
    const verdicts = [...this.verdicts.values()];
    const checked = verdicts.filter((verdict) => verdict && COUNTED.includes(verdict.status)).length;
    const correct = verdicts.filter((verdict) => verdict && verdict.status === "correct").length;
    const total = Number(this.progress.dataset.zqTotal);
    this.progress.textContent = format(this.progress.dataset.zqTemplate, { checked, total, correct });
  }

  setupTools() {
    const tools = this.root.querySelector("[data-zq-tools]");
    if (!tools) return;
    tools.hidden = false;
    const result = this.root.querySelector("[data-zq-tools-result]");
    tools.querySelector("[data-zq-reset]").addEventListener("click", () => {
      if (!window.confirm(this.say("reset_confirm"))) return;
      store.removeAll(this.entryKeys());
      this.reload("[data-zq-reset]", this.say("reset_done"));
    });
    tools.querySelector("[data-zq-export]").onclick = exportProgress;
    tools.querySelector("[data-zq-handin]").addEventListener("click", async () => {
      const box = this.root.querySelector("[data-zq-handin-box]");
      const field = box.querySelector("[data-zq-handin-code]");
      field.value = handInCode(this.results());
      box.hidden = false;
      field.focus();
      field.select();
    });
    const picker = tools.querySelector("[data-zq-import]");
    picker.addEventListener("change", async () => {
      const [file] = picker.files;
      picker.value = "";
      if (!file) return;
      let counts;
      try {
        counts = store.importAll(JSON.parse(await file.text()));
      } catch (error) {
        result.textContent = this.importRefusal(error);
        return;
      }
      this.reload("[data-zq-import]", this.say(counts.unsaved ? "imported_unsaved" : "imported", counts));
    });
  }

  // What a hand-in code carries (handin.js): each question's and exercise's state on this page, with the
  // learner's own text (an open answer, an explanation, notes).
  results() {
    const questions = [...this.root.querySelectorAll("[data-zq-question],[data-zq-exercise]")].map((element) => {
      const id = element.dataset.zqQuestion || element.dataset.zqExercise;
      const entry = store.get(this.key(id)) || {};
      const verdict = this.verdicts.get(id) || null;
      return [id, this.variants.get(id) ?? null, verdict ? verdict.status : null, scoreOf(verdict),
        typeof entry.notes === "string" ? entry.notes : ""];
    });
    return { course: this.course, module: this.module, time: Math.floor(Date.now() / 1000), questions };
  }

  // Every entry of this page: its questions' and exercises', and every variant's a question was ever on (`P02@3`),
  // not only the one on show. The question's own entry, which says its variant, stays.
  entryKeys() {
    const variantsOf = [...this.variants.keys()].map((id) => `${entryKey(this.course, this.module, id)}@`);
    const earlier = store.keys().filter((key) => variantsOf.some((prefix) => key.startsWith(prefix)));
    return [...new Set([...this.elements.keys(), ...earlier])];
  }

  // Why a file was not imported, naming the entry and the field at fault.
  importRefusal(error) {
    if (!(error instanceof ImportRefused) || error.reason === "not_export") return this.say("import_invalid");
    if (error.reason === "key") return this.say("import_bad_key", { key: error.key });
    const key = error.key.startsWith(PREFIX) ? error.key.slice(PREFIX.length) : error.key;
    const expected = this.say(`expected_${error.expected}`);
    return error.field ? this.say("import_bad_field", { key, field: error.field, expected })
      : this.say("import_bad_value", { key, expected });
  }

  // Puts the page back into its saved state (after a reset or an import), the focus on the control used
  // (`selector`), the status line saying what it did.
  reload(selector, said) {
    const fresh = this.root.cloneNode(true);
    for (const question of fresh.querySelectorAll("[data-zq-question]")) {
      const spec = this.specs[question.dataset.zqQuestion];
      if (spec) moduleFor(spec)?.clear(question);
    }
    fresh.dataset.zqReady = "";
    this.root.replaceWith(fresh);
    // A screen reader says changes to a live region it knows already: the line goes in first, its words after.
    setTimeout(() => { fresh.querySelector("[data-zq-tools-result]").textContent = said; }, 100);
    fresh.querySelector(selector).focus();
    start(fresh);
    showProgress();
  }
}

// Saved text and what was typed before set-up, without losing either; once only where the typing holds it
// already (the browser may put a box's last text back itself).
const joined = (saved, typed) => (!saved || typed.includes(saved) ? typed : `${saved}\n${typed}`);

// Whether the learner changed `control` before its page was set up (recorded by _early.html's script, a WeakSet;
// none on an exam handed in): taken out of the record. Truthy or not.
function editedEarly(control) {
  return window.zqEarlyEdits?.delete(control);
}

function start(root) {
  if (root.dataset.zqReady) return;
  // "yes" once what only some pages load (variants, shuffle, hints) is set up too: every question works then.
  root.dataset.zqReady = "starting";
  const page = new Page(root);
  pages.add(page);
  page.setup().finally(() => {
    root.dataset.zqReady = "yes";
  });
}

// Once per document: the store, and what reaches every page shown from then on.
function startStore() {
  store = new Store();
  store.onProblem((problem) => {
    if (problem === "unavailable") for (const page of livePages()) page.showProblem(problem);
  });
  // The other tab's writes (the page in another language, most often): answers, verdicts, notes, reveals.
  window.addEventListener("storage", (event) => {
    if (!store.backend || event.storageArea !== store.backend) return;
    if (event.key !== null && !isEntryKey(event.key)) return;
    for (const page of livePages()) page.refresh(event.key);
  });
  const leaving = () => {
    for (const page of livePages()) page.saveReveals();
  };
  window.addEventListener("pagehide", leaving);
  // Work that neither storage nor a progress file holds is lost with the page: the browser asks first.
  window.addEventListener("beforeunload", (event) => {
    if (store.unfiled()) event.preventDefault();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") leaving();
  });
}

// Every saved entry of the site in a file the learner keeps: leaving the page loses none of them then.
function exportProgress() {
  const exported = store.exportAll();
  store.file(exported);
  const blob = new Blob([JSON.stringify(exported, null, 1)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "zadachnik-progress.json";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
}

// Course progress (home page, navigation marks) of every module.
const showProgress = () => showCourseProgress(store);

export function init() {
  if (!store) startStore();
  for (const root of document.querySelectorAll(".zq-page")) start(root);
  keepPlace();
  showProgress();
  printButtons();
}

// A page that will need Python asks for it as this script runs, before any page is set up: the worker starts
// Python while the questions are wired.
for (const root of document.querySelectorAll(".zq-page")) {
  if (Object.values(pageSpecs(root)).some(needsPython)) startPython();
}

// mkdocs-material's document$ emits on every page, instant navigation included.
if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(() => init());
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", init);
} else {
  init();
}
