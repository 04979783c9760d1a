// Runs before the iframe-worker shim that mkdocs-material's offline plugin adds for search on file:// pages:
// that shim replaces window.Worker with an iframe on the page's own thread, and Python needs a real worker.
window.__zqNativeWorker = window.Worker;
