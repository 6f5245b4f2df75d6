// @ts-check
// The account page's vacation card: the days of vacation left this year, and going on vacation or
// coming back (GET, POST and DELETE /api/vacation). On vacation the account's clocks at its turn-based
// tables stand, and the other players there see until when.

import { changeAccount } from "./account-api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api, refusalText } from "./net.js";
import { when } from "./pace.js";

/** @typedef {{ days_a_year: number, left: number, until: number | null }} Vacation */

/** @type {Vacation | null} */
let vacation = null;
let error = "";

/**
 * Draws the card in `box` (asking the server the first time).
 * @param {HTMLElement} box
 */
export async function drawVacation(box) {
  vacation ??= await api("GET", "/api/vacation");
  render(box);
}

/** @param {HTMLElement} box */
function render(box) {
  const v = vacation;
  if (!v) return;
  const title = h("h2", { id: "vacation-title" }, null, t("vacation.title"));
  const note = h("p", { class: "muted" }, null, t("vacation.note"));
  const left = h("p", { id: "vacation-left" }, null, t("vacation.left", { count: v.left }));
  const row = h("div", { class: "row" });
  if (v.until !== null) {
    h("strong", { id: "vacation-until" }, row, t("vacation.until", { when: when(v.until) }));
    const end = h("button", { type: "button", id: "vacation-end" }, row, t("vacation.end"));
    end.addEventListener("click", () => change(box, () => changeAccount("DELETE", "/api/vacation")));
  } else {
    const label = h("label", {}, row);
    h("span", {}, label, t("vacation.days"));
    const days = /** @type {HTMLInputElement} */ (h("input", { type: "number", id: "vacation-days", min: "1", max: String(Math.max(1, v.left)), value: String(Math.min(7, Math.max(1, v.left))) }, label));
    const start = /** @type {HTMLButtonElement} */ (h("button", { type: "button", id: "vacation-start" }, row, t("vacation.start")));
    start.disabled = v.left < 1;
    start.addEventListener("click", () => change(box, () => changeAccount("POST", "/api/vacation", { days: Number(days.value) })));
  }
  const problem = h("p", { class: "error", role: "alert" }, null, error);
  box.replaceChildren(title, note, left, row, problem);
}

/**
 * Runs a change and draws the card again with what the server says now.
 * @param {HTMLElement} box
 * @param {() => Promise<unknown>} work
 */
async function change(box, work) {
  error = "";
  try {
    await work();
  } catch (err) {
    error = refusalText(err);
  }
  vacation = await api("GET", "/api/vacation");
  render(box);
}
