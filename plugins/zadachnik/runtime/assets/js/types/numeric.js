// Numeric answers in labelled fields; each field is read and checked on its own.
import { register } from "../grading.js";
import * as thisType from "./numeric.js";
import { gradeField } from "../numbers.js";

export const types = ["numeric"];

// Each field read as the page reads numbers (`conventions`, its locale's).
export function grade(spec, answer, conventions = null) {
  const typed = answer.fields || {};
  // An author's id may name what every object inherits ("constructor"): only the answer's own fields count.
  const text = (id) => (Object.hasOwn(typed, id) ? String(typed[id] ?? "") : "");
  const fields = Object.fromEntries(spec.fields.map((field) => [field.id,
    gradeField(field, text(field.id), conventions)]));
  const statuses = Object.values(fields).map((verdict) => verdict.status);
  if (statuses.includes("unreadable")) return { status: "unreadable", fields };
  const right = statuses.every((status) => status === "correct");
  return { status: right ? "correct" : "wrong", score: right ? 1 : 0, fields };
}

export function collect(question) {
  const fields = {};
  for (const input of question.querySelectorAll("[data-zq-input]")) fields[input.dataset.zqInput] = input.value;
  return { fields };
}

export function restore(question, answer) {
  const fields = (answer && answer.fields) || {};
  for (const input of question.querySelectorAll("[data-zq-input]")) {
    input.value = Object.hasOwn(fields, input.dataset.zqInput) ? fields[input.dataset.zqInput] : "";
  }
}

export function clear(question) {
  restore(question, null);
}

export function inputs(question) {
  return question.querySelectorAll("[data-zq-input]");
}

// Per field: its verdict next to it, and whether the input reads as a number at all.
export function show(question, verdict, say) {
  for (const field of question.querySelectorAll("[data-zq-field]")) {
    const fields = (verdict && verdict.fields) || {};
    const result = Object.hasOwn(fields, field.dataset.zqField) ? fields[field.dataset.zqField] : null;
    const mark = field.querySelector("[data-zq-mark]");
    field.dataset.zqStatus = result ? result.status : "";
    if (mark) mark.textContent = result ? say.status(result) : "";
  }
}

// What is wrong with a saved answer's shape ({field, expected}), or null: saved answers come from storage and
// imported files, so they are checked before restore() trusts them.
export function answerProblem(answer) {
  const fields = answer && answer.fields;
  if (fields === undefined) return null;
  if (fields === null || typeof fields !== "object" || Array.isArray(fields)) {
    return { field: "answer.fields", expected: "text_map" };
  }
  const bad = Object.keys(fields).find((id) => typeof fields[id] !== "string");
  return bad === undefined ? null : { field: `answer.fields.${bad}`, expected: "text" };
}

// Every page that loads this module grades its questions with it (grading.js).
register(thisType);
