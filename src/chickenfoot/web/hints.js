// @ts-check
// Hints: with "Hints" on, the server is asked once per turn for a suggested move, shown in words
// above the hand and outlined on the board. A hint holds for the turn it was asked in. A rated table
// offers none: its match is the players' own play (the server refuses them there too).

import { byId, setHidden } from "./dom.js";
import { Drawn } from "./drawn.js";
import { say, t } from "./i18n.js";

/** @import { HintMessage } from "./protocol.js" */

/**
 * The turn as the hints see it: whether it is the player's, its legal moves, a move the server makes
 * itself, and the position (a presence update resends the same one).
 * @typedef {{ mine: boolean, legal: string[], forced: boolean, position: string }} HintTurn
 */

/**
 * What the hints may ask of the table: send a request for a hint; show one that came (select its tile,
 * point at its place); draw again (a hint went).
 * @typedef {{ ask(): void, hinted(move: string): void, changed(): void }} HintPort
 */

/**
 * A move in the notation of docs/rules.md §7 as advice: "play 9-4 on 9-9", "draw a tile" (move.*).
 * @param {string} move
 */
export function moveWords(move) {
  if (move === "draw") return t("move.draw");
  if (move === "pass") return t("move.pass");
  const [tile, target] = move.split("@");
  return target ? t("move.play", { tile, target }) : t("move.hub", { tile });
}

export class Hints {
  /** @param {HintPort} port */
  constructor(port) {
    this.port = port;
    this.box = byId("hint");
    this.toggle = byId("hints", HTMLInputElement);
    /** @type {HintMessage | null} the hint for the current turn */
    this.hint = null;
    /** @type {string | null} the turn position last asked about */
    this.asked = null;
    /** @type {HintTurn} */
    this.turn = { mine: false, legal: [], forced: false, position: "" };
    /** @type {Drawn<{ hint: HintMessage | null, names: string[] }>} */
    this.drawn = new Drawn(({ hint, names }) => this.draw(hint, names));
    /** the table offers hints (not a rated table's) */
    this.offered = true;
    this.toggle.addEventListener("change", () => {
      this.follow(this.turn);
      this.port.changed();
    });
  }

  /**
   * Whether the table offers hints: a rated table does not, so the toggle goes and hints stop.
   * @param {boolean} offered
   */
  offer(offered) {
    if (offered === this.offered) return;
    this.offered = offered;
    setHidden(/** @type {HTMLElement} */ (this.toggle.closest("label")), !offered);
    if (!offered) this.toggle.checked = false;
    this.follow(this.turn); // the table draws again next
  }

  turnOn() {
    if (!this.offered) return;
    this.toggle.checked = true;
    this.follow(this.turn);
    this.port.changed();
  }

  /**
   * A new turn, or the same one again: a hint whose move is no longer legal is dropped, and with the
   * hints on, the turn's hint is asked for once per position.
   * @param {HintTurn} turn
   */
  follow(turn) {
    this.turn = turn;
    const usable = this.toggle.checked && turn.mine && !turn.forced;
    if (this.hint && !(usable && turn.legal.includes(this.hint.move))) this.hint = null;
    if (usable && !this.hint && this.asked !== turn.position) {
      this.asked = turn.position;
      this.port.ask();
    }
  }

  /**
   * The server's answer: one that arrives after the turn moved on is stale.
   * @param {HintMessage} hint
   */
  receive(hint) {
    if (!this.toggle.checked || !this.turn.mine || !this.turn.legal.includes(hint.move)) return;
    this.hint = hint;
    this.port.hinted(hint.move);
  }

  /** @param {string[]} names the seats' names, which a hint's reason may name */
  update(names) {
    this.drawn.update({ hint: this.hint, names });
  }

  /**
   * @param {HintMessage | null} hint
   * @param {string[]} names
   */
  draw(hint, names) {
    setHidden(this.box, !hint);
    if (!hint) return;
    this.box.textContent = t("hint", { move: moveWords(hint.move), reason: say(hint, names) });
    this.box.dataset.move = hint.move;
  }
}
