// @ts-check
// The connection's state, shown while it is lost: "reconnecting…", the attempt and the seconds until
// the next one (counted down), and a button to try at once. Play waits meanwhile (TablePage.myTurn).

import { within } from "./dom.js";
import { t } from "./i18n.js";

/** @import { ConnectionStatus } from "./protocol.js" */

export class ConnectionBar {
  /**
   * @param {HTMLElement} box
   * @param {() => void} retryNow
   */
  constructor(box, retryNow) {
    this.box = box;
    this.text = within(box, ".connection-text");
    this.detail = within(box, ".connection-detail");
    this.retry = within(box, "button", HTMLButtonElement);
    this.retry.addEventListener("click", retryNow);
    /** @type {ConnectionStatus | null} */
    this.status = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  /** @param {ConnectionStatus} status */
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
      this.retry.hidden = true;
      this.timer = setTimeout(() => (this.box.hidden = true), 2000);
      return;
    }
    this.box.hidden = false;
    this.retry.hidden = false;
    this.text.textContent = t("connection.lost");
    this.tick(status);
  }

  /** @param {{ attempt: number, retryAt: number }} status */
  tick(status) {
    const { attempt, retryAt } = status;
    const count = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
    this.detail.textContent = t("connection.retry", { attempt, count });
    if (count > 0) this.timer = setTimeout(() => this.tick(status), 1000);
  }

  // Re-words the bar in a newly chosen language.
  render() {
    if (this.status && !this.status.up) this.update(this.status);
  }
}
