// @ts-check
// The account page's privacy choices (GET and PUT /api/social/privacy): who may challenge the player,
// and who may see that they are online and at which table: everyone, the players they follow, nobody.
// A choice is saved as soon as it is made.

import { changeAccount } from "./account-api.js";
import { byId, setText } from "./dom.js";
import { t } from "./i18n.js";
import { api, refusalText } from "./net.js";

/** @typedef {{ challenges: string, status: string }} Choices */

/** @type {Record<string, string>} each choice and its words */
const AUDIENCES = { everyone: "social.audience.everyone", friends: "social.audience.friends", nobody: "social.audience.nobody" };
/** @type {Choices | null} */
let chosen = null;

// The two choices, in the reader's language (drawn again when the language changes).
export function drawPrivacy() {
  if (!chosen) return;
  for (const [field, id] of /** @type {const} */ ([["challenges", "privacy-challenges"], ["status", "privacy-status"]])) {
    const select = byId(id, HTMLSelectElement);
    select.replaceChildren(...Object.entries(AUDIENCES).map(([audience, code]) => new Option(t(code), audience)));
    select.value = chosen[field];
  }
}

// Asks for the choices, draws them and saves each change.
export async function showPrivacy() {
  const saved = byId("privacy-saved");
  try {
    chosen = /** @type {Choices} */ (await api("GET", "/api/social/privacy"));
  } catch (err) {
    setText(saved, refusalText(err));
    return;
  }
  drawPrivacy();
  byId("privacy-form").addEventListener("change", async () => {
    const wanted = {
      challenges: byId("privacy-challenges", HTMLSelectElement).value,
      status: byId("privacy-status", HTMLSelectElement).value,
    };
    try {
      chosen = await changeAccount("PUT", "/api/social/privacy", wanted);
      setText(saved, t("account.saved"));
    } catch (err) {
      setText(saved, refusalText(err));
    }
  });
}
