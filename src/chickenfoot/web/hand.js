// @ts-check
// The player's hand: its tiles in the chosen order, each saying (by outline and to screen readers)
// whether it can be played now; click to select, double-click to play a tile's only move, or drag a
// tile onto a highlighted place. The first time a tile can be played, a hint says it may be dragged.
// Each tile is one button for as long as it is in the hand: a state that changes the hand adds or
// removes its buttons and rewrites only what changed on the others.

import { attribute, byId, keepChildren, setHidden } from "./dom.js";
import { Drawn } from "./drawn.js";
import { t } from "./i18n.js";
import { parseTile, sameTile, tileKey, tileSvg } from "./tiles.js";

const SORT = "cf-sort";
const DRAG_HINT = "cf-drag-hint"; // "seen": the drag hint was shown and put away

/** @param {string} tile */
const pips = (tile) => parseTile(tile)[0] + parseTile(tile)[1];

/**
 * What the hand draws.
 * @typedef {object} HandSlice
 * @property {boolean} seated a spectator has no hand to hold
 * @property {string[]} tiles the hand as dealt
 * @property {boolean} myTurn
 * @property {Record<string, string[]>} moves each playable tile's moves, by tile (only on the player's turn)
 * @property {string | null} drawn the tile just drawn
 * @property {string | null} hinted the tile of the hinted move
 * @property {string | null} selected
 */

/** What the hand may ask of the table. @typedef {{ select(tile: string | null): void, play(move: string): void }} HandActions */

export class Hand {
  /** @param {HandActions} actions */
  constructor(actions) {
    this.actions = actions;
    this.box = byId("hand");
    this.dock = byId("dock");
    this.dragHint = byId("drag-hint");
    this.sortChoice = byId("sort", HTMLSelectElement);
    this.sort = localStorage.getItem(SORT) ?? "number";
    this.sortChoice.value = this.sort;
    /** @type {Map<string, HTMLButtonElement>} each tile's button, by tile */
    this.buttons = new Map();
    /** @type {HandSlice | null} */
    this.shown = null;
    /** @type {Drawn<HandSlice & { sort: string }>} */
    this.drawn = new Drawn((slice) => this.draw(slice));
    this.sortChoice.addEventListener("change", () => {
      this.sort = this.sortChoice.value;
      localStorage.setItem(SORT, this.sort);
      if (this.shown) this.update(this.shown);
    });
    byId("drag-hint-close").addEventListener("click", () => this.dragHintSeen());
  }

  /** @param {HandSlice} slice */
  update(slice) {
    this.shown = slice;
    this.drawn.update({ ...slice, sort: this.sort });
  }

  /**
   * The hand's tiles in the order shown.
   * @param {string[]} [tiles]
   */
  sorted(tiles = this.shown?.tiles ?? []) {
    const hand = [...tiles];
    if (this.sort === "number") hand.sort((a, b) => parseTile(b)[0] - parseTile(a)[0] || parseTile(b)[1] - parseTile(a)[1]);
    else if (this.sort === "pips") hand.sort((a, b) => pips(b) - pips(a));
    return hand;
  }

  /**
   * The moves `tile` has now.
   * @param {string} tile
   */
  movesFor(tile) {
    return this.shown?.moves[tileKey(tile)] ?? [];
  }

  /**
   * The button of `tile`, or null (a slide starts from it).
   * @param {string} tile
   */
  tileElement(tile) {
    return this.buttons.get(tileKey(tile)) ?? null;
  }

  // Where a tile just drawn goes: its button, else the hand.
  drawnElement() {
    const drawn = this.shown?.drawn;
    return (drawn && this.tileElement(drawn)) || this.box;
  }

  /** @param {HandSlice & { sort: string }} s */
  draw(s) {
    setHidden(this.dock, !s.seated);
    const tiles = this.sorted(s.tiles);
    const kept = new Set(tiles.map(tileKey));
    for (const tile of [...this.buttons.keys()]) if (!kept.has(tile)) this.buttons.delete(tile);
    let playable = 0;
    const buttons = tiles.map((tile, i) => {
      const button = this.buttons.get(tileKey(tile)) ?? this.made(tile);
      const moves = s.myTurn ? (s.moves[tileKey(tile)] ?? []) : [];
      const label = i < 9 ? t("table.tile_key", { tile, key: i + 1 }) : t("ui.tile", { tile });
      attribute(button, "aria-label", moves.length ? [label, t("table.playable")].join(", ") : label);
      if (moves.length) playable += 1;
      const selected = !!s.selected && sameTile(s.selected, tile);
      button.classList.toggle("playable", moves.length > 0);
      button.classList.toggle("dim", s.myTurn && moves.length === 0);
      button.classList.toggle("drawn", !!s.drawn && sameTile(s.drawn, tile));
      button.classList.toggle("hinted", !!s.hinted && sameTile(s.hinted, tile));
      button.classList.toggle("selected", selected);
      attribute(button, "aria-selected", String(selected));
      return button;
    });
    keepChildren(this.box, buttons);
    // Shown with the first tile there is to play, until put away (or a tile is dragged).
    setHidden(this.dragHint, !playable || localStorage.getItem(DRAG_HINT) === "seen");
  }

  /**
   * A new button for `tile`: selected by a click, played by a double click or a drag.
   * @param {string} tile
   */
  made(tile) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "hand-tile";
    button.dataset.tile = tile;
    button.setAttribute("role", "option");
    button.appendChild(tileSvg(tile));
    button.addEventListener("click", () => {
      const selected = this.shown?.selected;
      this.actions.select(selected && sameTile(selected, tile) ? null : tile);
    });
    button.addEventListener("dblclick", () => {
      const options = this.movesFor(tile);
      if (options.length === 1) this.actions.play(options[0]);
    });
    this.bindDrag(button, tile);
    this.buttons.set(tileKey(tile), button);
    return button;
  }

  dragHintSeen() {
    localStorage.setItem(DRAG_HINT, "seen");
    this.dragHint.hidden = true;
  }

  /**
   * Drag a tile from the hand onto a highlighted target to play it there.
   * @param {HTMLButtonElement} button
   * @param {string} tile
   */
  bindDrag(button, tile) {
    button.addEventListener("pointerdown", (down) => {
      if (!this.movesFor(tile).length || down.button !== 0) return;
      /** @type {HTMLDivElement | null} */
      let ghost = null;
      /** @param {PointerEvent} e */
      const move = (e) => {
        if (!ghost && Math.hypot(e.clientX - down.clientX, e.clientY - down.clientY) < 10) return;
        if (!ghost) {
          const selected = this.shown?.selected;
          if (!selected || !sameTile(selected, tile)) this.actions.select(tile);
          ghost = document.createElement("div");
          ghost.className = "drag-ghost";
          ghost.appendChild(tileSvg(tile));
          document.body.appendChild(ghost);
          this.dragHintSeen(); // they know
        }
        ghost.style.left = `${e.clientX - 20}px`;
        ghost.style.top = `${e.clientY - 40}px`;
      };
      /** @param {PointerEvent} e */
      const up = (e) => {
        removeEventListener("pointermove", move);
        removeEventListener("pointerup", up);
        if (!ghost) return;
        ghost.remove();
        const target = document.elementFromPoint(e.clientX, e.clientY)?.closest("[data-move]");
        const played = target?.getAttribute("data-move");
        if (played) this.actions.play(played);
      };
      addEventListener("pointermove", move);
      addEventListener("pointerup", up);
    });
  }
}

