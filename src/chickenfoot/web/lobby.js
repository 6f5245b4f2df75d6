// The lobby: create a table (preset, rounds, seats), join one by code, or watch one.

import { t } from "./i18n.js";
import { askName, rememberName, savedName } from "./name.js";
import { api, rememberInvites, rememberSeat, seatSecret } from "./net.js";
import { joinRefusal, showOpenTables } from "./opentables.js";
import { showQuickPlay } from "./quickplay.js";
import { watchRatedChoice } from "./rating.js";
import { showBots } from "./bots.js";

const $ = (id) => document.getElementById(id);

// A bot's level in words; a level the server adds and the catalog lacks shows as it is named.
export const LEVEL_WORDS = {
  easy: () => t("ui.bot.easy"),
  medium: () => t("ui.bot.medium"),
  hard: () => t("ui.bot.hard"),
  expert: () => t("ui.bot.expert"),
  random: () => t("ui.bot.random"),
  greedy: () => t("ui.bot.greedy"),
};

function seatRow(i, bots, defaultBot) {
  const li = document.createElement("li");
  li.innerHTML = `<span class="n"></span>`;
  li.firstChild.textContent = i === 0 ? t("ui.you") : t("ui.seat", { seat: i + 1 });
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

export async function showLobby() {
  $("lobby").hidden = false;
  const error = $("lobby-error");
  // The presets, bot levels and largest table are the server's: the page keeps no copy of them.
  let presets = { presets: {}, bots: [], default_bot: null, max_players: 0 };
  try {
    presets = await api("GET", "/api/presets");
  } catch (e) {
    error.textContent = e.message;
  }
  const preset = $("preset");
  // Each preset's words are the message "preset.<name>" (tests/i18n checks that every preset has one).
  for (const name of Object.keys(presets.presets)) {
    const code = `preset.${name}`;
    preset.add(new Option(t(code), name));
  }
  const count = $("seat-count");
  for (let n = 2; n <= presets.max_players; n++) count.add(new Option(t("ui.player_count", { count: n }), String(n), n === 4, n === 4));
  const seats = $("seats");
  const drawSeats = () => {
    const n = Number(count.value);
    seats.replaceChildren(...Array.from({ length: n }, (_, i) => seatRow(i, presets.bots, presets.default_bot)));
  };
  count.addEventListener("change", drawSeats);
  watchRatedChoice($("rated-table"), $("rated-kind"));
  drawSeats();
  // A name typed while the presets were loading is kept.
  if (!$("my-name").value) $("my-name").value = savedName();

  $("create-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const name = $("my-name").value.trim();
    rememberName(name);
    const timer = $("turn-timer").value;
    const body = {
      preset: preset.value,
      rounds: $("rounds").value ? Number($("rounds").value) : null,
      open: $("open-table").checked,
      public: $("public-table").checked,
      rated: $("rated-table").checked,
      ...(timer === "auto" ? {} : { turn_timer: timer === "off" ? null : Number(timer) }),
      seats: [...seats.children].map((li, i) => {
        if (i === 0) return { kind: "human", name };
        const kind = li.querySelector(".seat-kind").value;
        return kind === "bot" ? { kind, bot: li.querySelector(".seat-bot").value } : { kind };
      }),
    };
    try {
      const table = await api("POST", "/api/tables", body);
      rememberSeat(table.code, table.token);
      rememberInvites(table.code, table.seats.filter((s) => s.invite).map(({ seat, invite }) => ({ seat, invite })));
      location.href = `/t/${table.code}`;
    } catch (err) {
      error.textContent = err.message;
    }
  });

  const code = () => $("join-code").value.trim().toUpperCase();
  $("join-form").addEventListener("submit", async (e) => {
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
      const name = savedName() || $("my-name").value.trim() || (await askName());
      const seat = await api("POST", `/api/tables/${encodeURIComponent(code())}/join`, { name });
      rememberSeat(code(), seat.token);
      location.href = `/t/${code()}`;
    } catch (err) {
      error.textContent = err.message;
    }
  });
  // Say whether the table typed is open or invite-only before anyone tries to join it.
  $("join-code").addEventListener("change", async () => {
    const kind = $("join-kind");
    kind.textContent = "";
    if (!code()) return;
    try {
      const table = await api("GET", `/api/tables/${encodeURIComponent(code())}`);
      kind.textContent = t(table.open ? "lobby.join_open" : "lobby.join_invite", { code: table.code });
    } catch (err) {
      kind.textContent = err.message;
    }
  });
  $("spectate").addEventListener("click", () => {
    if (code()) location.href = `/t/${code()}`;
  });
  showQuickPlay($("quickplay"), async () => $("my-name").value.trim() || (await askName()));
  showOpenTables(
    async () => savedName() || $("my-name").value.trim() || (await askName()),
    (message) => (error.textContent = message),
  );
  showBots(
    $("open-tables").closest("section"),
    async () => savedName() || $("my-name").value.trim() || (await askName()),
    (message) => (error.textContent = message),
  );
}
