// Code exercises: a real editor (Ace, vendored), Run, Check against hidden tests, Reset to the starter.
import { register } from "../grading.js";
import * as thisType from "./code.js";
import { describeError, retryButton, runCode } from "../pyclient.js";

export const types = ["code"];

let aceLoading = null;

// Ace is a classic script: loaded once, only on pages with code exercises.
function loadAce() {
  if (!aceLoading) {
    aceLoading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = new URL("../../ace/ace.js", import.meta.url).href;
      script.onload = () => {
        window.ace.config.set("basePath", new URL("../../ace/", import.meta.url).href);
        resolve(window.ace);
      };
      script.onerror = reject;
      document.head.append(script);
    });
  }
  return aceLoading;
}

function source(question) {
  return question.querySelector("[data-zq-source]");
}

export function grade() {
  throw new Error("code exercises are graded by Python");
}

export function collect(question) {
  return { code: question.zqEditor ? question.zqEditor.getValue() : source(question).value };
}

export function restore(question, answer) {
  const code = answer && typeof answer.code === "string" ? answer.code : source(question).dataset.zqStarter;
  source(question).value = code;
  if (question.zqEditor && question.zqEditor.getValue() !== code) question.zqEditor.setValue(code, 1);
}

export function clear(question) {
  restore(question, null);
}

export function inputs() {
  return [];
}

function editorTheme() {
  return document.body.dataset.mdColorScheme === "slate" ? "ace/theme/github_dark" : "ace/theme/github_light_default";
}

// Mounts the editor over the textarea (which stays the source of truth without JS), and the Run and Reset
// buttons. `changed` is the page's handler for an edited answer.
export function setup(question, spec, page, changed) {
  const textarea = source(question);
  const output = question.querySelector("[data-zq-output]");
  // The editor is parsed only when its exercise comes near the screen, never during page start-up.
  whenNear(question, () => mountEditor(question, textarea, changed, page.say));
  textarea.addEventListener("input", changed);
  const run = async () => {
    output.textContent = page.say("running");
    const result = await runCode(spec, collect(question).code);
    if (result.status === "unavailable") {
      output.textContent = page.say(`python_unavailable_${result.reason}`);
      output.append(" ", retryButton(page.say, run));
      return;
    }
    output.textContent = describeOutput(result, page.say);
  };
  question.querySelector("[data-zq-run]").addEventListener("click", run);
  // Check runs the code too: the Output area then shows what the check printed, never an earlier Run's.
  const check = question.querySelector("[data-zq-check]");
  if (check) check.addEventListener("click", () => { output.textContent = page.say("checking"); });
  question.querySelector("[data-zq-code-reset]").addEventListener("click", () => {
    restore(question, null);
    changed();
  });
}

// Every browser with the module scripts and optional chaining the runtime uses has IntersectionObserver.
function whenNear(element, action) {
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) {
      observer.disconnect();
      action();
    }
  }, { rootMargin: "400px" });
  observer.observe(element);
}

function mountEditor(question, textarea, changed, say) {
  loadAce().then((ace) => {
    // Ace's words for all its editors: those of this page's language (instant navigation may change it).
    ace.config.setMessages(say.editor);
    const holder = question.querySelector("[data-zq-editor]");
    const editor = ace.edit(holder, {
      mode: "ace/mode/python", theme: editorTheme(), value: textarea.value, tabSize: 4, useSoftTabs: true,
      minLines: 6, maxLines: 30, fontSize: "0.8rem", showPrintMargin: false, enableKeyboardAccessibility: true,
      // A submitted exam froze the textarea before the editor came near the screen.
      readOnly: textarea.readOnly,
      // The box's name, which Ace puts before the cursor's row each time the cursor moves.
      textInputAriaLabel: textarea.getAttribute("aria-label"),
    });
    editor.session.setUndoManager(new ace.UndoManager());
    // Hiding a focused textarea would drop focus to <body>: the learner stays where they were, caret too.
    const focused = document.activeElement === textarea;
    const { selectionStart, selectionEnd } = textarea;
    question.zqEditor = editor;
    textarea.hidden = true;
    holder.hidden = false;
    if (focused) {
      const doc = editor.session.getDocument();
      const start = doc.indexToPosition(selectionStart);
      const end = doc.indexToPosition(selectionEnd);
      editor.selection.setSelectionRange({ start, end });
      editor.focus();
    }
    // setValue() is a removal then an insertion: compare once the edit is complete.
    let pending = false;
    editor.on("change", () => {
      if (pending) return;
      pending = true;
      setTimeout(() => {
        pending = false;
        if (textarea.value !== editor.getValue()) {
          textarea.value = editor.getValue();
          changed();
        }
      }, 0);
    });
    new MutationObserver(() => editor.setTheme(editorTheme()))
      .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  }, () => { /* Without the editor the plain textarea still works. */ });
}

// What the code printed, stdout and stderr in the order written, then how it ended.
function describeOutput(result, say) {
  const parts = [];
  const printed = (result.output || []).map((chunk) => chunk.text).join("");
  if (printed) parts.push(printed.replace(/\n$/, ""));
  if (result.truncated) parts.push(say("output_truncated"));
  if (result.timeout && !("timed_out" in result)) parts.push(say("stopped_after", { seconds: result.timeout }));
  if (result.error) parts.push(describeError(result.error, say));
  return parts.join("\n") || say("no_output");
}

// The author's message for test `index` in the page's language (`lang`): a verdict saved on the other language's
// page holds that page's words.
function testMessage(spec, index, lang) {
  const message = spec?.tests?.[index]?.message || {};
  return message[lang] || Object.values(message)[0];
}

// The hidden tests' results, one line each, in words (never as HTML).
export function show(question, verdict, say, spec) {
  const list = question.querySelector("[data-zq-tests]");
  const output = question.querySelector("[data-zq-output]");
  if (output) {
    if (verdict && verdict.output) output.textContent = describeOutput(verdict, say);
    // A check stopped by its time limit or Python unavailable (nothing printed is known), or an answer edited
    // while it was being checked: no "Checking…" left behind.
    else if (output.textContent === say("checking")) output.textContent = "";
  }
  if (!list) return;
  list.replaceChildren();
  if (!verdict) return;
  const lines = [];
  const timedOutTest = verdict.timeout && typeof verdict.timed_out === "number" ? verdict.timed_out : null;
  if (verdict.timeout && timedOutTest === null) lines.push(["wrong", say("stopped_after", { seconds: verdict.timeout })]);
  if (verdict.error) lines.push(["wrong", describeError(verdict.error, say)]);
  // The page's language, as the checker's message is chosen by (zadachnik.js, questionMessage).
  const lang = say.conventions?.lang;
  for (const [index, test] of (verdict.tests || []).entries()) {
    const message = testMessage(spec, index, lang) ?? test.message;
    const text = test.error ? `${message} — ${describeError(test.error, say)}` : message;
    lines.push([test.passed ? "correct" : "wrong", `${test.passed ? "✓" : "✗"} ${text}`]);
  }
  if (timedOutTest !== null) {
    // The test that ran out of time, with the author's message for it (often the hint the learner needs).
    const message = testMessage(spec, timedOutTest, lang) || `#${timedOutTest + 1}`;
    lines.push(["wrong", `✗ ${say("test_line_timed_out", { message, seconds: verdict.timeout })}`]);
  }
  for (const [status, text] of lines) {
    const item = document.createElement("li");
    item.dataset.zqStatus = status;
    item.textContent = text;
    list.append(item);
  }
}

// What is wrong with a saved answer's shape ({field, expected}), or null: saved answers come from storage and
// imported files, so they are checked before restore() trusts them.
export function answerProblem(answer) {
  const code = answer && answer.code;
  return code === undefined || typeof code === "string" ? null : { field: "answer.code", expected: "text" };
}

// Every page that loads this module grades its questions with it (grading.js).
register(thisType);
