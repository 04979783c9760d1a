// The learner's place across the language switch: mkdocs-material's language selector opens the other
// language at the question, exercise or heading that was at the top of the screen, not at the top of a long
// page. Both languages of a page share these ids (#q-P05, #e-E1, #s-9.4, a heading's {#id}).
//
// On a click on the selector, the place goes into the link's hash and the link is followed. Material's own
// handler is kept out of this click: it rebuilds the address from its sitemaps, drops the hash when a
// sitemap is missing, and reloads the page anyway (instant navigation or not). The page that opens scrolls
// to the place once its runtime has restored the saved answers, which may open explanations above it.

const SELECTOR_LINK = "a.md-select__link[hreflang]";
const PLACES = "[data-zq-question],[data-zq-exercise],.md-content :is(h2,h3,h4,h5,h6)[id]";
// A question's or an exercise's own title: the block around it is the place.
const INSIDE_BLOCK = ".zq-question__title,.zq-exercise__title";
const PENDING = "zadachnik:place";

let listening = false;

function rem() {
  return Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
}

// Where the reading area starts: below Material's sticky header.
function readingTop() {
  const header = document.querySelector(".md-header");
  return header ? Math.max(0, header.getBoundingClientRect().bottom) : 0;
}

function places() {
  return [...document.querySelectorAll(PLACES)].filter((element) => !element.matches(INSIDE_BLOCK));
}

// The last place that starts above a line a little below the header. The line sits lower than where an
// arrival puts a place, so switching back and forth keeps the same place instead of drifting.
export function placeAtTop() {
  const line = readingTop() + 2.5 * rem();
  let found = null;
  for (const element of places()) {
    // Not laid out (inside a closed explanation): no place on screen.
    if (element.getClientRects().length === 0) continue;
    if (element.getBoundingClientRect().top > line) break;
    found = element;
  }
  return found;
}

function rememberPending(id) {
  try {
    if (id) sessionStorage.setItem(PENDING, id);
    else sessionStorage.removeItem(PENDING);
  } catch {
    // Storage refused (private mode, some file:// setups): the hash alone still opens the place.
  }
}

function takePending() {
  try {
    const id = sessionStorage.getItem(PENDING);
    sessionStorage.removeItem(PENDING);
    return id;
  } catch {
    return null;
  }
}

function withHash(url, id) {
  const target = new URL(url, location.href);
  target.hash = id ? `#${id}` : "";
  return target.href;
}

// This page in the link's language. Instant navigation swaps the head's alternate links but keeps the header,
// so after it the selector's own link still names the first page's translation.
function translation(link) {
  const lang = link.getAttribute("hreflang");
  const alternate = [...document.querySelectorAll("link[rel=alternate][hreflang]")]
    .find((candidate) => candidate.getAttribute("hreflang") === lang);
  return alternate ? alternate.href : link.href;
}

function onClick(event) {
  const link = event.target instanceof Element ? event.target.closest(SELECTOR_LINK) : null;
  if (!link) return;
  const place = placeAtTop();
  const id = place ? place.id : "";
  // Also what a new tab opens (Ctrl+click, or a middle click, which comes as auxclick).
  link.href = withHash(translation(link), id);
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || link.target) return;
  event.preventDefault();
  event.stopPropagation();
  rememberPending(id);
  location.assign(link.href);
}

// The id the address points at (ids outside ASCII come percent-encoded); '' for a malformed one.
function hashId() {
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {
    return "";
  }
}

function scrollToPlace(element) {
  const top = element.getBoundingClientRect().top + window.scrollY - readingTop() - 1.2 * rem();
  window.scrollTo({ top: Math.max(0, top), behavior: "instant" });
}

// Called on every page Material shows (first load and instant navigation alike), after the runtime started.
export function keepPlace() {
  if (!listening) {
    // Capture: before Material's handlers on the body, which would follow the link their own way.
    document.addEventListener("click", onClick, true);
    document.addEventListener("auxclick", onClick, true);
    listening = true;
  }
  const id = takePending();
  if (!id || hashId() !== id) return;
  const element = document.getElementById(id);
  if (element) scrollToPlace(element);
}
