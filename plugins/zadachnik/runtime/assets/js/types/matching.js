// Matching: one native select per item, so keyboards, touch screens and screen readers all work.
import { register } from "../grading.js";
import * as thisType from "./matching.js";

export const types = ["matching"];

export function grade(spec, answer) {
  const pairs = answer.pairs || {};
  // An author's item may be named like what every object inherits ("constructor"): only the answer's own count.
  const given = (item) => (Object.hasOwn(pairs, item) ? pairs[item] : "");
  const items = Object.keys(spec.pairs);
  const missing = items.filter((item) => !given(item));
  if (missing.length) return { status: "unanswered", missing };
  const wrong = items.filter((item) => given(item) !== spec.pairs[item]);
  return wrong.length ? { status: "wrong", score: 0, wrong } : { status: "correct", score: 1 };
}

export function collect(question) {
  const pairs = {};
  for (const select of question.querySelectorAll("[data-zq-select]")) pairs[select.dataset.zqSelect] = select.value;
  return { pairs };
}

export function restore(question, answer) {
  const pairs = (answer && answer.pairs) || {};
  for (const select of question.querySelectorAll("[data-zq-select]")) {
    const value = Object.hasOwn(pairs, select.dataset.zqSelect) ? pairs[select.dataset.zqSelect] : "";
    select.value = [...select.options].some((option) => option.value === value) ? value : "";
  }
}

export function clear(question) {
  restore(question, null);
}

export function inputs(question) {
  return question.querySelectorAll("[data-zq-select]");
}

// Marks each item right, wrong or missing, in words next to its select.
export function show(question, verdict, say) {
  const wrong = new Set((verdict && verdict.wrong) || []);
  const missing = new Set((verdict && verdict.missing) || []);
  const graded = verdict && (verdict.status === "correct" || verdict.status === "wrong");
  for (const item of question.querySelectorAll("[data-zq-item]")) {
    const key = item.dataset.zqItem;
    const status = missing.has(key) ? "unanswered" : !graded ? "" : wrong.has(key) ? "wrong" : "correct";
    item.dataset.zqStatus = status;
    const mark = item.querySelector("[data-zq-mark]");
    if (mark) mark.textContent = status ? say.status({ status }) : "";
  }
}

// What is wrong with a saved answer's shape ({field, expected}), or null: saved answers come from storage and
// imported files, so they are checked before restore() trusts them.
export function answerProblem(answer) {
  const pairs = answer && answer.pairs;
  if (pairs === undefined) return null;
  if (pairs === null || typeof pairs !== "object" || Array.isArray(pairs)) {
    return { field: "answer.pairs", expected: "text_map" };
  }
  const bad = Object.keys(pairs).find((item) => typeof pairs[item] !== "string");
  return bad === undefined ? null : { field: `answer.pairs.${bad}`, expected: "text" };
}

// Every page that loads this module grades its questions with it (grading.js).
register(thisType);
