// The lobby's "Bots" section: the bot accounts (GET /api/bots), each with its BOT tag and a button that
// starts a table for two and invites the bot to the other seat (it takes the seat when it accepts).

import { t } from "./i18n.js";
import { api, rememberSeat } from "./net.js";

export function botTag() {
  const tag = document.createElement("small");
  tag.className = "bot-tag";
  tag.textContent = t("bot.tag");
  return tag;
}

function entry(bot, play) {
  const li = document.createElement("li");
  const name = document.createElement("span");
  name.textContent = bot.name;
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = t("lobby.challenge");
  button.title = t("lobby.challenge_title", { name: bot.name });
  button.addEventListener("click", () => play(bot.name));
  name.append(botTag());
  li.append(name, button);
  return li;
}

// Draw the section after `after` (an element of the lobby); `name()` gives the player's name, `onError` shows a refusal.
export async function showBots(after, name, onError) {
  const section = document.createElement("section");
  section.className = "card";
  const title = document.createElement("h2");
  title.textContent = t("lobby.bots");
  const list = document.createElement("ul");
  list.className = "open-tables";
  section.append(title, list);
  after.after(section);
  const play = async (bot) => {
    try {
      const table = await api("POST", "/api/tables", { seats: [{ kind: "human", name: await name() }, { kind: "human" }] });
      rememberSeat(table.code, table.token);
      await api("POST", `/api/tables/${table.code}/seats/1/invite`, { token: table.token, bot });
      location.href = `/t/${table.code}`;
    } catch (err) {
      onError(err.message);
    }
  };
  try {
    const { bots } = await api("GET", "/api/bots");
    if (!bots.length) {
      const none = document.createElement("p");
      none.className = "muted";
      none.textContent = t("lobby.no_bots");
      section.appendChild(none);
    }
    list.replaceChildren(...bots.map((bot) => entry(bot, play)));
  } catch (err) {
    onError(err.message);
  }
}
