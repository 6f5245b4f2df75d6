// The connection's state, shown while it is lost: "reconnecting…", the attempt and the seconds until
// the next one (counted down), and a button to try at once. Play waits meanwhile (TablePage.myTurn).

import { t } from "./i18n.js";

export class ConnectionBar {
  constructor(box, retryNow) {
    this.box = box;
    this.text = box.querySelector(".connection-text");
    this.detail = box.querySelector(".connection-detail");
    box.querySelector("button").addEventListener("click", retryNow);
    this.status = null;
  }

  update(status) {
    const lost = this.status && !this.status.up;
    this.status = status;
    clearTimeout(this.timer);
    this.box.classList.toggle("back", status.up);
    if (status.up) {
      if (!lost) return;
      // Say it is back for a moment, then get out of the way.
      this.text.textContent = t("connection.back");
      this.detail.textContent = "";
      this.box.querySelector("button").hidden = true;
      this.timer = setTimeout(() => (this.box.hidden = true), 2000);
      return;
    }
    this.box.hidden = false;
    this.box.querySelector("button").hidden = false;
    this.text.textContent = t("connection.lost");
    this.tick();
  }

  tick() {
    const { attempt, retryAt } = this.status;
    const count = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
    this.detail.textContent = t("connection.retry", { attempt, count });
    if (count > 0) this.timer = setTimeout(() => this.tick(), 1000);
  }

  // Re-words the bar in a newly chosen language.
  render() {
    if (this.status && !this.status.up) this.update(this.status);
  }
}
