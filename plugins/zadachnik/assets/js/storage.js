// Saved progress: one localStorage entry per question or exercise, keyed by course, module and id, so the
// Russian and English pages of a module share it. Broken storage never breaks the page: it falls back to
// memory and says so once.

export const PREFIX = "zadachnik:";
export const SCHEMA = 1;
export const EXPORT_FORMAT = "zadachnik-progress";

// Older entries are brought up to SCHEMA one version at a time, never dropped.
// Version 0 is an entry written before entries carried a version: the same fields, unversioned.
const MIGRATIONS = {
  0: (entry) => ({ ...entry, v: 1 }),
};

export function entryKey(course, module, id) {
  return `${PREFIX}${course}/${module}/${id}`;
}

export function migrate(entry) {
  let current = { ...entry, v: Number.isInteger(entry.v) ? entry.v : 0 };
  while (current.v < SCHEMA && MIGRATIONS[current.v]) current = MIGRATIONS[current.v](current);
  return current;
}

function probeStorage(candidate) {
  try {
    const storage = candidate();
    const probe = `${PREFIX}probe`;
    storage.setItem(probe, "1");
    storage.removeItem(probe);
    return storage;
  } catch {
    return null;
  }
}

export class Store {
  constructor(candidate = () => window.localStorage) {
    this.backend = probeStorage(candidate);
    this.memory = new Map();
    this.problems = new Set(this.backend ? [] : ["unavailable"]);
    this.listeners = [];
  }

  onProblem(listener) {
    this.listeners.push(listener);
    for (const problem of this.problems) listener(problem);
  }

  report(problem) {
    if (this.problems.has(problem)) return;
    this.problems.add(problem);
    for (const listener of this.listeners) listener(problem);
  }

  get(key) {
    if (this.memory.has(key)) return this.memory.get(key);
    if (!this.backend) return null;
    let text = null;
    try {
      text = this.backend.getItem(key);
    } catch {
      this.report("unavailable");
      return null;
    }
    if (text === null) return null;
    try {
      const entry = JSON.parse(text);
      if (!entry || typeof entry !== "object" || Array.isArray(entry)) throw new Error("not an entry");
      return migrate(entry);
    } catch {
      // Left as it is: nothing else is lost, and a later save of this question replaces it.
      this.report("corrupt");
      return null;
    }
  }

  set(key, entry) {
    const stored = { ...entry, v: SCHEMA, t: Date.now() };
    this.memory.set(key, stored);
    if (!this.backend) return;
    try {
      this.backend.setItem(key, JSON.stringify(stored));
    } catch {
      this.report("unavailable");
    }
  }

  update(key, change) {
    this.set(key, { ...(this.get(key) || {}), ...change });
  }

  remove(key) {
    this.memory.delete(key);
    if (!this.backend) return;
    try {
      this.backend.removeItem(key);
    } catch {
      this.report("unavailable");
    }
  }

  keys() {
    const keys = new Set([...this.memory.keys()]);
    if (this.backend) {
      try {
        for (let index = 0; index < this.backend.length; index += 1) {
          const key = this.backend.key(index);
          if (key && key.startsWith(PREFIX) && key !== `${PREFIX}probe`) keys.add(key);
        }
      } catch {
        this.report("unavailable");
      }
    }
    return [...keys].sort();
  }

  // One JSON document with every saved entry of the site.
  exportAll() {
    const entries = {};
    for (const key of this.keys()) {
      const entry = this.get(key);
      if (entry) entries[key] = entry;
    }
    return { format: EXPORT_FORMAT, schema: SCHEMA, exported: new Date().toISOString(), entries };
  }

  // Merges an export: for each entry the newer one wins. Throws on anything that is not an export.
  importAll(document) {
    if (!document || document.format !== EXPORT_FORMAT || typeof document.entries !== "object"
        || document.entries === null || Array.isArray(document.entries)) {
      throw new Error("not a Zadachnik progress file");
    }
    let imported = 0;
    let kept = 0;
    for (const [key, value] of Object.entries(document.entries)) {
      if (!key.startsWith(PREFIX) || !value || typeof value !== "object" || Array.isArray(value)) continue;
      const incoming = migrate(value);
      const local = this.get(key);
      if (local && (local.t || 0) > (incoming.t || 0)) {
        kept += 1;
        continue;
      }
      const stored = { ...incoming, v: SCHEMA };
      this.memory.set(key, stored);
      if (this.backend) {
        try {
          this.backend.setItem(key, JSON.stringify(stored));
        } catch {
          this.report("unavailable");
        }
      }
      imported += 1;
    }
    return { imported, kept };
  }
}
