// The line over the board that says what the table waits for (a polite live region: it is written
// only when its words change, so a screen reader hears each once), the turn timer's countdown, the
// countdown of a player who left before their bot takes over (both from the server's deadlines), the
// boneyard's count and the draw and pass buttons.

import { seatNames, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

export class StatusLine {
  constructor() {
    this.clockTimer = null;
    this.graceTimer = null;
  }

  render(s, myTurn, reconnecting) {
    let text;
    if (reconnecting) text = t("connection.paused");
    else if (s.status === "waiting") text = t((s.free_seats ?? []).length ? "table.status_waiting" : "ready.title");
    else if (s.match_over) text = t("match.over");
    else if (s.round_over) text = t("round.over", { round: s.round });
    else if (s.phase === "empty") text = t("table.waiting_hub", { round: s.round, tile: `${s.start_double}-${s.start_double}` });
    else if (myTurn) text = s.phase === "foot" ? t("table.finish_foot", { tile: s.foot }) : s.phase === "hub" ? t("table.start_arm") : t("event.your_turn");
    else text = t("event.turn", { name: seatNames(s)[s.to_move] });
    if ($("status").textContent !== text) $("status").textContent = text;
    this.renderClock(s, myTurn);
    this.renderGrace(s);
    $("boneyard").textContent = t("ui.boneyard", { count: s.boneyard });
    const legal = myTurn ? s.legal : [];
    $("draw").hidden = !legal.includes("draw");
    $("pass").hidden = !legal.includes("pass");
  }

  // The turn timer's countdown, from the table's deadline (the server's bot plays when it runs out).
  renderClock(s, myTurn) {
    const clock = $("clock");
    const deadline = s.turn_deadline;
    clearTimeout(this.clockTimer);
    if (!deadline) {
      clock.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
    clock.hidden = false;
    clock.textContent = myTurn ? t("table.clock_you", { seconds: left }) : t("table.clock", { name: seatNames(s)[s.to_move], seconds: left });
    clock.classList.toggle("low", left <= 10);
    if (left > 0) this.clockTimer = setTimeout(() => this.renderClock(s, myTurn), 1000);
  }

  // "Bo left — a bot takes over in 8 s": for each other seat in its grace, until it is covered or back.
  renderGrace(s) {
    const box = $("grace");
    clearTimeout(this.graceTimer);
    const now = Date.now() / 1000;
    const names = seatNames(s);
    const lines = (s.grace ?? [])
      .map((deadline, seat) => [deadline, seat])
      .filter(([deadline, seat]) => deadline !== null && seat !== s.seat)
      .map(([deadline, seat]) => t("grace.countdown", { name: names[seat], seconds: Math.max(0, Math.ceil(deadline - now)) }));
    box.hidden = !lines.length;
    box.textContent = lines.join(" · ");
    if (lines.length) this.graceTimer = setTimeout(() => this.renderGrace(s), 1000);
  }
}
