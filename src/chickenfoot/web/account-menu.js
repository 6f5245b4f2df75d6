// @ts-check
// The header's account link: "Sign in" for a guest (coming back to this page after), or the
// signed-in name (on a phone, an icon) opening a menu of the profile, the matches, the friends, the account
// and signing out.

import { changeAccount, forgetPlayer, signedIn, signedOutHere } from "./account-api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { el } from "./tiles.js";

/** @import { Account } from "./protocol.js" */

// The pages where a guest signs in: no link to themselves.
const SIGNING_IN = ["/signin", "/signup"];

/**
 * A link worded by the message `code` (data-t: translatePage follows a change of language).
 * @param {string} href
 * @param {string} code
 */
function link(href, code) {
  const a = h("a", { href });
  h("span", { "data-t": code }, a, t(code));
  return a;
}

function personIcon() {
  const svg = el("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", class: "person" });
  el("path", { d: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0" }, svg);
  return svg;
}

export class AccountMenu {
  /** @param {HTMLElement} box the element of the top bar it fills */
  constructor(box) {
    this.box = box;
    /** @type {Account | null} */
    this.account = null;
    this.known = false; // the server has said who is signed in
    // Closed by a click elsewhere or Escape, as menus are.
    document.addEventListener("click", (e) => {
      const menu = this.box.querySelector("details");
      if (menu && e.target instanceof Node && !menu.contains(e.target)) menu.open = false;
    });
  }

  /**
   * Asks the server who is signed in and draws the menu for them; returns the account, or null. A
   * page served without a session cookie (data-no-session) opens as a guest's: nobody to ask about
   * (until the page signs in, and asks again).
   * @returns {Promise<Account | null>}
   */
  async show() {
    const guest = this.box.hasAttribute("data-no-session");
    this.box.removeAttribute("data-no-session");
    try {
      this.account = guest ? null : await signedIn();
      if (guest) signedOutHere(); // no session cookie: nobody is signed in here (any more)
      this.known = true;
    } catch {
      return null; // the server is unreachable: the page says so elsewhere; no link is better than a wrong one
    }
    this.draw();
    return this.account;
  }

  // The menu for the account last heard of, in the page's language.
  draw() {
    if (!this.known) return;
    const account = this.account;
    if (!account) {
      if (SIGNING_IN.includes(location.pathname)) {
        this.box.replaceChildren();
        return;
      }
      const here = location.pathname + location.search;
      const signIn = link(`/signin?next=${encodeURIComponent(here)}`, "account.sign_in");
      signIn.prepend(personIcon()); // a narrow screen shows the icon alone (the words stay its name)
      this.box.replaceChildren(signIn);
      return;
    }
    const menu = h("details", { class: "account-menu-list" });
    const summary = h("summary", { "aria-label": t("account.menu", { name: account.username }) }, menu);
    // On a phone the name gives way to the person's icon (the label still names the account).
    summary.append(personIcon(), h("span", { class: "name" }, null, account.username));
    const list = h("ul", {}, menu);
    const out = h("button", { type: "button", "data-t": "account.sign_out" }, null, t("account.sign_out"));
    out.addEventListener("click", async () => {
      await changeAccount("POST", "/api/account/signout").catch(() => null);
      forgetPlayer(); // the next person at this computer does not play this player's seats
      location.reload();
    });
    for (const item of [
      link(`/u/${encodeURIComponent(account.username)}`, "account.profile"),
      link("/matches", "matches.title"),
      link("/friends", "social.friends"),
      link("/tournaments", "tournament.title"),
      link("/account", "account.account"),
      out,
    ]) {
      h("li", {}, list).append(item);
    }
    menu.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && menu.open) {
        menu.open = false;
        summary.focus();
      }
    });
    this.box.replaceChildren(menu);
  }
}
