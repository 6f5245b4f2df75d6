// Ratings on the page: the "Rated"/"Casual" mark (when creating a table, and at the table), each
// player's rating change in the match-over results, and the rating history chart of a profile.
// The server decides what is rated and computes every number: the page only draws them.

import { seatNames, t } from "./i18n.js";
import { api } from "./net.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const changesByTable = new Map(); // table code → [{seat, before, after, delta, provisional}]

// "+18", "−7", "±0": the sign always shown, a true minus sign.
export function signed(delta) {
  return delta > 0 ? `+${delta}` : delta < 0 ? `\u2212${-delta}` : "\u00b10";
}

// A rating as people read it: "1512", or "1512?" while provisional.
export function ratingText(rating, provisional) {
  return `${rating}${provisional ? "?" : ""}`;
}

function mark(rated) {
  const span = document.createElement("span");
  span.className = `rated-mark ${rated ? "rated" : "casual"}`;
  span.dataset.t = rated ? "rating.rated" : "rating.casual"; // translatePage follows a change of language
  span.textContent = t(span.dataset.t);
  return span;
}

// The lobby's choice: the checkbox `box` and, beside it, what the new table will be.
export function watchRatedChoice(box, output) {
  const show = () => output.replaceChildren(mark(box.checked));
  box.addEventListener("change", show);
  show();
}

// At the table: the mark beside the room code, and the rating changes once the match is rated.
export class TableRating {
  constructor(code, onChange) {
    this.code = code;
    this.rated = null; // unknown until the server says
    this.onChange = onChange;
    api("GET", `/api/ratings/tables/${encodeURIComponent(code)}`)
      .then((status) => {
        this.rated = status.rated;
        if (status.changes.length) changesByTable.set(code, status.changes);
        this.onChange();
      })
      .catch(() => {}); // no mark rather than a wrong one
  }

  // The server's `rating` message: the match was rated just now.
  receive(message) {
    if (message.code !== this.code) return;
    changesByTable.set(this.code, message.changes);
    this.onChange();
  }

  render(room) {
    let shown = room.parentElement.querySelector(".rated-mark");
    if (this.rated === null) return;
    const fresh = mark(this.rated);
    if (shown) shown.replaceWith(fresh);
    else room.after(fresh);
  }
}

// The match-over results' lines: "Kim: 1512 → 1530 (+18)" for every rated seat of STATE `s`.
export function ratingChanges(s) {
  const box = document.createElement("div");
  box.className = "rating-changes";
  const names = seatNames(s);
  for (const change of changesByTable.get(s.code) ?? []) {
    const line = document.createElement("p");
    line.className = `rating-change${change.seat === s.seat ? " mine" : ""}`;
    line.textContent = t("rating.change", {
      name: names[change.seat],
      before: change.before,
      after: ratingText(change.after, change.provisional),
      delta: signed(change.delta),
    });
    box.append(line);
  }
  return box;
}

function svg(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.append(node);
  return node;
}

// Draws a player's rating history (`history`: [{at, before, rating}], oldest first, as GET /api/ratings/NAME
// gives each family's) into `container` as an SVG line chart: the line starts at the rating the first
// match started from (so the first change shows), with a dot per match; the lowest and highest ratings
// are labelled.
export function drawRatingHistory(container, history, { width = 560, height = 200 } = {}) {
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-history", role: "img" });
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
  const x = (i) => pad.left + (i / history.length) * (width - pad.left - pad.right);
  const y = (r) => pad.top + ((high - r) / (high - low)) * (height - pad.top - pad.bottom);
  for (const r of [low, high]) {
    svg("line", { x1: pad.left, x2: width - pad.right, y1: y(r), y2: y(r), class: "grid" }, chart);
    const label = svg("text", { x: pad.left - 6, y: y(r) + 4, "text-anchor": "end", class: "axis" }, chart);
    label.textContent = String(Math.round(r));
  }
  const points = ratings.map((r, i) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(" ");
  svg("polyline", { points, class: "line", fill: "none" }, chart);
  history.forEach((point, i) => {
    const dot = svg("circle", { cx: x(i + 1), cy: y(point.rating), r: 3, class: "dot" }, chart);
    const title = svg("title", {}, dot);
    const change = signed(point.rating - (i ? history[i - 1].rating : point.before));
    title.textContent = `${point.rating} (${change}) · ${new Date(point.at).toLocaleDateString()}`;
  });
  return chart;
}
