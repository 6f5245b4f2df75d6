// Hints: with "Hints" on, the server is asked once per turn for a suggested move, shown in words
// above the hand and outlined on the board. A hint holds for the turn it was asked in.

import { say, seatNames, t } from "./i18n.js";
import { tileOf } from "./hand.js";

const $ = (id) => document.getElementById(id);

// A move in the notation of docs/rules.md §7 as advice: "play 9-4 on 9-9", "draw a tile" (move.*).
export function moveWords(move) {
  if (move === "draw") return t("move.draw");
  if (move === "pass") return t("move.pass");
  const [tile, target] = move.split("@");
  return target ? t("move.play", { tile, target }) : t("move.hub", { tile });
}

export class Hints {
  constructor(page) {
    this.page = page; // the TablePage: its state, turn, socket and selection
    this.hint = null; // {move, message} for the current turn
    this.asked = null; // the turn position last asked about
    $("hints").addEventListener("change", () => this.ask());
  }

  get on() {
    return $("hints").checked;
  }

  turnOn() {
    $("hints").checked = true;
    this.ask();
  }

  // A new state: a hint whose move is no longer legal (the turn moved on) is dropped.
  onState(s) {
    if (this.hint && !(this.page.myTurn && s.legal.includes(this.hint.move))) this.hint = null;
  }

  // The server's answer: one that arrives after the turn moved on is stale.
  receive(hint) {
    const page = this.page;
    if (!this.on || !page.myTurn || !page.state.legal.includes(hint.move)) return;
    this.hint = { move: hint.move, message: hint };
    if (hint.move !== "draw" && hint.move !== "pass") page.selected = tileOf(hint.move);
    page.render();
    page.board.focusMove(hint.move);
  }

  ask() {
    const page = this.page;
    if (!this.on || !page.myTurn || page.state.forced) {
      if (this.hint) {
        this.hint = null;
        page.render();
      }
      return;
    }
    // Once per turn position: presence updates resend the same state.
    const s = page.state;
    const turn = `${s.round}/${s.layout.length}/${s.legal.join()}`;
    if (!this.hint && this.asked !== turn) {
      this.asked = turn;
      page.socket.send({ type: "hint" });
    }
  }

  render() {
    const box = $("hint");
    box.hidden = !this.hint;
    if (!this.hint) return;
    const { move, message } = this.hint;
    box.textContent = t("hint", { move: moveWords(move), reason: say(message, seatNames(this.page.state)) });
    box.dataset.move = move;
  }
}
