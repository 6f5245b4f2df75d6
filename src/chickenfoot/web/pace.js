// @ts-check
// Turn-based tables ("at your own pace"): the pace chosen when a table is made, the pace and the time
// left shown at the table, and the top bar's count of the tables that wait for a signed-in player,
// linking to the one with the least time left (GET /api/turns). Times are said in the page's language.

import { h, setHidden } from "./dom.js";
import { Drawn } from "./drawn.js";
import { language, t } from "./i18n.js";
import { api } from "./net.js";

/** @import { Pace, State } from "./protocol.js" */

const HOUR = 3600;
const DAY = 86_400;
/** The times per move a table may have, in seconds (server/table/config.py MOVE_TIMES). */
export const MOVE_TIMES = [HOUR, 12 * HOUR, DAY, 2 * DAY, 3 * DAY, 7 * DAY];
/** What happens when a player's time runs out (server/table/config.py TIMEOUT_RULES). */
export const TIMEOUT_RULES = ["move", "replace", "lose"];
const POLL_MS = 60_000;

/**
 * A time per move in words: "12 hours", "2 days".
 * @param {number} seconds
 */
export function moveTime(seconds) {
  return seconds % DAY === 0 ? t("pace.days", { count: seconds / DAY }) : t("pace.hours", { count: seconds / HOUR });
}

/** Each rule for a time run out, in words. @type {Record<string, () => string>} */
const RULE_WORDS = {
  move: () => t("pace.rule.move"),
  replace: () => t("pace.rule.replace"),
  lose: () => t("pace.rule.lose"),
};

/** @param {string} rule */
export function ruleWords(rule) {
  return RULE_WORDS[rule]?.() ?? rule;
}

/**
 * The table's pace as everyone there is shown it.
 * @param {Pace} pace
 */
export function paceWords(pace) {
  return t("pace.summary", { time: moveTime(pace.move_seconds), rule: ruleWords(pace.on_timeout) });
}

/**
 * A moment (seconds since the epoch) as a reader says it: weekday, date and time in their language.
 * @param {number} at
 */
export function when(at) {
  const format = new Intl.DateTimeFormat(language(), {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  });
  return format.format(new Date(at * 1000));
}

/**
 * The create form's pace: real-time or at one's own pace, with the time per move and the rule when it
 * runs out (shown only for a turn-based table; losing on time only with two players).
 * @param {HTMLSelectElement} kind
 * @param {HTMLSelectElement} time
 * @param {HTMLSelectElement} rule
 * @param {HTMLElement} details the rows shown for a turn-based table
 * @param {() => number} players
 * @returns {{ draw: () => void, chosen: () => Pace | null }}
 */
export function paceChoice(kind, time, rule, details, players) {
  const draw = () => {
    const [was, wasTime, wasRule] = [kind.value || "live", time.value || String(DAY), rule.value || "move"];
    kind.replaceChildren(new Option(t("pace.live"), "live"), new Option(t("pace.turn_based"), "turn"));
    time.replaceChildren(...MOVE_TIMES.map((seconds) => new Option(moveTime(seconds), String(seconds))));
    const rules = TIMEOUT_RULES.filter((r) => r !== "lose" || players() === 2);
    rule.replaceChildren(...rules.map((r) => new Option(ruleWords(r), r)));
    kind.value = was;
    time.value = wasTime;
    rule.value = rules.includes(wasRule) ? wasRule : "move";
    setHidden(details, kind.value !== "turn");
  };
  kind.addEventListener("change", draw);
  draw();
  return {
    draw,
    chosen: () =>
      kind.value === "turn" ? { move_seconds: Number(time.value), on_timeout: /** @type {Pace["on_timeout"]} */ (rule.value) } : null,
  };
}

/** The tables waiting for the account, the least time left first (GET /api/turns). @typedef {{ count: number, tables: { table: string, seat: number, due: number }[] }} Waiting */

/**
 * The top bar's "N tables wait for you", a link to the one with the least time left (signed in only).
 */
export class TurnsLink {
  /** @param {HTMLAnchorElement} link */
  constructor(link) {
    this.link = link;
    /** @type {Waiting | null} */
    this.waiting = null;
  }

  start() {
    this.refresh();
    window.setInterval(() => this.refresh(), POLL_MS);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.refresh();
    });
  }

  async refresh() {
    try {
      this.waiting = await api("GET", "/api/turns");
    } catch {
      return; // signed out meanwhile, or the server is away: the link keeps what it showed
    }
    this.draw();
  }

  draw() {
    const waiting = this.waiting;
    // The table this page shows waits for nobody elsewhere: the link goes to the next one.
    const here = /^\/t\/([A-Z0-9]{1,16})$/.exec(location.pathname)?.[1];
    const others = (waiting?.tables ?? []).filter((entry) => entry.table !== here);
    setHidden(this.link, !waiting || !waiting.count);
    if (!waiting || !waiting.count) return;
    // The words, or on a phone's narrow bar the count alone (style.css); the link is named by the words.
    const words = t("pace.waiting", { count: waiting.count });
    this.link.replaceChildren(h("span", { class: "turns-count" }, null, String(waiting.count)), h("span", { class: "turns-words" }, null, words));
    this.link.setAttribute("aria-label", words);
    const next = others[0] ?? waiting.tables[0];
    this.link.href = `/t/${next.table}`;
    this.link.title = t("pace.time_left", { time: left(next.due) }); // at the next one
  }
}

/**
 * The time left until `due` (seconds since the epoch), roughly, as people say it: "5 hours", "2 days".
 * @param {number} due
 */
export function left(due) {
  const seconds = Math.max(0, due - Date.now() / 1000);
  if (seconds >= 2 * DAY) return t("pace.days", { count: Math.floor(seconds / DAY) });
  return t("pace.hours", { count: Math.max(0, Math.floor(seconds / HOUR)) });
}

/**
 * The table's lines about its pace: the rule for everyone, whose move it is and until when, and who is
 * on vacation (none at a real-time table).
 * @param {State} s
 * @param {(string)[]} names each seat's name
 * @returns {string[]}
 */
export function paceLines(s, names) {
  if (!s.pace) return [];
  const lines = [paceWords(s.pace)];
  if (s.turn_deadline && s.status === "playing") {
    const until = when(s.turn_deadline);
    lines.push(s.to_move === s.seat ? t("pace.your_deadline", { when: until }) : t("pace.deadline", { name: names[s.to_move], when: until }));
  }
  const now = Date.now() / 1000;
  (s.away ?? []).forEach((away, seat) => {
    if (away && away[0] <= now && now < away[1]) lines.push(t("pace.away", { name: names[seat], when: when(away[1]) }));
  });
  return lines;
}

/** The table's pace line, under the board (turn-based tables only). */
export class PaceLine {
  /** @param {HTMLElement} box */
  constructor(box) {
    this.box = box;
    /** @type {Drawn<string[]>} */
    this.drawn = new Drawn((lines) => {
      setHidden(this.box, !lines.length);
      this.box.replaceChildren(...lines.map((line) => h("span", {}, null, line)));
    });
  }

  /** @param {string[]} lines */
  update(lines) {
    this.drawn.update(lines);
  }
}
