// @ts-check
// The account API (server/accounts/routes.py) as the pages use it: who is signed in, requests that
// carry the session's CSRF token, passkeys through navigator.credentials, and the guest seats this
// browser holds handed to the account after signing in.

import { Refusal, api, seatSecret } from "./net.js";

/** @import { Account } from "./protocol.js" */

/** @type {string | null} */
let csrf = null;
const TOKEN_PREFIX = "cf-token-";
const MOST_SEATS = 50; // a browser holds a few; more are old tables not worth a request each

/**
 * The signed-in account, or null for a guest.
 * @returns {Promise<Account | null>}
 */
export async function signedIn() {
  try {
    /** @type {Account} */
    const account = await api("GET", "/api/account");
    csrf = account.csrf ?? null;
    return account;
  } catch (err) {
    if (err instanceof Refusal && err.said.code === "account.not_signed_in") return null;
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
    throw err;
  }
}

// Where to go after signing in: `?next=` when it is a path of this site, else the lobby.
export function nextPath() {
  const next = new URLSearchParams(location.search).get("next") ?? "/";
  return next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}
