// "Print my answers": the saved answers are in the fields; a class lets print CSS show them, until the dialog closes.
let bound = false;

export function printButtons() {
  for (const button of document.querySelectorAll("[data-zq-print]")) button.hidden = false;
  if (bound) return;
  bound = true;
  const mark = (on) => document.documentElement.classList.toggle("zq-print-answers", on);
  document.addEventListener("click", (event) => {
    if (!(event.target instanceof Element && event.target.closest("[data-zq-print]"))) return;
    mark(true);
    window.print();
  });
  window.addEventListener("afterprint", () => mark(false));
}
