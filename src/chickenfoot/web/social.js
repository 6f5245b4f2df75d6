// @ts-check
// Friends and blocks as every page asks for them (server/social/routes.py, docs/api/social.md): follow,
// block (after "are you sure?"), report with a reason (pages/_report.html), challenge with a table's
// options and pace (pages/_challenge.html, the pace chosen as the lobby's create form chooses it). Every request changes the account: it carries the session's CSRF token.

import { changeAccount } from "./account-api.js";
import { confirmAction } from "./confirm.js";
import { byId, h } from "./dom.js";
import { t } from "./i18n.js";
import { LEVEL_WORDS } from "./lobby.js";
import { api, refusalText } from "./net.js";
import { paceChoice } from "./pace.js";

/** A player a request names: by name, by their seat at a table, or by a chat line they said. @typedef {{ name?: string, table?: string, seat?: number, line?: number }} Target */
/** What a profile's buttons show (GET /api/social/players/NAME). @typedef {{ you: boolean, following: boolean, blocking: boolean, challenge: boolean }} Relation */
/** The server's presets, bots and largest table (GET /api/presets). @typedef {{ presets: Record<string, unknown>, bots: string[], default_bot: string | null, max_players: number }} Presets */

/**
 * Follow a player; their name.
 * @param {Target} target
 * @returns {Promise<string>}
 */
export async function follow(target) {
  /** @type {{ following: string }} */
  const answer = await changeAccount("POST", "/api/social/follows", target);
  return answer.following;
}

/** @param {string} name */
export async function unfollow(name) {
  await changeAccount("DELETE", `/api/social/follows/${encodeURIComponent(name)}`);
}

/**
 * Block a player once the blocker confirms (`name`: how the question names them); their name, or
 * null if the blocker thought better of it.
 * @param {Target} target
 * @param {string} name
 * @returns {Promise<string | null>}
 */
export async function block(target, name) {
  if (!(await confirmAction(t("social.block_confirm", { name }), t("social.block")))) return null;
  /** @type {{ blocked: string }} */
  const answer = await changeAccount("POST", "/api/social/blocks", target);
  return answer.blocked;
}

/** @param {string} name */
export async function unblock(name) {
  await changeAccount("DELETE", `/api/social/blocks/${encodeURIComponent(name)}`);
}

/** @param {string} name */
export function relation(name) {
  /** @type {Promise<Relation>} */
  const found = api("GET", `/api/social/players/${encodeURIComponent(name)}`);
  return found;
}

/**
 * Opens a dialog of the page (`id`) titled `title`; resolves with what `send` answered once the player
 * sends it (a refusal is shown in the dialog, which stays open), or null if they cancel.
 * @template T
 * @param {string} id
 * @param {string} title
 * @param {() => Promise<T>} send
 * @returns {Promise<T | null>}
 */
function askWith(id, title, send) {
  const dialog = byId(id, HTMLDialogElement);
  if (dialog.open) return Promise.resolve(null);
  const form = /** @type {HTMLFormElement} */ (dialog.querySelector("form"));
  const error = /** @type {HTMLElement} */ (dialog.querySelector(".error"));
  /** @type {HTMLElement} */ (dialog.querySelector("h2")).textContent = title;
  error.textContent = "";
  return new Promise((resolve) => {
    /** @type {T | null} */
    let sent = null;
    /** @param {SubmitEvent} e */
    const submitted = async (e) => {
      e.preventDefault();
      if (e.submitter instanceof HTMLButtonElement && e.submitter.value === "cancel") {
        dialog.close();
        return;
      }
      try {
        sent = await send();
        dialog.close();
      } catch (err) {
        error.textContent = refusalText(err);
      }
    };
    form.addEventListener("submit", submitted);
    dialog.addEventListener(
      "close",
      () => {
        form.removeEventListener("submit", submitted);
        resolve(sent);
      },
      { once: true },
    );
    dialog.showModal();
  });
}

/**
 * Report a player or a chat line to the operators with a reason (and words of the player's own);
 * true once it is sent.
 * @param {Target} target
 * @param {string} title the dialog's title: who or what is reported
 */
export async function report(target, title) {
  const reason = byId("report-reason", HTMLSelectElement);
  const note = byId("report-note", HTMLTextAreaElement);
  note.value = "";
  const sent = await askWith("report-dialog", title, () =>
    changeAccount("POST", "/api/social/reports", { ...target, reason: reason.value, note: note.value.trim() }),
  );
  return sent !== null;
}

/** @type {Presets | null} */
let presets = null;
/** The challenge dialog's pace, once its choices are filled. @type {ReturnType<typeof paceChoice> | null} */
let pace = null;

/** Fill the challenge dialog's choices from the server's presets and bots (once). */
async function challengeChoices() {
  if (presets) return;
  presets = /** @type {Presets} */ (await api("GET", "/api/presets"));
  const preset = byId("challenge-preset", HTMLSelectElement);
  // Each preset's words are the message "preset.<name>" (tests/i18n checks that every preset has one).
  preset.replaceChildren(
    ...Object.keys(presets.presets).map((name) => {
      const code = `preset.${name}`;
      return new Option(t(code), name);
    }),
  );
  const players = byId("challenge-players", HTMLSelectElement);
  const counts = Array.from({ length: presets.max_players - 1 }, (_, i) => i + 2);
  players.replaceChildren(...counts.map((n) => new Option(t("ui.player_count", { count: n }), String(n))));
  const bot = byId("challenge-bot", HTMLSelectElement);
  const levels = presets.bots.map((level) => new Option(LEVEL_WORDS[level]?.() ?? level, level));
  bot.replaceChildren(...levels);
  if (presets.default_bot) bot.value = presets.default_bot;
  const botRow = byId("challenge-bot-row");
  const choice = paceChoice(
    byId("challenge-pace-kind", HTMLSelectElement),
    byId("challenge-pace-time", HTMLSelectElement),
    byId("challenge-pace-rule", HTMLSelectElement),
    byId("challenge-pace-details"),
    () => Number(players.value),
  );
  players.addEventListener("change", () => {
    botRow.hidden = players.value === "2";
    choice.draw(); // losing on time is a rule for two players only
  });
  botRow.hidden = true;
  pace = choice;
}

/**
 * Challenge `name` to a table of the options the player picks; the challenge's id once sent, or null.
 * @param {string} name
 * @returns {Promise<number | null>}
 */
export async function challenge(name) {
  await challengeChoices();
  /** @type {{ id: number } | null} */
  const sent = await askWith("challenge-dialog", t("social.challenge_title", { name }), () =>
    changeAccount("POST", "/api/social/challenges", {
      to: name,
      preset: byId("challenge-preset", HTMLSelectElement).value,
      rounds: Number(byId("challenge-rounds", HTMLInputElement).value) || null,
      players: Number(byId("challenge-players", HTMLSelectElement).value),
      bot: byId("challenge-bot", HTMLSelectElement).value,
      rated: byId("challenge-rated", HTMLInputElement).checked,
      pace: pace?.chosen() ?? null,
    }),
  );
  return sent?.id ?? null;
}

/**
 * A button worded by the message `code` (its title `title`, if given) doing `work`; a refusal is
 * handed to `onError`.
 * @param {string} code
 * @param {() => Promise<unknown>} work
 * @param {(message: string) => void} onError
 * @param {string} [title]
 */
export function action(code, work, onError, title) {
  const button = h("button", { type: "button", ...(title ? { title, "aria-label": title } : {}) }, null, t(code));
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await work();
    } catch (err) {
      onError(refusalText(err));
    } finally {
      button.disabled = false;
    }
  });
  return button;
}
