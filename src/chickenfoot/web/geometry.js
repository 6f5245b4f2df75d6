// Board geometry computed from the layout list alone (each tile with its target), in tile units:
// a tile is 2 long and 1 wide. Placement is incremental in play order, so a tile never moves
// when later tiles arrive, and every client draws the same board.
//
// Each hub arm owns a sector. A line runs straight out until it reaches its turning radius,
// then turns 90° and runs along the sector; near the sector's edge it turns back outwards and
// its next side run goes the other way (a snake), so long arms fold instead of colliding.
// A double is laid crosswise and fans its toes away from the centre. Any placement that would
// overlap an earlier tile tries the other headings first.

import { parseTile } from "./tiles.js";

const GAP = 0.08; // space between touching tiles
const HUB_RING = 1.45; // arms start on this circle around the hub
const CLEAR = 0.9; // two tile halves closer than this overlap
const FAN = Math.PI / 4; // side toes leave a double at ±45°

const unit = (h) => [Math.cos(h), Math.sin(h)];

function angleDiff(a, b) {
  let d = a - b;
  while (d > Math.PI) d -= 2 * Math.PI;
  while (d < -Math.PI) d += 2 * Math.PI;
  return d;
}

// The order arms are filled: opposite pairs first, so a young hub looks balanced.
export function armAngles(arms) {
  const out = [];
  for (let k = 0; k < arms / 2; k++) {
    const a = (k * 2 * Math.PI) / arms;
    out.push(a, a + Math.PI);
  }
  return out;
}

export class Geometry {
  constructor(hubArms = 4, toes = 3, turnAt = null) {
    this.hubArms = hubArms;
    this.toes = toes;
    this.turnAt = turnAt ?? (hubArms <= 4 ? 7.5 : 9.5);
    this.placed = []; // {tile, target, x, y, angle (deg), a, b, double, hub}
    this.nodes = new Map(); // tile text -> {out, slots: [line state for each free slot], placedIndex}
    this.circles = []; // [x, y, owner index]
  }

  static fromLayout(layout, hubArms = 4, toes = 3) {
    const g = new Geometry(hubArms, toes);
    for (const [tile, target] of layout) g.place(tile, target);
    return g;
  }

  // Where the next tile on `target` would start: {x, y, heading} (for open-end markers).
  anchorOf(target) {
    const node = this.nodes.get(target);
    if (!node || node.slots.length === 0) return null;
    const s = node.slots[0];
    return { x: s.x, y: s.y, heading: s.heading };
  }

  bounds() {
    let [x0, y0, x1, y1] = [-2, -2, 2, 2];
    for (const p of this.placed) {
      x0 = Math.min(x0, p.x - 1.2);
      y0 = Math.min(y0, p.y - 1.2);
      x1 = Math.max(x1, p.x + 1.2);
      y1 = Math.max(y1, p.y + 1.2);
    }
    return { x0, y0, x1, y1 };
  }

  place(tile, target) {
    const [hi, lo] = parseTile(tile);
    if (target === null) return this.placeHub(tile, hi);
    const node = this.nodes.get(target);
    if (!node || node.slots.length === 0) throw new Error(`no free end on ${target} for ${tile}`);
    const slot = node.slots.shift();
    const m = node.out;
    const other = hi === m ? lo : hi;
    const isDouble = hi === lo;
    const spot = this.choose(slot, isDouble, node.index);
    const index = this.placed.length;
    const [ux, uy] = unit(spot.heading);
    const angle = (spot.heading * 180) / Math.PI;
    let cx, cy;
    if (isDouble) {
      cx = spot.x + ux * (0.5 + GAP);
      cy = spot.y + uy * (0.5 + GAP);
      this.placed.push({ tile, target, x: cx, y: cy, angle: angle + 90, a: m, b: m, double: true, hub: false });
      const [px, py] = [-uy, ux];
      const fx = cx + ux * 0.5;
      const fy = cy + uy * 0.5;
      const base = { ...spot, index };
      const toes = [
        { ...base, x: fx, y: fy, mode: spot.mode, turnAt: Math.max(spot.turnAt, Math.hypot(fx, fy) + 3) },
        { ...base, x: fx - px * 0.8, y: fy - py * 0.8, heading: spot.heading - FAN, mode: "fan", side: -1 },
        { ...base, x: fx + px * 0.8, y: fy + py * 0.8, heading: spot.heading + FAN, mode: "fan", side: 1 },
      ];
      this.nodes.set(tile, { out: m, slots: toes.slice(0, this.toes), index });
      this.addCircles(spot.circles, index);
    } else {
      cx = spot.x + ux * (1 + GAP);
      cy = spot.y + uy * (1 + GAP);
      this.placed.push({ tile, target, x: cx, y: cy, angle, a: m, b: other, double: false, hub: false });
      const next = { ...spot, x: spot.x + ux * (2 + GAP), y: spot.y + uy * (2 + GAP), index };
      this.nodes.set(tile, { out: other, slots: [next], index });
      this.addCircles(spot.circles, index);
    }
    return this.placed[index];
  }

  placeHub(tile, n) {
    const index = this.placed.length;
    this.placed.push({ tile, target: null, x: 0, y: 0, angle: 0, a: n, b: n, double: true, hub: true });
    const half = Math.PI / this.hubArms;
    const slots = armAngles(this.hubArms).map((alpha, i) => ({
      x: Math.cos(alpha) * HUB_RING,
      y: Math.sin(alpha) * HUB_RING,
      heading: alpha,
      alpha,
      half,
      mode: "out",
      turnAt: this.turnAt,
      side: i % 2 === 0 ? 1 : -1,
      index,
    }));
    this.nodes.set(tile, { out: n, slots, index });
    this.addCircles(
      [
        [-0.5, 0],
        [0.5, 0],
        [0, 0],
      ],
      index,
    );
    return this.placed[index];
  }

  addCircles(circles, index) {
    for (const [x, y] of circles) this.circles.push([x, y, index]);
  }

  // The heading (and start point) for the next tile on a line, following the snake rule, then
  // falling back to other headings when that would overlap an earlier tile.
  choose(slot, isDouble, parent) {
    const preferred = this.preferred(slot, isDouble);
    const options = [preferred];
    const h = slot.heading;
    const a = slot.alpha;
    const quarter = Math.PI / 2;
    for (const heading of [a, a + quarter, a - quarter, h, h + quarter, h - quarter, a + Math.PI]) {
      options.push({ ...slot, heading, mode: Math.abs(angleDiff(heading, slot.alpha)) < 0.1 ? "out" : "side" });
    }
    // First choice that overlaps nothing and leaves the line a way on; else the least bad one.
    let best = null;
    for (const option of options) {
      const spot = this.startOf(slot, option, isDouble);
      const hits = this.overlaps(spot.circles, parent);
      const score = hits * 10 + (hits === 0 && !this.hasWayOn(spot, isDouble) ? 1 : 0);
      if (score === 0) return spot;
      if (!best || score < best.score) best = { ...spot, score };
    }
    return best;
  }

  hasWayOn(spot, isDouble) {
    const [ux, uy] = unit(spot.heading);
    const reach = isDouble ? 1 + GAP : 2 + GAP;
    const end = { ...spot, x: spot.x + ux * reach, y: spot.y + uy * reach };
    const quarter = Math.PI / 2;
    return [spot.alpha, spot.heading, spot.heading + quarter, spot.heading - quarter].some((heading) => {
      const next = this.startOf(end, { ...end, heading }, false);
      return this.overlaps(next.circles, -1) === 0 && this.overlaps(next.circles, -1, spot.circles) === 0;
    });
  }

  preferred(slot, isDouble) {
    const reach = isDouble ? 1 : 2;
    const [ux, uy] = unit(slot.heading);
    const far = [slot.x + ux * reach, slot.y + uy * reach];
    // A fanned toe's first tile keeps its slant; the tile after it bends back outwards.
    if (slot.mode === "fan") return { ...slot, mode: "bend" };
    if (slot.mode === "bend") return { ...slot, heading: slot.alpha, mode: "out" };
    if (slot.mode === "out" && Math.hypot(...far) > slot.turnAt) {
      // Turn towards the middle of the sector, or the line's own side for a line on the axis.
      const offset = angleDiff(Math.atan2(slot.y, slot.x), slot.alpha);
      const side = Math.abs(offset) > 0.05 ? -Math.sign(offset) : slot.side;
      return { ...slot, heading: slot.alpha + (side * Math.PI) / 2, mode: "side", side };
    }
    if (slot.mode === "side") {
      const offset = angleDiff(Math.atan2(far[1], far[0]), slot.alpha);
      if (Math.abs(offset) > slot.half * 0.8) {
        const r = Math.hypot(slot.x, slot.y);
        return { ...slot, heading: slot.alpha, mode: "out", side: -slot.side, turnAt: r + 3.2 };
      }
    }
    return slot;
  }

  // Start point and footprint of a tile leaving `slot` in `option.heading`. A 90° turn starts
  // beside the previous tile's last half, as dominoes are laid round a corner.
  startOf(slot, option, isDouble) {
    let { x, y } = slot;
    const turn = angleDiff(option.heading, slot.heading);
    const [ux, uy] = unit(option.heading);
    if (Math.abs(Math.abs(turn) - Math.PI / 2) < 0.1) {
      const [ox, oy] = unit(slot.heading);
      x = x - ox * 0.5 + ux * 0.5;
      y = y - oy * 0.5 + uy * 0.5;
    }
    let circles;
    if (isDouble) {
      const cx = x + ux * (0.5 + GAP);
      const cy = y + uy * (0.5 + GAP);
      circles = [
        [cx - uy * 0.5, cy + ux * 0.5],
        [cx + uy * 0.5, cy - ux * 0.5],
      ];
    } else {
      circles = [
        [x + ux * (0.5 + GAP), y + uy * (0.5 + GAP)],
        [x + ux * (1.5 + GAP), y + uy * (1.5 + GAP)],
      ];
    }
    return { ...option, x, y, circles };
  }

  overlaps(circles, parent, others = this.circles) {
    let hits = 0;
    for (const [x, y] of circles) {
      for (const [cx, cy, owner] of others) {
        if (owner === parent && owner !== undefined) continue;
        if (Math.hypot(x - cx, y - cy) < CLEAR) hits++;
      }
    }
    return hits;
  }

  // Pairs of tiles whose halves overlap (used by tests to prove long lines fold cleanly).
  overlapCount() {
    let count = 0;
    for (let i = 0; i < this.circles.length; i++) {
      for (let j = i + 1; j < this.circles.length; j++) {
        const [x1, y1, o1] = this.circles[i];
        const [x2, y2, o2] = this.circles[j];
        if (o1 === o2) continue;
        const parentOf = (o) => this.nodes.get(this.placed[o].target)?.index;
        if (parentOf(o1) === o2 || parentOf(o2) === o1) continue;
        if (Math.hypot(x1 - x2, y1 - y2) < CLEAR - 0.05) count++;
      }
    }
    return count;
  }
}
