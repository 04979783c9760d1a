// Reads a JSON list of [small, large] input pairs on stdin and prints, for each pair, how many times longer the
// browser reader takes on the large input than on the small one (tests/core/test_fuzz.py, the linear-time test).
import { readNumber } from "../../plugins/zadachnik/runtime/assets/js/numbers.js";

const THRESHOLD = Number(process.argv[2]);
const ROUNDS = Number(process.argv[3]);
// The page's number conventions the texts are read with.
const CONVENTIONS = JSON.parse(process.argv[4] || "null");

// Time per call, averaged over `calls` calls in a row: one call on a short text is too quick to time alone.
function perCall(text, calls) {
  const start = performance.now();
  for (let i = 0; i < calls; i++) readNumber(text, CONVENTIONS);
  return (performance.now() - start) / calls;
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const pairs = JSON.parse(Buffer.concat(chunks).toString("utf-8"));
// A microsecond floor under the short text's time: timer resolution must not make a ratio out of nothing.
const FLOOR = 0.001;
const ratios = pairs.map(([small, large]) => {
  let best = [Infinity, Infinity];
  const ratio = () => best[1] / Math.max(best[0], FLOOR);
  // The best of several interleaved rounds: a busy machine only ever slows a round down. A round that is
  // already under the threshold ends the search, so a linear reader is measured quickly.
  for (let round = 0; round < ROUNDS && !(ratio() < THRESHOLD); round++) {
    best = [Math.min(best[0], perCall(small, 10)), Math.min(best[1], perCall(large, 1))];
  }
  return ratio();
});
process.stdout.write(JSON.stringify(ratios));
