// Parsons problems: the lines of a program in an order of the learner's own (from their seed, the same in every
// language), each moved one place at a time by its ↑ and ↓ buttons and, when the problem asks for indentation,
// indented one level at a time by ← and →; lines that belong nowhere are set aside with ✕ and brought back with +.
// Buttons only, so keyboards, touch screens and screen readers all work, each change said in the live region.
// The saved answer is {order: the placed lines' keys, indent: their depths}. Grading follows qtypes/parsons.py:
// by order and depth with ordering's own score (the cases both run are in tests/vectors/parsons.json), or, for a
// problem with tests, by running the program the lines make against them (grading.js hands it to Python).
import { register } from "../grading.js";
import * as thisType from "./parsons.js";
import { learnerSeed, shuffledOrder } from "../seed.js";
import { show as showTests } from "./code.js";
import { orderScore } from "./ordering.js";
import { adopt } from "../look.js";

export const types = ["parsons"];

// Each line of code a row with its moves, indented by a step per level with a guide line for each, so its depth
// reads at a glance (and in words, for screen readers only); a long line wraps rather than scrolls (a region
// that scrolls would need to take the focus), and on a narrow screen the moves go under it rather than squeeze
// it into a column a few words wide. A line set aside shows only +, a placed one everything but +.
adopt(`.zq-parsons__line {
  direction: ltr; display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin: .2em 0;
  background: repeating-linear-gradient(to right, var(--md-default-fg-color--lighter) 0 1px, transparent 1px 2em)
    no-repeat left / calc(var(--zq-depth, 0) * 2em) 100%;
}
.md-typeset .zq-parsons__code {
  flex: 1 1 16em; min-width: 0; white-space: pre-wrap; overflow-wrap: anywhere;
  margin-inline-start: calc(var(--zq-depth, 0) * 2em);
}
.zq-parsons .zq-parsons__unused :is([data-zq-move="up"], [data-zq-move="down"], [data-zq-move="left"],
  [data-zq-move="right"], [data-zq-move="out"]),
.zq-parsons .zq-parsons__lines [data-zq-move="in"] { display: none; }
.zq-parsons__unused-label { margin: .6em 0 0; }
.md-typeset .zq-parsons__unused {
  list-style: none; margin: .2em 0; padding: .2em .5em; min-height: 2.4em;
  border: 1px dashed var(--md-default-fg-color--lighter); border-radius: .2rem;
}`);

const isDepth = (value) => typeof value === "number" && Number.isInteger(value);

// The placed lines with the depth each counts at (the learner's when indentation is asked, else its own), or
// null for an answer that is not an arrangement of the problem's lines.
export function arrangement(spec, answer) {
  const order = answer && answer.order;
  if (!Array.isArray(order) || !order.every((key) => typeof key === "string" && Object.hasOwn(spec.lines, key))
    || new Set(order).size !== order.length) return null;
  if (!spec.indent) return order.map((key) => [key, spec.depth[key]]);
  const depths = answer.indent;
  if (!Array.isArray(depths) || depths.length !== order.length
    || !depths.every((depth) => isDepth(depth) && depth >= 0 && depth <= spec.max_depth)) return null;
  return order.map((key, index) => [key, depths[index]]);
}

// The program the arrangement makes, indented as the author indents.
export function program(spec, placed) {
  return `${placed.map(([key, depth]) => spec.unit.repeat(depth) + spec.lines[key]).join("\n")}\n`;
}

// By order and depth: a line at another depth than its own, or one that belongs nowhere, is no line of the right
// order for ordering's score.
export function grade(spec, answer) {
  const placed = arrangement(spec, answer);
  if (!placed || !placed.length) return { status: "unanswered" };
  const given = placed.map(([key, depth]) => (depth === spec.depth[key] ? key : `${key}@${depth}`));
  const score = orderScore(spec.order, given, spec.scoring);
  return { status: score === 1 ? "correct" : score > 0 ? "partial" : "wrong", score };
}

// A problem with tests is graded as a code exercise whose code is the program the learner's lines make.
export function asCode(spec, answer) {
  const placed = arrangement(spec, answer) || [];
  return [{ type: "code", tests: spec.tests, time_limit: spec.time_limit }, { code: program(spec, placed) }];
}

const programOf = (question) => question.querySelector("[data-zq-parsons-program]");
const unusedOf = (question) => question.querySelector("[data-zq-parsons-unused]");
const linesIn = (list) => (list ? [...list.querySelectorAll(":scope > [data-zq-line]")] : []);
const allLines = (question) => [...question.querySelectorAll("[data-zq-line]")];
const fieldset = (question) => question.querySelector("[data-zq-parsons]");
const depthOf = (line) => Number(line.dataset.zqDepth) || 0;

export function collect(question) {
  const placed = linesIn(programOf(question));
  return { order: placed.map((line) => line.dataset.zqLine), indent: placed.map(depthOf) };
}

function setDepth(question, line, depth) {
  line.dataset.zqDepth = String(depth);
  line.style.setProperty("--zq-depth", String(depth));
  const level = line.querySelector("[data-zq-level]");
  if (level && question.zqSay) level.textContent = question.zqSay("parsons_level", { level: depth });
}

// The lines placed as `answer` says (their depths too, when the problem asks for them); the others set aside, or,
// in a problem without lines to set aside, after the placed ones.
function arrange(question, answer) {
  const set = fieldset(question);
  const indent = "zqIndent" in set.dataset;
  const max = Number(set.dataset.zqMaxDepth) || 0;
  const byKey = new Map(allLines(question).map((line) => [line.dataset.zqLine, line]));
  const program = programOf(question);
  const unused = unusedOf(question);
  const placed = new Set();
  (answer.order || []).forEach((key, index) => {
    const line = byKey.get(key);
    if (!line || placed.has(key)) return;
    placed.add(key);
    program.append(line);
    if (indent) {
      const depth = Array.isArray(answer.indent) ? answer.indent[index] : 0;
      setDepth(question, line, isDepth(depth) ? Math.min(Math.max(depth, 0), max) : 0);
    }
  });
  const rest = (question.zqInitial || [...byKey.keys()]).filter((key) => !placed.has(key) && byKey.has(key));
  for (const key of rest) {
    const line = byKey.get(key);
    (unused || program).append(line);
    if (indent) setDepth(question, line, 0);
  }
  updateButtons(question);
}

function updateButtons(question) {
  const frozen = Boolean(question.zqFrozen);
  const max = Number(fieldset(question).dataset.zqMaxDepth) || 0;
  const placed = linesIn(programOf(question));
  placed.forEach((line, index) => {
    const depth = depthOf(line);
    const states = { up: index === 0, down: index === placed.length - 1, left: depth <= 0, right: depth >= max };
    for (const [move, off] of Object.entries(states)) {
      const button = line.querySelector(`[data-zq-move='${move}']`);
      if (button) button.disabled = off || frozen;
    }
  });
  for (const button of question.querySelectorAll("[data-zq-move='out'], [data-zq-move='in']")) button.disabled = frozen;
}

// The learner's first arrangement: every line placed, in an order of their own that is never the right one, and
// (when indentation is asked) none indented.
function initialOrder(question, page) {
  const keys = allLines(question).map((line) => line.dataset.zqLine);
  const order = shuffledOrder(keys, learnerSeed(page.store), page.course, page.module, question.dataset.zqQuestion);
  const same = order.every((key, index) => key === keys[index]);
  return same ? [...order.slice(1), order[0]] : order;
}

const initialAnswer = (question) => ({ order: question.zqInitial, indent: question.zqInitial.map(() => 0) });

export function restore(question, answer) {
  const saved = answer && Array.isArray(answer.order) ? answer : null;
  arrange(question, saved || (question.zqInitial ? initialAnswer(question) : collect(question)));
}

export function clear(question) {
  restore(question, null);
}

// The buttons: an exam freezes them with the other inputs (exam.js).
export function inputs(question) {
  return question.querySelectorAll("[data-zq-move]");
}

const textOf = (line) => line.querySelector(".zq-parsons__code").textContent.trim();

// What one press did, in words for the live region; null when it did nothing.
function move(question, line, direction) {
  const program = programOf(question);
  const max = Number(fieldset(question).dataset.zqMaxDepth) || 0;
  const placedNow = () => linesIn(program);
  const position = () => ({ position: placedNow().indexOf(line) + 1, count: placedNow().length });
  if (direction === "up" || direction === "down") {
    const neighbour = direction === "up" ? line.previousElementSibling : line.nextElementSibling;
    if (!neighbour) return null;
    if (direction === "up") neighbour.before(line);
    else neighbour.after(line);
    return ["ordering_moved", { item: textOf(line), ...position() }];
  }
  if (direction === "left" || direction === "right") {
    const depth = Math.min(Math.max(depthOf(line) + (direction === "right" ? 1 : -1), 0), max);
    if (depth === depthOf(line)) return null;
    setDepth(question, line, depth);
    return ["parsons_indented", { line: textOf(line), level: depth }];
  }
  if (direction === "out") {
    unusedOf(question).append(line);
    if ("zqIndent" in fieldset(question).dataset) setDepth(question, line, 0);
    return ["parsons_left_out", { line: textOf(line) }];
  }
  program.append(line);
  return ["parsons_put_back", { line: textOf(line), ...position() }];
}

// Where the focus goes after a press, the first of these buttons of the line that is shown and can act: the same
// one while it still can, else its counterpart; a line set aside keeps it on + (to bring it back), one brought
// back (at the end) on ↑.
const FOCUS_NEXT = { up: ["up", "down"], down: ["down", "up"], left: ["left", "right"], right: ["right", "left"],
  out: ["in"], in: ["up", "out"] };

export function setup(question, spec, page, changed) {
  question.zqSay = page.say;
  question.zqInitial = initialOrder(question, page);
  const saved = (page.store.get(page.key(question.dataset.zqQuestion)) || {}).answer;
  arrange(question, saved && Array.isArray(saved.order) ? saved : initialAnswer(question));
  // Each line's depth in words for screen readers, now that the page's words are known here.
  for (const line of allLines(question)) setDepth(question, line, depthOf(line));
  question.addEventListener("click", (event) => {
    const button = event.target.closest("[data-zq-move]");
    if (!button || button.disabled || !button.closest("[data-zq-parsons]")) return;
    const line = button.closest("[data-zq-line]");
    const direction = button.dataset.zqMove;
    const said = move(question, line, direction);
    if (!said) return;
    updateButtons(question);
    const usable = (element) => element && element.getClientRects().length > 0 && !element.disabled;
    const next = FOCUS_NEXT[direction].map((name) => line.querySelector(`[data-zq-move='${name}']`)).find(usable);
    if (next) next.focus();
    if (page.live) page.live.textContent = page.say(...said);
    changed();
    // As any other answer's change does (an exam's time starts with it).
    question.dispatchEvent(new Event("change", { bubbles: true }));
  });
  fieldset(question).dataset.zqReady = "";
  // The verdict was shown before the right arrangement was known here.
  show(question, page.verdicts.get(question.dataset.zqQuestion), page.say, spec);
}

// Graded by order: each placed line marked in its right place (and depth) or not, in words next to it, and each
// line set aside left unmarked. Graded by tests: the tests' lines, as a code exercise shows them.
export function show(question, verdict, say, spec) {
  const graded = verdict && ["correct", "wrong", "partial"].includes(verdict.status);
  const byOrder = graded && spec && !spec.tests;
  const placed = linesIn(programOf(question));
  for (const line of allLines(question)) {
    const index = placed.indexOf(line);
    const key = line.dataset.zqLine;
    const right = index >= 0 && spec && spec.order[index] === key && (!spec.indent || depthOf(line) === spec.depth[key]);
    const status = !byOrder || index < 0 ? "" : right ? "correct" : "wrong";
    line.dataset.zqStatus = status;
    const mark = line.querySelector("[data-zq-mark]");
    if (mark) mark.textContent = status ? say.status({ status }) : "";
  }
  if (question.querySelector("[data-zq-tests]")) showTests(question, verdict, say, spec);
}

export function answerProblem(answer) {
  const order = answer && answer.order;
  if (order === undefined) return null;
  if (!Array.isArray(order) || !order.every((key) => typeof key === "string")) {
    return { field: "answer.order", expected: "texts" };
  }
  const indent = answer.indent;
  return indent === undefined || (Array.isArray(indent) && indent.every(isDepth)) ? null
    : { field: "answer.indent", expected: "list" };
}

// Every page that loads this module grades its questions with it (grading.js).
register(thisType);
