// The board: draws the layout (from Geometry) into an SVG, marks open ends and the selected
// tile's legal targets, and handles pan (drag) and zoom (wheel, pinch, buttons).

import { Geometry } from "./geometry.js";
import { t } from "./i18n.js";
import { el, tileGroup } from "./tiles.js";

const MIN_SCALE = 0.15;
const MAX_SCALE = 4;

// The layout's tiles into the SVG group `g` (the table and the drawings of How to play); returns
// the tile groups in the order played.
export function drawLayout(g, geometry) {
  if (geometry.placed.length > 0) el("circle", { cx: 0, cy: 0, r: 1.3, class: "hub-ring" }, g);
  // Connectors first, under the tiles: a tile set apart for lack of room is joined to its end.
  for (const p of geometry.placed) {
    if (!p.link) continue;
    const [x1, y1, x2, y2] = p.link;
    el("line", { x1, y1, x2, y2, class: "connector", "data-link": p.tile }, g);
  }
  return geometry.placed.map((p) =>
    g.appendChild(
      tileGroup(p.a, p.b, {
        transform: `translate(${p.x.toFixed(3)} ${p.y.toFixed(3)}) rotate(${p.angle.toFixed(1)})`,
        "data-tile": p.tile,
      }),
    ),
  );
}

export class Board {
  constructor(svg, onPick) {
    this.svg = svg;
    this.onPick = onPick; // called with a move string when a target is clicked
    this.view = null; // {x, y, w} in tile units: the centre and the visible width
    this.fitted = true; // follow the layout's growth until the user pans or zooms
    this.world = el("g", { class: "world" }, svg);
    this.pointers = new Map();
    this.focused = 0;
    this.bindPanZoom();
    new ResizeObserver(() => this.apply()).observe(svg);
  }

  // `hint` is a suggested move ("6-4@6-6") to show on the board, or null.
  render(state, selected, moves, hint = null) {
    const arms = state.rules?.hub_arms ?? 4;
    const toes = state.rules?.toes ?? 3;
    const geometry = Geometry.fromLayout(state.layout, arms, toes);
    this.geometry = geometry;
    this.world.replaceChildren();
    const g = this.world;
    drawLayout(g, geometry).at(-1)?.classList.add("last");
    for (const [target, number] of state.open_ends) {
      const anchor = geometry.anchorOf(target);
      if (!anchor) continue;
      const x = anchor.x + Math.cos(anchor.heading) * 0.45;
      const y = anchor.y + Math.sin(anchor.heading) * 0.45;
      el("circle", { cx: x, cy: y, r: 0.3, class: "open-end", "data-open": target }, g);
      const label = el("text", { x, y, class: "open-end-label" }, g);
      label.textContent = String(number);
    }
    this.targets = [];
    for (const move of moves) this.drawTarget(move);
    if (hint && hint.includes("@")) this.drawHint(hint); // on top: it outlines a ghost on offer
    if (this.focused >= this.targets.length) this.focused = 0;
    this.highlightFocus();
    // Fit the ghosts of the places on offer too, so a target at the edge is never cut off.
    const b = geometry.bounds();
    for (const t of this.targets) {
      b.x0 = Math.min(b.x0, t.x - 1.4);
      b.y0 = Math.min(b.y0, t.y - 1.4);
      b.x1 = Math.max(b.x1, t.x + 1.4);
      b.y1 = Math.max(b.y1, t.y + 1.4);
    }
    this.bounds = b;
    if (this.fitted || !this.view) this.fit();
    else this.apply();
  }

  // The hinted move: its target tile ringed, and an outline where the tile would go.
  drawHint(move) {
    const [tile, target] = move.split("@");
    const on = this.geometry.placed.find((p) => p.tile === target);
    if (!on) return;
    this.world.querySelector(`[data-tile="${target}"]`)?.classList.add("hint-target");
    const p = this.geometry.preview(tile, target);
    const group = el("g", { class: "hint-mark", "data-hint": move }, this.world);
    group.appendChild(tileGroup(p.a, p.b, { transform: `translate(${p.x} ${p.y}) rotate(${p.angle})`, class: "tile ghost" }));
  }

  // A ghost of the selected tile where the move would put it.
  drawTarget(move) {
    const [tile, target] = move.split("@");
    const p = this.geometry.preview(tile, target ?? null);
    const group = el("g", { class: "target", "data-move": move, role: "button", tabindex: -1 }, this.world);
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
    return this.targets?.[this.focused]?.move ?? null;
  }

  focusMove(move) {
    const i = this.targets.findIndex((t) => t.move === move);
    if (i >= 0) {
      this.focused = i;
      this.highlightFocus();
    }
  }

  highlightFocus() {
    this.targets.forEach((t, i) => t.group.classList.toggle("focused", i === this.focused));
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
    this.svg.setAttribute("viewBox", `${x - w / 2} ${y - h / 2} ${w} ${h}`);
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
      if (e.target.closest(".target")) return;
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
    const end = (e) => {
      this.pointers.delete(e.pointerId);
      if (this.pointers.size === 0) svg.classList.remove("panning");
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
  }
}
