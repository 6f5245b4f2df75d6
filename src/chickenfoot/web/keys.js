// The table's keys: ← → choose among the tiles that can be played, 1–9 a tile of the hand by place,
// Tab the next place for it, Enter plays there, D draws, P passes, H shows a hint, Escape lets go.

import { moveWords } from "./hints.js";
import { sameTile } from "./hand.js";

export function bindKeys(page) {
  document.addEventListener("keydown", (e) => {
    if (!page.state || e.target.closest("input:not([type=checkbox]), select, textarea, dialog") || e.ctrlKey || e.metaKey || e.altKey) return;
    const hand = page.hand.sorted();
    const key = e.key.toLowerCase();
    const index = page.selected ? hand.findIndex((t) => sameTile(t, page.selected)) : -1;
    const selectable = hand.filter((t) => page.movesFor(t).length);
    if (key === "arrowright" || key === "arrowleft") {
      if (!selectable.length) return;
      const at = selectable.findIndex((t) => page.selected && sameTile(t, page.selected));
      const step = key === "arrowright" ? 1 : -1;
      page.select(selectable[(at + step + selectable.length + (at < 0 && step < 0 ? 1 : 0)) % selectable.length]);
    } else if (/^[1-9]$/.test(key)) {
      const tile = hand[Number(key) - 1];
      if (tile) page.select(tile);
    } else if (key === "tab" && page.selected) {
      e.preventDefault();
      const move = page.board.cycleTarget(e.shiftKey ? -1 : 1);
      if (move) page.boardText.say(moveWords(move));
    } else if (key === "enter" && index >= 0) {
      const move = page.board.focusedMove();
      if (move) page.play(move);
    } else if (key === "d") page.play("draw");
    else if (key === "p") page.play("pass");
    else if (key === "h") page.hints.turnOn();
    else if (key === "escape") page.select(null);
    else return;
    e.preventDefault();
  });
}
