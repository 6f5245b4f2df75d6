// While a table waits for its first deal: each seat empty, joined or ready; the player's own
// "Ready" button; the creator's "Start with bots" (bots take the empty seats) and invite links,
// each with a copy button; the room code of an open table. No move is offered until the server
// says the match has begun (TablePage.myTurn).

import { joinNames, seatNames, t } from "./i18n.js";

// The card's buttons stay the same elements from one state to the next: a state arriving while a
// player presses one (someone joins or gets ready) would otherwise replace the button between the
// press and the release, and the browser drops such a click.
const cards = new WeakMap();

// `actions`: {ready(), start()} — press Ready, or (the creator) start now with bots.
export function renderWaiting(box, s, invites, copy, actions) {
  box.hidden = s.status !== "waiting";
  if (box.hidden) return;
  const card = cardIn(box);
  card.actions = actions;
  const free = s.free_seats ?? [];
  const shown = seatNames(s);
  const title = document.createElement("h2");
  title.textContent = free.length
    ? t("waiting.missing", { names: joinNames(free.map((seat) => shown[seat])), count: free.length })
    : t("ready.title");
  card.head.replaceChildren(title, paragraph(t("ready.explain")), seatList(s, shown, free));
  const mine = s.seat !== null && s.kinds[s.seat] === "human";
  const ready = mine && !!s.ready?.[s.seat];
  setText(card.ready, t("ready.button"));
  setText(card.readyNote, t("ready.you_are"));
  fill(card.readySlot, mine && !ready ? [card.ready] : ready ? [card.readyNote] : []);
  // The creator need not wait for everyone: bots take the empty seats, and a friend who never pressed
  // Ready plays (or is covered) like any other once the match has begun.
  const creator = s.seat === s.creator;
  const [explain, label] = free.length ? ["ready.start_explain", "ready.start_bots"] : ["ready.start_now_explain", "ready.start_now"];
  setText(card.startExplain, t(explain));
  setText(card.start, t(label));
  fill(card.startSlot, creator ? [card.startExplain, card.start] : []);
  const links = free.map((seat) => [seat, invites.find((i) => i.seat === seat)]).filter(([, i]) => i);
  const foot = [];
  if (creator && links.length) foot.push(paragraph(t("waiting.invites")), inviteList(links, shown, copy));
  else if (!creator && free.length) foot.push(paragraph(t("waiting.ask_creator", { name: shown[s.creator] })));
  if (s.open && free.length) foot.push(paragraph(t("waiting.open", { code: s.code })));
  // Rebuilt only when it reads differently, so that its copy buttons too outlive a state that changes nothing here.
  const key = foot.map((node) => node.outerHTML).join("");
  if (key !== card.footKey) {
    card.foot.replaceChildren(...foot);
    card.footKey = key;
  }
}

function cardIn(box) {
  let card = cards.get(box);
  if (!card) {
    card = {
      head: document.createElement("div"),
      readySlot: document.createElement("div"),
      ready: button("", "primary ready", () => card.actions.ready()),
      readyNote: paragraph(""),
      startSlot: document.createElement("div"),
      startExplain: paragraph(""),
      start: button("", "start-bots", () => card.actions.start()),
      foot: document.createElement("div"),
      footKey: null,
      actions: null,
    };
    box.replaceChildren(card.head, card.readySlot, card.startSlot, card.foot);
    cards.set(box, card);
  }
  return card;
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

// Puts `nodes` in `slot` unless they are there already: taking a button out and putting it back
// would drop a press on it as surely as replacing it.
function fill(slot, nodes) {
  const same = nodes.length === slot.childNodes.length && nodes.every((node, i) => slot.childNodes[i] === node);
  if (!same) slot.replaceChildren(...nodes);
}

function inviteList(links, shown, copy) {
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
  return list;
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
