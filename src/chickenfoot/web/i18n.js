// @ts-check
// The page in the reader's language. The server picks the language from the remembered choice and
// navigator.languages and sends its catalog (GET /api/i18n, built from the .po files); messages are
// codes with named placeholders, plural forms chosen by Intl.PluralRules (no eval under a strict CSP).
// Without a network the page reads the catalog of the language chosen or last shown at its own address
// (/i18n/LANG.json), which the service worker keeps (sw.js).

/** @import { Said } from "./protocol.js" */

/**
 * A section of How to play: its title and paragraphs as message codes, and a drawing's layout.
 * @typedef {{ title: string | null, paragraphs: string[], figure: { caption: string, layout: [string, string | null][] } | null }} HowtoSection
 */

/**
 * @typedef {object} Catalog
 * @property {string} lang
 * @property {string[]} plural_categories
 * @property {Record<string, string | string[]>} messages
 * @property {Record<string, string>} languages
 * @property {HowtoSection[]} howto
 * @property {boolean} [kept] read from the service worker's copy: the server could not be reached
 */

/** @typedef {Record<string, string | number | boolean | null | undefined>} Params */

const STORE = "cf-lang";
const SHOWN = "cf-lang-shown";
/** @type {Catalog | null} */
let catalog = null;
/** @type {Intl.PluralRules | null} */
let plurals = null;

// The server could not be reached at all (no answer, not a refusal).
class NetworkDown extends Error {}

/**
 * @param {string} path
 * @returns {Promise<Catalog>}
 */
async function fetchCatalog(path) {
  /** @type {Response} */
  let response;
  try {
    response = await fetch(path);
  } catch {
    throw new NetworkDown(`no answer for ${path}`);
  }
  if (!response.ok) throw new Error(`no catalog (${response.status})`);
  return response.json();
}

// The catalog for the reader's languages (the remembered choice first); sets <html lang>.
export async function loadCatalog() {
  const saved = localStorage.getItem(STORE);
  const wanted = [saved, ...(navigator.languages ?? [navigator.language])].filter(Boolean);
  const path = `/api/i18n?languages=${encodeURIComponent(wanted.join(","))}`;
  /** @type {Catalog} */
  let loaded;
  try {
    loaded = await fetchCatalog(path);
  } catch (error) {
    if (!(error instanceof NetworkDown)) throw error;
    const kept = `/i18n/${encodeURIComponent(saved ?? localStorage.getItem(SHOWN) ?? "en")}.json`;
    loaded = { ...(await fetchCatalog(kept)), kept: true };
  }
  localStorage.setItem(SHOWN, loaded.lang);
  catalog = loaded;
  plurals = new Intl.PluralRules(loaded.lang);
  document.documentElement.lang = loaded.lang;
  return loaded;
}

/** The catalog, once loaded. */
function loaded() {
  if (!catalog) throw new Error("the catalog is not loaded yet");
  return catalog;
}

// The reader's language ("" before the catalog is loaded).
export function language() {
  return catalog?.lang ?? "";
}

/**
 * The message `code` with `params` filled in; `params.count` picks the plural form.
 * @param {string} code
 * @param {Params} [params]
 * @returns {string}
 */
export function t(code, params = {}) {
  const { messages, plural_categories: categories } = loaded();
  let text = messages[code];
  if (text === undefined) throw new Error(`unknown message code ${code}`);
  if (Array.isArray(text)) {
    const count = typeof params.count === "number" ? params.count : 0;
    const index = categories.indexOf(plurals?.select(count) ?? "other");
    text = text[index >= 0 ? index : text.length - 1];
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// Static markup: data-t="code" sets the text, data-t-aria-label / data-t-title / data-t-placeholder
// the attribute of that name.
/** @param {ParentNode} [root] */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-t]")) node.textContent = t(node.getAttribute("data-t") ?? "");
  for (const attribute of ["aria-label", "title", "placeholder"]) {
    for (const node of root.querySelectorAll(`[data-t-${attribute}]`)) {
      node.setAttribute(attribute, t(node.getAttribute(`data-t-${attribute}`) ?? ""));
    }
  }
}

/**
 * A <select> of the game's languages, each in its own name; a choice is remembered and its catalog
 * loaded, then handed to `onChange`.
 * @param {HTMLSelectElement} select
 * @param {(catalog: Catalog) => void} onChange
 */
export function languageSwitcher(select, onChange) {
  const { languages, lang } = loaded();
  select.replaceChildren(...Object.entries(languages).map(([code, name]) => new Option(name, code)));
  select.value = lang;
  select.addEventListener("change", async () => {
    localStorage.setItem(STORE, select.value);
    onChange(await loadCatalog());
  });
}

/**
 * A game language by its own name ("Lietuvių"), or its code when the catalog does not name it.
 * @param {string} code
 */
export function languageName(code) {
  return loaded().languages[code] ?? code;
}

/**
 * "Ann, Bo and Cy" in the reader's language.
 * @param {string[]} names
 */
export function joinNames(names) {
  if (names.length < 2) return names.join("");
  return t("list.and", { head: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/**
 * A seat's name: the one its player chose, else "Player 2", or for a bot "Easy bot 3", in the
 * reader's language (the server stores no default names: docs/protocol.md, Names).
 * @param {number} seat
 * @param {string | null} [name]
 * @param {string | null} [bot]
 */
export function seatName(seat, name = null, bot = null) {
  if (name !== null && name !== undefined) return name;
  if (!bot) return t("seat.default", { number: seat + 1 });
  const level = `bot.default.${bot}`;
  return t(level in loaded().messages ? level : "bot.default", { number: seat + 1 });
}

/**
 * Every seat's name (seatName) of a STATE or a replay's overview: its `names` and `bots`; a seat
 * listed in `deleted` (its player's account is gone) is "deleted player".
 * @param {{ names: (string | null)[], bots?: (string | null)[], deleted?: number[] }} s
 */
export function seatNames(s) {
  return s.names.map((name, seat) => (s.deleted?.includes(seat) ? t("player.deleted") : seatName(seat, name, s.bots?.[seat])));
}

/**
 * A message from the server ({code, ...params}, docs/protocol.md) in the reader's language: `seat`
 * also names its player (`names`), a list of seats becomes their names joined, and a message within
 * a message is rendered too. A code this page does not know (or a page without its catalog yet)
 * shows the English text sent beside it.
 * @param {Partial<Said>} message
 * @param {string[]} [names]
 * @returns {string}
 */
export function say(message, names = []) {
  if (!catalog || typeof message.code !== "string" || !(message.code in catalog.messages)) {
    const english = message.text ?? message.message ?? message.reason ?? message.detail;
    return typeof english === "string" ? english : "";
  }
  /** @param {number} seat */
  const name = (seat) => names[seat] ?? seatName(seat);
  /** @type {Params} */
  const params = {};
  for (const [key, value] of Object.entries(message)) {
    if (key === "code") continue;
    if (Array.isArray(value)) params[key] = joinNames(value.map(name));
    else if (value && typeof value === "object" && "code" in value) params[key] = say(/** @type {Said} */ (value), names);
    else if (typeof value === "number" && !Number.isInteger(value)) params[key] = value.toFixed(1).replace(".", t("number.decimal_sign"));
    else if (typeof value !== "object" || value === null) params[key] = /** @type {string | number | boolean | null | undefined} */ (value);
  }
  if (typeof params.seat === "number" && !("name" in params)) params.name = name(params.seat);
  return t(message.code, params);
}
