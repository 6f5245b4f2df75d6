// The room card: the table's code, whether it is open, the invite and watch links to copy (an invite
// once used shows who took its seat instead), and once the match is over the link to its replay.

import { seatNames, t, translatePage } from "./i18n.js";
import { invitesOf } from "./net.js";
import { replayLink } from "./results.js";

export function renderShare(box, s, copy) {
  const free = s.free_seats ?? [];
  // An invite whose seat went to a bot opens nothing and says nothing.
  const invites = invitesOf(s.code).filter((i) => s.kinds[i.seat] === "human");
  const unused = invites.filter((i) => free.includes(i.seat)).map((i) => i.invite);
  box.innerHTML = `<h2 data-t="table.room"></h2><div class="row"><code id="room-code"></code>
    <button type="button" id="copy" data-t="table.copy_link" aria-describedby="room-kind"></button></div>
    <p class="muted" id="room-kind"></p><div class="links"></div>`;
  translatePage(box);
  box.querySelector("#room-code").textContent = s.code;
  box.querySelector("#room-kind").textContent = t(s.open ? "table.open" : "table.invite_only");
  const links = box.querySelector(".links");
  const watch = `${location.origin}/t/${s.code}`;
  const copyText = unused.length ? `${location.origin}${unused[0]}` : watch;
  const names = seatNames(s);
  for (const { seat, invite } of invites) {
    if (free.includes(seat)) {
      const a = document.createElement("a");
      a.href = invite;
      a.textContent = t("table.invite", { url: `${location.origin}${invite}` });
      links.appendChild(a);
    } else {
      const used = document.createElement("p");
      used.className = "invite-used";
      used.textContent = t("table.invite_used", { seat: seat + 1, name: names[seat] });
      links.appendChild(used);
    }
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
