// The page's grading of questions with blanks against the shared cases (tests/vectors/blanks.json), which
// qtypes/blanks.py runs too (tests/core/test_blanks.py runs this file under pytest).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { grade } from "../../plugins/zadachnik/runtime/assets/js/types/blanks.js";

const read = (name) => JSON.parse(readFileSync(new URL(`../vectors/${name}`, import.meta.url), "utf-8"));
const { spec, cases } = read("blanks.json");
const { conventions } = read("cases.json");

for (const { name, lang, fields, status, score, gaps } of cases) {
  test(name, () => {
    const verdict = grade(spec, { fields }, conventions[lang]);
    assert.equal(verdict.status, status);
    if (score === null) assert.equal(verdict.score, undefined);
    else assert.ok(Math.abs(verdict.score - score) < 1e-12, `${verdict.score} against ${score}`);
    assert.deepEqual(Object.fromEntries(Object.entries(verdict.fields).map(([id, gap]) => [id, gap.status])), gaps);
  });
}
