// The page's formula reader and grader against the shared cases (tests/vectors/formula.json), which
// core/formula.py runs too (tests/core/test_formula.py runs this file under pytest).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { FormulaError, evaluate, gradeFormula, read, written } from "../../plugins/zadachnik/runtime/assets/js/formula.js";

const vectors = JSON.parse(readFileSync(new URL("../vectors/formula.json", import.meta.url), "utf-8"));

for (const { name, text, decimal, read: reading, value, error, detail } of vectors.readings) {
  test(`reading: ${name}`, () => {
    if (error) {
      assert.throws(() => read(text, vectors.names, decimal),
        (thrown) => thrown instanceof FormulaError && thrown.kind === error && thrown.detail === detail);
      return;
    }
    const tree = read(text, vectors.names, decimal);
    assert.equal(written(tree), reading);
    const got = evaluate(tree, vectors.point);
    if (value === null) assert.ok(Number.isNaN(got), `${got} should be undefined`);
    else assert.ok(Math.abs(got - value) <= 1e-12 * Math.max(1, Math.abs(value)), `${got} against ${value}`);
  });
}

for (const { name, spec, text, decimal, status } of vectors.grades) {
  test(`grading: ${name}`, () => {
    assert.equal(gradeFormula(spec, text, decimal).status, status);
  });
}
