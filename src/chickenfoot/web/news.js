// @ts-check
// A signed-in player's challenges, as the lobby and the friends page show them (GET /api/social/news,
// asked again every `poll` seconds while the page is in sight): those received (accept or decline),
// the player's own accepted ones whose seat waits for them (to the table) and their own still waiting
// (withdraw). A challenge this page sent and saw accepted takes the player to the table at once. What
// the player is told of challenges (received, answered) is in the bell's notifications (notices.js).

import { changeAccount } from "./account-api.js";
import { h, setHidden } from "./dom.js";
import { language, t } from "./i18n.js";
import { Refusal, api, refusalText, rememberSeat } from "./net.js";
import { paceWords, when } from "./pace.js";
import { action } from "./social.js";

/** @import { Pace } from "./protocol.js" */
/** A challenge the player received, open (`pace`: null for real-time). @typedef {{ id: number, name: string, players: number, rated: boolean, pace: Pace | null, expires: string }} Received */
/** A challenge of the player's, accepted: its seat waits. @typedef {{ id: number, name: string, table: string }} Accepted */
/** A challenge of the player's waiting for its answer. @typedef {{ id: number, to: string, players: number, rated: boolean, pace: Pace | null, expires: string }} Waiting */
/** @typedef {{ received: Received[], accepted: Accepted[], waiting: Waiting[], poll: number }} News */
/** A seat at a challenge's table and its credential. @typedef {{ code: string, seat: number, token: string }} Seat */

/**
 * "2 players, rated" in the reader's language, and the pace of a table at one's own pace (a real-time
 * one, as every table is unless it says otherwise, says none), as the notification says it.
 * @param {Received | Waiting} offered
 */
function kind(offered) {
  const table = t(offered.rated ? "social.table_rated" : "social.table_casual", { count: offered.players });
  return offered.pace ? t("social.table_pace", { table, pace: paceWords(offered.pace) }) : table;
}

/**
 * Takes the seat and goes to the table.
 * @param {Seat} seat
 */
function sitDown(seat) {
  rememberSeat(seat.code, seat.token);
  location.href = `/t/${encodeURIComponent(seat.code)}`;
}

export class NewsCard {
  /**
   * @param {HTMLElement} box the card it fills (hidden while there is nothing to say)
   * @param {(message: string) => void} onError
   */
  constructor(box, onError) {
    this.box = box;
    this.onError = onError;
    /** @type {Set<number>} challenges sent from this page: accepted, they take the player to the table */
    this.sent = new Set();
    /** @type {News | null} */
    this.news = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.drawn = ""; // what was drawn last: the same news in the same language is not drawn again
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.refresh();
    });
  }

  // Asks now, then every `poll` seconds while the page is in sight.
  async refresh() {
    clearTimeout(this.timer);
    try {
      this.news = /** @type {News} */ (await api("GET", "/api/social/news"));
      this.draw();
      const going = this.news.accepted.find((accepted) => this.sent.has(accepted.id));
      if (going) await this.toTable(going);
    } catch (err) {
      this.onError(refusalText(err));
    }
    if (!document.hidden) this.timer = setTimeout(() => this.refresh(), (this.news?.poll ?? 10) * 1000);
  }

  /**
   * A challenge this page just sent.
   * @param {number} id
   */
  sentNow(id) {
    this.sent.add(id);
    this.refresh();
  }

  /**
   * The challenger's seat at the table their accepted challenge made; a seat taken already (another
   * tab) is theirs all the same: the table opens on it.
   * @param {Accepted} accepted
   */
  async toTable(accepted) {
    this.sent.delete(accepted.id);
    try {
      sitDown(await changeAccount("POST", `/api/social/challenges/${accepted.id}/seat`));
    } catch (err) {
      if (err instanceof Refusal && err.said.code === "social.seat_taken") location.href = `/t/${accepted.table}`;
      else throw err;
    }
  }

  /**
   * A line of the card: its words, what they are about in small, until when a challenge stays open
   * (an ISO time; its answer is due then), and its buttons.
   * @param {string} words
   * @param {string} detail
   * @param {HTMLButtonElement[]} buttons
   * @param {string} [expires]
   */
  line(words, detail, buttons, expires = "") {
    const li = h("li", { class: "news-line" });
    const text = h("div", {}, li);
    h("strong", {}, text, words);
    if (detail) h("small", { class: "muted" }, text, detail);
    if (expires) {
      const until = t("social.open_until", { when: when(Date.parse(expires) / 1000) });
      h("small", { class: "muted" }, text).append(h("time", { datetime: expires }, null, until));
    }
    h("div", { class: "row" }, li).append(...buttons);
    return li;
  }

  /**
   * A button doing `work` on the server, then asking for the news again.
   * @param {string} code
   * @param {() => Promise<unknown>} work
   */
  button(code, work) {
    return action(code, async () => {
      await work();
      await this.refresh();
    }, this.onError);
  }

  /** @param {Received} received */
  receivedLine(received) {
    const path = `/api/social/challenges/${received.id}`;
    const accept = action("social.accept", async () => sitDown(await changeAccount("POST", `${path}/accept`)), this.onError);
    accept.classList.add("primary");
    const decline = this.button("social.decline", () => changeAccount("POST", `${path}/decline`));
    return this.line(t("social.challenged_you", { name: received.name }), kind(received), [accept, decline], received.expires);
  }

  /** @param {Accepted} accepted */
  acceptedLine(accepted) {
    const go = action("social.go", () => this.toTable(accepted), this.onError);
    go.classList.add("primary");
    return this.line(t("social.answer.accepted", { name: accepted.name }), "", [go]);
  }

  draw() {
    const news = this.news;
    const drawing = JSON.stringify([news, language()]);
    if (drawing === this.drawn) return;
    this.drawn = drawing;
    const lines = news
      ? [
          ...news.received.map((received) => this.receivedLine(received)),
          ...news.accepted.map((accepted) => this.acceptedLine(accepted)),
          ...news.waiting.map((mine) =>
            this.line(t("social.waiting_for", { name: mine.to }), kind(mine), [
              this.button("social.withdraw", () => changeAccount("POST", `/api/social/challenges/${mine.id}/withdraw`)),
            ], mine.expires),
          ),
        ]
      : [];
    setHidden(this.box, lines.length === 0);
    const title = h("h2", {}, null, t("social.challenges"));
    this.box.replaceChildren(title, h("ul", { class: "news", "aria-live": "polite" }, null));
    /** @type {HTMLElement} */ (this.box.lastElementChild).append(...lines);
  }
}
