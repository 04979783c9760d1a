// Reads {conventions, items} as JSON on stdin and prints the browser's result for each item (tests/core/test_fuzz.py),
// with the page's number conventions (null: none): a text is read by readNumber, a [field, text] pair is graded
// by gradeField, and {write: [value, decimals, group, significant]} is written by writeNumber.
import { gradeField, readNumber, writeNumber } from "../../plugins/zadachnik/runtime/assets/js/numbers.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { conventions, items } = JSON.parse(Buffer.concat(chunks).toString("utf-8"));
const results = items.map((item) => {
  try {
    if (typeof item === "string") return readNumber(item, conventions);
    if (Array.isArray(item)) return gradeField(item[0], item[1], conventions);
    const [value, decimals, group, significant] = item.write;
    return writeNumber(value, conventions, decimals, group, significant);
  } catch (error) {
    return { exception: String(error) };
  }
});
process.stdout.write(JSON.stringify(results));
