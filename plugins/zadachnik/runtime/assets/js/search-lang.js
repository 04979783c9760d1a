// Search in the page's own language. mkdocs-material builds one index for the whole site; this classic script,
// one of the theme's polyfills (so it runs in <head>, before Material's bundle creates its search Worker, and on
// file:// copies after the iframe-worker shim, whose Worker it wraps), keeps in each result message only the pages
// of the language of the page being read. Material counts "N matching documents" from that same list, so the count
// follows. The plugin writes the site's languages in the line before this file: { default, others }.
(() => {
  const LANGUAGES = window.__zqSearchLanguages;
  // mkdocs-material 9.x search worker messages: 0 setup, 1 ready, 2 query, 3 result.
  const QUERY = 2;
  const RESULT = 3;
  const Base = window.Worker;
  if (!LANGUAGES || !Array.isArray(LANGUAGES.others) || !Base || Base.zadachnikSearch) return;

  // A location relative to the site's root ("en/authoring/#x", "authoring.html") → its language, as the plugin
  // places pages: the default language at the root, every other one under a folder named by its code.
  const languageOf = (path) => {
    const head = path.split(/[/?#]/, 1)[0];
    return LANGUAGES.others.includes(head) && path.length > head.length ? head : LANGUAGES.default;
  };

  const siteConfig = () => {
    const script = document.getElementById("__config");
    try {
      return script ? JSON.parse(script.textContent) : null;
    } catch {
      return null;
    }
  };

  class LanguageSearchWorker extends Base {
    constructor(url, options) {
      super(url, options);
      const config = siteConfig();
      if (!config || !config.search || new URL(String(url), location.href).href
          !== new URL(config.search, location.href).href) return;
      // The site's root as Material resolves it, from the page the scripts were loaded on: instant navigation
      // keeps <head>, so this stays right on every page that comes in later.
      const root = new URL(config.base || ".", location.href).href;
      const pageLanguage = () => languageOf(location.href.startsWith(root) ? location.href.slice(root.length) : "");
      let shownFor = null; // the language the last results were kept for
      // Added before Material's own listener, so Material reads, counts and shows the kept groups only.
      this.addEventListener("message", (event) => {
        const message = event.data;
        if (!message || message.type !== RESULT || !message.data || !Array.isArray(message.data.items)) return;
        shownFor = pageLanguage();
        message.data.items = message.data.items.filter(
          (group) => Array.isArray(group) && group.length > 0 && languageOf(String(group[0].location)) === shownFor);
      });
      // Instant navigation keeps the header, the search box and its results: once a page in another language has
      // come in, the same query is asked again, so the list is that language's.
      const watch = () => window.document$ && window.document$.subscribe(() => {
        const input = document.querySelector("[data-md-component=search-query]");
        if (shownFor !== null && shownFor !== pageLanguage() && input && input.value)
          this.postMessage({ type: QUERY, data: input.value });
      });
      if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch, { once: true });
      else setTimeout(watch);
    }
  }
  LanguageSearchWorker.zadachnikSearch = true;
  window.Worker = LanguageSearchWorker;
})();
