// Questions with variants (issue 15): the build drew each in several versions; a learner works on one, the same in
// every language and after reload, and after a check or a reveal "New variant" gives another. Each variant keeps its
// answer, verdict and reveals in an entry of its own (`P02@3`, see storage.variantId); the question's own entry
// says which variant is current, so the other languages' pages and the home page's progress follow it.
// The page shows variant 1; the others' changed parts come from <template data-zq-variant-of> (rendering.variants).
import { COUNTED, gradedSpec, moduleFor } from "./grading.js";
import { generator, learnerSeed } from "./seed.js";
import { entryKey } from "./storage.js";

// The questions of the pages set up in this document, for storage events from another tab.
const questions = new Set();
let listening = false;

// What each variant changes (variant 1: its own of that): a slot's HTML (key: its name), a control's accessible
// name (key: "aria " and its address; null for none).
function variantParts(page, id) {
  const variants = new Map();
  for (const template of page.root.querySelectorAll(`template[data-zq-variant-of="${CSS.escape(id)}"]`)) {
    const parts = new Map();
    for (const part of template.content.children) {
      if (part.dataset.zqSlot !== undefined) parts.set(part.dataset.zqSlot, part.innerHTML);
      else parts.set(`aria ${part.dataset.zqAria}`, "zqNone" in part.dataset ? null : part.textContent);
    }
    variants.set(Number(template.dataset.zqVariant), parts);
  }
  return variants;
}

function control(question, address) {
  if (address === "section") return question;
  const [kind, value] = address.startsWith("#") ? ["id", address.slice(1)] : ["data-zq-option", address.slice(7)];
  return question.querySelector(`[${kind}="${CSS.escape(value)}"]`);
}

function pointerKey(page, id) {
  return entryKey(page.course, page.module, id);
}

// The learner's current variant: as their question's entry says, or drawn from their own seed the first time, or
// when the author has since left fewer variants than theirs (`gone`, then: said where its verdict was).
function currentVariant(page, store, id, count) {
  const saved = (store.get(pointerKey(page, id)) || {}).variant;
  if (Number.isInteger(saved) && saved >= 1 && saved <= count) return [saved];
  const draw = generator(`${learnerSeed(store)}/variant/${page.course}/${page.module}/${id}`);
  const number = Math.floor(draw() * count) + 1;
  // Drawn, not chosen: as old as can be, so that a variant imported from another browser (whose seed drew
  // another) is the one kept; an entry holding the learner's work (the question had no variants) keeps its time.
  store.update(pointerKey(page, id), { variant: number }, store.get(pointerKey(page, id))?.t ?? 0);
  return [number, saved > count];
}

// Shows variant `number`: its text in the slots, its key in the question's spec (the same object every listener
// of the page holds).
function show(page, question, number) {
  const { id, variants, count } = question.zqVariants;
  const parts = variants.get(number) || new Map();
  const first = variants.get(1) || new Map();
  // Only what this variant or the one shown before changes is written (variant 1 holds its own of all that): the
  // rest keeps what other modules did to it.
  for (const key of new Set([...parts.keys(), ...question.zqChanged])) {
    const value = parts.has(key) ? parts.get(key) : first.get(key);
    if (!key.startsWith("aria ")) {
      const slot = question.querySelector(`[data-zq-slot="${CSS.escape(key)}"]`);
      if (slot) slot.innerHTML = value ?? "";
      continue;
    }
    const element = control(question, key.slice(5));
    if (element && value === null) element.removeAttribute("aria-label");
    else if (element) element.setAttribute("aria-label", value);
  }
  question.zqChanged = new Set(parts.keys());
  // An open question has no key: only its text changes.
  const spec = page.specs[id];
  if (spec) {
    const all = spec.variants;
    for (const key of Object.keys(spec)) delete spec[key];
    Object.assign(spec, all[number - 1], { variants: all });
  }
  page.variants.set(id, number);
  const line = question.querySelector("[data-zq-variant-line]");
  line.textContent = page.say("variant_of", { number, count });
  question.dispatchEvent(new CustomEvent("zq-variant", { detail: { number } }));
}

// "New variant" appears once the current one is answered and checked (a Check of empty or unreadable fields is no
// attempt: variants are not skipped unanswered) or its answer revealed.
function offerNew(question) {
  const button = question.querySelector("[data-zq-new-variant]");
  // An exam has none: its variant is the learner's for good.
  if (!button) return;
  const revealed = [...question.querySelectorAll("details[data-zq-reveal]")].some((details) => details.open);
  const attempted = COUNTED.includes(question.dataset.zqStatus);
  button.hidden = question.zqVariants.count < 2 || !(attempted || revealed);
}

// Moves the question to variant `number`, with what its entry holds (nothing, for a variant just drawn).
function switchTo(page, question, number, store) {
  const { id } = question.zqVariants;
  page.elements.delete(page.key(id));
  show(page, question, number);
  page.elements.set(page.key(id), question);
  // An answer from storage or an imported file is checked for its shape before restore() sees it, as on setup.
  const spec = page.specs[id];
  const module = spec ? moduleFor(spec) : null;
  if (module && module.answerProblem) {
    store.expect(page.key(id), (saved) => (saved.answer ? module.answerProblem(saved.answer, gradedSpec(spec)) : null));
  }
  page.showStored(question);
  page.updateProgress();
  offerNew(question);
}

function drawAnother(page, store, question) {
  const { id, count } = question.zqVariants;
  const current = page.variants.get(id);
  // Any other variant, never the same one twice in a row: 1 to count-1 places further on, round the end.
  const step = 1 + Math.floor(Math.random() * (count - 1));
  const number = ((current - 1 + step) % count) + 1;
  // A variant drawn again starts afresh: an answer given to it long ago never shows in it.
  store.remove(entryKey(page.course, page.module, `${id}@${number}`));
  store.update(pointerKey(page, id), { variant: number });
  switchTo(page, question, number, store);
  page.touched(question);
  if (page.live) page.live.textContent = question.querySelector("[data-zq-variant-line]").textContent;
  question.querySelector("[data-zq-variant-line]").focus();
}

function listen(store) {
  if (listening) return;
  listening = true;
  // Another tab (the page in the other language) moved a question to another variant: this one follows.
  window.addEventListener("storage", (event) => {
    if (event.key === null || !store.backend || event.storageArea !== store.backend) return;
    for (const item of questions) {
      const { page, question } = item;
      if (!question.isConnected) {
        questions.delete(item);
        continue;
      }
      const { id, count } = question.zqVariants;
      if (event.key !== pointerKey(page, id)) continue;
      const number = (store.get(event.key) || {}).variant;
      if (Number.isInteger(number) && number >= 1 && number <= count && number !== page.variants.get(id)) {
        switchTo(page, question, number, store);
      }
    }
  });
}

export function setup(page, store) {
  listen(store);
  for (const question of page.root.querySelectorAll("[data-zq-question][data-zq-variants]")) {
    const id = question.dataset.zqQuestion;
    const count = Number(question.dataset.zqVariants);
    question.zqVariants = { id, count, variants: variantParts(page, id) };
    // What the page shows may be another variant's (a copy made after a reset): all that variants change.
    question.zqChanged = new Set(question.zqVariants.variants.get(1)?.keys());
    const [number, gone] = currentVariant(page, store, id, count);
    show(page, question, number);
    page.setupQuestion(question);
    // Its entry, with the learner's answer, stays as it was: an export has it.
    const verdict = question.querySelector("[data-zq-verdict]");
    if (gone && verdict) verdict.textContent = page.say("variant_gone");
    const tools = question.querySelector("[data-zq-variant-tools]");
    // A question drawn once has no other variant to offer.
    tools.hidden = count < 2;
    tools.querySelector("[data-zq-variant-line]").tabIndex = -1;
    // An exam has no "New variant" (offerNew).
    tools.querySelector("[data-zq-new-variant]")?.addEventListener("click", () => drawAnother(page, store, question));
    // A verdict shown (the question's status) or a reveal opened or closed: whether a new variant is offered.
    new MutationObserver(() => offerNew(question)).observe(question, { attributeFilter: ["data-zq-status"] });
    question.addEventListener("toggle", () => offerNew(question), true);
    offerNew(question);
    questions.add({ page, question });
  }
  page.updateProgress();
}
