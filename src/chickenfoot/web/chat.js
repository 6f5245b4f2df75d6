// The table's chat: lines as plain text (never markup), quick reactions in the reader's language,
// a spectator's lines marked, and a mute switch remembered in this browser. Lines that come while the
// chat is out of sight (below the board on a phone) are counted on a badge by the board, which
// brings the chat into view.

import { say, seatName, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const MUTE = "cf-chat-muted";
const KEPT = 50; // the server keeps (and sends on connecting) the last 50 lines

// A speech bubble, for the badge.
const bubble = document.createElementNS("http://www.w3.org/2000/svg", "svg");
bubble.setAttribute("viewBox", "0 0 24 24");
bubble.setAttribute("aria-hidden", "true");
bubble.innerHTML = '<path d="M4 5h16v11H10l-4 4v-4H4z"/>';

export class Chat {
  constructor(send) {
    this.send = send;
    this.lines = new Map(); // number → line: a line announced while the history loads comes once
    this.names = [];
    this.unseen = 0; // lines that came while muted
    this.unread = 0; // lines that came while the chat was out of sight
    this.inView = true;
    this.muted = localStorage.getItem(MUTE) === "1";
    $("chat-mute").checked = this.muted;
    $("chat-mute").addEventListener("change", () => {
      this.muted = $("chat-mute").checked;
      localStorage.setItem(MUTE, this.muted ? "1" : "0");
      this.unseen = 0;
      this.render();
    });
    $("chat-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("chat-text").value.trim();
      if (!text) return;
      this.send({ type: "chat", text });
      $("chat-text").value = "";
    });
    new IntersectionObserver(([entry]) => {
      this.inView = entry.isIntersecting;
      if (this.inView && this.unread) {
        this.unread = 0;
        this.renderBadge();
      }
    }).observe($("chat-log"));
    $("chat-badge").addEventListener("click", () => {
      $("chat").scrollIntoView({ block: "nearest", behavior: "smooth" });
      $("chat-text").focus({ preventScroll: true });
    });
    for (const button of document.querySelectorAll("#reactions [data-reaction]")) {
      button.addEventListener("click", () => this.send({ type: "react", reaction: button.dataset.reaction }));
    }
  }

  // A `chat` message of the server: the kept lines on connecting, or one new line.
  receive(message) {
    for (const line of message.lines ?? [message.line]) {
      const fresh = !this.lines.has(line.n) && message.line;
      if (fresh && this.muted) this.unseen += 1;
      else if (fresh && !this.inView) this.unread += 1;
      this.lines.set(line.n, line);
    }
    const numbers = [...this.lines.keys()].sort((a, b) => a - b);
    for (const n of numbers.slice(0, Math.max(0, numbers.length - KEPT))) this.lines.delete(n);
    this.render();
  }

  // Who said it: the seat's current name, or "Spectator".
  speaker(line) {
    return line.spectator ? t("chat.watcher") : (this.names[line.seat] ?? seatName(line.seat));
  }

  render(names = this.names) {
    this.names = names;
    const log = $("chat-log");
    log.hidden = this.muted;
    $("chat-muted").hidden = !this.muted;
    $("chat-muted").textContent = t("chat.muted", { count: this.unseen });
    const lines = [...this.lines.values()].sort((a, b) => a.n - b.n);
    log.replaceChildren(
      ...lines.map((line) => {
        const li = document.createElement("li");
        li.classList.toggle("spectator", line.spectator);
        li.classList.toggle("reaction", !!line.code);
        const who = document.createElement("b");
        who.textContent = this.speaker(line);
        const what = document.createElement("span");
        // Plain text only: whatever a player typed is shown as typed.
        what.textContent = line.code ? say(line, names) : line.text;
        li.append(who, " ", what);
        return li;
      }),
    );
    log.scrollTop = log.scrollHeight;
    this.renderBadge();
  }

  renderBadge() {
    const badge = $("chat-badge");
    badge.hidden = !this.unread || this.muted;
    badge.replaceChildren(bubble.cloneNode(true), String(this.unread));
    const words = t("chat.unread", { count: this.unread });
    badge.setAttribute("aria-label", words);
    badge.title = words;
  }
}
