// @ts-check
// Board geometry computed from the layout list alone (each tile with its target), in tile units:
// a tile is 2 long and 1 wide. Placement is incremental in play order, so a tile never moves
// when later tiles arrive, and every client draws the same board.
//
// Each hub arm owns a sector. A line runs straight out until it reaches its turning radius,
// then turns 90° and runs along the sector; near the sector's edge it turns back outwards and
// its next side run goes the other way (a snake), so long arms fold instead of colliding.
// A double is laid crosswise and fans its side toes at ±45° from its far corners; a toe bends
// back outwards after its first tile. Every tile is an exact rectangle checked against all
// earlier ones: when the preferred heading is taken, other headings and bends are tried (those
// that leave the line a way on first), and as a last resort the tile goes to the nearest free
// spot with a visible connector from its open end. Tiles never overlap.

import { parseTile } from "./tiles.js";

const GAP = 0.08; // space between touching tiles
const HUB_RING = 1.45; // arms start on this circle around the hub
const EPS = 0.02; // tiles closer than GAP may touch, never overlap by more than this
const DIAG = Math.PI / 4;
const QUARTER = Math.PI / 2;
const CELL = 2; // spatial hash cell size

/**
 * A tile's footprint: centre, unit axis along its heading, half length along it, half width across,
 * and its half extents on the axes.
 * @typedef {{ x: number, y: number, ux: number, uy: number, hl: number, hw: number, ex: number, ey: number }} Rect
 */
/**
 * A free end a line goes on from: where the next tile starts and its heading; the arm's axis
 * (`alpha`) and half sector; how the line runs (`mode`, `side`, where it turns); whether the end is
 * a line tile's far corner, and whether a fanned toe folds away from its foot.
 * @typedef {{ x: number, y: number, heading: number, alpha: number, half: number, mode: "out" | "side" | "fan" | "bend",
 *   turnAt: number, side: number, corner: boolean, away?: boolean }} Slot
 */
/** A place for a tile: its slot's line state, its footprint and a connector from its open end, if any. @typedef {Slot & { rect: Rect, link: Link | null }} Spot */
/** @typedef {[number, number, number, number]} Link */
/**
 * A placed tile: where (tile units, degrees), its numbers in drawing order, and its connector.
 * @typedef {{ tile: string, target: string | null, x: number, y: number, angle: number, a: number, b: number,
 *   double: boolean, hub: boolean, link: Link | null }} Placement
 */
/** A tile's free ends and its outer number. @typedef {{ out: number, index: number, slots: Slot[] }} LineNode */
/** @typedef {{ record: Placement, rect: Rect, node: LineNode | null, out: number, slots: Slot[] }} Plan */

/**
 * @param {number} h
 * @returns {[number, number]}
 */
const unit = (h) => [Math.cos(h), Math.sin(h)];

/**
 * @param {number} a
 * @param {number} b
 */
function angleDiff(a, b) {
  let d = a - b;
  while (d > Math.PI) d -= 2 * Math.PI;
  while (d < -Math.PI) d += 2 * Math.PI;
  return d;
}

// The order arms are filled: opposite pairs first, so a young hub looks balanced.
/** @param {number} arms */
export function armAngles(arms) {
  const out = [];
  for (let k = 0; k < arms / 2; k++) {
    const a = (k * 2 * Math.PI) / arms;
    out.push(a, a + Math.PI);
  }
  return out;
}

// An oriented rectangle: centre, unit axis along `heading`, half length along it, half width across.
/**
 * @param {number} x
 * @param {number} y
 * @param {number} heading
 * @param {number} halfLength
 * @param {number} halfWidth
 * @returns {Rect}
 */
function rectangle(x, y, heading, halfLength, halfWidth) {
  const [ux, uy] = unit(heading);
  const ex = Math.abs(ux) * halfLength + Math.abs(uy) * halfWidth;
  const ey = Math.abs(uy) * halfLength + Math.abs(ux) * halfWidth;
  return { x, y, ux, uy, hl: halfLength, hw: halfWidth, ex, ey };
}

// Separating-axis test; rectangles that only touch (within EPS) do not intersect.
/**
 * @param {Rect} a
 * @param {Rect} b
 */
export function intersects(a, b) {
  if (Math.abs(a.x - b.x) >= a.ex + b.ex - EPS || Math.abs(a.y - b.y) >= a.ey + b.ey - EPS) return false;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  for (const [r, o] of [
    [a, b],
    [b, a],
  ]) {
    for (const [ax, ay, extent] of [
      [r.ux, r.uy, r.hl],
      [-r.uy, r.ux, r.hw],
    ]) {
      const reach = Math.abs(o.ux * ax + o.uy * ay) * o.hl + Math.abs(o.ux * ay - o.uy * ax) * o.hw;
      if (Math.abs(dx * ax + dy * ay) >= extent + reach - EPS) return false;
    }
  }
  return true;
}

export class Geometry {
  /**
   * @param {number} [hubArms]
   * @param {number} [toes]
   * @param {number | null} [turnAt]
   */
  constructor(hubArms = 4, toes = 3, turnAt = null) {
    this.hubArms = hubArms;
    this.toes = toes;
    this.turnAt = turnAt ?? (hubArms <= 4 ? 9.5 : 11.5);
    /** @type {Placement[]} */
    this.placed = []; // {tile, target, x, y, angle (deg), a, b, double, hub, link: [x1, y1, x2, y2] | null}
    /** @type {Rect[]} */
    this.rects = []; // the footprint of each placed tile
    /** @type {Map<string, number[]>} */
    this.grid = new Map(); // spatial hash: "i,j" -> indexes of rects touching that cell
    /** @type {Map<string, LineNode>} */
    this.nodes = new Map(); // tile text -> {out, index, slots: [line state for each free end]}
  }

  /**
   * @param {[string, string | null][]} layout
   * @param {number} [hubArms]
   * @param {number} [toes]
   */
  static fromLayout(layout, hubArms = 4, toes = 3) {
    const g = new Geometry(hubArms, toes);
    for (const [tile, target] of layout) g.place(tile, target);
    return g;
  }

  // Where the next tile on `target` would start: {x, y, heading} (for open-end markers).
  /** @param {string} target */
  anchorOf(target) {
    const node = this.nodes.get(target);
    if (!node || node.slots.length === 0) return null;
    const s = node.slots[0];
    return { x: s.x, y: s.y, heading: s.heading };
  }

  bounds() {
    let [x0, y0, x1, y1] = [-2, -2, 2, 2];
    for (const r of this.rects) {
      x0 = Math.min(x0, r.x - r.ex - 0.2);
      y0 = Math.min(y0, r.y - r.ey - 0.2);
      x1 = Math.max(x1, r.x + r.ex + 0.2);
      y1 = Math.max(y1, r.y + r.ey + 0.2);
    }
    return { x0, y0, x1, y1 };
  }

  // Where `tile` would go on `target`, without placing it (the record `place` would add).
  /**
   * @param {string} tile
   * @param {string | null} target
   */
  preview(tile, target) {
    return this.plan(tile, target).record;
  }

  /**
   * @param {string} tile
   * @param {string | null} target
   */
  place(tile, target) {
    const plan = this.plan(tile, target);
    const index = this.placed.length;
    this.placed.push(plan.record);
    this.addRect(plan.rect, index);
    if (plan.node) plan.node.slots.shift();
    this.nodes.set(tile, { out: plan.out, index, slots: plan.slots });
    return plan.record;
  }

  /**
   * @param {string} tile
   * @param {string | null} target
   * @returns {Plan}
   */
  plan(tile, target) {
    const [hi, lo] = parseTile(tile);
    if (target === null) return this.planHub(tile, hi);
    const node = this.nodes.get(target);
    if (!node || node.slots.length === 0) throw new Error(`no free end on ${target} for ${tile}`);
    const slot = node.slots[0];
    const m = node.out;
    const isDouble = hi === lo;
    const spot = this.choose(slot, isDouble);
    const angle = (spot.heading * 180) / Math.PI;
    /** @type {Placement} */
    const record = {
      tile,
      target,
      x: spot.rect.x,
      y: spot.rect.y,
      angle: isDouble ? angle + 90 : angle,
      a: m,
      b: hi === m ? lo : hi,
      double: isDouble,
      hub: false,
      link: spot.link,
    };
    const slots = this.slotsAfter(spot, isDouble).slice(0, isDouble ? this.toes : 1);
    return { record, rect: spot.rect, node, out: record.b, slots };
  }

  /**
   * @param {string} tile
   * @param {number} n
   * @returns {Plan}
   */
  planHub(tile, n) {
    const half = Math.PI / this.hubArms;
    const slots = armAngles(this.hubArms).map((alpha, i) => /** @type {Slot} */ ({
      x: Math.cos(alpha) * HUB_RING,
      y: Math.sin(alpha) * HUB_RING,
      heading: alpha,
      alpha,
      half,
      mode: "out",
      turnAt: this.turnAt,
      side: i % 2 === 0 ? 1 : -1,
      corner: false,
    }));
    const record = { tile, target: null, x: 0, y: 0, angle: 0, a: n, b: n, double: true, hub: true, link: null };
    return { record, rect: rectangle(0, 0, 0, 1, 0.5), node: null, out: n, slots };
  }

  // The free ends a tile placed at `spot` offers: one at a line tile's far end; a double's toes.
  /**
   * @param {Spot} spot
   * @param {boolean} isDouble
   * @returns {Slot[]}
   */
  slotsAfter(spot, isDouble) {
    const { rect, heading } = spot;
    const [ux, uy] = unit(heading);
    if (!isDouble) return [{ ...spot, x: rect.x + ux, y: rect.y + uy, corner: true }];
    const fx = rect.x + ux * 0.5;
    const fy = rect.y + uy * 0.5;
    const [px, py] = [-uy, ux];
    return [
      { ...spot, x: fx, y: fy, corner: false, turnAt: Math.max(spot.turnAt, Math.hypot(fx, fy) + 3) },
      { ...spot, x: fx - px, y: fy - py, heading: heading - DIAG, mode: "fan", side: -1, away: true, corner: false },
      { ...spot, x: fx + px, y: fy + py, heading: heading + DIAG, mode: "fan", side: 1, away: true, corner: false },
    ];
  }

  // The heading for the next tile on a line: the snake rule's choice when it is free and leaves
  // the line a way on; else other headings and bends; else the nearest free spot, with a connector.
  /**
   * @param {Slot} slot
   * @param {boolean} isDouble
   * @returns {Spot}
   */
  choose(slot, isDouble) {
    const preferred = this.preferred(slot, isDouble);
    const h = slot.heading;
    const a = slot.alpha;
    const headings = [preferred.heading, a, h, h + QUARTER, h - QUARTER, a + QUARTER, a - QUARTER];
    headings.push(h + DIAG, h - DIAG, a + DIAG, a - DIAG);
    // Best first: free with a way on inside the arm's own sector, then outside it, then any free.
    /** @type {(Spot | null)[]} */
    const ranked = [null, null, null];
    /** @type {number[]} */
    const seen = [];
    for (const heading of headings) {
      if (seen.some((s) => Math.abs(angleDiff(s, heading)) < 1e-6)) continue;
      seen.push(heading);
      const option = heading === preferred.heading ? preferred : this.retarget(slot, heading);
      const spot = this.spotAt(option, isDouble, this.startOf(slot, heading));
      if (this.collides(spot.rect)) continue;
      const rank = !this.hasWayOn(spot, isDouble) ? 2 : this.inSector(spot) ? 0 : 1;
      if (rank === 0) return spot;
      ranked[rank] ??= spot;
    }
    return ranked[1] ?? ranked[2] ?? this.connect(slot, isDouble);
  }

  // Whether a tile stays inside its arm's sector, so feet do not grow into their neighbours' room.
  /** @param {Spot} spot */
  inSector(spot) {
    const { x, y } = spot.rect;
    return Math.hypot(x, y) < 2 || Math.abs(angleDiff(Math.atan2(y, x), spot.alpha)) <= spot.half;
  }

  // A line's state when it leaves in `heading` instead of the snake rule's choice.
  /**
   * @param {Slot} slot
   * @param {number} heading
   * @returns {Slot}
   */
  retarget(slot, heading) {
    const offset = angleDiff(heading, slot.alpha);
    if (Math.abs(offset) < 0.1) return { ...slot, heading, mode: "out" };
    return { ...slot, heading, mode: "side", side: Math.sign(offset) };
  }

  // Where a tile leaving `slot` in `heading` starts. Round a 90° corner it lies beside the previous
  // tile's last half, as dominoes are laid; a 45° bend steps forward so its corner clears that tile.
  /**
   * @param {Slot} slot
   * @param {number} heading
   * @returns {[number, number]}
   */
  startOf(slot, heading) {
    const turn = Math.abs(angleDiff(heading, slot.heading));
    if (!slot.corner || turn < 0.1) return [slot.x, slot.y];
    const [ox, oy] = unit(slot.heading);
    const [ux, uy] = unit(heading);
    if (Math.abs(turn - QUARTER) < 0.1) return [slot.x - ox * 0.5 + ux * 0.5, slot.y - oy * 0.5 + uy * 0.5];
    return [slot.x + ox * 0.4, slot.y + oy * 0.4];
  }

  /**
   * @param {Slot} option
   * @param {boolean} isDouble
   * @param {[number, number]} start
   * @param {Link | null} [link]
   * @returns {Spot}
   */
  spotAt(option, isDouble, [x, y], link = null) {
    const [ux, uy] = unit(option.heading);
    const reach = isDouble ? 0.5 : 1;
    const rect = isDouble
      ? rectangle(x + ux * (reach + GAP), y + uy * (reach + GAP), option.heading, 0.5, 1)
      : rectangle(x + ux * (reach + GAP), y + uy * (reach + GAP), option.heading, 1, 0.5);
    return { ...option, rect, link };
  }

  // Whether a line could go on from a tile at `spot` for two more tiles (straight or round corners).
  /**
   * @param {Spot} spot
   * @param {boolean} isDouble
   * @param {number} [depth]
   * @param {Rect[]} [extra]
   * @returns {boolean}
   */
  hasWayOn(spot, isDouble, depth = 2, extra = []) {
    const next = this.slotsAfter(spot, isDouble)[0];
    const h = next.heading;
    const blockers = [...extra, spot.rect];
    return [h, h + QUARTER, h - QUARTER].some((heading) => {
      const after = this.spotAt({ ...next, heading }, false, this.startOf(next, heading));
      if (blockers.some((r) => intersects(after.rect, r)) || this.collides(after.rect)) return false;
      return depth <= 1 || this.hasWayOn(after, false, depth - 1, blockers);
    });
  }

  // Last resort: the nearest free spot around the open end (outwards first), joined by a line.
  /**
   * @param {Slot} slot
   * @param {boolean} isDouble
   * @returns {Spot}
   */
  connect(slot, isDouble) {
    for (let r = 1.5; r < 60; r += 0.75) {
      const steps = Math.max(8, Math.round(r * 6));
      for (let k = 0; k < steps; k++) {
        // Alternate sides of the line's own heading, nearest first.
        const turn = ((k % 2 === 0 ? 1 : -1) * Math.ceil(k / 2) * 2 * Math.PI) / steps;
        const direction = slot.heading + turn;
        const x = slot.x + Math.cos(direction) * r;
        const y = slot.y + Math.sin(direction) * r;
        // Headings stay on the sector's grid (multiples of 45° from its axis) so the line folds on.
        const snapped = slot.alpha + Math.round(angleDiff(direction, slot.alpha) / DIAG) * DIAG;
        for (const heading of [snapped, slot.alpha]) {
          const option = this.retarget(slot, heading);
          const spot = this.spotAt(option, isDouble, [x, y], [slot.x, slot.y, x, y]);
          if (!this.collides(spot.rect) && this.hasWayOn(spot, isDouble)) return spot;
        }
      }
    }
    throw new Error("no free spot for a tile");
  }

  /**
   * @param {Slot} slot
   * @param {boolean} isDouble
   * @returns {Slot}
   */
  preferred(slot, isDouble) {
    const reach = isDouble ? 1 : 2;
    const [ux, uy] = unit(slot.heading);
    const far = /** @type {[number, number]} */ ([slot.x + ux * reach, slot.y + uy * reach]);
    // A fanned toe's first tile keeps its slant; the tile after it bends back outwards.
    if (slot.mode === "fan") return { ...slot, mode: "bend" };
    if (slot.mode === "bend") return { ...slot, heading: slot.alpha, mode: "out" };
    if (slot.mode === "out" && Math.hypot(...far) > slot.turnAt) {
      // Turn towards the middle of the sector, or the line's own side for a line on the axis.
      const offset = angleDiff(Math.atan2(slot.y, slot.x), slot.alpha);
      // A side toe folds away from its foot's middle toe instead.
      const side = Math.abs(offset) > 0.05 && !slot.away ? -Math.sign(offset) : slot.side;
      return { ...slot, heading: slot.alpha + (side * Math.PI) / 2, mode: "side", side, away: false };
    }
    if (slot.mode === "side") {
      const offset = angleDiff(Math.atan2(far[1], far[0]), slot.alpha);
      if (Math.abs(offset) > slot.half * 0.8) {
        const r = Math.hypot(slot.x, slot.y);
        return { ...slot, heading: slot.alpha, mode: "out", side: -slot.side, turnAt: r + 4.2 };
      }
    }
    return slot;
  }

  /** @param {Rect} r */
  cellsOf(r) {
    const out = [];
    for (let i = Math.floor((r.x - r.ex) / CELL); i <= Math.floor((r.x + r.ex) / CELL); i++) {
      for (let j = Math.floor((r.y - r.ey) / CELL); j <= Math.floor((r.y + r.ey) / CELL); j++) out.push(`${i},${j}`);
    }
    return out;
  }

  /**
   * @param {Rect} rect
   * @param {number} index
   */
  addRect(rect, index) {
    this.rects.push(rect);
    for (const key of this.cellsOf(rect)) {
      const list = this.grid.get(key);
      if (list) list.push(index);
      else this.grid.set(key, [index]);
    }
  }

  // Whether `rect` overlaps a placed tile.
  /** @param {Rect} rect */
  collides(rect) {
    for (const key of this.cellsOf(rect)) {
      for (const i of this.grid.get(key) ?? []) {
        if (intersects(rect, this.rects[i])) return true;
      }
    }
    return false;
  }

  // Pairs of placed tiles that overlap (the tests measure it over many layouts).
  overlapCount() {
    let count = 0;
    this.rects.forEach((rect, i) => {
      const hits = new Set();
      for (const key of this.cellsOf(rect)) for (const j of this.grid.get(key) ?? []) if (j > i) hits.add(j);
      for (const j of hits) if (intersects(rect, this.rects[j])) count++;
    });
    return count;
  }
}
