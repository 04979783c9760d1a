// Search in the page's language. Material builds one index for the whole site: this polyfill (run in <head> before
// Material creates its search Worker; on file:// after the iframe-worker shim) wraps that Worker, hands it the pages
// of the page's language only (indexing every language made each page load pay for all of them), and keeps the
// result groups of that language, from which Material also counts. The line before this file, written by the
// plugin, gives the site's languages: { default, others }.
(() => {
  const LANGUAGES = window.__zqSearchLanguages;
  // Material 9.x search worker messages: 0 setup, 1 ready, 2 query, 3 result.
  const SETUP = 0;
  const READY = 1;
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

  const isSetup = (message) => message && message.type === SETUP && message.data && Array.isArray(message.data.docs);

  class LanguageSearchWorker extends Base {
    constructor(url, options) {
      super(url, options);
      const config = siteConfig();
      if (!config || !config.search || new URL(String(url), location.href).href
          !== new URL(config.search, location.href).href) return;
      // From the page first loaded: instant navigation keeps <head>, so the root stays right.
      const root = new URL(config.base || ".", location.href).href;
      const pageLanguage = () => languageOf(location.href.startsWith(root) ? location.href.slice(root.length) : "");
      const send = (message) => Base.prototype.postMessage.call(this, message);
      const query = () => {
        const input = document.querySelector("[data-md-component=search-query]");
        return input && input.value ? input.value : null;
      };
      // Material's setup message (every language's pages), the language the worker's index holds, and whether the
      // shown results are to be asked for again once it has indexed another.
      const search = { setup: null, indexedFor: null, askAgain: false, pageLanguage };
      // The setup message for one language: Material's, with that language's pages only.
      search.indexFor = (lang) => {
        search.indexedFor = lang;
        const docs = search.setup.data.docs.filter((doc) => doc && languageOf(String(doc.location)) === lang);
        return { ...search.setup, data: { ...search.setup.data, docs } };
      };
      this.zqSearch = search;
      let shownFor = null; // the language the last results were kept for
      // Added before Material's listener, so Material shows and counts the kept groups only.
      this.addEventListener("message", (event) => {
        const message = event.data;
        if (message && message.type === READY && search.askAgain) {
          search.askAgain = false;
          if (query() !== null) send({ type: QUERY, data: query() });
        }
        if (!message || message.type !== RESULT || !message.data || !Array.isArray(message.data.items)) return;
        shownFor = pageLanguage();
        message.data.items = message.data.items.filter(
          (group) => Array.isArray(group) && group.length > 0 && languageOf(String(group[0].location)) === shownFor);
      });
      // Instant navigation keeps the search box, its worker and its results: on a page in another language, the
      // worker indexes that language's pages, then the query is asked again.
      const watch = () => window.document$ && window.document$.subscribe(() => {
        const lang = pageLanguage();
        if (search.setup && search.indexedFor !== lang) {
          search.askAgain = true;
          send(search.indexFor(lang));
        } else if (shownFor !== null && shownFor !== lang && query() !== null) {
          send({ type: QUERY, data: query() });
        }
      });
      if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch, { once: true });
      else setTimeout(watch);
    }

    postMessage(message, ...rest) {
      const search = this.zqSearch;
      if (search && isSetup(message)) {
        search.setup = message;
        return super.postMessage(search.indexFor(search.pageLanguage()), ...rest);
      }
      return super.postMessage(message, ...rest);
    }
  }
  LanguageSearchWorker.zadachnikSearch = true;
  window.Worker = LanguageSearchWorker;
})();
