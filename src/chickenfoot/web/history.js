// @ts-check
// A list of matches, as profiles (/u/NAME) and "My matches" (/matches) show them: date, players by
// their public names (an account's name links to its profile; a deleted account is "deleted player"),
// the result, the review's accuracy, and links to the replay and review, or back to an unfinished table.

import { h } from "./dom.js";
import { language, seatName, t } from "./i18n.js";

/**
 * A seat of a listed match: an account's (its public name), a deleted account's, or a guest's or bot's.
 * @typedef {{ seat: number, name: string | null, bot: string | null, account?: string | null, deleted?: boolean }} MatchPlayer
 */
/**
 * A match as the history API lists it.
 * @typedef {object} MatchEntry
 * @property {string} code
 * @property {number | null} seat the account's seat
 * @property {MatchPlayer[]} players
 * @property {"won" | "lost" | null} result
 * @property {number | null} [lost_on_time] the seat whose time ran out, at a match of two lost on time
 * @property {number | null} accuracy
 * @property {string | null} finished_at
 * @property {string} created_at
 * @property {{ return?: string, replay?: string, review?: string }} links
 */
/** A page of a list: which of how many. @typedef {{ page: number, pages: number }} Paged */

// Digits only: every language of the catalogs has them in Intl, not all have month names.
/** @param {string} iso */
export function day(iso) {
  return new Intl.DateTimeFormat(language(), { year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(iso));
}

// An accuracy (0–100) as the reader's language writes a percentage.
/** @param {number} value */
export function percent(value) {
  return new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 1 }).format(value / 100);
}

// A player's name as the list shows it.
/** @param {MatchPlayer} p */
function named(p) {
  return p.deleted ? t("player.deleted") : (p.account ?? seatName(p.seat, p.name, p.bot));
}

/**
 * @param {MatchPlayer} p
 * @param {HTMLElement} parent
 */
function player(p, parent) {
  if (p.deleted) return h("span", { class: "deleted" }, parent, named(p));
  if (p.account) return h("a", { href: `/u/${encodeURIComponent(p.account)}` }, parent, named(p));
  return h("span", {}, parent, named(p));
}

/**
 * @param {MatchEntry} match
 * @param {HTMLElement} parent
 */
function players(match, parent) {
  const cell = h("td", { class: "who" }, parent);
  match.players.forEach((p, i) => {
    if (i > 0) cell.append(", ");
    const node = player(p, cell);
    if (p.seat === match.seat) node.classList.add("own");
  });
  return cell;
}

// A table of `matches` (the API's entries).
/** @param {MatchEntry[]} matches */
export function matchTable(matches) {
  const table = h("table", { class: "history" });
  const head = h("tr", {}, h("thead", {}, table));
  for (const code of ["history.date", "history.players", "history.result", "history.accuracy"]) h("th", { scope: "col" }, head, t(code));
  h("th", { scope: "col" }, head, "").append(h("span", { class: "sr-only" }, null, t("history.replay")));
  const body = h("tbody", {}, table);
  for (const match of matches) {
    const row = h("tr", { "data-code": match.code }, body);
    h("td", {}, row, day(match.finished_at ?? match.created_at));
    players(match, row);
    const result = t(match.result === "won" ? "history.won" : match.result === "lost" ? "history.lost" : "history.unfinished");
    const cell = h("td", { class: `result ${match.result ?? "unfinished"}` }, row, result);
    const late = match.players.find((p) => p.seat === match.lost_on_time);
    if (late) cell.title = t("event.lost_on_time", { name: named(late) }); // who ran out of time
    h("td", {}, row, match.accuracy === null ? "–" : percent(match.accuracy));
    const links = h("td", { class: "links" }, row);
    if (match.links.return) h("a", { href: match.links.return, class: "return" }, links, t("history.return"));
    if (match.links.replay) h("a", { href: match.links.replay }, links, t("history.replay"));
    if (match.links.review) h("a", { href: match.links.review }, links, t("history.review"));
  }
  return table;
}

/**
 * "Newer · Page 2 of 5 · Older" buttons, as a list of nodes (none for a single page); `go(page)` shows another page.
 * @param {Paged} data
 * @param {(page: number) => void} go
 */
export function pager(data, go) {
  if (data.pages < 2) return [];
  const nav = h("nav", { class: "pager", "aria-label": t("history.page", { page: data.page, pages: data.pages }) });
  /**
   * @param {string} code
   * @param {number} page
   */
  const step = (code, page) => {
    const button = h("button", { type: "button" }, nav, t(code));
    button.disabled = page < 1 || page > data.pages;
    button.addEventListener("click", () => go(page));
  };
  step("history.newer", data.page - 1);
  h("span", {}, nav, t("history.page", { page: data.page, pages: data.pages }));
  step("history.older", data.page + 1);
  return [nav];
}

