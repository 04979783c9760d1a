// The saved-progress store against broken, full, shared and hostile storage: run by `node --test`
// (tests/browser/test_browser_storage.py runs it under pytest).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { describe, test } from "node:test";
import { grade } from "../../plugins/zadachnik/runtime/assets/js/grading.js";
import { gradeField } from "../../plugins/zadachnik/runtime/assets/js/numbers.js";
import {
  ImportRefused, QUARANTINE_PREFIX, STATUSES, Store, entryKey,
} from "../../plugins/zadachnik/runtime/assets/js/storage.js";
import { answerProblem as choiceProblem } from "../../plugins/zadachnik/runtime/assets/js/types/choice.js";
import { answerProblem as codeProblem } from "../../plugins/zadachnik/runtime/assets/js/types/code.js";
import { answerProblem as matchingProblem } from "../../plugins/zadachnik/runtime/assets/js/types/matching.js";
import { answerProblem as numericProblem } from "../../plugins/zadachnik/runtime/assets/js/types/numeric.js";

// Every question type's module, each registering with the grader as a page's scripts do.
const TYPES = new URL("../../plugins/zadachnik/runtime/assets/js/types/", import.meta.url);
for (const name of readdirSync(TYPES)) await import(new URL(name, TYPES));

// localStorage as browsers behave: a quota in characters, and optional failures of reads or writes.
class FakeStorage {
  constructor(items = {}, { quota = Infinity, readsFail = false, getItemFails = false, writesFail = false } = {}) {
    this.items = new Map(Object.entries(items));
    this.quota = quota;
    this.readsFail = readsFail;
    this.getItemFails = getItemFails;
    this.writesFail = writesFail;
  }

  used() {
    let size = 0;
    for (const [key, value] of this.items) size += key.length + value.length;
    return size;
  }

  get length() {
    if (this.readsFail) throw new DOMException("denied", "SecurityError");
    return this.items.size;
  }

  key(index) {
    if (this.readsFail) throw new DOMException("denied", "SecurityError");
    return [...this.items.keys()][index] ?? null;
  }

  getItem(key) {
    if (this.readsFail || this.getItemFails) throw new DOMException("denied", "SecurityError");
    return this.items.has(key) ? this.items.get(key) : null;
  }

  setItem(key, value) {
    const text = String(value);
    const old = this.items.has(key) ? key.length + this.items.get(key).length : 0;
    if (this.writesFail || this.used() - old + key.length + text.length > this.quota) {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    }
    this.items.set(key, text);
  }

  removeItem(key) {
    if (this.readsFail) throw new DOMException("denied", "SecurityError");
    this.items.delete(key);
  }
}

const KEY = (id) => entryKey("demo", "1", id);
const saved = (fields) => JSON.stringify({ v: 1, t: 1000, ...fields });
const CHOICE_SPEC = { type: "single", correct: ["B"] };

function storeOn(storage) {
  const store = new Store(() => storage);
  store.seen = [];
  store.onProblem((problem) => store.seen.push(problem));
  return store;
}

describe("reading never depends on room to write", () => {
  test("a full storage still shows every saved entry", () => {
    const items = {};
    for (const id of ["Q1", "Q2", "Q3", "Q4", "Q5", "Q6"]) items[KEY(id)] = saved({ notes: id });
    const storage = new FakeStorage(items, { writesFail: true });
    const store = storeOn(storage);
    for (const id of ["Q1", "Q2", "Q3", "Q4", "Q5", "Q6"]) assert.equal(store.get(KEY(id)).notes, id);
    assert.deepEqual(store.seen, [], "nothing is wrong until a write fails");
  });

  test("a failed write is said once, kept in memory and exported with everything stored", () => {
    const storage = new FakeStorage({ [KEY("Q1")]: saved({ notes: "old" }) }, { writesFail: true });
    const store = storeOn(storage);
    store.update(KEY("Q2"), { notes: "new" });
    store.update(KEY("Q2"), { notes: "newer" });
    store.update(KEY("Q1"), { reveals: { explanation: true } });
    assert.deepEqual(store.seen, ["unavailable"]);
    assert.equal(store.get(KEY("Q2")).notes, "newer");
    assert.deepEqual(store.get(KEY("Q1")), { ...store.get(KEY("Q1")), notes: "old", reveals: { explanation: true } });
    const entries = store.exportAll().entries;
    assert.deepEqual(Object.keys(entries), [KEY("Q1"), KEY("Q2")]);
    assert.equal(entries[KEY("Q2")].notes, "newer");
    assert.equal(entries[KEY("Q1")].notes, "old");
  });

  test("a write that succeeds later replaces the memory copy", () => {
    const storage = new FakeStorage({}, { writesFail: true });
    const store = storeOn(storage);
    store.update(KEY("Q1"), { notes: "a" });
    storage.writesFail = false;
    store.update(KEY("Q1"), { notes: "b" });
    assert.equal(JSON.parse(storage.getItem(KEY("Q1"))).notes, "b");
  });
});

describe("broken storage", () => {
  test("localStorage that throws on access: memory only, said once", () => {
    const broken = new Store(() => { throw new DOMException("denied", "SecurityError"); });
    const seen = [];
    broken.onProblem((problem) => seen.push(problem));
    broken.update(KEY("Q1"), { notes: "kept" });
    assert.equal(broken.get(KEY("Q1")).notes, "kept");
    assert.deepEqual(seen, ["unavailable"]);
    assert.deepEqual(Object.keys(broken.exportAll().entries), [KEY("Q1")]);
  });

  test("getItem that throws: nothing read, answers kept in memory, export works", () => {
    const storage = new FakeStorage({ [KEY("Q1")]: saved({ notes: "x" }) }, { readsFail: true });
    const store = storeOn(storage);
    assert.equal(store.get(KEY("Q1")), null);
    store.update(KEY("Q2"), { notes: "typed" });
    assert.equal(store.get(KEY("Q2")).notes, "typed");
    assert.ok(store.seen.includes("unavailable"));
    assert.ok(KEY("Q2") in store.exportAll().entries);
    store.removeAll([KEY("Q2")]);
    assert.equal(store.get(KEY("Q2")), null);
  });

  test("only getItem throws (writes work): what this session wrote is still shown and exported", () => {
    const storage = new FakeStorage({ [KEY("Q1")]: saved({ notes: "unreadable" }) }, { getItemFails: true });
    const store = storeOn(storage);
    assert.equal(store.get(KEY("Q1")), null);
    store.update(KEY("Q2"), { notes: "typed" });
    store.update(KEY("Q2"), { reveals: { explanation: true } });
    assert.deepEqual(store.seen, ["unavailable"]);
    assert.equal(store.get(KEY("Q2")).notes, "typed");
    const entries = store.exportAll().entries;
    assert.deepEqual(Object.keys(entries), [KEY("Q2")]);
    assert.deepEqual(entries[KEY("Q2")].reveals, { explanation: true });
  });

  test("setItem that throws QuotaExceededError: every answer still readable", () => {
    const storage = new FakeStorage({ [KEY("Q1")]: saved({ notes: "a" }) }, { quota: 60 });
    const store = storeOn(storage);
    store.update(KEY("Q2"), { notes: "b".repeat(100) });
    assert.equal(store.get(KEY("Q1")).notes, "a");
    assert.equal(store.get(KEY("Q2")).notes.length, 100);
    assert.deepEqual(store.seen, ["unavailable"]);
  });
});

describe("work that neither storage nor a progress file holds (leaving asks first)", () => {
  test("an unsaved answer is unfiled until an export of it is filed, and a later change is again", () => {
    const store = storeOn(new FakeStorage({}, { writesFail: true }));
    assert.equal(store.unfiled(), false);
    store.update(KEY("Q1"), { notes: "typed" });
    assert.equal(store.unfiled(), true);
    const exported = store.exportAll();
    assert.equal(store.unfiled(), true, "reading an export files nothing: the file may never be written");
    store.file(exported);
    assert.equal(store.unfiled(), false);
    store.update(KEY("Q1"), { notes: "typed more" });
    assert.equal(store.unfiled(), true);
  });

  test("an exam's start is no work: losing it gives the learner back their time", () => {
    const store = storeOn(new FakeStorage({}, { writesFail: true }));
    store.update(KEY("@exam"), { started: 5 });
    assert.equal(store.unfiled(), false);
  });

  test("a variant drawn for the learner (dated 0) is no work", () => {
    const store = storeOn(new FakeStorage({}, { writesFail: true }));
    store.update(KEY("P1"), { variant: 2 }, 0);
    assert.equal(store.unfiled(), false);
  });

  test("what an import could not store is in the learner's file", () => {
    const store = storeOn(new FakeStorage({}, { writesFail: true }));
    const counts = store.importAll({ format: "zadachnik-progress", schema: 1,
      entries: { [KEY("Q1")]: { v: 1, t: 5, notes: "from the file" } } });
    assert.equal(counts.unsaved, true);
    assert.equal(store.get(KEY("Q1")).notes, "from the file");
    assert.equal(store.unfiled(), false);
  });

  test("an answer storage kept is no unsaved work", () => {
    const store = storeOn(new FakeStorage());
    store.update(KEY("Q1"), { notes: "kept" });
    assert.equal(store.unfiled(), false);
  });
});

describe("malformed entries are set aside, the rest kept", () => {
  const cases = {
    "not JSON": "{not json",
    "JSON but not an object": "[1, 2]",
    "a verdict without a status": saved({ verdict: {} }),
    "a verdict whose status is a number": saved({ verdict: { status: 3 } }),
    "missing items that are not a list": saved({ verdict: { status: "unanswered", missing: "2" } }),
    "notes that are not text": saved({ notes: 5 }),
    "reveals that are a string": saved({ reveals: "solution" }),
    "a reveal that is not true or false": saved({ reveals: { solution: "yes" } }),
    "an answer that is a list": saved({ answer: ["B"] }),
    "a time that is text": saved({ t: "yesterday" }),
    "tests that are not objects": saved({ verdict: { status: "wrong", tests: ["x"] } }),
    // Shown as "Partly correct: NaN%" and "— undefined" when they were taken.
    "a partial verdict without its score": saved({ verdict: { status: "partial" } }),
    "a test's error that says nothing": saved({ verdict: { status: "wrong", tests: [{ passed: false, error: {} }] } }),
    "a verdict's error that says nothing": saved({ verdict: { status: "unreadable", error: { lines: [2] } } }),
  };
  for (const [name, text] of Object.entries(cases)) {
    test(name, () => {
      const storage = new FakeStorage({ [KEY("Q1")]: text, [KEY("Q2")]: saved({ notes: "fine" }) });
      const store = storeOn(storage);
      assert.equal(store.get(KEY("Q1")), null);
      assert.equal(store.get(KEY("Q2")).notes, "fine");
      assert.equal(storage.getItem(KEY("Q1")), null, "moved out of the question's way");
      assert.equal(storage.getItem(`${QUARANTINE_PREFIX}demo/1/Q1`), text, "kept as it was");
      assert.deepEqual(store.seen, ["corrupt"]);
      assert.deepEqual(store.exportAll().quarantined, { [`${QUARANTINE_PREFIX}demo/1/Q1`]: text });
      store.update(KEY("Q1"), { notes: "new" });
      assert.equal(store.get(KEY("Q1")).notes, "new");
    });
  }

  test("an answer of the wrong shape for its question's type", () => {
    const storage = new FakeStorage({ [KEY("Q1")]: saved({ answer: { choice: 5 } }) });
    const store = storeOn(storage);
    store.expect(KEY("Q1"), (entry) => choiceProblem(entry.answer, CHOICE_SPEC));
    assert.equal(store.get(KEY("Q1")), null);
    assert.deepEqual(store.seen, ["corrupt"]);
  });

  test("two bad entries are reported once", () => {
    const storage = new FakeStorage({ [KEY("Q1")]: "{", [KEY("Q2")]: "nope" });
    const store = storeOn(storage);
    store.get(KEY("Q1"));
    store.get(KEY("Q2"));
    assert.deepEqual(store.seen, ["corrupt"]);
  });

  test("an older set-aside entry of the same question is not overwritten", () => {
    const storage = new FakeStorage({ [KEY("Q1")]: "second", [`${QUARANTINE_PREFIX}demo/1/Q1`]: "first" });
    const store = storeOn(storage);
    store.get(KEY("Q1"));
    const values = Object.values(store.exportAll().quarantined).sort();
    assert.deepEqual(values, ["first", "second"]);
  });

  test("a bad entry that cannot be moved (storage full) is left in place and still exported", () => {
    const storage = new FakeStorage({ [KEY("Q1")]: "{bad" }, { writesFail: true });
    const store = storeOn(storage);
    assert.equal(store.get(KEY("Q1")), null);
    assert.equal(storage.getItem(KEY("Q1")), "{bad");
    assert.deepEqual(Object.values(store.exportAll().quarantined), ["{bad"]);
  });

  test("huge values: junk is set aside, a long valid draft is kept", () => {
    const junk = "x".repeat(3_000_000);
    const draft = "y".repeat(1_000_000);
    const storage = new FakeStorage({ [KEY("Q1")]: junk, [KEY("Q2")]: saved({ notes: draft }) });
    const store = storeOn(storage);
    assert.equal(store.get(KEY("Q1")), null);
    assert.equal(store.get(KEY("Q2")).notes, draft);
  });
});

describe("keys of other apps under our prefix", () => {
  test("are neither read, exported, moved nor reported", () => {
    const foreign = {
      "zadachnik:settings": "dark",
      "zadachnik:probe": "1",
      "zadachnik:": "{}",
      "zadachnik:a/b": "[]",
      "other-app": "{}",
    };
    const storage = new FakeStorage({ ...foreign, [KEY("Q1")]: saved({ notes: "mine" }) });
    const store = storeOn(storage);
    const exported = store.exportAll();
    assert.deepEqual(Object.keys(exported.entries), [KEY("Q1")]);
    assert.deepEqual(exported.quarantined || {}, {});
    for (const [key, value] of Object.entries(foreign)) assert.equal(storage.getItem(key), value);
    assert.deepEqual(store.seen, []);
  });
});

describe("two tabs on one storage", () => {
  test("each write re-reads, so neither tab loses the other's fields", () => {
    const storage = new FakeStorage();
    const russian = storeOn(storage);
    const english = storeOn(storage);
    russian.update(KEY("Q1"), { answer: { choice: ["A"] }, verdict: null });
    assert.equal(english.get(KEY("Q1")).answer.choice[0], "A");
    english.update(KEY("Q1"), { reveals: { explanation: true } });
    russian.update(KEY("Q1"), { answer: { choice: ["B"] }, verdict: { status: "correct", score: 1 } });
    english.update(KEY("Q1"), { notes: "why" });
    const entry = JSON.parse(storage.getItem(KEY("Q1")));
    assert.deepEqual(entry.answer, { choice: ["B"] });
    assert.equal(entry.verdict.status, "correct");
    assert.deepEqual(entry.reveals, { explanation: true });
    assert.equal(entry.notes, "why");
  });

  test("a copy one tab could not save gives way to the other tab's newer write", () => {
    // The English tab's write failed (storage full for a moment); the Russian tab then saved a checked answer.
    // The English tab kept answering from its stale copy, and its next change wrote it over the Russian one.
    const storage = new FakeStorage();
    const english = storeOn(storage);
    const russian = storeOn(storage);
    storage.writesFail = true;
    english.update(KEY("Q1"), { answer: { choice: ["A"] }, verdict: null }, 1000);
    storage.writesFail = false;
    russian.update(KEY("Q1"), { answer: { choice: ["B"] }, verdict: { status: "correct", score: 1 } }, 2000);
    assert.deepEqual(english.get(KEY("Q1")).answer, { choice: ["B"] });
    assert.equal(english.exportAll().entries[KEY("Q1")].verdict.status, "correct");
    english.update(KEY("Q1"), { reveals: { explanation: true } }, 3000);
    const entry = JSON.parse(storage.getItem(KEY("Q1")));
    assert.deepEqual([entry.answer, entry.verdict.status, entry.reveals], [{ choice: ["B"] }, "correct",
      { explanation: true }]);
  });

  test("reveals merge one by one", () => {
    const storage = new FakeStorage();
    const one = storeOn(storage);
    const two = storeOn(storage);
    one.update(KEY("E1"), { reveals: { solution: true } });
    two.update(KEY("E1"), { reveals: { criteria: true } });
    assert.deepEqual(one.get(KEY("E1")).reveals, { solution: true, criteria: true });
  });
});

describe("import", () => {
  const file = (entries, extra = {}) => ({ format: "zadachnik-progress", schema: 1, entries, ...extra });

  test("refuses a file that is not an export", () => {
    const store = storeOn(new FakeStorage());
    for (const document of [null, [], { hello: "world" }, { format: "zadachnik-progress", entries: [] }]) {
      assert.throws(() => store.importAll(document), (error) => error instanceof ImportRefused
        && error.reason === "not_export");
    }
  });

  test("one bad entry refuses the whole file, naming the entry and the field", () => {
    const storage = new FakeStorage({ [KEY("Q3")]: saved({ notes: "before" }) });
    const store = storeOn(storage);
    store.expect(KEY("Q1"), (entry) => choiceProblem(entry.answer, CHOICE_SPEC));
    const document = file({
      [KEY("Q3")]: { v: 1, t: 5000, notes: "after" },
      [KEY("Q1")]: { v: 1, t: 5000, answer: { choice: 5 } },
    });
    assert.throws(() => store.importAll(document), (error) => error.reason === "entry" && error.key === KEY("Q1")
      && error.field === "answer.choice" && error.expected === "texts");
    assert.equal(store.get(KEY("Q3")).notes, "before", "nothing of the file was applied");
  });

  test("refuses keys that are not entries' and values that are not objects", () => {
    const store = storeOn(new FakeStorage());
    assert.throws(() => store.importAll(file({ "zadachnik:settings": { v: 1 } })),
      (error) => error.reason === "key" && error.key === "zadachnik:settings");
    assert.throws(() => store.importAll(file({ [KEY("Q1")]: "text" })),
      (error) => error.reason === "entry" && error.field === "" && error.expected === "object");
    assert.throws(() => store.importAll(file({ [KEY("Q1")]: { verdict: { status: 1 } } })),
      (error) => error.reason === "entry" && error.field === "verdict.status");
  });

  test("merges: newer entries win, local newer ones are kept", () => {
    const storage = new FakeStorage({ [KEY("Q1")]: saved({ t: 9000, notes: "local" }) });
    const store = storeOn(storage);
    const counts = store.importAll(file({
      [KEY("Q1")]: { v: 1, t: 100, notes: "old" },
      [KEY("Q2")]: { v: 1, t: 100, notes: "imported" },
    }));
    assert.deepEqual(counts, { imported: 1, kept: 1, unsaved: false });
    assert.equal(store.get(KEY("Q1")).notes, "local");
    assert.equal(store.get(KEY("Q2")).notes, "imported");
  });

  test("storage filling up half-way: nothing half-written, the whole file kept in memory", () => {
    const storage = new FakeStorage({ [KEY("Q1")]: saved({ notes: "before" }) }, { quota: 200 });
    const store = storeOn(storage);
    const counts = store.importAll(file({
      [KEY("Q1")]: { v: 1, t: 5000, notes: "short" },
      [KEY("Q2")]: { v: 1, t: 5000, notes: "z".repeat(500) },
    }));
    assert.equal(counts.unsaved, true);
    assert.equal(JSON.parse(storage.getItem(KEY("Q1"))).notes, "before", "rolled back");
    assert.equal(storage.getItem(KEY("Q2")), null);
    assert.equal(store.get(KEY("Q1")).notes, "short");
    assert.equal(store.get(KEY("Q2")).notes.length, 500);
  });

  test("an export's set-aside entries come back set aside", () => {
    const source = storeOn(new FakeStorage({ [KEY("Q1")]: "{bad" }));
    source.get(KEY("Q1"));
    const target = new FakeStorage();
    storeOn(target).importAll(JSON.parse(JSON.stringify(source.exportAll())));
    assert.equal(target.getItem(`${QUARANTINE_PREFIX}demo/1/Q1`), "{bad");
    assert.equal(target.getItem(KEY("Q1")), null);
  });
});

describe("answer shapes by question type", () => {
  test("choice", () => {
    assert.equal(choiceProblem({ choice: ["A", "B"] }, CHOICE_SPEC), null);
    assert.deepEqual(choiceProblem({ choice: 5 }, CHOICE_SPEC), { field: "answer.choice", expected: "texts" });
    assert.deepEqual(choiceProblem({ choice: "B" }, CHOICE_SPEC), { field: "answer.choice", expected: "texts" });
  });

  test("numeric", () => {
    assert.equal(numericProblem({ fields: { x: "1,5" } }, {}), null);
    assert.deepEqual(numericProblem({ fields: "1,5" }, {}), { field: "answer.fields", expected: "text_map" });
    assert.deepEqual(numericProblem({ fields: { x: 1.5 } }, {}), { field: "answer.fields.x", expected: "text" });
  });

  test("matching", () => {
    assert.equal(matchingProblem({ pairs: { 1: "B" } }, {}), null);
    assert.deepEqual(matchingProblem({ pairs: ["B"] }, {}), { field: "answer.pairs", expected: "text_map" });
    assert.deepEqual(matchingProblem({ pairs: { 1: null } }, {}), { field: "answer.pairs.1", expected: "text" });
  });

  test("code", () => {
    assert.equal(codeProblem({ code: "print(1)" }, {}), null);
    assert.deepEqual(codeProblem({ code: ["print(1)"] }, {}), { field: "answer.code", expected: "text" });
  });
});

// Words every JavaScript object inherits: a table of words looked up without an own-property check finds them.
const INHERITED = ["toString", "__proto__", "constructor", "hasOwnProperty", "valueOf", "isPrototypeOf",
  "propertyIsEnumerable"];

describe("statuses", () => {
  const vectors = JSON.parse(readFileSync(new URL("../vectors/cases.json", import.meta.url), "utf-8"));

  // The Python grader gives the same verdicts on these cases (tests/core/test_vectors.py): both keep to the list.
  test("every verdict the graders give on the shared cases is a known one, saved and read back", () => {
    const storage = new FakeStorage();
    const store = storeOn(storage);
    const verdicts = [
      ...vectors.questions.map((expected) => grade(expected.spec, expected.answer)),
      ...vectors.fields.map((expected) => ({ status: "wrong", fields: { x: gradeField(expected.field, "1") } })),
    ];
    const seen = new Set();
    for (const verdict of verdicts) {
      for (const status of [verdict.status, ...Object.values(verdict.fields || {}).map((field) => field.status)]) {
        assert.ok(STATUSES.includes(status), status);
        seen.add(status);
      }
      store.set(KEY("Q1"), { verdict });
      assert.deepEqual(store.get(KEY("Q1")).verdict, JSON.parse(JSON.stringify(verdict)));
    }
    assert.deepEqual([...seen].sort(), [...STATUSES].sort(), "the list holds no status nobody gives");
    assert.deepEqual(store.seen, []);
  });

  for (const word of INHERITED) {
    const entries = {
      question: { verdict: { status: word } },
      field: { verdict: { status: "wrong", fields: { ratio: { status: word } } } },
    };
    for (const [where, entry] of Object.entries(entries)) {
      test(`a ${where}'s status "${word}" is set aside when read and refused when imported`, () => {
        const storage = new FakeStorage({ [KEY("Q1")]: saved(entry), [KEY("Q2")]: saved({ notes: "fine" }) });
        const store = storeOn(storage);
        assert.equal(store.get(KEY("Q1")), null);
        assert.equal(store.get(KEY("Q2")).notes, "fine");
        assert.equal(storage.getItem(`${QUARANTINE_PREFIX}demo/1/Q1`), saved(entry));
        assert.deepEqual(store.seen, ["corrupt"]);
        const field = where === "question" ? "verdict.status" : "verdict.fields.ratio.status";
        assert.throws(() => store.importAll({ format: "zadachnik-progress", entries: { [KEY("Q3")]: entry } }),
          (error) => error.reason === "entry" && error.field === field && error.expected === "status");
        assert.equal(storage.getItem(KEY("Q3")), null);
      });
    }
  }

  // An author may name a field or an item so; the learner's answer is a plain object.
  test("a field or an item named like an inherited property is graded as any other", () => {
    for (const word of INHERITED) {
      const numeric = (id) => grade({ type: "numeric", fields: [{ id, answer: 2 }] }, { fields: {} });
      assert.deepEqual(numeric(word), { ...numeric("x"), fields: { [word]: numeric("x").fields.x } }, word);
      const matching = (id) => grade({ type: "matching", pairs: { [id]: "A" } }, { pairs: {} });
      assert.deepEqual(matching(word), { status: "unanswered", missing: [word] }, word);
      assert.deepEqual(matching("x"), { status: "unanswered", missing: ["x"] });
    }
  });
});
