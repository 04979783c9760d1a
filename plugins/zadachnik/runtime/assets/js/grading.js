// The browser's grader: one module per question type (types/*.js), chosen by the spec the page carries. A page
// names the modules of its own questions' types as scripts of its own, and each registers itself here as it runs,
// before the runtime sets the page up (at DOMContentLoaded, which waits for every module script; loadTypes loads
// any a page reached without them needs).
import { gradeWithPython } from "./pyclient.js";

const BY_TYPE = {};

// The modules of the question types a page names (its data-zq-types) that have not run yet: a page reached by
// instant navigation keeps the scripts of the page first opened, and loads its own types here. Each by a path in
// a variable: esbuild, which bundles this module into the runtime's shipped copy, would list the whole types
// folder into it from a path written in the call. (The offline copy runs every type first and never gets here.)
export async function loadTypes(root) {
  const names = (root.dataset.zqTypes || "").split(" ").filter((name) => /^[a-z]+$/.test(name));
  await Promise.all(names.map((name) => {
    const path = `./types/${name}.js`;
    return import(path);
  }));
}

// A type's module, by the spec types it grades (its `types`).
export function register(module) {
  for (const type of module.types) BY_TYPE[type] = module;
}

// Statuses that count as checked in the progress line.
export const COUNTED = ["correct", "wrong", "partial"];

// A saved verdict, or null when it was given under another key than the question's now (`rev`, the build's
// digest of it): an author's correction withdraws it. One saved before keys had revisions stands.
export const standing = (verdict, rev) => (verdict && (!verdict.rev || verdict.rev === rev) ? verdict : null);

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

// The module of a question's type, once it has registered (undefined before).
export function moduleFor(spec) {
  const type = gradedSpec(spec).type;
  return Object.hasOwn(BY_TYPE, type) ? BY_TYPE[type] : undefined;
}

// `conventions`: how the page reads numbers (its runtime strings' "number"); none, no sign is a group sign.
export function grade(spec, answer, conventions = null) {
  return moduleFor(spec).grade(gradedSpec(spec), answer || {}, conventions);
}


// Graded by Python in a worker (code exercises, Parsons problems with tests, questions with an author's checker):
// the build says so in the spec (Question.python), read before any type's module has loaded.
export function needsPython(spec) {
  return spec.python === true;
}

export function gradeAnywhere(spec, answer, lang, conventions = null) {
  if (!needsPython(spec)) return Promise.resolve(grade(spec, answer, conventions));
  if (spec.type !== "code") {
    // As with built-in grading, an answer that is missing or can't be read never reaches the author's
    // checker: the page asks for it at once, without waiting for Python (or when Python is unavailable).
    const builtIn = grade(spec, answer, conventions);
    if (builtIn.status === "unanswered" || builtIn.status === "unreadable") return Promise.resolve(builtIn);
  }
  // A type whose tests run a program the answer makes (a Parsons problem's lines), as a code exercise's run its code.
  const { asCode } = moduleFor(spec);
  if (asCode) return gradeWithPython(...asCode(spec, answer), lang);
  // The conventions, for the worker's runner to read fields as the page does (run_checker's `conventions`).
  return gradeWithPython(spec, answer, lang, conventions);
}
