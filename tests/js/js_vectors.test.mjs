// The browser's grader against the shared vectors (tests/vectors/cases.json): run by `node --test`.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";
import { grade } from "../../plugins/zadachnik/runtime/assets/js/grading.js";
import { gradeField, readNumber, shownExactly, writeNumber } from "../../plugins/zadachnik/runtime/assets/js/numbers.js";

// Every question type's module, each registering with the grader as a page's scripts do.
const TYPES = new URL("../../plugins/zadachnik/runtime/assets/js/types/", import.meta.url);
for (const name of readdirSync(TYPES)) await import(new URL(name, TYPES));

const cases = JSON.parse(readFileSync(new URL("../vectors/cases.json", import.meta.url), "utf-8"));

function expectedReading(expected) {
  const { input, lang, ...rest } = expected;
  return rest;
}

// A case with "lang" is read as that page reads; one without, with no conventions at all.
function conventionsOf(expected) {
  return "lang" in expected ? cases.conventions[expected.lang] : null;
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
    const reading = readNumber(textOf(expected.input), conventionsOf(expected));
    assert.deepEqual(reading, expectedReading(expected), `${expected.lang || ""} ${nameOf(expected.input)}`);
  }
});

test("fields", () => {
  for (const expected of cases.fields) {
    const verdict = gradeField(expected.field, textOf(expected.input), conventionsOf(expected));
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

test("formats", () => {
  for (const expected of cases.formats) {
    const conventions = cases.conventions[expected.lang];
    const message = JSON.stringify(expected);
    const written = writeNumber(expected.value, conventions, expected.decimals, expected.group, expected.significant);
    assert.equal(written, expected.text, message);
    assert.equal(shownExactly(expected.value, expected.decimals, expected.significant), expected.exact, message);
    const reading = readNumber(written, conventions);
    assert.equal(reading.value === expected.value, expected.exact, message);
  }
});
