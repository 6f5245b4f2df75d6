// Company at the table: leaving (a bot plays until you come back), the creator listing the table in
// the lobby or reopening an absent player's seat, and the rematch at the match's end.

import { confirmAction } from "./confirm.js";
import { joinNames, seatNames, t } from "./i18n.js";
import { api, invitesOf, rememberInvites, rememberSeat } from "./net.js";

const $ = (id) => document.getElementById(id);
const LEFT = "cf-left"; // tables this browser left, to come back to from the lobby
const REMEMBERED = 5;
// Seconds between the rematch being made and the player moving to its table: long enough to read
// the last result and say goodbye in the chat, short enough to keep the evening's rhythm.
const COUNTDOWN = 5;

// The tables this browser left while their match went on (newest first).
export function leftTables() {
  return JSON.parse(localStorage.getItem(LEFT) ?? "[]");
}

function rememberLeft(code) {
  const codes = [code, ...leftTables().filter((c) => c !== code)].slice(0, REMEMBERED);
  localStorage.setItem(LEFT, JSON.stringify(codes));
}

export class Company {
  constructor(page) {
    this.page = page;
    this.rematch = null; // the last `rematch` message
    this.moving = false;
    this.countdown = null; // {code, ends, timer} while the player is about to move to the rematch
    $("leave").addEventListener("click", () => this.leave());
    $("table-public").addEventListener("change", () => this.makePublic($("table-public").checked));
    $("rematch-offer").addEventListener("click", () => this.offer());
    $("rematch-go").addEventListener("click", (e) => {
      if (!this.countdown) return; // a spectator follows the plain link
      e.preventDefault();
      this.move(this.countdown.code);
    });
  }

  get path() {
    return `/api/tables/${encodeURIComponent(this.page.code)}`;
  }

  render(s) {
    const seated = s.seat !== null;
    const creator = seated && s.seat === s.creator;
    $("leave").hidden = !seated || !!s.match_over;
    $("public-toggle").hidden = !creator || !!s.match_over;
    $("company").hidden = $("leave").hidden && $("public-toggle").hidden;
    $("table-public").checked = !!s.public;
    this.renderRematch(s);
  }

  // The creator's buttons for an absent friend's seat: beside "Bot", "Reopen" (a new invite).
  reopenButton(seat, name) {
    return seatButton("reopen", t("table.reopen"), t("table.reopen_title", { name }), () => this.reopen(seat, name));
  }

  async leave() {
    if (!(await confirmAction(t("table.leave_confirm"), t("table.leave")))) return;
    try {
      await api("POST", `${this.path}/leave`, { token: this.page.token });
      rememberLeft(this.page.code);
      location.href = "/";
    } catch (err) {
      this.page.toast(err.message);
    }
  }

  async makePublic(value) {
    try {
      await api("POST", `${this.path}/public`, { token: this.page.token, public: value });
    } catch (err) {
      this.page.toast(err.message);
    }
  }

  async reopen(seat, name) {
    if (!(await confirmAction(t("table.reopen_confirm", { name }), t("table.reopen")))) return;
    // The seat's old invite opens nothing once it is reopened: forgotten first, so a state that
    // frees the seat before this answer arrives never shows it.
    const kept = invitesOf(this.page.code).filter((i) => i.seat !== seat);
    rememberInvites(this.page.code, kept);
    try {
      const { invite } = await api("POST", `${this.path}/seats/${seat}/reopen`, { token: this.page.token });
      rememberInvites(this.page.code, [...kept, { seat, invite }]);
      this.page.render();
    } catch (err) {
      this.page.toast(err.message);
    }
  }

  async offer() {
    try {
      this.onRematch(await api("POST", `${this.path}/rematch`, { token: this.page.token }));
    } catch (err) {
      this.page.toast(err.message);
    }
  }

  // A `rematch` message: who accepted, who is awaited, and the new table once made.
  onRematch(message) {
    this.rematch = message;
    this.page.dismissedRound = null; // the match's results come back up, with the rematch
    const seated = this.page.state?.seat !== null;
    if (message.code && seated && !this.moving && !this.countdown) this.count(message.code);
    if (this.page.state) this.page.render();
  }

  // A short countdown, shown, before the player takes their seat at the new table (whose first
  // round is played once every seat there is taken), or at once with "Go now".
  count(code) {
    const ends = Date.now() + COUNTDOWN * 1000;
    const tick = () => {
      const left = Math.ceil((ends - Date.now()) / 1000);
      if (left <= 0) {
        this.move(code);
        return;
      }
      this.countdown.timer = setTimeout(tick, ends - (left - 1) * 1000 - Date.now());
      this.renderCountdown();
    };
    this.countdown = { code, ends, timer: null };
    tick();
  }

  renderCountdown() {
    const shown = $("rematch-countdown");
    const c = this.countdown;
    shown.hidden = !c || this.moving;
    if (shown.hidden) return;
    const count = Math.max(1, Math.ceil((c.ends - Date.now()) / 1000));
    shown.textContent = t("rematch.countdown", { count });
  }

  // Take this seat at the new table with a fresh credential, then go there.
  async move(code) {
    if (this.moving) return;
    clearTimeout(this.countdown?.timer);
    this.moving = true;
    try {
      const seat = await api("POST", `${this.path}/rematch/seat`, { token: this.page.token });
      rememberSeat(seat.code, seat.token);
    } catch (err) {
      this.page.toast(err.message); // taken already (another tab of this browser): go and see
    }
    location.href = `/t/${encodeURIComponent(code)}`;
  }

  renderRematch(s) {
    const box = $("rematch");
    box.hidden = !s.match_over;
    if (!s.match_over) return;
    const r = this.rematch ?? { accepted: [], waiting: [], code: null };
    const shown = seatNames(s);
    const names = (seats) => joinNames(seats.map((seat) => shown[seat]));
    const offer = $("rematch-offer");
    offer.hidden = s.seat === null || s.kinds[s.seat] !== "human" || !!r.code;
    offer.disabled = r.accepted.includes(s.seat);
    const lines = [];
    if (r.accepted.length) lines.push(t("rematch.wanted", { names: names(r.accepted), count: r.accepted.length }));
    if (r.waiting.length && !r.code) lines.push(t("rematch.waiting", { names: names(r.waiting) }));
    if (r.code) lines.push(t("rematch.ready", { code: r.code }));
    $("rematch-status").textContent = lines.join(" · ");
    const go = $("rematch-go");
    go.hidden = !r.code;
    if (r.code) go.href = `/t/${encodeURIComponent(r.code)}`;
    go.textContent = t(this.countdown ? "rematch.go_now" : "rematch.go");
    this.renderCountdown();
  }
}

// A small button on a seat's card: its visible word, and a title that names the seat for every reader.
export function seatButton(className, label, title, onClick) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  button.textContent = label;
  button.title = title;
  button.setAttribute("aria-label", title);
  button.addEventListener("click", onClick);
  return button;
}
