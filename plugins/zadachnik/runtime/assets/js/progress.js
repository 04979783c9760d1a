// Course progress across pages: each module's line on the home page, a mark on each module page in the
// navigation, and "Continue where you left off". All of it is read from the learner's saved entries, which the
// languages of a page share; each module's totals and pages come from the site's manifest, course-progress.js,
// written at build. The manifest is a classic script: a page opened from disk may load one, while a fetch of a
// JSON file is refused there. zadachnik.js runs it once its page is set up (its shipped copy holds this module);
// the home page's lines and "Continue" are home.js's, which only the home page loads.
import { COUNTED, standing } from "./grading.js";
import { LAST_PLACE_KEY, entryKey, isEntryKey, variantId } from "./storage.js";

const MANIFEST = new URL("../course-progress.js", import.meta.url).href;
// The manifest's addresses are relative to the site's root, two folders above it (assets/zadachnik/).
const ROOT = new URL("../../", MANIFEST);
// What a mark shows; the words say it too, for screen readers and on hover: never the symbol or a colour alone.
const SYMBOLS = { new: "○", started: "◐", done: "✓" };
const STATE_WORDS = { new: "progress_not_started", started: "progress_in_progress", done: "progress_done" };

// The home page's course list (home.py) always has the "Continue" paragraph.
const HOME = ["[data-zq-continue]", () => import("./home.js")];

let manifest = null;
let listening = false;

function loadManifest() {
  manifest ||= new Promise((resolve) => {
    if (window.__zqProgress) {
      resolve(window.__zqProgress);
      return;
    }
    const script = document.createElement("script");
    script.src = MANIFEST;
    script.onload = () => resolve(window.__zqProgress || null);
    // A copy that lacks the file keeps its pages as they are, without progress.
    script.onerror = () => resolve(null);
    document.head.append(script);
  });
  return manifest;
}

// A page's address as both the navigation's links and the manifest give it: no hash or query, no index.html.
function pageAddress(url) {
  const address = new URL(url, ROOT);
  address.hash = "";
  address.search = "";
  return address.href.replace(/\/index\.html$/, "/");
}

// Anything the learner did with a question or an exercise: an answer, a verdict, notes, an opened reveal.
function worked(entry) {
  return Boolean(entry.answer || entry.verdict || entry.notes
    || Object.values(entry.reveals || {}).some((open) => open === true));
}

function pageState(started, done) {
  if (done) return "done";
  return started ? "started" : "new";
}

// A question's (or an exercise's) entry as progress counts it. A question with variants counts by its current
// variant's entry, which its own entry names (a name past the variants it has now names none); a verdict counts
// only if it was given under the question's key as it is now (the manifest's `revs`), and in an exam only once
// it is submitted (one saved before the module was an exam, or imported, would tell which answers are right).
export function countedEntry(store, module, id) {
  const peek = (key) => store.peek(entryKey(module.course, module.module, key)) || {};
  const own = peek(id);
  const number = own.variant;
  const entry = Number.isInteger(number) && number >= 1 && number <= module.variants?.[id] ? peek(variantId(id, number))
    : own;
  const open = module.exam && !peek("@exam").submitted;
  return { ...entry, verdict: open ? null : standing(entry.verdict, module.revs?.[id]) };
}

// What the learner did in one module: the home page's counts, and each page's state for the navigation. A quiz is
// done when every auto-checked question has a verdict (or, with none, when every question has been worked on);
// exercises are done when every solution has been opened.
export function moduleSummary(store, module) {
  const entry = (id) => countedEntry(store, module, id);
  // A submitted exam counts the questions it had: one the author added since was never the learner's.
  const taken = module.exam && entry("@exam").questions;
  const auto = Array.isArray(taken) ? module.auto.filter((id) => taken.includes(id)) : module.auto;
  const questions = new Map(module.questions.map((id) => [id, entry(id)]));
  const exercises = module.exercises.map(entry);
  const verdicts = auto.map((id) => (questions.get(id) || {}).verdict);
  const checked = verdicts.filter((verdict) => verdict && COUNTED.includes(verdict.status)).length;
  const correct = verdicts.filter((verdict) => verdict && verdict.status === "correct").length;
  const opened = exercises.filter((saved) => (saved.reveals || {}).solution === true).length;
  const questionEntries = [...questions.values()];
  const quizDone = auto.length ? checked === auto.length : questionEntries.every(worked);
  return {
    auto, checked, correct, opened,
    states: {
      quiz: pageState(questionEntries.some(worked), quizDone),
      exercises: pageState(exercises.some(worked), opened === exercises.length),
    },
  };
}

// A mark at the end of each module page's link, in a slot of its own width: the link's text never moves.
function markNavigation(summaries, words) {
  const states = new Map();
  for (const [module, summary] of summaries) {
    for (const pages of Object.values(module.pages)) {
      for (const [kind, url] of Object.entries(pages)) states.set(pageAddress(url), summary.states[kind]);
    }
  }
  for (const link of document.querySelectorAll(".md-nav--primary a.md-nav__link[href]")) {
    const state = states.get(pageAddress(link.href));
    // A link to a place in the page (its table of contents, inside the navigation too) is not the page's.
    if (!state || link.hash) continue;
    let mark = link.querySelector(":scope > .zq-nav-mark");
    if (!mark) {
      mark = document.createElement("span");
      mark.className = "zq-nav-mark";
      link.append(mark);
    }
    if (mark.dataset.zqState === state) continue;
    const text = words[STATE_WORDS[state]];
    const symbol = document.createElement("span");
    symbol.setAttribute("aria-hidden", "true");
    symbol.textContent = SYMBOLS[state];
    const said = document.createElement("span");
    said.className = "zq-nav-mark__text";
    said.textContent = ` (${text})`;
    mark.replaceChildren(symbol, said);
    mark.title = text;
    mark.dataset.zqState = state;
  }
}

// Changes counted once they pause, this page's typing and another tab's alike: each key counted every module of
// the site (one count reads each entry of the site once: 8 ms for 1,000 questions). `only` as showProgress's; a
// module's change waiting beside another's (or every module's) counts every module.
let soon, pending;
export function showProgressSoon(store, only) {
  pending = soon && pending !== only ? undefined : only;
  clearTimeout(soon);
  soon = setTimeout(() => {
    soon = 0;
    showProgress(store, pending);
  }, 300);
}

// Shows the progress of every module, or of `only` ({course, module}: the one whose entries just changed), on the
// page as it is now (called again after each instant navigation, and on another tab's change).
export async function showProgress(store, only) {
  const data = await loadManifest();
  if (!data) return;
  if (!listening) {
    listening = true;
    // Another tab's answer, its last place where "Continue" shows it, or storage cleared; other keys of the site
    // (the theme's) are not ours.
    window.addEventListener("storage", ({ key, storageArea }) => {
      if (!store.backend || storageArea !== store.backend) return;
      if (key === null || isEntryKey(key) || (key === LAST_PLACE_KEY && document.querySelector(HOME[0]))) {
        showProgressSoon(store);
      }
    });
  }
  const lang = document.documentElement.lang;
  const words = data.words[lang] || Object.values(data.words)[0];
  const modules = only
    ? data.modules.filter((module) => module.course === only.course && module.module === only.module)
    : data.modules;
  const summaries = new Map(modules.map((module) => [module, moduleSummary(store, module)]));
  markNavigation(summaries, words);
  // The home page's part (its course list's lines and "Continue"), loaded where its markup is.
  const [marker, load] = HOME;
  if (document.querySelector(marker)) (await load()).showHome(store, data, summaries, words, lang, ROOT);
}
