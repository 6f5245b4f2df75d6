// @ts-check
// The player's name: asked for on the first visit (or from the player's own card later), kept in
// this browser and offered again at every table.

import { byId } from "./dom.js";

const NAME = "cf-name";
const MAX_NAME = 40; // as the server allows

export function savedName() {
  return localStorage.getItem(NAME) ?? "";
}

/** @param {string} name */
export function rememberName(name) {
  localStorage.setItem(NAME, name);
}

/**
 * Opens the name dialog with `current`; resolves with the name saved, or null when cancelled.
 * @param {string} [current]
 * @returns {Promise<string | null>}
 */
export function askName(current = savedName()) {
  const dialog = byId("name-dialog", HTMLDialogElement);
  const input = byId("name-input", HTMLInputElement);
  if (dialog.open) return Promise.resolve(null); // asked already: that answer will do
  input.maxLength = MAX_NAME;
  input.value = current;
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        const name = input.value.trim();
        if (dialog.returnValue === "save" && name) {
          rememberName(name);
          resolve(name);
        } else resolve(null);
      },
      { once: true },
    );
    dialog.returnValue = "";
    dialog.showModal();
    input.select();
  });
}
