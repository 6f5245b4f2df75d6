// @ts-check
// Talking to the server: JSON over HTTP, and the table's WebSocket (reconnects, resumes by version).

import { say } from "./i18n.js";

/** @import { ChatMessage, ConnectionStatus, HintMessage, Invite, MuteMessage, RatingMessage, RematchMessage, Said, SeriesMessage, State, GameEvent } from "./protocol.js" */

// A request the server refused: worded in the reader's language; its `said` is the server's message
// ({code, ...params, detail}, docs/protocol.md), to word again in another language.
export class Refusal extends Error {
  /** @param {Said} said */
  constructor(said) {
    super(say(said));
    this.said = said;
  }
}

/**
 * What went wrong, in words: a refusal's, or any error's message.
 * @param {unknown} err
 */
export const refusalText = (err) => (err instanceof Error ? err.message : String(err));

/**
 * A JSON request; a refused one throws a Refusal. The answer is what the caller takes it for (the
 * server's API, docs/protocol.md).
 * @template T
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {Record<string, string>} [headers]
 * @returns {Promise<T>}
 */
export async function api(method, path, body, headers = {}) {
  const response = await fetch(path, {
    method,
    headers: body ? { "content-type": "application/json", ...headers } : headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Refusal(typeof data.code === "string" ? data : { code: "error.http", status: response.status, detail: data.detail });
  }
  return data;
}

// A seat's secret stays in this browser (per table code), never in an address shown or shared.
/**
 * @param {string} code
 * @param {string} token
 */
export function rememberSeat(code, token) {
  localStorage.setItem(`cf-token-${code}`, token);
}

/** @param {string} code */
export function seatSecret(code) {
  return localStorage.getItem(`cf-token-${code}`);
}

/** @param {string} code */
export function forgetSeat(code) {
  localStorage.removeItem(`cf-token-${code}`);
}

// The invite links of a table this browser created, [{seat, invite}], kept beside its seat.
/**
 * @param {string} code
 * @param {Invite[]} invites
 */
export function rememberInvites(code, invites) {
  localStorage.setItem(`cf-invites-${code}`, JSON.stringify(invites));
}

/**
 * @param {string} code
 * @returns {Invite[]}
 */
export function invitesOf(code) {
  try {
    const invites = JSON.parse(localStorage.getItem(`cf-invites-${code}`) ?? "[]");
    return Array.isArray(invites) ? invites.filter((i) => i && typeof i.invite === "string") : [];
  } catch {
    return [];
  }
}

// Reconnecting waits 1, 2, 4, ... seconds (at most 30, each ±20% so that a table's clients do not
// all return at once after a restart of the server).
const FIRST_RETRY = 1000;
const LAST_RETRY = 30_000;
// Close codes after which trying again cannot help: a bad address, no such table.
const FINAL = new Set([4400, 4404]);
// The seat's credential moved to another device, or the session that seated this page ended: come
// back at once, to watch (told why).
const WATCH_AT_ONCE = new Set([4401, 4409]);
// A connection can die without closing (a phone's network gone, a server that hangs): after
// HEARTBEAT of silence the page pings, and after SILENCE more without a word it gives the
// connection up and reconnects; an attempt that has not opened after SILENCE is given up too.
const HEARTBEAT = 20_000;
const SILENCE = 10_000;

/**
 * A message of the table's WebSocket (docs/protocol.md, Server → client).
 * @typedef {{ type: "state", version: number, state: State, events?: GameEvent[] }
 *   | ({ type: "hint" } & HintMessage)
 *   | ({ type: "error" | "service" } & Said)
 *   | ChatMessage
 *   | ({ type: "rematch" } & RematchMessage)
 *   | ({ type: "rating" } & RatingMessage)
 *   | ({ type: "series" } & SeriesMessage)
 *   | ({ type: "mute" } & MuteMessage)
 *   | { type: "pong" | "watching" }} ServerMessage
 */

/**
 * What the socket hands on: each kind of message from the server, and the connection's ups and downs.
 * @typedef {object} SocketHandlers
 * @property {(state: State, events: GameEvent[]) => void} state
 * @property {(hint: HintMessage) => void} hint
 * @property {(message: Said) => void} error
 * @property {(status: ConnectionStatus) => void} connection
 * @property {(message: ChatMessage) => void} chat
 * @property {(message: RematchMessage) => void} rematch
 * @property {(message: RatingMessage) => void} rating
 * @property {(message: SeriesMessage) => void} series
 * @property {(message: MuteMessage) => void} mute
 */

export class TableSocket {
  /**
   * @param {string} code
   * @param {string | null} token
   * @param {SocketHandlers} handlers
   */
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.handlers = handlers;
    /** @type {number | null} */
    this.version = null;
    this.closed = false;
    this.attempt = 0; // failed attempts since the connection was last up
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.retryTimer = null;
    this.retrying = false; // the connection was lost and is not back yet
    /** @type {WebSocket | null} */
    this.ws = null;
    this.heard = 0; // when the server last said anything (ms since the epoch)
    this.pinged = 0; // when this page last pinged
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.beat = undefined;
    this.retryDelay = 0; // the pause before the last attempt (ms)
    this.retryAt = 0;
    // The browser knows first when its network goes and comes back: a connection it has lost is
    // given up at once (play waits, said by the page's offline state), and tried again at its return
    // (an event that comes out of turn, the browser still saying the opposite, is nothing).
    addEventListener("offline", () => {
      if (!navigator.onLine) this.giveUp();
    });
    addEventListener("online", () => {
      if (navigator.onLine) this.retryNow();
    });
    this.connect();
  }

  connect() {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const params = new URLSearchParams();
    if (this.token) params.set("token", this.token);
    if (this.version !== null) params.set("since", String(this.version));
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.code)}?${params}`);
    this.ws = ws;
    this.heard = Date.now();
    clearInterval(this.beat);
    this.beat = setInterval(() => this.listen(ws), 2000);
    /** @type {State["log"]} */
    let log = []; // the round's log as this connection was sent it: each state carries what follows (log_from)
    ws.addEventListener("message", (e) => {
      this.heard = Date.now();
      /** @type {ServerMessage} */
      const msg = JSON.parse(e.data);
      if (msg.type === "state") {
        log = log.slice(0, msg.state.log_from ?? 0).concat(msg.state.log);
        msg.state.log = log;
        msg.state.log_from = 0;
        // Up again once the table's state is back, not merely the socket.
        if (this.retrying) {
          this.attempt = 0;
          this.retrying = false;
          this.handlers.connection({ up: true });
        }
        this.version = msg.version;
        this.handlers.state(msg.state, msg.events ?? []);
      } else if (msg.type === "hint") this.handlers.hint(msg);
      else if (msg.type === "error" || msg.type === "service") this.handlers.error(msg);
      else if (msg.type === "chat") this.handlers.chat(msg);
      else if (msg.type === "rematch") this.handlers.rematch(msg);
      else if (msg.type === "rating") this.handlers.rating(msg);
      else if (msg.type === "series") this.handlers.series(msg);
      else if (msg.type === "mute") this.handlers.mute(msg);
    });
    ws.addEventListener("close", (e) => {
      if (ws !== this.ws || this.closed || FINAL.has(e.code)) return;
      if (e.code === 4403 && this.token) {
        // The seat's credential was revoked (its seat went to a bot): watch instead.
        forgetSeat(this.code);
        this.token = null;
      } else if (e.code === 4403) return;
      if (WATCH_AT_ONCE.has(e.code)) this.connect();
      else this.retry();
    });
  }

  // The heartbeat: ping a quiet connection, give up a silent one.
  /** @param {WebSocket} ws */
  listen(ws) {
    if (ws !== this.ws || ws.readyState > WebSocket.OPEN) return; // closing: its close event retries
    const quiet = Date.now() - this.heard;
    const opening = ws.readyState === WebSocket.CONNECTING;
    if (quiet >= (opening ? SILENCE : HEARTBEAT + SILENCE)) this.giveUp();
    else if (!opening && quiet >= HEARTBEAT && !(this.pinged > this.heard)) {
      this.pinged = Date.now();
      this.send({ type: "ping" });
    }
  }

  // Gives the current connection up, open or opening, and tries again after a pause.
  giveUp() {
    const ws = this.ws;
    if (!ws || this.closed || ws.readyState > WebSocket.OPEN) return;
    this.ws = null; // its close, whenever it comes, is no longer this socket's concern
    ws.close();
    this.retry();
  }

  retry() {
    this.attempt += 1;
    this.retrying = true;
    const delay = Math.min(LAST_RETRY, FIRST_RETRY * 2 ** (this.attempt - 1)) * (0.8 + Math.random() * 0.4);
    this.retryDelay = delay; // the pause before this attempt (milliseconds)
    this.retryAt = Date.now() + delay;
    this.handlers.connection({ up: false, attempt: this.attempt, retryAt: this.retryAt });
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  // Try at once (the player asked, or the browser is back online) instead of waiting out the pause.
  retryNow() {
    if (this.retryTimer !== null) this.connect();
  }

  get reconnecting() {
    return this.retrying;
  }

  /** @param {Record<string, unknown>} message */
  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** @param {string} move */
  move(move) {
    this.send({ type: "move", move, version: this.version });
  }
}
