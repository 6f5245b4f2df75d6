// Moves that travel: a tile placed slides from its player's seat (or from your hand) to its place on
// the board, a drawn tile slides from the boneyard to the player who drew it. Nothing moves for a
// reader who asks for reduced motion. The last tile placed stays marked by the board (.last).
//
// Where a move comes from is read from the page before the new state is drawn (plan), and the
// slide starts once it is drawn. The board is drawn anew on every render, so the slide in flight is
// put back on each fresh drawing at the point it had reached (redraw); a newer move takes its place.

import { sameTile, tileOf } from "./hand.js";
import { el } from "./tiles.js";

const SLIDE = 450; // ms
const EASE = "cubic-bezier(0.2, 0.7, 0.3, 1)";
const CATCH_UP = 3; // more new moves than this at once (a reconnection): nothing slides

const centre = (node) => {
  const r = node?.getBoundingClientRect();
  return r && r.width ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : null;
};

export class Motion {
  constructor(svg, boneyard) {
    this.svg = svg;
    this.boneyard = boneyard;
    this.reduced = matchMedia("(prefers-reduced-motion: reduce)");
    this.flight = null; // the tile sliding onto the board: {tile, from (a screen point), started}
  }

  // Where the moves of `state` since `previous` come from, read off the page before it is redrawn:
  // the tile placed flies from there as soon as the board is drawn (redraw); the draws are returned,
  // to start once the hand and seats are drawn (fly).
  plan(previous, state) {
    if (this.reduced.matches || !previous || previous.round !== state.round) return [];
    const added = state.log.slice(previous.log.length);
    if (added.length > CATCH_UP) return [];
    const draws = [];
    for (const entry of added) {
      if (entry.move === "draw") draws.push(entry.seat);
      if (entry.move === "draw" || entry.move === "pass" || typeof entry.seat !== "number") continue;
      const tile = tileOf(entry.move);
      const mine = entry.seat === state.seat;
      const inHand = mine ? [...document.querySelectorAll("#hand [data-tile]")].find((b) => sameTile(b.dataset.tile, tile)) : null;
      const from = centre(inHand ?? document.querySelector(`.player[data-seat="${entry.seat}"]`));
      if (from) this.flight = { tile, from, started: performance.now() };
    }
    return draws;
  }

  // Starts the draws' slides, once the new state is drawn.
  fly(draws, state) {
    for (const seat of draws) this.drawn(seat, state);
  }

  // Puts the tile in flight back on a fresh drawing of the board, as far along as it had come.
  redraw() {
    const flight = this.flight;
    if (!flight) return;
    const elapsed = performance.now() - flight.started;
    const placed = [...this.svg.querySelectorAll(".world > .tile[data-tile]")].find((g) => sameTile(g.dataset.tile, flight.tile));
    const screen = this.svg.getScreenCTM();
    const to = centre(placed);
    if (elapsed >= SLIDE || !placed || !screen || !to) {
      this.flight = null;
      return;
    }
    const toUser = screen.inverse();
    const a = new DOMPoint(flight.from.x, flight.from.y).matrixTransform(toUser);
    const b = new DOMPoint(to.x, to.y).matrixTransform(toUser);
    const wrap = el("g", { class: "arriving" });
    placed.replaceWith(wrap);
    wrap.append(placed);
    const slide = wrap.animate([{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px)` }, { transform: "none" }], {
      duration: SLIDE,
      easing: EASE,
    });
    slide.currentTime = elapsed;
    slide.finished.then(() => {
      if (wrap.isConnected) wrap.replaceWith(placed);
      if (this.flight === flight) this.flight = null;
    }, () => {});
  }

  // A tile's back slides from the boneyard to whoever drew it: your hand, or their seat's card.
  drawn(seat, state) {
    const mine = seat === state.seat;
    const target = mine ? document.querySelector("#hand .hand-tile.drawn") ?? document.getElementById("hand") : document.querySelector(`.player[data-seat="${seat}"]`);
    const from = centre(this.boneyard);
    const to = centre(target);
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
