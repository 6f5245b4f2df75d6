// @ts-check
// The players' bar: one compact card per seat, wrapping into rows, so that every seat is in view at
// once from two players to eight, on a phone as on a desktop. Each card says by words and shape,
// not by colour alone, who is to play, who is connected and which seat is yours. Each card is drawn
// again only when its own seat changed, and keeps its buttons from one state to the next.

import { botTag } from "./bots.js";
import { attribute, h, keepChildren } from "./dom.js";
import { Drawn } from "./drawn.js";
import { seatNames, t } from "./i18n.js";
import { matchEnded } from "./results.js";

/** @import { State } from "./protocol.js" */

/**
 * One seat's card.
 * @typedef {object} SeatSlice
 * @property {string} name the seat's name as shown ("Ann (you)" for the player's own)
 * @property {string | null} chosen the name its player chose (the player's own seat: offered when renaming)
 * @property {boolean} turn
 * @property {boolean} me
 * @property {boolean} free nobody has taken it yet
 * @property {boolean} connected
 * @property {"" | "left" | "bot"} badge
 * @property {boolean} elsewhere the player's own seat is open on another device too
 * @property {boolean} botAccount a program plays it through the Bot API
 * @property {number} count the tiles in its hand
 * @property {boolean} renamable
 * @property {boolean} replaceable the creator may hand it to a bot, or reopen it with a new invite
 */

/**
 * What a card may ask of the table: the name dialog for the player's own seat; an absent friend's seat
 * to a bot, or reopened (the creator's).
 * @typedef {{ rename(chosen: string | null): void, replace(seat: number, name: string): void, reopen(seat: number, name: string): void }} SeatPort
 */

/**
 * Every seat's card of STATE `s`.
 * @param {State} s
 * @returns {SeatSlice[]}
 */
export function seatSlices(s) {
  const free = new Set(s.free_seats ?? []);
  const creator = s.seat !== null && s.seat === s.creator && !matchEnded(s);
  return seatNames(s).map((name, seat) => {
    const me = s.seat === seat;
    const human = s.kinds[seat] === "human";
    const absent = human && !s.connected[seat] && !free.has(seat);
    return {
      name: me ? t("ui.name_you", { name }) : name,
      chosen: me ? s.names[seat] : null,
      turn: s.status === "playing" && s.to_move === seat && !s.round_over,
      me,
      free: free.has(seat),
      connected: s.connected[seat],
      badge: free.has(seat) ? "" : s.left?.[seat] ? "left" : s.kinds[seat] === "bot" || s.covered?.[seat] ? "bot" : "",
      elsewhere: me && (s.devices ?? 1) > 1,
      botAccount: !!s.bot_accounts?.[seat],
      count: s.hand_sizes[seat],
      renamable: me && human,
      replaceable: creator && !me && absent,
    };
  });
}

/**
 * A small button on a seat's card: its visible word, and a title that names the seat for every reader.
 * @param {string} className
 * @param {() => void} onClick
 */
function seatButton(className, onClick) {
  const button = h("button", { type: "button", class: className });
  button.addEventListener("click", onClick);
  return button;
}

/**
 * A card's button names itself by its title, for every reader.
 * @param {HTMLButtonElement} button
 * @param {string} title
 */
function titled(button, title) {
  attribute(button, "title", title);
  attribute(button, "aria-label", title);
}

class SeatCard {
  /**
   * @param {number} seat
   * @param {SeatPort} port
   */
  constructor(seat, port) {
    this.card = h("li", { class: "player", "data-seat": seat });
    this.meta = h("span", { class: "meta" });
    /** @type {SeatSlice | null} */
    this.shown = null;
    this.rename = seatButton("rename", () => port.rename(this.shown?.chosen ?? null));
    this.rename.textContent = "✎";
    this.replace = seatButton("replace", () => port.replace(seat, this.shown?.name ?? ""));
    this.reopen = seatButton("reopen", () => port.reopen(seat, this.shown?.name ?? ""));
    /** @type {Drawn<SeatSlice>} */
    this.drawn = new Drawn((slice) => this.draw(slice));
  }

  /** @param {SeatSlice} s */
  draw(s) {
    this.shown = s;
    const card = this.card;
    card.classList.toggle("turn", s.turn);
    card.classList.toggle("me", s.me);
    card.classList.toggle("free", s.free);
    const presence = t(s.free ? "table.not_joined" : s.elsewhere ? "table.open_elsewhere" : s.connected ? "table.connected" : "table.disconnected");
    const label = t("table.player", { name: s.name, count: s.count, presence });
    attribute(card, "aria-label", s.turn ? [label, t("table.to_play")].join(", ") : label);
    const nameBox = h("span", { class: "name", title: s.name }, null, s.name); // the title: the whole name, where the card cuts it short
    const who = h("span", { class: "who" });
    who.append(nameBox, ...(s.botAccount ? [botTag()] : []));
    const meta = [h("span", { class: s.connected ? "dot on" : "dot", title: presence }), h("span", { class: "count" }, null, String(s.count))];
    if (s.renamable) {
      titled(this.rename, t("name.change"));
      meta.push(this.rename);
    }
    if (s.elsewhere) meta.push(h("span", { class: "badge elsewhere" }, null, t("table.open_elsewhere")));
    if (s.free) meta.push(h("span", { class: "badge" }, null, t("table.not_joined")));
    else if (s.badge) meta.push(h("span", { class: "badge" }, null, t(s.badge === "left" ? "table.left" : "ui.bot")));
    if (s.turn) meta.push(h("span", { class: "turn-mark" }, null, t("table.to_play")));
    if (s.replaceable) {
      this.replace.textContent = t("ui.bot");
      this.reopen.textContent = t("table.reopen");
      titled(this.replace, t("table.replace_title", { name: s.name }));
      titled(this.reopen, t("table.reopen_title", { name: s.name }));
      meta.push(this.replace, this.reopen);
    }
    // The buttons stay the same elements: only the words and marks around them are made anew.
    keepChildren(this.meta, meta);
    keepChildren(card, [who, this.meta]);
  }
}

export class PlayersBar {
  /**
   * @param {HTMLElement} box
   * @param {SeatPort} port
   */
  constructor(box, port) {
    this.box = box;
    this.port = port;
    /** @type {SeatCard[]} */
    this.cards = [];
  }

  /**
   * The cards of the seats, each drawn again only if its seat changed.
   * @param {SeatSlice[]} seats
   */
  update(seats) {
    while (this.cards.length < seats.length) this.cards.push(new SeatCard(this.cards.length, this.port));
    this.cards.length = seats.length;
    keepChildren(this.box, this.cards.map((card) => card.card));
    seats.forEach((slice, seat) => this.cards[seat].drawn.update(slice));
  }

  /**
   * A seat's card (a slide starts or ends on it), or null.
   * @param {number} seat
   */
  card(seat) {
    return this.cards[seat]?.card ?? null;
  }
}
