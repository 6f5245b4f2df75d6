// @ts-check
// The replay of a finished match at /r/CODE: every position as the server computed it (all hands
// face up), stepped through by buttons, keys and links (#r3m17: round 3 after its 17th move), with
// the background review's marks and a chart per round once the server has them. Every word is the
// catalog's (i18n.js); the review's verdicts come from the server as messages.

import { Board } from "./board.js";
import { botTag } from "./bots.js";
import { byId, h } from "./dom.js";
import { say, seatNames, t } from "./i18n.js";
import { MARK_SYMBOLS } from "./marks.js";
import { Refusal, api, refusalText } from "./net.js";
import { startShell } from "./shell.js";
import { TableSocial } from "./tablesocial.js";
import { el, tileSvg } from "./tiles.js";

/** @import { LogEntry, Rules, Said } from "./protocol.js" */

/**
 * The finished match's overview (REPLAY, docs/protocol.md).
 * @typedef {{ names: (string | null)[], bots?: (string | null)[], bot_accounts?: boolean[], deleted?: number[], players: number,
 *   rules: Rules, rounds: { round: number, start_double: number, moves: number }[],
 *   lost_on_time?: { seat: number, round: number, move: number, at: number } | null }} Overview
 */
/**
 * One position of a round, hands face up (FRAME).
 * @typedef {{ layout: [string, string | null][], open_ends: [string, number][], hands: string[][], boneyard: string[],
 *   to_move: number, entry: LogEntry | null, points: number[] | null }} Frame
 */
/** A reviewed move: its mark, its verdict and numbers, and the expected final points after it. @typedef {{ seat: number, mark: string | null, verdict?: Said, explanation: Said, expected: number[] }} Reviewed */
/**
 * The background review of the match, per round.
 * @typedef {{ budget: number, rounds: { moves: Reviewed[], summary: { seat: number, loss_per_move: number, accuracy: number,
 *   costliest: { round: number, ply: number, loss: number, mark?: string | null, line: Said }[] }[] }[] }} Review
 */
/** How the review is coming along. @typedef {{ status: string, done?: number, total?: number, refusal?: Partial<Said> }} Progress */

const $ = byId;
const REVIEW_POLL_MS = 1500;
const LINK_SHOWN_MS = 2500;
const SEAT_COLOURS = ["#e8590c", "#1c7ed6", "#2f9e44", "#ae3ec9", "#f08c00", "#0ca678", "#d6336c", "#5c7cfa"];

class ReplayPage {
  /** @param {string} code */
  constructor(code) {
    this.code = code;
    /** @type {Overview | null} the server's overview: names, rounds, totals */
    this.match = null;
    /** @type {Map<number, Frame[]>} round number → its positions */
    this.frames = new Map();
    /** @type {Review | null} the stored review, once done */
    this.review = null;
    /** @type {Progress | null} */
    this.progress = null;
    /** @type {Partial<Said> | null} the server's message when it refused the replay */
    this.refusal = null;
    this.round = 1;
    this.move = 0; // moves played in the round so far: frames[move] is shown
    /** @type {ReturnType<typeof setInterval> | null} */
    this.timer = null;
    this.board = new Board($("board", SVGSVGElement), () => {});
  }

  // The seats' names in the reader's current language.
  get names() {
    return this.match ? seatNames(this.match) : [];
  }

  get overview() {
    if (!this.match) throw new Error("the replay is not loaded");
    return this.match;
  }

  async start() {
    // The board and the tiles name themselves in the reader's language: the catalog comes first.
    const shell = await startShell(() => {
      this.translate();
      if (this.match) this.render();
      else if (this.refusal) $("replay-error").textContent = say(this.refusal);
    });
    this.translate();
    try {
      this.match = await api("GET", `/api/tables/${this.code}/replay`);
    } catch (error) {
      this.refusal = error instanceof Refusal ? error.said : { detail: refusalText(error) };
      const box = $("replay-error");
      box.hidden = false;
      box.textContent = say(this.refusal);
      return;
    }
    $("replay").hidden = false;
    const room = $("room", HTMLAnchorElement);
    room.textContent = this.code;
    room.href = `/t/${this.code}`;
    for (const r of this.overview.rounds) h("option", { value: r.round }, $("round"), `${r.round} (${r.start_double}-${r.start_double})`);
    this.bind();
    await this.goToHash();
    this.pollReview();
    if (await shell.account) this.offerFollows();
  }

  // A signed-in reader may follow the match's players with an account (its players are public once it is over).
  offerFollows() {
    const notice = $("follow-notice");
    const social = new TableSocial(this.code, (text) => (notice.textContent = text));
    social.signedIn = true;
    $("follows").replaceChildren(social.followRow(this.names));
  }

  // The fixed words, in the language just chosen (the rest is drawn by render()).
  translate() {
    document.title = t("replay.title");
    this.showPlaying();
  }

  bind() {
    const round = $("round", HTMLSelectElement);
    const scrub = $("scrub", HTMLInputElement);
    const speed = $("speed", HTMLSelectElement);
    const copy = $("copy-link");
    round.addEventListener("change", () => this.go(Number(round.value), 0));
    $("first").addEventListener("click", () => this.go(this.round, 0));
    $("last").addEventListener("click", () => this.go(this.round, this.lastMove));
    $("back").addEventListener("click", () => this.step(-1));
    $("forward").addEventListener("click", () => this.step(1));
    $("play").addEventListener("click", () => this.togglePlay());
    scrub.addEventListener("input", () => this.go(this.round, Number(scrub.value)));
    speed.addEventListener("change", () => {
      if (this.timer) this.togglePlay(), this.togglePlay();
    });
    $("zoom-in").addEventListener("click", () => this.board.zoom(1.25));
    $("zoom-out").addEventListener("click", () => this.board.zoom(0.8));
    $("zoom-fit").addEventListener("click", () => this.board.fit());
    copy.addEventListener("click", async () => {
      const link = `${location.origin}/r/${this.code}#r${this.round}m${this.move}`;
      try {
        await navigator.clipboard.writeText(link);
        copy.textContent = t("table.link_copied");
      } catch {
        copy.textContent = link;
      }
      setTimeout(() => (copy.textContent = t("replay.link")), LINK_SHOWN_MS);
    });
    window.addEventListener("hashchange", () => this.goToHash());
    document.addEventListener("keydown", (e) => {
      if (e.target instanceof Element && e.target.closest("select, input") && e.key !== " ") return;
      /** @type {Record<string, () => void>} */
      const keys = {
        ArrowLeft: () => this.step(-1),
        ArrowRight: () => this.step(1),
        Home: () => this.go(this.round, 0),
        End: () => this.go(this.round, this.lastMove),
        " ": () => this.togglePlay(),
      };
      if (!keys[e.key]) return;
      e.preventDefault();
      keys[e.key]();
    });
  }

  get lastMove() {
    return this.overview.rounds[this.round - 1].moves;
  }

  async goToHash() {
    const found = location.hash.match(/^#r(\d+)m(\d+)$/);
    if (found) await this.go(Number(found[1]), Number(found[2]));
    else await this.go(this.round, this.move);
  }

  /**
   * @param {number} round
   * @returns {Promise<Frame[]>}
   */
  async framesOf(round) {
    let frames = this.frames.get(round);
    if (!frames) {
      /** @type {{ frames: Frame[] }} */
      const data = await api("GET", `/api/tables/${this.code}/replay/${round}`);
      frames = data.frames;
      this.frames.set(round, frames);
    }
    return frames;
  }

  /**
   * Show round `round` after `move` moves (both clamped to what was played).
   * @param {number} round
   * @param {number} move
   */
  async go(round, move) {
    round = Math.min(Math.max(1, round), this.overview.rounds.length);
    const frames = await this.framesOf(round);
    const roundChanged = round !== this.round;
    this.round = round;
    this.move = Math.min(Math.max(0, move), frames.length - 1);
    history.replaceState(null, "", `#r${this.round}m${this.move}`);
    if (roundChanged) this.board.fitted = true;
    this.render();
  }

  /** @param {number} delta */
  async step(delta) {
    const next = this.move + delta;
    if (next < 0 && this.round > 1) {
      const previous = this.round - 1;
      await this.go(previous, this.overview.rounds[previous - 1].moves);
    } else if (next > this.lastMove && this.round < this.overview.rounds.length) {
      await this.go(this.round + 1, 0);
    } else {
      await this.go(this.round, next);
    }
  }

  togglePlay() {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    } else {
      this.timer = setInterval(() => {
        const atEnd = this.move >= this.lastMove && this.round >= this.overview.rounds.length;
        if (atEnd) this.togglePlay();
        else this.step(1);
      }, Number($("speed", HTMLSelectElement).value));
    }
    this.showPlaying();
  }

  showPlaying() {
    $("play").textContent = this.timer ? "❚❚" : "▶";
    $("play").setAttribute("aria-label", this.timer ? t("replay.pause") : t("replay.play"));
  }

  // --- drawing ------------------------------------------------------------------------------

  get frame() {
    const frames = this.frames.get(this.round);
    if (!frames) throw new Error(`round ${this.round} is not loaded`);
    return frames[this.move];
  }

  /**
   * @param {number} round
   * @param {number} ply
   */
  reviewed(round, ply) {
    return this.review?.rounds[round - 1]?.moves[ply] ?? null;
  }

  render() {
    const f = this.frame;
    const m = this.overview;
    $("round", HTMLSelectElement).value = String(this.round);
    const scrub = $("scrub", HTMLInputElement);
    scrub.max = String(this.lastMove);
    scrub.value = String(this.move);
    $("counter").textContent = t("replay.counter", { move: this.move, moves: this.lastMove });
    $("replay").dataset.round = String(this.round);
    $("replay").dataset.move = String(this.move);
    const { hub_arms: arms = 4, toes = 3 } = m.rules;
    this.board.update({ layout: f.layout, arms, toes, openEnds: f.open_ends, targets: [], hint: null });
    const late = m.lost_on_time;
    const ranOut = late && late.round === this.round && late.move === this.move; // where the match ended
    $("status").textContent = ranOut
      ? t("event.lost_on_time", { name: this.names[late.seat] })
      : f.points
        ? t("replay.round_over", { round: this.round, points: f.points.map((p, s) => `${this.names[s]} ${p}`).join(", ") })
        : t("replay.status", { round: this.round, name: this.names[f.to_move] });
    $("status").classList.toggle("lost-on-time", Boolean(ranOut));
    this.renderHands(f);
    this.renderMove(f);
    this.renderLog();
    this.renderReview();
    this.renderChart();
  }

  /** @param {Frame} f */
  renderHands(f) {
    const box = $("hands");
    box.replaceChildren();
    f.hands.forEach((hand, seat) => {
      const player = h("div", { class: `player${seat === f.to_move ? " turn" : ""}`, "data-seat": seat });
      const name = h("span", { class: "name" }, player);
      name.textContent = this.names[seat];
      if (this.overview.bot_accounts?.[seat]) name.append(botTag()); // as the table's player cards tag it
      const tiles = h("span", { class: "revealed", "data-hand": seat }, player);
      for (const tile of hand) tiles.appendChild(tileSvg(tile));
      const count = h("span", { class: "count" }, player);
      count.textContent = f.points ? t("round.points", { count: f.points[seat] }) : String(hand.length);
      box.appendChild(player);
    });
    const bone = $("boneyard");
    bone.replaceChildren();
    bone.dataset.count = String(f.boneyard.length);
    for (const tile of f.boneyard) bone.appendChild(tileSvg(tile));
    if (!f.boneyard.length) bone.textContent = t("replay.empty");
  }

  /** @param {Frame} f */
  renderMove(f) {
    const card = $("move-card");
    card.replaceChildren();
    const what = h("p", {}, card);
    what.textContent = f.entry ? `${this.move}. ${say(f.entry, this.names)}` : t("replay.deal");
    const r = f.entry ? this.reviewed(this.round, this.move - 1) : null;
    if (r?.verdict) {
      const verdict = h("p", { class: `verdict mark-${r.mark}` }, card);
      verdict.textContent = say(r.verdict, this.names);
      const numbers = h("p", { class: "numbers" }, card);
      numbers.textContent = say(r.explanation, this.names);
    }
  }

  renderLog() {
    const log = $("log");
    log.replaceChildren();
    const frames = this.frames.get(this.round) ?? [];
    for (let i = 1; i <= this.move; i++) {
      const item = h("li", { "data-move": i }, log);
      item.textContent = `${i}. ${say(frames[i].entry ?? {}, this.names)}`;
      const r = this.reviewed(this.round, i - 1);
      if (r?.verdict && r.mark && r.mark !== "good") {
        h("span", { class: `mark mark-${r.mark}`, title: say(r.verdict, this.names) }, item, MARK_SYMBOLS[r.mark]);
      }
      item.addEventListener("click", () => this.go(this.round, i));
      if (i === this.move) item.classList.add("current");
    }
    log.scrollTop = log.scrollHeight; // the log alone scrolls, never the page
  }

  async pollReview() {
    try {
      /** @type {Progress & { review?: Review }} */
      const data = await api("GET", `/api/tables/${this.code}/review`);
      if (data.status === "done" && data.review) {
        this.review = data.review;
        this.render();
        return;
      }
      this.progress = data;
      this.renderReview();
    } catch (error) {
      this.progress = { status: "failed", refusal: error instanceof Refusal ? error.said : { detail: refusalText(error) } };
      this.renderReview();
      return;
    }
    setTimeout(() => this.pollReview(), REVIEW_POLL_MS);
  }

  renderReview() {
    const box = $("review");
    box.replaceChildren();
    if (!this.review) {
      const p = this.progress;
      const note = h("p", { class: "review-progress" }, box);
      if (!p || p.status === "queued" || p.status === "busy") note.textContent = t("review.waiting");
      else if (p.status === "running") {
        note.textContent = t("review.running", { done: p.done, count: p.total });
        h("progress", { max: p.total ?? 0, value: p.done ?? 0, "aria-label": t("review.progress") }, box);
      } else note.textContent = p.refusal ? say(p.refusal) : t("review.failed");
      return;
    }
    box.dataset.done = "true";
    const round = this.review.rounds[this.round - 1];
    const table = h("table", { class: "review-table" }, box);
    const head = h("tr", {}, table);
    for (const title of ["", t("review.lost_per_move"), t("review.accuracy")]) h("th", {}, head).textContent = title;
    for (const s of round.summary) {
      const row = h("tr", {}, table);
      const name = h("td", {}, row);
      name.style.color = SEAT_COLOURS[s.seat % SEAT_COLOURS.length]; // CSSOM, not a style attribute: the CSP allows it
      name.textContent = this.names[s.seat];
      h("td", {}, row).textContent = s.loss_per_move.toFixed(2).replace(".", t("number.decimal_sign"));
      h("td", {}, row).textContent = t("number.percent", { value: Math.round(s.accuracy) });
      if (!s.costliest.length) continue;
      const worst = h("td", { class: "costliest", colspan: 3 }, h("tr", {}, table));
      worst.textContent = t("review.costliest") + " ";
      for (const c of s.costliest) {
        const a = h("a", { href: `#r${c.round}m${c.ply + 1}` }, worst);
        a.textContent = say(c.line, this.names);
      }
    }
    const note = h("p", { class: "numbers" }, box);
    note.textContent = t("review.note", { count: this.review.budget });
  }

  // Each seat's expected final points after every move, as its mover saw them; a line marks the move shown.
  renderChart() {
    const svg = $("chart", SVGSVGElement);
    svg.replaceChildren();
    if (!this.review) {
      svg.setAttribute("hidden", "");
      return;
    }
    svg.removeAttribute("hidden");
    const moves = this.review.rounds[this.round - 1].moves;
    const W = 300;
    const H = 120;
    const pad = 18;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const top = Math.max(10, ...moves.flatMap((m) => m.expected));
    /** @param {number} i */
    const x = (i) => pad + ((W - pad - 4) * i) / Math.max(1, moves.length);
    /** @param {number} v */
    const y = (v) => H - pad - ((H - pad - 6) * v) / top;
    el("line", { x1: pad, y1: H - pad, x2: W - 4, y2: H - pad, class: "axis" }, svg);
    el("line", { x1: pad, y1: 6, x2: pad, y2: H - pad, class: "axis" }, svg);
    el("text", { x: 2, y: 12, class: "chart-label" }, svg).textContent = String(Math.round(top));
    el("text", { x: 2, y: H - pad, class: "chart-label" }, svg).textContent = "0";
    el("text", { x: W - 4, y: H - 4, class: "chart-label", "text-anchor": "end" }, svg).textContent = t("replay.chart_moves");
    for (let seat = 0; seat < this.overview.players; seat++) {
      const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length];
      const points = moves.map((m, i) => `${x(i + 1).toFixed(1)},${y(m.expected[seat]).toFixed(1)}`).join(" ");
      el("polyline", { points, class: "series", stroke: colour }, svg);
      const name = el("text", { x: pad + 6 + seat * 60, y: H - 4, class: "chart-label", fill: colour, "font-weight": 700 }, svg);
      name.textContent = this.names[seat];
    }
    moves.forEach((m, i) => {
      if (!m.mark || m.mark === "good") return;
      const dot = el("circle", { cx: x(i + 1), cy: y(m.expected[m.seat]), r: 3, class: `dot mark-${m.mark}` }, svg);
      dot.addEventListener("click", () => this.go(this.round, i + 1));
    });
    el("line", { x1: x(this.move), y1: 6, x2: x(this.move), y2: H - pad, class: "cursor" }, svg);
  }
}

new ReplayPage(decodeURIComponent(location.pathname.split("/r/")[1] ?? "").toUpperCase()).start();
