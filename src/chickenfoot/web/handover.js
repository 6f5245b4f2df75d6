// Continue on another device: from the player's own seat, a single-use link and its QR code (both
// made by the server) that move the seat to another device; and, on the device that opens such a
// link (/t/CODE#handover=…), taking the seat. The device that held it is told and watches.

import { changeAccount } from "./account-api.js";
import { t } from "./i18n.js";
import { api, rememberSeat } from "./net.js";

const $ = (id) => document.getElementById(id);
const PREFIX = "#handover=";

export class Handover {
  constructor(page) {
    this.page = page;
    $("handover-open").addEventListener("click", () => this.show());
    $("handover-copy").addEventListener("click", () => page.copy($("handover-link").value));
    $("handover-close").addEventListener("click", () => $("handover-dialog").close());
  }

  // Offered from the player's own seat while the match lasts.
  render(state) {
    $("handover").hidden = state.seat === null || state.match_over;
  }

  async show() {
    const code = encodeURIComponent(this.page.code);
    let offer;
    try {
      // A guest's seat by its credential; an account's without one by the session.
      offer = await changeAccount("POST", `/api/tables/${code}/handover`, { token: this.page.token });
    } catch (err) {
      this.page.toast(err.message);
      return;
    }
    $("handover-qr").src = offer.qr;
    $("handover-qr").alt = t("handover.qr");
    $("handover-link").value = offer.link;
    $("handover-note").textContent = t("handover.note", { count: Math.round(offer.seconds / 60) });
    $("handover-dialog").showModal();
    $("handover-copy").focus();
  }
}

// On the new device: spend the link of the address, keep the seat's new credential in this browser
// and take the link out of the address. Returns what to tell the player (null: there was no link).
export async function takeHandover(code) {
  if (!location.hash.startsWith(PREFIX)) return null;
  const handover = location.hash.slice(PREFIX.length);
  history.replaceState(null, "", location.pathname + location.search);
  try {
    const seat = await api("POST", `/api/tables/${encodeURIComponent(code)}/handover/take`, { handover });
    rememberSeat(code, seat.token);
    return t("handover.arrived");
  } catch (err) {
    return t("table.watching_instead", { error: err.message });
  }
}
