// @ts-check
// "My matches" (/matches): the turn-based tables waiting for the signed-in player, the least time left
// first; then their matches, the newest first, unfinished ones with a way back to the table; a guest is
// asked to sign in.

import { byId, h } from "./dom.js";
import { matchTable, pager } from "./history.js";
import { say, t } from "./i18n.js";
import { Refusal, api, refusalText } from "./net.js";
import { left } from "./pace.js";
import { startShell } from "./shell.js";

/** @import { MatchEntry, Paged } from "./history.js" */
/** @import { Said } from "./protocol.js" */
/** @import { Waiting } from "./pace.js" */

class MatchesPage {
  constructor() {
    /** @type {(Paged & { username: string, matches: MatchEntry[] }) | null} */
    this.data = null;
    /** @type {Partial<Said> | null} */
    this.refusal = null;
    /** @type {Waiting | null} */
    this.waiting = null;
  }

  async start() {
    await startShell(() => this.render());
    await this.load(1);
  }

  /** @param {number} page */
  async load(page) {
    try {
      this.data = await api("GET", `/api/matches?page=${page}`);
      this.waiting = await api("GET", "/api/turns");
      this.refusal = null;
    } catch (error) {
      this.refusal = error instanceof Refusal ? error.said : { detail: refusalText(error) };
    }
    this.render();
  }

  render() {
    document.title = t("matches.title");
    const guest = this.refusal?.code === "account.not_signed_in";
    byId("sign-in").hidden = !guest;
    const error = byId("matches-error");
    error.hidden = this.refusal === null || guest;
    if (this.refusal !== null) error.textContent = say(this.refusal);
    const list = byId("matches");
    byId("own-profile").hidden = this.data === null || this.refusal !== null;
    if (this.refusal !== null || this.data === null) {
      list.replaceChildren();
      return;
    }
    this.drawWaiting();
    byId("profile-link", HTMLAnchorElement).href = `/u/${encodeURIComponent(this.data.username)}`;
    if (this.data.matches.length === 0) list.replaceChildren(h("p", { class: "muted" }, null, t("matches.none")));
    else list.replaceChildren(matchTable(this.data.matches), ...pager(this.data, (page) => this.load(page)));
  }

  // The turn-based tables waiting for the player, each with the time left, the least first.
  drawWaiting() {
    const box = byId("waiting");
    const tables = this.waiting?.tables ?? [];
    box.hidden = !tables.length;
    if (!tables.length) return;
    const items = tables.map(({ table, due }) => {
      const li = h("li");
      h("a", { href: `/t/${table}` }, li, table);
      li.append(" · ", t("pace.time_left", { time: left(due) }));
      return li;
    });
    const list = h("ol", { class: "waiting-list" });
    list.replaceChildren(...items);
    box.replaceChildren(h("h2", { id: "waiting-title" }, null, t("pace.waiting", { count: tables.length })), list);
  }
}

new MatchesPage().start();
