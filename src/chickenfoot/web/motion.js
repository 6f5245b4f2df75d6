// @ts-check
// Moves that travel: a tile placed slides from its player's seat (or from your hand) to its place on
// the board, a drawn tile slides from the boneyard to the player who drew it. Nothing moves for a
// reader who asks for reduced motion. The last tile placed stays marked by the board (.last).
//
// Where a move comes from is read from the page before the new state is drawn (plan), and the
// slides start once it is drawn (fly): the board keeps a placed tile's element, so its slide runs
// on while later states are drawn.

import { el, tileOf } from "./tiles.js";

/** @import { State } from "./protocol.js" */

const SLIDE = 450; // ms
const EASE = "cubic-bezier(0.2, 0.7, 0.3, 1)";
const CATCH_UP = 3; // more new moves than this at once (a reconnection): nothing slides

/**
 * The elements moves travel between, found by the parts that own them.
 * @typedef {object} Places
 * @property {(seat: number, tile: string) => Element | null} from where a tile played by `seat` was: its hand's tile, or its seat's card
 * @property {(seat: number) => Element | null} to where a tile drawn by `seat` goes: the tile in the hand, or the seat's card
 * @property {(tile: string) => Element | null} placed the tile's element on the board
 */

/** @typedef {{ placed: { tile: string, from: { x: number, y: number } } | null, draws: number[] }} Flights */

/**
 * The centre of `node` on the screen, or null when it is not shown.
 * @param {Element | null} node
 */
const centre = (node) => {
  const r = node?.getBoundingClientRect();
  return r && r.width ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : null;
};

export class Motion {
  /**
   * @param {SVGSVGElement} svg the board
   * @param {Element} boneyard
   * @param {Places} places
   */
  constructor(svg, boneyard, places) {
    this.svg = svg;
    this.boneyard = boneyard;
    this.places = places;
    this.reduced = matchMedia("(prefers-reduced-motion: reduce)");
  }

  /**
   * Where the moves of `state` since `previous` come from, read off the page before it is redrawn.
   * @param {State | null} previous
   * @param {State} state
   * @returns {Flights}
   */
  plan(previous, state) {
    /** @type {Flights} */
    const flights = { placed: null, draws: [] };
    if (this.reduced.matches || !previous || previous.round !== state.round) return flights;
    const added = state.log.slice(previous.log.length);
    if (added.length > CATCH_UP) return flights;
    for (const entry of added) {
      if (typeof entry.seat !== "number") continue;
      if (entry.move === "draw") flights.draws.push(entry.seat);
      if (entry.move === "draw" || entry.move === "pass") continue;
      const tile = tileOf(entry.move);
      const from = centre(this.places.from(entry.seat, tile));
      if (from) flights.placed = { tile, from };
    }
    return flights;
  }

  /**
   * Starts the slides of `flights`, once the new state is drawn.
   * @param {Flights} flights
   */
  fly(flights) {
    if (flights.placed) this.place(flights.placed.tile, flights.placed.from);
    for (const seat of flights.draws) this.drawn(seat);
  }

  /**
   * The tile just placed slides from `from` (a point on the screen) to its place.
   * @param {string} tile
   * @param {{ x: number, y: number }} from
   */
  place(tile, from) {
    const placed = this.places.placed(tile);
    const screen = this.svg.getScreenCTM();
    const to = centre(placed);
    if (!placed || !screen || !to) return;
    const toUser = screen.inverse();
    const a = new DOMPoint(from.x, from.y).matrixTransform(toUser);
    const b = new DOMPoint(to.x, to.y).matrixTransform(toUser);
    const wrap = el("g", { class: "arriving" });
    placed.replaceWith(wrap);
    wrap.append(placed);
    const slide = wrap.animate([{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px)` }, { transform: "none" }], {
      duration: SLIDE,
      easing: EASE,
    });
    const land = () => {
      if (wrap.isConnected) wrap.replaceWith(placed);
    };
    slide.finished.then(land, land);
  }

  /**
   * A tile's back slides from the boneyard to whoever drew it: your hand, or their seat's card.
   * @param {number} seat
   */
  drawn(seat) {
    const from = centre(this.boneyard);
    const to = centre(this.places.to(seat));
    if (!from || !to) return;
    const back = document.createElement("div");
    back.className = "flying-tile";
    back.style.left = `${from.x}px`;
    back.style.top = `${from.y}px`;
    document.body.append(back);
    const slide = back.animate(
      [{ transform: "translate(-50%, -50%)" }, { transform: `translate(calc(${to.x - from.x}px - 50%), calc(${to.y - from.y}px - 50%))` }],
      { duration: SLIDE, easing: EASE },
    );
    slide.finished.then(() => back.remove(), () => back.remove());
  }
}
