// @ts-check
// The tournaments page (/tournaments): the public events, the signed-in player's own (made or entered),
// and the form making a private one (its address is its invitation: /tournaments/CODE).

import { changeAccount } from "./account-api.js";
import { byId, h, setHidden, setText } from "./dom.js";
import { t } from "./i18n.js";
import { api, refusalText } from "./net.js";
import { startShell } from "./shell.js";
import { describe } from "./tournament-facts.js";

/** @typedef {import("./tournament-facts.js").EventFacts} EventFacts */

/** @param {EventFacts} event */
function line(event) {
  const li = h("li");
  h("a", { href: `/tournaments/${encodeURIComponent(event.code)}` }, li, event.name);
  h("span", { class: "muted" }, li, describe(event));
  return li;
}

class TournamentsPage {
  constructor() {
    /** @type {{ public: EventFacts[], mine: EventFacts[] }} */
    this.listed = { public: [], mine: [] };
    this.error = byId("tournaments-error");
  }

  async start() {
    const shell = await startShell(() => this.render());
    document.title = [t("tournament.title"), t("ui.game_name")].join(" · ");
    const signedIn = Boolean(await shell.account);
    setHidden(byId("sign-in"), signedIn);
    setHidden(byId("own"), !signedIn);
    const format = byId("event-format", HTMLSelectElement);
    format.addEventListener("change", () => this.formatChanged());
    byId("create-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      await this.create();
    });
    this.formatChanged();
    await this.load();
  }

  // An arena has a length and never deals duplicate; the other formats have rounds.
  formatChanged() {
    const arena = byId("event-format", HTMLSelectElement).value === "arena";
    setHidden(byId("rounds-field"), arena);
    setHidden(byId("minutes-field"), !arena);
    setHidden(byId("duplicate-field"), arena);
  }

  async create() {
    setText(this.error, "");
    const format = byId("event-format", HTMLSelectElement).value;
    const arena = format === "arena";
    const duplicate = byId("event-duplicate", HTMLSelectElement).value;
    const matchRounds = byId("event-match-rounds", HTMLInputElement).value; // empty: every round the rules deal
    const body = {
      name: byId("event-name", HTMLInputElement).value.trim(),
      format,
      table_size: Number(byId("event-size", HTMLSelectElement).value),
      match_rounds: matchRounds ? Number(matchRounds) : null,
      rated: byId("event-rated", HTMLInputElement).checked,
      ...(arena
        ? { minutes: Number(byId("event-minutes", HTMLInputElement).value) }
        : { rounds: Number(byId("event-rounds", HTMLInputElement).value), duplicate: duplicate || null }),
    };
    try {
      /** @type {{ code: string, path: string }} */
      const made = await changeAccount("POST", "/api/tournaments", body);
      location.assign(made.path);
    } catch (err) {
      setText(this.error, refusalText(err));
    }
  }

  async load() {
    try {
      this.listed = await api("GET", "/api/tournaments");
      this.render();
    } catch (err) {
      setText(this.error, refusalText(err));
    }
  }

  render() {
    byId("public").replaceChildren(...this.listed.public.map(line));
    setHidden(byId("no-public"), this.listed.public.length > 0);
    byId("mine").replaceChildren(...this.listed.mine.map(line));
    setHidden(byId("no-mine"), this.listed.mine.length > 0);
  }
}

new TournamentsPage().start();
