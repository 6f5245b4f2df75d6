// @ts-check
// The board: draws the layout (from Geometry) into an SVG, marks open ends and the selected
// tile's legal targets, and handles pan (drag) and zoom (wheel, pinch, buttons). A tile once drawn
// stays the same element while its round lasts: a new move adds its tile and nothing else.

import { Drawn } from "./drawn.js";
import { Geometry } from "./geometry.js";
import { t } from "./i18n.js";
import { el, tileGroup, tileKey } from "./tiles.js";

/** @import { Placement } from "./geometry.js" */

const MIN_SCALE = 0.15;
const MAX_SCALE = 4;

/**
 * What the board draws: the layout (tile, target) in play order, the hub's arms and a foot's toes,
 * the open ends (tile, number), the moves offered for the selected tile, and a hinted move.
 * @typedef {object} BoardSlice
 * @property {[string, string | null][]} layout
 * @property {number} arms
 * @property {number} toes
 * @property {[string, number][]} openEnds
 * @property {string[]} targets
 * @property {string | null} hint
 */

/** @typedef {{ x0: number, y0: number, x1: number, y1: number }} Bounds */

/**
 * One placed tile into the SVG group `g`, before `before` (a tile set apart is joined to its end by a
 * connector, drawn into `links`, under the tiles). Returns the tile's group.
 * @param {Placement} p
 * @param {SVGElement} g
 * @param {SVGElement} links
 * @param {Element | null} [before]
 */
function drawPlaced(p, g, links, before = null) {
  if (p.link) {
    const [x1, y1, x2, y2] = p.link;
    el("line", { x1, y1, x2, y2, class: "connector", "data-link": p.tile }, links);
  }
  const tile = tileGroup(p.a, p.b, {
    transform: `translate(${p.x.toFixed(3)} ${p.y.toFixed(3)}) rotate(${p.angle.toFixed(1)})`,
    "data-tile": p.tile,
  });
  g.insertBefore(tile, before);
  return tile;
}

/**
 * The layout's tiles into the SVG group `g` (the drawings of How to play).
 * @param {SVGElement} g
 * @param {Geometry} geometry
 */
export function drawLayout(g, geometry) {
  const links = el("g", { class: "links" }, g);
  if (geometry.placed.length > 0) el("circle", { cx: 0, cy: 0, r: 1.3, class: "hub-ring" }, links);
  for (const p of geometry.placed) drawPlaced(p, g, links);
}

export class Board {
  /**
   * @param {SVGSVGElement} svg
   * @param {(move: string) => void} onPick called with a move when its target is clicked
   */
  constructor(svg, onPick) {
    this.svg = svg;
    this.onPick = onPick;
    /** @type {{ x: number, y: number, w: number } | null} the centre and the visible width, in tile units */
    this.view = null;
    this.fitted = true; // follow the layout's growth until the user pans or zooms
    this.world = el("g", { class: "world" }, svg);
    // The world's children: the hub's ring and the connectors, the tiles in play order, the marks.
    this.links = el("g", { class: "links" }, this.world);
    this.marks = el("g", { class: "marks" }, this.world);
    this.geometry = new Geometry();
    /** @type {{ arms: number, toes: number, layout: [string, string | null][] }} */
    this.laid = { arms: 0, toes: 0, layout: [] };
    this.drawings = 0; // layouts drawn afresh: the marks of one are no marks of the next
    /** @type {Map<string, SVGElement>} each tile's group, by tileKey */
    this.tiles = new Map();
    /** @type {SVGElement | null} */
    this.last = null;
    /** @type {{ move: string, group: SVGElement, x: number, y: number }[]} */
    this.targets = [];
    this.focused = 0;
    /** @type {Bounds | null} */
    this.bounds = null;
    /** @type {Map<number, { x: number, y: number }>} */
    this.pointers = new Map();
    /** @type {Drawn<Omit<BoardSlice, "layout"> & { drawing: number, tiles: number }>} */
    this.drawnMarks = new Drawn((marks) => this.drawMarks(marks));
    this.bindPanZoom();
    new ResizeObserver(() => this.apply()).observe(svg);
  }

  /**
   * Draws what changed of `slice`: the tiles played since the last one (or the whole layout when it
   * is a new one), and the marks when they moved.
   * @param {BoardSlice} slice
   */
  update(slice) {
    const { layout, ...marks } = slice;
    const laid = this.lay(layout, slice.arms, slice.toes);
    const marked = this.drawnMarks.update({ ...marks, drawing: this.drawings, tiles: layout.length });
    if (!laid && !marked) return;
    this.bounds = this.measure();
    if (this.fitted || !this.view) this.fit();
    else this.apply();
  }

  /**
   * Places the tiles of `layout` not on the board yet; a layout that does not go on from the one
   * drawn (a new round, a step back in a replay) is drawn afresh. Returns whether a tile was drawn.
   * @param {[string, string | null][]} layout
   * @param {number} arms
   * @param {number} toes
   */
  lay(layout, arms, toes) {
    const laid = this.laid;
    const goesOn =
      laid.arms === arms && laid.toes === toes && laid.layout.length <= layout.length &&
      laid.layout.every(([tile, target], i) => layout[i][0] === tile && layout[i][1] === target);
    if (goesOn && laid.layout.length === layout.length) return false;
    if (!goesOn) {
      this.drawings += 1;
      this.geometry = new Geometry(arms, toes);
      this.tiles.clear();
      this.last = null;
      this.links.replaceChildren();
      for (const node of [...this.world.children]) if (node !== this.links && node !== this.marks) node.remove();
    }
    const from = goesOn ? laid.layout.length : 0;
    if (from === 0 && layout.length) el("circle", { cx: 0, cy: 0, r: 1.3, class: "hub-ring" }, this.links);
    for (const [tile, target] of layout.slice(from)) {
      const group = drawPlaced(this.geometry.place(tile, target), this.world, this.links, this.marks);
      this.tiles.set(tileKey(tile), group);
      this.last?.classList.remove("last");
      group.classList.add("last");
      this.last = group;
    }
    this.laid = { arms, toes, layout: layout.slice() };
    return true;
  }

  /**
   * The open ends, the targets on offer and the hinted move.
   * @param {Omit<BoardSlice, "layout">} marks
   */
  drawMarks({ openEnds, targets, hint }) {
    const g = this.marks;
    g.replaceChildren();
    for (const hinted of this.world.querySelectorAll(".hint-target")) hinted.classList.remove("hint-target");
    for (const [target, number] of openEnds) {
      const anchor = this.geometry.anchorOf(target);
      if (!anchor) continue;
      const x = anchor.x + Math.cos(anchor.heading) * 0.45;
      const y = anchor.y + Math.sin(anchor.heading) * 0.45;
      el("circle", { cx: x, cy: y, r: 0.3, class: "open-end", "data-open": target }, g);
      const label = el("text", { x, y, class: "open-end-label" }, g);
      label.textContent = String(number);
    }
    this.targets = [];
    for (const move of targets) this.drawTarget(move);
    if (hint && hint.includes("@")) this.drawHint(hint); // on top: it outlines a ghost on offer
    if (this.focused >= this.targets.length) this.focused = 0;
    this.highlightFocus();
  }

  // The layout's bounds, with the ghosts of the places on offer, so a target at the edge is never cut off.
  measure() {
    const b = this.geometry.bounds();
    for (const target of this.targets) {
      b.x0 = Math.min(b.x0, target.x - 1.4);
      b.y0 = Math.min(b.y0, target.y - 1.4);
      b.x1 = Math.max(b.x1, target.x + 1.4);
      b.y1 = Math.max(b.y1, target.y + 1.4);
    }
    return b;
  }

  /**
   * The group of a tile on the board (a slide starts from it), or null.
   * @param {string} tile
   */
  tileElement(tile) {
    return this.tiles.get(tileKey(tile)) ?? null;
  }

  /**
   * The hinted move: its target tile ringed, and an outline where the tile would go.
   * @param {string} move
   */
  drawHint(move) {
    const [tile, target] = move.split("@");
    this.tiles.get(tileKey(target))?.classList.add("hint-target");
    if (!this.geometry.nodes.has(target)) return;
    const p = this.geometry.preview(tile, target);
    const group = el("g", { class: "hint-mark", "data-hint": move }, this.marks);
    group.appendChild(tileGroup(p.a, p.b, { transform: `translate(${p.x} ${p.y}) rotate(${p.angle})`, class: "tile ghost" }));
  }

  /**
   * A ghost of the selected tile where the move would put it.
   * @param {string} move
   */
  drawTarget(move) {
    const [tile, target] = move.split("@");
    const p = this.geometry.preview(tile, target ?? null);
    const group = el("g", { class: "target", "data-move": move, role: "button", tabindex: -1 }, this.marks);
    group.setAttribute("aria-label", target ? t("move.play", { tile, target }) : t("move.hub", { tile }));
    const ghost = tileGroup(p.a, p.b, { transform: `translate(${p.x} ${p.y}) rotate(${p.angle})`, class: "tile ghost" });
    group.appendChild(ghost);
    el("circle", { cx: p.x, cy: p.y, r: 1.25, class: "pulse" }, group);
    group.addEventListener("click", (e) => {
      e.stopPropagation();
      this.onPick(move);
    });
    this.targets.push({ move, group, x: p.x, y: p.y });
  }

  cycleTarget(step = 1) {
    if (!this.targets.length) return null;
    this.focused = (this.focused + step + this.targets.length) % this.targets.length;
    this.highlightFocus();
    return this.targets[this.focused].move;
  }

  focusedMove() {
    return this.targets[this.focused]?.move ?? null;
  }

  /** @param {string} move */
  focusMove(move) {
    const i = this.targets.findIndex((target) => target.move === move);
    if (i >= 0) {
      this.focused = i;
      this.highlightFocus();
    }
  }

  highlightFocus() {
    this.targets.forEach((target, i) => target.group.classList.toggle("focused", i === this.focused));
  }

  fit() {
    const b = this.bounds ?? { x0: -4, y0: -4, x1: 4, y1: 4 };
    const rect = this.svg.getBoundingClientRect();
    const aspect = rect.width > 0 && rect.height > 0 ? rect.width / rect.height : 1.5;
    const w = Math.max(b.x1 - b.x0 + 2, (b.y1 - b.y0 + 2) * aspect, 12);
    this.view = { x: (b.x0 + b.x1) / 2, y: (b.y0 + b.y1) / 2, w };
    this.fitted = true;
    this.apply();
  }

  /**
   * @param {number} factor
   * @param {number | null} [px]
   * @param {number | null} [py]
   */
  zoom(factor, px = null, py = null) {
    if (!this.view) return;
    const rect = this.svg.getBoundingClientRect();
    const scaleNow = rect.width / this.view.w;
    const scale = Math.min(MAX_SCALE * 40, Math.max(MIN_SCALE * 40, scaleNow * factor));
    const k = scaleNow / scale;
    // Keep the point under the cursor (or the centre) where it is.
    const fx = px === null ? 0 : (px - rect.left - rect.width / 2) / scaleNow;
    const fy = py === null ? 0 : (py - rect.top - rect.height / 2) / scaleNow;
    this.view = { x: this.view.x + fx * (1 - k), y: this.view.y + fy * (1 - k), w: this.view.w * k };
    this.fitted = false;
    this.apply();
  }

  apply() {
    if (!this.view) return;
    const rect = this.svg.getBoundingClientRect();
    const aspect = rect.width > 0 && rect.height > 0 ? rect.height / rect.width : 0.66;
    const { x, y, w } = this.view;
    const h = w * aspect;
    const box = `${x - w / 2} ${y - h / 2} ${w} ${h}`;
    if (this.svg.getAttribute("viewBox") !== box) this.svg.setAttribute("viewBox", box);
  }

  bindPanZoom() {
    const svg = this.svg;
    svg.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        this.zoom(Math.exp(-e.deltaY * 0.0015), e.clientX, e.clientY);
      },
      { passive: false },
    );
    svg.addEventListener("pointerdown", (e) => {
      if (e.target instanceof Element && e.target.closest(".target")) return;
      svg.setPointerCapture(e.pointerId);
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      svg.classList.add("panning");
    });
    svg.addEventListener("pointermove", (e) => {
      const prev = this.pointers.get(e.pointerId);
      if (!prev || !this.view) return;
      const rect = svg.getBoundingClientRect();
      if (this.pointers.size === 2) {
        // Pinch: zoom by the change of distance between the two fingers.
        const [a, b] = [...this.pointers.entries()].map(([id, p]) => (id === e.pointerId ? { x: e.clientX, y: e.clientY } : p));
        const [pa, pb] = [...this.pointers.values()];
        const before = Math.hypot(pa.x - pb.x, pa.y - pb.y);
        const after = Math.hypot(a.x - b.x, a.y - b.y);
        if (before > 0) this.zoom(after / before, (a.x + b.x) / 2, (a.y + b.y) / 2);
      } else {
        const perPixel = this.view.w / rect.width;
        this.view = { ...this.view, x: this.view.x - (e.clientX - prev.x) * perPixel, y: this.view.y - (e.clientY - prev.y) * perPixel };
        this.fitted = false;
        this.apply();
      }
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    });
    /** @param {PointerEvent} e */
    const end = (e) => {
      this.pointers.delete(e.pointerId);
      if (this.pointers.size === 0) svg.classList.remove("panning");
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
  }
}
