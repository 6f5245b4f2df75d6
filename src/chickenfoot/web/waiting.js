// @ts-check
// While a table waits for its first deal: each seat empty, joined or ready; the player's own
// "Ready" button; the creator's "Start with bots" (bots take the empty seats) and invite links,
// each with a copy button (on another device of the creator's account, a button for new ones); the
// room code of an open table. No move is offered until the server
// says the match has begun (TablePage.myTurn).
//
// The card's buttons stay the same elements from one state to the next: a state arriving while a
// player presses one (someone joins or gets ready) would otherwise replace the button between the
// press and the release, and the browser drops such a click.

import { h, keepChildren, setHidden, setText } from "./dom.js";
import { Drawn } from "./drawn.js";
import { joinNames, seatNames, t } from "./i18n.js";

/** @import { Invite, State } from "./protocol.js" */

/**
 * What the card draws while the table waits for its first deal.
 * @typedef {object} WaitingSlice
 * @property {string[]} names every seat's name
 * @property {number[]} free the human seats nobody has taken
 * @property {("empty" | "joined" | "ready" | null)[]} seats each person's seat (null: a bot's)
 * @property {number | null} me the player's seat
 * @property {"ready" | "is ready" | null} mine the player's Ready button, or that they are ready
 * @property {boolean} creator the player created the table
 * @property {string} creatorName
 * @property {[number, string][]} invites the free seats' invite links (seat, path) this browser holds
 * @property {string | null} openCode the room code, for a table anyone may join
 */

/** What the card may ask of the table. @typedef {{ ready(): void, start(): void, invites(): void, copy(url: string): void }} WaitingPort */

/**
 * The card's slice of STATE `s`, with the invites this browser holds; null once the match has begun.
 * @param {State} s
 * @param {Invite[]} invites
 * @returns {WaitingSlice | null}
 */
export function waitingSlice(s, invites) {
  if (s.status !== "waiting") return null;
  const free = s.free_seats ?? [];
  const mine = s.seat !== null && s.kinds[s.seat] === "human";
  const ready = mine && s.seat !== null && !!s.ready?.[s.seat];
  return {
    names: seatNames(s),
    free,
    seats: s.kinds.map((kind, seat) => (kind !== "human" ? null : free.includes(seat) ? "empty" : s.ready?.[seat] ? "ready" : "joined")),
    me: s.seat,
    mine: mine && !ready ? "ready" : ready ? "is ready" : null,
    creator: s.seat === s.creator,
    creatorName: seatNames(s)[s.creator ?? 0],
    invites: free.flatMap((seat) => {
      const invite = invites.find((i) => i.seat === seat);
      return invite ? [/** @type {[number, string]} */ ([seat, invite.invite])] : [];
    }),
    openCode: s.open && free.length ? s.code : null,
  };
}

const SEAT_STATES = { empty: "ready.seat_empty", joined: "ready.seat_joined", ready: "ready.seat_ready" };

export class WaitingCard {
  /**
   * @param {HTMLElement} box
   * @param {WaitingPort} port
   */
  constructor(box, port) {
    this.box = box;
    this.port = port;
    this.head = h("div");
    this.readySlot = h("div");
    this.ready = button("primary ready", () => port.ready());
    this.readyNote = h("p");
    this.startSlot = h("div");
    this.startExplain = h("p");
    this.start = button("start-bots", () => port.start());
    this.foot = h("div");
    box.replaceChildren(this.head, this.readySlot, this.startSlot, this.foot);
    /** @type {Drawn<WaitingSlice | null>} */
    this.drawn = new Drawn((slice) => this.draw(slice));
    /** @type {Drawn<Pick<WaitingSlice, "names" | "free" | "creator" | "creatorName" | "invites" | "openCode">>} */
    this.drawnFoot = new Drawn((slice) => this.drawFoot(slice));
  }

  /** @param {WaitingSlice | null} slice */
  update(slice) {
    this.drawn.update(slice);
  }

  /** @param {WaitingSlice | null} s */
  draw(s) {
    setHidden(this.box, !s);
    if (!s) return;
    const title = h("h2", {}, null, s.free.length ? t("waiting.missing", { names: joinNames(s.free.map((seat) => s.names[seat])), count: s.free.length }) : t("ready.title"));
    this.head.replaceChildren(title, h("p", {}, null, t("ready.explain")), this.seatList(s));
    setText(this.ready, t("ready.button"));
    setText(this.readyNote, t("ready.you_are"));
    keepChildren(this.readySlot, s.mine === "ready" ? [this.ready] : s.mine === "is ready" ? [this.readyNote] : []);
    // The creator need not wait for everyone: bots take the empty seats, and a friend who never pressed
    // Ready plays (or is covered) like any other once the match has begun.
    const [explain, label] = s.free.length ? ["ready.start_explain", "ready.start_bots"] : ["ready.start_now_explain", "ready.start_now"];
    setText(this.startExplain, t(explain));
    setText(this.start, t(label));
    keepChildren(this.startSlot, s.creator ? [this.startExplain, this.start] : []);
    const { names, free, creator, creatorName, invites, openCode } = s;
    this.drawnFoot.update({ names, free, creator, creatorName, invites, openCode });
  }

  // The invites and the room code, drawn anew only when they read differently, so that their copy
  // buttons too outlive a state that changes nothing here.
  /** @param {Pick<WaitingSlice, "names" | "free" | "creator" | "creatorName" | "invites" | "openCode">} s */
  drawFoot(s) {
    const foot = [];
    if (s.creator && s.invites.length) foot.push(h("p", {}, null, t("waiting.invites")), this.inviteList(s.invites, s.names));
    else if (s.creator && s.free.length) {
      // The creator on another device of the account: the links are on the device that made the table.
      const make = button("new-invites", () => this.port.invites());
      make.textContent = t("waiting.new_invites");
      foot.push(h("p", {}, null, t("waiting.invites_elsewhere")), make);
    }
    else if (!s.creator && s.free.length) foot.push(h("p", {}, null, t("waiting.ask_creator", { name: s.creatorName })));
    if (s.openCode) foot.push(h("p", {}, null, t("waiting.open", { code: s.openCode })));
    this.foot.replaceChildren(...foot);
  }

  /**
   * @param {[number, string][]} invites
   * @param {string[]} names
   */
  inviteList(invites, names) {
    const list = h("ul", { class: "invites" });
    for (const [seat, invite] of invites) {
      const url = `${location.origin}${invite}`;
      const li = h("li", {}, list);
      const who = h("strong", { id: `invite-for-${seat}` }, li, names[seat]);
      h("a", { href: invite }, li, url);
      const copy = button("", () => this.port.copy(url));
      copy.textContent = t("table.copy_link");
      copy.setAttribute("aria-describedby", who.id); // whose invite it copies
      li.append(copy);
    }
    return list;
  }

  // The people's seats, each empty, joined or ready (bots are always ready and not listed).
  /** @param {WaitingSlice} s */
  seatList(s) {
    const list = h("ul", { class: "readiness" });
    s.seats.forEach((state, seat) => {
      if (state === null) return;
      const name = s.me === seat ? t("ui.name_you", { name: s.names[seat] }) : s.names[seat];
      h("li", { class: `seat-${state}`, "data-seat": seat }, list, t("ready.seat", { name, state: t(SEAT_STATES[state]) }));
    });
    return list;
  }
}

/**
 * @param {string} className
 * @param {() => void} onClick
 */
function button(className, onClick) {
  const node = h("button", { type: "button", class: className });
  node.addEventListener("click", onClick);
  return node;
}
