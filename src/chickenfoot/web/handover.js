// @ts-check
// Continue on another device: from the player's own seat, a single-use link and its QR code (both
// made by the server) that move the seat to another device; and, on the device that opens such a
// link (/t/CODE#handover=…), taking the seat. The device that held it is told and watches.

import { byId, setHidden } from "./dom.js";
import { t } from "./i18n.js";
import { api, refusalText, rememberSeat } from "./net.js";

const PREFIX = "#handover=";

/** A seat offered to another device: its QR code (an image's address), its link and how long it holds. @typedef {{ qr: string, link: string, seconds: number }} HandoverOffer */

/**
 * What the handover may ask of the table: the server's offer for the player's seat, the link
 * copied, and a short message to the player.
 * @typedef {{ offer(): Promise<HandoverOffer>, copy(text: string): void, toast(text: string): void }} HandoverPort
 */

export class Handover {
  /** @param {HandoverPort} port */
  constructor(port) {
    this.port = port;
    this.card = byId("handover");
    this.dialog = byId("handover-dialog", HTMLDialogElement);
    this.qr = byId("handover-qr", HTMLImageElement);
    this.link = byId("handover-link", HTMLInputElement);
    this.note = byId("handover-note");
    this.copy = byId("handover-copy", HTMLButtonElement);
    byId("handover-open").addEventListener("click", () => this.show());
    this.copy.addEventListener("click", () => port.copy(this.link.value));
    byId("handover-close").addEventListener("click", () => this.dialog.close());
  }

  /**
   * Offered from the player's own seat while the match lasts.
   * @param {boolean} offered
   */
  update(offered) {
    setHidden(this.card, !offered);
  }

  async show() {
    let offer;
    try {
      offer = await this.port.offer();
    } catch (err) {
      this.port.toast(refusalText(err));
      return;
    }
    this.qr.src = offer.qr;
    this.qr.alt = t("handover.qr");
    this.link.value = offer.link;
    this.note.textContent = t("handover.note", { count: Math.round(offer.seconds / 60) });
    this.dialog.showModal();
    this.copy.focus();
  }
}

// On the new device: spend the link of the address, keep the seat's new credential in this browser
// and take the link out of the address. Returns what to tell the player (null: there was no link).
/** @param {string} code */
export async function takeHandover(code) {
  if (!location.hash.startsWith(PREFIX)) return null;
  const handover = location.hash.slice(PREFIX.length);
  history.replaceState(null, "", location.pathname + location.search);
  try {
    /** @type {{ token: string }} */
    const seat = await api("POST", `/api/tables/${encodeURIComponent(code)}/handover/take`, { handover });
    rememberSeat(code, seat.token);
    return t("handover.arrived");
  } catch (err) {
    return t("table.watching_instead", { error: refusalText(err) });
  }
}
