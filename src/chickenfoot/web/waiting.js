// While a table waits for friends: who is still missing and how to bring them (the creator's
// invite links, each with a copy button; the room code of an open table). No move is offered
// until everyone is seated (TablePage.myTurn).

import { joinNames, seatNames, t } from "./i18n.js";

export function renderWaiting(box, s, invites, copy) {
  const free = s.free_seats ?? [];
  box.hidden = s.status !== "waiting" || !free.length;
  if (box.hidden) return;
  const shown = seatNames(s);
  const names = free.map((seat) => shown[seat]);
  const title = document.createElement("h2");
  title.textContent = t("waiting.missing", { names: joinNames(names), count: free.length });
  box.replaceChildren(title, paragraph(t("waiting.no_moves")));
  const links = free.map((seat) => [seat, invites.find((i) => i.seat === seat)]).filter(([, i]) => i);
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
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = t("table.copy_link");
      button.setAttribute("aria-describedby", who.id); // whose invite it copies
      button.addEventListener("click", () => copy(url));
      li.append(who, link, button);
      list.append(li);
    }
    box.append(list);
  } else if (s.seat !== s.creator) {
    box.append(paragraph(t("waiting.ask_creator", { name: shown[s.creator] })));
  }
  if (s.open) box.append(paragraph(t("waiting.open", { code: s.code })));
}

function paragraph(text) {
  const p = document.createElement("p");
  p.textContent = text;
  return p;
}
