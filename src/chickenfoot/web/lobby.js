// @ts-check
// The lobby: a signed-in player's challenges, create a table (preset, rounds, seats), join one by code,
// or watch one.

import { showBots } from "./bots.js";
import { byId, h, setHidden, within } from "./dom.js";
import { t } from "./i18n.js";
import { askName, rememberName, savedName } from "./name.js";
import { api, refusalText, rememberInvites, rememberSeat, seatSecret } from "./net.js";
import { NewsCard } from "./news.js";
import { paceChoice } from "./pace.js";
import { joinRefusal, showOpenTables } from "./opentables.js";
import { showQuickPlay } from "./quickplay.js";
import { watchRatedChoice } from "./rating.js";

/** @import { Account } from "./protocol.js" */

/** The server's presets, bot levels and largest table (GET /api/presets). @typedef {{ presets: Record<string, unknown>, bots: string[], default_bot: string | null, max_players: number }} Presets */

// A bot's level in words; a level the server adds and the catalog lacks shows as it is named.
/** @type {Record<string, () => string>} */
export const LEVEL_WORDS = {
  easy: () => t("ui.bot.easy"),
  medium: () => t("ui.bot.medium"),
  hard: () => t("ui.bot.hard"),
  expert: () => t("ui.bot.expert"),
  random: () => t("ui.bot.random"),
  greedy: () => t("ui.bot.greedy"),
};

/**
 * The form's row for seat `i`: the player's own, or a bot (of a level) or a friend.
 * @param {number} i
 * @param {string[]} bots
 * @param {string | null} defaultBot
 */
function seatRow(i, bots, defaultBot) {
  const li = h("li");
  h("span", { class: "n" }, li, i === 0 ? t("ui.you") : t("ui.seat", { seat: i + 1 }));
  if (i === 0) {
    li.dataset.kind = "human";
    return li;
  }
  const kind = document.createElement("select");
  kind.className = "seat-kind";
  kind.setAttribute("aria-label", t("lobby.seat_player", { seat: i + 1 }));
  kind.add(new Option(t("ui.bot"), "bot"));
  kind.add(new Option(t("lobby.friend"), "human"));
  const level = document.createElement("select");
  level.className = "seat-bot";
  level.setAttribute("aria-label", t("lobby.seat_bot", { seat: i + 1 }));
  for (const b of bots) level.add(new Option(LEVEL_WORDS[b]?.() ?? b, b, b === defaultBot, b === defaultBot));
  kind.addEventListener("change", () => (level.hidden = kind.value !== "bot"));
  li.append(kind, level);
  return li;
}

/**
 * The lobby; `account`: who is signed in.
 * @param {Promise<Account | null>} account
 */
export async function showLobby(account) {
  byId("lobby").hidden = false;
  const error = byId("lobby-error");
  const myName = byId("my-name", HTMLInputElement);
  const joinCode = byId("join-code", HTMLInputElement);
  // The presets, bot levels and largest table are the server's: the page keeps no copy of them.
  /** @type {Presets} */
  let presets = { presets: {}, bots: [], default_bot: null, max_players: 0 };
  try {
    presets = await api("GET", "/api/presets");
  } catch (e) {
    error.textContent = refusalText(e);
  }
  const preset = byId("preset", HTMLSelectElement);
  // Each preset's words are the message "preset.<name>" (tests/i18n checks that every preset has one).
  for (const name of Object.keys(presets.presets)) {
    const code = `preset.${name}`;
    preset.add(new Option(t(code), name));
  }
  const count = byId("seat-count", HTMLSelectElement);
  for (let n = 2; n <= presets.max_players; n++) count.add(new Option(t("ui.player_count", { count: n }), String(n), n === 4, n === 4));
  const seats = byId("seats");
  const drawSeats = () => {
    const n = Number(count.value);
    seats.replaceChildren(...Array.from({ length: n }, (_, i) => seatRow(i, presets.bots, presets.default_bot)));
  };
  count.addEventListener("change", drawSeats);
  const paceKind = byId("pace-kind", HTMLSelectElement);
  const pace = paceChoice(paceKind, byId("pace-time", HTMLSelectElement), byId("pace-rule", HTMLSelectElement), byId("pace-details"), () => Number(count.value));
  const timerRow = byId("timer-row");
  const drawPace = () => {
    pace.draw();
    setHidden(timerRow, paceKind.value === "turn"); // a turn-based table has its time per move instead
  };
  paceKind.addEventListener("change", drawPace);
  count.addEventListener("change", drawPace);
  drawPace();
  const rated = byId("rated-table", HTMLInputElement);
  watchRatedChoice(rated, byId("rated-kind"));
  drawSeats();
  // A name typed while the presets were loading is kept; else the name given before, or the account's.
  const signedInAs = (await account)?.username ?? "";
  if (!myName.value) myName.value = savedName() || signedInAs;

  byId("create-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const name = myName.value.trim();
    rememberName(name);
    const timer = byId("turn-timer", HTMLSelectElement).value;
    const rounds = byId("rounds", HTMLInputElement).value;
    const body = {
      preset: preset.value,
      rounds: rounds ? Number(rounds) : null,
      open: byId("open-table", HTMLInputElement).checked,
      public: byId("public-table", HTMLInputElement).checked,
      rated: rated.checked,
      ...(timer === "auto" ? {} : { turn_timer: timer === "off" ? null : Number(timer) }),
      pace: pace.chosen(),
      seats: [...seats.children].map((li, i) => {
        if (i === 0) return { kind: "human", name };
        const kind = within(li, ".seat-kind", HTMLSelectElement).value;
        return kind === "bot" ? { kind, bot: within(li, ".seat-bot", HTMLSelectElement).value } : { kind };
      }),
    };
    try {
      /** @type {{ code: string, token: string, seats: { seat: number, invite?: string }[] }} */
      const table = await api("POST", "/api/tables", body);
      rememberSeat(table.code, table.token);
      rememberInvites(table.code, table.seats.flatMap(({ seat, invite }) => (invite ? [{ seat, invite }] : [])));
      location.href = `/t/${table.code}`;
    } catch (err) {
      error.textContent = refusalText(err);
    }
  });

  const code = () => joinCode.value.trim().toUpperCase();
  byId("join-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    if (!code()) return;
    // This browser already holds a seat there: back to it.
    if (seatSecret(code())) {
      location.href = `/t/${code()}`;
      return;
    }
    const refusal = await joinRefusal(code()); // said before a name is asked for
    if (refusal) {
      error.textContent = refusal;
      return;
    }
    try {
      const name = savedName() || myName.value.trim() || (await askName());
      /** @type {{ token: string }} */
      const seat = await api("POST", `/api/tables/${encodeURIComponent(code())}/join`, { name });
      rememberSeat(code(), seat.token);
      location.href = `/t/${code()}`;
    } catch (err) {
      error.textContent = refusalText(err);
    }
  });
  // Say whether the table typed is open or invite-only before anyone tries to join it.
  joinCode.addEventListener("change", async () => {
    const kind = byId("join-kind");
    kind.textContent = "";
    if (!code()) return;
    try {
      /** @type {{ code: string, open: boolean }} */
      const table = await api("GET", `/api/tables/${encodeURIComponent(code())}`);
      kind.textContent = t(table.open ? "lobby.join_open" : "lobby.join_invite", { code: table.code });
    } catch (err) {
      kind.textContent = refusalText(err);
    }
  });
  byId("spectate").addEventListener("click", () => {
    if (code()) location.href = `/t/${code()}`;
  });
  /** @param {string} message */
  const showError = (message) => (error.textContent = message);
  const name = async () => savedName() || myName.value.trim() || (await askName());
  showQuickPlay(byId("quickplay"), async () => myName.value.trim() || (await askName()), account);
  showOpenTables(name, showError);
  showBots(within(document, "section:has(#open-tables)"), name, showError);
  byId("lobby").dataset.ready = ""; // its form filled in and its handlers attached (the browser tests wait for it)
  // A signed-in player's challenges, received and made, come first.
  if (await account) new NewsCard(byId("news"), showError).refresh();
}
