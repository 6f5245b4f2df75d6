// @ts-check
// "You are offline", on every page (the shell's #offline), while the network is gone: shown at the
// browser's offline event, or from the start when the page opened without reaching the server (the
// service worker's kept shell, sw.js, with the kept catalog); the page's root is marked data-offline
// meanwhile (a table's own connection bar gives way to it). The network is back at the browser's
// online event, when a table's connection comes up again (net.js reconnects at the same event), or
// when the server answers one of the notice's own questions, asked while the browser believes it is
// online (a network that carries nothing). A page that was open goes on; a page that opened offline
// never had its content, and opens again.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { el } from "./tiles.js";

// The notice asks the server again after 2, 4, 8… seconds, at most 30 apart: an answer at all, from
// the cheapest address it has (/healthz), says it can be reached.
const FIRST_ASK = 2000;
const LAST_ASK = 30_000;

// No signal: the arcs of a wireless network, struck through (a shape, not only a colour).
function offlineIcon() {
  const svg = el("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", class: "offline-icon" });
  el("path", { d: "M2 8.5a15 15 0 0 1 20 0M5.5 12a10 10 0 0 1 13 0M9 15.5a5 5 0 0 1 6 0M12 19h.01M3 3l18 18" }, svg);
  return svg;
}

export class OfflineNotice {
  /**
   * @param {HTMLElement} box
   * @param {boolean} reachedServer whether the page's catalog came from the server (else the kept one)
   */
  constructor(box, reachedServer) {
    this.box = box;
    this.openedOffline = !navigator.onLine || !reachedServer;
    this.reopening = false;
    this.pause = FIRST_ASK;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.asking = undefined;
    // Each event is taken for what the browser says at that moment: one may come out of turn (an
    // "online" while it still says offline), and is then nothing.
    addEventListener("offline", () => {
      if (!navigator.onLine) this.show(true);
    });
    addEventListener("online", () => {
      if (navigator.onLine) this.back();
    });
    this.show(this.openedOffline);
  }

  // This page stands in for the one at its address (the offline page, sw.js): that one opens as soon
  // as the server answers, even if the page itself reached the server (the network came back between
  // the two).
  standIn() {
    this.openedOffline = true;
    if (navigator.onLine) this.ask();
  }

  // The network is back: the notice goes, or a page that opened without it opens again (once: the
  // browser, a table's connection and the notice's question may all say so at about the same time).
  back() {
    if (!this.openedOffline) this.show(false);
    else if (!this.reopening) {
      this.reopening = true;
      location.reload();
    }
  }

  /** @param {boolean} offline */
  show(offline) {
    document.documentElement.toggleAttribute("data-offline", offline);
    clearTimeout(this.asking);
    if (!offline) {
      this.box.replaceChildren();
      this.pause = FIRST_ASK;
      return;
    }
    if (!this.box.firstChild) {
      // Words marked data-t: a new language translates them with the rest of the shell.
      const title = h("strong", { "data-t": "offline.title" }, null, t("offline.title"));
      const note = h("span", { "data-t": "offline.note" }, null, t("offline.note"));
      this.box.replaceChildren(offlineIcon(), title, " ", note);
    }
    // Without a network the browser says so, and says when it is back: nothing to ask meanwhile.
    if (navigator.onLine) this.asking = setTimeout(() => this.ask(), this.pause);
  }

  async ask() {
    try {
      await fetch("/healthz", { method: "HEAD", cache: "no-store" });
    } catch {
      this.pause = Math.min(this.pause * 2, LAST_ASK);
      this.show(true);
      return;
    }
    this.back();
  }
}
