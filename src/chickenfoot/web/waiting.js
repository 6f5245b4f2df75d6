// While a table waits for its first deal: each seat empty, joined or ready; the player's own
// "Ready" button; the creator's "Start with bots" (bots take the empty seats) and invite links,
// each with a copy button; the room code of an open table. No move is offered until the server
// says the match has begun (TablePage.myTurn).

import { joinNames, seatNames, t } from "./i18n.js";

// `actions`: {ready(), start()} — press Ready, or (the creator) start now with bots.
export function renderWaiting(box, s, invites, copy, actions) {
  box.hidden = s.status !== "waiting";
  if (box.hidden) return;
  const free = s.free_seats ?? [];
  const shown = seatNames(s);
  const title = document.createElement("h2");
  title.textContent = free.length
    ? t("waiting.missing", { names: joinNames(free.map((seat) => shown[seat])), count: free.length })
    : t("ready.title");
  box.replaceChildren(title, paragraph(t("ready.explain")), seatList(s, shown, free));
  const mine = s.seat !== null && s.kinds[s.seat] === "human";
  if (mine && !s.ready?.[s.seat]) box.append(button(t("ready.button"), "primary ready", actions.ready));
  else if (mine) box.append(paragraph(t("ready.you_are")));
  const links = free.map((seat) => [seat, invites.find((i) => i.seat === seat)]).filter(([, i]) => i);
  // The creator need not wait for everyone: bots take the empty seats, and a friend who never pressed
  // Ready plays (or is covered) like any other once the match has begun.
  if (s.seat === s.creator) {
    const [explain, label] = free.length ? ["ready.start_explain", "ready.start_bots"] : ["ready.start_now_explain", "ready.start_now"];
    box.append(paragraph(t(explain)), button(t(label), "start-bots", actions.start));
  }
  if (s.seat === s.creator && links.length) {
    box.append(paragraph(t("waiting.invites")));
    const list = document.createElement("ul");
    list.className = "invites";
    for (const [seat, { invite }] of links) {
      const url = `${location.origin}${invite}`;
      const li = document.createElement("li");
      const who = document.createElement("strong");
      who.id = `invite-for-${seat}`;
      who.textContent = shown[seat];
      const link = document.createElement("a");
      link.href = invite;
      link.textContent = url;
      const copyButton = button(t("table.copy_link"), "", () => copy(url));
      copyButton.setAttribute("aria-describedby", who.id); // whose invite it copies
      li.append(who, link, copyButton);
      list.append(li);
    }
    box.append(list);
  } else if (s.seat !== s.creator && free.length) {
    box.append(paragraph(t("waiting.ask_creator", { name: shown[s.creator] })));
  }
  if (s.open && free.length) box.append(paragraph(t("waiting.open", { code: s.code })));
}

const SEAT_STATES = { empty: "ready.seat_empty", joined: "ready.seat_joined", ready: "ready.seat_ready" };

// The people's seats, each empty, joined or ready (bots are always ready and not listed).
function seatList(s, shown, free) {
  const list = document.createElement("ul");
  list.className = "readiness";
  s.kinds.forEach((kind, seat) => {
    if (kind !== "human") return;
    const state = free.includes(seat) ? "empty" : s.ready?.[seat] ? "ready" : "joined";
    const li = document.createElement("li");
    li.className = `seat-${state}`;
    li.dataset.seat = String(seat);
    const name = s.seat === seat ? t("ui.name_you", { name: shown[seat] }) : shown[seat];
    li.textContent = t("ready.seat", { name, state: t(SEAT_STATES[state]) });
    list.append(li);
  });
  return list;
}

function button(text, className, onClick) {
  const node = document.createElement("button");
  node.type = "button";
  node.className = className;
  node.textContent = text;
  node.addEventListener("click", onClick);
  return node;
}

function paragraph(text) {
  const p = document.createElement("p");
  p.textContent = text;
  return p;
}
