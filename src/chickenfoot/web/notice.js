// @ts-check
// "Your turn", noticed from elsewhere: the tab's title and icon say it, and on request (remembered,
// off until turned on) a browser notification while the tab is hidden. Its sound is the table's
// (sound.js).

import { byId } from "./dom.js";
import { Drawn } from "./drawn.js";
import { t } from "./i18n.js";

const NOTIFY = "cf-notice-notify";

// The header's logo as the tab's icon; on your turn a filled disc with it, so the tab shows the
// change by shape as well as by colour.
const LOGO = '<path d="M12 21V11M12 11L5 4M12 11V3M12 11l7-7" fill="none" stroke-width="2.6" stroke-linecap="round"/>';
/** @param {string} body */
const icon = (body) => `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">${body}</svg>`)}`;
const IDLE_ICON = icon(`<g stroke="#d9480f">${LOGO}</g>`);
const TURN_ICON = icon(`<circle cx="12" cy="12" r="12" fill="#d9480f"/><g stroke="#fff" transform="translate(2.4 2.4) scale(0.8)">${LOGO}</g>`);

export class TurnNotice {
  /**
   * @param {HTMLInputElement} notify the checkbox
   * @param {(text: string) => void} say shows a short message to the player
   */
  constructor(notify, say) {
    this.notify = notify;
    this.say = say;
    this.myTurn = false;
    this.favicon = byId("favicon", HTMLLinkElement);
    /** @type {Drawn<{ myTurn: boolean, title: string }>} */
    this.drawn = new Drawn(({ myTurn, title }) => {
      document.title = myTurn ? t("notice.title", { title }) : title;
      this.favicon.href = myTurn ? TURN_ICON : IDLE_ICON;
    });
    notify.checked = localStorage.getItem(NOTIFY) === "on" && "Notification" in window && Notification.permission === "granted";
    notify.addEventListener("change", () => this.askToNotify());
  }

  async askToNotify() {
    const notify = this.notify;
    if (notify.checked) {
      const allowed = "Notification" in window && (await Notification.requestPermission()) === "granted";
      if (!allowed) {
        notify.checked = false;
        this.say(t("notice.blocked"));
      }
    }
    localStorage.setItem(NOTIFY, notify.checked ? "on" : "off");
  }

  /**
   * Called with every state: whether this player is to move, the page's title and the table's code.
   * @param {boolean} myTurn
   * @param {string} title
   * @param {string} code
   */
  update(myTurn, title, code) {
    this.drawn.update({ myTurn, title });
    if (myTurn && !this.myTurn) {
      if (this.notify.checked && document.hidden && Notification.permission === "granted") {
        const note = new Notification(t("event.your_turn"), { body: t("notice.body", { code }), tag: `cf-turn-${code}` });
        note.addEventListener("click", () => {
          window.focus();
          note.close();
        });
      }
    }
    this.myTurn = myTurn;
  }
}
