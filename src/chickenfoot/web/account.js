// The account page (/account): the ways in (passkeys, a password), where the account is signed in,
// the player's data and deleting the account. /account#link=… is an operator's one-time sign-in link
// (`chickenfoot account reset`): it signs this browser in, then the page asks for a new way in.

import { changeAccount, signedIn, usePasskey, welcome } from "./account-api.js";
import { showAccountMenu } from "./account-menu.js";
import { drawTokens } from "./tokens.js";
import { confirmAction } from "./confirm.js";
import { language, languageSwitcher, loadCatalog, t, translatePage } from "./i18n.js";
import { api } from "./net.js";
import { setupTheme } from "./theme.js";

const $ = (id) => document.getElementById(id);

let account = null;
let sessions = [];
let noticeCode = null;

function day(iso) {
  return new Intl.DateTimeFormat(language(), { dateStyle: "medium" }).format(new Date(iso));
}

function moment(iso) {
  return new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

function button(code, onClick, disabled = false) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = t(code);
  b.disabled = disabled;
  b.addEventListener("click", onClick);
  return b;
}

function item(title, detail, ...actions) {
  const li = document.createElement("li");
  const text = document.createElement("div");
  const strong = document.createElement("strong");
  strong.textContent = title;
  const small = document.createElement("small");
  small.className = "muted";
  small.textContent = detail;
  text.append(strong, document.createElement("br"), small);
  li.append(text, ...actions);
  return li;
}

// A session's browser and system from its User-Agent ("Firefox · Android"): proper names, in no
// language; the whole string as its title.
const BROWSERS = [["Edg/", "Edge"], ["OPR/", "Opera"], ["Firefox/", "Firefox"], ["Chrome/", "Chrome"], ["Safari/", "Safari"]];
const SYSTEMS = [["Android", "Android"], ["iPhone", "iOS"], ["iPad", "iPadOS"], ["Windows", "Windows"],
  ["Mac OS X", "macOS"], ["CrOS", "ChromeOS"], ["Linux", "Linux"]];

function deviceName(userAgent) {
  const found = (pairs) => pairs.find(([mark]) => userAgent.includes(mark))?.[1];
  const parts = [found(BROWSERS), found(SYSTEMS)].filter(Boolean);
  return parts.length ? parts.join(" · ") : t("account.unknown_device");
}

function passkeyName(key) {
  return key.label || t("account.passkey_unnamed", { date: day(key.created) });
}

function render() {
  translatePage();
  document.title = [t("account.title"), t("ui.game_name")].join(" · ");
  $("username").textContent = account.username;
  $("password-username").value = account.username;
  $("member-since").textContent = t("account.member_since", { date: day(account.created) });
  $("notice").textContent = noticeCode ? t(noticeCode) : "";
  const ways = account.passkeys.length + (account.password ? 1 : 0);
  const last = ways <= 1;
  $("passkeys").replaceChildren(
    ...account.passkeys.map((key) =>
      item(
        passkeyName(key),
        key.last_used
          ? t("account.passkey_used", { added: day(key.created), used: day(key.last_used) })
          : t("account.passkey_unused", { added: day(key.created) }),
        button("account.remove", () => removePasskey(key), last),
      ),
    ),
  );
  if (!account.passkeys.length) {
    const none = document.createElement("li");
    none.className = "muted";
    none.textContent = t("account.no_passkeys");
    $("passkeys").replaceChildren(none);
  }
  $("password-state").textContent = t(account.password ? "account.password_is_set" : "account.password_not_set");
  $("remove-password").hidden = !account.password;
  $("remove-password").disabled = last;
  $("last-way").hidden = !last;
  $("session-count").textContent = t("account.session_count", { count: sessions.length });
  $("sessions").replaceChildren(
    ...sessions.map((session) => {
      const li = item(
        deviceName(session.user_agent),
        t("account.session_seen", { created: moment(session.created), seen: moment(session.last_seen) }),
        button("account.sign_out", () => endSession(session)),
      );
      if (session.current) {
        const mark = document.createElement("span");
        mark.className = "this-device";
        mark.textContent = t("account.this_device");
        li.firstChild.firstChild.after(mark); // beside the device's name
      }
      li.firstChild.title = session.user_agent;
      return li;
    }),
  );
  $("sign-out-others").disabled = sessions.length < 2;
}

async function refresh() {
  account = await signedIn();
  if (!account) return false;
  sessions = await api("GET", "/api/account/sessions");
  render();
  return true;
}

// Runs a change, shows its refusal or what it did, and draws the account again.
async function change(work, done = "account.saved") {
  $("error").textContent = "";
  try {
    await work();
    noticeCode = done;
  } catch (err) {
    noticeCode = null;
    $("error").textContent = err.message;
  }
  await refresh();
}

function removePasskey(key) {
  confirmAction(t("account.remove_passkey_confirm", { label: passkeyName(key) }), t("account.remove")).then((yes) => {
    if (yes) change(() => changeAccount("DELETE", `/api/account/passkeys/${encodeURIComponent(key.id)}`));
  });
}

async function addPasskey(label) {
  const started = await changeAccount("POST", "/api/account/passkeys/register", {});
  const credential = await usePasskey("create", started.options);
  await changeAccount("POST", "/api/account/passkeys/register/finish", { handle: started.handle, credential, label });
}

async function endSession(session) {
  if (session.current) {
    await changeAccount("DELETE", `/api/account/sessions/${encodeURIComponent(session.id)}`).catch(() => null);
    gone(t("account.signed_out"));
  } else {
    change(() => changeAccount("DELETE", `/api/account/sessions/${encodeURIComponent(session.id)}`), null);
  }
}

// The account is not this browser's (any more): signed out, deleted, or a spent reset link. Says
// so, with a way back to the lobby.
function gone(text) {
  $("account").hidden = true;
  $("gone").hidden = false;
  $("gone-text").textContent = text;
  showAccountMenu($("account-menu"));
}

function wire() {
  $("add-passkey").addEventListener("submit", (e) => {
    e.preventDefault();
    change(() => addPasskey($("passkey-label").value.trim()));
    $("passkey-label").value = "";
  });
  $("password-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const password = $("new-password").value;
    $("new-password").value = "";
    change(() => changeAccount("PUT", "/api/account/password", { password }));
  });
  $("remove-password").addEventListener("click", async () => {
    if (await confirmAction(t("account.remove_password_confirm"), t("account.remove_password"))) {
      change(() => changeAccount("DELETE", "/api/account/password"));
    }
  });
  $("sign-out-others").addEventListener("click", () =>
    change(async () => {
      for (const session of sessions.filter((s) => !s.current)) {
        await changeAccount("DELETE", `/api/account/sessions/${encodeURIComponent(session.id)}`);
      }
    }, null),
  );
  $("sign-out-everywhere").addEventListener("click", async () => {
    if (!(await confirmAction(t("account.sign_out_everywhere_confirm"), t("account.sign_out_everywhere")))) return;
    await changeAccount("DELETE", "/api/account/sessions").catch(() => null);
    gone(t("account.signed_out"));
  });
  $("delete").addEventListener("click", async () => {
    if (!(await confirmAction(t("account.delete_confirm", { name: account.username }), t("account.delete")))) return;
    try {
      await changeAccount("DELETE", "/api/account");
    } catch (err) {
      $("error").textContent = err.message;
      return;
    }
    gone(t("account.deleted"));
  });
}

// An operator's one-time link: in the fragment, so it reached no server log; spent here, then gone
// from the address. Returns why it opened nothing ("" when there was none, or it worked).
async function spendLink() {
  const link = new URLSearchParams(location.hash.slice(1)).get("link");
  if (!link) return "";
  history.replaceState(null, "", "/account");
  try {
    await welcome(await api("POST", "/api/account/link", { link }));
    noticeCode = "account.link_signed_in";
    return "";
  } catch (err) {
    return err.message;
  }
}

async function start() {
  setupTheme();
  await loadCatalog();
  translatePage();
  const linkError = await spendLink();
  languageSwitcher($("language"), () => {
    if ($("account").hidden) translatePage();
    else {
      render();
      drawTokens($("tokens"));
    }
  });
  if (!(await refresh())) {
    if (linkError) gone(linkError);
    else location.replace(`/signin?next=${encodeURIComponent("/account")}`);
    return;
  }
  $("error").textContent = linkError;
  wire();
  drawTokens($("tokens"));
  showAccountMenu($("account-menu"));
  $("account").hidden = false;
}

start();
