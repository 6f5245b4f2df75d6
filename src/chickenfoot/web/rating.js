// @ts-check
// Ratings on the page: the "Rated"/"Casual" mark (when creating a table, and at the table), each
// player's rating change in the match-over results, and the rating history chart of a profile.
// The server decides what is rated and computes every number: the page only draws them.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./net.js";
import { el } from "./tiles.js";

/** @import { RatingChange, RatingMessage } from "./protocol.js" */

// "+18", "−7", "±0": the sign always shown, a true minus sign.
/** @param {number} delta */
export function signed(delta) {
  return delta > 0 ? `+${delta}` : delta < 0 ? `\u2212${-delta}` : "\u00b10";
}

// A rating as people read it: "1512", or "1512?" while provisional.
/**
 * @param {number} rating
 * @param {boolean} provisional
 */
export function ratingText(rating, provisional) {
  return `${rating}${provisional ? "?" : ""}`;
}

/**
 * The "Rated" or "Casual" mark.
 * @param {boolean} rated
 */
export function ratedMark(rated) {
  const code = rated ? "rating.rated" : "rating.casual";
  // data-t: translatePage follows a change of language
  return h("span", { class: `rated-mark ${rated ? "rated" : "casual"}`, "data-t": code }, null, t(code));
}

// The lobby's choice: the checkbox `box` and, beside it, what the new table will be.
/**
 * @param {HTMLInputElement} box
 * @param {HTMLElement} output
 */
export function watchRatedChoice(box, output) {
  const show = () => output.replaceChildren(ratedMark(box.checked));
  box.addEventListener("change", show);
  show();
}

// At the table: whether the match is rated, and the rating changes once it is.
export class TableRating {
  /**
   * @param {string} code
   * @param {() => void} onChange the table redraws
   */
  constructor(code, onChange) {
    this.code = code;
    /** @type {boolean | null} unknown until the server says */
    this.rated = null;
    /** @type {RatingChange[]} */
    this.changes = [];
    this.onChange = onChange;
    api("GET", `/api/ratings/tables/${encodeURIComponent(code)}`)
      .then((status) => {
        this.rated = status.rated;
        this.changes = status.changes;
        this.onChange();
      })
      .catch(() => {}); // no mark rather than a wrong one
  }

  /**
   * The server's `rating` message: the match was rated just now.
   * @param {RatingMessage} message
   */
  receive(message) {
    if (message.code !== this.code) return;
    this.changes = message.changes;
    this.onChange();
  }
}

/**
 * The match-over results' lines: "Kim: 1512 → 1530 (+18)" for every rated seat (`names`: the seats'
 * names; `seat`: the reader's, marked).
 * @param {RatingChange[]} changes
 * @param {string[]} names
 * @param {number | null} seat
 */
export function ratingChanges(changes, names, seat) {
  const box = h("div", { class: "rating-changes" });
  for (const change of changes) {
    const words = t("rating.change", {
      name: names[change.seat],
      before: change.before,
      after: ratingText(change.after, change.provisional),
      delta: signed(change.delta),
    });
    h("p", { class: `rating-change${change.seat === seat ? " mine" : ""}` }, box, words);
  }
  return box;
}

// Draws a player's rating history (`history`: [{at, before, rating}], oldest first, as GET /api/ratings/NAME
// gives each family's) into `container` as an SVG line chart: the line starts at the rating the first
// match started from (so the first change shows), with a dot per match; the lowest and highest ratings
// are labelled.
/**
 * @param {HTMLElement} container
 * @param {{ at: string, before: number, rating: number }[]} history
 * @param {{ width?: number, height?: number }} [size]
 */
export function drawRatingHistory(container, history, { width = 560, height = 200 } = {}) {
  const chart = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-history", role: "img" });
  const last = history[history.length - 1];
  const title = t("rating.history");
  chart.setAttribute("aria-label", last ? `${title}: ${last.rating}` : title);
  container.replaceChildren(chart);
  if (!history.length) return chart;
  const pad = { left: 44, right: 12, top: 12, bottom: 20 };
  const ratings = [history[0].before, ...history.map((point) => point.rating)];
  let low = Math.min(...ratings);
  let high = Math.max(...ratings);
  if (high - low < 40) [low, high] = [low - 20, high + 20]; // a flat history still reads as a line
  /** @param {number} i */
  const x = (i) => pad.left + (i / history.length) * (width - pad.left - pad.right);
  /** @param {number} r */
  const y = (r) => pad.top + ((high - r) / (high - low)) * (height - pad.top - pad.bottom);
  for (const r of [low, high]) {
    el("line", { x1: pad.left, x2: width - pad.right, y1: y(r), y2: y(r), class: "grid" }, chart);
    const label = el("text", { x: pad.left - 6, y: y(r) + 4, "text-anchor": "end", class: "axis" }, chart);
    label.textContent = String(Math.round(r));
  }
  const points = ratings.map((r, i) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(" ");
  el("polyline", { points, class: "line", fill: "none" }, chart);
  history.forEach((point, i) => {
    const dot = el("circle", { cx: x(i + 1), cy: y(point.rating), r: 3, class: "dot" }, chart);
    const title = el("title", {}, dot);
    const change = signed(point.rating - (i ? history[i - 1].rating : point.before));
    title.textContent = `${point.rating} (${change}) · ${new Date(point.at).toLocaleDateString()}`;
  });
  return chart;
}
