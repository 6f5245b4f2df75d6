// @ts-check
// The account page (/account): the ways in (passkeys, a password), where the account is signed in,
// the player's data and deleting the account, its notifications; a bot account's API tokens, and for a
// new account that has never sat at a table, turning it into a bot account for good.
// /account#link=… is an operator's one-time sign-in link (`chickenfoot account reset`) and
// /account#recover=… the one sent to a confirmed e-mail address: either signs this browser in, then the
// page asks for a new way in. /account#confirm=… confirms an e-mail address (whoever opens it: the link
// is the proof). A change of the ways in, or the deletion, asked long after signing in is confirmed first
// with the password or a passkey (the server says when: account.confirm_needed).

import { changeAccount, forgetPlayer, signedIn, usePasskey, welcome } from "./account-api.js";
import { confirmAction } from "./confirm.js";
import { byId, h } from "./dom.js";
import { language, t } from "./i18n.js";
import { Refusal, api, refusalText } from "./net.js";
import { drawNotificationSettings } from "./notification-settings.js";
import { startShell } from "./shell.js";
import { drawTokens } from "./tokens.js";

/** @import { AccountMenu } from "./account-menu.js" */
/** @import { Account } from "./protocol.js" */

/** Where the account is signed in (GET /api/account/sessions). @typedef {{ id: string, user_agent: string, created: string, last_seen: string, current: boolean }} Session */
/** @typedef {Account["passkeys"][number]} Passkey */

/** @type {Account | null} */
let account = null;
/** @type {Session[]} */
let sessions = [];
/** @type {string | null} */
let noticeCode = null;
/** @type {AccountMenu | null} */
let menu = null;

/** @param {string} iso */
function day(iso) {
  return new Intl.DateTimeFormat(language(), { dateStyle: "medium" }).format(new Date(iso));
}

/** @param {string} iso */
function moment(iso) {
  return new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

/**
 * @param {string} code
 * @param {() => void} onClick
 * @param {boolean} [disabled]
 */
function button(code, onClick, disabled = false) {
  const b = h("button", { type: "button" }, null, t(code));
  b.disabled = disabled;
  b.addEventListener("click", onClick);
  return b;
}

/**
 * A line of a list: its title, a detail under it, and its buttons; `mark` beside the title.
 * @param {string} title
 * @param {string} detail
 * @param {HTMLButtonElement[]} actions
 * @param {{ mark?: HTMLElement, fullTitle?: string }} [extra]
 */
function item(title, detail, actions, { mark, fullTitle } = {}) {
  const li = h("li");
  const text = h("div", fullTitle ? { title: fullTitle } : {}, li);
  h("strong", {}, text, title);
  if (mark) text.append(mark);
  text.append(h("br"), h("small", { class: "muted" }, null, detail));
  li.append(...actions);
  return li;
}

// A session's browser and system from its User-Agent ("Firefox · Android"): proper names, in no
// language; the whole string as its title.
/** @type {[string, string][]} */
const BROWSERS = [["Edg/", "Edge"], ["OPR/", "Opera"], ["Firefox/", "Firefox"], ["Chrome/", "Chrome"], ["Safari/", "Safari"]];
/** @type {[string, string][]} */
const SYSTEMS = [["Android", "Android"], ["iPhone", "iOS"], ["iPad", "iPadOS"], ["Windows", "Windows"],
  ["Mac OS X", "macOS"], ["CrOS", "ChromeOS"], ["Linux", "Linux"]];

/** @param {string} userAgent */
function deviceName(userAgent) {
  /** @param {[string, string][]} pairs */
  const found = (pairs) => pairs.find(([mark]) => userAgent.includes(mark))?.[1];
  const parts = [found(BROWSERS), found(SYSTEMS)].filter(Boolean);
  return parts.length ? parts.join(" · ") : t("account.unknown_device");
}

/** @param {Passkey} key */
function passkeyName(key) {
  return key.label || t("account.passkey_unnamed", { date: day(key.created) });
}

function render() {
  if (!account) return;
  document.title = [t("account.title"), t("ui.game_name")].join(" · ");
  byId("username").textContent = account.username;
  byId("password-username", HTMLInputElement).value = account.username;
  byId("member-since").textContent = t("account.member_since", { date: day(account.created) });
  byId("notice").textContent = noticeCode ? t(noticeCode) : "";
  const ways = account.passkeys.length + (account.password ? 1 : 0);
  const last = ways <= 1;
  byId("passkeys").replaceChildren(
    ...account.passkeys.map((key) =>
      item(
        passkeyName(key),
        key.last_used
          ? t("account.passkey_used", { added: day(key.created), used: day(key.last_used) })
          : t("account.passkey_unused", { added: day(key.created) }),
        [button("account.remove", () => removePasskey(key), last)],
      ),
    ),
  );
  if (!account.passkeys.length) byId("passkeys").replaceChildren(h("li", { class: "muted" }, null, t("account.no_passkeys")));
  byId("password-state").textContent = t(account.password ? "account.password_is_set" : "account.password_not_set");
  const removePassword = byId("remove-password", HTMLButtonElement);
  removePassword.hidden = !account.password;
  removePassword.disabled = last;
  byId("last-way").hidden = !last;
  byId("session-count").textContent = t("account.session_count", { count: sessions.length });
  byId("sessions").replaceChildren(
    ...sessions.map((session) =>
      item(
        deviceName(session.user_agent),
        t("account.session_seen", { created: moment(session.created), seen: moment(session.last_seen) }),
        [button("account.sign_out", () => endSession(session))],
        {
          // beside the device's name
          mark: session.current ? h("span", { class: "this-device" }, null, t("account.this_device")) : undefined,
          fullTitle: session.user_agent,
        },
      ),
    ),
  );
  byId("sign-out-others", HTMLButtonElement).disabled = sessions.length < 2;
}

async function refresh() {
  account = await signedIn();
  if (!account) return false;
  sessions = await api("GET", "/api/account/sessions");
  render();
  return true;
}

/**
 * Asks the player to confirm that it is them, with the password or a passkey; resolves true once the
 * server agreed (this device then has a fresh session), false if they gave up.
 * @param {string} why the server's words
 * @returns {Promise<boolean>}
 */
function reconfirm(why) {
  const dialog = byId("reauth-dialog", HTMLDialogElement);
  const password = byId("reauth-password", HTMLInputElement);
  const error = byId("reauth-error");
  byId("reauth-note").textContent = why;
  error.textContent = "";
  password.value = "";
  byId("reauth-username", HTMLInputElement).value = account?.username ?? "";
  byId("reauth-password-field").hidden = byId("reauth-with-password").hidden = !account?.password;
  byId("reauth-passkey").hidden = !account?.passkeys.length;
  return new Promise((resolve) => {
    const form = byId("reauth-form", HTMLFormElement);
    /** @param {() => Promise<unknown>} proof */
    const attempt = async (proof) => {
      error.textContent = "";
      try {
        await proof();
        dialog.close("confirmed");
      } catch (err) {
        error.textContent = refusalText(err);
      }
    };
    const byPassword = (/** @type {SubmitEvent} */ e) => {
      e.preventDefault();
      attempt(() => changeAccount("POST", "/api/account/confirm", { password: password.value }));
    };
    const byPasskey = () =>
      attempt(async () => {
        /** @type {{ handle: string, options: PublicKeyCredentialRequestOptionsJSON }} */
        const started = await api("POST", "/api/account/passkeys/signin");
        const credential = await usePasskey("get", started.options);
        await changeAccount("POST", "/api/account/confirm", { handle: started.handle, credential });
      });
    const cancel = () => dialog.close("cancelled");
    form.addEventListener("submit", byPassword);
    byId("reauth-passkey").addEventListener("click", byPasskey);
    byId("reauth-cancel").addEventListener("click", cancel);
    dialog.addEventListener(
      "close",
      () => {
        form.removeEventListener("submit", byPassword);
        byId("reauth-passkey").removeEventListener("click", byPasskey);
        byId("reauth-cancel").removeEventListener("click", cancel);
        resolve(dialog.returnValue === "confirmed");
      },
      { once: true },
    );
    dialog.returnValue = "";
    dialog.showModal();
    (account?.password ? password : byId("reauth-passkey")).focus();
  });
}

/**
 * Runs `work`; when the server asks first to confirm that it is the account's owner, asks the player,
 * then runs it again.
 * @template T
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
async function confirmedIfAsked(work) {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof Refusal && err.said.code === "account.confirm_needed") || !(await reconfirm(err.message))) throw err;
    return await work();
  }
}

/**
 * Runs a change (confirmed first if the server asks), shows its refusal or what it did, and draws the
 * account again.
 * @param {() => Promise<unknown>} work
 * @param {string | null} [done] the notice once it is done
 */
async function change(work, done = "account.saved") {
  byId("error").textContent = "";
  try {
    await confirmedIfAsked(work);
    noticeCode = done;
  } catch (err) {
    noticeCode = null;
    byId("error").textContent = refusalText(err);
  }
  await refresh();
}

/** @param {Passkey} key */
function removePasskey(key) {
  confirmAction(t("account.remove_passkey_confirm", { label: passkeyName(key) }), t("account.remove")).then((yes) => {
    if (yes) change(() => changeAccount("DELETE", `/api/account/passkeys/${encodeURIComponent(key.id)}`));
  });
}

/** @param {string} label */
async function addPasskey(label) {
  /** @type {{ handle: string, options: PublicKeyCredentialCreationOptionsJSON }} */
  const started = await changeAccount("POST", "/api/account/passkeys/register", {});
  const credential = await usePasskey("create", started.options);
  await changeAccount("POST", "/api/account/passkeys/register/finish", { handle: started.handle, credential, label });
}

/** @param {Session} session */
async function endSession(session) {
  if (session.current) {
    await changeAccount("DELETE", `/api/account/sessions/${encodeURIComponent(session.id)}`).catch(() => null);
    forgetPlayer();
    gone(t("account.signed_out"));
  } else {
    change(() => changeAccount("DELETE", `/api/account/sessions/${encodeURIComponent(session.id)}`), null);
  }
}

/**
 * The account is not this browser's (any more): signed out, deleted, or a spent reset link. Says
 * so, with a way back to the lobby.
 * @param {string} text
 */
function gone(text) {
  byId("account").hidden = true;
  byId("gone").hidden = false;
  byId("gone-text").textContent = text;
  menu?.show();
}

function wire() {
  const label = byId("passkey-label", HTMLInputElement);
  const newPassword = byId("new-password", HTMLInputElement);
  byId("add-passkey").addEventListener("submit", (e) => {
    e.preventDefault();
    change(() => addPasskey(label.value.trim()));
    label.value = "";
  });
  byId("password-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const password = newPassword.value;
    const keep = byId("keep-this-device", HTMLInputElement).checked;
    newPassword.value = "";
    /** @type {{ signed_out?: boolean }} */
    let answer = {};
    await change(async () => {
      answer = await changeAccount("PUT", "/api/account/password", { password, keep_this_device: keep });
    });
    if (answer.signed_out) {
      forgetPlayer();
      gone(t("account.signed_out"));
    }
  });
  byId("remove-password").addEventListener("click", async () => {
    if (await confirmAction(t("account.remove_password_confirm"), t("account.remove_password"))) {
      change(() => changeAccount("DELETE", "/api/account/password"));
    }
  });
  byId("sign-out-others").addEventListener("click", () =>
    change(async () => {
      for (const session of sessions.filter((s) => !s.current)) {
        await changeAccount("DELETE", `/api/account/sessions/${encodeURIComponent(session.id)}`);
      }
    }, null),
  );
  byId("sign-out-everywhere").addEventListener("click", async () => {
    if (!(await confirmAction(t("account.sign_out_everywhere_confirm"), t("account.sign_out_everywhere")))) return;
    await changeAccount("DELETE", "/api/account/sessions").catch(() => null);
    forgetPlayer();
    gone(t("account.signed_out"));
  });
  byId("delete").addEventListener("click", async () => {
    if (!account || !(await confirmAction(t("account.delete_confirm", { name: account.username }), t("account.delete")))) return;
    try {
      await confirmedIfAsked(() => changeAccount("DELETE", "/api/account"));
    } catch (err) {
      byId("error").textContent = refusalText(err);
      return;
    }
    forgetPlayer();
    gone(t("account.deleted"));
  });
}

// A one-time link (an operator's, one sent to a confirmed address, or an address's confirmation): in
// the fragment, so it reached no server log; spent here, then gone from the address. Returns why it
// opened nothing ("" when there was none, or it worked).
async function spendLink() {
  const given = new URLSearchParams(location.hash.slice(1));
  const signIn = given.get("link") ?? given.get("recover");
  const confirm = given.get("confirm");
  if (!signIn && !confirm) return "";
  history.replaceState(null, "", "/account");
  try {
    if (confirm) {
      await api("POST", "/api/notifications/email/confirm", { link: confirm });
      noticeCode = "notify.email.confirmed";
    } else {
      await welcome(await api("POST", "/api/account/link", { link: signIn }));
      noticeCode = given.has("recover") ? "notify.recovered" : "account.link_signed_in";
    }
    return "";
  } catch (err) {
    return refusalText(err);
  }
}

async function start() {
  const tokens = byId("tokens");
  const botAccount = byId("bot-account");
  // Only a bot account has API tokens: a player's page has no such section, but the way to become one.
  const drawBotTokens = async () => {
    tokens.hidden = !account?.bot;
    botAccount.hidden = !account || Boolean(account.bot);
    if (account?.bot) drawTokens(tokens);
    if (botAccount.hidden) return;
    /** @type {{ may_become_bot: boolean }} */
    const { may_become_bot: may } = await api("GET", "/api/account/tokens");
    byId("bot-account-note").textContent = t(may ? "bot_account.note" : "bot_account.has_played");
    byId("make-bot").hidden = !may;
  };
  byId("make-bot").addEventListener("click", async () => {
    if (!account || !(await confirmAction(t("bot_account.confirm", { name: account.username }), t("bot_account.make")))) return;
    await change(() => changeAccount("POST", "/api/account/bot"), "bot_account.made");
    await drawBotTokens();
  });
  const notifications = byId("notifications");
  const shell = await startShell(() => {
    if (byId("account").hidden) return;
    render();
    drawBotTokens();
    drawNotificationSettings(notifications);
  });
  menu = shell.menu;
  await shell.account; // asked before a one-time link signs this browser in: asked again after
  const linkError = await spendLink();
  if (!(await refresh())) {
    if (linkError) gone(linkError);
    else if (noticeCode === "notify.email.confirmed") gone(t(noticeCode)); // confirmed from another browser
    else location.replace(`/signin?next=${encodeURIComponent("/account")}`);
    return;
  }
  byId("error").textContent = linkError;
  wire();
  drawBotTokens();
  await drawNotificationSettings(notifications);
  menu.show();
  byId("account").hidden = false;
  if (location.hash === "#notifications") notifications.scrollIntoView();
}

start();
