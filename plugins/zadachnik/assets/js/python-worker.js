// Pyodide in a module worker: runs learners' code, hidden tests and authors' checkers with the same
// pyrunner.py the build uses in CPython. The page terminates this worker when a run exceeds its time limit.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const PYTHON_FILES = ["numbers.py", "pyrunner.py"];

async function boot() {
  const pyodide = await loadPyodide();
  const directory = "/home/pyodide/zadachnik";
  pyodide.FS.mkdirTree(directory);
  pyodide.FS.writeFile(`${directory}/__init__.py`, "");
  for (const name of PYTHON_FILES) {
    const response = await fetch(new URL(`../py/${name}`, import.meta.url));
    pyodide.FS.writeFile(`${directory}/${name}`, await response.text());
  }
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide'); import zadachnik.pyrunner");
  return pyodide;
}

const ready = boot();
ready.then(() => postMessage({ ready: true }), (error) => postMessage({ failed: String(error) }));

onmessage = async ({ data }) => {
  const pyodide = await ready;
  try {
    pyodide.globals.set("kind", data.kind);
    pyodide.globals.set("request", JSON.stringify(data.request));
    const result = JSON.parse(pyodide.runPython("zadachnik.pyrunner.handle(kind, request)"));
    postMessage({ id: data.id, result });
  } catch (error) {
    postMessage({ id: data.id, result: { status: "unreadable", error: { text: String(error).split("\n").pop() } } });
  }
};
