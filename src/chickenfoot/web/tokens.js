// @ts-check
// A bot account's personal API tokens (docs/research/bot-api.md): the list, a new token (its secret
// shown once) and revoking one. drawTokens(container) draws the section into an element of the account
// page, which draws it for a bot account only.

import { t } from "./i18n.js";
import { api, refusalText } from "./net.js";

/** A token as the account API lists it. @typedef {{ id: string, label: string, scopes: string[], created: string }} Token */

/**
 * A change to the account's tokens.
 * @template T
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<T>}
 */
async function changing(method, path, body) {
  // Account changes carry the session's CSRF token, as every account route wants.
  /** @type {{ csrf: string }} */
  const { csrf } = await api("GET", "/api/account");
  return api(method, path, body, { "x-csrf-token": csrf });
}

/**
 * @param {Token} token
 * @param {() => void} redraw
 * @param {(message: string) => void} onError
 */
function tokenRow(token, redraw, onError) {
  const li = document.createElement("li");
  const label = document.createElement("span");
  label.textContent = `${token.label} · ${token.scopes.join(" ")}`;
  const created = document.createElement("span");
  created.className = "facts";
  created.textContent = t("tokens.created", { date: new Date(token.created).toLocaleDateString() });
  const revoke = document.createElement("button");
  revoke.type = "button";
  revoke.textContent = t("tokens.revoke");
  revoke.addEventListener("click", async () => {
    try {
      await changing("DELETE", `/api/account/tokens/${token.id}`);
      redraw();
    } catch (err) {
      onError(refusalText(err));
    }
  });
  li.append(label, revoke, created);
  return li;
}

/** @param {HTMLElement} container */
export async function drawTokens(container) {
  const section = document.createElement("section");
  const title = document.createElement("h2");
  title.textContent = t("tokens.title");
  const error = document.createElement("p");
  error.className = "error";
  error.setAttribute("role", "alert");
  /** @param {string} message */
  const onError = (message) => (error.textContent = message);
  const redraw = () => drawTokens(container);
  /** @type {{ tokens: Token[], scopes: string[] }} */
  let listed;
  try {
    listed = await api("GET", "/api/account/tokens");
  } catch (err) {
    section.append(title, error);
    container.replaceChildren(section);
    onError(refusalText(err));
    return;
  }
  section.appendChild(title);
  const list = document.createElement("ul");
  list.className = "open-tables";
  list.replaceChildren(...listed.tokens.map((token) => tokenRow(token, redraw, onError)));
  const none = document.createElement("p");
  none.className = "muted";
  none.textContent = t("tokens.none");
  none.hidden = listed.tokens.length > 0;
  const form = document.createElement("form");
  const label = document.createElement("input");
  label.maxLength = 64;
  label.placeholder = t("tokens.label");
  label.setAttribute("aria-label", t("tokens.label"));
  const boxes = listed.scopes.map((scope) => Object.assign(document.createElement("input"), { type: "checkbox", checked: true, value: scope }));
  const scopes = boxes.map((box) => {
    const text = document.createElement("label");
    text.append(box, ` ${box.value}`);
    return text;
  });
  const mint = document.createElement("button");
  mint.className = "primary";
  mint.textContent = t("tokens.mint");
  const secret = document.createElement("output");
  form.append(label, ...scopes, mint);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const wanted = boxes.filter((box) => box.checked).map((box) => box.value);
    try {
      /** @type {{ token: string }} */
      const token = await changing("POST", "/api/account/tokens", { label: label.value.trim(), scopes: wanted });
      await redraw();
      const shown = document.createElement("p");
      const code = document.createElement("code");
      code.textContent = token.token; // the only time anyone sees it
      shown.append(t("tokens.shown_once"), " ", code);
      container.querySelector("section")?.appendChild(shown);
    } catch (err) {
      onError(refusalText(err));
    }
  });
  section.append(list, none, form, secret, error);
  container.replaceChildren(section);
}
