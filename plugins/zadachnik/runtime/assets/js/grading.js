// The browser's grader: one module per question type, chosen by the spec the page carries.
import * as blanks from "./types/blanks.js";
import * as choice from "./types/choice.js";
import * as code from "./types/code.js";
import * as formula from "./types/formula.js";
import * as matching from "./types/matching.js";
import * as numeric from "./types/numeric.js";
import * as ordering from "./types/ordering.js";
import * as parsons from "./types/parsons.js";
import { gradeWithPython } from "./pyclient.js";

const MODULES = [choice, numeric, formula, blanks, matching, ordering, parsons, code];
const BY_TYPE = Object.fromEntries(MODULES.flatMap((module) => module.types.map((type) => [type, module])));

// Statuses that count as checked in the progress line.
export const COUNTED = ["correct", "wrong", "partial"];

// A verdict's score from 0 to 1, or null for an answer that was not graded (unanswered, unreadable).
export function scoreOf(verdict) {
  if (!verdict || !COUNTED.includes(verdict.status)) return null;
  const score = typeof verdict.score === "number" && Number.isFinite(verdict.score) ? verdict.score
    : Number(verdict.status === "correct");
  return Math.min(1, Math.max(0, score));
}

// A mixed question is graded, collected and shown by the module of its auto-checked part.
export function gradedSpec(spec) {
  return spec.type === "mixed" ? { ...spec, type: spec.auto } : spec;
}

export function moduleFor(spec) {
  return BY_TYPE[gradedSpec(spec).type];
}

// `conventions`: how the page reads numbers (its runtime strings' "number"); none, no sign is a group sign.
export function grade(spec, answer, conventions = null) {
  return moduleFor(spec).grade(gradedSpec(spec), answer || {}, conventions);
}


// Code exercises, Parsons problems with tests and questions with an author's checker are graded by Python in a
// worker.
export function needsPython(spec) {
  return spec.type === "code" || (spec.type === "parsons" && Array.isArray(spec.tests) && spec.tests.length > 0)
    || Boolean(spec.check);
}

export function gradeAnywhere(spec, answer, lang, conventions = null) {
  if (!needsPython(spec)) return Promise.resolve(grade(spec, answer, conventions));
  if (spec.type !== "code") {
    // As with built-in grading, an answer that is missing or can't be read never reaches the author's
    // checker: the page asks for it at once, without waiting for Python (or when Python is unavailable).
    const builtIn = grade(spec, answer, conventions);
    if (builtIn.status === "unanswered" || builtIn.status === "unreadable") return Promise.resolve(builtIn);
  }
  // A Parsons problem's tests run the program its lines make, as a code exercise's run its code.
  if (spec.type === "parsons") return gradeWithPython(...parsons.asCode(spec, answer), lang);
  // The conventions, for the worker's runner to read fields as the page does (run_checker's `conventions`).
  return gradeWithPython(spec, answer, lang, conventions);
}
