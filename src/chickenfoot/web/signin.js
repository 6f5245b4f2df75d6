// @ts-check
// Sign in (/signin) and sign up (/signup), both going on after to the path the server vetted from
// `?next=` (the page's data-next: server/accounts/pages.py): a passkey first, a username and password
// the second way; signing up asks for the username once, for either way. The guest seats this browser
// holds follow the account at once. Who cannot sign in asks for a one-time sign-in link by e-mail (to the
// account's confirmed address).

import { usePasskey, welcome } from "./account-api.js";
import { byId } from "./dom.js";
import { t } from "./i18n.js";
import { api, refusalText } from "./net.js";
import { startShell } from "./shell.js";

/** A ceremony's start: its handle and the browser's options. @typedef {{ handle: string, options: PublicKeyCredentialCreationOptionsJSON & PublicKeyCredentialRequestOptionsJSON }} Ceremony */
// The server's rules (server/accounts/names.py, passwords.py), shown beside the fields; it checks them.
const NAME_LENGTH = { min: 3, max: 20 };
const PASSWORD_LENGTH = 10;

const signingUp = location.pathname === "/signup";
// Where to go on to: the server chose it from its own pages, never this page from the address.
const onward = byId("signin").dataset.next || "/";

// The words of this page's mode.
const WORDS = signingUp
  ? { title: "account.sign_up", passkey: "account.passkey_sign_up", password: "account.sign_up_password", other: "account.to_sign_in" }
  : { title: "account.sign_in", passkey: "account.passkey_sign_in", password: "account.sign_in_password", other: "account.to_sign_up" };

function words() {
  byId("title").textContent = t(WORDS.title);
  document.title = [t(WORDS.title), t("ui.game_name")].join(" · ");
  byId("passkey-go").textContent = t(WORDS.passkey);
  byId("password-go").textContent = t(WORDS.password);
  for (const hint of document.querySelectorAll(".name-hint")) hint.textContent = t("account.username_hint", NAME_LENGTH);
  byId("password-hint").textContent = t("account.password_hint", { min: PASSWORD_LENGTH });
  const other = byId("other-way", HTMLAnchorElement);
  other.textContent = t(WORDS.other);
  other.href = `${signingUp ? "/signin" : "/signup"}?next=${encodeURIComponent(onward)}`;
}

/** @param {{ csrf: string }} answer */
async function done(answer) {
  await welcome(answer);
  location.assign(onward);
}

/**
 * Runs `work`, showing its refusal (worded from the server's message code) and keeping the form usable.
 * @param {HTMLFormElement} form
 * @param {() => Promise<void>} work
 */
async function attempt(form, work) {
  byId("error").textContent = "";
  const buttons = form.querySelectorAll("button");
  for (const button of buttons) button.disabled = true;
  try {
    await work();
  } catch (err) {
    byId("error").textContent = refusalText(err);
  } finally {
    for (const button of buttons) button.disabled = false;
  }
}

async function passkey() {
  if (signingUp) {
    const username = byId("username", HTMLInputElement).value.trim();
    /** @type {Ceremony} */
    const started = await api("POST", "/api/account/passkeys/register", { username });
    const credential = await usePasskey("create", started.options);
    await done(await api("POST", "/api/account/passkeys/register/finish", { handle: started.handle, credential }));
  } else {
    /** @type {Ceremony} */
    const started = await api("POST", "/api/account/passkeys/signin");
    const credential = await usePasskey("get", started.options);
    await done(await api("POST", "/api/account/passkeys/signin/finish", { handle: started.handle, credential }));
  }
}

async function password() {
  const body = { username: byId("username", HTMLInputElement).value.trim(), password: byId("password", HTMLInputElement).value };
  await done(await api("POST", signingUp ? "/api/account/signup" : "/api/account/signin", body));
}

// The link goes to the account named in the one username field, the sign-in form's.
async function recover() {
  const username = byId("username", HTMLInputElement).value.trim();
  await api("POST", "/api/account/recover", { username });
  byId("recover-sent").textContent = t("notify.recover.sent");
}

async function start() {
  const { account } = await startShell(words);
  if (await account) {
    location.replace(onward); // signed in already (the server sends such a visitor on itself)
    return;
  }
  for (const node of document.querySelectorAll("[data-mode]")) node.toggleAttribute("hidden", node.getAttribute("data-mode") !== "signup" || !signingUp);
  const passkeyForm = byId("passkey-form", HTMLFormElement);
  const passwordForm = byId("password-form", HTMLFormElement);
  const username = byId("username", HTMLInputElement);
  // Signing up, one username for either way, asked first; signing in, a passkey needs none: the name
  // goes with the password.
  if (!signingUp) passwordForm.prepend(byId("username-field"));
  username.autocomplete = signingUp ? "username" : "username webauthn";
  byId("password", HTMLInputElement).autocomplete = signingUp ? "new-password" : "current-password";
  words();
  passkeyForm.addEventListener("submit", (e) => {
    e.preventDefault();
    if (signingUp && !username.reportValidity()) return;
    attempt(passkeyForm, passkey);
  });
  passwordForm.addEventListener("submit", (e) => {
    e.preventDefault();
    if (signingUp && !username.reportValidity()) return;
    attempt(passwordForm, password);
  });
  const recoverForm = byId("recover-form", HTMLFormElement);
  recoverForm.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!username.reportValidity()) return;
    attempt(recoverForm, recover);
  });
  byId("recover").hidden = signingUp;
  byId("signin").hidden = false;
  (signingUp ? username : byId("passkey-go")).focus();
}

start();
