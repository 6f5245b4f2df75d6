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

export function rememberSeat(code, token) {
  localStorage.setItem(`cf-token-${code}`, token);
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
      else if (msg.type === "error" || msg.type === "service") this.handlers.error(msg.message);
    });
    ws.addEventListener("close", (e) => {
      this.handlers.status(false);
      // 4403/4404: a wrong token or no such table; retrying would not help.
      if (this.closed || e.code === 4403 || e.code === 4404) return;
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
