// Reads a JSON list on stdin and prints the browser's result for each item (tests/test_fuzz.py): a text is read
// by readNumber, a [field, text] pair is graded by gradeField.
import { gradeField, readNumber } from "../plugins/zadachnik/runtime/assets/js/numbers.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const items = JSON.parse(Buffer.concat(chunks).toString("utf-8"));
const results = items.map((item) => {
  try {
    return typeof item === "string" ? readNumber(item) : gradeField(item[0], item[1]);
  } catch (error) {
    return { exception: String(error) };
  }
});
process.stdout.write(JSON.stringify(results));
