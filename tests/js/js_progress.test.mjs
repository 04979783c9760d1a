// How progress counts a question's saved entry (progress.countedEntry), which the home page, the navigation's
// marks and the SCORM bridge share (tests/browser/test_browser_progress.py runs this file under pytest).
import assert from "node:assert/strict";
import { test } from "node:test";
import { countedEntry, moduleSummary } from "../../plugins/zadachnik/runtime/assets/js/progress.js";

const module = {
  course: "c", module: "1", auto: ["P1", "P2"], questions: ["P1", "P2"], exercises: [],
  revs: { P1: "aaaa", P2: "bbbb" }, variants: { P2: 3 },
};
const storeOf = (entries) => ({
  peek: (key) => entries[key.replace("zadachnik:c/1/", "")] ?? null,
});
const right = (rev) => ({ status: "correct", score: 1, ...(rev ? { rev } : {}) });

test("a verdict given under the key as it is now counts; one given under another is withdrawn", () => {
  assert.deepEqual(countedEntry(storeOf({ P1: { verdict: right("aaaa") } }), module, "P1").verdict, right("aaaa"));
  assert.equal(countedEntry(storeOf({ P1: { answer: {}, verdict: right("zzzz") } }), module, "P1").verdict, null);
  // Saved before keys had revisions: it stands.
  assert.deepEqual(countedEntry(storeOf({ P1: { verdict: right() } }), module, "P1").verdict, right());
  const summary = moduleSummary(storeOf({ P1: { verdict: right("zzzz") }, P2: { verdict: right("bbbb") } }), module);
  assert.equal(summary.checked, 1);
  assert.equal(summary.correct, 1);
});

test("a question with variants counts by its current variant; a pointer past its variants names none", () => {
  const entries = { P2: { variant: 2 }, "P2@2": { verdict: right("bbbb") }, "P2@5": { verdict: right("bbbb") } };
  assert.deepEqual(countedEntry(storeOf(entries), module, "P2").verdict, right("bbbb"));
  // The author cut the question to three variants: the learner's fifth is not the question's any more.
  assert.equal(countedEntry(storeOf({ ...entries, P2: { variant: 5 } }), module, "P2").verdict, null);
  // P1 has no variants (any more): its own entry counts, whatever variant it once named.
  const kept = storeOf({ P1: { variant: 4, verdict: right("aaaa") }, "P1@4": { verdict: { status: "wrong" } } });
  assert.deepEqual(countedEntry(kept, module, "P1").verdict, right("aaaa"));
});

test("an exam's verdicts count only once it is submitted", () => {
  // Verdicts from before the module was an exam, or imported: the page hides them until Submit, and the home
  // page, the navigation and the LMS told which answers were right.
  const exam = { ...module, exam: true };
  const entries = { P1: { verdict: right("aaaa") } };
  assert.equal(countedEntry(storeOf(entries), exam, "P1").verdict, null);
  assert.equal(moduleSummary(storeOf(entries), exam).correct, 0);
  const submitted = { ...entries, "@exam": { started: 1, submitted: 2 } };
  assert.deepEqual(countedEntry(storeOf(submitted), exam, "P1").verdict, right("aaaa"));
  assert.equal(moduleSummary(storeOf(submitted), exam).correct, 1);
});

test("a submitted exam counts the questions it had, not one the author added after", () => {
  const exam = { ...module, exam: true };
  const entries = { P1: { verdict: right("aaaa") }, "@exam": { started: 1, submitted: 2, questions: ["P1"] } };
  const summary = moduleSummary(storeOf(entries), exam);
  assert.deepEqual(summary.auto, ["P1"]);
  assert.equal(summary.checked, 1);
  assert.equal(summary.states.quiz, "done");
  // Submitted before submissions recorded their questions: every question of the module.
  const older = { ...entries, "@exam": { started: 1, submitted: 2 } };
  assert.deepEqual(moduleSummary(storeOf(older), exam).auto, ["P1", "P2"]);
});
