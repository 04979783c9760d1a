// The page's grading of Parsons problems by order and depth against the shared cases (tests/vectors/parsons.json),
// which qtypes/parsons.py runs too (tests/core/test_parsons.py runs this file under pytest); and the program a
// problem with tests hands to Python.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { asCode, grade } from "../../plugins/zadachnik/runtime/assets/js/types/parsons.js";

const { specs, cases } = JSON.parse(readFileSync(new URL("../vectors/parsons.json", import.meta.url), "utf-8"));

for (const { name, spec, scoring, answer, score, status } of cases) {
  test(name, () => {
    const verdict = grade({ ...specs[spec], ...(scoring ? { scoring } : {}) }, answer === null ? {} : answer);
    assert.equal(verdict.status, status);
    if (score === null) assert.equal(verdict.score, undefined);
    else assert.ok(Math.abs(verdict.score - score) < 1e-12, `${verdict.score} against ${score}`);
  });
}

test("a problem with tests hands Python the program its lines make, indented as the author indents", () => {
  const spec = { ...specs.A, unit: "  ", tests: [{ test: "total([1, 2]) == 3" }], time_limit: 2 };
  const [codeSpec, answer] = asCode(spec, { order: ["1", "2", "3", "4", "5"], indent: [0, 1, 1, 2, 1] });
  assert.deepEqual(codeSpec, { type: "code", tests: spec.tests, time_limit: 2 });
  assert.equal(answer.code, "def total(xs):\n  s = 0\n  for x in xs:\n    s += x\n  return s\n");
});
