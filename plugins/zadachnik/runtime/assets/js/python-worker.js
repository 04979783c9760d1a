// Pyodide in a worker: runs learners' code, hidden tests and authors' checkers with the same pyrunner.py the
// build uses in CPython. The page terminates this worker when a job runs past its time limit.
//
// One text for both ways the worker starts. Over http it is a module worker that imports Pyodide and fetches
// the two Python files; in the offline copy (offline.py) it follows Pyodide's classic loader and engine in a
// Blob worker, and Pyodide's bytes and the Python files arrive in the start message. So it has no import or
// export statements, and everything else (start-up, the request loop, the output cap) exists only here.
//
// After its first normal start the worker takes a memory snapshot of Python (pyrunner imported) and keeps it in
// Cache Storage, or IndexedDB where there is none, and hands a copy to the page: later pages restore it instead
// of starting Python anew, and so does the page's next worker after a time limit. Any trouble with a snapshot
// means a normal start, said only in the console.
//
// Anything on this origin can store bytes under a snapshot's key (another page of a shared origin, an extension,
// devtools), and a snapshot made from a changed runner would judge every later visit's answers its own way. So
// the Python a snapshot is taken of keeps the text of the runner's files it imported, and a restored one is used
// only if that is the text of the files this site serves; otherwise it is dropped. This refuses any snapshot
// made from other runner files; it can't refuse one crafted to pass the comparison (nothing a browser keeps can).
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

  // What the worker does before it takes a snapshot: change this when that changes, so no snapshot made the old
  // way is restored. Pyodide's version and the runner's files are part of each snapshot's key too.
  const SNAPSHOT_LAYOUT = 2;
  const SNAPSHOTS = "zadachnik-python";
  const CHECKSUM_HEADER = "x-zadachnik-checksum";
  const SIZE_HEADER = "x-zadachnik-size";

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
    // Pyodide's loader and the Python files, all asked for at once.
    const loader = import(new URL("../pyodide/pyodide.mjs", here).href).catch((error) => {
      throw new StartFailure("files", `Pyodide did not load: ${error}`);
    });
    const texts = PYTHON_FILES.map(async (name) => {
      const url = new URL(`../py/${name}`, here).href;
      const response = await fetch(url).catch(() => null);
      if (!response || !response.ok) throw new StartFailure("files", `${url} did not load`);
      return [name, await response.text()];
    });
    const [{ loadPyodide, version }, files] = await Promise.all([loader, Promise.all(texts)]);
    // Snapshots of this site's Python are kept under its own Pyodide folder (never fetched from there).
    const scope = new URL("../pyodide/", here).href;
    return { files: Object.fromEntries(files), version, scope, load: (options) => loadPyodide(options) };
  }

  function decode(text) {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
    return bytes;
  }

  // The offline copy: loadPyodide and _createPyodideModule are defined by the scripts before this one.
  /* global loadPyodide, _createPyodideModule */
  function fromMemory(embed) {
    const stdlib = decode(embed.stdlib);
    const realFetch = self.fetch.bind(self);
    // Decoded only if read: a restart with the page's compiled engine (useEngine) never reads it.
    const wasm = () => new ReadableStream({
      pull(controller) {
        controller.enqueue(decode(embed.wasm));
        controller.close();
      },
    });
    self.fetch = (url, init) => String(url).endsWith(".wasm")
      ? Promise.resolve(new Response(wasm(), { headers: { "Content-Type": "application/wasm" } }))
      : realFetch(url, init);
    return {
      files: embed.files,
      version: embed.version,
      // Cache Storage keys are http(s) addresses: a made-up one, shared by the offline copies on this disk.
      scope: "https://offline.zadachnik.invalid/pyodide/",
      load: (options) => loadPyodide({
        ...options, indexURL: embed.indexURL, lockFileContents: embed.lock, createPyodideModule: _createPyodideModule,
        stdLibURL: URL.createObjectURL(new Blob([stdlib], { type: "application/zip" })),
      }),
    };
  }

  // A 64-bit checksum (two 32-bit lanes over the bytes' words): enough to tell a spoilt or cut stored snapshot,
  // in about the time of one copy of it, and the same everywhere (crypto.subtle is missing on plain http).
  function checksum(bytes) {
    const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
    const words = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength >>> 2);
    let first = 0x811c9dc5 ^ aligned.byteLength;
    let second = 0x9e3779b9;
    for (let index = 0; index < words.length; index += 1) {
      const word = words[index];
      first = Math.imul(first ^ word, 0x01000193);
      second = Math.imul((second + word) | 0, 0x85ebca6b) ^ (second >>> 13);
    }
    for (let index = words.length * 4; index < aligned.byteLength; index += 1) {
      first = Math.imul(first ^ aligned[index], 0x01000193);
    }
    return (first >>> 0).toString(16).padStart(8, "0") + (second >>> 0).toString(16).padStart(8, "0");
  }

  function snapshotKey(source) {
    const text = stringify([SNAPSHOT_LAYOUT, source.version, Object.entries(source.files)]);
    return `${source.version}-${checksum(new TextEncoder().encode(text))}`;
  }

  // Where snapshots are kept between pages, the first that works: each entry is the snapshot's bytes, their
  // checksum and size, under "<scope>snapshot-<key>"; writing one removes the scope's others (an old runner's).
  const cacheStorage = {
    name: "cache",
    // The body is read later, while Pyodide loads its engine.
    async find(entry) {
      const response = await (await caches.open(SNAPSHOTS)).match(entry);
      if (!response) return null;
      return { bytes: response.arrayBuffer().then((buffer) => new Uint8Array(buffer)),
        checksum: response.headers.get(CHECKSUM_HEADER), size: Number(response.headers.get(SIZE_HEADER)) };
    },
    async write(entry, scope, bytes, sum) {
      const response = new Response(bytes, { headers: { "Content-Type": "application/octet-stream",
        [CHECKSUM_HEADER]: sum, [SIZE_HEADER]: String(bytes.length) } });
      const cache = await caches.open(SNAPSHOTS);
      await cache.put(entry, response);
      for (const request of await cache.keys()) {
        if (request.url.startsWith(`${scope}snapshot-`) && request.url !== entry) await cache.delete(request);
      }
    },
    async drop(entry) {
      await (await caches.open(SNAPSHOTS)).delete(entry);
    },
  };

  function settled(asked) {
    return new Promise((resolve, reject) => {
      asked.onsuccess = () => resolve(asked.result);
      asked.onerror = () => reject(asked.error);
    });
  }

  async function snapshotStore(mode) {
    const opening = indexedDB.open(SNAPSHOTS, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("snapshots");
    const database = await settled(opening);
    return database.transaction("snapshots", mode).objectStore("snapshots");
  }

  const indexedDb = {
    name: "indexeddb",
    async find(entry) {
      return (await settled((await snapshotStore("readonly")).get(entry))) || null;
    },
    async write(entry, scope, bytes, sum) {
      const store = await snapshotStore("readwrite");
      for (const key of await settled(store.getAllKeys())) {
        if (String(key).startsWith(`${scope}snapshot-`) && key !== entry) store.delete(key);
      }
      await settled(store.put({ bytes, checksum: sum, size: bytes.length }, entry));
    },
    async drop(entry) {
      await settled((await snapshotStore("readwrite")).delete(entry));
    },
  };

  function usable(store) {
    return store === cacheStorage ? typeof caches === "object" && caches !== null : typeof indexedDB === "object";
  }

  // The stored snapshot for `entry`, or null: {store, bytes}, where `bytes` is a promise that fails for a spoilt
  // or cut entry (its restore then fails, and the entry is dropped).
  async function findStored(entry) {
    for (const store of [cacheStorage, indexedDb].filter(usable)) {
      let found;
      try {
        found = await store.find(entry);
      } catch {
        continue;  // this store does not work here (an opaque origin, storage turned off): the next one
      }
      if (!found) continue;
      const bytes = Promise.resolve(found.bytes).then((read) => {
        if (!(read instanceof Uint8Array) || read.length !== found.size || checksum(read) !== found.checksum) {
          throw new Error(`the snapshot kept in ${store.name} is spoilt`);
        }
        return read;
      });
      bytes.catch(() => {});  // the restore hears of a spoilt entry, not the console as an unhandled rejection
      return { store, bytes };
    }
    return null;
  }

  async function keep(entry, scope, bytes) {
    const sum = checksum(bytes);
    for (const store of [cacheStorage, indexedDb].filter(usable)) {
      try {
        await store.write(entry, scope, bytes, sum);
        return store.name;
      } catch (error) {
        console.info(`Zadachnik: the Python snapshot could not be kept in ${store.name}:`, String(error));
      }
    }
    return "memory";
  }

  function writeFiles(pyodide, files) {
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
  }

  const IMPORT_RUNNER = `import sys\nif '${HOME}' not in sys.path: sys.path.insert(0, '${HOME}')\n`
    + "import zadachnik.python.pyrunner\n";
  // What a snapshot's Python keeps of the runner files it imported (`zadachnik.__made_from__`), and what a restored
  // one must hold: their names and texts. Their code compiled again in the restored Python was tried too: it took
  // 0.3-1 s of a restore on a loaded 2-core machine, this a few ms.
  function madeFrom(source) {
    return stringify(Object.entries(source.files));
  }

  async function load(source, options) {
    try {
      return await source.load(options);
    } catch (error) {
      const reason = error instanceof WebAssembly.CompileError ? "no_wasm" : "files";
      throw new StartFailure(reason, `Pyodide did not start: ${error}`);
    }
  }

  // What the snapshot's Python says it was made from is only its word: a planted one could say anything. So a
  // restored runner must also grade two answers whose verdicts this worker knows, drawn afresh each time so no
  // fixed request can be recognised: one right, one wrong. A runner that calls everything right (or wrong) fails.
  function gradesHonestly(pyodide) {
    const grade = pyodide.runPython(`${IMPORT_RUNNER}zadachnik.python.pyrunner.handle`);
    try {
      const key = 1 + Math.floor(Math.random() * 1e9);
      const source = `def check(answer):\n    return answer.get("n") == ${key}\n`;
      const verdict = (given) => parse(grade("checker", stringify({ source, answer: { n: given }, lang: "en" }))).status;
      return verdict(key) === "correct" && verdict(key + 1 + Math.floor(Math.random() * 1e6)) === "wrong";
    } finally {
      grade.destroy();
    }
  }

  // Python from `snapshot` ({bytes, from, store}, bytes perhaps a promise); null when it does not restore or
  // is not of this site's runner (a normal start follows). One of another runner is dropped from `store` at once.
  async function restore(source, snapshot, entry) {
    let pyodide;
    try {
      pyodide = await source.load({ _loadSnapshot: snapshot.bytes });
      writeFiles(pyodide, source.files);
    } catch (error) {
      console.info("Zadachnik: the Python snapshot did not restore; Python starts normally.", String(error));
      return null;
    }
    try {
      const runnerPackage = pyodide.pyimport("zadachnik");
      const same = runnerPackage.__made_from__ === madeFrom(source) && gradesHonestly(pyodide);
      runnerPackage.destroy();
      if (same) {
        // A snapshot freezes the state of `random` (imported before it was taken): each restore draws afresh.
        pyodide.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()\n");
        return pyodide;
      }
    } catch {
      // a Python that can't even compare is not of this site's runner either
    }
    console.info("Zadachnik: the Python snapshot was not made from this site's runner; it is dropped and Python "
      + "starts normally.");
    if (snapshot.store) await snapshot.store.drop(entry).catch(() => {});
    return null;
  }

  // A normal start, and the snapshot taken right after it (null when none can be restored later).
  async function fresh(source) {
    const pyodide = await load(source, { _makeSnapshot: true });
    const heap = pyodide._module.HEAP8.length;
    writeFiles(pyodide, source.files);
    pyodide.runPython(IMPORT_RUNNER);
    const runnerPackage = pyodide.pyimport("zadachnik");
    runnerPackage.__made_from__ = madeFrom(source);
    runnerPackage.destroy();
    // Pyodide restores a snapshot only into the heap a new Python starts with (30 MiB): what is imported before
    // the snapshot must fit in it.
    if (pyodide._module.HEAP8.length > heap) {
      console.info("Zadachnik: no Python snapshot: the runner grew the heap past what a snapshot restores into.");
      return { pyodide, snapshot: null };
    }
    try {
      return { pyodide, snapshot: pyodide.makeMemorySnapshot() };
    } catch (error) {
      console.info("Zadachnik: no Python snapshot could be taken.", String(error));
      return { pyodide, snapshot: null };
    }
  }

  // Pyodide's engine compiled (a WebAssembly.Module): the page keeps it with its snapshot and hands both to its
  // next worker, which then does not compile 9 MB of WebAssembly again (the offline copy has no HTTP cache to
  // keep it compiled). Pyodide instantiates its engine with WebAssembly.instantiateStreaming: that call is
  // answered from the module given, or, failing that, as usual.
  let compiled = null;

  function useEngine(engine) {
    const streaming = WebAssembly.instantiateStreaming;
    if (typeof streaming !== "function") return;
    WebAssembly.instantiateStreaming = async (response, imports) => {
      if (engine instanceof WebAssembly.Module) {
        try {
          return { instance: await WebAssembly.instantiate(engine, imports), module: engine };
        } catch {
          engine = null;
        }
      }
      const result = await streaming(response, imports);
      compiled = result.module;
      return result;
    };
  }

  async function boot(start) {
    if (typeof WebAssembly !== "object") throw new StartFailure("no_wasm", "WebAssembly is not available");
    const source = start.embed ? fromMemory(start.embed) : await fromServer();
    const key = snapshotKey(source);
    const entry = `${source.scope}snapshot-${key}`;
    // The page's copy (a restart) if it is this runner's, else a stored one.
    const ours = start.snapshot && start.snapshot.key === key ? start.snapshot : null;
    useEngine(ours && ours.engine);
    let snapshot = ours ? { bytes: ours.bytes, from: "memory" } : null;
    if (!snapshot) {
      const stored = await findStored(entry);
      if (stored) snapshot = { bytes: stored.bytes, from: stored.store.name, store: stored.store };
    }
    let pyodide = snapshot ? await restore(source, snapshot, entry) : null;
    if (pyodide) snapshot.bytes = await snapshot.bytes;
    let started = snapshot && pyodide ? snapshot.from : "fresh";
    let made = null;
    if (!pyodide) {
      // The page tells the learner that this start takes long (several seconds to half a minute) and later
      // pages' are short: they restore the snapshot this one makes.
      send({ starting: "fresh" });
      // A stored snapshot that did not restore is replaced by the one this start makes, or dropped: but only once
      // a normal start works, for if Pyodide's own files are missing the snapshot may be fine.
      ({ pyodide, snapshot: made } = await fresh(source));
      if (snapshot && snapshot.store && !made) await snapshot.store.drop(entry).catch(() => {});
      started = "fresh";
    }
    // pyrunner collects what the code prints; anything written past it (os.write, sys.__stdout__) is
    // dropped here rather than flooding the console, and reading input ends at once instead of waiting.
    pyodide.setStdout({ batched: () => {} });
    pyodide.setStderr({ batched: () => {} });
    pyodide.setStdin({ error: true });
    // Held here, so code that replaces names inside Pyodide's JavaScript API cannot swap the runner.
    handle = pyodide.runPython(`${IMPORT_RUNNER}zadachnik.python.pyrunner.handle`);
    // What the page keeps for its next worker: a snapshot just made, or one read from storage.
    const kept = made || (started !== "fresh" && started !== "memory" ? snapshot.bytes : null);
    return { started, key, entry, scope: source.scope, made, kept };
  }

  // After `ready`: the page gets its copy, and a snapshot just made is stored for later pages.
  async function share(booted) {
    if (booted.kept) {
      try {
        send({ snapshot: { key: booted.key, bytes: booted.kept, engine: compiled } });
      } catch {
        // A browser that cannot hand a compiled WebAssembly module to the page: the snapshot alone still helps.
        send({ snapshot: { key: booted.key, bytes: booted.kept, engine: null } });
      }
    }
    let where = "none";
    if (booted.made) where = await keep(booted.entry, booted.scope, booted.made);
    else if (booted.started !== "fresh") where = booted.started;
    send({ kept: where });
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
      const asked = performance.now();
      boot(data.start).then((booted) => {
        send({ ready: true, started: booted.started, ms: Math.round(performance.now() - asked) });
        for (const job of waiting.splice(0)) run(job);
        share(booted).catch((error) => console.info("Zadachnik: the Python snapshot was not kept.", String(error)));
      }, (error) => send({ failed: { reason: error.reason || "crashed", detail: String(error.message || error) } }));
    } else if (handle) {
      run(data);
    } else {
      waiting.push(data);
    }
  });
})();
