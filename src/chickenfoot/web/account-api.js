// The account API (server/accounts/routes.py) as the pages use it: who is signed in, requests that
// carry the session's CSRF token, passkeys through navigator.credentials, and the guest seats this
// browser holds handed to the account after signing in.

import { say } from "./i18n.js";
import { api, seatSecret } from "./net.js";

let csrf = null;
const TOKEN_PREFIX = "cf-token-";
const MOST_SEATS = 50; // a browser holds a few; more are old tables not worth a request each

// The signed-in account ({username, created, password, passkeys, sessions}), or null for a guest.
export async function signedIn() {
  try {
    const account = await api("GET", "/api/account");
    csrf = account.csrf;
    return account;
  } catch (err) {
    if (err.said?.code === "account.not_signed_in") return null;
    throw err;
  }
}

// A request that changes the account: it carries the session's CSRF token.
export async function changeAccount(method, path, body) {
  const answer = await api(method, path, body, csrf ? { "x-csrf-token": csrf } : {});
  if (answer?.csrf) csrf = answer.csrf;
  return answer;
}

// After signing in or up: the new session's token, then every guest seat of this browser follows
// the account (a table gone or a seat given away meanwhile is skipped: nothing to keep).
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

// An Error worded from a message code of the catalogs.
function refusal(code) {
  const said = { code };
  const error = new Error(say(said));
  error.said = said;
  return error;
}

function passkeysUsable() {
  return !!(window.PublicKeyCredential?.parseCreationOptionsFromJSON && navigator.credentials);
}

// Ask the browser for a passkey: "create" (options from …/register) or "get" (from …/signin). The
// answer is the credential as JSON, for the ceremony's …/finish.
export async function usePasskey(kind, options) {
  if (!passkeysUsable()) throw refusal("account.passkey_unsupported");
  try {
    const credential =
      kind === "create"
        ? await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) })
        : await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
    return credential.toJSON();
  } catch (err) {
    // The person closed the browser's prompt, or no passkey of this site was there.
    if (err?.name === "NotAllowedError" || err?.name === "AbortError") throw refusal("account.passkey_cancelled");
    if (err?.name === "InvalidStateError") throw refusal("account.passkey_known");
    throw err;
  }
}

// Where to go after signing in: `?next=` when it is a path of this site, else the lobby.
export function nextPath() {
  const next = new URLSearchParams(location.search).get("next") ?? "/";
  return next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}
