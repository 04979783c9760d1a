// Course progress on the home page: each module's line in the course list, and "Continue where you left off".
// progress.js loads it where the course list's markup is (home.py), so other pages do not carry it.
import { LAST_PLACE_KEY } from "./storage.js";

// A question's or an exercise's id on its page: the anchor "Continue" leads to.
const ANCHOR_PREFIX = { quiz: "q-", exercises: "e-" };

function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

function moduleLine(module, summary, words, lang) {
  const pages = module.pages[lang] || Object.values(module.pages)[0] || {};
  const parts = [];
  if (pages.quiz) {
    const { checked, correct } = summary;
    parts.push(format(words.progress, { checked, total: summary.auto.length, correct }));
  }
  if (pages.exercises) {
    parts.push(format(words.progress_solutions, { opened: summary.opened, total: module.exercises.length }));
  }
  return parts.join(" · ");
}

// The place the learner touched last, if it is still a question or an exercise of this site.
function lastPlace(store, data) {
  let place;
  try {
    place = JSON.parse(store.read(LAST_PLACE_KEY));
  } catch {
    return null;
  }
  if (!place || typeof place !== "object" || typeof place.anchor !== "string") return null;
  if (!Object.hasOwn(ANCHOR_PREFIX, place.kind)) return null;
  const module = data.modules.find((candidate) => candidate.course === place.course
    && candidate.module === place.module);
  if (!module) return null;
  const ids = place.kind === "quiz" ? module.questions : module.exercises;
  return ids.some((id) => ANCHOR_PREFIX[place.kind] + id === place.anchor) ? { ...place, module } : null;
}

// `root`: the site's root, which the manifest's addresses are relative to.
export function showHome(store, data, summaries, words, lang, root) {
  const byModule = new Map([...summaries].map(([module, summary]) => [`${module.course}/${module.module}`,
    [module, summary]]));
  for (const line of document.querySelectorAll("[data-zq-progress-of]")) {
    const found = byModule.get(line.dataset.zqProgressOf);
    if (found) line.textContent = moduleLine(...found, words, lang);
  }
  const place = lastPlace(store, data);
  for (const paragraph of document.querySelectorAll("[data-zq-continue]")) {
    const url = place && place.module.pages[paragraph.dataset.zqLang || lang];
    const address = url && url[place.kind] ? new URL(url[place.kind], root) : null;
    if (address) {
      address.hash = place.anchor;
      paragraph.querySelector("a").href = address.href;
    }
    paragraph.hidden = !address;
  }
  // Storage that can't be read leaves the counts at nothing: the home page says why, as the quiz pages do.
  if (!store.problems.has("unavailable")) return;
  for (const note of document.querySelectorAll("[data-zq-storage]")) {
    if (note.closest(".zq-page")) continue;
    note.textContent = words.storage_unavailable;
    note.hidden = false;
  }
}
