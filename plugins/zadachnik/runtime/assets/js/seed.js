// The learner's own seed, kept in storage beside the entries (never exported, never reset with a page): what
// makes a shuffled order theirs, the same in every language and after reload. A stored seed of the wrong shape is
// replaced; storage that cannot be written leaves a seed for this visit only.
export const SEED_KEY = "zadachnik-seed";
const SHAPE = /^[0-9a-f]{8}$/;
let visit = null;

export function learnerSeed(store) {
  const stored = store.read(SEED_KEY);
  if (typeof stored === "string" && SHAPE.test(stored)) return stored;
  // This visit's seed, made once: written again whenever storage lacks a good one (cleared, or written over by
  // another tab), so the order the learner saw is the one the next visit shows.
  visit ||= [...crypto.getRandomValues(new Uint8Array(4))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  store.write(SEED_KEY, visit);
  return visit;
}

// A generator of numbers in [0, 1) from a text: FNV-1a makes the text a 32-bit state, mulberry32 steps it.
export function generator(text) {
  let state = 0x811c9dc5;
  for (const char of text) state = Math.imul(state ^ char.codePointAt(0), 0x01000193) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

// The author's markers in a fresh order of the learner's own (Fisher–Yates), from their seed and the question:
// shuffled options and an ordering question's items.
export function shuffledOrder(keys, seed, course, module, id) {
  const random = generator(`${seed}/${course}/${module}/${id}`);
  const order = [...keys];
  for (let index = order.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other], order[index]];
  }
  return order;
}
