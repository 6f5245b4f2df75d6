// @ts-check
// The account API (server/accounts/routes.py) as the pages use it: who is signed in, requests that
// carry the session's CSRF token, passkeys through navigator.credentials, the guest seats this
// browser holds handed to the account after signing in, and forgotten when it signs out.

import { Refusal, api, seatSecret } from "./net.js";

/** @import { Account } from "./protocol.js" */

/** @type {string | null} */
let csrf = null;
const TOKEN_PREFIX = "cf-token-";
const MOST_SEATS = 50; // a browser holds a few; more are old tables not worth a request each
const SIGNED_IN = "cf-signed-in"; // this browser was signed in when it last asked
// What this browser keeps for its player: the seats' credentials and invites, the tables they left,
// the name they gave. Signed in, all of it is the account's (its seats follow it); signed out, the
// next person at this computer must not play those seats.
const PLAYERS = /^cf-(token-|invites-|left$|name$)/;

// Forget the player's seats and name in this browser (signing out, the account deleted).
export function forgetPlayer() {
  for (const key of Object.keys(localStorage)) if (PLAYERS.test(key)) localStorage.removeItem(key);
  localStorage.removeItem(SIGNED_IN);
}

// The server says nobody is signed in here: if somebody was (signed out from another device, the
// session expired, the account deleted), what this browser kept for them goes too.
export function signedOutHere() {
  if (localStorage.getItem(SIGNED_IN)) forgetPlayer();
}

/**
 * The signed-in account, or null for a guest.
 * @returns {Promise<Account | null>}
 */
export async function signedIn() {
  try {
    /** @type {Account} */
    const account = await api("GET", "/api/account");
    csrf = account.csrf ?? null;
    localStorage.setItem(SIGNED_IN, "1");
    return account;
  } catch (err) {
    if (err instanceof Refusal && err.said.code === "account.not_signed_in") {
      signedOutHere();
      return null;
    }
    throw err;
  }
}

/**
 * A request that changes the account: it carries the session's CSRF token (and keeps a new one).
 * @template T
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<T>}
 */
export async function changeAccount(method, path, body) {
  /** @type {T & { csrf?: string }} */
  const answer = await api(method, path, body, csrf ? { "x-csrf-token": csrf } : {});
  if (answer && typeof answer === "object" && typeof answer.csrf === "string") csrf = answer.csrf;
  return answer;
}

// After signing in or up: the new session's token, then every guest seat of this browser follows
// the account (a table gone or a seat given away meanwhile is skipped: nothing to keep).
/** @param {{ csrf: string }} answer */
export async function welcome(answer) {
  csrf = answer.csrf;
  localStorage.setItem(SIGNED_IN, "1");
  const codes = Object.keys(localStorage)
    .filter((key) => key.startsWith(TOKEN_PREFIX))
    .map((key) => key.slice(TOKEN_PREFIX.length))
    .slice(0, MOST_SEATS);
  for (const code of codes) {
    await changeAccount("POST", "/api/account/seats", { code, token: seatSecret(code) }).catch(() => null);
  }
}

// A refusal worded from a message code of the catalogs.
/** @param {string} code */
const refusal = (code) => new Refusal({ code });

// Browsers without passkeys, or without their JSON options (older ones), have not these.
function passkeysUsable() {
  return "PublicKeyCredential" in window && "parseCreationOptionsFromJSON" in PublicKeyCredential && "credentials" in navigator;
}

/**
 * Ask the browser for a passkey: "create" (options from …/register) or "get" (from …/signin). The
 * answer is the credential as JSON, for the ceremony's …/finish.
 * @param {"create" | "get"} kind
 * @param {PublicKeyCredentialCreationOptionsJSON | PublicKeyCredentialRequestOptionsJSON} options
 */
export async function usePasskey(kind, options) {
  if (!passkeysUsable()) throw refusal("account.passkey_unsupported");
  try {
    const credential =
      kind === "create"
        ? await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(/** @type {PublicKeyCredentialCreationOptionsJSON} */ (options)) })
        : await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(/** @type {PublicKeyCredentialRequestOptionsJSON} */ (options)) });
    if (!(credential instanceof PublicKeyCredential)) throw refusal("account.passkey_cancelled");
    return credential.toJSON();
  } catch (err) {
    // The person closed the browser's prompt, or no passkey of this site was there.
    const name = err instanceof DOMException ? err.name : "";
    if (name === "NotAllowedError" || name === "AbortError") throw refusal("account.passkey_cancelled");
    if (name === "InvalidStateError") throw refusal("account.passkey_known");
    // At an IP address (http://127.0.0.1:8000) the browser refuses passkeys: a site's name is needed.
    if (name === "SecurityError" && /^[\d.]+$|^\[/.test(location.hostname)) throw refusal("account.passkey_needs_name");
    throw err;
  }
}
