// Short words over the board: a toast (a refusal, a copied link, a rename, the move the server makes
// for you) and the chicken-foot banner. A toast about one turn goes as soon as that turn is over.

const SHOWN = 2500; // ms a toast stays up
const BANNER = 1800; // ms, as long as its CSS animation

export class Toasts {
  constructor(toast, banner) {
    this.box = toast;
    this.bannerBox = banner;
    this.turn = null; // the turn a toast is about (Toasts.turnOf), or null
  }

  // `turn`: the turn this toast is about; it is taken down when the turn moves on (turnMoved).
  show(text, turn = null) {
    const box = this.box;
    box.textContent = text;
    box.hidden = false;
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
  turnMoved(turn) {
    if (this.turn !== null && this.turn !== turn) this.hide();
  }

  // The turn a STATE is at: the round, the tiles down, the boneyard and who is to move.
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
