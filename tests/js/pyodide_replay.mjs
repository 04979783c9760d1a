// The learners' Python under Node, for tests/python/test_pyodide_agreement.py: the vendored Pyodide with the runner's
// files written where the browser's worker writes them (python-worker.js), and pyrunner's `handle` called as the
// worker calls it. The build's runs are replayed through it, to catch what Pyodide's Python decides otherwise.
//
//   node tests/js/pyodide_replay.mjs PYODIDE_DIR PACKAGE_DIR FILE...
//
// FILE: the runner's modules as the site ships them, relative to PACKAGE_DIR (core/numbers.py,
// python/pyrunner.py). Then one JSON request a line on stdin, {"kind", "request"}; on stdout one JSON line
// first, {"ready", "python", "pyodide"}, then one a request, {"reply": {"result", "events"}}, or
// {"reply": {"fatal"}} after which the process ends (Python can't be used again, as in the worker).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const HOME = "/home/pyodide";
const [pyodideDir, packageDir, ...files] = process.argv.slice(2);

function say(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

// As the worker's writeFiles: the package and each module's folder a package of its own.
function writeFiles(pyodide) {
  pyodide.FS.mkdirTree(`${HOME}/zadachnik`);
  pyodide.FS.writeFile(`${HOME}/zadachnik/__init__.py`, "");
  for (const name of files) {
    const folder = name.split("/").slice(0, -1).join("/");
    if (folder) {
      pyodide.FS.mkdirTree(`${HOME}/zadachnik/${folder}`);
      pyodide.FS.writeFile(`${HOME}/zadachnik/${folder}/__init__.py`, "");
    }
    pyodide.FS.writeFile(`${HOME}/zadachnik/${name}`, readFileSync(join(packageDir, name), "utf8"));
  }
}

const { loadPyodide, version } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
writeFiles(pyodide);
// What the code prints past pyrunner's own capture is dropped, as in the worker, and never garbles these lines.
pyodide.setStdout({ batched: () => {} });
pyodide.setStderr({ batched: () => {} });
pyodide.setStdin({ error: true });
const handle = pyodide.runPython(`import sys\nif '${HOME}' not in sys.path: sys.path.insert(0, '${HOME}')\n`
  + "import zadachnik.python.pyrunner\nzadachnik.python.pyrunner.handle");
say({ ready: true, python: pyodide.runPython("import sys; sys.version.split()[0]"), pyodide: version });

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const { kind, request } = JSON.parse(line);
  const events = [];
  try {
    const result = JSON.parse(String(handle(kind, JSON.stringify(request), (event) => events.push(JSON.parse(event)))));
    say({ reply: { result, events } });
  } catch (error) {
    if (error && error.pyodide_fatal_error) {
      say({ reply: { fatal: String(error).trim().split("\n").pop() } });
      process.exit(0);
    }
    // What the worker reports as an unreadable result.
    say({ reply: { result: { status: "unreadable", error: { text: String(error).trim().split("\n").pop() } },
      events } });
  }
}
