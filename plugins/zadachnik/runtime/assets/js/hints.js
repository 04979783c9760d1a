// Progressive hints: the question's button opens its next hint, which takes the focus (its heading says "Hint 1
// of 3"); opened hints stay open. How many are open is saved in the question's entry, so the page's other
// languages and a reload show the same; a count from storage is used only up to the hints the question has.
// The entry is the question's current one (`keyOf`): a question with variants keeps one per variant.
import { adopt } from "./look.js";

// Each opened hint set off by a bar, as a quotation is.
adopt(".zq-hint { border-inline-start: .2rem solid var(--md-accent-fg-color); padding-inline-start: .8em; margin: .6em 0; }");

function openCount(entry, total) {
  const count = entry && Number.isInteger(entry.hints) ? entry.hints : 0;
  return Math.max(0, Math.min(count, total));
}

export function setupHints(question, keyOf, store, touched) {
  const box = question.querySelector("[data-zq-hints]");
  const hints = [...box.querySelectorAll("[data-zq-hint]")];
  const button = box.querySelector("[data-zq-hint-next]");
  const show = (count) => {
    hints.forEach((hint, index) => {
      hint.hidden = index >= count;
    });
    const next = hints[count];
    button.hidden = !next;
    if (!next) return;
    button.textContent = button.dataset.zqTemplate.replace("{number}", count + 1).replace("{total}", hints.length);
    button.setAttribute("aria-controls", next.id);
  };
  button.addEventListener("click", () => {
    // Another tab may have opened more meanwhile: the next one after all that are open anywhere.
    const key = keyOf();
    const opened = hints.filter((hint) => !hint.hidden).length;
    const count = Math.min(Math.max(openCount(store.get(key), hints.length), opened) + 1, hints.length);
    store.update(key, { hints: count });
    show(count);
    hints[count - 1].focus();
    touched(question);
  });
  // A storage event from another tab, or the page put back after an import.
  question.zqShowHints = (entry) => show(openCount(entry, hints.length));
  show(openCount(store.get(keyOf()), hints.length));
  box.dataset.zqReady = "";
}

export function setup(page, store) {
  for (const question of page.root.querySelectorAll("[data-zq-question]")) {
    if (!question.querySelector("[data-zq-hints]")) continue;
    setupHints(question, () => page.key(question.dataset.zqQuestion), store, (element) => page.touched(element));
  }
}
