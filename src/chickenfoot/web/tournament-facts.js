// @ts-check
// What the tournaments' pages say of an event: its format, duplicate or not, and where it stands.

import { moment, t } from "./i18n.js";

/**
 * An event as a list shows it (GET /api/tournaments).
 * @typedef {{ code: string, name: string, format: string, duplicate: string | null, table_size: number,
 *   rounds: number | null, minutes: number | null, rated: boolean, status: string, starts_at: string | null,
 *   started_at: string | null, ends_at: string | null, repeat: string | null }} EventFacts
 */

const FORMATS = { arena: "tournament.format.arena", swiss: "tournament.format.swiss", round_robin: "tournament.format.round_robin" };
const SCORINGS = { matchpoints: "tournament.scoring.matchpoints", difference: "tournament.scoring.difference" };
const STATUSES = {
  scheduled: "tournament.status.scheduled",
  running: "tournament.status.running",
  finished: "tournament.status.finished",
  cancelled: "tournament.status.cancelled",
};
const REPEATS = { daily: "tournament.repeats.daily", weekly: "tournament.repeats.weekly" };

/**
 * What an event is, in words: its format, duplicate or not, where it stands, and how often it comes again.
 * @param {EventFacts} event
 */
export function describe(event) {
  const parts = [t(FORMATS[/** @type {keyof FORMATS} */ (event.format)])];
  if (event.duplicate) parts.push(t(SCORINGS[/** @type {keyof SCORINGS} */ (event.duplicate)]));
  parts.push(t(STATUSES[/** @type {keyof STATUSES} */ (event.status)]));
  const when = event.started_at ?? event.starts_at;
  if (when) parts.push(moment(when));
  if (event.repeat) parts.push(t(REPEATS[/** @type {keyof REPEATS} */ (event.repeat)]));
  return parts.join(" · ");
}
