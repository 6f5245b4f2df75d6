// @ts-check
// A player's profile (/u/NAME): member since, finished matches played and won by player count, the
// accuracy of the latest reviewed matches (an SVG chart), and a page of recent matches. A name nobody
// has is answered 404, and the page says so in the reader's language. A signed-in visitor may follow,
// challenge, block or report the player from here.

import { FAMILY_NAMES, botTag, challengeButton } from "./bots.js";
import { byId, h } from "./dom.js";
import { day, matchTable, pager, percent } from "./history.js";
import { say, t } from "./i18n.js";
import { askName, savedName } from "./name.js";
import { Refusal, api, refusalText } from "./net.js";
import { drawRatingHistory, ratingText } from "./rating.js";
import { startShell } from "./shell.js";
import { action, block, challenge, follow, relation, report, unblock, unfollow } from "./social.js";
import { el } from "./tiles.js";

/** @import { MatchEntry, Paged } from "./history.js" */
/** @import { Said } from "./protocol.js" */
/** @import { Relation } from "./social.js" */

/**
 * A player's profile (GET /api/players/NAME).
 * @typedef {Paged & { username: string, bot: boolean, member_since: string, played: number, won: number,
 *   by_players: { players: number, played: number, won: number }[], accuracy: AccuracyPoint[], matches: MatchEntry[] }} Profile
 */
/** A reviewed match's accuracy. @typedef {{ code: string, at: string, accuracy: number }} AccuracyPoint */
/**
 * A player's ratings (GET /api/ratings/NAME), per player-count family.
 * @typedef {{ families: Record<string, { matches: number, rating: number, provisional: boolean, rank: number | null, history: { at: string, before: number, rating: number }[] }> }} Ratings
 */

// The ratings' sections: per player-count family the player has played rated, the rating (with
// "?" while provisional), the rank among active players and the history chart.
/** @param {Ratings | null} ratings */
function ratingSections(ratings) {
  if (ratings === null) return [];
  return Object.entries(ratings.families)
    .filter(([, family]) => family.matches > 0)
    .map(([family, rated]) => {
      const id = `rating-title-${family}`;
      const section = h("section", { class: "card", "aria-labelledby": id });
      h("h2", { id }, section, t("rating.profile_title", { family: t(FAMILY_NAMES[family]) }));
      const rating = ratingText(rated.rating, rated.provisional);
      const now = rated.rank === null ? rating : t("rating.ranked", { rating, rank: rated.rank });
      h("p", { class: "rating-now" }, section, now);
      drawRatingHistory(h("div", { class: "rating-chart" }, section), rated.history);
      return section;
    });
}

/** @param {Profile} profile */
function tallies(profile) {
  const section = h("section", { class: "card", "aria-labelledby": "tally-title" });
  h("h2", { id: "tally-title" }, section, t("profile.tally"));
  const table = h("table", { class: "tally" }, section);
  const head = h("tr", {}, h("thead", {}, table));
  for (const code of ["profile.tally_players", "profile.played", "profile.won"]) h("th", { scope: "col" }, head, t(code));
  const body = h("tbody", {}, table);
  for (const row of profile.by_players) {
    const tr = h("tr", {}, body);
    h("th", { scope: "row" }, tr, String(row.players));
    h("td", {}, tr, String(row.played));
    h("td", {}, tr, String(row.won));
  }
  const total = h("tr", { class: "total" }, body);
  h("th", { scope: "row" }, total, t("ui.total"));
  h("td", {}, total, String(profile.played));
  h("td", {}, total, String(profile.won));
  return section;
}

// Accuracy per reviewed match, oldest to newest: a line over a 0–100 % scale, a dot per match
// (its date and accuracy as the dot's title, and in a list of links to the reviews for screen readers).
/** @param {AccuracyPoint[]} points */
function accuracyChart(points) {
  const section = h("section", { class: "card", "aria-labelledby": "accuracy-title" });
  h("h2", { id: "accuracy-title" }, section, t("profile.accuracy"));
  if (points.length === 0) {
    h("p", { class: "muted" }, section, t("profile.accuracy_none"));
    return section;
  }
  const W = 400, H = 160, pad = 28;
  // The picture is for the eye; the list after it says the same (with links to the reviews) to a screen reader.
  const chart = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "accuracy-chart", "aria-hidden": "true" }, section);
  /** @param {number} i */
  const x = (i) => pad + (points.length === 1 ? (W - 2 * pad) / 2 : (i * (W - 2 * pad)) / (points.length - 1));
  /** @param {number} value */
  const y = (value) => H - pad - (value / 100) * (H - 2 * pad);
  for (const level of [0, 50, 100]) {
    el("line", { x1: pad, x2: W - pad, y1: y(level), y2: y(level), class: "grid" }, chart);
    el("text", { x: pad - 4, y: y(level) + 4, "text-anchor": "end", class: "chart-label" }, chart).textContent = String(level);
  }
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.accuracy).toFixed(1)}`).join(" ");
  el("polyline", { points: line, class: "series" }, chart);
  const list = h("ul", { class: "sr-only" }, section);
  points.forEach((p, i) => {
    const words = t("profile.accuracy_point", { date: day(p.at), accuracy: percent(p.accuracy) });
    const dot = el("circle", { cx: x(i), cy: y(p.accuracy), r: 4, class: "dot" }, chart);
    el("title", {}, dot).textContent = words;
    h("a", { href: `/r/${p.code}#review` }, h("li", {}, list), words);
  });
  return section;
}

class ProfilePage {
  /** @param {string} name */
  constructor(name) {
    this.name = name;
    /** @type {Profile | null} */
    this.profile = null;
    /** @type {Ratings | null} */
    this.ratings = null;
    /** @type {Partial<Said> | null} */
    this.refusal = null;
    /** @type {Relation | null} what the signed-in visitor is to the player (null: a guest) */
    this.relation = null;
  }

  async start() {
    const shell = await startShell(() => this.render());
    await this.load(1);
    if (await shell.account) await this.relate();
  }

  // The visitor's follow and block of the player, and whether they may challenge them.
  async relate() {
    try {
      this.relation = await relation(this.name);
    } catch {
      this.relation = null; // no buttons rather than wrong ones
    }
    this.render();
  }

  /**
   * The visitor's buttons: follow or unfollow, challenge, block or unblock, report.
   * @param {string} name
   */
  socialButtons(name) {
    const r = this.relation;
    const box = byId("social");
    box.hidden = !r || r.you;
    if (!r || r.you) return;
    const notice = byId("social-notice");
    /** @param {string} message */
    const onError = (message) => {
      const error = byId("profile-error");
      error.hidden = false;
      error.textContent = message;
    };
    /**
     * @param {string} code
     * @param {() => Promise<unknown>} work
     */
    const button = (code, work) =>
      action(code, async () => {
        notice.textContent = "";
        await work();
        await this.relate();
      }, onError);
    const buttons = [
      r.following ? button("social.unfollow", () => unfollow(name)) : button("social.follow", () => follow({ name })),
      ...(r.challenge
        ? [
            button("social.challenge", async () => {
              if ((await challenge(name)) !== null) notice.textContent = t("social.challenge_sent", { name });
            }),
          ]
        : []),
      r.blocking ? button("social.unblock", () => unblock(name)) : button("social.block", () => block({ name }, name)),
      button("social.report", async () => {
        if (await report({ name }, t("social.report_player", { name }))) notice.textContent = t("social.reported");
      }),
    ];
    box.replaceChildren(...buttons);
  }

  /** @param {number} page */
  async load(page) {
    try {
      const name = encodeURIComponent(this.name);
      /** @type {[Profile, Ratings | null]} */
      const found = await Promise.all([
        api("GET", `/api/players/${name}?page=${page}`),
        api("GET", `/api/ratings/${name}`).catch(() => null), // no ratings section rather than no profile
      ]);
      [this.profile, this.ratings] = found;
      this.refusal = null;
    } catch (error) {
      this.refusal = error instanceof Refusal ? error.said : { detail: refusalText(error) };
    }
    this.render();
  }

  // A bot account's "Play" button: a table for two with the bot invited (as in the lobby's Bots section).
  /** @param {string} bot */
  challenge(bot) {
    const error = byId("profile-error");
    const button = challengeButton(bot, async () => savedName() || (await askName()), (message) => {
      error.hidden = false;
      error.textContent = message;
    });
    button.id = "challenge";
    return button;
  }

  render() {
    const error = byId("profile-error");
    error.hidden = this.refusal === null;
    byId("profile").hidden = this.refusal !== null;
    if (this.refusal !== null) {
      error.textContent = say(this.refusal);
      document.title = say(this.refusal);
      return;
    }
    const p = this.profile;
    if (!p) return;
    const title = t("profile.title");
    document.title = `${p.username} — ${title}`;
    const heading = byId("username");
    heading.textContent = p.username;
    document.getElementById("challenge")?.remove();
    if (p.bot) {
      heading.append(botTag());
      heading.after(this.challenge(p.username));
    }
    this.socialButtons(p.username);
    byId("member-since").textContent = t("profile.member_since", { date: day(p.member_since) });
    const recent = h("section", { class: "card", "aria-labelledby": "recent-title" });
    h("h2", { id: "recent-title" }, recent, t("profile.recent"));
    if (p.matches.length === 0) h("p", { class: "muted" }, recent, t("profile.no_matches"));
    else recent.append(matchTable(p.matches), ...pager(p, (page) => this.load(page)));
    const sections = [tallies(p), ...ratingSections(this.ratings), accuracyChart(p.accuracy), recent];
    byId("sections").replaceChildren(...sections);
  }
}

new ProfilePage(decodeURIComponent(location.pathname.split("/u/")[1] ?? "")).start();
