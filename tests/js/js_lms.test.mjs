// The SCORM bridge's own rules (tests/exports/test_scorm.py runs this file under pytest;
// tests/browser/test_browser_scorm.py runs the bridge against a real SCORM runtime).
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  decodeState, encodeState, outcome, response, sessionTime,
} from "../../plugins/zadachnik/runtime/assets/js/lms.js";
import { generator } from "../../plugins/zadachnik/runtime/assets/js/seed.js";

const state = (notes) => ({ format: "zadachnik-progress", schema: 1, entries: { "zadachnik:c/1/Q5": { notes, v: 1, t: 1 } } });

test("a state that fits goes as JSON and comes back", () => {
  const text = encodeState(state("short"), 4096);
  assert.ok(text.startsWith("zq1:"));
  assert.deepEqual(decodeState(text), state("short"));
});

test("a long state is compressed when that fits, and comes back whole", () => {
  const long = "blue light ".repeat(2000);
  const text = encodeState(state(long), 4096);
  assert.ok(text.startsWith("zq1z:") && text.length <= 4096);
  assert.deepEqual(decodeState(text), state(long));
});

test("a state compressed by the browser's own deflate, as earlier versions wrote it, comes back", async () => {
  const long = "blue light ".repeat(2000);
  const piped = new Blob([JSON.stringify(state(long))]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(piped).arrayBuffer());
  assert.deepEqual(decodeState(`zq1z:${Buffer.from(bytes).toString("base64")}`), state(long));
});

test("a state that does not fit even compressed is refused, not cut", () => {
  const next = generator("noise");
  let noise = "";
  for (let index = 0; index < 12000; index += 1) noise += String.fromCharCode(97 + Math.floor(next() * 26));
  assert.equal(encodeState(state(noise), 4096), null);
  assert.ok((encodeState(state(noise), 64000)).length <= 64000);
});

test("damaged or foreign suspend data brings nothing back", () => {
  for (const text of ["", "zq1:{", "zq1z:!!!", "zq1z:AAAA", "lesson=3|page=2", null, undefined, 42]) {
    assert.equal(decodeState(text), null, String(text));
  }
});

test("session time in each version's form", () => {
  assert.equal(sessionTime(3723500, "scorm2004"), "PT1H2M3.50S");
  assert.equal(sessionTime(3723500, "scorm12"), "0001:02:03.50");
  assert.equal(sessionTime(0, "scorm12"), "0000:00:00.00");
  assert.equal(sessionTime(59999, "scorm12"), "0000:01:00.00");
});

test("responses in the forms each interaction type takes", () => {
  assert.deepEqual(response({ choice: ["1", "3"] }, null, "scorm12"), { type: "choice", text: "1,3" });
  assert.deepEqual(response({ choice: ["1", "3"] }, null, "scorm2004"), { type: "choice", text: "1[,]3" });
  assert.deepEqual(response({ pairs: { 1: "B", 2: "A" } }, null, "scorm2004"), { type: "matching", text: "1[.]B[,]2[.]A" });
  assert.deepEqual(response({ choice: ["a b"] }, null, "scorm2004"), { type: "choice", text: "a_b" });
  assert.deepEqual(response({ order: ["2", "1", "3"] }, null, "scorm12"), { type: "sequencing", text: "2,1,3" });
  assert.deepEqual(response({ order: ["2", "1"] }, null, "scorm2004"), { type: "sequencing", text: "2[,]1" });
  // A Parsons problem's lines with their depths.
  assert.deepEqual(response({ order: ["2", "1"], indent: [1, 0] }, null, "scorm12"), { type: "sequencing", text: "2@1,1@0" });
  assert.deepEqual(response({ fields: { x: "2,5", y: "3" } }, null, "scorm12"), { type: "fill-in", text: "x=2,5; y=3" });
  assert.deepEqual(response(null, "two\nlines", "scorm2004"), { type: "long-fill-in", text: "two lines" });
  const long = response({ code: "x".repeat(300) }, null, "scorm12").text;
  assert.equal(long.length, 255);
  assert.ok(long.endsWith("…"));
});

test("the result each version is told: scores, then passed or failed once the module is done", () => {
  const told = (result, version) => Object.fromEntries(outcome(result, 0.6, version));
  assert.deepEqual(told({ total: 7, points: 1.5, checked: 2, done: false }, "scorm12"), {
    "cmi.core.score.min": 0, "cmi.core.score.max": 100, "cmi.core.score.raw": 21.43,
    "cmi.core.lesson_status": "incomplete" });
  assert.equal(told({ total: 7, points: 5, checked: 7, done: true }, "scorm12")["cmi.core.lesson_status"], "passed");
  assert.equal(told({ total: 7, points: 4, checked: 7, done: true }, "scorm12")["cmi.core.lesson_status"], "failed");
  assert.deepEqual(told({ total: 7, points: 7, checked: 7, done: true }, "scorm2004"), {
    "cmi.score.min": 0, "cmi.score.max": 7, "cmi.score.raw": 7, "cmi.score.scaled": 1,
    "cmi.completion_status": "completed", "cmi.success_status": "passed", "cmi.progress_measure": 1 });
  assert.equal(told({ total: 7, points: 1, checked: 2, done: false }, "scorm2004")["cmi.success_status"], "unknown");
});

test("a module of open questions only is completed, never failed", () => {
  // Its 0 of 0 was below any pass mark: every learner who answered was reported failed.
  const told = (result, version) => Object.fromEntries(outcome(result, 0.6, version));
  assert.deepEqual(told({ total: 0, points: 0, checked: 0, done: true }, "scorm12"),
    { "cmi.core.lesson_status": "completed" });
  assert.deepEqual(told({ total: 0, points: 0, checked: 0, done: false }, "scorm12"),
    { "cmi.core.lesson_status": "incomplete" });
  assert.deepEqual(told({ total: 0, points: 0, checked: 0, done: true }, "scorm2004"),
    { "cmi.completion_status": "completed", "cmi.success_status": "unknown" });
});
