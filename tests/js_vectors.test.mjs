// The browser's grader against the shared vectors (tests/vectors/cases.json): run by `node --test`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { grade } from "../plugins/zadachnik/runtime/assets/js/grading.js";
import { gradeField, readNumber } from "../plugins/zadachnik/runtime/assets/js/numbers.js";

const cases = JSON.parse(readFileSync(new URL("./vectors/cases.json", import.meta.url), "utf-8"));

function expectedReading(expected) {
  const { input, ...rest } = expected;
  return rest;
}

// An input as written in cases.json: a string, or [piece, times] pairs for one too long to write out.
function textOf(written) {
  return typeof written === "string" ? written : written.map(([piece, times]) => piece.repeat(times)).join("");
}

function nameOf(written) {
  return JSON.stringify(written).slice(0, 200);
}

test("readings", () => {
  for (const expected of cases.readings) {
    assert.deepEqual(readNumber(textOf(expected.input)), expectedReading(expected), nameOf(expected.input));
  }
});

test("fields", () => {
  for (const expected of cases.fields) {
    const verdict = gradeField(expected.field, textOf(expected.input));
    const message = JSON.stringify({ ...expected, input: nameOf(expected.input) });
    assert.equal(verdict.status, expected.status, message);
    if (expected.status === "wrong") assert.equal(verdict.precision, expected.precision, message);
    if (expected.status === "unreadable") assert.equal(verdict.error, expected.error, message);
  }
});

test("questions", () => {
  for (const expected of cases.questions) {
    const verdict = grade(expected.spec, expected.answer);
    const message = JSON.stringify(expected);
    assert.equal(verdict.status, expected.status, message);
    for (const key of ["score", "missing", "wrong"]) {
      if (key in expected) assert.deepEqual(verdict[key], expected[key], `${key}: ${message}`);
    }
    if (expected.fields) {
      const statuses = Object.fromEntries(Object.entries(verdict.fields).map(([id, field]) => [id, field.status]));
      assert.deepEqual(statuses, expected.fields, message);
    }
  }
});
