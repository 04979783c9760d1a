// Python for the page: the worker manager is loaded only on pages that have Python, so other pages never
// request it or Pyodide.
import { startEarly } from "./pystart.js";

const CHECKER_TIME_LIMIT = 5;
let loading = null;

// One Python for the page, however many callers ask at once; each `onState` hears every state change (a
// page put back after a reset or an import listens again). The first call starts the worker at once, while
// python.js loads: Python's start is the longest part of a first check.
export async function startPython(onState) {
  if (!loading) {
    const early = startEarly();
    loading = (async () => {
      try {
        const { Python } = await import("./python.js");
        return new Python(early);
      } catch (error) {
        early.worker.then((worker) => worker.terminate(), () => {});
        throw error;
      }
    })();
  }
  const python = await loading;
  if (onState) python.listen(onState);
  return python;
}

// After Python failed to start, each question that needs it offers this: start it again, then `action`.
export function retryButton(say, action = () => {}) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "md-button zq-retry";
  button.textContent = say("python_retry");
  button.addEventListener("click", async () => {
    button.remove();
    (await startPython()).retry();
    action();
  }, { once: true });
  return button;
}

export async function gradeWithPython(spec, answer, lang, conventions = null) {
  const runner = await startPython();
  if (spec.type === "code") {
    const request = { code: answer.code || "", tests: spec.tests, lang, time_limit: spec.time_limit };
    const verdict = await runner.call("check", request, spec.time_limit);
    // What the check printed is shown in the Output area but not saved with the verdict.
    const { output } = verdict;
    delete verdict.output;
    if (Array.isArray(output)) Object.defineProperty(verdict, "output", { value: output, enumerable: false });
    return verdict;
  }
  // The page's number conventions: the checker reads fields as the page and the build's check do.
  return runner.call("checker", { source: spec.check, answer, lang, conventions }, CHECKER_TIME_LIMIT);
}

export async function runCode(spec, code) {
  const runner = await startPython();
  return runner.call("run", { code }, spec.time_limit);
}

const ERROR_WORDS = { exit: "error_exit", no_input: "error_no_input", bad_verdict: "error_bad_verdict",
  crashed: "error_crashed" };

// An error from pyrunner in words, with the line of the learner's code it happened on.
export function describeError(error, say) {
  const where = error.lines && error.lines.length ? say("error_line", { line: error.lines[error.lines.length - 1] }) : "";
  if (ERROR_WORDS[error.code]) {
    return say(ERROR_WORDS[error.code], { status: error.exit_status ?? 0, returned: error.returned ?? "" }) + where;
  }
  return `${error.type ? `${error.type}: ${error.message}` : error.text}${where}`;
}
