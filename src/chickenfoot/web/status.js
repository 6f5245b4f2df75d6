// @ts-check
// The line over the board that says what the table waits for (a polite live region: it is written
// only when its words change, so a screen reader hears each once), the turn timer's countdown, the
// countdown of a player who left before their bot takes over (both from the server's deadlines), the
// boneyard's count and the draw and pass buttons.

import { byId, setHidden, setText } from "./dom.js";
import { Drawn } from "./drawn.js";
import { seatNames, t } from "./i18n.js";

/** @import { State } from "./protocol.js" */

/**
 * What the status line draws.
 * @typedef {object} StatusSlice
 * @property {string} text what the table waits for
 * @property {{ deadline: number, mine: boolean, name: string } | null} clock the turn timer: when the seat to move loses its turn (seconds since the epoch)
 * @property {[string, number][]} grace each other seat in its grace: its name, and when its bot takes over
 * @property {number} boneyard
 * @property {boolean} draw the player may draw
 * @property {boolean} pass the player may pass
 */

/**
 * The status line's slice of STATE `s`.
 * @param {State} s
 * @param {boolean} myTurn
 * @param {boolean} reconnecting
 * @returns {StatusSlice}
 */
export function statusSlice(s, myTurn, reconnecting) {
  const names = seatNames(s);
  let text;
  if (reconnecting) text = t("connection.paused");
  else if (s.status === "waiting") text = t((s.free_seats ?? []).length ? "table.status_waiting" : "ready.title");
  else if (typeof s.lost_on_time === "number") text = t("event.lost_on_time", { name: names[s.lost_on_time] });
  else if (s.match_over || s.status === "finished") text = t("match.over");
  else if (s.round_over) text = t("round.over", { round: s.round });
  else if (s.phase === "empty") text = t("table.waiting_hub", { round: s.round, tile: `${s.start_double}-${s.start_double}` });
  else if (myTurn) text = s.phase === "foot" ? t("table.finish_foot", { tile: s.foot }) : s.phase === "hub" ? t("table.start_arm") : t("event.your_turn");
  else text = t("event.turn", { name: names[s.to_move] });
  const legal = myTurn ? s.legal : [];
  return {
    text,
    // A turn-based table's deadline is hours or days away: its pace line says until when (pace.js).
    clock: s.turn_deadline && !s.pace ? { deadline: s.turn_deadline, mine: myTurn, name: names[s.to_move] } : null,
    grace: (s.grace ?? []).flatMap((deadline, seat) => (deadline !== null && seat !== s.seat ? [/** @type {[string, number]} */ ([names[seat], deadline])] : [])),
    boneyard: s.boneyard,
    draw: legal.includes("draw"),
    pass: legal.includes("pass"),
  };
}

export class StatusLine {
  constructor() {
    this.status = byId("status");
    this.clock = byId("clock");
    this.graceBox = byId("grace");
    this.boneyard = byId("boneyard");
    this.drawButton = byId("draw", HTMLButtonElement);
    this.passButton = byId("pass", HTMLButtonElement);
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.clockTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.graceTimer = undefined;
    /** @type {Drawn<StatusSlice["clock"]>} */
    this.drawnClock = new Drawn((clock) => this.drawClock(clock));
    /** @type {Drawn<StatusSlice["grace"]>} */
    this.drawnGrace = new Drawn((grace) => this.drawGrace(grace));
  }

  /** @param {StatusSlice} s */
  update(s) {
    setText(this.status, s.text);
    this.drawnClock.update(s.clock);
    this.drawnGrace.update(s.grace);
    setText(this.boneyard, t("ui.boneyard", { count: s.boneyard }));
    setHidden(this.drawButton, !s.draw);
    setHidden(this.passButton, !s.pass);
  }

  /**
   * The turn timer's countdown, from the table's deadline (the server's bot plays when it runs out).
   * @param {StatusSlice["clock"]} clock
   */
  drawClock(clock) {
    clearTimeout(this.clockTimer);
    setHidden(this.clock, !clock);
    if (!clock) return;
    const left = Math.max(0, Math.ceil(clock.deadline - Date.now() / 1000));
    setText(this.clock, clock.mine ? t("table.clock_you", { seconds: left }) : t("table.clock", { name: clock.name, seconds: left }));
    this.clock.classList.toggle("low", left <= 10);
    if (left > 0) this.clockTimer = setTimeout(() => this.drawClock(clock), 1000);
  }

  /**
   * "Bo left — a bot takes over in 8 s": for each other seat in its grace, until it is covered or back.
   * @param {StatusSlice["grace"]} grace
   */
  drawGrace(grace) {
    clearTimeout(this.graceTimer);
    const now = Date.now() / 1000;
    const lines = grace.map(([name, deadline]) => t("grace.countdown", { name, seconds: Math.max(0, Math.ceil(deadline - now)) }));
    setHidden(this.graceBox, !lines.length);
    setText(this.graceBox, lines.join(" · "));
    if (lines.length) this.graceTimer = setTimeout(() => this.drawGrace(grace), 1000);
  }
}
