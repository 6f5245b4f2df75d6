// @ts-check
// The shell every page shares (web/pages/_shell.html): its theme button, its language picker, its
// account menu and a signed-in account's bell, the page's fixed words in the reader's language, the
// offline state, and the installed app: its manifest in the reader's language and the service worker
// (sw.js). Each page's module starts it first, then draws the page itself.

import { AccountMenu } from "./account-menu.js";
import { OfflineNotice } from "./connectivity.js";
import { byId } from "./dom.js";
import { languageSwitcher, loadCatalog, t, translatePage } from "./i18n.js";
import { Bell } from "./notices.js";
import { TurnsLink } from "./pace.js";
import { setupTheme } from "./theme.js";

/** @import { Catalog } from "./i18n.js" */
/** @import { Account } from "./protocol.js" */

/**
 * Starts the shell: the theme at once, then the reader's catalog; the fixed words translated, the
 * tab named after the game (until the page names itself), the offline state watched, the app named
 * in the reader's language, the language picker filled and the account menu asked for (online), and for
 * a signed-in account its bell. A new language translates the fixed words again, relabels the menu and
 * the bell and hands the catalog to `onLanguage`, to draw the page's own words again. The service worker
 * is registered once the page has loaded.
 * @param {(catalog: Catalog) => void} [onLanguage]
 * @returns {Promise<{ catalog: Catalog, menu: AccountMenu, account: Promise<Account | null>, offline: OfflineNotice }>}
 */
export async function startShell(onLanguage = () => {}) {
  setupTheme(byId("theme", HTMLButtonElement));
  const catalog = await loadCatalog();
  translatePage();
  document.title = t("ui.game_name");
  const offline = new OfflineNotice(byId("offline"), !catalog.kept);
  nameTheApp(catalog.lang);
  const menu = new AccountMenu(byId("account-menu"));
  const bell = new Bell(byId("notices"));
  const turns = new TurnsLink(byId("turns", HTMLAnchorElement));
  bell.changed = () => turns.refresh(); // a new notice may be a turn at a table
  languageSwitcher(byId("language", HTMLSelectElement), (chosen) => {
    translatePage();
    menu.draw();
    nameTheApp(chosen.lang);
    bell.relabel();
    turns.draw();
    onLanguage(chosen);
  });
  if (document.readyState === "complete") registerWorker();
  else addEventListener("load", registerWorker, { once: true });
  // Opened offline, the page is the service worker's kept shell, which knows nothing of a session: no
  // account link until it opens again online.
  const account = offline.openedOffline
    ? Promise.resolve(null)
    : menu.show().then((who) => {
        if (who) {
          bell.start();
          turns.start();
        }
        return who;
      });
  return { catalog, menu, account, offline };
}

/**
 * The manifest in the reader's language: an app installed from this page is named in it.
 * @param {string} lang
 */
function nameTheApp(lang) {
  byId("manifest", HTMLLinkElement).href = `/manifest.webmanifest?lang=${encodeURIComponent(lang)}`;
}

// The service worker keeps this version's pages and files for offline use (sw.js). A browser without
// one, or a page not served over https nor from this computer, goes on without it.
function registerWorker() {
  navigator.serviceWorker?.register("/sw.js").catch(() => {});
}
