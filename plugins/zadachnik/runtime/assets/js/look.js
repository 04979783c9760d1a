// The look of a part only some pages have (ordering and Parsons questions, hints, an exam), loaded with its module
// rather than in zadachnik.css: most pages, module 12's among them, would pay for rules they never use. What the
// first paint needs stays in zadachnik.css (an ordering question's items hidden until the script has put in the
// learner's order, an exam's answers hidden before it is submitted).

// Adds `rules` to the page's stylesheets, once: a module runs once per document, which instant navigation keeps.
// Not in Node, which runs the grading.
export function adopt(rules) {
  if (!globalThis.document) return;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(rules);
  document.adoptedStyleSheets.push(sheet);
}
