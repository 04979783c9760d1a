// Ordering: the items in an order of the learner's own (from their seed, the same in every language), each moved
// one place at a time by its "up" and "down" buttons, so keyboards, touch screens and screen readers all work.
// The saved answer is the items' markers in the learner's order. Grading follows qtypes/ordering.py (the cases
// both run are in tests/vectors/ordering.json).
import { register } from "../grading.js";
import * as thisType from "./ordering.js";
import { learnerSeed, shuffledOrder } from "../seed.js";
import { adopt } from "../look.js";

export const types = ["ordering"];

// The look of an ordering question, and of the moves a Parsons problem shares (parsons.js imports this module):
// each item a row with its two moves; the number of its place is the list's.
// An item's buttons go under its text when both do not fit (a phone with a large text size).
adopt(`.zq-ordering__item { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin: .2em 0; }
.zq-ordering__text { flex: 1 1 10em; }
.zq-ordering__moves, .zq-parsons__moves { display: flex; flex-wrap: wrap; gap: .25em; }
.zq-ordering__move.md-button, .zq-parsons__move.md-button { min-width: 2.4em; padding: .1em .5em; margin: 0; }`);

// The length of the longest increasing run (not necessarily side by side) in `positions`.
export function longestOrdered(positions) {
  const tails = [];
  for (const position of positions) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (tails[middle] < position) low = middle + 1;
      else high = middle;
    }
    tails[low] = position;
  }
  return tails.length;
}

// As order_score in qtypes/ordering.py: `given` may lack items of `order` and hold items it lacks (a Parsons
// problem's line at a wrong depth, or one that belongs nowhere: parsons.js), each never in its place and counted
// against the share as a missing one is.
export function orderScore(order, given, scoring) {
  if (given.length === order.length && given.every((item, index) => item === order[index])) return 1;
  if (scoring === "exact") return 0;
  const place = new Map(order.map((item, index) => [item, index]));
  const positions = given.map((item) => (place.has(item) ? place.get(item) : null));
  const size = Math.max(order.length, given.length);
  if (scoring === "pairs") {
    let right = 0;
    for (let index = 1; index < positions.length; index += 1) {
      if (positions[index - 1] !== null && positions[index] === positions[index - 1] + 1) right += 1;
    }
    return right / (size - 1);
  }
  const longest = longestOrdered(positions.filter((position) => position !== null));
  return longest >= 2 ? longest / size : 0;
}

export function grade(spec, answer) {
  const given = Array.isArray(answer.order) ? answer.order.map(String) : null;
  if (!given || given.length !== spec.order.length || [...given].sort().join("\n") !== [...spec.order].sort().join("\n")) {
    return { status: "unanswered" };
  }
  const score = orderScore(spec.order, given, spec.scoring);
  return { status: score === 1 ? "correct" : score > 0 ? "partial" : "wrong", score };
}

const itemsOf = (question) => [...question.querySelectorAll("[data-zq-order-item]")];

export function collect(question) {
  return { order: itemsOf(question).map((item) => item.dataset.zqOrderItem) };
}

// Puts the items in `order` (markers); markers it lacks keep their place after the others.
function arrange(question, order) {
  const list = question.querySelector("[data-zq-order-list]");
  const byKey = new Map(itemsOf(question).map((item) => [item.dataset.zqOrderItem, item]));
  for (const key of order) if (byKey.has(key)) list.append(byKey.get(key));
  updateButtons(question);
}

function updateButtons(question) {
  const items = itemsOf(question);
  items.forEach((item, index) => {
    item.querySelector("[data-zq-move='up']").disabled = index === 0 || Boolean(question.zqFrozen);
    item.querySelector("[data-zq-move='down']").disabled = index === items.length - 1 || Boolean(question.zqFrozen);
  });
}

export function restore(question, answer) {
  const saved = answer && Array.isArray(answer.order) ? answer.order : null;
  arrange(question, saved || question.zqInitial || collect(question).order);
}

export function clear(question) {
  restore(question, null);
}

// The buttons: an exam freezes them with the other inputs (exam.js).
export function inputs(question) {
  return question.querySelectorAll("[data-zq-move]");
}

// The learner's own first order: never the right one (a question of two items has only one other).
function initialOrder(question, page) {
  const keys = itemsOf(question).map((item) => item.dataset.zqOrderItem);
  const order = shuffledOrder(keys, learnerSeed(page.store), page.course, page.module, question.dataset.zqQuestion);
  const same = order.every((key, index) => key === keys[index]);
  return same ? [...order.slice(1), order[0]] : order;
}

export function setup(question, spec, page, changed) {
  question.zqOrder = spec.order;
  question.zqInitial = initialOrder(question, page);
  const saved = (page.store.get(page.key(question.dataset.zqQuestion)) || {}).answer;
  if (!saved || !Array.isArray(saved.order)) arrange(question, question.zqInitial);
  question.addEventListener("click", (event) => {
    const button = event.target.closest("[data-zq-move]");
    if (!button || button.disabled) return;
    const item = button.closest("[data-zq-order-item]");
    const up = button.dataset.zqMove === "up";
    const neighbour = up ? item.previousElementSibling : item.nextElementSibling;
    if (!neighbour) return;
    if (up) neighbour.before(item);
    else neighbour.after(item);
    updateButtons(question);
    // The focus stays with the item moved, on the button that can still move it that way (or the other one).
    (button.disabled ? item.querySelector(`[data-zq-move='${up ? "down" : "up"}']`) : button).focus();
    const items = itemsOf(question);
    if (page.live) {
      page.live.textContent = page.say("ordering_moved", {
        item: item.querySelector(".zq-ordering__text").textContent.trim(),
        position: items.indexOf(item) + 1, count: items.length,
      });
    }
    changed();
    // As any other answer's change does (an exam's time starts with it).
    question.dispatchEvent(new Event("change", { bubbles: true }));
  });
  question.querySelector("[data-zq-ordering]").dataset.zqReady = "";
  // The verdict was shown before the right order was known here.
  show(question, page.verdicts.get(question.dataset.zqQuestion), page.say);
}

// Each item marked in its right place or not, in words next to it.
export function show(question, verdict, say) {
  const order = verdict && question.zqOrder;
  const graded = verdict && ["correct", "wrong", "partial"].includes(verdict.status);
  itemsOf(question).forEach((item, index) => {
    const status = !graded || !order ? "" : order[index] === item.dataset.zqOrderItem ? "correct" : "wrong";
    item.dataset.zqStatus = status;
    const mark = item.querySelector("[data-zq-mark]");
    if (mark) mark.textContent = status ? say.status({ status }) : "";
  });
}

export function answerProblem(answer) {
  const order = answer && answer.order;
  if (order === undefined) return null;
  return Array.isArray(order) && order.every((key) => typeof key === "string") ? null
    : { field: "answer.order", expected: "texts" };
}

// Every page that loads this module grades its questions with it (grading.js).
register(thisType);
