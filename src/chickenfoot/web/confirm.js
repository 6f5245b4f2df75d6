// @ts-check
// The page's own "are you sure?": a modal dialog in the page's language and style (the browser's
// confirm() is neither, blocks the page and cannot be styled or tested like the rest).
// Escape or Cancel says no; focus goes back where it was.

import { byId, within } from "./dom.js";
import { t } from "./i18n.js";

/**
 * Resolves true when the player confirms `question` with the button worded `yes`.
 * @param {string} question
 * @param {string} yes
 * @returns {Promise<boolean>}
 */
export function confirmAction(question, yes) {
  const dialog = byId("confirm-dialog", HTMLDialogElement);
  if (dialog.open) return Promise.resolve(false); // one question at a time
  const no = within(dialog, "button[value=no]", HTMLButtonElement);
  byId("confirm-text").textContent = question;
  within(dialog, "button[value=yes]", HTMLButtonElement).textContent = yes;
  no.textContent = t("tui.cancel");
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.showModal();
    no.focus(); // the safe answer first
  });
}
