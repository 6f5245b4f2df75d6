// @ts-check
// Short words over the board: a toast (a refusal, a copied link, a rename, the move the server makes
// for you) and the chicken-foot banner. A toast about one turn goes as soon as that turn is over.

import { setHidden, setText } from "./dom.js";

/** @import { State } from "./protocol.js" */

const SHOWN = 2500; // ms a toast stays up
const BANNER = 1800; // ms, as long as its CSS animation

export class Toasts {
  /**
   * @param {HTMLElement} toast
   * @param {HTMLElement} banner
   */
  constructor(toast, banner) {
    this.box = toast;
    this.bannerBox = banner;
    /** @type {string | null} the turn a toast is about (Toasts.turnOf), or null */
    this.turn = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.bannerTimer = undefined;
  }

  /**
   * `turn`: the turn this toast is about; it is taken down when the turn moves on (turnMoved).
   * @param {string} text
   * @param {string | null} [turn]
   */
  show(text, turn = null) {
    setText(this.box, text);
    setHidden(this.box, false);
    this.turn = turn;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.hide(), SHOWN);
  }

  hide() {
    clearTimeout(this.timer);
    this.box.hidden = true;
    this.turn = null;
  }

  // Called with every state's turn: a toast about an earlier turn is out of date.
  /** @param {string} turn */
  turnMoved(turn) {
    if (this.turn !== null && this.turn !== turn) this.hide();
  }

  // The turn a STATE is at: the round, the tiles down, the boneyard and who is to move.
  /** @param {State} s */
  static turnOf(s) {
    return `${s.round}/${s.layout.length}/${s.boneyard}/${s.to_move}`;
  }

  banner() {
    const banner = this.bannerBox;
    banner.hidden = false;
    // Restart the animation for back-to-back feet.
    banner.style.animation = "none";
    void banner.offsetWidth;
    banner.style.animation = "";
    clearTimeout(this.bannerTimer);
    this.bannerTimer = setTimeout(() => (banner.hidden = true), BANNER);
  }
}
