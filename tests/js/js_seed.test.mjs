// The learner's seed and the shuffled order, in Node (tests/reading/test_hints_shuffle.py runs it under pytest):
// the seed survives storage that is broken or full, a bad stored seed is replaced, and every order is a
// permutation that depends only on the seed and the question.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SEED_KEY, learnerSeed } from "../../plugins/zadachnik/runtime/assets/js/seed.js";
import { shuffledOrder } from "../../plugins/zadachnik/runtime/assets/js/shuffle.js";
import { Store } from "../../plugins/zadachnik/runtime/assets/js/storage.js";

class Backend {
  constructor(items = {}, { readsFail = false, writesFail = false } = {}) {
    this.items = new Map(Object.entries(items));
    Object.assign(this, { readsFail, writesFail });
  }
  get length() { return this.items.size; }
  key(index) { return [...this.items.keys()][index] ?? null; }
  getItem(key) {
    if (this.readsFail) throw new Error("SecurityError");
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    if (this.writesFail) throw new Error("QuotaExceededError");
    this.items.set(key, String(value));
  }
  removeItem(key) { this.items.delete(key); }
}

describe("learnerSeed", () => {
  test("a stored seed is the learner's", () => {
    assert.equal(learnerSeed(new Store(() => new Backend({ [SEED_KEY]: "0badc0de" }))), "0badc0de");
  });

  test("a new learner gets a seed, stored", () => {
    const backend = new Backend();
    const seed = learnerSeed(new Store(() => backend));
    assert.match(seed, /^[0-9a-f]{8}$/);
    assert.equal(backend.getItem(SEED_KEY), seed);
  });

  for (const bad of ["", "xyz", "0BADC0DE", "0badc0de0", '{"seed": 1}']) {
    test(`a stored seed of the wrong shape (${JSON.stringify(bad)}) is replaced`, () => {
      const backend = new Backend({ [SEED_KEY]: bad });
      const seed = learnerSeed(new Store(() => backend));
      assert.match(seed, /^[0-9a-f]{8}$/);
      assert.equal(backend.getItem(SEED_KEY), seed);
    });
  }

  test("storage that cannot be written or read keeps one seed for the visit", () => {
    const full = new Store(() => new Backend({}, { writesFail: true }));
    const unreadable = new Store(() => new Backend({}, { readsFail: true }));
    const none = new Store(() => { throw new Error("no storage"); });
    const seed = learnerSeed(full);
    assert.equal(learnerSeed(full), seed);
    assert.equal(learnerSeed(unreadable), seed);
    assert.equal(learnerSeed(none), seed);
  });
});

describe("shuffledOrder", () => {
  const keys = ["A", "B", "C", "D", "E"];

  test("is a permutation of the markers, the same for the same seed and question", () => {
    for (let number = 0; number < 500; number += 1) {
      const seed = number.toString(16).padStart(8, "0");
      const order = shuffledOrder(keys, seed, "c", "1", "Q1");
      assert.deepEqual([...order].sort(), keys);
      assert.deepEqual(shuffledOrder(keys, seed, "c", "1", "Q1"), order);
    }
  });

  test("differs between questions and seeds, and every option comes first for some seed", () => {
    const firsts = new Set();
    const orders = new Set();
    for (let number = 0; number < 200; number += 1) {
      const seed = number.toString(16).padStart(8, "0");
      const order = shuffledOrder(keys, seed, "c", "1", "Q1");
      firsts.add(order[0]);
      orders.add(order.join(""));
    }
    assert.deepEqual([...firsts].sort(), keys);
    assert.ok(orders.size > 60, `${orders.size} orders of 120`);
    const seed = "0badc0de";
    const byQuestion = new Set(["Q1", "Q2", "Q3", "Q4", "Q5"].map((id) => shuffledOrder(keys, seed, "c", "1", id).join("")));
    assert.ok(byQuestion.size > 1);
  });

  test("keeps a one-option question as it is", () => {
    assert.deepEqual(shuffledOrder(["A"], "00000000", "c", "1", "Q1"), ["A"]);
  });
});
