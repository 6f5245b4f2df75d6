// @ts-check
// The lobby's "Bots" section: the bot accounts (GET /api/bots), each with its BOT tag, its rating per
// player-count family ("?" while provisional) and a button that starts a table for two and invites the
// bot to the other seat (it takes the seat when it accepts). A bot account's profile offers the same button.

import { t } from "./i18n.js";
import { api, refusalText, rememberSeat } from "./net.js";
import { ratingText } from "./rating.js";

/** A bot account as GET /api/bots lists it. @typedef {{ name: string, ratings: Record<string, { rating: number, provisional: boolean }> }} BotAccount */

export function botTag() {
  const tag = document.createElement("small");
  tag.className = "bot-tag";
  tag.textContent = t("bot.tag");
  return tag;
}

/**
 * Start a table for two, invite bot account `bot` to the other seat and go to the table; `name()` gives the
 * player's name, `onError` shows a refusal.
 * @param {string} bot
 * @param {() => Promise<string | null>} name
 * @param {(message: string) => void} onError
 */
export async function challenge(bot, name, onError) {
  try {
    /** @type {{ code: string, token: string }} */
    const table = await api("POST", "/api/tables", { seats: [{ kind: "human", name: await name() }, { kind: "human" }] });
    rememberSeat(table.code, table.token);
    await api("POST", `/api/tables/${table.code}/seats/1/invite`, { token: table.token, bot });
    location.href = `/t/${table.code}`;
  } catch (err) {
    onError(refusalText(err));
  }
}

/**
 * A "Play" button challenging bot account `bot`.
 * @param {string} bot
 * @param {() => Promise<string | null>} name
 * @param {(message: string) => void} onError
 */
export function challengeButton(bot, name, onError) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = t("lobby.challenge");
  button.title = t("lobby.challenge_title", { name: bot });
  button.addEventListener("click", () => challenge(bot, name, onError));
  return button;
}

/** @type {Record<string, string>} */
export const FAMILY_NAMES = { 2: "rating.family.2", "3-4": "rating.family.3-4" };

/** @param {BotAccount} bot */
function ratings(bot) {
  const line = document.createElement("small");
  line.className = "muted bot-ratings";
  line.textContent = Object.entries(bot.ratings)
    .map(([family, rated]) => [t(FAMILY_NAMES[family]), ratingText(rated.rating, rated.provisional)].join(" "))
    .join(" · ");
  return line;
}

/**
 * @param {BotAccount} bot
 * @param {() => Promise<string | null>} name
 * @param {(message: string) => void} onError
 */
function entry(bot, name, onError) {
  const li = document.createElement("li");
  const who = document.createElement("span");
  const link = document.createElement("a");
  link.href = `/u/${encodeURIComponent(bot.name)}`;
  link.textContent = bot.name;
  who.append(link, botTag(), ratings(bot));
  li.append(who, challengeButton(bot.name, name, onError));
  return li;
}

/**
 * Draw the section after `after` (an element of the lobby); `name()` gives the player's name, `onError` shows a refusal.
 * @param {Element} after
 * @param {() => Promise<string | null>} name
 * @param {(message: string) => void} onError
 */
export async function showBots(after, name, onError) {
  const section = document.createElement("section");
  section.className = "card";
  const title = document.createElement("h2");
  title.textContent = t("lobby.bots");
  const list = document.createElement("ul");
  list.className = "open-tables";
  section.append(title, list);
  after.after(section);
  try {
    /** @type {{ bots: BotAccount[] }} */
    const { bots } = await api("GET", "/api/bots");
    if (!bots.length) {
      const none = document.createElement("p");
      none.className = "muted";
      none.textContent = t("lobby.no_bots");
      section.appendChild(none);
    }
    list.replaceChildren(...bots.map((bot) => entry(bot, name, onError)));
  } catch (err) {
    onError(refusalText(err));
  }
}
