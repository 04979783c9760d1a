// Single and multiple choice: radio buttons or checkboxes named by their markers.
import { register } from "../grading.js";
import * as thisType from "./choice.js";

export const types = ["single", "multiple"];

export function grade(spec, answer) {
  const chosen = [...new Set(answer.choice || [])];
  if (!chosen.length) return { status: "unanswered" };
  const correct = new Set(spec.correct);
  let score;
  if (spec.type === "single") {
    score = chosen.length === 1 && chosen[0] === spec.correct[0] ? 1 : 0;
  } else if (spec.scoring === "net-correct") {
    // PrairieLearn's net-correct: right picks minus wrong picks, over the number of right options.
    const right = chosen.filter((marker) => correct.has(marker)).length;
    score = Math.max(0, (right - (chosen.length - right)) / correct.size);
  } else {
    score = chosen.length === correct.size && chosen.every((marker) => correct.has(marker)) ? 1 : 0;
  }
  return { status: score === 1 ? "correct" : score === 0 ? "wrong" : "partial", score };
}

export function collect(question) {
  return { choice: [...question.querySelectorAll("[data-zq-option]:checked")].map((input) => input.value) };
}

export function restore(question, answer) {
  const chosen = new Set((answer && answer.choice) || []);
  for (const input of question.querySelectorAll("[data-zq-option]")) input.checked = chosen.has(input.value);
}

export function clear(question) {
  restore(question, null);
}

export function inputs(question) {
  return question.querySelectorAll("[data-zq-option]");
}

// What is wrong with a saved answer's shape ({field, expected}), or null: saved answers come from storage and
// imported files, so they are checked before restore() trusts them.
export function answerProblem(answer) {
  const choice = answer && answer.choice;
  const markers = Array.isArray(choice) && choice.every((marker) => typeof marker === "string");
  return choice === undefined || markers ? null : { field: "answer.choice", expected: "texts" };
}

// Every page that loads this module grades its questions with it (grading.js).
register(thisType);
