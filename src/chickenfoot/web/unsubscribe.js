// @ts-check
// The page an e-mail's unsubscribe line opens (/unsubscribe/TOKEN): one button that posts the
// one-click unsubscribe (the same request a mail provider posts for the List-Unsubscribe header).
// Opening the page changes nothing: mail scanners open links.

import { byId } from "./dom.js";
import { api, refusalText } from "./net.js";
import { startShell } from "./shell.js";

async function start() {
  await startShell();
  const token = location.pathname.split("/").pop() ?? "";
  const button = byId("unsubscribe-button", HTMLButtonElement);
  button.addEventListener("click", async () => {
    button.disabled = true;
    byId("error").textContent = "";
    try {
      await api("POST", `/api/notifications/unsubscribe/${encodeURIComponent(token)}`);
      byId("done").hidden = false;
      button.hidden = true;
    } catch (err) {
      byId("error").textContent = refusalText(err);
      button.disabled = false;
    }
  });
}

start();
