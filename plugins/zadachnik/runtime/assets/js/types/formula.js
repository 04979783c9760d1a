// Formula answers: one expression in the question's variables, graded by its values at the spec's points
// (../formula.js, which follows core/formula.py). As the learner types, the line under the field says how the
// expression was read ("Read as 2·n·(d+1)") or what keeps it from being read, so "1/2n" shows as (1/2)·n before
// it is checked, not after.
import { register } from "../grading.js";
import * as thisType from "./formula.js";
import { FormulaError, gradeFormula, read, written } from "../formula.js";

export const types = ["formula"];
// The kinds of error that have words of their own (formula_<kind>); any other (from storage) is said generally.
const KINDS = ["empty", "too_long", "too_deep", "unexpected", "end", "paren", "unknown_name", "function_paren", "comma"];

const decimalOf = (conventions) => (conventions && conventions.decimal === "," ? "," : ".");
const inputOf = (question) => question.querySelector("[data-zq-input='expression']");
const typedOf = (answer) => (answer && typeof answer.expression === "string" ? answer.expression : "");

export function grade(spec, answer, conventions = null) {
  return gradeFormula(spec, typedOf(answer), decimalOf(conventions));
}

// An answer is saved with decimal points, as every page reads it, and shown with the field's own decimal sign: a
// page that writes a comma reads a point too, while a comma means nothing where a point is the sign.
const comma = (question) => inputOf(question).dataset.zqDecimal == ",";

export function collect(question) {
  const typed = inputOf(question).value;
  return { expression: comma(question) ? typed.replace(/(\d),(?=\d)/g, "$1.") : typed };
}

export function restore(question, answer) {
  const input = inputOf(question);
  input.value = comma(question) ? typedOf(answer).replace(/(\d)\.(?=\d)/g, "$1,") : typedOf(answer);
  // Restoring (a reload, another tab, an import) changes the field without an input event.
  if (question.zqPreview) question.zqPreview();
}

export function clear(question) {
  restore(question, null);
}

export function inputs(question) {
  return question.querySelectorAll("[data-zq-input='expression']");
}

// What the line under the field says of `text`: its reading, or why there is none.
export function reading(spec, text, say) {
  if (!text.trim()) return "";
  const decimal = decimalOf(say.conventions);
  try {
    const shown = written(read(text, spec.variables, decimal)).replaceAll("*", "·");
    return say("formula_read_as", { formula: decimal === "," ? shown.replaceAll(".", ",") : shown });
  } catch (error) {
    if (!(error instanceof FormulaError)) throw error;
    return problem(error.kind, error.detail, spec, say);
  }
}

function problem(kind, detail, spec, say) {
  const known = KINDS.includes(kind) ? kind : "unexpected";
  const word = known === "comma" && say.conventions && say.conventions.decimal === "," ? "formula_comma_decimal"
    : `formula_${known}`;
  return say(word, { detail: typeof detail === "string" ? detail.slice(0, 32) : "", names: spec.variables.join(", ") });
}

export function setup(question, spec, page) {
  const input = inputOf(question);
  const line = question.querySelector("[data-zq-formula-preview]");
  question.zqPreview = () => {
    line.textContent = reading(spec, input.value, page.say);
  };
  input.addEventListener("input", question.zqPreview);
  question.zqPreview();
}

// A verdict's mark next to the field; an unreadable one (perhaps from storage) says why, as the preview does.
export function show(question, verdict, say) {
  const mark = question.querySelector(".zq-formula [data-zq-mark]");
  if (mark) mark.textContent = verdict ? say.status(verdict) : "";
}

export function answerProblem(answer) {
  const expression = answer && answer.expression;
  return expression === undefined || typeof expression === "string" ? null
    : { field: "answer.expression", expected: "text" };
}

// Every page that loads this module grades its questions with it (grading.js).
register(thisType);
