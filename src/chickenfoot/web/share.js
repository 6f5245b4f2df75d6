// The room card: the table's code, whether it is open, the invite and watch links to copy, and once
// the match is over the link to its replay.

import { t, translatePage } from "./i18n.js";
import { invitesOf } from "./net.js";
import { replayLink } from "./results.js";

export function renderShare(box, s, copy) {
  const invites = invitesOf(s.code).map((i) => i.invite);
  box.innerHTML = `<h2 data-t="table.room"></h2><div class="row"><code id="room-code"></code>
    <button type="button" id="copy" data-t="table.copy_link" aria-describedby="room-kind"></button></div>
    <p class="muted" id="room-kind"></p><div class="links"></div>`;
  translatePage(box);
  box.querySelector("#room-code").textContent = s.code;
  box.querySelector("#room-kind").textContent = t(s.open ? "table.open" : "table.invite_only");
  const links = box.querySelector(".links");
  const watch = `${location.origin}/t/${s.code}`;
  const copyText = invites.length ? `${location.origin}${invites[0]}` : watch;
  for (const invite of invites) {
    const a = document.createElement("a");
    a.href = invite;
    a.textContent = t("table.invite", { url: `${location.origin}${invite}` });
    links.appendChild(a);
  }
  const spectate = document.createElement("a");
  spectate.href = watch;
  spectate.textContent = t("table.watch", { url: watch });
  links.appendChild(spectate);
  if (s.match_over) links.appendChild(replayLink(s.code));
  box.querySelector("#copy").addEventListener("click", () => copy(copyText));
}

// Copies `text`, saying so; where the clipboard is refused, shows the text to copy by hand.
export async function copyText(text, say) {
  try {
    await navigator.clipboard.writeText(text);
    say(t("table.link_copied"));
  } catch {
    say(text);
  }
}
