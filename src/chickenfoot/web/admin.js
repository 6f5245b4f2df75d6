// @ts-check
// The operators' moderation page (/admin, server/moderation/routes.py): the players' reports to handle,
// a player looked up (their state, recent chat lines and tables, what was done to them) and acted on
// with a reason, a table ended, the chat filter's own words, and the audit log, which it only reads.
// Every change carries the session's CSRF token; each answer is a line of the audit log.

import { changeAccount, signedIn } from "./account-api.js";
import { confirmAction } from "./confirm.js";
import { byId, h } from "./dom.js";
import { moment, t } from "./i18n.js";
import { api, refusalText } from "./net.js";
import { startShell } from "./shell.js";

/**
 * @typedef {{ id: number, at: string, operator: string | null, by_command_line: boolean, action: string,
 *   subject_id: number | null, subject: string | null, table: string | null, reason: string,
 *   details: Record<string, string | number | null> }} AuditLine
 * @typedef {{ n: number, seat: number | null, text: string | null, code: string | null, at: string, by: string | null }} Evidence
 * @typedef {{ id: number, reporter: string | null, reported_id: number | null, reported: string | null, reason: string,
 *   note: string, table: string | null, line: number | null, evidence: Evidence[], at: string, status: string,
 *   handled_at: string | null, resolution: string | null }} Report
 * @typedef {{ table: string, n: number, seat: number, text: string | null, code: string | null, at: string }} SaidLine
 * @typedef {{ code: string, seat: number, created: string, over: boolean }} TableSat
 * @typedef {{ id: number, username: string | null, created: string, closed: boolean, bot: boolean, operator: boolean,
 *   muted_until: string | null, suspended_until: string | null, chat: SaidLine[], tables: TableSat[],
 *   history: AuditLine[] }} Player
 */

const DURATIONS = [15, 60, 24 * 60, 7 * 24 * 60, 30 * 24 * 60]; // minutes
const RESTRICTING = new Set(["mute", "suspend"]);

/** @param {number} minutes */
function duration(minutes) {
  if (minutes % (24 * 60) === 0) return t("admin.days", { count: minutes / (24 * 60) });
  if (minutes % 60 === 0) return t("admin.hours", { count: minutes / 60 });
  return t("admin.minutes", { count: minutes });
}

// What each action of the audit log is called, and each reason a player may report.
/** @type {Record<string, string>} */
const DONE = {
  unmute: "admin.did.unmute",
  unsuspend: "admin.did.unsuspend",
  close: "admin.did.close",
  end_table: "admin.did.end_table",
  grant: "admin.did.grant",
  revoke: "admin.did.revoke",
  word_add: "admin.did.word_add",
  word_remove: "admin.did.word_remove",
};
/** @type {Record<string, string>} */
const REASONS = {
  abuse: "admin.reason.abuse",
  cheating: "admin.reason.cheating",
  spam: "admin.reason.spam",
  name: "admin.reason.name",
  other: "admin.reason.other",
};

/**
 * What a line of the audit log says was done, in the reader's language.
 * @param {AuditLine} line
 */
function done(line) {
  const d = line.details;
  switch (line.action) {
    case "mute":
      return t("admin.did.mute", { moment: moment(String(d.until)) });
    case "suspend":
      return t("admin.did.suspend", { moment: moment(String(d.until)) });
    case "rename":
      return t("admin.did.rename", { name: String(d.to) });
    case "report":
      return t(d.outcome === "dismissed" ? "admin.did.report_dismissed" : "admin.did.report_actioned", { report: String(d.report) });
    default:
      return line.action in DONE ? t(DONE[line.action], { word: String(d.word ?? "") }) : line.action;
  }
}

/** @param {string | null} code */
const reaction = (code) => (code ? t(code) : "");

class AdminPage {
  constructor() {
    this.handled = false;
    /** @type {Player | null} */
    this.player = null;
    /** @type {AuditLine[]} */
    this.audit = [];
    this.more = false;
  }

  async start() {
    await startShell(() => this.renderAll());
    await signedIn(); // the session's CSRF token, for the changes
    this.wire();
    this.fillDurations();
    await Promise.all([this.loadReports(), this.loadWords(), this.loadAudit(false)]);
  }

  wire() {
    byId("show-open").addEventListener("click", () => this.showReports(false));
    byId("show-handled").addEventListener("click", () => this.showReports(true));
    byId("look-up", HTMLFormElement).addEventListener("submit", (event) => {
      event.preventDefault();
      this.lookUp({ name: byId("look-up-name", HTMLInputElement).value.trim() });
    });
    for (const button of byId("player-actions").querySelectorAll("button[data-action]")) {
      button.addEventListener("click", () => this.act(button.getAttribute("data-action") ?? ""));
    }
    byId("end-table", HTMLFormElement).addEventListener("submit", (event) => {
      event.preventDefault();
      this.endTable();
    });
    byId("add-word", HTMLFormElement).addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = byId("new-word", HTMLInputElement);
      if (await this.change("POST", "/api/admin/words", { word: input.value }, () => this.loadWords())) input.value = "";
    });
    byId("audit-older").addEventListener("click", () => this.loadAudit(true));
  }

  fillDurations() {
    const select = byId("duration", HTMLSelectElement);
    select.replaceChildren(...DURATIONS.map((minutes) => h("option", { value: minutes }, null, duration(minutes))));
    select.value = String(24 * 60);
  }

  renderAll() {
    document.title = t("admin.title");
    this.fillDurations();
    this.loadReports();
    this.loadWords();
    this.renderPlayer();
    this.renderAudit();
  }

  /**
   * A change, told as done (and written in the audit log) or refused; true when done. What it changed is
   * read again (`refresh`) before the audit log, whose new line then says that all is shown.
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @param {() => Promise<void>} [refresh]
   */
  async change(method, path, body, refresh = async () => {}) {
    byId("admin-done").textContent = "";
    byId("admin-error").textContent = "";
    try {
      await changeAccount(method, path, body);
    } catch (err) {
      byId("admin-error").textContent = refusalText(err);
      return false;
    }
    byId("admin-done").textContent = t("admin.written");
    await refresh();
    await this.loadAudit(false);
    return true;
  }

  /** @param {string} path */
  async read(path) {
    try {
      return await api("GET", path);
    } catch (err) {
      byId("admin-error").textContent = refusalText(err);
      return null;
    }
  }

  // --- reports -------------------------------------------------------------------------------------

  /** @param {boolean} handled */
  async showReports(handled) {
    this.handled = handled;
    byId("show-open").setAttribute("aria-pressed", String(!handled));
    byId("show-handled").setAttribute("aria-pressed", String(handled));
    await this.loadReports();
  }

  async loadReports() {
    /** @type {{ reports: Report[], open: number } | null} */
    const data = await this.read(`/api/admin/reports?handled=${this.handled}`);
    if (data === null) return;
    byId("open-count").textContent = t("admin.open_reports", { count: data.open });
    const list = byId("reports");
    if (data.reports.length === 0) list.replaceChildren(h("p", { class: "muted" }, null, t("admin.no_reports")));
    else list.replaceChildren(...data.reports.map((report) => this.reportCard(report)));
  }

  /** @param {Report} report */
  reportCard(report) {
    const card = h("article", { class: "admin-report", "data-report": report.id });
    const facts = h("dl", {}, card);
    /** @param {string} label @param {string | Node} value */
    const fact = (label, value) => {
      h("dt", {}, facts, t(label));
      h("dd", {}, facts).append(value);
    };
    fact("admin.reported", report.reported ?? t("admin.guest"));
    fact("admin.reporter", report.reporter ?? t("player.deleted"));
    fact("admin.reason", report.reason in REASONS ? t(REASONS[report.reason]) : report.reason);
    fact("admin.when", moment(report.at));
    if (report.table) fact("admin.table_code", report.table);
    if (report.note) {
      h("p", { class: "muted" }, card, t("admin.note"));
      h("blockquote", {}, card, report.note);
    }
    h("p", { class: "muted" }, card, t(report.evidence.length ? "admin.evidence" : "admin.evidence_none"));
    if (report.evidence.length) {
      const lines = h("ol", {}, card);
      for (const said of report.evidence) {
        const item = h("li", { value: said.n, class: said.n === report.line ? "reported" : "" }, lines);
        item.textContent = `${said.by ?? t("admin.guest")}: ${said.text ?? reaction(said.code)}`;
      }
    }
    if (report.status === "open") {
      const row = h("div", { class: "row" }, card);
      const note = h("input", { maxlength: 500, "aria-label": t("admin.resolution"), placeholder: t("admin.resolution") }, row);
      if (report.reported) {
        const name = report.reported;
        h("button", { type: "button" }, row, t("admin.look_up")).addEventListener("click", () => this.lookUp({ name }));
      }
      for (const [outcome, label] of [["actioned", "admin.action_taken"], ["dismissed", "admin.dismiss"]]) {
        h("button", { type: "button", "data-outcome": outcome }, row, t(label)).addEventListener("click", async () => {
          await this.change("POST", `/api/admin/reports/${report.id}`, { outcome, resolution: note.value }, () => this.loadReports());
        });
      }
    } else {
      const how = t(report.status === "dismissed" ? "admin.dismissed" : "admin.action_taken");
      h("p", {}, card, report.resolution ? `${how}: ${report.resolution}` : how);
    }
    return card;
  }

  // --- a player ------------------------------------------------------------------------------------

  /** @param {{ name?: string, id?: number }} who */
  async lookUp(who) {
    byId("admin-error").textContent = "";
    const query = who.id !== undefined ? `id=${who.id}` : `name=${encodeURIComponent(who.name ?? "")}`;
    /** @type {Player | null} */
    const player = await this.read(`/api/admin/players?${query}`);
    if (player === null) return;
    this.player = player;
    byId("look-up-name", HTMLInputElement).value = player.username ?? "";
    this.renderPlayer();
  }

  renderPlayer() {
    const player = this.player;
    byId("player").hidden = player === null;
    if (player === null) return;
    byId("player-name").textContent = player.username ?? t("player.deleted");
    /** @type {[string, boolean][]} */
    const states = [];
    if (player.muted_until) states.push([t("admin.muted_until", { moment: moment(player.muted_until) }), true]);
    if (player.suspended_until) states.push([t("admin.suspended_until", { moment: moment(player.suspended_until) }), true]);
    if (player.closed) states.push([t("admin.closed"), true]);
    if (player.operator) states.push([t("admin.operator"), false]);
    if (player.bot) states.push([t("admin.bot"), false]);
    byId("player-status").replaceChildren(
      ...states.map(([text, restricted]) => h("li", restricted ? { class: "restricted" } : {}, null, text)),
    );
    byId("player-actions").hidden = player.closed || player.operator;
    const chat = byId("player-chat");
    if (player.chat.length === 0) chat.replaceChildren(h("li", { class: "muted" }, null, t("admin.no_chat")));
    else {
      chat.replaceChildren(
        ...player.chat.map((said) => {
          const item = h("li");
          h("div", {}, item, said.text ?? reaction(said.code));
          const where = t("admin.table", { table: said.table });
          h("small", { class: "muted" }, item, `${where} · ${moment(said.at)}`);
          return item;
        }),
      );
    }
    const tables = byId("player-tables");
    if (player.tables.length === 0) tables.replaceChildren(h("li", { class: "muted" }, null, t("admin.no_tables")));
    else {
      tables.replaceChildren(
        ...player.tables.map((table) => {
          const item = h("li");
          h("a", { href: `/${table.over ? "r" : "t"}/${encodeURIComponent(table.code)}` }, item, t("admin.table", { table: table.code }));
          const state = t(table.over ? "admin.match_over" : "admin.match_on");
          h("small", { class: "muted" }, item, `${moment(table.created)} · ${state}`);
          if (!table.over) {
            h("button", { type: "button", class: "danger" }, item, t("admin.end")).addEventListener("click", () => {
              byId("end-code", HTMLInputElement).value = table.code;
              byId("end-reason").focus();
            });
          }
          return item;
        }),
      );
    }
    byId("player-history").replaceChildren(...player.history.map((line) => h("li", {}, null, `${moment(line.at)} · ${done(line)} · ${line.reason}`)));
  }

  /** @param {string} action */
  async act(action) {
    const player = this.player;
    const reason = byId("reason", HTMLTextAreaElement);
    if (player === null || !reason.reportValidity()) return;
    if (action === "close" && !(await confirmAction(t("admin.confirm_close", { name: player.username ?? "" }), t("admin.close")))) {
      return;
    }
    /** @type {{ reason: string, minutes?: number }} */
    const body = { reason: reason.value };
    if (RESTRICTING.has(action)) body.minutes = Number(byId("duration", HTMLSelectElement).value);
    if (await this.change("POST", `/api/admin/players/${player.id}/${action}`, body, () => this.lookUp({ id: player.id }))) {
      reason.value = "";
    }
  }

  async endTable() {
    const code = byId("end-code", HTMLInputElement);
    const reason = byId("end-reason", HTMLInputElement);
    const table = code.value.trim().toUpperCase();
    if (!(await confirmAction(t("admin.confirm_end", { table }), t("admin.end")))) return;
    const player = this.player;
    const refresh = player ? () => this.lookUp({ id: player.id }) : undefined;
    if (await this.change("POST", `/api/admin/tables/${encodeURIComponent(table)}/end`, { reason: reason.value }, refresh)) {
      code.value = reason.value = "";
    }
  }

  // --- the chat filter -----------------------------------------------------------------------------

  async loadWords() {
    /** @type {{ fixed: number, added: { word: string, by: string | null, at: string }[] } | null} */
    const data = await this.read("/api/admin/words");
    if (data === null) return;
    byId("words-fixed").textContent = t("admin.words_fixed", { count: data.fixed });
    const list = byId("words");
    if (data.added.length === 0) list.replaceChildren(h("li", { class: "muted" }, null, t("admin.words_none")));
    else {
      list.replaceChildren(
        ...data.added.map((added) => {
          const item = h("li");
          h("div", {}, item, added.word);
          h("button", { type: "button" }, item, t("admin.remove")).addEventListener("click", async () => {
            await this.change("DELETE", `/api/admin/words/${encodeURIComponent(added.word)}`, undefined, () => this.loadWords());
          });
          return item;
        }),
      );
    }
  }

  // --- the audit log -------------------------------------------------------------------------------

  /** @param {boolean} older */
  async loadAudit(older) {
    const before = older && this.audit.length ? `?before=${this.audit[this.audit.length - 1].id}` : "";
    /** @type {{ lines: AuditLine[] } | null} */
    const data = await this.read(`/api/admin/audit${before}`);
    if (data === null) return;
    this.audit = older ? [...this.audit, ...data.lines] : data.lines;
    this.more = data.lines.length >= 50;
    this.renderAudit();
  }

  renderAudit() {
    const body = byId("audit").querySelector("tbody");
    if (!body) return;
    body.replaceChildren(
      ...this.audit.map((line) => {
        const row = h("tr", { "data-line": line.id, "data-action": line.action });
        h("td", { class: "when" }, row, moment(line.at));
        h("td", { class: "who" }, row, line.operator ?? t("admin.command_line"));
        h("td", { class: "what" }, row, done(line));
        h("td", { class: "whom" }, row, line.subject ?? (line.table ? t("admin.table", { table: line.table }) : ""));
        h("td", { class: "reason" }, row, line.reason);
        return row;
      }),
    );
    byId("audit-older").hidden = !this.more;
  }
}

new AdminPage().start();
