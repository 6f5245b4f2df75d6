// The scores: the side panel's table, and the dialog with a finished round's (and match's) results.
// The dialog takes focus when it opens and gives it back to where the player was when it closes.

import { say, seatNames, t } from "./i18n.js";
import { ratingChanges } from "./rating.js";
import { tileSvg } from "./tiles.js";

const $ = (id) => document.getElementById(id);

// The finished match's replay with its review.
export function replayLink(code) {
  const a = document.createElement("a");
  a.href = `/r/${code}`;
  a.className = "replay-link";
  a.textContent = t("table.replay");
  return a;
}

// Each seat's points per round and in total; `withHands`: also the hand it was caught with.
function scoreTable(s, withHands) {
  const table = document.createElement("table");
  table.className = "score-table";
  const head = table.createTHead().insertRow();
  const th = (text) => {
    const cell = document.createElement("th");
    cell.textContent = text;
    head.appendChild(cell);
  };
  th(t("ui.player"));
  if (withHands) [t("ui.hand"), t("table.this_round")].forEach(th);
  s.scores.forEach((_, r) => th(t("ui.round_short", { round: r + 1 })));
  th(t("ui.total"));
  const body = table.createTBody();
  seatNames(s).forEach((name, seat) => {
    const row = body.insertRow();
    row.insertCell().textContent = name;
    if (withHands) {
      // A flex box inside the cell: a flex cell would lose the table's row lines.
      const hand = document.createElement("div");
      hand.className = "revealed";
      for (const t of s.round_over.hands[seat]) hand.appendChild(tileSvg(t));
      row.insertCell().appendChild(hand);
      row.insertCell().textContent = String(s.round_over.points[seat]);
    }
    for (const round of s.scores) row.insertCell().textContent = String(round[seat]);
    row.insertCell().textContent = String(s.totals[seat]);
    row.classList.add("total");
  });
  return table;
}

// The series of rematches this match belongs to (the server's `series` message: the matches before
// this one and the matches each seat won among them), counting this match once it is over; with the
// previous match's replay one click away. Nothing for a match that is no rematch.
export function seriesBox(s, series) {
  const box = document.createElement("div");
  box.className = "series";
  if (!series) return box;
  const winners = s.match_over?.winners ?? [];
  const played = series.played + (s.match_over ? 1 : 0);
  const title = document.createElement("h3");
  title.textContent = t("series.title", { count: played });
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const text of [t("ui.player"), t("series.won")]) {
    const th = document.createElement("th");
    th.textContent = text;
    head.appendChild(th);
  }
  const body = table.createTBody();
  seatNames(s).forEach((name, seat) => {
    const row = body.insertRow();
    row.insertCell().textContent = name;
    row.insertCell().textContent = String((series.wins[seat] ?? 0) + (winners.includes(seat) ? 1 : 0));
  });
  const previous = document.createElement("a");
  previous.href = `/r/${encodeURIComponent(series.previous)}`;
  previous.className = "previous-match";
  previous.textContent = t("series.previous");
  box.append(title, table, previous);
  return box;
}

export function renderScores(box, s, series) {
  box.className = "scores";
  box.replaceChildren(scoreTable(s, false), seriesBox(s, series));
}

export class ResultsDialog {
  constructor(onClose) {
    this.dialog = $("round-over");
    this.returnTo = null; // what had focus before the dialog opened
    this.series = null; // the table's `series` message, if it is a rematch
    $("ro-close").addEventListener("click", onClose);
  }

  // The results of the last finished round `s` (its own STATE), over the table's present `state`;
  // `shown` false takes the dialog down.
  render(s, state, shown) {
    const dialog = this.dialog;
    if (!shown) {
      this.close();
      return;
    }
    const opening = dialog.hidden;
    dialog.hidden = false;
    const dealt = state.round !== s.round;
    const over = s.round_over;
    const out = over.hands.findIndex((hand) => hand.length === 0);
    const names = seatNames(s);
    $("ro-title").textContent =
      over.reason !== "domino"
        ? t("event.round_over.blocked", { round: s.round })
        : out === s.seat
          ? t("event.round_over.domino_you", { round: s.round })
          : t("event.round_over.domino", { round: s.round, name: names[out] });
    const body = $("ro-body");
    body.replaceChildren();
    // Who won the round: the fewest points left in hand (the one who went out, or on a blocked
    // round whoever is caught with least).
    const least = Math.min(...over.points);
    const won = over.points.flatMap((points, seat) => (points === least ? [seat] : []));
    const winners = document.createElement("p");
    winners.className = "round-winner";
    winners.textContent = say({ code: "round.won", names: won, count: won.length }, names);
    const note = document.createElement("p");
    note.textContent = t("round.scoring", { points: s.rules.double_blank_points });
    body.append(winners, note, scoreTable(s, true));
    if (s.match_over) {
      const win = document.createElement("p");
      win.className = "winner";
      const winners = s.match_over.winners;
      win.textContent = say({ code: "event.match_over", names: winners, count: winners.length }, names);
      const why = document.createElement("p");
      why.textContent = s.match_over.why ? say(s.match_over.why, names) : s.match_over.explanation;
      body.append(win, why, ratingChanges(s), seriesBox(s, this.series), replayLink(s.code));
    }
    if (dealt) {
      const next = document.createElement("p");
      next.className = "dealt";
      next.textContent = t("round.dealt", { round: state.round });
      body.append(next);
    }
    $("next-round").hidden = !!s.match_over || s.seat === null || dealt;
    $("ro-close").textContent = t(dealt ? "table.play_on" : "table.look");
    if (opening) {
      this.returnTo = document.activeElement;
      $("ro-title").focus(); // a screen reader reads the result first, then the buttons follow
    }
  }

  close() {
    const dialog = this.dialog;
    if (dialog.hidden) return;
    const inside = dialog.contains(document.activeElement);
    dialog.hidden = true;
    const back = this.returnTo?.isConnected ? this.returnTo : null;
    this.returnTo = null;
    if (inside) (back ?? document.querySelector("#hand button") ?? document.body).focus();
  }
}
