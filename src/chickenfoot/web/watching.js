// Spectators know they are watching: a banner with the reason the server gives when they connect
// (no seat here; their seat open on another device; a seat here follows an account, so signing in
// may take it), and the number of people watching, shown to everyone at the table.

import { t } from "./i18n.js";

const REASONS = { no_seat: "watching.no_seat", seat_elsewhere: "watching.seat_elsewhere", sign_in: "watching.sign_in" };

// The reason is the state's `watching.reason`, sent to a client without a seat.
export function renderWatching(box, s) {
  const reason = s.watching?.reason;
  box.hidden = s.seat !== null || !Object.hasOwn(REASONS, reason ?? "");
  if (box.hidden) return;
  const title = document.createElement("strong");
  title.textContent = t("watching.title");
  const why = document.createElement("span");
  why.textContent = t(REASONS[reason]);
  box.replaceChildren(title, " ", why);
  if (reason === "sign_in") {
    const link = document.createElement("a");
    link.href = `/signin?next=/t/${encodeURIComponent(s.code)}`;
    link.textContent = t("watching.sign_in_link");
    box.append(" ", link);
  }
}

export function renderSpectators(node, s) {
  const count = s.spectators ?? 0;
  node.hidden = count === 0;
  node.textContent = t("table.spectators", { count });
}
