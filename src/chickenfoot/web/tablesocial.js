// @ts-check
// Friends and blocks at the table, for a signed-in player: each chat line of someone else has a small
// menu (follow, block, report its speaker); a finished match's results offer to follow the players
// with an account. Who is behind a seat or a line is never sent to the page: the server finds them
// from the table and the seat or the line's number (GET /api/social/tables/CODE says only which
// seats have an account).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api, refusalText } from "./net.js";
import { action, block, follow, report } from "./social.js";

/** @import { ChatLine } from "./protocol.js" */
/** A seat of the table with an account (GET /api/social/tables/CODE). @typedef {{ seat: number, you: boolean, following: boolean }} AccountSeat */

export class TableSocial {
  /**
   * @param {string} code
   * @param {(text: string) => void} toast
   */
  constructor(code, toast) {
    this.code = code;
    this.toast = toast;
    this.signedIn = false;
    /** @type {AccountSeat[] | null} asked once the match is over */
    this.seats = null;
    this.followBox = h("div", { class: "row follow-players" });
    /** @type {Set<number>} seats followed from the results */
    this.followed = new Set();
  }

  /** @param {string} message */
  failed(message) {
    this.toast(message);
  }

  /**
   * The menu of a chat line said by someone else (`speaker`: their name as the chat shows it), or
   * null for a guest reader or the reader's own line. Following or blocking names the speaker's
   * account: it is offered to the table's players, and to everyone once the match is over (the
   * server refuses it otherwise); a report names nobody to the reader, and is always offered.
   * @param {ChatLine} line
   * @param {string} speaker
   * @param {{ seat: number | null, over: boolean }} reader
   */
  lineActions(line, speaker, reader) {
    if (!this.signedIn || (line.seat !== null && line.seat === reader.seat)) return null;
    const target = { table: this.code, line: line.n };
    const menu = h("details", { class: "line-actions" });
    const label = t("social.line_actions");
    h("summary", { "aria-label": label, title: label }, menu, "⋯");
    const row = h("div", { class: "row" }, menu);
    /** @param {string} message */
    const onError = (message) => this.failed(message);
    if (reader.seat !== null || reader.over) {
      row.append(
        action("social.follow", async () => this.toast(t("social.followed", { name: await follow(target) })), onError),
        action(
          "social.block",
          async () => {
            const blocked = await block(target, speaker);
            if (blocked !== null) this.toast(t("social.blocked_now", { name: blocked }));
          },
          onError,
        ),
      );
    }
    row.append(
      action(
        "social.report",
        async () => {
          if (await report(target, t("social.report_line"))) this.toast(t("social.reported"));
        },
        onError,
      ),
    );
    return menu;
  }

  /**
   * The results' buttons to follow the players of the finished match (`names`: theirs, by seat) who
   * have an account, but for the reader and those they follow; asked for once.
   * @param {string[]} names
   */
  followRow(names) {
    if (!this.signedIn) return this.followBox;
    if (this.seats === null) {
      this.seats = [];
      api("GET", `/api/social/tables/${encodeURIComponent(this.code)}`)
        .then((/** @type {{ seats: AccountSeat[] }} */ answer) => {
          this.seats = answer.seats;
          this.drawFollows(names);
        })
        .catch((err) => this.failed(refusalText(err)));
    }
    this.drawFollows(names);
    return this.followBox;
  }

  /** @param {string[]} names */
  drawFollows(names) {
    const others = (this.seats ?? []).filter((s) => !s.you && !s.following && !this.followed.has(s.seat));
    this.followBox.replaceChildren(
      ...others.map(({ seat }) => {
        const name = names[seat] ?? "";
        const button = action(
          "social.follow",
          async () => {
            const followed = await follow({ table: this.code, seat });
            this.followed.add(seat);
            this.toast(t("social.followed", { name: followed }));
            this.drawFollows(names);
          },
          (message) => this.failed(message),
          t("social.follow_player", { name }),
        );
        button.textContent = t("social.follow_player", { name });
        return button;
      }),
    );
  }
}
