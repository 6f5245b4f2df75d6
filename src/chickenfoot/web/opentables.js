// @ts-check
// The lobby's open tables: public tables waiting for players (join) or in play (watch), polled with
// If-None-Match so an unchanged list costs a 304; the tables this browser left, to come back to.

import { leftTables } from "./company.js";
import { byId, h } from "./dom.js";
import { joinNames, seatName, t } from "./i18n.js";
import { api, refusalText, rememberSeat } from "./net.js";

/**
 * A public table as the lobby lists it (docs/protocol.md, Open tables).
 * @typedef {{ code: string, status: string, rules: { max_pip: number }, rounds: number, players: number, free: number,
 *   bots: number, seated?: number[], names: (string | null)[] }} Listing
 */

/**
 * Why the table `code` cannot be joined with its code (it is invite-only, or there is no such table),
 * asked before the player is asked for a name; null when it can.
 * @param {string} code
 */
export async function joinRefusal(code) {
  try {
    /** @type {{ code: string, open: boolean }} */
    const table = await api("GET", `/api/tables/${encodeURIComponent(code)}`);
    return table.open ? null : t("lobby.join_invite", { code: table.code });
  } catch (err) {
    return refusalText(err);
  }
}

/**
 * @param {Listing} table
 * @param {(code: string) => void} join
 */
function entry(table, join) {
  const li = document.createElement("li");
  li.dataset.code = table.code;
  const code = document.createElement("code");
  code.textContent = table.code;
  const facts = document.createElement("span");
  facts.className = "facts";
  const parts = [
    t("lobby.listing.rules", { pips: table.rules.max_pip, count: table.rounds }),
    t("lobby.listing.players", { count: table.players }),
  ];
  if (table.free) parts.push(t("lobby.listing.free", { count: table.free }));
  if (table.bots) parts.push(t("lobby.listing.bots", { count: table.bots }));
  // `names[i]` is the name of the player at seat `seated[i]` (null: none chosen).
  const seated = (table.seated ?? []).map((seat, i) => seatName(seat, table.names[i]));
  if (seated.length) parts.push(joinNames(seated));
  facts.textContent = parts.join(" · ");
  const status = document.createElement("span");
  status.className = `status-${table.status}`;
  status.textContent = t(table.status === "waiting" ? "lobby.listing.waiting" : "lobby.listing.playing");
  li.append(code, status, facts);
  if (table.free) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "primary";
    button.textContent = t("lobby.join");
    button.addEventListener("click", () => join(table.code));
    li.appendChild(button);
  }
  const watch = document.createElement("a");
  watch.href = `/t/${table.code}`;
  watch.textContent = t("lobby.watch");
  li.appendChild(watch);
  return li;
}

/**
 * Poll the list while the lobby is shown (not while the tab is hidden); `name()` gives the player's name
 * (asking for it if need be).
 * @param {() => Promise<string | null>} name
 * @param {(message: string) => void} onError
 */
export function showOpenTables(name, onError) {
  /** @type {string | null} */
  let tag = null;
  let wait = 5;
  /** @param {string} code */
  const join = async (code) => {
    const refusal = await joinRefusal(code); // unlisted since the list was read
    if (refusal) {
      onError(refusal);
      return;
    }
    try {
      /** @type {{ token: string }} */
      const seat = await api("POST", `/api/tables/${encodeURIComponent(code)}/join`, { name: await name() });
      rememberSeat(code, seat.token);
      location.href = `/t/${code}`;
    } catch (err) {
      onError(refusalText(err));
    }
  };
  const list = byId("open-tables");
  const none = byId("no-open-tables");
  const poll = async () => {
    try {
      const response = await fetch("/api/lobby", { headers: tag ? { "if-none-match": tag } : {} });
      if (response.status === 200) {
        tag = response.headers.get("etag");
        /** @type {{ tables: Listing[], poll?: number }} */
        const data = await response.json();
        wait = data.poll ?? wait;
        list.replaceChildren(...data.tables.map((table) => entry(table, join)));
        none.hidden = data.tables.length > 0;
      }
    } catch {
      // The server is unreachable for now: the next poll tries again.
    }
    setTimeout(() => (document.hidden ? document.addEventListener("visibilitychange", poll, { once: true }) : poll()), wait * 1000);
  };
  poll();
  const mine = byId("your-tables");
  for (const code of leftTables()) {
    h("a", { href: `/t/${code}` }, mine, t("lobby.back", { code }));
    mine.hidden = false;
  }
}
