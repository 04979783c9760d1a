// Python for the page: the worker manager is loaded only on pages that have Python, so other pages never
// request it or Pyodide.

const CHECKER_TIME_LIMIT = 5;
let python = null;

export async function startPython(onState) {
  if (!python) {
    const { Python } = await import("./python.js");
    python = new Python(onState);
  }
  return python;
}

export async function gradeWithPython(spec, answer, lang) {
  const runner = await startPython();
  if (spec.type === "code") {
    return runner.call("check", { code: answer.code || "", tests: spec.tests, lang }, spec.time_limit);
  }
  return runner.call("checker", { source: spec.check, answer, lang }, CHECKER_TIME_LIMIT);
}

export async function runCode(spec, code) {
  const runner = await startPython();
  return runner.call("run", { code }, spec.time_limit);
}
