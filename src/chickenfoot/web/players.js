// The players' bar: one compact card per seat, wrapping into rows, so that every seat is in view at
// once from two players to eight, on a phone as on a desktop. Each card says by words and shape,
// not by colour alone, who is to play, who is connected and which seat is yours.

import { botTag } from "./bots.js";
import { seatNames, t } from "./i18n.js";

// `actions(seat, name)` adds buttons to a card (replacing an absent player, ...); `rename` opens the
// name dialog from the player's own card, with the name they chose (null: none yet).
export function renderPlayers(box, s, { rename, actions }) {
  const free = new Set(s.free_seats ?? []);
  box.replaceChildren(
    ...seatNames(s).map((name, seat) => {
      const card = document.createElement("li");
      card.className = "player";
      card.dataset.seat = String(seat);
      const turn = s.status === "playing" && s.to_move === seat && !s.round_over;
      card.classList.toggle("turn", turn);
      card.classList.toggle("me", s.seat === seat);
      card.classList.toggle("free", free.has(seat));
      const on = s.connected[seat];
      const bot = s.kinds[seat] === "bot" || s.covered?.[seat] || s.left?.[seat];
      const count = s.hand_sizes[seat];
      const elsewhere = s.seat === seat && s.devices > 1; // this seat is open on another device too
      const presence = t(
        free.has(seat) ? "table.not_joined" : elsewhere ? "table.open_elsewhere" : on ? "table.connected" : "table.disconnected",
      );
      const shown = s.seat === seat ? t("ui.name_you", { name }) : name;
      const label = t("table.player", { name: shown, count, presence });
      card.setAttribute("aria-label", turn ? [label, t("table.to_play")].join(", ") : label);

      const top = span("who");
      const dot = span(on ? "dot on" : "dot");
      dot.title = presence;
      const nameBox = span("name", shown);
      nameBox.title = shown; // the whole name, where the card cuts it short
      top.append(nameBox);
      if (s.bot_accounts?.[seat]) top.append(botTag());
      const meta = span("meta");
      meta.append(dot, span("count", String(count)));
      if (s.seat === seat && s.kinds[seat] === "human") {
        const edit = document.createElement("button");
        edit.type = "button";
        edit.className = "rename";
        edit.textContent = "✎";
        edit.title = t("name.change");
        edit.setAttribute("aria-label", t("name.change"));
        edit.addEventListener("click", () => rename(s.names[seat]));
        meta.append(edit);
      }
      if (elsewhere) meta.append(span("badge elsewhere", t("table.open_elsewhere")));
      if (free.has(seat)) meta.append(span("badge", t("table.not_joined")));
      else if (bot) meta.append(span("badge", t(s.left?.[seat] ? "table.left" : "ui.bot")));
      if (turn) meta.append(span("turn-mark", t("table.to_play")));
      meta.append(...actions(seat, name));
      card.append(top, meta);
      return card;
    }),
  );
}

function span(className, text = null) {
  const node = document.createElement("span");
  node.className = className;
  if (text !== null) node.textContent = text;
  return node;
}
