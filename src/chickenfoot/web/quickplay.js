// @ts-check
// Quick play: "Play now" in the lobby. The page joins the server's queue, sends a heartbeat every
// few seconds (the queue forgets a page that stops: closing the tab leaves the queue), shows how
// many are waiting and for how long, and goes to the table once the server has seated it there.

import { t } from "./i18n.js";
import { savedName } from "./name.js";
import { Refusal, api, refusalText, rememberSeat } from "./net.js";
import { MOVE_TIMES, moveTime } from "./pace.js";

/** @import { Account } from "./protocol.js" */

/** What the queue says of a player in it. @typedef {{ status?: string, code?: string, token?: string, waiting: number, waited: number, beat?: number }} Heard */

const BOT_WAITS = [15, 30, 60, 120];
const DEFAULT_BOT_WAIT = 30;
const RETRY_MS = 2000;

/**
 * A set of radio buttons named `name`.
 * @param {string} name
 * @param {string} legend
 * @param {{ value: string, label: string, checked?: boolean, disabled?: boolean }[]} options
 */
function choice(name, legend, options) {
  const fieldset = document.createElement("fieldset");
  fieldset.className = "qp-choice";
  const caption = document.createElement("legend");
  caption.textContent = legend;
  fieldset.append(caption);
  for (const { value, label, checked, disabled } of options) {
    const item = document.createElement("label");
    const input = Object.assign(document.createElement("input"), { type: "radio", name, value, checked: !!checked, disabled: !!disabled });
    item.append(input, " ", label);
    fieldset.append(item);
  }
  return fieldset;
}

/**
 * The value of the radio buttons `name` of `form`.
 * @param {HTMLFormElement} form
 * @param {string} name
 */
function chosen(form, name) {
  const radios = form.elements.namedItem(name);
  return radios instanceof RadioNodeList ? radios.value : "";
}

/** @param {number} seconds */
function minutes(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * Draw the "Play now" card into `section` (the lobby's #quickplay); `name()` gives a guest's name (a
 * signed-in player plays under their username, and is not asked), `account` who is signed in (a rated
 * match needs an account).
 * @param {HTMLElement} section
 * @param {() => Promise<string | null>} name
 * @param {Promise<Account | null>} account
 */
export async function showQuickPlay(section, name, account) {
  const me = await account;
  const signedIn = me !== null;
  const title = Object.assign(document.createElement("h2"), { textContent: t("quickplay.title") });
  const intro = Object.assign(document.createElement("p"), { className: "muted", textContent: t("quickplay.intro") });
  const form = Object.assign(document.createElement("form"), { id: "quickplay-form" });
  const players = choice("qp-players", t("quickplay.players"), [2, 4].map((n) => ({
    value: String(n), label: t("ui.player_count", { count: n }), checked: n === 2,
  })));
  const kind = choice("qp-kind", t("quickplay.kind"), [
    { value: "casual", label: t("quickplay.casual"), checked: true },
    { value: "rated", label: t("quickplay.rated"), disabled: !signedIn },
  ]);
  const botsLabel = Object.assign(document.createElement("label"), { className: "qp-bots", hidden: true });
  const bots = Object.assign(document.createElement("select"), { id: "quickplay-bots" });
  for (const s of BOT_WAITS) bots.add(new Option(`${s} s`, String(s), s === DEFAULT_BOT_WAIT, s === DEFAULT_BOT_WAIT));
  bots.add(new Option(t("quickplay.bots_never"), "never"));
  botsLabel.append(t("quickplay.bots_after"), " ", bots);
  const start = Object.assign(document.createElement("button"), {
    type: "submit", className: "primary", id: "quickplay-start", textContent: t("quickplay.start"),
  });
  // Real-time, or at one's own pace with a time per move (a pool of its own; pace.js says the times).
  const paceLabel = Object.assign(document.createElement("label"), { className: "qp-pace" });
  const pace = Object.assign(document.createElement("select"), { id: "quickplay-pace" });
  pace.add(new Option(t("pace.live"), "live", true, true));
  const ownPace = Object.assign(document.createElement("optgroup"), { label: t("pace.turn_based") });
  for (const seconds of MOVE_TIMES) ownPace.append(new Option(moveTime(seconds), String(seconds)));
  pace.append(ownPace);
  paceLabel.append(t("pace.title"), " ", pace);
  const row = Object.assign(document.createElement("div"), { className: "row" });
  row.append(players, kind, botsLabel, paceLabel);
  form.append(row, start);
  players.addEventListener("change", () => (botsLabel.hidden = chosen(form, "qp-players") !== "4"));

  const waiting = Object.assign(document.createElement("div"), { id: "quickplay-waiting", className: "qp-waiting", hidden: true });
  waiting.setAttribute("role", "status");
  const searching = Object.assign(document.createElement("p"), { className: "qp-searching" });
  searching.append(Object.assign(document.createElement("span"), { className: "qp-spinner" }), t("quickplay.searching"));
  const count = Object.assign(document.createElement("p"), { id: "quickplay-count" });
  const waited = Object.assign(document.createElement("p"), { id: "quickplay-waited", className: "muted" });
  const leave = Object.assign(document.createElement("button"), { type: "button", id: "quickplay-leave", textContent: t("quickplay.leave") });
  waiting.append(searching, count, waited, leave);
  const error = Object.assign(document.createElement("p"), { className: "error", role: "alert" });
  section.replaceChildren(title, intro, form, waiting, error);
  section.hidden = false;

  /** @type {string | null} */
  let ticket = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer = undefined;
  const stop = () => {
    clearTimeout(timer);
    ticket = null;
    form.hidden = false;
    waiting.hidden = true;
  };
  /** @param {Heard} heard */
  const show = (heard) => {
    count.textContent = t("quickplay.waiting", { count: heard.waiting });
    waited.textContent = t("quickplay.waited", { time: minutes(heard.waited) });
  };
  const beat = async () => {
    if (!ticket) return;
    try {
      /** @type {Heard} */
      const heard = await api("POST", "/api/quickplay/beat", { ticket });
      if (heard.status === "seated" && heard.code && heard.token) {
        ticket = null;
        searching.textContent = t("quickplay.found", { code: heard.code });
        rememberSeat(heard.code, heard.token);
        location.href = `/t/${heard.code}`;
        return;
      }
      error.textContent = "";
      show(heard);
      timer = setTimeout(beat, (heard.beat ?? 1) * 1000);
    } catch (err) {
      error.textContent = refusalText(err);
      // Out of the queue: choose again. Anything else (the server restarting, the network gone for
      // a moment) is tried again while the entry's lease may still hold.
      if (err instanceof Refusal && err.said.code === "quickplay.gone") stop();
      else timer = setTimeout(beat, RETRY_MS);
    }
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const four = chosen(form, "qp-players") === "4";
    const body = {
      players: four ? 4 : 2,
      rated: chosen(form, "qp-kind") === "rated",
      name: me?.username || savedName() || (await name()),
      ...(four ? { bots_after: bots.value === "never" ? null : Number(bots.value) } : {}),
      ...(pace.value === "live" ? {} : { move_seconds: Number(pace.value) }),
    };
    try {
      /** @type {{ ticket: string }} */
      const joined = await api("POST", "/api/quickplay", body);
      ticket = joined.ticket;
      form.hidden = true;
      waiting.hidden = false;
      show({ waiting: 1, waited: 0 });
      timer = setTimeout(beat, 0);
    } catch (err) {
      error.textContent = refusalText(err);
    }
  });
  leave.addEventListener("click", () => {
    const left = ticket;
    stop();
    if (left) api("POST", "/api/quickplay/leave", { ticket: left }).catch(() => {});
  });
  // Leaving the page leaves the queue at once (without this, the lease runs out a few seconds later).
  addEventListener("pagehide", () => {
    if (ticket) navigator.sendBeacon("/api/quickplay/leave", new Blob([JSON.stringify({ ticket })], { type: "application/json" }));
  });
}
