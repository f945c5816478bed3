// Small comforts on top of pages that work without JavaScript.
"use strict";

document.addEventListener("submit", (event) => {
  // Asked by the form, or by the button that sent it (one form, many buttons).
  const button = event.submitter;
  const message =
    (button && button.dataset && button.dataset.confirm) ||
    (event.target.dataset && event.target.dataset.confirm);
  if (message && !window.confirm(message)) {
    event.preventDefault();
  }
});

document.addEventListener("change", (event) => {
  const box = event.target;
  if (!box.matches || !box.matches("[data-select-all]")) {
    return;
  }
  const table = box.closest("table");
  for (const row of table.querySelectorAll("tbody input[name='ids[]']")) {
    row.checked = box.checked;
  }
});
