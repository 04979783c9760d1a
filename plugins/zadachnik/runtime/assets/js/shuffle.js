// Shuffled options (`shuffle: true`): each learner sees a question's options, or a matching question's right-hand
// column, in an order of their own, from their seed and the question's id: the same in every language and after
// reload. The labels shown follow that order (A, B, … or 1, 2, … as the author marked them), and so does every
// `[[option:B]]` of the text and the revealed answer; inputs keep the author's markers as their values, so saved
// answers point at the options, never at places.
import { learnerSeed, shuffledOrder } from "./seed.js";

export { shuffledOrder };


// The author's markers in their order: they are sequential (A, B, … or 1, 2, …; the build checks it).
function authorOrder(keys) {
  const position = (key) => (/^\d+$/.test(key) ? Number(key) : key.charCodeAt(0) - 64);
  return [...keys].sort((a, b) => position(a) - position(b));
}

function relabel(element, shownLabel) {
  const name = element.getAttribute("aria-label");
  const named = name && name.replace(/^[^.]*\./, `${shownLabel}.`);
  if (named && named !== name) element.setAttribute("aria-label", named);
}

// Puts `items` (each an element with its marker `keyOf(item)`) in `order` after what precedes them in `parent`.
function reorder(parent, items, keyOf, order) {
  const byKey = new Map(items.map((item) => [keyOf(item), item]));
  for (const key of order) if (byKey.has(key)) parent.append(byKey.get(key));
}

export function shuffleQuestion(question, seed, course, module) {
  const choices = [...question.querySelectorAll(".zq-option")];
  const listed = [...question.querySelectorAll("[data-zq-choice]")];
  const keys = authorOrder(choices.length ? choices.map((label) => label.querySelector("input").value)
    : listed.map((item) => item.dataset.zqChoice));
  if (!keys.length) return;
  const order = shuffledOrder(keys, seed, course, module, question.dataset.zqQuestion);
  const numbered = /^\d/.test(keys[0]);
  const shown = new Map(order.map((key, index) => [key, numbered ? String(index + 1) : String.fromCharCode(65 + index)]));
  if (choices.length) {
    reorder(choices[0].parentElement, choices, (label) => label.querySelector("input").value, order);
  } else {
    reorder(listed[0].parentElement, listed, (item) => item.dataset.zqChoice, order);
    for (const select of question.querySelectorAll("[data-zq-select]")) {
      reorder(select, [...select.options].filter((option) => option.value), (option) => option.value, order);
    }
  }
  label(question, shown);
  // A question's variant (variants.js) brings its own text, names and references: labelled again as shown.
  new MutationObserver(() => label(question, shown)).observe(question, {
    subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["aria-label"],
  });
  question.dataset.zqShuffled = order.join(" ");
}

// Each option's marker, accessible name and reference as the label shown; only what differs is written, so
// the observer that calls it again sees no change of its own.
function label(question, shown) {
  const write = (element, text) => {
    if (element && text && element.textContent !== text) element.textContent = text;
  };
  for (const input of question.querySelectorAll(".zq-option input")) {
    write(input.closest(".zq-option").querySelector(".zq-marker"), `${shown.get(input.value)}.`);
    relabel(input, shown.get(input.value));
  }
  for (const item of question.querySelectorAll("[data-zq-choice]")) {
    write(item.querySelector(".zq-marker"), `${shown.get(item.dataset.zqChoice)}.`);
  }
  // A select's option says its label and its text (a phone's picker shows nothing else), or with a formula its
  // label alone, named with its text.
  for (const option of question.querySelectorAll("[data-zq-select] option")) {
    if (!option.value) continue;
    write(option, option.textContent.replace(/^[^.]*(\.|$)/, `${shown.get(option.value)}$1`));
    relabel(option, shown.get(option.value));
  }
  for (const reference of question.querySelectorAll("[data-zq-option-ref]")) {
    write(reference, shown.get(reference.dataset.zqOptionRef));
  }
}

export function setup(page, store) {
  const seed = learnerSeed(store);
  for (const question of page.root.querySelectorAll("[data-zq-shuffle]")) {
    shuffleQuestion(question, seed, page.course, page.module);
  }
}
