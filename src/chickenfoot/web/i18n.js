// The page in the reader's language. The server picks the language from the remembered choice and
// navigator.languages and sends its catalog (GET /api/i18n, built from the .po files); messages are
// codes with named placeholders, plural forms chosen by Intl.PluralRules (no eval under a strict CSP).

const STORE = "cf-lang";
let catalog = null;
let plurals = null;

// The catalog for the reader's languages (the remembered choice first); sets <html lang>.
export async function loadCatalog() {
  const saved = localStorage.getItem(STORE);
  const wanted = [saved, ...(navigator.languages ?? [navigator.language])].filter(Boolean);
  const response = await fetch(`/api/i18n?languages=${encodeURIComponent(wanted.join(","))}`);
  if (!response.ok) throw new Error(`no catalog (${response.status})`);
  catalog = await response.json();
  plurals = new Intl.PluralRules(catalog.lang);
  document.documentElement.lang = catalog.lang;
  return catalog;
}

export function language() {
  return catalog.lang;
}

// The message `code` with `params` filled in; `params.count` picks the plural form.
export function t(code, params = {}) {
  let text = catalog.messages[code];
  if (text === undefined) throw new Error(`unknown message code ${code}`);
  if (Array.isArray(text)) {
    const index = catalog.plural_categories.indexOf(plurals.select(params.count ?? 0));
    text = text[index >= 0 ? index : text.length - 1];
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// Static markup: data-t="code" sets the text, data-t-aria-label / data-t-title / data-t-placeholder
// the attribute of that name.
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const attribute of ["aria-label", "title", "placeholder"]) {
    for (const node of root.querySelectorAll(`[data-t-${attribute}]`)) {
      node.setAttribute(attribute, t(node.getAttribute(`data-t-${attribute}`)));
    }
  }
}

// A <select> of the game's languages, each in its own name; a choice is remembered and its catalog
// loaded, then handed to `onChange`.
export function languageSwitcher(select, onChange) {
  select.replaceChildren(...Object.entries(catalog.languages).map(([code, name]) => new Option(name, code)));
  select.value = catalog.lang;
  select.addEventListener("change", async () => {
    localStorage.setItem(STORE, select.value);
    onChange(await loadCatalog());
  });
}

// "Ann, Bo and Cy" in the reader's language.
export function joinNames(names) {
  if (names.length < 2) return names.join("");
  return t("list.and", { head: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

// A seat's name: the one its player chose, else "Player 2", or for a bot "Easy bot 3", in the
// reader's language (the server stores no default names: docs/protocol.md, Names).
export function seatName(seat, name = null, bot = null) {
  if (name !== null && name !== undefined) return name;
  if (!bot) return t("seat.default", { number: seat + 1 });
  const level = `bot.default.${bot}`;
  return t(level in catalog.messages ? level : "bot.default", { number: seat + 1 });
}

// Every seat's name (seatName) of a STATE or a replay's overview: its `names` and `bots`; a seat
// listed in `deleted` (its player's account is gone) is "deleted player".
export function seatNames(s) {
  return s.names.map((name, seat) => (s.deleted?.includes(seat) ? t("player.deleted") : seatName(seat, name, s.bots?.[seat])));
}

// A message from the server ({code, ...params}, docs/protocol.md) in the reader's language: `seat`
// also names its player (`names`), a list of seats becomes their names joined, and a message within
// a message is rendered too. A code this page does not know (or a page without its catalog yet)
// shows the English text sent beside it.
export function say(message, names = []) {
  if (!catalog || !(message.code in catalog.messages)) {
    return message.text ?? message.message ?? message.reason ?? message.detail ?? "";
  }
  const name = (seat) => names[seat] ?? seatName(seat);
  const params = {};
  for (const [key, value] of Object.entries(message)) {
    if (key === "code") continue;
    if (Array.isArray(value)) params[key] = joinNames(value.map(name));
    else if (value && typeof value === "object" && "code" in value) params[key] = say(value, names);
    else if (typeof value === "number" && !Number.isInteger(value)) params[key] = value.toFixed(1).replace(".", t("number.decimal_sign"));
    else params[key] = value;
  }
  if (typeof params.seat === "number" && !("name" in params)) params.name = name(params.seat);
  return t(message.code, params);
}
