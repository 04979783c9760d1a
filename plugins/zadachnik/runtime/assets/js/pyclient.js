// Python for the page: the worker manager is loaded only on pages that have Python, so other pages never
// request it or Pyodide. Workers are started here: the first one while python.js loads, which then takes it over.

const CHECKER_TIME_LIMIT = 5;
let loading = null;

// One Python for the page, however many callers ask at once; each `onState` hears every state change (a
// page put back after a reset or an import listens again). The first call starts the worker at once, while
// python.js loads: Python's start is the longest part of a first check.
export async function startPython(onState) {
  if (!loading) {
    const early = launch(null);
    loading = (async () => {
      try {
        const { Python } = await import("./python.js");
        return new Python(early, launch);
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
  // A stored verdict's code may be any word (toString…): only the table's own entries are words to say.
  if (typeof error.code === "string" && Object.hasOwn(ERROR_WORDS, error.code)) {
    return say(ERROR_WORDS[error.code], { status: error.exit_status ?? 0, returned: error.returned ?? "" }) + where;
  }
  return `${error.type ? `${error.type}: ${error.message}` : error.text}${where}`;
}

const WORKER_URL = new URL("./python-worker.js", import.meta.url);
const EMBED_URL = new URL("../pyodide-embed.js", import.meta.url);

function newSecret() {
  return Array.from(crypto.getRandomValues(new Uint32Array(4)), (part) => part.toString(36)).join("-");
}

// A worker starting Python, from `snapshot` (the page's copy of a memory snapshot) or afresh: {secret, asked,
// worker (a promise of it), takeHeard}. The first starts before python.js has loaded: whatever a worker says
// before python.js listens is kept, and `takeHeard()` hands it over, in order, and stops keeping.
function launch(snapshot) {
  const launched = { secret: newSecret(), asked: performance.now(), heard: [], takeHeard: () => [] };
  launched.worker = spawn(launched.secret, snapshot).then((worker) => {
    const keep = (event) => {
      // An error said now is python.js's to handle when it hears it, not the console's.
      if (event.type === "error") event.preventDefault();
      launched.heard.push(event);
    };
    worker.addEventListener("message", keep);
    worker.addEventListener("error", keep);
    launched.takeHeard = () => {
      worker.removeEventListener("message", keep);
      worker.removeEventListener("error", keep);
      return launched.heard.splice(0);
    };
    return worker;
  });
  // A failed start is python.js's to tell, once it has loaded, not an unhandled rejection meanwhile.
  launched.worker.catch(() => {});
  return launched;
}

// `snapshot`: the page's copy of a memory snapshot ({key, bytes, engine}: engine is Pyodide's compiled
// WebAssembly) or null; the worker gets a copy, the page keeps it.
async function spawn(secret, snapshot) {
  // The offline copy's one-script runtime (see bundle.py) always takes Pyodide from its embedded copy.
  if (location.protocol === "file:" || typeof __zqOfflineCopy !== "undefined") {
    const embed = await loadEmbed();
    // A real thread, even where mkdocs-material's offline search has replaced window.Worker (native-worker.js).
    const RealWorker = window.__zqNativeWorker || Worker;
    const worker = new RealWorker(URL.createObjectURL(new Blob([embed.worker], { type: "text/javascript" })));
    const { wasm, stdlib, lock, files, indexURL } = embed;
    const { version } = embed;
    worker.postMessage({ start: { secret, snapshot, embed: { wasm, stdlib, lock, files, indexURL, version } } });
    return worker;
  }
  const worker = new Worker(WORKER_URL, { type: "module" });
  worker.postMessage({ start: { secret, snapshot } });
  return worker;
}

let embedLoading = null;

// Opened from disk, browsers refuse module workers and fetch(): the offline build embeds Pyodide in a classic
// script, whose worker code becomes a Blob worker and whose bytes are handed over by message.
function loadEmbed() {
  if (!embedLoading) {
    embedLoading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = EMBED_URL.href;
      script.onload = () => resolve(window.__zqPyodideEmbed);
      script.onerror = () => {
        // A retry loads the script again.
        embedLoading = null;
        script.remove();
        reject(new Error("Python is not part of this offline copy"));
      };
      document.head.append(script);
    });
  }
  return embedLoading;
}
