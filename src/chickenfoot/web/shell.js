// @ts-check
// The shell every page shares (web/pages/_shell.html): its theme button, its language picker, its
// account menu and a signed-in account's bell, and the page's fixed words in the reader's language.
// Each page's module starts it first, then draws the page itself.

import { AccountMenu } from "./account-menu.js";
import { byId } from "./dom.js";
import { languageSwitcher, loadCatalog, t, translatePage } from "./i18n.js";
import { Bell } from "./notices.js";
import { setupTheme } from "./theme.js";

/** @import { Catalog } from "./i18n.js" */
/** @import { Account } from "./protocol.js" */

/**
 * Starts the shell: the theme at once, then the reader's catalog; the fixed words translated, the
 * tab named after the game (until the page names itself), the language picker filled and the account
 * menu asked for, and for a signed-in account its bell. A new language translates the fixed words
 * again, relabels the menu and the bell and hands the catalog to `onLanguage`, to draw the page's own
 * words again.
 * @param {(catalog: Catalog) => void} [onLanguage]
 * @returns {Promise<{ catalog: Catalog, menu: AccountMenu, account: Promise<Account | null> }>}
 */
export async function startShell(onLanguage = () => {}) {
  setupTheme(byId("theme", HTMLButtonElement));
  const catalog = await loadCatalog();
  translatePage();
  document.title = t("ui.game_name");
  const menu = new AccountMenu(byId("account-menu"));
  const bell = new Bell(byId("notices"));
  languageSwitcher(byId("language", HTMLSelectElement), (chosen) => {
    translatePage();
    menu.draw();
    bell.relabel();
    onLanguage(chosen);
  });
  const account = menu.show().then((who) => {
    if (who) bell.start();
    return who;
  });
  return { catalog, menu, account };
}
