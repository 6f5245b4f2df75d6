// @ts-check
// The scores: the side panel's table, and the dialog with a finished round's (and match's) results.
// The dialog takes focus when it opens and gives it back to where the player was when it closes.

import { byId, h, setHidden, setText } from "./dom.js";
import { Drawn } from "./drawn.js";
import { say, t } from "./i18n.js";
import { ratingChanges } from "./rating.js";
import { tileSvg } from "./tiles.js";

/** @import { MatchOver, RatingChange, RoundOver, SeriesMessage } from "./protocol.js" */

/**
 * The scores of a match: each seat's name, points per finished round and total, and the winners
 * once it is over.
 * @typedef {{ names: string[], scores: number[][], totals: number[], winners: number[] | null }} Scores
 */

/**
 * The scores of STATE `s`, with its seats' `names`.
 * @param {{ scores: number[][], totals: number[], match_over: MatchOver | null }} s
 * @param {string[]} names
 * @returns {Scores}
 */
export function scoresOf(s, names) {
  return { names, scores: s.scores, totals: s.totals, winners: s.match_over?.winners ?? null };
}

/**
 * A finished round's results over the table as it is now.
 * @typedef {object} ResultsSlice
 * @property {string} code
 * @property {number} round the finished round
 * @property {number} now the round the table is at (a later one once the next is dealt)
 * @property {number | null} seat the player's seat
 * @property {RoundOver | null} over null: the match was lost on time before the round was over
 * @property {number | null} lostOnTime the seat whose time ran out, ending the match (a table of two)
 * @property {Scores} scores
 * @property {number} doubleBlank what the 0-0 counts, caught in hand
 * @property {MatchOver | null} matchOver
 * @property {SeriesMessage | null} series
 * @property {RatingChange[]} changes
 */

/**
 * Whether the table's match has ended: played to its end, or lost on time at a table of two (its rounds
 * not all played, so it has no `match_over`: the table's rule ended it).
 * @param {{ match_over: MatchOver | null, lost_on_time?: number | null }} s
 */
export function matchEnded(s) {
  return !!s.match_over || typeof s.lost_on_time === "number";
}

/**
 * The finished match's replay with its review.
 * @param {string} code
 */
export function replayLink(code) {
  return h("a", { href: `/r/${code}`, class: "replay-link" }, null, t("table.replay"));
}

/**
 * Each seat's points per round and in total; with `round`: also the hand it was caught with.
 * @param {Scores} s
 * @param {RoundOver | null} [round]
 */
function scoreTable(s, round = null) {
  const table = document.createElement("table");
  table.className = "score-table";
  const head = table.createTHead().insertRow();
  /** @param {string} text */
  const th = (text) => h("th", {}, head, text);
  th(t("ui.player"));
  if (round) [t("ui.hand"), t("table.this_round")].forEach(th);
  s.scores.forEach((_, r) => th(t("ui.round_short", { round: r + 1 })));
  th(t("ui.total"));
  const body = table.createTBody();
  s.names.forEach((name, seat) => {
    const row = body.insertRow();
    row.insertCell().textContent = name;
    if (round) {
      // A flex box inside the cell: a flex cell would lose the table's row lines.
      const hand = h("div", { class: "revealed" });
      for (const tile of round.hands[seat]) hand.appendChild(tileSvg(tile));
      row.insertCell().appendChild(hand);
      row.insertCell().textContent = String(round.points[seat]);
    }
    for (const points of s.scores) row.insertCell().textContent = String(points[seat]);
    row.insertCell().textContent = String(s.totals[seat]);
    row.classList.add("total");
  });
  return table;
}

/**
 * The series of rematches this match belongs to (the server's `series` message: the matches before
 * this one and the matches each seat won among them), counting this match once it is over; with the
 * previous match's replay one click away. Nothing for a match that is no rematch.
 * @param {Scores} s
 * @param {SeriesMessage | null} series
 */
export function seriesBox(s, series) {
  const box = h("div", { class: "series" });
  if (!series) return box;
  const winners = s.winners ?? [];
  const played = series.played + (s.winners ? 1 : 0);
  const title = h("h3", {}, null, t("series.title", { count: played }));
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const text of [t("ui.player"), t("series.won")]) h("th", {}, head, text);
  const body = table.createTBody();
  s.names.forEach((name, seat) => {
    const row = body.insertRow();
    row.insertCell().textContent = name;
    row.insertCell().textContent = String((series.wins[seat] ?? 0) + (winners.includes(seat) ? 1 : 0));
  });
  const previous = h("a", { href: `/r/${encodeURIComponent(series.previous)}`, class: "previous-match" }, null, t("series.previous"));
  box.append(title, table, previous);
  return box;
}

// The side panel's scores, with the series.
export class ScoresPanel {
  /** @param {HTMLElement} box */
  constructor(box) {
    box.className = "scores";
    /** @type {Drawn<{ scores: Scores, series: SeriesMessage | null }>} */
    this.drawn = new Drawn(({ scores, series }) => box.replaceChildren(scoreTable(scores), seriesBox(scores, series)));
  }

  /**
   * @param {Scores} scores
   * @param {SeriesMessage | null} series
   */
  update(scores, series) {
    this.drawn.update({ scores, series });
  }
}

export class ResultsDialog {
  /**
   * @param {() => void} onClose the player closed the results
   * @param {() => void} onNextRound the player asks for the next round
   * @param {(names: string[]) => HTMLElement | null} [follows] a finished match's way to follow its players
   */
  constructor(onClose, onNextRound, follows = () => null) {
    this.follows = follows;
    this.dialog = byId("round-over");
    this.title = byId("ro-title");
    this.body = byId("ro-body");
    this.next = byId("next-round", HTMLButtonElement);
    this.closer = byId("ro-close", HTMLButtonElement);
    /** @type {Element | null} what had focus before the dialog opened */
    this.returnTo = null;
    this.closer.addEventListener("click", onClose);
    this.next.addEventListener("click", onNextRound);
    /** @type {Drawn<ResultsSlice | null>} */
    this.drawn = new Drawn((slice) => this.draw(slice));
  }

  /**
   * The results of the last finished round, or null to take the dialog down.
   * @param {ResultsSlice | null} slice
   */
  update(slice) {
    this.drawn.update(slice);
  }

  /** @param {ResultsSlice | null} s */
  draw(s) {
    if (!s) {
      this.close();
      return;
    }
    const opening = this.dialog.hidden;
    setHidden(this.dialog, false);
    const dealt = s.now !== s.round;
    const names = s.scores.names;
    const ended = !!s.matchOver || s.lostOnTime !== null;
    /** @type {HTMLElement[]} */
    const parts = [];
    if (s.over) {
      const over = s.over;
      const out = over.hands.findIndex((hand) => hand.length === 0);
      setText(
        this.title,
        over.reason !== "domino"
          ? t("event.round_over.blocked", { round: s.round })
          : out === s.seat
            ? t("event.round_over.domino_you", { round: s.round })
            : t("event.round_over.domino", { round: s.round, name: names[out] }),
      );
      // Who won the round: the fewest points left in hand (the one who went out, or on a blocked
      // round whoever is caught with least).
      const least = Math.min(...over.points);
      const won = over.points.flatMap((points, seat) => (points === least ? [seat] : []));
      parts.push(
        h("p", { class: "round-winner" }, null, say({ code: "round.won", names: won, count: won.length }, names)),
        h("p", {}, null, t("round.scoring", { points: s.doubleBlank })),
        scoreTable(s.scores, over),
      );
    } else if (s.lostOnTime !== null) {
      // The table's rule ended the match: the other player won it, whatever the points so far.
      const late = s.lostOnTime;
      setText(this.title, t("event.lost_on_time", { name: names[late] }));
      const winners = names.flatMap((_, seat) => (seat === late ? [] : [seat]));
      parts.push(
        h("p", { class: "winner" }, null, say({ code: "event.match_over", names: winners, count: winners.length }, names)),
        scoreTable(s.scores),
      );
    }
    if (s.matchOver) {
      const winners = s.matchOver.winners;
      const why = s.matchOver.why ? say(s.matchOver.why, names) : s.matchOver.explanation;
      parts.push(
        h("p", { class: "winner" }, null, say({ code: "event.match_over", names: winners, count: winners.length }, names)),
        h("p", {}, null, why),
      );
    }
    if (ended) {
      parts.push(
        ratingChanges(s.changes, names, s.seat),
        seriesBox(s.scores, s.series),
        replayLink(s.code),
      );
      const follows = this.follows(names);
      if (follows) parts.push(follows);
    }
    if (dealt) parts.push(h("p", { class: "dealt" }, null, t("round.dealt", { round: s.now })));
    this.body.replaceChildren(...parts);
    setHidden(this.next, ended || s.seat === null || dealt);
    setText(this.closer, t(dealt ? "table.play_on" : "table.look"));
    if (opening) {
      this.returnTo = document.activeElement;
      this.title.focus(); // a screen reader reads the result first, then the buttons follow
    }
  }

  close() {
    const dialog = this.dialog;
    if (dialog.hidden) return;
    const inside = dialog.contains(document.activeElement);
    dialog.hidden = true;
    const back = this.returnTo?.isConnected ? this.returnTo : null;
    this.returnTo = null;
    if (!inside) return;
    const focusable = back ?? document.querySelector("#hand button") ?? document.body;
    if (focusable instanceof HTMLElement || focusable instanceof SVGElement) focusable.focus();
  }
}
