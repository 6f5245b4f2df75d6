// @ts-check
// The friends page (/friends): the signed-in player's challenges (news.js); the players they follow,
// each online or not and at which table (a link to watch it), as far as each one's privacy lets them
// see, and challenged from here; following a player by name; the players they block.

import { botTag } from "./bots.js";
import { byId, h, setHidden, setText } from "./dom.js";
import { language, t } from "./i18n.js";
import { api, refusalText } from "./net.js";
import { NewsCard } from "./news.js";
import { startShell } from "./shell.js";
import { action, challenge, follow, unblock, unfollow } from "./social.js";

/**
 * A player followed (GET /api/social/friends): online, at a table, and whether they may be challenged.
 * @typedef {{ name: string, bot: boolean, since: string, online: boolean, table: string | null, challenge: boolean }} Friend
 */
/** A player blocked (GET /api/social/blocks). @typedef {{ name: string, bot: boolean, since: string }} Blocked */

/**
 * Where a friend is: at a table (with the way to watch it), online, or offline (also what a hidden
 * status looks like).
 * @param {Friend} friend
 */
function whereabouts(friend) {
  const where = h("span", { class: "whereabouts" });
  const state = friend.table ? "at-table" : friend.online ? "online" : "offline";
  const words = { "at-table": "social.at_table", online: "social.online", offline: "social.offline" }[state];
  h("span", { class: `presence ${state}` }, where, t(words));
  if (friend.table) {
    const code = friend.table;
    where.append(" ", h("a", { href: `/t/${encodeURIComponent(code)}`, class: "watch" }, null, t("social.watch_table", { code })));
  }
  return where;
}

class FriendsPage {
  constructor() {
    /** @type {Friend[]} */
    this.friends = [];
    /** @type {Blocked[]} */
    this.blocked = [];
    this.poll = 10;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.error = byId("friends-error");
    this.notice = byId("friends-notice");
    /** @param {string} message */
    this.onError = (message) => setText(this.error, message);
    this.news = new NewsCard(byId("news"), this.onError);
    this.drawn = "";
  }

  async start() {
    const shell = await startShell(() => {
      this.drawn = "";
      this.render();
      this.news.drawn = "";
      this.news.draw();
    });
    if (!(await shell.account)) {
      byId("sign-in").hidden = false;
      return;
    }
    document.title = [t("social.friends"), t("ui.game_name")].join(" · ");
    byId("friends-page").hidden = false;
    const name = byId("follow-name", HTMLInputElement);
    byId("follow-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      setText(this.error, "");
      try {
        const followed = await follow({ name: name.value.trim() });
        name.value = "";
        setText(this.notice, t("social.followed", { name: followed }));
        await this.load();
      } catch (err) {
        setText(this.error, refusalText(err));
      }
    });
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.load();
    });
    this.news.refresh();
    await this.load();
  }

  // The lists now, then the friends again every `poll` seconds while the page is in sight.
  async load() {
    clearTimeout(this.timer);
    try {
      /** @type {[{ friends: Friend[], poll: number }, { blocked: Blocked[] }]} */
      const [listed, blocked] = await Promise.all([api("GET", "/api/social/friends"), api("GET", "/api/social/blocks")]);
      [this.friends, this.poll, this.blocked] = [listed.friends, listed.poll, blocked.blocked];
      this.render();
    } catch (err) {
      setText(this.error, refusalText(err));
    }
    if (!document.hidden) this.timer = setTimeout(() => this.load(), this.poll * 1000);
  }

  /**
   * A button doing `work`, then loading the lists again.
   * @param {string} code
   * @param {() => Promise<unknown>} work
   * @param {string} [title]
   */
  button(code, work, title) {
    return action(code, async () => {
      setText(this.notice, "");
      await work();
      await this.load();
    }, this.onError, title);
  }

  /** @param {Friend} friend */
  friendLine(friend) {
    const li = h("li", { class: "friend", "data-name": friend.name });
    const who = h("div", { class: "who" }, li);
    h("a", { href: `/u/${encodeURIComponent(friend.name)}`, class: "name" }, who, friend.name);
    if (friend.bot) who.append(botTag());
    who.append(whereabouts(friend));
    const buttons = h("div", { class: "row" }, li);
    if (friend.challenge) {
      const send = action(
        "social.challenge",
        async () => {
          const sent = await challenge(friend.name);
          if (sent !== null) {
            setText(this.notice, t("social.challenge_sent", { name: friend.name }));
            this.news.sentNow(sent);
          }
        },
        this.onError,
        t("social.challenge_title", { name: friend.name }),
      );
      send.classList.add("primary");
      buttons.append(send);
    }
    buttons.append(this.button("social.unfollow", () => unfollow(friend.name)));
    return li;
  }

  render() {
    const drawing = JSON.stringify([this.friends, this.blocked, language()]);
    if (drawing === this.drawn) return;
    this.drawn = drawing;
    byId("friends").replaceChildren(...this.friends.map((friend) => this.friendLine(friend)));
    setHidden(byId("no-friends"), this.friends.length > 0);
    byId("blocked").replaceChildren(
      ...this.blocked.map((blocked) => {
        const li = h("li");
        h("a", { href: `/u/${encodeURIComponent(blocked.name)}` }, li, blocked.name);
        li.append(this.button("social.unblock", () => unblock(blocked.name)));
        return li;
      }),
    );
    setHidden(byId("no-blocks"), this.blocked.length > 0);
  }
}

new FriendsPage().start();
