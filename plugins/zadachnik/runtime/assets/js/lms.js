// The bridge of a SCORM package (`zadachnik export --format scorm12|scorm2004`): it runs in the package's launch
// page, which shows the module's own pages in a frame. It finds the LMS's API in the frames above (as the standard
// says), brings back the learner's saved work from cmi.suspend_data, and after every change the pages save
// reports the module's score, statuses and one interaction per question, and commits. The pages themselves know
// nothing of SCORM: they save their entries as on any site, and the frame shares their storage (the same origin).
// Without an LMS the launch page simply opens the module, as the offline copy would.
import { COUNTED, scoreOf } from "./grading.js";
import { countedEntry, moduleSummary } from "./progress.js";
import { EXPORT_FORMAT, PREFIX, Store, asideKey, entryKey, isObject } from "./storage.js";
import { SEED_KEY } from "./seed.js";
import { deflateSync, inflateSync, strFromU8, strToU8 } from "../vendor/fflate/fflate.js";

// What each version calls the same things; `limit` is cmi.suspend_data's size.
const VERSIONS = {
  scorm12: {
    api: "API", init: "LMSInitialize", get: "LMSGetValue", set: "LMSSetValue", commit: "LMSCommit",
    finish: "LMSFinish", limit: 4096, learner: "cmi.core.student_id", entry: "cmi.core.entry",
    exit: "cmi.core.exit", sessionTime: "cmi.core.session_time", wrong: "wrong", responseLimit: 255,
  },
  scorm2004: {
    api: "API_1484_11", init: "Initialize", get: "GetValue", set: "SetValue", commit: "Commit",
    finish: "Terminate", limit: 64000, learner: "cmi.learner_id", entry: "cmi.entry",
    exit: "cmi.exit", sessionTime: "cmi.session_time", wrong: "incorrect", responseLimit: 4000,
  },
};
// Whose work the browser holds for a module (the LMS's learner id), so that the next learner at a shared computer
// does not start from it.
const OWNER_PREFIX = "zadachnik-lms-learner:";
// Which entries, at which times, this browser last saw the LMS take: one the LMS's copy no longer holds was
// removed on another machine (a reset), not never sent from here.
const SENT_PREFIX = "zadachnik-lms-sent:";
// suspend_data's two forms: the module's export as JSON, or compressed (deflate) and in base64 when that is
// too long for the LMS.
const PLAIN = "zq1:";
const PACKED = "zq1z:";
const SYNC_DELAY_MS = 250;

// The API the standard's way: this window's parents, up to the top, then the opener's.
export function findApi(name, start = window) {
  for (let frame = start, steps = 0; frame && steps < 500; steps += 1) {
    try {
      if (frame[name]) return frame[name];
    } catch {
      // A frame of another origin keeps its objects to itself; look further up.
    }
    if (frame.parent === frame) break;
    frame = frame.parent;
  }
  try {
    return start.opener && start.opener !== start ? findApi(name, start.opener) : null;
  } catch {
    return null;
  }
}

function base64(bytes) {
  let text = "";
  for (let start = 0; start < bytes.length; start += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(text);
}

// The text for cmi.suspend_data, or null when even compressed it is longer than the LMS keeps. Compressed at
// once (raw deflate, as the browser's CompressionStream writes it): a closing page does not wait for a promise.
export function encodeState(state, limit) {
  const json = JSON.stringify(state);
  const plain = PLAIN + json;
  if (plain.length <= limit) return plain;
  const packed = PACKED + base64(deflateSync(strToU8(json), { level: 9 }));
  return packed.length <= limit ? packed : null;
}

// What suspend_data held (ours, in either form), or null for nothing or anything else.
export function decodeState(text) {
  try {
    if (typeof text !== "string") return null;
    if (text.startsWith(PLAIN)) return JSON.parse(text.slice(PLAIN.length));
    if (text.startsWith(PACKED)) {
      const bytes = Uint8Array.from(atob(text.slice(PACKED.length)), (char) => char.charCodeAt(0));
      return JSON.parse(strFromU8(inflateSync(bytes)));
    }
  } catch {
    // Damaged or foreign: nothing of ours to bring back, and nothing here is overwritten by it.
  }
  return null;
}

// "PT1H2M3.5S" (2004) or "0001:02:03.50" (1.2).
export function sessionTime(milliseconds, version) {
  const centiseconds = Math.max(0, Math.round(milliseconds / 10));
  const hours = Math.floor(centiseconds / 360000);
  const minutes = Math.floor(centiseconds / 6000) % 60;
  const seconds = (centiseconds % 6000) / 100;
  if (version === "scorm2004") return `PT${hours}H${minutes}M${seconds.toFixed(2)}S`;
  const [whole, part] = seconds.toFixed(2).split(".");
  return `${String(hours).padStart(4, "0")}:${String(minutes).padStart(2, "0")}:${whole.padStart(2, "0")}.${part}`;
}

// An id as SCORM's identifiers allow it (no spaces; 2004 also no other marks).
function identifier(text) {
  return String(text).replace(/[^\w\-().:=@;$!*'%/#]/g, "_").slice(0, 250) || "_";
}

// The learner's answer (or, for a question nobody grades, their own text) as an interaction's type and
// response, in the forms the standard gives each type.
export function response(answer, notes, version) {
  const limit = VERSIONS[version].responseLimit;
  if (answer && Array.isArray(answer.choice)) {
    return { type: "choice", text: [...new Set(answer.choice.map(identifier))].join(version === "scorm12" ? "," : "[,]") };
  }
  if (answer && Array.isArray(answer.order)) {
    // A Parsons problem's lines carry their depths: "3@1" is line 3, indented one level.
    const depths = Array.isArray(answer.indent) ? answer.indent : null;
    const items = answer.order.map((key, index) => (depths ? `${key}@${depths[index]}` : key));
    return { type: "sequencing", text: items.map(identifier).join(version === "scorm12" ? "," : "[,]") };
  }
  if (answer && answer.pairs && typeof answer.pairs === "object") {
    const pairs = Object.entries(answer.pairs).map(([left, right]) => (version === "scorm12"
      ? `${identifier(left)}.${identifier(right)}` : `${identifier(left)}[.]${identifier(right)}`));
    return { type: "matching", text: pairs.join(version === "scorm12" ? "," : "[,]") };
  }
  let text = "";
  if (answer && answer.fields && typeof answer.fields === "object") {
    text = Object.entries(answer.fields).map(([name, value]) => `${name}=${value}`).join("; ");
  } else if (answer && typeof answer.code === "string") text = answer.code;
  else if (answer && typeof answer.expression === "string") text = answer.expression;
  else if (typeof notes === "string") text = notes;
  // One line (1.2's text allows no line breaks), at most what the type holds: the whole answer is in the state.
  text = text.replace(/\s+/g, " ").trim();
  if (text.length > limit) text = `${text.slice(0, limit - 1)}…`;
  return { type: version === "scorm12" ? "fill-in" : "long-fill-in", text };
}


// What the LMS is told of the module's result, as (element, value) pairs: `total` auto-checked questions, `points`
// earned, `checked` of them checked, `done` when every one is (or, with none, when the pages are). A module of
// open questions only has no score to pass or fail: it is completed (it was reported failed, its 0 of 0 below
// any pass mark).
export function outcome({ total, points, checked, done }, passMark, version) {
  const scaled = total ? points / total : 0;
  const success = !total ? "unknown" : !done ? "unknown" : scaled >= passMark ? "passed" : "failed";
  if (version === "scorm12") {
    const status = !done ? "incomplete" : total ? success : "completed";
    if (!total) return [["cmi.core.lesson_status", status]];
    return [["cmi.core.score.min", 0], ["cmi.core.score.max", 100],
      ["cmi.core.score.raw", Math.round(scaled * 10000) / 100], ["cmi.core.lesson_status", status]];
  }
  const statuses = [["cmi.completion_status", done ? "completed" : "incomplete"], ["cmi.success_status", success]];
  if (!total) return statuses;
  return [["cmi.score.min", 0], ["cmi.score.max", total], ["cmi.score.raw", Math.round(points * 100) / 100],
    ["cmi.score.scaled", Math.round(scaled * 10000) / 10000], ...statuses,
    ["cmi.progress_measure", Math.round((checked / total) * 10000) / 10000]];
}

// What an interaction says of a question: its answer and verdict, or for one without, the learner's own text.
const said = (entry) => JSON.stringify(entry.answer || entry.verdict ? [entry.answer ?? null, entry.verdict ?? null]
  : [entry.notes ?? null]);

class Bridge {
  constructor(api, config) {
    this.api = api;
    this.config = config;
    this.names = VERSIONS[config.version];
    this.store = new Store();
    this.started = Date.now();
    this.module = (window.__zqProgress?.modules || [])
      .find((candidate) => candidate.course === config.course && candidate.module === config.module);
    // Each question's answer and verdict as last reported (or as found when the session began).
    this.reported = new Map();
    this.interactions = new Map();
    this.suspend = null;
    this.finished = false;
    this.timer = null;
    // The word the note above the module says, if any (lms_state_too_large, lms_not_saved).
    this.said = null;
    // The state leaving sent, noted as the LMS's once its Commit succeeds.
    this.sent = null;
  }

  get(name) {
    try {
      return String(this.api[this.names.get](name) ?? "");
    } catch {
      return "";
    }
  }

  set(name, value) {
    try {
      return String(this.api[this.names.set](name, String(value))) === "true";
    } catch {
      return false;
    }
  }

  call(method) {
    try {
      return String(this.api[method]("")) === "true";
    } catch {
      return false;
    }
  }

  moduleKeys() {
    return this.store.keys().filter((key) => key.startsWith(entryKey(this.config.course, this.config.module, "")));
  }

  // The learner's work in this module as an export of its entries (with those set aside, which the LMS keeps
  // too), and their seed (what orders their options).
  state() {
    const exported = this.store.exportAll();
    const keys = new Set(this.moduleKeys());
    const entries = Object.fromEntries(Object.entries(exported.entries).filter(([key]) => keys.has(key)));
    const aside = asideKey(entryKey(this.config.course, this.config.module, ""));
    const quarantined = Object.fromEntries(Object.entries(exported.quarantined || {})
      .filter(([key]) => key.startsWith(aside)));
    const seed = this.store.read(SEED_KEY);
    return { format: EXPORT_FORMAT, schema: exported.schema, entries,
      ...(Object.keys(quarantined).length ? { quarantined } : {}), ...(seed ? { seed } : {}) };
  }

  // Entries this browser sent that the LMS's copy no longer holds were removed elsewhere (a reset on another
  // machine): they go here too, instead of coming back as the newer copy. What never reached the LMS stays.
  forgetRemoved(saved) {
    let sent = {};
    try {
      sent = JSON.parse(this.store.read(this.sentKey()) || "{}");
    } catch {
      // Unreadable: nothing is taken for removed.
    }
    const held = isObject(saved.entries) ? saved.entries : {};
    const removed = this.moduleKeys().filter((key) => !Object.hasOwn(held, key) && Object.hasOwn(sent, key)
      && this.store.peek(key)?.t === sent[key]);
    if (removed.length) this.store.removeAll(removed);
  }

  sentKey() {
    return `${SENT_PREFIX}${this.config.course}/${this.config.module}`;
  }

  // The LMS's copy, entry by entry, the newer of each winning as in an import: one this runtime refuses (another
  // version's) is set aside as a bad saved entry is, and the others still come back. (All of it was dropped, and
  // the next commit wrote an empty state over the LMS's.)
  restore(saved) {
    if (saved.format !== EXPORT_FORMAT) return;
    const refused = {};
    for (const [key, entry] of Object.entries(isObject(saved.entries) ? saved.entries : {})) {
      try {
        this.store.importAll({ format: EXPORT_FORMAT, entries: { [key]: entry } });
      } catch {
        if (key.startsWith(PREFIX)) refused[asideKey(key)] = JSON.stringify(entry);
      }
    }
    try {
      const quarantined = { ...(isObject(saved.quarantined) ? saved.quarantined : {}), ...refused };
      this.store.importAll({ format: EXPORT_FORMAT, entries: {}, quarantined });
    } catch {
      // Set-aside texts of a shape no export has: nothing to keep them as.
    }
  }

  start() {
    if (!this.call(this.names.init)) return false;
    const learner = this.get(this.names.learner);
    const ownerKey = `${OWNER_PREFIX}${this.config.course}/${this.config.module}`;
    // Another learner's work in this browser stays theirs: it is in their own LMS record.
    const owner = this.store.read(ownerKey);
    if (owner !== null && owner !== undefined && owner !== learner) {
      this.store.removeAll(this.moduleKeys());
    }
    this.store.write(ownerKey, learner);
    // A new attempt starts clean, as it would in another browser: what this browser holds of the module is an
    // earlier attempt's, which the LMS keeps in that attempt's record. (It came back, submitted exam and all.)
    if (this.get(this.names.entry) === "ab-initio") this.store.removeAll(this.moduleKeys());
    const saved = decodeState(this.get("cmi.suspend_data"));
    if (saved) {
      this.forgetRemoved(saved);
      // Work done here since the last commit is kept: the newer of each entry wins.
      this.restore(saved);
      if (typeof saved.seed === "string" && /^[0-9a-f]{8}$/.test(saved.seed)) this.store.write(SEED_KEY, saved.seed);
    }
    this.knownInteractions();
    // What was checked before this session is in the LMS already: only what changes from here is reported.
    if (this.module) this.reported = new Map(this.module.questions.map((id) => [id, said(this.entryOf(id))]));
    if (this.names.api === "API") {
      if (["", "not attempted"].includes(this.get("cmi.core.lesson_status"))) this.set("cmi.core.lesson_status", "incomplete");
    } else if (["", "unknown", "not attempted"].includes(this.get("cmi.completion_status"))) {
      this.set("cmi.completion_status", "incomplete");
    }
    this.call(this.names.commit);
    return true;
  }

  // SCORM 2004 keeps interactions readable: a question checked in an earlier session is updated in place.
  knownInteractions() {
    if (this.names.api !== "API_1484_11") return;
    const count = Number(this.get("cmi.interactions._count")) || 0;
    for (let index = 0; index < count; index += 1) this.interactions.set(this.get(`cmi.interactions.${index}.id`), index);
  }

  scheduleSync() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.sync(), SYNC_DELAY_MS);
  }

  // Score, statuses, interactions and state, from what the pages saved; then one commit.
  sync() {
    clearTimeout(this.timer);
    if (this.finished || !this.module) return;
    const reported = this.report();
    const state = this.state();
    const encoded = encodeState(state, this.names.limit);
    const kept = this.keepState(encoded);
    const committed = this.call(this.names.commit);
    if (kept && committed) this.noteSent(state);
    if (encoded !== null) this.say(kept && reported && committed ? null : "lms_not_saved");
  }

  noteSent(state) {
    const times = Object.fromEntries(Object.entries(state.entries).map(([key, entry]) => [key, entry.t]));
    this.store.write(this.sentKey(), JSON.stringify(times));
  }

  // Whether the state reached the LMS (or was there already). Never a cut state: when it is too long, the LMS
  // keeps the last one that fitted, and the learner is told.
  keepState(encoded) {
    if (encoded === null) {
      this.say("lms_state_too_large");
      return false;
    }
    if (encoded === this.suspend) return true;
    // Remembered only once the LMS took it: a refused one is sent again with the next change.
    if (!this.set("cmi.suspend_data", encoded)) return false;
    this.suspend = encoded;
    return true;
  }

  // The note above the module says `word`, or, with null, what it said is over.
  say(word) {
    const note = document.querySelector("[data-zq-lms-note]");
    if (!note || (word === null && this.said === null)) return;
    this.said = word;
    note.hidden = word === null;
    if (word) note.textContent = this.config.words[word].replace("{limit}", String(this.names.limit));
  }

  // A question's entry as the progress line reads it: with variants, its current variant's; its verdict only
  // if given under the question's key as it is now.
  entryOf(id) {
    return countedEntry(this.store, this.module, id);
  }

  // Whether the LMS took every value.
  report() {
    const module = this.module;
    const summary = moduleSummary(this.store, module);
    const current = (id) => this.entryOf(id);
    const result = {
      total: summary.auto.length,
      points: summary.auto.reduce((sum, id) => sum + (scoreOf(current(id).verdict) || 0), 0),
      checked: summary.checked,
      done: summary.states.quiz === "done" || (!module.questions.length && summary.states.exercises === "done"),
    };
    let taken = true;
    for (const [element, value] of outcome(result, this.config.passMark, this.config.version)) {
      taken = this.set(element, value) && taken;
    }
    for (const id of module.questions) taken = this.interaction(id, current(id), summary.auto.includes(id)) && taken;
    return taken;
  }

  // One interaction per question the learner checked (or answered, for questions nobody grades) in this
  // session: 1.2 keeps a journal, so each new verdict is a new record; 2004 updates the question's own. A text
  // nobody grades is one record per session in 1.2 too, updated as the learner types (each pause in the typing
  // was a record of its own). Whether the LMS took it.
  interaction(id, entry, auto) {
    const verdict = entry.verdict;
    const graded = verdict && COUNTED.includes(verdict.status);
    if (auto ? !graded : !(entry.answer || entry.notes)) return true;
    if (this.reported.get(id) === said(entry)) return true;
    const version = this.config.version;
    const { type, text } = response(entry.answer, entry.notes, version);
    const name = identifier(id);
    let index = this.interactions.get(name);
    if (index === undefined || (version === "scorm12" && auto)) {
      index = Number(this.get("cmi.interactions._count")) || 0;
      this.interactions.set(name, index);
    }
    const at = `cmi.interactions.${index}.`;
    const result = !graded ? "neutral" : verdict.status === "correct" ? "correct"
      : verdict.status === "wrong" ? this.names.wrong : String(Math.round(scoreOf(verdict) * 100) / 100);
    const values = [["id", name], ["type", type], ...(auto ? [["weighting", 1]] : [])];
    if (version === "scorm12") {
      if (text) values.push(["student_response", text]);
      values.push(["time", new Date().toTimeString().slice(0, 8)]);
    } else {
      if (text) values.push(["learner_response", text]);
      values.push(["timestamp", new Date().toISOString().slice(0, 19)]);
    }
    values.push(["result", result]);
    let taken = true;
    for (const [field, value] of values) taken = this.set(`${at}${field}`, value) && taken;
    // Reported once the LMS took it all: a refusal is tried again with the next change.
    if (taken) this.reported.set(id, said(entry));
    return taken;
  }

  // Leaving: what was done last is reported, the time spent said, and the session closed.
  finish() {
    if (this.finished) return;
    if (this.module) {
      this.report();
      const state = this.state();
      // Too long even compressed: the LMS keeps the last state that fitted, as it did while the page was open.
      const encoded = encodeState(state, this.names.limit);
      if (encoded !== null && this.keepState(encoded)) this.sent = state;
    }
    this.finished = true;
    this.set(this.names.sessionTime, sessionTime(Date.now() - this.started, this.config.version));
    this.set(this.names.exit, "suspend");
    if (this.call(this.names.commit) && this.sent) this.noteSent(this.sent);
    this.call(this.names.finish);
  }
}

export function launch(config = window.__zqLms) {
  const frame = document.querySelector("[data-zq-lms-frame]");
  const api = findApi(VERSIONS[config.version].api);
  if (!api) {
    // No LMS: the module's pages work as the offline copy's do.
    window.location.replace(config.start);
    return null;
  }
  const bridge = new Bridge(api, config);
  if (!bridge.start()) {
    // No session: nothing is reported or kept by the LMS, and the note says so for as long as the module is open.
    bridge.say("lms_no_session");
    bridge.finished = true;
  }
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key.startsWith(PREFIX) || event.key === SEED_KEY) bridge.scheduleSync();
  });
  frame.addEventListener("load", () => {
    try {
      frame.contentWindow.addEventListener("zadachnik:checked", () => bridge.sync());
    } catch {
      // A page of another origin in the frame (a link followed out): its events are not ours.
    }
    bridge.scheduleSync();
  });
  // Asked whether to leave (a page holding unsaved work asks), the learner may stay: what there is goes to the
  // LMS then, and the session ends only as the page goes.
  window.addEventListener("beforeunload", () => bridge.sync());
  window.addEventListener("pagehide", () => bridge.finish());
  frame.src = config.start;
  return bridge;
}

if (typeof window !== "undefined" && window.__zqLms) launch();
