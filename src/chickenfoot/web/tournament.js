// @ts-check
// An event's page (/tournaments/CODE, its address its invitation): where it stands, joining, leaving,
// pausing (an arena) and starting it (its creator), the standings with their tie-breaks stated, the
// tables, and a duplicate event's deals compared seat by seat, each person's costliest move marked as the
// match's review judged it. The server pushes each change (server-sent events, in every process): the
// page then reads the event again.

import { botTag } from "./bots.js";
import { changeAccount } from "./account-api.js";
import { byId, h, setHidden, setText } from "./dom.js";
import { language, say, seatName, t } from "./i18n.js";
import { MARK_SYMBOLS } from "./marks.js";
import { api, refusalText } from "./net.js";
import { startShell } from "./shell.js";
import { action } from "./social.js";
import { describe } from "./tournament-facts.js";

/** @typedef {import("./tournament-facts.js").EventFacts} EventFacts */
/** @typedef {{ id: number, name: string | null, bot: boolean, state: string }} Entrant */
/** @typedef {{ player: string, rank: number, score: number, matches: number, tiebreaks: (number | null)[] }} Row */
/**
 * @typedef {{ table: string, player: string | null, points: number, matchpoints: number, top: number,
 *   percent: number | null, difference: number }} SeatRow
 * @typedef {{ deal: number, tables: { table: string, players: (string | null)[], points: number[] }[],
 *   seats: { seat: number, average: number, rows: SeatRow[] }[] }} Deal
 * @typedef {{ rows: Row[], tiebreaks: string[], scoring: string | null, deals?: Deal[] }} Standings
 * @typedef {{ code: string, round: number | null, deal: number | null, seats: (number | null)[],
 *   points: number[] | null, finished_at: string | null }} TableRow
 * @typedef {EventFacts & { round: number, settings: { bot_level: string }, tiebreaks: string[], entrants: Entrant[],
 *   tables: TableRow[], standings: Standings | null }} EventPage
 * @typedef {{ entered: boolean, state: string | null, table: string | null, creator: boolean }} Mine
 */
/** @import { Said } from "./protocol.js" */
/**
 * A finished table's review as far as this page reads it: each round's costliest moves per seat.
 * @typedef {{ round: number, ply: number, loss: number, mark?: string | null, line: Said }} Costly
 * @typedef {{ rounds: { summary: { seat: number, costliest: Costly[] }[] }[] }} Reviewed
 * @typedef {Reviewed | "pending" | "none"} ReviewState
 */

/** The tie-breaks (and a duplicate event's scores) by name, as the standings state them. */
const TIEBREAKS = {
  per_match: "tournament.tiebreak.per_match",
  wins: "tournament.tiebreak.wins",
  opponents_average: "tournament.tiebreak.opponents_average",
  head_to_head: "tournament.tiebreak.head_to_head",
  game_points: "tournament.tiebreak.game_points",
  matchpoints: "tournament.tiebreak.matchpoints",
  difference: "tournament.tiebreak.difference",
};
const STATES = { paused: "tournament.paused", left: "tournament.left" };
/** @param {string} name */
const tiebreak = (name) => t(TIEBREAKS[/** @type {keyof TIEBREAKS} */ (name)]);

/** How often the page asks again for the reviews still being made (each one is the server's kept answer). */
const REVIEW_POLL_MS = 5000;

const CODE = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const API = `/api/tournaments/${encodeURIComponent(CODE)}`;

/** @param {number} value @param {number} [digits] */
const number = (value, digits = 0) =>
  new Intl.NumberFormat(language() || undefined, { maximumFractionDigits: digits, signDisplay: "auto" }).format(value);

class EventPageView {
  constructor() {
    /** @type {EventPage | null} */
    this.event = null;
    /** @type {Mine | null} */
    this.mine = null;
    this.signedIn = false;
    this.error = byId("event-error");
    /** @param {string} message */
    this.onError = (message) => setText(this.error, message);
    /** The reviews of the duplicate deals' tables, by table. @type {Map<string, ReviewState>} */
    this.reviews = new Map();
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.reviewsAgain = undefined;
  }

  async start() {
    const shell = await startShell(() => this.render());
    this.signedIn = Boolean(await shell.account);
    byId("sign-in-link", HTMLAnchorElement).href = `/signin?next=${encodeURIComponent(location.pathname)}`;
    setHidden(byId("sign-in"), this.signedIn);
    await this.load();
    // Pushed: every change of the event, then the page reads it again (the browser reconnects by itself).
    new EventSource(`${API}/events`).addEventListener("message", () => this.load());
  }

  async load() {
    try {
      this.event = await api("GET", API);
      this.mine = this.signedIn ? await api("GET", `${API}/me`) : null;
      setText(this.error, "");
      this.render();
    } catch (err) {
      setText(this.error, refusalText(err));
    }
  }

  /** A player (an account's id as text) by name; a bot's seat (null) by its level's name. */
  names() {
    /** @type {Map<string, Entrant>} */
    const byPlayer = new Map((this.event?.entrants ?? []).map((e) => [String(e.id), e]));
    /** @param {string | number | null} player @param {number} seat */
    return (player, seat) => {
      const entrant = player === null ? undefined : byPlayer.get(String(player));
      const span = h("span", { class: "who" }, null, entrant?.name ?? seatName(seat, null, this.event?.settings.bot_level));
      if (entrant?.bot) span.append(botTag());
      return span;
    };
  }

  render() {
    const event = this.event;
    if (event === null) return;
    document.title = [event.name, t("tournament.title"), t("ui.game_name")].join(" · ");
    setText(byId("event-name"), event.name);
    const facts = [describe(event), t("tournament.entrants", { count: event.entrants.length })];
    if (event.rounds && event.status === "running") facts.push(t("tournament.round_of", { round: event.round, rounds: event.rounds }));
    setText(byId("event-facts"), facts.join(" · "));
    this.renderYou(event);
    this.renderStandings(event);
    this.renderDeals(event);
    this.renderTables(event);
  }

  /** @param {EventPage} event */
  renderYou(event) {
    const mine = this.mine;
    const open = event.status === "scheduled" || event.status === "running";
    const standing = !open ? "" : mine?.state === "in" ? t("tournament.entered") : mine?.state === "paused" ? t("tournament.you_paused") : "";
    setText(byId("you"), standing);
    setHidden(byId("your-table"), !mine?.table);
    if (mine?.table) byId("your-table-link", HTMLAnchorElement).href = `/t/${encodeURIComponent(mine.table)}`;
    const buttons = [];
    if (this.signedIn && mine && open) {
      const joins = !mine.entered || mine.state === "left";
      if (joins && (event.status === "scheduled" || event.format === "arena")) buttons.push(this.post("tournament.join", "join"));
      if (!joins) buttons.push(this.post("tournament.leave", "leave"));
      if (event.format === "arena" && event.status === "running" && mine.state === "in") buttons.push(this.post("tournament.pause", "pause"));
      if (mine.state === "paused") buttons.push(this.post("tournament.resume", "resume"));
      if (mine.creator && event.status === "scheduled") buttons.push(this.post("tournament.start", "start"));
    }
    if (open) {
      const invite = action("tournament.invite", async () => {
        await navigator.clipboard.writeText(location.href);
        setText(byId("you"), t("tournament.invite_copied"));
      }, this.onError);
      buttons.push(invite);
    }
    byId("actions").replaceChildren(...buttons);
    setHidden(byId("you-card"), buttons.length === 0 && !standing && !mine?.table && this.signedIn);
  }

  /** @param {string} code @param {string} what */
  post(code, what) {
    const button = action(code, async () => {
      await changeAccount("POST", `${API}/${what}`);
      await this.load();
    }, this.onError);
    if (what === "join" || what === "start") button.classList.add("primary");
    return button;
  }

  /** @param {EventPage} event */
  renderStandings(event) {
    const standings = event.standings;
    const rows = standings?.rows ?? [];
    const name = this.names();
    const states = new Map(event.entrants.map((e) => [String(e.id), e.state]));
    const table = byId("standings");
    const score = standings?.scoring ? tiebreak(standings.scoring) : t("tournament.score");
    const headings = [t("tournament.rank"), t("ui.player"), score, t("tournament.matches"), ...event.tiebreaks.map(tiebreak)];
    const head = h("thead");
    const top = h("tr", {}, head);
    for (const heading of headings) h("th", { scope: "col" }, top, heading);
    const body = h("tbody");
    for (const row of rows) {
      const tr = h("tr", { "data-player": row.player }, body);
      h("td", {}, tr, String(row.rank));
      const who = h("td", {}, tr);
      who.append(name(row.player, 0));
      const state = states.get(row.player);
      if (state === "paused" || state === "left") who.append(" ", h("span", { class: "muted" }, null, t(STATES[state])));
      h("td", {}, tr, number(row.score, 1));
      h("td", {}, tr, String(row.matches));
      for (const value of row.tiebreaks) h("td", {}, tr, value === null ? "–" : number(value, 2));
    }
    table.replaceChildren(head, body);
    setHidden(table, rows.length === 0);
    setHidden(byId("nobody"), rows.length > 0 || event.entrants.length > 0);
    byId("tiebreaks").textContent = event.tiebreaks.map(tiebreak).join(", ");
  }

  /** @param {EventPage} event */
  renderDeals(event) {
    const deals = event.standings?.deals ?? [];
    setHidden(byId("deals-card"), deals.length === 0);
    const name = this.names();
    byId("deals").replaceChildren(
      ...deals.map((deal) => {
        // Scrolled sideways on a phone: a group the keyboard can reach and scroll, named by its deal.
        const named = t("tournament.deal", { deal: deal.deal });
        const wrap = h("div", { class: "scroll", tabindex: "0", role: "group", "aria-label": named });
        const table = h("table", { class: "deal", "data-deal": String(deal.deal) }, wrap);
        h("caption", {}, table, named);
        const top = h("tr", {}, h("thead", {}, table));
        h("th", { scope: "col" }, top, t("tournament.tables"));
        for (const seat of deal.seats) h("th", { scope: "col" }, top, t("ui.seat", { seat: seat.seat + 1 }));
        const body = h("tbody", {}, table);
        for (const played of deal.tables) {
          const tr = h("tr", { "data-table": played.table }, body);
          h("th", { scope: "row" }, tr).append(h("a", { href: `/r/${encodeURIComponent(played.table)}` }, null, t("tournament.table", { table: played.table })));
          for (const seat of deal.seats) {
            const cell = seat.rows.find((r) => r.table === played.table);
            // The result that beat every other one at its seat stands out.
            const td = h("td", { class: cell && cell.top > 0 && cell.matchpoints === cell.top ? "best" : "" }, tr);
            if (!cell) continue;
            td.append(name(cell.player, seat.seat));
            const difference = `${cell.difference > 0 ? "+" : ""}${number(cell.difference, 1)}`;
            const percent = cell.percent === null ? "–" : `${number(cell.percent)} %`;
            h("span", { class: "figures" }, td, `${cell.points} · ${percent} · ${difference}`);
            if (cell.player !== null) this.decisive(played.table, seat.seat, td);
          }
        }
        return wrap;
      }),
    );
    void this.askReviews(deals.flatMap((deal) => deal.tables.map((played) => played.table)));
  }

  /**
   * The seat's costliest move at the table, as its review marked it (none judged worse than good: nothing),
   * linked to that move in the replay.
   * @param {string} table @param {number} seat @param {HTMLElement} cell
   */
  decisive(table, seat, cell) {
    const review = this.reviews.get(table);
    if (review === undefined || typeof review === "string") return;
    /** @type {Costly | null} */
    let worst = null;
    for (const round of review.rounds) {
      for (const costly of round.summary.find((s) => s.seat === seat)?.costliest ?? []) {
        if (worst === null || costly.loss > worst.loss) worst = costly;
      }
    }
    const symbol = worst?.mark ? MARK_SYMBOLS[worst.mark] : undefined;
    if (!worst || !symbol) return;
    const words = say(worst.line);
    const link = h("a", { class: "decisive", href: `/r/${encodeURIComponent(table)}#r${worst.round}m${worst.ply + 1}` }, cell);
    link.setAttribute("aria-label", [t("review.costliest"), words].join(" "));
    h("span", { class: "mark", "aria-hidden": "true" }, link, symbol);
    link.append(` ${words}`);
  }

  /**
   * Ask for the reviews of ``tables`` not asked for yet (the server reviews every finished match by
   * itself), and again every few seconds for those still being made; the deals are drawn again with them.
   * @param {string[]} tables
   */
  async askReviews(tables) {
    const asked = tables.filter((table) => !this.reviews.has(table));
    if (!asked.length) return;
    for (const table of asked) this.reviews.set(table, "pending");
    await Promise.all(asked.map((table) => this.askReview(table)));
    if (this.event) this.renderDeals(this.event);
    const pending = [...this.reviews].filter(([, review]) => review === "pending").map(([table]) => table);
    if (pending.length && this.reviewsAgain === undefined) {
      this.reviewsAgain = setTimeout(() => {
        this.reviewsAgain = undefined;
        for (const table of pending) this.reviews.delete(table);
        void this.askReviews(pending);
      }, REVIEW_POLL_MS);
    }
  }

  /** @param {string} table */
  async askReview(table) {
    try {
      /** @type {{ status: string, review?: Reviewed }} */
      const answer = await api("GET", `/api/tables/${encodeURIComponent(table)}/review`);
      const failed = answer.status === "failed";
      this.reviews.set(table, answer.review ?? (failed ? "none" : "pending"));
    } catch {
      this.reviews.set(table, "none"); // refused (a table gone, a flood answered): the cell shows no mark
    }
  }

  /** @param {EventPage} event */
  renderTables(event) {
    const name = this.names();
    byId("tables").replaceChildren(
      ...[...event.tables].reverse().map((table) => {
        const li = h("li", { "data-table": table.code });
        const over = table.finished_at !== null;
        h("a", { href: over ? `/r/${encodeURIComponent(table.code)}` : `/t/${encodeURIComponent(table.code)}` }, li, t("tournament.table", { table: table.code }));
        if (table.round !== null) li.append(h("span", { class: "muted" }, null, t("tournament.round_of", { round: table.round, rounds: event.rounds ?? table.round })));
        table.seats.forEach((seat, index) => {
          const who = name(seat, index);
          if (table.points) who.append(` ${table.points[index]}`);
          li.append(who);
        });
        if (!over) li.append(h("span", { class: "muted" }, null, t("tournament.in_play")));
        return li;
      }),
    );
  }
}

new EventPageView().start();
