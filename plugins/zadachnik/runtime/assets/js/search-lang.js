// Search results in the page's language. Material has one index for the whole site: this polyfill (run in <head>
// before Material creates its search Worker; on file:// after the iframe-worker shim) wraps that Worker and keeps
// the result groups of the page's language, from which Material also counts. The line before this file, written
// by the plugin, gives the site's languages: { default, others }.
(() => {
  const LANGUAGES = window.__zqSearchLanguages;
  // Material 9.x search worker messages: 0 setup, 1 ready, 2 query, 3 result.
  const QUERY = 2;
  const RESULT = 3;
  const Base = window.Worker;
  if (!LANGUAGES || !Array.isArray(LANGUAGES.others) || !Base || Base.zadachnikSearch) return;

  // A location from the site's root ("en/guide/#x") → its language: the default one at the root, others in a
  // folder named by their code.
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
      // From the page first loaded: instant navigation keeps <head>, so the root stays right.
      const root = new URL(config.base || ".", location.href).href;
      const pageLanguage = () => languageOf(location.href.startsWith(root) ? location.href.slice(root.length) : "");
      let shownFor = null; // the language the last results were kept for
      // Added before Material's listener, so Material shows and counts the kept groups only.
      this.addEventListener("message", (event) => {
        const message = event.data;
        if (!message || message.type !== RESULT || !message.data || !Array.isArray(message.data.items)) return;
        shownFor = pageLanguage();
        message.data.items = message.data.items.filter(
          (group) => Array.isArray(group) && group.length > 0 && languageOf(String(group[0].location)) === shownFor);
      });
      // Instant navigation keeps the search box and its results: on a page in another language, ask again.
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
