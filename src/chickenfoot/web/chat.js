// @ts-check
// The table's chat: lines as plain text (never markup) with the time each was said, quick reactions in the reader's language,
// a spectator's lines marked, and a mute switch remembered in this browser. Lines that come while the
// chat is out of sight (below the board on a phone) are counted on a badge by the board, which
// brings the chat into view. Another's line may carry a menu of the reader's (follow, block, report
// its speaker: tablesocial.js).

import { byId, h, setHidden, setText } from "./dom.js";
import { Drawn } from "./drawn.js";
import { language, say, seatName, t } from "./i18n.js";

/** @import { ChatLine, ChatMessage } from "./protocol.js" */
const MUTE = "cf-chat-muted";
const KEPT = 50; // the server keeps (and sends on connecting) the last 50 lines

/**
 * When a line was said, as a <time>: the hour and minute, with the day before it when it was not today
 * (at a turn-based table a talk goes on for days).
 * @param {number} at seconds since the epoch
 */
function said(at) {
  const date = new Date(at * 1000);
  const today = date.toDateString() === new Date().toDateString();
  const options = /** @type {Intl.DateTimeFormatOptions} */ (today ? { hour: "2-digit", minute: "2-digit" } : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  return h("time", { datetime: date.toISOString(), class: "said-at" }, null, new Intl.DateTimeFormat(language(), options).format(date));
}

// A speech bubble, for the badge.
const bubble = document.createElementNS("http://www.w3.org/2000/svg", "svg");
bubble.setAttribute("viewBox", "0 0 24 24");
bubble.setAttribute("aria-hidden", "true");
bubble.innerHTML = '<path d="M4 5h16v11H10l-4 4v-4H4z"/>';

export class Chat {
  /**
   * @param {(message: Record<string, unknown>) => void} send
   * @param {(line: ChatLine, speaker: string) => HTMLElement | null} [menu] a line's menu, if it has one
   */
  constructor(send, menu = () => null) {
    this.send = send;
    this.menu = menu;
    /** @type {Map<number, ChatLine>} number → line: a line announced while the history loads comes once */
    this.lines = new Map();
    /** @type {string[]} */
    this.names = [];
    this.unseen = 0; // lines that came while muted
    this.unread = 0; // lines that came while the chat was out of sight
    this.inView = true;
    this.muted = localStorage.getItem(MUTE) === "1";
    this.log = byId("chat-log");
    this.mutedNote = byId("chat-muted");
    this.badge = byId("chat-badge");
    this.refusal = byId("chat-refused");
    /** @type {number | undefined} when the operators' mute of the reader ends (ms since the epoch), while its note shows */
    this.muteEnds = undefined;
    /** @type {number | undefined} */
    this.muteTimer = undefined;
    /** @type {Drawn<{ lines: ChatLine[], names: string[], muted: boolean, unseen: number }>} */
    this.drawnLog = new Drawn((slice) => this.drawLog(slice));
    /** @type {Drawn<{ unread: number, muted: boolean }>} */
    this.drawnBadge = new Drawn((slice) => this.drawBadge(slice));
    const mute = byId("chat-mute", HTMLInputElement);
    const text = byId("chat-text", HTMLInputElement);
    mute.checked = this.muted;
    mute.addEventListener("change", () => {
      this.muted = mute.checked;
      localStorage.setItem(MUTE, this.muted ? "1" : "0");
      this.unseen = 0;
      this.update(this.names);
    });
    byId("chat-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const said = text.value.trim();
      if (!said) return;
      this.send({ type: "chat", text: said });
      text.value = "";
    });
    text.addEventListener("input", () => {
      if (this.muteEnds === undefined) setHidden(this.refusal, true); // a filtered line: said otherwise now
    });
    new IntersectionObserver(([entry]) => {
      this.inView = entry.isIntersecting;
      if (this.inView && this.unread) {
        this.unread = 0;
        this.update(this.names);
      }
    }).observe(this.log);
    this.badge.addEventListener("click", () => {
      byId("chat").scrollIntoView({ block: "nearest", behavior: "smooth" });
      text.focus({ preventScroll: true });
    });
    for (const button of byId("reactions").querySelectorAll("button[data-reaction]")) {
      button.addEventListener("click", () => this.send({ type: "react", reaction: button.getAttribute("data-reaction") }));
    }
  }


  /**
   * The moderation refused the player's line (server/moderation): why stays under the form, not only
   * in a toast, and a mute's note until its `moment` (an instant) has passed.
   * @param {string} text
   * @param {string | undefined} moment
   */
  refused(text, moment) {
    clearTimeout(this.muteTimer);
    setText(this.refusal, text);
    setHidden(this.refusal, false);
    const ends = moment ? new Date(moment).getTime() : NaN;
    this.muteEnds = ends > Date.now() ? ends : undefined;
    if (this.muteEnds === undefined) return;
    // A timer waits at most 2^31 - 1 ms (24.8 days): a longer mute's note is looked at again then.
    const look = () => (Date.now() < ends ? this.refused(text, moment) : this.mutedUntil("", null));
    this.muteTimer = window.setTimeout(look, Math.min(ends - Date.now(), 2 ** 31 - 1));
  }

  /**
   * The operators muted the reader in chat until `moment`: the note stays under the form until then, from
   * the moment the table opens; `null`: the mute ended or was lifted, and its note goes.
   * @param {string} text
   * @param {string | null} moment
   */
  mutedUntil(text, moment) {
    if (moment !== null) {
      this.refused(text, moment);
      return;
    }
    if (this.muteEnds === undefined) return;
    clearTimeout(this.muteTimer);
    this.muteEnds = undefined;
    setHidden(this.refusal, true);
  }

  /**
   * A `chat` message of the server: the kept lines on connecting, or one new line.
   * @param {ChatMessage} message
   */
  receive(message) {
    for (const line of message.lines ?? (message.line ? [message.line] : [])) {
      const fresh = !this.lines.has(line.n) && message.line;
      if (fresh && this.muted) this.unseen += 1;
      else if (fresh && !this.inView) this.unread += 1;
      this.lines.set(line.n, line);
    }
    const numbers = [...this.lines.keys()].sort((a, b) => a - b);
    for (const n of numbers.slice(0, Math.max(0, numbers.length - KEPT))) this.lines.delete(n);
    this.update(this.names);
  }

  /**
   * Draws what changed: the lines, with the speakers by the seats' present `names`.
   * @param {string[]} names
   */
  update(names) {
    this.names = names;
    const lines = [...this.lines.values()].sort((a, b) => a.n - b.n);
    this.drawnLog.update({ lines, names, muted: this.muted, unseen: this.unseen });
    this.drawnBadge.update({ unread: this.unread, muted: this.muted });
  }

  /**
   * Who said it: the seat's current name, or "Spectator".
   * @param {ChatLine} line
   * @param {string[]} names
   */
  speaker(line, names) {
    if (line.spectator || line.seat === null) return t("chat.watcher");
    return names[line.seat] ?? seatName(line.seat);
  }

  /** @param {{ lines: ChatLine[], names: string[], muted: boolean, unseen: number }} s */
  drawLog({ lines, names, muted, unseen }) {
    setHidden(this.log, muted);
    setHidden(this.mutedNote, !muted);
    setText(this.mutedNote, t("chat.muted", { count: unseen }));
    this.log.replaceChildren(
      ...lines.map((line) => {
        const li = h("li");
        li.classList.toggle("spectator", line.spectator);
        li.classList.toggle("reaction", !!line.code);
        // Plain text only: whatever a player typed is shown as typed.
        const what = line.code ? say({ ...line, code: line.code }, names) : (line.text ?? "");
        const speaker = this.speaker(line, names);
        if (line.at) li.append(said(line.at), " ");
        li.append(h("b", {}, null, speaker), " ", h("span", {}, null, what));
        const menu = this.menu(line, speaker);
        if (menu) li.append(menu);
        return li;
      }),
    );
    this.log.scrollTop = this.log.scrollHeight;
  }

  /** @param {{ unread: number, muted: boolean }} s */
  drawBadge({ unread, muted }) {
    const badge = this.badge;
    setHidden(badge, !unread || muted);
    badge.replaceChildren(bubble.cloneNode(true), String(unread));
    const words = t("chat.unread", { count: unread });
    badge.setAttribute("aria-label", words);
    badge.title = words;
  }
}
