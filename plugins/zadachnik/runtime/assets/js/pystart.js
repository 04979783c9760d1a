// The start of a Python worker, apart from the rest of python.js: a page that will need Python asks for its worker
// as soon as its script runs (pyclient.js), and python.js, loaded meanwhile, takes the worker over. Over http a
// module worker; opened from disk, a Blob worker made from the offline copy's embedded Pyodide.

const WORKER_URL = new URL("./python-worker.js", import.meta.url);
const EMBED_URL = new URL("../pyodide-embed.js", import.meta.url);

export function newSecret() {
  return Array.from(crypto.getRandomValues(new Uint32Array(4)), (part) => part.toString(36)).join("-");
}

// A first worker (no snapshot of the page's yet), started before python.js has loaded. Whatever it says before
// python.js listens is kept: `takeHeard()` hands it over, in order, and stops keeping.
export function startEarly() {
  const early = { secret: newSecret(), asked: performance.now(), heard: [], takeHeard: () => [] };
  early.worker = spawn(early.secret, null).then((worker) => {
    const keep = (event) => {
      // An error said now is python.js's to handle when it hears it, not the console's.
      if (event.type === "error") event.preventDefault();
      early.heard.push(event);
    };
    worker.addEventListener("message", keep);
    worker.addEventListener("error", keep);
    early.takeHeard = () => {
      worker.removeEventListener("message", keep);
      worker.removeEventListener("error", keep);
      return early.heard.splice(0);
    };
    return worker;
  });
  // A failed start is python.js's to tell, once it has loaded, not an unhandled rejection meanwhile.
  early.worker.catch(() => {});
  return early;
}

// `snapshot`: the page's copy of a memory snapshot ({key, bytes, engine}: engine is Pyodide's compiled
// WebAssembly) or null; the worker gets a copy, the page keeps it.
export async function spawn(secret, snapshot) {
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
