// @ts-check
// The leaderboards: per family, the established players active lately (rating, matches, recent form)
// and the bot levels at their fixed ratings. Everything shown comes from GET /api/leaderboard/FAMILY.

import { botTag } from "./bots.js";
import { byId } from "./dom.js";
import { t } from "./i18n.js";
import { LEVEL_WORDS } from "./lobby.js";
import { api, refusalText } from "./net.js";
import { ratingText, signed } from "./rating.js";
import { startShell } from "./shell.js";

/**
 * A family's leaderboard (GET /api/leaderboard/FAMILY).
 * @typedef {{ active_days: number, players: Player[], bots: { level: string, rating: number }[] }} Board
 */
/** @typedef {{ rank: number, username: string, bot: boolean, rating: number, provisional: boolean, matches: number, form: number[] }} Player */
/** A cell: its content, and whether it holds a number. @typedef {[Node | string, boolean?]} Cell */
/** A heading: its words, and whether its column holds numbers. @typedef {[string, boolean?]} Heading */

let family = new URLSearchParams(location.search).get("family") === "3-4" ? "3-4" : "2";
/** @type {Board | null} */
let board = null;

/**
 * @param {HTMLTableElement} node
 * @param {Heading[]} headings
 * @param {Cell[][]} rows
 */
function table(node, headings, rows) {
  node.replaceChildren();
  const row = node.createTHead().insertRow();
  for (const [text, number] of headings) {
    const th = document.createElement("th");
    th.textContent = text;
    if (number) th.className = "number";
    row.append(th);
  }
  const body = node.createTBody();
  for (const cells of rows) {
    const tr = body.insertRow();
    for (const [content, number] of cells) {
      const td = tr.insertCell();
      if (number) td.className = "number";
      td.append(content);
    }
  }
}

/** @param {number[]} deltas */
function form(deltas) {
  const box = document.createElement("span");
  box.className = "form";
  for (const delta of deltas) {
    const span = document.createElement("span");
    span.className = delta > 0 ? "up" : delta < 0 ? "down" : "";
    span.textContent = signed(delta);
    box.append(span);
  }
  return box;
}

// A player's name; a bot account's carries the BOT tag, as on the table's player cards (on a phone the
// tag may go under the name rather than widen the table past the screen).
/** @param {Player} player */
function who(player) {
  const name = document.createElement("span");
  name.append(player.username);
  if (player.bot) name.append(document.createElement("wbr"), botTag());
  return name;
}

function render() {
  document.title = [t("rating.leaderboard"), t("ui.game_name")].join(" · ");
  for (const button of document.querySelectorAll("[data-family]")) {
    button.setAttribute("aria-pressed", String(button.getAttribute("data-family") === family));
  }
  if (!board) return;
  byId("active").textContent = t("rating.active", { count: board.active_days });
  byId("empty").hidden = board.players.length > 0;
  const players = byId("players", HTMLTableElement);
  players.hidden = board.players.length === 0;
  table(
    players,
    [[t("rating.rank"), true], [t("ui.player")], [t("rating.rating"), true], [t("rating.matches"), true], [t("rating.form")]],
    board.players.map((p) => [
      [String(p.rank), true],
      [who(p)],
      [ratingText(p.rating, p.provisional), true],
      [String(p.matches), true],
      [form(p.form)],
    ]),
  );
  table(
    byId("bots", HTMLTableElement),
    [[t("ui.bot")], [t("rating.rating"), true]],
    board.bots.map((b) => [[LEVEL_WORDS[b.level]?.() ?? b.level], [String(b.rating), true]]),
  );
}

/** @param {string} wanted */
async function show(wanted) {
  family = wanted;
  const error = byId("error");
  error.textContent = "";
  try {
    board = await api("GET", `/api/leaderboard/${family}`);
  } catch (err) {
    error.textContent = refusalText(err);
  }
  history.replaceState(null, "", `/leaderboard?family=${family}`);
  render();
}

async function start() {
  await startShell(render);
  for (const button of document.querySelectorAll("[data-family]")) {
    button.addEventListener("click", () => show(button.getAttribute("data-family") ?? "2"));
  }
  await show(family);
}

start();
