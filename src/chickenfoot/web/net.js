// Talking to the server: JSON over HTTP, and the table's WebSocket (reconnects, resumes by version).

export async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = typeof data.detail === "string" ? data.detail : `request failed (${response.status})`;
    throw new Error(detail);
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
    this.handlers = handlers; // {state, hint, error, status, chat, rematch}
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
      else if (msg.type === "chat") this.handlers.chat(msg);
      else if (msg.type === "rematch") this.handlers.rematch(msg);
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
