// @ts-check
// The bell in the top bar of every page (signed in): how many notifications are unread, and the list,
// each line linking to its table. The list is the account's, the same on every device; it follows
// the account live over server-sent events (GET /api/notifications/events: "something changed", then
// the list is asked again) and, where those cannot be had, by asking once a minute. Opening a table's
// page marks its notifications read; the page's language is the one push and e-mail are written in.

import { changeAccount } from "./account-api.js";
import { h } from "./dom.js";
import { language, t } from "./i18n.js";
import { api } from "./net.js";
import { el } from "./tiles.js";

/** @import { Notice, NoticeList } from "./protocol.js" */

const POLL_MS = 60_000;
const TABLE_PATH = /^\/t\/([A-Z0-9]{1,16})$/;

function bellIcon() {
  const svg = el("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", class: "bell" });
  el("path", { d: "M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0" }, svg);
  return svg;
}

/**
 * When a notice came, as people say it ("5 minutes ago"), in the page's language.
 * @param {string} iso
 */
function ago(iso) {
  const minutes = Math.floor((Date.now() - Date.parse(iso)) / 60_000);
  if (minutes < 1) return t("notify.just_now");
  if (minutes < 60) return t("notify.minutes_ago", { count: minutes });
  if (minutes < 24 * 60) return t("notify.hours_ago", { count: Math.floor(minutes / 60) });
  return t("notify.days_ago", { count: Math.floor(minutes / (24 * 60)) });
}

export class Bell {
  /** @param {HTMLElement} box the element of the top bar it fills */
  constructor(box) {
    this.box = box;
    /** @type {NoticeList | null} */
    this.list = null;
    /** @type {EventSource | null} */
    this.events = null;
    /** @type {number | null} */
    this.poll = null;
    /** Called whenever the list was asked again (something changed, or the page came back into view). */
    this.changed = () => {};
    this.menu = h("details", { class: "notices-menu" });
    this.summary = h("summary", {}, this.menu);
    this.summary.append(bellIcon());
    this.summary.setAttribute("aria-label", t("notify.title")); // named before its list comes
    this.summary.title = t("notify.title");
    this.badge = h("span", { class: "badge-count" }, this.summary);
    this.panel = h("div", { class: "notices-panel" }, this.menu);
    document.addEventListener("click", (e) => {
      if (e.target instanceof Node && !this.menu.contains(e.target)) this.menu.open = false;
    });
    this.menu.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.menu.open) {
        this.menu.open = false;
        this.summary.focus();
      }
    });
  }

  // Shown for a signed-in account: its list now, then every change of it.
  async start() {
    this.box.replaceChildren(this.menu);
    this.box.hidden = false;
    const table = TABLE_PATH.exec(location.pathname)?.[1];
    if (table) await changeAccount("POST", "/api/notifications/read", { table }).catch(() => null);
    await this.refresh();
    if (this.list && this.list.language !== language()) this.speak();
    this.follow();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.refresh();
    });
  }

  // Push and e-mail are written in the language of the player's pages from now on.
  speak() {
    changeAccount("POST", "/api/notifications/language", { language: language() }).catch(() => null);
  }

  // The page's language changed: the list in its words, and push and e-mail in it too.
  relabel() {
    if (this.box.hidden) return;
    this.speak();
    this.refresh();
  }

  async refresh() {
    try {
      this.list = await api("GET", `/api/notifications?lang=${encodeURIComponent(language())}`);
    } catch {
      return; // signed out meanwhile, or the server is away: the bell keeps what it showed
    }
    this.draw();
    this.changed();
  }

  // Live over server-sent events; a page that cannot have them (refused, or closed for good) asks once a minute.
  follow() {
    if (!("EventSource" in window)) {
      this.polling();
      return;
    }
    const events = new EventSource("/api/notifications/events");
    this.events = events;
    events.addEventListener("message", () => this.refresh());
    events.addEventListener("error", () => {
      if (events.readyState === EventSource.CLOSED) this.polling();
    });
  }

  polling() {
    if (this.poll === null) this.poll = window.setInterval(() => this.refresh(), POLL_MS);
  }

  draw() {
    const list = this.list;
    if (!list) return;
    const label = list.unread ? t("notify.unread", { count: list.unread }) : t("notify.title");
    this.summary.setAttribute("aria-label", label);
    this.summary.title = label;
    this.badge.textContent = list.unread ? String(Math.min(list.unread, 99)) : "";
    this.badge.hidden = !list.unread;
    const head = h("div", { class: "notices-head" });
    h("strong", {}, head, t("notify.title"));
    const all = h("button", { type: "button", class: "link" }, head, t("notify.mark_all_read"));
    all.disabled = !list.unread;
    all.addEventListener("click", async () => {
      await changeAccount("POST", "/api/notifications/read", {}).catch(() => null);
      await this.refresh();
    });
    const items = h("ul", { class: "notices-list" });
    for (const notice of list.notices) items.append(this.line(notice));
    if (!list.notices.length) h("li", { class: "muted notices-none" }, items, t("notify.none"));
    const settings = h("a", { href: "/account#notifications", class: "notices-settings" }, null, t("notify.settings_link"));
    this.panel.replaceChildren(head, items, settings);
  }

  /** @param {Notice} notice */
  line(notice) {
    const li = h("li", { class: notice.read ? "read" : "unread" });
    const a = h("a", { href: notice.url }, li);
    h("span", { class: "notice-text" }, a, notice.text);
    if (notice.detail) h("span", { class: "notice-detail" }, a, notice.detail);
    h("time", { datetime: notice.at, class: "muted" }, a, ago(notice.at));
    a.addEventListener("click", () => {
      if (!notice.read) changeAccount("POST", "/api/notifications/read", { ids: [notice.id] }).catch(() => null);
    });
    return li;
  }
}
