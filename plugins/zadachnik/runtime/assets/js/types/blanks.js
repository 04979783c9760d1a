// A text with blanks: each gap a number (read and graded as a numeric field) or a choice of words (graded by the
// right word's number). The question earns the share of gaps filled right; an empty or unreadable gap asks for
// the answer again, as a numeric field does. Follows qtypes/blanks.py; tests/vectors/blanks.json holds both.
import { register } from "../grading.js";
import * as thisType from "./blanks.js";
import { gradeField } from "../numbers.js";
import { answerProblem, clear, collect, inputs, restore, show } from "./numeric.js";

export const types = ["blanks"];
export { answerProblem, clear, collect, inputs, restore, show };

function gradeGap(field, text, conventions) {
  if (!("options" in field)) return gradeField(field, text, conventions);
  if (!text.trim()) return { status: "unanswered" };
  return { status: text.trim() === String(field.answer) ? "correct" : "wrong" };
}

export function grade(spec, answer, conventions = null) {
  const typed = answer.fields || {};
  const text = (id) => (Object.hasOwn(typed, id) ? String(typed[id] ?? "") : "");
  const fields = Object.fromEntries(spec.fields.map((field) => [field.id, gradeGap(field, text(field.id), conventions)]));
  const statuses = Object.values(fields).map((verdict) => verdict.status);
  if (statuses.includes("unreadable") || statuses.includes("unanswered")) return { status: "unreadable", fields };
  const score = statuses.filter((status) => status === "correct").length / statuses.length;
  return { status: score === 1 ? "correct" : score === 0 ? "wrong" : "partial", score, fields };
}

// Every page that loads this module grades its questions with it (grading.js).
register(thisType);
