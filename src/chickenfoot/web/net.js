// Talking to the server: JSON over HTTP, and the table's WebSocket (reconnects, resumes by version).

import { say } from "./i18n.js";

// A refused request throws an Error worded in the reader's language; its `said` is the server's
// message ({code, ...params, detail}, docs/protocol.md), to word again in another language.
export async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const said = typeof data.code === "string" ? data : { code: "error.http", status: response.status, detail: data.detail };
    const error = new Error(say(said));
    error.said = said;
    throw error;
  }
  return data;
}

// A seat's secret stays in this browser (per table code), never in an address shown or shared.
export function rememberSeat(code, token) {
  localStorage.setItem(`cf-token-${code}`, token);
}

export function seatSecret(code) {
  return localStorage.getItem(`cf-token-${code}`);
}

export function forgetSeat(code) {
  localStorage.removeItem(`cf-token-${code}`);
}

export class TableSocket {
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.handlers = handlers; // {state, hint, error, status}
    this.version = null;
    this.closed = false;
    this.connect();
  }

  connect() {
    const params = new URLSearchParams();
    if (this.token) params.set("token", this.token);
    if (this.version !== null) params.set("since", String(this.version));
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.code)}?${params}`);
    this.ws = ws;
    ws.addEventListener("open", () => this.handlers.status(true));
    ws.addEventListener("message", (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === "state") {
        this.version = msg.version;
        this.handlers.state(msg.state, msg.events ?? []);
      } else if (msg.type === "hint") this.handlers.hint(msg);
      else if (msg.type === "error" || msg.type === "service") this.handlers.error(msg);
    });
    ws.addEventListener("close", (e) => {
      this.handlers.status(false);
      if (this.closed || e.code === 4404 || e.code === 4400) return; // no such table, or a bad address
      if (e.code === 4403 && this.token) {
        // The seat's credential was revoked (its seat went to a bot): watch instead.
        forgetSeat(this.code);
        this.token = null;
      } else if (e.code === 4403) return;
      setTimeout(() => this.connect(), 1000);
    });
  }

  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  move(move) {
    this.send({ type: "move", move, version: this.version });
  }
}
