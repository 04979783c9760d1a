// Saved progress: one localStorage entry per question or exercise, keyed by course, module and id, so the
// Russian and English pages of a module share it. Storage that is broken, full, shared or hostile never breaks
// the page: reading never needs room to write, an entry that could not be written stays in memory (and in
// exports), an entry of the wrong shape is set aside under a quarantine key, and every write re-reads the
// entry first so another tab's changes to its other fields survive.

export const PREFIX = "zadachnik:";
export const QUARANTINE_PREFIX = "zadachnik-quarantine:";
export const SCHEMA = 1;
export const EXPORT_FORMAT = "zadachnik-progress";
// Where the learner worked last ({course, module, kind, anchor}), for "Continue": not an entry, never exported.
export const LAST_PLACE_KEY = "zadachnik-last-place";

// course/module/id: other keys under our prefix belong to someone else and are never touched.
const ENTRY_KEY = /^zadachnik:[^/]+\/[^/]+\/[^/]+$/;

// Older entries are brought up to SCHEMA one version at a time, never dropped.
// Version 0 is an entry written before entries carried a version: the same fields, unversioned.
const MIGRATIONS = {
  0: (entry) => ({ ...entry, v: 1 }),
};

export function entryKey(course, module, id) {
  return `${PREFIX}${course}/${module}/${id}`;
}

// The id a question's variant keeps its answers under (`P02@3`); the question's own id without one.
export function variantId(id, variant) {
  return variant ? `${id}@${variant}` : id;
}

// Where an entry (or, for a key's beginning, a page's entries) is kept when it is set aside.
export const asideKey = (key) => QUARANTINE_PREFIX + key.slice(PREFIX.length);

export function isEntryKey(key) {
  return typeof key === "string" && ENTRY_KEY.test(key);
}

export function migrate(entry) {
  let current = { ...entry, v: Number.isInteger(entry.v) ? entry.v : 0 };
  while (current.v < SCHEMA && MIGRATIONS[current.v]) current = MIGRATIONS[current.v](current);
  return current;
}

// Every status a verdict (or a numeric field's verdict in it) is saved with: what the graders give, in the browser
// (types/*.js, numbers.js) and in Python (pyrunner); the shared cases hold each (tests/js/js_storage.test.mjs). Any
// other word from storage or a file is an entry of the wrong shape: the page looks statuses up in its words.
// ("unavailable", Python that could not start, is shown but never saved.)
export const STATUSES = ["correct", "wrong", "partial", "unanswered", "unreadable"];

// -- shapes: what is wrong is {field, expected}, so an import can tell the learner exactly that ---------------

export const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const KINDS = {
  object: isObject,
  text: (value) => typeof value === "string",
  number: (value) => typeof value === "number" && Number.isFinite(value),
  boolean: (value) => typeof value === "boolean",
  texts: (value) => Array.isArray(value) && value.every((item) => typeof item === "string"),
  numbers: (value) => Array.isArray(value) && value.every((item) => typeof item === "number"),
  count: (value) => Number.isInteger(value) && value >= 0,
  list: Array.isArray,
  status: (value) => STATUSES.includes(value),
};

// The first of `fields` (name → kind) present in `value` but not of its kind; absent fields are fine.
function fieldsProblem(value, fields, path) {
  for (const [name, kind] of Object.entries(fields)) {
    if (value[name] !== undefined && !KINDS[kind](value[name])) return { field: `${path}${name}`, expected: kind };
  }
  return null;
}

// An error always carries its text (pyrunner.describe_error, the worker's own): the page shows it.
function errorProblem(error, path) {
  if (!isObject(error)) return { field: path, expected: "object" };
  if (!KINDS.text(error.text)) return { field: `${path}.text`, expected: "text" };
  return fieldsProblem(error, { type: "text", message: "text", lines: "numbers" }, `${path}.`);
}

// A verdict as any question type's grader (or Python) writes it.
export function verdictProblem(verdict) {
  if (!isObject(verdict)) return { field: "verdict", expected: "object" };
  if (!KINDS.status(verdict.status)) return { field: "verdict.status", expected: "status" };
  // The page says how much of a partly correct answer was right.
  if (verdict.status == "partial" && !KINDS.number(verdict.score)) return { field: "verdict.score", expected: "number" };
  const problem = fieldsProblem(verdict, {
    score: "number", fields: "object", missing: "texts", wrong: "texts", tests: "list", error: "object",
    timeout: "number", message: "text", messages: "object", precision: "boolean", hints: "count",
    // A formula answer's reading, or why it has none (formula.js).
    read: "text", formula: "text", detail: "text",
    // The revision of the key it was given under (grading.standing).
    rev: "text",
  }, "verdict.");
  if (problem) return problem;
  for (const [id, result] of Object.entries(verdict.fields || {})) {
    const path = `verdict.fields.${id}`;
    if (!isObject(result)) return { field: path, expected: "object" };
    if (!KINDS.status(result.status)) return { field: `${path}.status`, expected: "status" };
    const inner = fieldsProblem(result, { precision: "boolean", error: "text" }, `${path}.`);
    if (inner) return inner;
  }
  for (const [index, test] of (verdict.tests || []).entries()) {
    const path = `verdict.tests.${index}`;
    if (!isObject(test)) return { field: path, expected: "object" };
    const inner = fieldsProblem(test, { passed: "boolean", message: "text" }, `${path}.`)
      || (test.error !== undefined ? errorProblem(test.error, `${path}.error`) : null);
    if (inner) return inner;
  }
  return verdict.error !== undefined ? errorProblem(verdict.error, "verdict.error") : null;
}

// What every entry must look like, whatever its question; a question's type adds its answer's shape.
export function entryProblem(entry) {
  if (!isObject(entry)) return { field: "", expected: "object" };
  // hints: how many of the question's hints are open (hints.js).
  // typed: the decimal and group signs of the page the answer was typed on (zadachnik.js, typedWith).
  const problem = fieldsProblem(entry, { v: "number", t: "number", notes: "text", reveals: "object", hints: "count",
    typed: "text" }, "");
  if (problem) return problem;
  if (entry.answer !== undefined && entry.answer !== null && !isObject(entry.answer)) {
    return { field: "answer", expected: "object" };
  }
  for (const [name, open] of Object.entries(entry.reveals || {})) {
    if (typeof open !== "boolean") return { field: `reveals.${name}`, expected: "boolean" };
  }
  return entry.verdict === undefined || entry.verdict === null ? null : verdictProblem(entry.verdict);
}

function parseEntry(text) {
  try {
    const entry = JSON.parse(text);
    return isObject(entry) ? migrate(entry) : null;
  } catch {
    return null;
  }
}

// An import that is refused as a whole: `reason` is not_export, key or entry (with key, field, expected).
export class ImportRefused extends Error {
  constructor(reason, details = {}) {
    super(`import refused: ${reason}`);
    this.reason = reason;
    Object.assign(this, details);
  }
}

function openStorage(candidate) {
  try {
    const storage = candidate();
    // Reading is all that is asked here: a full storage must still show what it holds.
    void storage.length;
    return storage;
  } catch {
    return null;
  }
}

export class Store {
  constructor(candidate = () => window.localStorage) {
    this.backend = openStorage(candidate);
    // Entries whose last write failed: for this session they are the truth, and exports carry them.
    this.unsaved = new Map();
    // What this session wrote: when storage cannot be read back, it still shows and exports.
    this.written = new Map();
    // Unsaved entries that a progress file holds (exported, or imported from it).
    this.filed = new WeakSet();
    // Bad entries that could not be moved aside (storage full): kept here so an export still has them.
    this.setAside = new Map();
    this.checks = new Map();
    // How many entries were set aside: each page says so once if its own reading added to it.
    this.setAsideCount = 0;
    this.problems = new Set(this.backend ? [] : ["unavailable"]);
    this.listeners = [];
  }

  onProblem(listener) {
    this.listeners.push(listener);
    for (const problem of this.problems) listener(problem);
  }

  // Each problem is said once per store; pages decide what to show.
  report(problem) {
    if (this.problems.has(problem)) return;
    this.problems.add(problem);
    for (const listener of this.listeners) listener(problem);
  }

  // A question's own check of its entries (its answer's shape), used on every read and import.
  expect(key, check) {
    this.checks.set(key, check);
  }

  problemOf(key, entry) {
    const check = this.checks.get(key);
    return entryProblem(entry) || (check ? check(entry) : null);
  }

  // The stored text, null when there is none, undefined when storage cannot be read.
  read(key) {
    if (!this.backend) return undefined;
    try {
      return this.backend.getItem(key);
    } catch {
      this.report("unavailable");
      return undefined;
    }
  }

  write(key, text) {
    if (!this.backend) return false;
    try {
      this.backend.setItem(key, text);
      return true;
    } catch {
      this.report("unavailable");
      return false;
    }
  }

  erase(key) {
    if (!this.backend) return;
    try {
      this.backend.removeItem(key);
    } catch {
      this.report("unavailable");
    }
  }

  // The saved entry, read afresh (another tab may have written it), or null; a bad one is set aside, unless
  // it is `onlyRead` (peek). A copy this tab could not save is the truth until another tab saves a newer one.
  get(key, onlyRead = false) {
    const mine = this.unsaved.get(key);
    const found = this.stored(key, onlyRead);
    if (mine && !(found?.t > mine.t)) return mine;
    this.unsaved.delete(key);
    return found;
  }

  stored(key, onlyRead) {
    const text = this.read(key);
    if (text === undefined) return this.written.get(key) || null;
    if (text === null) return null;
    const entry = parseEntry(text);
    if (entry && !this.problemOf(key, entry)) return entry;
    if (!onlyRead) this.quarantine(key, text);
    return null;
  }

  // The saved entry, only read (course progress): a bad one is none, left for its own page to set aside.
  peek(key) {
    return this.get(key, true);
  }

  // Moves a bad entry out of its question's way, keeping it as it was; never overwrites an older one.
  quarantine(key, text) {
    this.setAsideCount += 1;
    this.report("corrupt");
    const base = asideKey(key);
    const existing = this.read(base);
    if (existing === text) {
      this.erase(key);
      return;
    }
    const target = existing === null ? base : `${base}~${Date.now()}`;
    if (this.write(target, text)) this.erase(key);
    else this.setAside.set(target, text);
  }

  // `t`, the time of the change, decides which of two copies an import keeps (the newer).
  set(key, entry, t = Date.now()) {
    const stored = { ...entry, v: SCHEMA, t };
    this.remember(key, stored, this.write(key, JSON.stringify(stored)));
    return stored;
  }

  remember(key, entry, written) {
    if (written) {
      this.written.set(key, entry);
      this.unsaved.delete(key);
    } else {
      this.unsaved.set(key, entry);
    }
  }

  // Whether the learner did work here that neither storage nor a progress file holds (a variant drawn for them,
  // dated 0, is no work, nor is an exam's start): leaving loses it.
  unfiled() {
    return [...this.unsaved].some(([key, entry]) => entry.t > 0 && !this.filed.has(entry) && !key.endsWith("@exam"));
  }

  // Changes only the given fields (reveals one by one) of the entry as stored now.
  update(key, change, t) {
    const current = this.get(key) || {};
    const merged = { ...current, ...change };
    if (change.reveals) merged.reveals = { ...(current.reveals || {}), ...change.reveals };
    return this.set(key, merged, t);
  }

  remove(key) {
    this.removeAll([key]);
  }

  // Removes entries and whatever of theirs was set aside (a reset erases everything of a page).
  removeAll(keys) {
    const asideOf = new Set(keys.map(asideKey));
    const belongs = (target) => asideOf.has(target.replace(/~\d+$/, ""));
    for (const key of keys) {
      this.unsaved.delete(key);
      this.written.delete(key);
      this.erase(key);
    }
    for (const target of this.storedKeys(QUARANTINE_PREFIX)) if (belongs(target)) this.erase(target);
    for (const target of [...this.setAside.keys()]) if (belongs(target)) this.setAside.delete(target);
  }

  storedKeys(prefix) {
    const keys = [];
    if (!this.backend) return keys;
    try {
      for (let index = 0; index < this.backend.length; index += 1) {
        const key = this.backend.key(index);
        if (key && key.startsWith(prefix)) keys.push(key);
      }
    } catch {
      this.report("unavailable");
    }
    return keys;
  }

  keys() {
    const stored = this.storedKeys(PREFIX).filter(isEntryKey);
    return [...new Set([...stored, ...this.unsaved.keys(), ...this.written.keys()])].sort();
  }

  // One JSON document with every saved entry of the site, from storage and memory, and what was set aside.
  exportAll() {
    const entries = {};
    for (const key of this.keys()) {
      if (this.unsaved.has(key)) {
        entries[key] = this.unsaved.get(key);
        continue;
      }
      // Only read here: another page's bad entry is set aside by that page, which knows its question.
      const text = this.read(key);
      const entry = text === undefined ? this.written.get(key) : text === null ? null : parseEntry(text);
      if (entry && !entryProblem(entry)) entries[key] = entry;
    }
    const quarantined = Object.fromEntries(this.setAside);
    for (const key of this.storedKeys(QUARANTINE_PREFIX)) {
      const text = this.read(key);
      if (typeof text === "string") quarantined[key] = text;
    }
    const document = { format: EXPORT_FORMAT, schema: SCHEMA, exported: new Date().toISOString(), entries };
    if (Object.keys(quarantined).length) document.quarantined = quarantined;
    return document;
  }

  // The entries of an export the learner has now as a file: leaving loses none of them.
  file(exported) {
    for (const entry of Object.values(exported.entries)) this.filed.add(entry);
  }

  // Merges an export: for each entry the newer one wins. The whole file is checked first and refused
  // (ImportRefused) on the first problem; then it is written all or nothing: if storage fills up half-way,
  // what was written is rolled back and the whole file is kept in memory for this session instead.
  importAll(document) {
    if (!isObject(document) || document.format !== EXPORT_FORMAT || !isObject(document.entries)) {
      throw new ImportRefused("not_export");
    }
    const incoming = [];
    for (const [key, value] of Object.entries(document.entries)) {
      if (!isEntryKey(key)) throw new ImportRefused("key", { key });
      if (!isObject(value)) throw new ImportRefused("entry", { key, field: "", expected: "object" });
      const entry = migrate(value);
      const problem = this.problemOf(key, entry);
      if (problem) throw new ImportRefused("entry", { key, ...problem });
      incoming.push([key, { ...entry, v: SCHEMA }]);
    }
    const asides = document.quarantined === undefined ? {} : document.quarantined;
    if (!isObject(asides)) throw new ImportRefused("entry", { key: "quarantined", field: "", expected: "object" });
    for (const [key, text] of Object.entries(asides)) {
      if (!key.startsWith(QUARANTINE_PREFIX)) throw new ImportRefused("key", { key });
      if (typeof text !== "string") throw new ImportRefused("entry", { key, field: "", expected: "text" });
    }

    const writes = [];
    let kept = 0;
    for (const [key, entry] of incoming) {
      const local = this.get(key);
      if (local && (local.t || 0) > (entry.t || 0)) kept += 1;
      else writes.push([key, entry]);
    }
    const texts = writes.map(([key, entry]) => [key, JSON.stringify(entry)]);
    for (const [key, text] of Object.entries(asides)) if (this.read(key) === null) texts.push([key, text]);
    const unsaved = !this.writeAll(texts);
    for (const [key, entry] of writes) this.remember(key, entry, !unsaved);
    this.file({ entries: Object.fromEntries(writes) });
    if (unsaved) for (const [key, text] of Object.entries(asides)) this.setAside.set(key, text);
    return { imported: writes.length, kept, unsaved };
  }

  // Writes every (key, text) or none: on a failure the earlier ones get their old values back.
  writeAll(texts) {
    if (!this.backend) return false;
    const before = texts.map(([key]) => [key, this.read(key)]);
    for (const [index, [key, text]] of texts.entries()) {
      if (this.write(key, text)) continue;
      for (const [oldKey, oldText] of before.slice(0, index)) {
        if (oldText === null) this.erase(oldKey);
        else if (oldText !== undefined) this.write(oldKey, oldText);
      }
      return false;
    }
    return true;
  }
}
