// The page's side of Python: one worker started as soon as a page with Python opens, jobs run one at a
// time. Each job has a time limit, restarted at every step the worker reports (the learner's code, then each
// hidden test); when it runs out the worker is terminated, the verdict is built from the reports received,
// and a fresh worker is started.
//
// The page keeps the memory snapshot its worker hands over (python-worker.js), so the next worker restores it
// instead of starting Python anew. `<html data-zq-python-start>` says how the last start went (fresh, memory,
// cache, indexeddb) and `data-zq-python-kept` where the snapshot is kept: for tests and the bench, never shown.

// Pyodide starts in seconds (its 13 MB download may take minutes on a slow line): a start that has not
// finished after this long is not going to. The page's words say "5 minutes" (python_unavailable_slow).
const START_LIMIT = 300;

// A result that is no verdict on the answer: Python is not available, for `reason`.
export function unavailable(reason) {
  return { status: "unavailable", reason };
}

export class Python {
  // `first`: the first worker, started before this module loaded; `launch(snapshot)` starts each later one
  // (both from pyclient.js).
  constructor(first, launch) {
    this.launch = launch;
    this.listeners = [];
    this.state = ["starting"];
    this.queue = [];
    this.current = null;
    this.nextId = 1;
    this.worker = null;
    this.failure = null;
    this.snapshot = null;
    this.starts = 0;
    this.start(first);
  }

  listen(onState) {
    this.listeners.push(onState);
    onState(...this.state);
  }

  onState(...state) {
    this.state = state;
    for (const listener of this.listeners) listener(...state);
  }

  start(launched = null) {
    this.ready = false;
    this.failure = null;
    if (!launched && typeof WebAssembly === "object") launched = this.launch(this.snapshot);
    // Each worker has its own secret: messages from an old worker, or made up by learner code, carry none.
    const secret = launched ? launched.secret : null;
    this.secret = secret;
    this.onState("starting");
    if (typeof WebAssembly !== "object") {
      if (launched) launched.worker.then((worker) => worker.terminate(), () => {});
      this.fail("no_wasm", "this browser has no WebAssembly");
      return;
    }
    clearTimeout(this.startTimer);
    this.startTimer = setTimeout(() => this.fail("slow", `no answer after ${START_LIMIT} s`), START_LIMIT * 1000);
    this.asked = launched.asked;
    launched.worker.then((worker) => {
      if (this.secret !== secret) {
        worker.terminate();
        return;
      }
      this.worker = worker;
      const onMessage = ({ data }) => {
        if (this.secret === secret && data && data.secret === secret) this.received(data);
      };
      const onError = (event) => {
        event.preventDefault();
        if (this.secret !== secret) return;
        // A script that fails to load gives a plain Event; an exception thrown in the worker an ErrorEvent.
        const reason = event instanceof ErrorEvent ? "crashed" : "files";
        const text = event.message || "the Python worker stopped";
        if (!this.ready) this.fail(reason, text);
        else this.restart({ status: "unreadable", error: { code: "crashed", text } });
      };
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      // What the worker said before these listeners, in order, before anything it says from now on.
      for (const event of launched.takeHeard()) (event.type === "error" ? onError : onMessage)(event);
    }, (error) => {
      if (this.secret === secret) this.fail("files", String(error));
    });
  }

  stopWorker() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.secret = null;
  }

  // The current job gets `resultForCurrent`, a fresh worker starts, and the queue goes on there.
  restart(resultForCurrent) {
    this.stopWorker();
    this.finishCurrent(resultForCurrent);
    this.start();
  }

  finishCurrent(result) {
    const job = this.current;
    this.current = null;
    if (!job) return;
    clearTimeout(job.timer);
    job.resolve(result);
  }

  fail(reason, detail) {
    console.error(`Zadachnik: Python could not start (${reason}):`, detail);
    clearTimeout(this.startTimer);
    this.stopWorker();
    this.ready = false;
    this.failure = reason;
    this.onState("failed", reason);
    this.finishCurrent(unavailable(reason));
    for (const job of this.queue.splice(0)) job.resolve(unavailable(reason));
  }

  // After a failed start: try again (the learner may have come back online, or the files may be back).
  retry() {
    if (this.failure) this.start();
  }

  received(data) {
    if (data.starting === "fresh") {
      // A start without a snapshot, the long one: the status line says so.
      if (!this.ready) this.onState("starting", "fresh");
      return;
    }
    if (data.ready) {
      clearTimeout(this.startTimer);
      this.ready = true;
      this.started(data.started, data.ms);
      this.onState("ready");
      this.next();
      return;
    }
    if (data.failed) {
      this.fail(data.failed.reason, data.failed.detail);
      return;
    }
    if (data.snapshot) {
      if (data.snapshot.bytes instanceof Uint8Array && typeof data.snapshot.key === "string") {
        this.snapshot = data.snapshot;
      }
      return;
    }
    if (data.kept) {
      document.documentElement.dataset.zqPythonKept = String(data.kept);
      return;
    }
    const job = this.current;
    if (!job || job.id !== data.id) return;
    if (data.report) {
      this.reported(job, data.report);
    } else if (data.fatal) {
      // os._exit() or a crash inside Pyodide: the code that caused it hears why; Python starts again.
      const code = data.fatal.exit ? "exit" : "crashed";
      const error = { code, exit_status: data.fatal.exit_status, text: data.fatal.text };
      this.restart(job.kind === "run" ? { output: [], error } : { status: job.kind === "check" ? "wrong" : "unreadable",
        score: 0, error, tests: job.tests });
    } else if (typeof data.result === "string") {
      let result;
      try {
        result = JSON.parse(data.result);
      } catch {
        result = { status: "unreadable", error: { code: "crashed", text: "unreadable result" } };
      }
      this.finishCurrent(result);
      this.next();
    }
  }

  started(how, workerMs) {
    this.starts += 1;
    const root = document.documentElement.dataset;
    root.zqPythonStart = String(how || "fresh");
    root.zqPythonStarts = String(this.starts);
    const words = { fresh: "a normal start", memory: "the page's snapshot", cache: "a snapshot in Cache Storage",
      indexeddb: "a snapshot in IndexedDB" };
    console.info(`Zadachnik: Python ready in ${Math.round(performance.now() - this.asked)} ms (worker ${workerMs} ms)`
      + ` from ${words[how] || how}.`);
  }

  reported(job, text) {
    let event;
    try {
      event = JSON.parse(text);
    } catch {
      return;
    }
    if (event.event === "step") {
      // Steps come in order, each once (code, then test 0, 1, …), and each gets the limit the page's own spec
      // gives it: a report can't keep a job alive for ever.
      const expected = job.step === null ? "code" : job.step === "code" ? 0 : job.step + 1;
      if (event.step !== expected) return;
      const tests = job.request.tests || [];
      if (expected !== "code" && expected >= tests.length) return;
      job.step = expected;
      const limit = expected === "code" ? job.request.time_limit : tests[expected].time_limit;
      this.arm(job, Number(limit) > 0 ? Number(limit) : job.seconds);
    } else if (event.event === "test" && event.result && event.index === job.tests.length) {
      job.tests.push(event.result);
    }
  }

  arm(job, seconds) {
    clearTimeout(job.timer);
    job.limit = seconds;
    job.timer = setTimeout(() => this.restart(timedOut(job)), seconds * 1000);
  }

  // Resolves with pyrunner's result; with the same shape built from the worker's reports when a limit ran
  // out; or with `unavailable(reason)` when Python can't start.
  call(kind, request, seconds) {
    return new Promise((resolve) => {
      if (this.failure) {
        resolve(unavailable(this.failure));
        return;
      }
      this.queue.push({ id: this.nextId++, kind, request, seconds, resolve, tests: [], step: null });
      this.next();
    });
  }

  next() {
    if (!this.ready || this.current || !this.queue.length) return;
    const job = this.queue.shift();
    this.current = job;
    // The limit counts from when the worker receives the job, never its start-up; a check re-arms it at
    // every step it reports.
    this.arm(job, job.seconds);
    this.worker.postMessage({ id: job.id, kind: job.kind, request: job.request });
  }
}

// What a job that ran out of time comes to: for a check, the tests that finished and the step that did not.
function timedOut(job) {
  if (job.kind === "check") {
    return { status: "wrong", score: 0, timeout: job.limit, timed_out: job.step ?? "code", tests: job.tests };
  }
  if (job.kind === "checker") return { status: "unreadable", score: 0, timeout: job.limit, checker: true };
  return { timeout: job.limit };
}
