// @ts-check
// Company at the table: leaving (a bot plays until you come back), the creator listing the table in
// the lobby or reopening an absent player's seat, and the rematch at the match's end.

import { confirmAction } from "./confirm.js";
import { byId, setHidden, setText } from "./dom.js";
import { Drawn } from "./drawn.js";
import { joinNames, t } from "./i18n.js";
import { invitesOf, refusalText, rememberInvites, rememberSeat } from "./net.js";

/** @import { RematchMessage } from "./protocol.js" */

const LEFT = "cf-left"; // tables this browser left, to come back to from the lobby
const REMEMBERED = 5;
// Seconds between the rematch being made and the player moving to its table: long enough to read
// the last result and say goodbye in the chat, short enough to keep the evening's rhythm.
const COUNTDOWN = 5;

/**
 * What company may ask of the table: a request about it with the seat's credential (POST
 * /api/tables/CODE/PATH), a short message to the player, and drawing the page again.
 * @typedef {object} CompanyPort
 * @property {string} code the table's code
 * @property {<T>(path: string, body?: Record<string, unknown>) => Promise<T>} request
 * @property {(text: string) => void} toast
 * @property {() => void} changed
 */

/**
 * The tables this browser left while their match went on (newest first).
 * @returns {string[]}
 */
export function leftTables() {
  const left = JSON.parse(localStorage.getItem(LEFT) ?? "[]");
  return Array.isArray(left) ? left.filter((code) => typeof code === "string") : [];
}

/** @param {string} code */
function rememberLeft(code) {
  const codes = [code, ...leftTables().filter((c) => c !== code)].slice(0, REMEMBERED);
  localStorage.setItem(LEFT, JSON.stringify(codes));
}

// The card of leaving and listing the table, and the creator's reopening of a seat.
export class Company {
  /** @param {CompanyPort} port */
  constructor(port) {
    this.port = port;
    this.card = byId("company");
    this.leaveButton = byId("leave", HTMLButtonElement);
    this.publicToggle = byId("public-toggle");
    this.publicBox = byId("table-public", HTMLInputElement);
    this.leaveButton.addEventListener("click", () => this.leave());
    this.publicBox.addEventListener("change", () => this.makePublic(this.publicBox.checked));
    /** @type {Drawn<{ seated: boolean, creator: boolean, over: boolean, listed: boolean }>} */
    this.drawn = new Drawn((slice) => this.draw(slice));
  }

  /** @param {{ seated: boolean, creator: boolean, over: boolean, listed: boolean }} slice */
  update(slice) {
    this.drawn.update(slice);
  }

  /** @param {{ seated: boolean, creator: boolean, over: boolean, listed: boolean }} s */
  draw({ seated, creator, over, listed }) {
    setHidden(this.leaveButton, !seated || over);
    setHidden(this.publicToggle, !creator || over);
    setHidden(this.card, (!seated || over) && (!creator || over));
    this.publicBox.checked = listed;
  }

  async leave() {
    if (!(await confirmAction(t("table.leave_confirm"), t("table.leave")))) return;
    try {
      await this.port.request("leave");
      rememberLeft(this.port.code);
      location.href = "/";
    } catch (err) {
      this.port.toast(refusalText(err));
    }
  }

  /** @param {boolean} value */
  async makePublic(value) {
    try {
      await this.port.request("public", { public: value });
    } catch (err) {
      this.port.toast(refusalText(err));
    }
  }

  /**
   * The creator's new invite for an absent friend's seat (the old one opens nothing after).
   * @param {number} seat
   * @param {string} name
   */
  async reopen(seat, name) {
    if (!(await confirmAction(t("table.reopen_confirm", { name }), t("table.reopen")))) return;
    // The seat's old invite opens nothing once it is reopened: forgotten first, so a state that
    // frees the seat before this answer arrives never shows it.
    const code = this.port.code;
    const kept = invitesOf(code).filter((i) => i.seat !== seat);
    rememberInvites(code, kept);
    try {
      /** @type {{ invite: string }} */
      const { invite } = await this.port.request(`seats/${seat}/reopen`);
      rememberInvites(code, [...kept, { seat, invite }]);
      this.port.changed();
    } catch (err) {
      this.port.toast(refusalText(err));
    }
  }
}

/**
 * What the rematch box draws: the seats' names, whether the player may offer one (a person seated)
 * and has, and the last `rematch` message.
 * @typedef {{ names: string[], offer: boolean, accepted: boolean, message: RematchMessage }} RematchSlice
 */

// At the match's end: "Same seats, new match", who accepted and who is awaited, and once the new
// table is made a short countdown before the player moves there.
export class Rematch {
  /**
   * @param {CompanyPort} port
   * @param {(message: RematchMessage) => void} answered the server's answer to the player's offer
   */
  constructor(port, answered) {
    this.port = port;
    this.answered = answered;
    this.box = byId("rematch");
    this.offerButton = byId("rematch-offer", HTMLButtonElement);
    this.status = byId("rematch-status");
    this.countdownLine = byId("rematch-countdown");
    this.go = byId("rematch-go", HTMLAnchorElement);
    this.moving = false;
    /** @type {{ code: string, ends: number, timer: ReturnType<typeof setTimeout> | undefined } | null} while the player is about to move to the rematch */
    this.countdown = null;
    this.offerButton.addEventListener("click", () => this.offer());
    this.go.addEventListener("click", (e) => {
      if (!this.countdown) return; // a spectator follows the plain link
      e.preventDefault();
      this.move(this.countdown.code);
    });
    /** @type {Drawn<RematchSlice | null>} */
    this.drawn = new Drawn((slice) => this.draw(slice));
  }

  /**
   * A `rematch` message: once the new table is made, a seated player counts down to it.
   * @param {RematchMessage} message
   * @param {boolean} seated
   */
  receive(message, seated) {
    if (message.code && seated && !this.moving && !this.countdown) this.count(message.code);
  }

  async offer() {
    try {
      /** @type {RematchMessage} */
      const answer = await this.port.request("rematch");
      this.answered(answer);
    } catch (err) {
      this.port.toast(refusalText(err));
    }
  }

  /**
   * A short countdown, shown, before the player takes their seat at the new table (whose first
   * round is played once every seat there is taken), or at once with "Go now".
   * @param {string} code
   */
  count(code) {
    const ends = Date.now() + COUNTDOWN * 1000;
    const countdown = { code, ends, timer: /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined) };
    const tick = () => {
      const left = Math.ceil((ends - Date.now()) / 1000);
      if (left <= 0) {
        this.move(code);
        return;
      }
      countdown.timer = setTimeout(tick, ends - (left - 1) * 1000 - Date.now());
      this.drawCountdown();
    };
    this.countdown = countdown;
    tick();
  }

  drawCountdown() {
    const c = this.countdown;
    setHidden(this.countdownLine, !c || this.moving);
    if (!c || this.moving) return;
    const count = Math.max(1, Math.ceil((c.ends - Date.now()) / 1000));
    setText(this.countdownLine, t("rematch.countdown", { count }));
  }

  /**
   * Take this seat at the new table with a fresh credential, then go there.
   * @param {string} code
   */
  async move(code) {
    if (this.moving) return;
    clearTimeout(this.countdown?.timer);
    this.moving = true;
    try {
      /** @type {{ code: string, token: string }} */
      const seat = await this.port.request("rematch/seat");
      rememberSeat(seat.code, seat.token);
    } catch (err) {
      this.port.toast(refusalText(err)); // taken already (another tab of this browser): go and see
    }
    location.href = `/t/${encodeURIComponent(code)}`;
  }

  /** @param {RematchSlice | null} slice null before the match is over */
  update(slice) {
    this.drawn.update(slice);
  }

  /** @param {RematchSlice | null} s */
  draw(s) {
    setHidden(this.box, !s);
    if (!s) return;
    const r = s.message;
    /** @param {number[]} seats */
    const names = (seats) => joinNames(seats.map((seat) => s.names[seat]));
    setHidden(this.offerButton, !s.offer || !!r.code);
    this.offerButton.disabled = s.accepted;
    const lines = [];
    if (r.accepted.length) lines.push(t("rematch.wanted", { names: names(r.accepted), count: r.accepted.length }));
    if (r.waiting.length && !r.code) lines.push(t("rematch.waiting", { names: names(r.waiting) }));
    if (r.code) lines.push(t("rematch.ready", { code: r.code }));
    setText(this.status, lines.join(" · "));
    setHidden(this.go, !r.code);
    if (r.code) this.go.href = `/t/${encodeURIComponent(r.code)}`;
    setText(this.go, t(this.countdown ? "rematch.go_now" : "rematch.go"));
    this.drawCountdown();
  }
}
