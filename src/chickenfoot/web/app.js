// The page's entry point: theme, routing (lobby at /, a table at /t/CODE), and the table (table.js).

import { showAccountMenu } from "./account-menu.js";
import { takeHandover } from "./handover.js";
import { languageSwitcher, loadCatalog, t, translatePage } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { savedName } from "./name.js";
import { api, rememberSeat, seatSecret } from "./net.js";
import { TablePage } from "./table.js";
import { setupTheme } from "./theme.js";

const $ = (id) => document.getElementById(id);

// An invite link (/t/CODE?invite=CLAIM) is claimed once for a fresh secret, kept in this browser;
// the address then becomes the plain /t/CODE, so it never shows or shares a secret.
async function claimInvite(code, invite) {
  try {
    const seat = await api("POST", `/api/tables/${encodeURIComponent(code)}/claim`, { invite, name: savedName() || null });
    rememberSeat(code, seat.token);
    return null;
  } catch (err) {
    return err.message;
  }
}

async function start() {
  setupTheme();
  await loadCatalog();
  translatePage();
  // A new language: the static words at once, the table's on its next render; the lobby's form
  // is built in the language it opened with, so it opens again.
  languageSwitcher($("language"), () => {
    translatePage();
    if (window.chickenfoot?.state) {
      window.chickenfoot.render();
      window.chickenfoot.connection.render();
    }
    else if (!window.chickenfoot) location.reload();
  });
  const match = location.pathname.match(/^\/t\/([^/]+)/);
  const menu = showAccountMenu($("account-menu"));
  if (!match) {
    showLobby();
    return;
  }
  const code = decodeURIComponent(match[1]).toUpperCase();
  await menu; // the session's form token, for a seat offered to another device
  const handedOver = await takeHandover(code);
  const invite = new URLSearchParams(location.search).get("invite");
  // A browser that holds this table's seat already keeps it (a second claim would be refused).
  const refused = invite && !seatSecret(code) ? await claimInvite(code, invite) : null;
  if (invite) history.replaceState(null, "", `/t/${encodeURIComponent(code)}`);
  $("table").hidden = false;
  window.chickenfoot = new TablePage(code, seatSecret(code));
  // A friend seated by an invite on their first visit is asked for a name at once.
  window.chickenfoot.welcome = !!invite && !refused && !savedName();
  if (refused) window.chickenfoot.toast(t("table.watching_instead", { error: refused }));
  if (handedOver) window.chickenfoot.toast(handedOver);
}

start();
