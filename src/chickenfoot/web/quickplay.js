// Quick play: "Play now" in the lobby. The page joins the server's queue, sends a heartbeat every
// few seconds (the queue forgets a page that stops: closing the tab leaves the queue), shows how
// many are waiting and for how long, and goes to the table once the server has seated it there.

import { t } from "./i18n.js";
import { savedName } from "./name.js";
import { api, rememberSeat } from "./net.js";

const $ = (id) => document.getElementById(id);
const BOT_WAITS = [15, 30, 60, 120];
const DEFAULT_BOT_WAIT = 30;
const RETRY_MS = 2000;

function choice(name, legend, options) {
  const fieldset = document.createElement("fieldset");
  fieldset.className = "qp-choice";
  const caption = document.createElement("legend");
  caption.textContent = legend;
  fieldset.append(caption);
  for (const { value, label, checked, disabled } of options) {
    const item = document.createElement("label");
    const input = Object.assign(document.createElement("input"), { type: "radio", name, value, checked, disabled });
    item.append(input, " ", label);
    fieldset.append(item);
  }
  return fieldset;
}

function minutes(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// Draw the "Play now" card into `section` (the lobby's #quickplay); `name()` gives a guest's name (a
// signed-in player plays under their username, and is not asked).
export async function showQuickPlay(section, name) {
  const account = await api("GET", "/api/account").catch(() => null);
  const signedIn = account !== null;
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
  const row = Object.assign(document.createElement("div"), { className: "row" });
  row.append(players, kind, botsLabel);
  form.append(row, start);
  players.addEventListener("change", () => (botsLabel.hidden = form.elements["qp-players"].value !== "4"));

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

  let ticket = null;
  let timer = null;
  const stop = () => {
    clearTimeout(timer);
    ticket = null;
    form.hidden = false;
    waiting.hidden = true;
  };
  const show = (heard) => {
    count.textContent = t("quickplay.waiting", { count: heard.waiting });
    waited.textContent = t("quickplay.waited", { time: minutes(heard.waited) });
  };
  const beat = async () => {
    if (!ticket) return;
    try {
      const heard = await api("POST", "/api/quickplay/beat", { ticket });
      if (heard.status === "seated") {
        ticket = null;
        searching.textContent = t("quickplay.found", { code: heard.code });
        rememberSeat(heard.code, heard.token);
        location.href = `/t/${heard.code}`;
        return;
      }
      error.textContent = "";
      show(heard);
      timer = setTimeout(beat, heard.beat * 1000);
    } catch (err) {
      error.textContent = err.message;
      // Out of the queue: choose again. Anything else (the server restarting, the network gone for
      // a moment) is tried again while the entry's lease may still hold.
      if (err.said?.code === "quickplay.gone") stop();
      else timer = setTimeout(beat, RETRY_MS);
    }
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const four = form.elements["qp-players"].value === "4";
    const body = {
      players: four ? 4 : 2,
      rated: form.elements["qp-kind"].value === "rated",
      name: account?.username || savedName() || (await name()),
    };
    if (four) body.bots_after = bots.value === "never" ? null : Number(bots.value);
    try {
      const joined = await api("POST", "/api/quickplay", body);
      ticket = joined.ticket;
      form.hidden = true;
      waiting.hidden = false;
      show({ waiting: 1, waited: 0 });
      timer = setTimeout(beat, 0);
    } catch (err) {
      error.textContent = err.message;
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
