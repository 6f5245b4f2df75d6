// @ts-check
// The table's keys: ← → choose among the tiles that can be played, 1–9 a tile of the hand by place,
// Tab the next place for it, Enter plays there, D draws, P passes, H shows a hint, Escape lets go.

import { moveWords } from "./hints.js";
import { sameTile } from "./tiles.js";

/**
 * What the keys may read of the table and ask of it.
 * @typedef {object} KeyPort
 * @property {() => boolean} shown whether a state is on the page
 * @property {() => string[]} tiles the hand, in the order shown
 * @property {() => string | null} selected
 * @property {(tile: string) => boolean} playable
 * @property {(tile: string | null) => void} select
 * @property {(step: number) => string | null} nextTarget the next place on offer for the selected tile (its move)
 * @property {() => string | null} focusedMove
 * @property {(words: string) => void} say read out to a screen reader
 * @property {(move: string) => void} play
 * @property {() => void} hint turn the hints on
 */

/** @param {KeyPort} table */
export function bindKeys(table) {
  document.addEventListener("keydown", (e) => {
    const inField = e.target instanceof Element && e.target.closest("input:not([type=checkbox]), select, textarea, dialog");
    if (!table.shown() || inField || e.ctrlKey || e.metaKey || e.altKey) return;
    const hand = table.tiles();
    const key = e.key.toLowerCase();
    const selected = table.selected();
    const index = selected ? hand.findIndex((tile) => sameTile(tile, selected)) : -1;
    const selectable = hand.filter((tile) => table.playable(tile));
    if (key === "arrowright" || key === "arrowleft") {
      if (!selectable.length) return;
      const at = selectable.findIndex((tile) => selected && sameTile(tile, selected));
      const step = key === "arrowright" ? 1 : -1;
      table.select(selectable[(at + step + selectable.length + (at < 0 && step < 0 ? 1 : 0)) % selectable.length]);
    } else if (/^[1-9]$/.test(key)) {
      const tile = hand[Number(key) - 1];
      if (tile) table.select(tile);
    } else if (key === "tab" && selected) {
      e.preventDefault();
      const move = table.nextTarget(e.shiftKey ? -1 : 1);
      if (move) table.say(moveWords(move));
    } else if (key === "enter" && index >= 0) {
      const move = table.focusedMove();
      if (move) table.play(move);
    } else if (key === "d") table.play("draw");
    else if (key === "p") table.play("pass");
    else if (key === "h") table.hint();
    else if (key === "escape") table.select(null);
    else return;
    e.preventDefault();
  });
}
