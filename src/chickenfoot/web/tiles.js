// @ts-check
// Domino tiles drawn in SVG: pips for 0–18 (standard faces up to 9, symmetric columns beyond),
// coloured per number like the double-12+ sets.

import { t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// Pip colours per number, after the usual coloured double-12/15/18 sets.
const PIP_COLOURS = [
  "none", "#2e8bc0", "#2f9e44", "#d6336c", "#8d5a2b", "#1c3faa", "#e8a600", "#7b4bb7", "#0b7a75",
  "#3a3a3a", "#e8590c", "#c2255c", "#5c7cfa", "#6d8b00", "#a61e4d", "#1098ad", "#9c36b5", "#5f3dc4",
  "#c92a2a",
];

/** @param {number} n */
export function pipColour(n) {
  return PIP_COLOURS[n] ?? "#333";
}

// Pip centres in a unit square (0..1), standard faces up to nine.
/** @type {Record<number, [number, number][]>} */
const FACES = {
  0: [],
  1: [[0.5, 0.5]],
  2: [[0.25, 0.25], [0.75, 0.75]],
  3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
  4: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]],
  5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
  6: [[0.25, 0.22], [0.25, 0.5], [0.25, 0.78], [0.75, 0.22], [0.75, 0.5], [0.75, 0.78]],
  7: [[0.25, 0.22], [0.25, 0.5], [0.25, 0.78], [0.5, 0.5], [0.75, 0.22], [0.75, 0.5], [0.75, 0.78]],
  8: [[0.22, 0.22], [0.5, 0.22], [0.78, 0.22], [0.22, 0.5], [0.78, 0.5], [0.22, 0.78], [0.5, 0.78], [0.78, 0.78]],
  9: [[0.22, 0.22], [0.5, 0.22], [0.78, 0.22], [0.22, 0.5], [0.5, 0.5], [0.78, 0.5], [0.22, 0.78], [0.5, 0.78], [0.78, 0.78]],
};

// Beyond nine: pips per column, mirror-symmetric, each column spread evenly top to bottom.
/** @type {Record<number, number[]>} */
const COLUMNS = {
  10: [3, 4, 3], 11: [4, 3, 4], 12: [4, 4, 4], 13: [4, 5, 4], 14: [5, 4, 5], 15: [5, 5, 5],
  16: [4, 4, 4, 4], 17: [3, 4, 3, 4, 3], 18: [4, 3, 4, 3, 4],
};

/**
 * @param {number} n
 * @returns {[number, number][]}
 */
export function pipPositions(n) {
  if (FACES[n]) return FACES[n];
  const cols = COLUMNS[n];
  if (!cols) return [];
  /** @type {[number, number][]} */
  const out = [];
  cols.forEach((count, c) => {
    const x = 0.16 + (0.68 * c) / (cols.length - 1);
    for (let i = 0; i < count; i++) out.push([x, count === 1 ? 0.5 : 0.16 + (0.68 * i) / (count - 1)]);
  });
  return out;
}

/** @param {number} n */
function pipRadius(n) {
  if (n <= 9) return 0.095;
  if (n <= 12) return 0.075;
  return 0.06;
}

/**
 * A new SVG element with `attrs`, appended to `parent` if given.
 * @param {string} name
 * @param {Record<string, string | number>} [attrs]
 * @param {Element | null} [parent]
 * @returns {SVGElement}
 */
export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * A tile's numbers, the higher first.
 * @param {string} text
 * @returns {[number, number]}
 */
export function parseTile(text) {
  const [a, b] = text.split("-").map(Number);
  return [Math.max(a, b), Math.min(a, b)];
}

/**
 * A tile's text with its higher number first ("4-9" is "9-4"): the key it is known by.
 * @param {string} text
 */
export const tileKey = (text) => parseTile(text).join("-");

/**
 * Whether two texts name the same tile.
 * @param {string} a
 * @param {string} b
 */
export const sameTile = (a, b) => tileKey(a) === tileKey(b);

/**
 * The tile a move plays ("9-4@9-9" plays 9-4).
 * @param {string} move
 */
export const tileOf = (move) => move.split("@")[0];

// One half face (a unit square with its top-left at x, y).
/**
 * @param {SVGElement} group
 * @param {number} n
 * @param {number} x
 * @param {number} y
 */
function face(group, n, x, y) {
  const r = pipRadius(n);
  for (const [px, py] of pipPositions(n)) {
    el("circle", { cx: x + px, cy: y + py, r, fill: pipColour(n), class: "pip" }, group);
  }
}

// A tile as an SVG group in tile units: `a` in the left half, `b` in the right, centred on 0,0
// (2 units long, 1 wide); callers rotate and translate it.
/**
 * @param {number} a
 * @param {number} b
 * @param {Record<string, string | number>} [attrs]
 */
export function tileGroup(a, b, attrs = {}) {
  const g = el("g", { class: "tile", ...attrs });
  el("rect", { x: -0.98, y: -0.48, width: 1.96, height: 0.96, rx: 0.14, class: "tile-shadow" }, g);
  el("rect", { x: -1, y: -0.5, width: 2, height: 1, rx: 0.14, class: "tile-body" }, g);
  el("line", { x1: 0, y1: -0.36, x2: 0, y2: 0.36, class: "tile-divider" }, g);
  face(g, a, -1, -0.5);
  face(g, b, 0, -0.5);
  return g;
}

// A standalone upright tile (for the hand, revealed hands): an <svg> element.
/**
 * @param {string} text
 * @param {{ upright?: boolean, size?: number }} [options]
 */
export function tileSvg(text, { upright = true, size = 1 } = {}) {
  const [a, b] = parseTile(text);
  const svg = el("svg", {
    viewBox: upright ? "-0.55 -1.05 1.1 2.1" : "-1.05 -0.55 2.1 1.1",
    class: "tile-svg",
    role: "img",
    "aria-label": t("ui.tile", { tile: text }),
  });
  svg.style.setProperty("--s", String(size));
  const g = tileGroup(a, b, upright ? { transform: "rotate(90)" } : {});
  svg.appendChild(g);
  return svg;
}
