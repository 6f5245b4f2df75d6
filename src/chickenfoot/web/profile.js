// A player's profile (/u/NAME): member since, finished matches played and won by player count, the
// accuracy of the latest reviewed matches (an SVG chart), and a page of recent matches. A name nobody
// has is answered 404, and the page says so in the reader's language.

import { languageSwitcher, loadCatalog, say, t, translatePage } from "./i18n.js";
import { showAccountMenu } from "./account-menu.js";
import { api } from "./net.js";
import { botTag, challengeButton } from "./bots.js";
import { askName, savedName } from "./name.js";
import { drawRatingHistory, ratingText } from "./rating.js";
import { setupTheme } from "./theme.js";
import { day, h, matchTable, pager, percent } from "./history.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  parent.appendChild(node);
  return node;
}

const FAMILY_NAMES = { 2: "rating.family.2", "3-4": "rating.family.3-4" };

// The ratings' sections: per player-count family the player has played rated, the rating (with
// "?" while provisional), the rank among active players and the history chart.
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
function accuracyChart(points) {
  const section = h("section", { class: "card", "aria-labelledby": "accuracy-title" });
  h("h2", { id: "accuracy-title" }, section, t("profile.accuracy"));
  if (points.length === 0) {
    h("p", { class: "muted" }, section, t("profile.accuracy_none"));
    return section;
  }
  const W = 400, H = 160, pad = 28;
  // The picture is for the eye; the list after it says the same (with links to the reviews) to a screen reader.
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "accuracy-chart", "aria-hidden": "true" }, section);
  const x = (i) => pad + (points.length === 1 ? (W - 2 * pad) / 2 : (i * (W - 2 * pad)) / (points.length - 1));
  const y = (value) => H - pad - (value / 100) * (H - 2 * pad);
  for (const level of [0, 50, 100]) {
    svg("line", { x1: pad, x2: W - pad, y1: y(level), y2: y(level), class: "grid" }, chart);
    svg("text", { x: pad - 4, y: y(level) + 4, "text-anchor": "end", class: "chart-label" }, chart).textContent = String(level);
  }
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.accuracy).toFixed(1)}`).join(" ");
  svg("polyline", { points: line, class: "series" }, chart);
  const list = h("ul", { class: "sr-only" }, section);
  points.forEach((p, i) => {
    const words = t("profile.accuracy_point", { date: day(p.at), accuracy: percent(p.accuracy) });
    const dot = svg("circle", { cx: x(i), cy: y(p.accuracy), r: 4, class: "dot" }, chart);
    svg("title", {}, dot).textContent = words;
    h("a", { href: `/r/${p.code}#review` }, h("li", {}, list), words);
  });
  return section;
}

class ProfilePage {
  constructor(name) {
    this.name = name;
    this.page = 1;
    this.profile = null;
    this.ratings = null;
    this.refusal = null;
  }

  async start() {
    await loadCatalog();
    showAccountMenu(document.getElementById("account-menu"));
    languageSwitcher(document.getElementById("language"), () => this.render());
    await this.load(1);
  }

  async load(page) {
    try {
      const name = encodeURIComponent(this.name);
      [this.profile, this.ratings] = await Promise.all([
        api("GET", `/api/players/${name}?page=${page}`),
        api("GET", `/api/ratings/${name}`).catch(() => null), // no ratings section rather than no profile
      ]);
      this.refusal = null;
    } catch (error) {
      this.refusal = error.said ?? { detail: error.message };
    }
    this.render();
  }

  // A bot account's "Play" button: a table for two with the bot invited (as in the lobby's Bots section).
  challenge(bot) {
    const error = document.getElementById("profile-error");
    const button = challengeButton(bot, async () => savedName() || (await askName()), (message) => {
      error.hidden = false;
      error.textContent = message;
    });
    button.id = "challenge";
    return button;
  }

  render() {
    translatePage();
    const error = document.getElementById("profile-error");
    error.hidden = this.refusal === null;
    document.getElementById("profile").hidden = this.refusal !== null;
    if (this.refusal !== null) {
      error.textContent = say(this.refusal);
      document.title = say(this.refusal);
      return;
    }
    const p = this.profile;
    const title = t("profile.title");
    document.title = `${p.username} — ${title}`;
    const heading = document.getElementById("username");
    heading.textContent = p.username;
    document.getElementById("challenge")?.remove();
    if (p.bot) {
      heading.append(botTag());
      heading.after(this.challenge(p.username));
    }
    document.getElementById("member-since").textContent = t("profile.member_since", { date: day(p.member_since) });
    const recent = h("section", { class: "card", "aria-labelledby": "recent-title" });
    h("h2", { id: "recent-title" }, recent, t("profile.recent"));
    if (p.matches.length === 0) h("p", { class: "muted" }, recent, t("profile.no_matches"));
    else recent.append(matchTable(p.matches), ...pager(p, (page) => this.load(page)));
    const sections = [tallies(p), ...ratingSections(this.ratings), accuracyChart(p.accuracy), recent];
    document.getElementById("sections").replaceChildren(...sections);
  }
}

setupTheme();
const name = decodeURIComponent(location.pathname.split("/u/")[1] ?? "");
window.profile = new ProfilePage(name);
window.profile.start();
