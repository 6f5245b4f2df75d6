// The page's own "are you sure?": a modal dialog in the page's language and style (the browser's
// confirm() is neither, blocks the page and cannot be styled or tested like the rest).
// Escape or Cancel says no; focus goes back where it was.

import { t } from "./i18n.js";

// Resolves true when the player confirms `question` with the button worded `yes`.
export function confirmAction(question, yes) {
  const dialog = document.getElementById("confirm-dialog");
  if (dialog.open) return Promise.resolve(false); // one question at a time
  dialog.querySelector("#confirm-text").textContent = question;
  dialog.querySelector("button[value=yes]").textContent = yes;
  dialog.querySelector("button[value=no]").textContent = t("tui.cancel");
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.showModal();
    dialog.querySelector("button[value=no]").focus(); // the safe answer first
  });
}
