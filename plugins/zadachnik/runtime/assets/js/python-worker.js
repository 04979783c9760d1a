// Pyodide in a worker: runs learners' code, hidden tests and authors' checkers with the same pyrunner.py the
// build uses in CPython. The page terminates this worker when a job runs past its time limit.
//
// One text for both ways the worker starts. Over http it is a module worker that imports Pyodide and fetches
// the two Python files; in the offline copy (offline.py) it follows Pyodide's classic loader and engine in a
// Blob worker, and Pyodide's bytes and the Python files arrive in the start message. So it has no import or
// export statements, and everything else (start-up, the request loop, the output cap) exists only here.
(() => {
  "use strict";

  // Learner code reaches this global scope through Python's `js` module: what the worker relies on is taken
  // before any of it runs, and the page's secret lives only in this closure. The page ignores any message
  // without the secret, so code that calls js.postMessage (or replaces postMessage, JSON or String) cannot
  // forge a verdict. This is for self-study honesty, not a sandbox: code sharing the interpreter with the
  // hidden tests can always find a way to fool them.
  const post = self.postMessage.bind(self);
  const listen = self.addEventListener.bind(self);
  const { parse, stringify } = JSON;
  const asString = String;
  const PYTHON_FILES = ["core/numbers.py", "python/pyrunner.py"];
  const HOME = "/home/pyodide";
  // Nothing longer reaches the page (a renderer handed hundreds of megabytes crashes). Output has the cap
  // pyrunner applies itself (OUTPUT_LIMIT); this also covers error messages and whatever else it does not cap.
  const MAX_OUTPUT_CHARS = 20_000;
  const MAX_TEXT_CHARS = 2_000;
  // A result's JSON may be longer than its text (escapes): only beyond this is it read and cut.
  const MAX_RESULT_JSON = 8 * MAX_OUTPUT_CHARS;

  let secret = null;
  let handle = null;
  let dead = false;
  let busy = false;
  const waiting = [];

  class StartFailure extends Error {
    constructor(reason, detail) {
      super(detail);
      this.reason = reason;
    }
  }

  function send(message) {
    post({ ...message, secret });
  }

  async function fromServer() {
    const here = self.location.href;
    let loadPyodide;
    try {
      ({ loadPyodide } = await import(new URL("../pyodide/pyodide.mjs", here).href));
    } catch (error) {
      throw new StartFailure("files", `Pyodide did not load: ${error}`);
    }
    const files = {};
    for (const name of PYTHON_FILES) {
      const url = new URL(`../py/${name}`, here).href;
      const response = await fetch(url).catch(() => null);
      if (!response || !response.ok) throw new StartFailure("files", `${url} did not load`);
      files[name] = await response.text();
    }
    return { files, load: () => loadPyodide() };
  }

  function decode(text) {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
    return bytes;
  }

  // The offline copy: loadPyodide and _createPyodideModule are defined by the scripts before this one.
  function fromMemory(embed) {
    const wasm = decode(embed.wasm);
    const stdlib = decode(embed.stdlib);
    const realFetch = self.fetch.bind(self);
    self.fetch = (url, init) => String(url).endsWith(".wasm")
      ? Promise.resolve(new Response(wasm, { headers: { "Content-Type": "application/wasm" } }))
      : realFetch(url, init);
    return {
      files: embed.files,
      load: () => loadPyodide({
        indexURL: embed.indexURL, lockFileContents: embed.lock, createPyodideModule: _createPyodideModule,
        stdLibURL: URL.createObjectURL(new Blob([stdlib], { type: "application/zip" })),
      }),
    };
  }

  async function boot(start) {
    if (typeof WebAssembly !== "object") throw new StartFailure("no_wasm", "WebAssembly is not available");
    const { files, load } = start.embed ? fromMemory(start.embed) : await fromServer();
    let pyodide;
    try {
      pyodide = await load();
    } catch (error) {
      const reason = error instanceof WebAssembly.CompileError ? "no_wasm" : "files";
      throw new StartFailure(reason, `Pyodide did not start: ${error}`);
    }
    // pyrunner collects what the code prints; anything written past it (os.write, sys.__stdout__) is
    // dropped here rather than flooding the console, and reading input ends at once instead of waiting.
    pyodide.setStdout({ batched: () => {} });
    pyodide.setStderr({ batched: () => {} });
    pyodide.setStdin({ error: true });
    pyodide.FS.mkdirTree(`${HOME}/zadachnik`);
    pyodide.FS.writeFile(`${HOME}/zadachnik/__init__.py`, "");
    for (const [name, text] of Object.entries(files)) {
      // The modules keep their places in the package (core/numbers.py, python/pyrunner.py), each folder a package.
      const folder = name.split("/").slice(0, -1).join("/");
      if (folder) {
        pyodide.FS.mkdirTree(`${HOME}/zadachnik/${folder}`);
        pyodide.FS.writeFile(`${HOME}/zadachnik/${folder}/__init__.py`, "");
      }
      pyodide.FS.writeFile(`${HOME}/zadachnik/${name}`, text);
    }
    // Held here, so code that replaces names inside Pyodide's JavaScript API cannot swap the runner.
    handle = pyodide.runPython(`import sys; sys.path.insert(0, '${HOME}')\nimport zadachnik.python.pyrunner\n`
      + "zadachnik.python.pyrunner.handle");
  }

  function clip(text, limit) {
    return text.length > limit ? `${text.slice(0, limit)}…` : text;
  }

  // JSON from pyrunner at most `limit` long: its output cut to MAX_OUTPUT_CHARS, every other text to
  // MAX_TEXT_CHARS (pyrunner caps output itself; this also covers error messages and test messages).
  function capped(json, limit) {
    if (json.length <= limit) return json;
    let value;
    try {
      value = parse(json);
    } catch {
      return stringify({ status: "unreadable", error: { text: "the result was too long to show" } });
    }
    if (Array.isArray(value.output)) {
      let room = MAX_OUTPUT_CHARS;
      const output = [];
      for (const chunk of value.output) {
        const text = asString(chunk.text);
        if (room <= 0) break;
        output.push({ stream: chunk.stream, text: text.slice(0, room) });
        room -= text.length;
      }
      if (room < 0) value.truncated = true;
      value.output = output;
    }
    const shorten = (item, key) => {
      if (key === "output") return item;
      if (typeof item === "string") return clip(item, MAX_TEXT_CHARS);
      if (Array.isArray(item)) return item.map((element) => shorten(element, null));
      if (item && typeof item === "object") {
        return Object.fromEntries(Object.entries(item).map(([name, element]) => [name, shorten(element, name)]));
      }
      return item;
    };
    return stringify(shorten(value, null));
  }

  function lastLine(error) {
    return clip(asString(error).trim().split("\n").pop(), MAX_TEXT_CHARS);
  }

  function run(job) {
    // A job is never started from inside another one (learner code calling back into this scope).
    if (dead || busy) return;
    busy = true;
    try {
      runNow(job);
    } finally {
      busy = false;
    }
  }

  function runNow(job) {
    const report = (event) => send({ id: job.id, report: capped(asString(event), MAX_TEXT_CHARS) });
    let result;
    try {
      result = asString(handle(job.kind, stringify(job.request), report));
    } catch (error) {
      if (error && error.pyodide_fatal_error) {
        // os._exit() or a crash inside Pyodide: this runtime can't be used again, the page starts another.
        dead = true;
        const exited = typeof error.status === "number";
        send({ id: job.id, fatal: { exit: exited, exit_status: exited ? error.status : null, text: lastLine(error) } });
        return;
      }
      result = stringify({ status: "unreadable", error: { text: lastLine(error) } });
    }
    send({ id: job.id, result: capped(result, MAX_RESULT_JSON) });
  }

  // Only the page's own messages: learner code could dispatch a made-up message event to this scope.
  listen("message", ({ data, isTrusted }) => {
    if (!isTrusted) return;
    if (data && data.start) {
      if (secret !== null) return;
      secret = data.start.secret;
      boot(data.start).then(() => {
        send({ ready: true });
        for (const job of waiting.splice(0)) run(job);
      }, (error) => send({ failed: { reason: error.reason || "crashed", detail: String(error.message || error) } }));
    } else if (handle) {
      run(data);
    } else {
      waiting.push(data);
    }
  });
})();
