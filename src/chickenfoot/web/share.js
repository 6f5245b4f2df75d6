// @ts-check
// The room card: the table's code, whether it is open, the invite and watch links to copy (an invite
// once used shows who took its seat instead), and once the match is over the link to its replay.
// And the room's code in the top bar, with whether the match is rated.

import { h, setHidden, setText } from "./dom.js";
import { Drawn } from "./drawn.js";
import { seatNames, t } from "./i18n.js";
import { ratedMark } from "./rating.js";
import { matchEnded, replayLink } from "./results.js";

/** @import { Invite, State } from "./protocol.js" */

/**
 * What the room card draws: the code, whether anyone may join, the invites this browser holds for
 * the people's seats (free, or taken by whom), and whether the match is over.
 * @typedef {{ code: string, open: boolean, invites: { seat: number, invite: string, taken: string | null }[], over: boolean }} ShareSlice
 */

/**
 * The room card's slice of STATE `s`, with the invites this browser holds.
 * @param {State} s
 * @param {Invite[]} invites
 * @returns {ShareSlice}
 */
export function shareSlice(s, invites) {
  const free = s.free_seats ?? [];
  const names = seatNames(s);
  return {
    code: s.code,
    open: !!s.open,
    // An invite whose seat went to a bot opens nothing and says nothing.
    invites: invites
      .filter((i) => s.kinds[i.seat] === "human")
      .map(({ seat, invite }) => ({ seat, invite, taken: free.includes(seat) ? null : names[seat] })),
    over: matchEnded(s),
  };
}

export class ShareCard {
  /**
   * @param {HTMLElement} box
   * @param {(text: string) => void} copy
   */
  constructor(box, copy) {
    this.code = h("code", { id: "room-code" });
    this.copyButton = h("button", { type: "button", id: "copy", "data-t": "table.copy_link", "aria-describedby": "room-kind" }, null, t("table.copy_link"));
    this.kind = h("p", { class: "muted", id: "room-kind" });
    this.links = h("div", { class: "links" });
    const row = h("div", { class: "row" });
    row.append(this.code, this.copyButton);
    box.replaceChildren(h("h2", { "data-t": "table.room" }, null, t("table.room")), row, this.kind, this.links);
    this.copied = "";
    this.copyButton.addEventListener("click", () => copy(this.copied));
    /** @type {Drawn<ShareSlice>} */
    this.drawn = new Drawn((slice) => this.draw(slice));
  }

  /** @param {ShareSlice} slice */
  update(slice) {
    this.drawn.update(slice);
  }

  /** @param {ShareSlice} s */
  draw(s) {
    setText(this.code, s.code);
    setText(this.kind, t(s.open ? "table.open" : "table.invite_only"));
    const watch = `${location.origin}/t/${s.code}`;
    const unused = s.invites.filter((i) => i.taken === null);
    this.copied = unused.length ? `${location.origin}${unused[0].invite}` : watch;
    const links = s.invites.map(({ seat, invite, taken }) =>
      taken === null
        ? h("a", { href: invite }, null, t("table.invite", { url: `${location.origin}${invite}` }))
        : h("p", { class: "invite-used" }, null, t("table.invite_used", { seat: seat + 1, name: taken })),
    );
    links.push(h("a", { href: watch }, null, t("table.watch", { url: watch })));
    if (s.over) links.push(replayLink(s.code));
    this.links.replaceChildren(...links);
  }
}

// The room's code in the top bar (struck through while the connection is lost), and beside it
// whether the match is rated, once the server has said. A phone's bar has no room for the word: there
// the mark of a rated match stands beside the status line instead (style.css shows one of the two).
export class RoomBadge {
  /**
   * @param {HTMLElement} room the room's code in the top bar
   * @param {HTMLElement} status the status line
   */
  constructor(room, status) {
    this.room = room;
    this.status = status;
    /** @type {HTMLSpanElement[]} the marks beside the room's code and beside the status line */
    this.marks = [];
    /** @type {Drawn<{ code: string, offline: boolean, rated: boolean | null }>} */
    this.drawn = new Drawn((slice) => this.draw(slice));
  }

  /** @param {{ code: string, offline: boolean, rated: boolean | null }} slice */
  update(slice) {
    this.drawn.update(slice);
  }

  /** @param {{ code: string, offline: boolean, rated: boolean | null }} s */
  draw({ code, offline, rated }) {
    setHidden(this.room, false);
    setText(this.room, code);
    this.room.classList.toggle("offline", offline);
    if (rated === null || this.marks[0]?.classList.contains(rated ? "rated" : "casual")) return;
    for (const mark of this.marks) mark.remove();
    this.marks = [this.room, this.status].map((beside) => {
      const mark = ratedMark(rated);
      beside.after(mark);
      return mark;
    });
  }
}

/**
 * Copies `text`, saying so; where the clipboard is refused, shows the text to copy by hand.
 * @param {string} text
 * @param {(words: string) => void} say
 */
export async function copyText(text, say) {
  try {
    await navigator.clipboard.writeText(text);
    say(t("table.link_copied"));
  } catch {
    say(text);
  }
}
