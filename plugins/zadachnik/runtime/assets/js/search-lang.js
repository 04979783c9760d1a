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

  class LanguageSearchWorker extends Base {
    constructor(url, options) {
      super(url, options);
      const config = siteConfig();
      if (!config || !config.search || new URL(String(url), location.href).href
          !== new URL(config.search, location.href).href) return;
      // From the page first loaded: instant navigation keeps <head>, so the root stays right.
      const root = new URL(config.base || ".", location.href).href;
      const pageLanguage = () => languageOf(location.href.startsWith(root) ? location.href.slice(root.length) : "");
      // Material's setup message (every language's pages), the language the worker has indexed, and whether the
      // query is to be asked again once it has indexed another.
      const search = this.zqSearch = { setup: null, indexed: null, askAgain: false };
      // Material's setup message with the pages of the page's language only.
      search.ofPage = () => {
        search.indexed = pageLanguage();
        const docs = search.setup.data.docs.filter((doc) => languageOf(String(doc.location)) === search.indexed);
        return { ...search.setup, data: { ...search.setup.data, docs } };
      };
      // Added before Material's listener, so Material shows and counts the page's language's groups only (a query
      // asked before the worker has indexed a new page's language is answered from the old index).
      this.addEventListener("message", ({ data: message }) => {
        if (message?.type === READY && search.askAgain) {
          search.askAgain = false;
          const query = document.querySelector("[data-md-component=search-query]")?.value;
          if (query) super.postMessage({ type: QUERY, data: query });
        }
        if (message?.type === RESULT && Array.isArray(message.data?.items)) {
          message.data.items = message.data.items.filter(
            (group) => group?.length > 0 && languageOf(String(group[0].location)) === pageLanguage());
        }
      });
      // Instant navigation keeps the search box, its worker and its results: on a page in another language, the
      // worker indexes that language's pages, then the query is asked again.
      const watch = () => window.document$?.subscribe(() => {
        if (!search.setup || search.indexed === pageLanguage()) return;
        search.askAgain = true;
        super.postMessage(search.ofPage());
      });
      if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch, { once: true });
      else setTimeout(watch);
    }

    postMessage(message, ...rest) {
      const search = this.zqSearch;
      if (search && message?.type === SETUP && Array.isArray(message.data?.docs)) {
        search.setup = message;
        message = search.ofPage();
      }
      return super.postMessage(message, ...rest);
    }
  }
  LanguageSearchWorker.zadachnikSearch = true;
  window.Worker = LanguageSearchWorker;
})();
