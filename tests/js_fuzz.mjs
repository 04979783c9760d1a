// Reads a JSON list of inputs on stdin and prints the browser reader's result for each (tests/test_fuzz.py).
import { readNumber } from "../plugins/zadachnik/assets/js/numbers.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const inputs = JSON.parse(Buffer.concat(chunks).toString("utf-8"));
const results = inputs.map((input) => {
  try {
    return readNumber(input);
  } catch (error) {
    return { exception: String(error) };
  }
});
process.stdout.write(JSON.stringify(results));
