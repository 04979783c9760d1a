// The page's hand-in codes against the shared vectors (tests/vectors/handin.json), which the gradebook's decoder
// runs too (tests/exports/test_handin.py runs this file under pytest).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { crc32, handInCode } from "../../plugins/zadachnik/runtime/assets/js/handin.js";

const vectors = JSON.parse(readFileSync(new URL("../vectors/handin.json", import.meta.url), "utf-8"));

test("CRC-32 is zlib's", () => {
  assert.equal(crc32("123456789"), 0xcbf43926);
  assert.equal(crc32(""), 0);
});

for (const { name, results, code } of vectors.codes) {
  test(`the page makes the code the gradebook reads: ${name}`, () => {
    assert.equal(handInCode(results), code);
  });
}
