// Sign in (/signin) and sign up (/signup), both going to `?next=` after: a passkey first, a username
// and password the second way. The guest seats this browser holds follow the account at once.

import { nextPath, signedIn, usePasskey, welcome } from "./account-api.js";
import { languageSwitcher, loadCatalog, t, translatePage } from "./i18n.js";
import { api } from "./net.js";
import { setupTheme } from "./theme.js";

const $ = (id) => document.getElementById(id);
// The server's rules (server/accounts/names.py, passwords.py), shown beside the fields; it checks them.
const NAME_LENGTH = { min: 3, max: 20 };
const PASSWORD_LENGTH = 10;

const signingUp = location.pathname === "/signup";

// The words of this page's mode.
const WORDS = signingUp
  ? { title: "account.sign_up", passkey: "account.passkey_sign_up", password: "account.sign_up_password", other: "account.to_sign_in" }
  : { title: "account.sign_in", passkey: "account.passkey_sign_in", password: "account.sign_in_password", other: "account.to_sign_up" };

function words() {
  translatePage();
  $("title").textContent = t(WORDS.title);
  document.title = [t(WORDS.title), t("ui.game_name")].join(" · ");
  $("passkey-go").textContent = t(WORDS.passkey);
  $("password-go").textContent = t(WORDS.password);
  for (const hint of document.querySelectorAll(".name-hint")) hint.textContent = t("account.username_hint", NAME_LENGTH);
  $("password-hint").textContent = t("account.password_hint", { min: PASSWORD_LENGTH });
  const other = $("other-way");
  other.textContent = t(WORDS.other);
  other.href = `${signingUp ? "/signin" : "/signup"}${location.search}`;
}

async function done(answer) {
  await welcome(answer);
  location.assign(nextPath());
}

// Runs `work`, showing its refusal (worded from the server's message code) and keeping the form usable.
async function attempt(form, work) {
  $("error").textContent = "";
  const buttons = form.querySelectorAll("button");
  for (const button of buttons) button.disabled = true;
  try {
    await work();
  } catch (err) {
    $("error").textContent = err.message;
  } finally {
    for (const button of buttons) button.disabled = false;
  }
}

async function passkey() {
  if (signingUp) {
    const username = $("passkey-username").value.trim();
    const started = await api("POST", "/api/account/passkeys/register", { username });
    const credential = await usePasskey("create", started.options);
    await done(await api("POST", "/api/account/passkeys/register/finish", { handle: started.handle, credential }));
  } else {
    const started = await api("POST", "/api/account/passkeys/signin");
    const credential = await usePasskey("get", started.options);
    await done(await api("POST", "/api/account/passkeys/signin/finish", { handle: started.handle, credential }));
  }
}

async function password() {
  const body = { username: $("username").value.trim(), password: $("password").value };
  await done(await api("POST", signingUp ? "/api/account/signup" : "/api/account/signin", body));
}

async function start() {
  setupTheme();
  await loadCatalog();
  if (await signedIn()) {
    location.replace(nextPath()); // signed in already: nothing to do here
    return;
  }
  for (const node of document.querySelectorAll("[data-mode]")) node.hidden = node.dataset.mode !== "signup" || !signingUp;
  $("password").autocomplete = signingUp ? "new-password" : "current-password";
  $("passkey-username").required = signingUp;
  words();
  languageSwitcher($("language"), words);
  $("passkey-form").addEventListener("submit", (e) => {
    e.preventDefault();
    attempt(e.target, passkey);
  });
  $("password-form").addEventListener("submit", (e) => {
    e.preventDefault();
    attempt(e.target, password);
  });
  $("signin").hidden = false;
  (signingUp ? $("passkey-username") : $("passkey-go")).focus();
}

start();
