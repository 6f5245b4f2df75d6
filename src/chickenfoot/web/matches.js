// "My matches" (/matches): the signed-in player's matches, the newest first, unfinished ones with a
// way back to the table; a guest is asked to sign in.

import { languageSwitcher, loadCatalog, say, t, translatePage } from "./i18n.js";
import { showAccountMenu } from "./account-menu.js";
import { api } from "./net.js";
import { setupTheme } from "./theme.js";
import { h, matchTable, pager } from "./history.js";

class MatchesPage {
  constructor() {
    this.data = null;
    this.refusal = null;
  }

  async start() {
    await loadCatalog();
    showAccountMenu(document.getElementById("account-menu"));
    languageSwitcher(document.getElementById("language"), () => this.render());
    await this.load(1);
  }

  async load(page) {
    try {
      this.data = await api("GET", `/api/matches?page=${page}`);
      this.refusal = null;
    } catch (error) {
      this.refusal = error.said ?? { detail: error.message };
    }
    this.render();
  }

  render() {
    translatePage();
    document.title = t("matches.title");
    const guest = this.refusal?.code === "account.not_signed_in";
    document.getElementById("sign-in").hidden = !guest;
    const error = document.getElementById("matches-error");
    error.hidden = this.refusal === null || guest;
    if (this.refusal !== null) error.textContent = say(this.refusal);
    const list = document.getElementById("matches");
    document.getElementById("own-profile").hidden = this.data === null || this.refusal !== null;
    if (this.refusal !== null || this.data === null) {
      list.replaceChildren();
      return;
    }
    document.getElementById("profile-link").href = `/u/${encodeURIComponent(this.data.username)}`;
    if (this.data.matches.length === 0) list.replaceChildren(h("p", { class: "muted" }, null, t("matches.none")));
    else list.replaceChildren(matchTable(this.data.matches), ...pager(this.data, (page) => this.load(page)));
  }
}

setupTheme();
window.matches = new MatchesPage();
window.matches.start();
