// The player's hand: its tiles in the chosen order, each saying (by outline and to screen readers)
// whether it can be played now; click to select, double-click to play a tile's only move, or drag a
// tile onto a highlighted place. The first time a tile can be played, a hint says it may be dragged.

import { t } from "./i18n.js";
import { parseTile, tileSvg } from "./tiles.js";

const $ = (id) => document.getElementById(id);
const SORT = "cf-sort";
const DRAG_HINT = "cf-drag-hint"; // "seen": the drag hint was shown and put away

export const tileOf = (move) => move.split("@")[0];
export const sameTile = (a, b) => parseTile(a).join("-") === parseTile(b).join("-");
const pips = (tile) => parseTile(tile)[0] + parseTile(tile)[1];

export class Hand {
  constructor(page) {
    this.page = page; // the TablePage: its state, selection, and moves
    this.sort = localStorage.getItem(SORT) ?? "number";
    $("sort").value = this.sort;
    $("sort").addEventListener("change", () => {
      this.sort = $("sort").value;
      localStorage.setItem(SORT, this.sort);
      this.render();
    });
    $("drag-hint-close").addEventListener("click", () => this.dragHintSeen());
  }

  sorted() {
    const hand = [...(this.page.state?.hand ?? [])];
    if (this.sort === "number") hand.sort((a, b) => parseTile(b)[0] - parseTile(a)[0] || parseTile(b)[1] - parseTile(a)[1]);
    else if (this.sort === "pips") hand.sort((a, b) => pips(b) - pips(a));
    return hand;
  }

  render() {
    const page = this.page;
    const s = page.state;
    $("hand").closest(".dock").hidden = s.seat === null; // a spectator has no hand to hold
    const hint = page.hints.hint;
    let playable = 0;
    $("hand").replaceChildren(
      ...this.sorted().map((tile, i) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "hand-tile";
        button.dataset.tile = tile;
        button.setAttribute("role", "option");
        const moves = page.myTurn ? page.movesFor(tile) : [];
        const label = i < 9 ? t("table.tile_key", { tile, key: i + 1 }) : t("ui.tile", { tile });
        button.setAttribute("aria-label", moves.length ? [label, t("table.playable")].join(", ") : label);
        if (moves.length) playable += 1;
        button.classList.toggle("playable", moves.length > 0);
        button.classList.toggle("dim", page.myTurn && moves.length === 0);
        button.classList.toggle("drawn", !!s.drawn && sameTile(s.drawn, tile));
        button.classList.toggle("hinted", !!hint && hint.move.includes("@") && sameTile(tileOf(hint.move), tile));
        const selected = !!page.selected && sameTile(page.selected, tile);
        button.classList.toggle("selected", selected);
        button.setAttribute("aria-selected", String(selected));
        button.appendChild(tileSvg(tile));
        button.addEventListener("click", () => page.select(selected ? null : tile));
        button.addEventListener("dblclick", () => {
          const options = page.movesFor(tile);
          if (options.length === 1) page.play(options[0]);
        });
        this.bindDrag(button, tile);
        return button;
      }),
    );
    // Shown with the first tile there is to play, until put away (or a tile is dragged).
    $("drag-hint").hidden = !playable || localStorage.getItem(DRAG_HINT) === "seen";
  }

  dragHintSeen() {
    localStorage.setItem(DRAG_HINT, "seen");
    $("drag-hint").hidden = true;
  }

  // Drag a tile from the hand onto a highlighted target to play it there.
  bindDrag(button, tile) {
    const page = this.page;
    button.addEventListener("pointerdown", (down) => {
      if (!page.movesFor(tile).length || down.button !== 0) return;
      let ghost = null;
      const move = (e) => {
        if (!ghost && Math.hypot(e.clientX - down.clientX, e.clientY - down.clientY) < 10) return;
        if (!ghost) {
          if (!page.selected || !sameTile(page.selected, tile)) page.select(tile);
          ghost = document.createElement("div");
          ghost.className = "drag-ghost";
          ghost.appendChild(tileSvg(tile));
          document.body.appendChild(ghost);
          this.dragHintSeen(); // they know
        }
        ghost.style.left = `${e.clientX - 20}px`;
        ghost.style.top = `${e.clientY - 40}px`;
      };
      const up = (e) => {
        removeEventListener("pointermove", move);
        removeEventListener("pointerup", up);
        if (!ghost) return;
        ghost.remove();
        const target = document.elementFromPoint(e.clientX, e.clientY)?.closest("[data-move]");
        if (target) page.play(target.dataset.move);
      };
      addEventListener("pointermove", move);
      addEventListener("pointerup", up);
    });
  }
}
