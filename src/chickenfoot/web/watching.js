// @ts-check
// Spectators know they are watching: a banner with the reason the server gives when they connect
// (no seat here; their seat open on another device; a seat here follows an account, so signing in
// may take it), and the number of people watching, shown to everyone at the table.

import { h, setHidden } from "./dom.js";
import { Drawn } from "./drawn.js";
import { t } from "./i18n.js";

/** @type {Record<string, string>} */
const REASONS = { no_seat: "watching.no_seat", seat_elsewhere: "watching.seat_elsewhere", sign_in: "watching.sign_in" };

export class Watching {
  /**
   * @param {HTMLElement} banner
   * @param {HTMLElement} count
   */
  constructor(banner, count) {
    this.banner = banner;
    this.count = count;
    /** @type {Drawn<{ reason: string | null, code: string }>} */
    this.drawnBanner = new Drawn(({ reason, code }) => this.drawBanner(reason, code));
    /** @type {Drawn<number>} */
    this.drawnCount = new Drawn((count) => this.drawCount(count));
  }

  /**
   * The reason is the state's `watching.reason`, sent to a client without a seat.
   * @param {{ seat: number | null, code: string, watching?: { reason: string }, spectators?: number }} s
   */
  update(s) {
    const reason = s.watching?.reason ?? "";
    this.drawnBanner.update({ reason: s.seat === null && Object.hasOwn(REASONS, reason) ? reason : null, code: s.code });
    this.drawnCount.update(s.spectators ?? 0);
  }

  /**
   * @param {string | null} reason
   * @param {string} code
   */
  drawBanner(reason, code) {
    const box = this.banner;
    setHidden(box, reason === null);
    if (reason === null) return;
    box.replaceChildren(h("strong", {}, null, t("watching.title")), " ", h("span", {}, null, t(REASONS[reason])));
    if (reason === "sign_in") box.append(" ", h("a", { href: `/signin?next=/t/${encodeURIComponent(code)}` }, null, t("watching.sign_in_link")));
  }

  /** @param {number} count */
  drawCount(count) {
    setHidden(this.count, count === 0);
    this.count.textContent = t("table.spectators", { count });
  }
}
