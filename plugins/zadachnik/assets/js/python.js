// The page's side of Python: one worker started as soon as a page with Python opens, jobs run one at a
// time, each with a time limit after which the worker is terminated and a fresh one started.

const WORKER_URL = new URL("./python-worker.js", import.meta.url);
const EMBED_URL = new URL("../pyodide-embed.js", import.meta.url);

export class Python {
  constructor(onState = () => {}) {
    this.onState = onState;
    this.queue = [];
    this.current = null;
    this.nextId = 1;
    this.start();
  }

  start() {
    this.ready = false;
    this.onState("starting");
    // The offline copy's one-script runtime (see bundle.py) always takes Pyodide from its embedded copy.
    const spawned = location.protocol === "file:" || typeof __zqOfflineCopy !== "undefined"
      ? embeddedWorker()
      : Promise.resolve(new Worker(WORKER_URL, { type: "module" }));
    this.worker = null;
    spawned.then((worker) => {
      this.worker = worker;
      worker.onmessage = ({ data }) => this.received(data);
      // A crashed worker is replaced; the job it was running gets an error, the queue goes on. A worker that
      // fails before it is ready would only fail again: Python is reported unavailable instead.
      worker.onerror = (event) => {
        event.preventDefault();
        const text = event.message || "the Python worker stopped";
        if (!this.ready) this.received({ failed: text });
        else this.restart({ status: "unreadable", error: { text } });
      };
    }, (error) => this.received({ failed: String(error) }));
  }

  restart(resultForCurrent) {
    if (this.worker) this.worker.terminate();
    const job = this.current;
    this.current = null;
    if (job) {
      clearTimeout(job.timer);
      job.resolve(resultForCurrent);
    }
    this.start();
  }

  received(data) {
    if (data.ready) {
      this.ready = true;
      this.onState("ready");
      this.next();
      return;
    }
    if (data.failed) {
      console.error("Zadachnik: Python could not start:", data.failed);
      if (this.worker) this.worker.terminate();
      this.onState("failed");
      for (const job of this.queue.splice(0)) job.resolve({ status: "unreadable", error: { text: data.failed } });
      return;
    }
    const job = this.current;
    if (!job || job.id !== data.id) return;
    clearTimeout(job.timer);
    this.current = null;
    job.resolve(data.result);
    this.next();
  }

  // Resolves with pyrunner's result, or {timeout: seconds} when the limit ran out.
  call(kind, request, seconds) {
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, kind, request, seconds, resolve });
      this.next();
    });
  }

  next() {
    if (!this.ready || this.current || !this.queue.length) return;
    const job = this.queue.shift();
    this.current = job;
    // The limit counts from when the worker receives the job, never its start-up.
    job.timer = setTimeout(() => this.restart({ status: "wrong", score: 0, timeout: job.seconds }), job.seconds * 1000);
    this.worker.postMessage({ id: job.id, kind: job.kind, request: job.request });
  }
}

let embedLoading = null;

// Opened from disk, browsers refuse module workers and fetch(): the offline build embeds Pyodide in a classic
// script, whose worker code becomes a Blob worker and whose bytes are handed over by message.
function embeddedWorker() {
  if (!embedLoading) {
    embedLoading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = EMBED_URL.href;
      script.onload = () => resolve(window.__zqPyodideEmbed);
      script.onerror = () => reject(new Error("Python is not part of this offline copy"));
      document.head.append(script);
    });
  }
  return embedLoading.then((embed) => {
    // A real thread, even where mkdocs-material's offline search has replaced window.Worker (native-worker.js).
    const RealWorker = window.__zqNativeWorker || Worker;
    const worker = new RealWorker(URL.createObjectURL(new Blob([embed.worker], { type: "text/javascript" })));
    const { wasm, stdlib, lock, files, indexURL } = embed;
    worker.postMessage({ embed: { wasm, stdlib, lock, files, indexURL } });
    return worker;
  });
}
