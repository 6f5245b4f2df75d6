// The leaderboards: per family, the established players active lately (rating, matches, recent form)
// and the bot levels at their fixed ratings. Everything shown comes from GET /api/leaderboard/FAMILY.

import { botTag } from "./bots.js";
import { languageSwitcher, loadCatalog, t, translatePage } from "./i18n.js";
import { LEVEL_WORDS } from "./lobby.js";
import { api } from "./net.js";
import { ratingText, signed } from "./rating.js";

const $ = (id) => document.getElementById(id);
let family = new URLSearchParams(location.search).get("family") === "3-4" ? "3-4" : "2";
let board = null;

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
function who(player) {
  const name = document.createElement("span");
  name.append(player.username);
  if (player.bot) name.append(document.createElement("wbr"), botTag());
  return name;
}

function render() {
  translatePage();
  document.title = [t("rating.leaderboard"), t("ui.game_name")].join(" · ");
  for (const button of document.querySelectorAll("[data-family]")) {
    button.setAttribute("aria-pressed", String(button.dataset.family === family));
  }
  if (!board) return;
  $("active").textContent = t("rating.active", { count: board.active_days });
  $("empty").hidden = board.players.length > 0;
  $("players").hidden = board.players.length === 0;
  table(
    $("players"),
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
    $("bots"),
    [[t("ui.bot")], [t("rating.rating"), true]],
    board.bots.map((b) => [[LEVEL_WORDS[b.level]?.() ?? b.level], [String(b.rating), true]]),
  );
}

async function show(wanted) {
  family = wanted;
  $("error").textContent = "";
  try {
    board = await api("GET", `/api/leaderboard/${family}`);
  } catch (err) {
    $("error").textContent = err.message;
  }
  history.replaceState(null, "", `/leaderboard?family=${family}`);
  render();
}

async function start() {
  const theme = localStorage.getItem("cf-theme"); // the theme chosen at the table (◐), if any
  if (theme) document.documentElement.dataset.theme = theme;
  await loadCatalog();
  languageSwitcher($("language"), render);
  for (const button of document.querySelectorAll("[data-family]")) {
    button.addEventListener("click", () => show(button.dataset.family));
  }
  await show(family);
}

start();
