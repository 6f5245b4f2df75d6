// The lobby: create a table (preset, rounds, seats), join one by code, or watch one.

import { api, rememberSeat, seatSecret } from "./net.js";

const $ = (id) => document.getElementById(id);

function seatRow(i, bots, defaultBot) {
  const li = document.createElement("li");
  const label = i === 0 ? "You" : `Seat ${i + 1}`;
  li.innerHTML = `<span class="n">${label}</span>`;
  if (i === 0) {
    li.dataset.kind = "human";
    return li;
  }
  const kind = document.createElement("select");
  kind.className = "seat-kind";
  kind.setAttribute("aria-label", `Seat ${i + 1} player`);
  kind.innerHTML = `<option value="bot">Bot</option><option value="human">Friend (invite)</option>`;
  const level = document.createElement("select");
  level.className = "seat-bot";
  level.setAttribute("aria-label", `Seat ${i + 1} bot difficulty`);
  for (const b of bots) level.add(new Option(b, b, b === defaultBot, b === defaultBot));
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
  for (const name of Object.keys(presets.presets)) preset.add(new Option(name, name));
  const count = $("seat-count");
  for (let n = 2; n <= presets.max_players; n++) count.add(new Option(`${n} players`, String(n), n === 4, n === 4));
  const seats = $("seats");
  const drawSeats = () => {
    const n = Number(count.value);
    seats.replaceChildren(...Array.from({ length: n }, (_, i) => seatRow(i, presets.bots, presets.default_bot)));
  };
  count.addEventListener("change", drawSeats);
  drawSeats();
  $("my-name").value = localStorage.getItem("cf-name") ?? "";

  $("create-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const name = $("my-name").value.trim() || "You";
    localStorage.setItem("cf-name", name);
    const timer = $("turn-timer").value;
    const body = {
      preset: preset.value,
      rounds: $("rounds").value ? Number($("rounds").value) : null,
      open: $("open-table").checked,
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
      const invites = table.seats.filter((s) => s.invite).map((s) => s.invite);
      localStorage.setItem(`cf-invites-${table.code}`, JSON.stringify(invites));
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
    try {
      const seat = await api("POST", `/api/tables/${encodeURIComponent(code())}/join`, {
        name: localStorage.getItem("cf-name") || $("my-name").value.trim() || "Guest",
      });
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
      kind.textContent = table.open
        ? `${table.code} is open: join to take a free seat, or watch.`
        : `${table.code} is invite-only: open your invite link to take your seat, or watch.`;
    } catch (err) {
      kind.textContent = err.message;
    }
  });
  $("spectate").addEventListener("click", () => {
    if (code()) location.href = `/t/${code()}`;
  });
}
