// @ts-check
// The page's entry point: the shell, routing (lobby at /, a table at /t/CODE), and the table (table.js).

import { byId } from "./dom.js";
import { takeHandover } from "./handover.js";
import { t } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { savedName } from "./name.js";
import { api, refusalText, rememberSeat, seatSecret } from "./net.js";
import { startShell } from "./shell.js";
import { TablePage } from "./table.js";

/**
 * An invite link (/t/CODE?invite=CLAIM) is claimed once for a fresh secret, kept in this browser;
 * the address then becomes the plain /t/CODE, so it never shows or shares a secret. Returns why the
 * claim was refused, or null.
 * @param {string} code
 * @param {string} invite
 */
async function claimInvite(code, invite) {
  try {
    /** @type {{ token: string }} */
    const seat = await api("POST", `/api/tables/${encodeURIComponent(code)}/claim`, { invite, name: savedName() || null });
    rememberSeat(code, seat.token);
    return null;
  } catch (err) {
    return refusalText(err);
  }
}

async function start() {
  /** @type {TablePage | null} */
  let table = null;
  // A new language: the fixed words at once, the table's parts redrawn; the lobby's form is built in
  // the language it opened with, so it opens again.
  const { account, offline } = await startShell(() => {
    if (table) {
      table.render();
      table.connection.render();
    } else location.reload();
  });
  const match = location.pathname.match(/^\/t\/([^/]+)/);
  if (!match) {
    showLobby(account);
    return;
  }
  const code = decodeURIComponent(match[1]).toUpperCase();
  const signedIn = !!(await account); // the session's form token, for a seat offered to another device
  const handedOver = await takeHandover(code);
  const invite = new URLSearchParams(location.search).get("invite");
  // A browser that holds this table's seat already keeps it (a second claim would be refused).
  const refused = invite && !seatSecret(code) ? await claimInvite(code, invite) : null;
  if (invite) history.replaceState(null, "", `/t/${encodeURIComponent(code)}`);
  byId("table").hidden = false;
  table = new TablePage(code, seatSecret(code), () => offline.back(), signedIn);
  // The tests and the curious reach the table here (window.chickenfoot): no part of the page does.
  Object.assign(window, { chickenfoot: table });
  // A friend seated by an invite on their first visit is asked for a name at once.
  table.welcome = !!invite && !refused && !savedName();
  if (refused) table.toast(t("table.watching_instead", { error: refused }));
  if (handedOver) table.toast(handedOver);
}

start();
