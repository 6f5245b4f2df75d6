// Moves that travel: a tile placed slides from its player's seat (or from your hand) to its place on
// the board, a drawn tile slides from the boneyard to the player who drew it. Nothing moves for a
// reader who asks for reduced motion. The last tile placed stays marked by the board (.last).
//
// Where a move comes from is read from the page before the new state is drawn (plan), and the
// slide starts once it is drawn (fly). The board is drawn anew on every render, so a slide in
// flight is put back on the fresh drawing at the point it had reached (redraw).

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

  // Where the moves of `state` since `previous` come from, read off the page before it is redrawn.
  plan(previous, state) {
    if (this.reduced.matches || !previous || previous.round !== state.round) return [];
    const added = state.log.slice(previous.log.length);
    if (added.length > CATCH_UP) return [];
    return added.flatMap((entry) => {
      if (entry.move === "draw") return [{ kind: "draw", seat: entry.seat }];
      if (entry.move === "pass" || typeof entry.seat !== "number") return [];
      const tile = tileOf(entry.move);
      const mine = entry.seat === state.seat;
      const inHand = mine ? [...document.querySelectorAll("#hand [data-tile]")].find((b) => sameTile(b.dataset.tile, tile)) : null;
      const from = centre(inHand ?? document.querySelector(`.player[data-seat="${entry.seat}"]`));
      return from ? [{ kind: "place", tile, from }] : [];
    });
  }

  // Starts the slides of a plan, once the new state is drawn.
  fly(plan, state) {
    for (const step of plan) {
      if (step.kind === "place") {
        this.flight = { tile: step.tile, from: step.from, started: performance.now() };
        this.redraw();
      } else this.drawn(step.seat, state);
    }
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
