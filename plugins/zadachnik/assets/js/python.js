// The page's side of Python: one worker started as soon as a page with Python opens, jobs run one at a
// time, each with a time limit after which the worker is terminated and a fresh one started.

const WORKER_URL = new URL("./python-worker.js", import.meta.url);

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
    this.worker = new Worker(WORKER_URL, { type: "module" });
    this.worker.onmessage = ({ data }) => this.received(data);
    // A crashed worker is replaced; the job it was running gets an error, the queue goes on.
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.restart({ status: "unreadable", error: { text: event.message || "the Python worker stopped" } });
    };
  }

  restart(resultForCurrent) {
    this.worker.terminate();
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
