// The page's grading of ordering questions against the shared cases (tests/vectors/ordering.json), which
// qtypes/ordering.py runs too (tests/core/test_ordering.py runs this file under pytest).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { grade } from "../../plugins/zadachnik/runtime/assets/js/types/ordering.js";

const { cases } = JSON.parse(readFileSync(new URL("../vectors/ordering.json", import.meta.url), "utf-8"));

for (const { name, order, given, scoring, score, status } of cases) {
  test(name, () => {
    const verdict = grade({ order, scoring }, given === null ? {} : { order: given });
    assert.equal(verdict.status, status);
    if (score === null) assert.equal(verdict.score, undefined);
    else assert.ok(Math.abs(verdict.score - score) < 1e-12, `${verdict.score} against ${score}`);
  });
}
