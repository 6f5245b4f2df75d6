// The page's entry point: theme, routing (lobby at /, a table at /t/CODE), and the table itself.
// The page never decides what is legal: it offers exactly the moves in the server's `legal`.

import { Board } from "./board.js";
import { BoardText } from "./boardtext.js";
import { ConnectionBar } from "./connection.js";
import { Chat } from "./chat.js";
import { Company, seatButton } from "./company.js";
import { languageSwitcher, loadCatalog, say, seatNames, t, translatePage } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { askName, savedName } from "./name.js";
import { TableSocket, api, invitesOf, rememberSeat, seatSecret } from "./net.js";
import { TurnNotice } from "./notice.js";
import { renderPlayers } from "./players.js";
import { setupTheme } from "./theme.js";
import { parseTile, tileSvg } from "./tiles.js";
import { renderWaiting } from "./waiting.js";

const $ = (id) => document.getElementById(id);

// The finished match's replay with its review.
function replayLink(code) {
  const a = document.createElement("a");
  a.href = `/r/${code}`;
  a.className = "replay-link";
  a.textContent = t("table.replay");
  return a;
}

const tileOf = (move) => move.split("@")[0];

// A move in the notation of docs/rules.md §7 as advice: "play 9-4 on 9-9", "draw a tile" (move.*).
function moveWords(move) {
  if (move === "draw") return t("move.draw");
  if (move === "pass") return t("move.pass");
  const [tile, target] = move.split("@");
  return target ? t("move.play", { tile, target }) : t("move.hub", { tile });
}
const sameTile = (a, b) => parseTile(a).join("-") === parseTile(b).join("-");
const pips = (t) => parseTile(t)[0] + parseTile(t)[1];

class TablePage {
  constructor(code, token) {
    this.code = code;
    this.token = token;
    this.state = null;
    this.selected = null;
    this.sort = localStorage.getItem("cf-sort") ?? "number";
    this.dismissedRound = null;
    this.finished = null; // the last finished round's STATE: its results stay up until closed
    this.hint = null; // {move, reason} for the current turn
    this.board = new Board($("board"), (move) => this.play(move));
    this.boardText = new BoardText($("board-text"));
    this.notice = new TurnNotice($("notice-sound"), $("notice-notify"), (text) => this.toast(text));
    this.connection = new ConnectionBar($("connection"), () => this.socket.retryNow());
    this.chat = new Chat((message) => this.socket.send(message));
    this.company = new Company(this);
    this.socket = new TableSocket(code, token, {
      chat: (message) => this.chat.receive(message),
      rematch: (message) => this.company.onRematch(message),
      state: (state, events) => this.onState(state, events),
      hint: (hint) => this.onHint(hint),
      error: (message) => this.toast(say(message, this.state ? seatNames(this.state) : [])),
      connection: (status) => this.onConnection(status),
    });
    this.bind();
  }

  bind() {
    $("sort").value = this.sort;
    $("sort").addEventListener("change", () => {
      this.sort = $("sort").value;
      localStorage.setItem("cf-sort", this.sort);
      this.renderHand();
    });
    $("draw").addEventListener("click", () => this.play("draw"));
    $("pass").addEventListener("click", () => this.play("pass"));
    $("zoom-in").addEventListener("click", () => this.board.zoom(1.25));
    $("zoom-out").addEventListener("click", () => this.board.zoom(0.8));
    $("zoom-fit").addEventListener("click", () => this.board.fit());
    $("hints").addEventListener("change", () => this.askHint());
    $("next-round").addEventListener("click", () => this.socket.send({ type: "next_round" }));
    $("ro-close").addEventListener("click", () => {
      this.dismissedRound = this.finished?.round ?? null;
      $("round-over").hidden = true;
    });
    $("board").addEventListener("click", (e) => {
      if (!e.target.closest(".target") && !this.board.pointers.size) this.select(null);
    });
    document.addEventListener("keydown", (e) => this.onKey(e));
  }

  // Play is offered only at a table that has started, over a live connection.
  get myTurn() {
    const s = this.state;
    const live = s?.status === "playing" && !this.socket.reconnecting;
    return live && s.seat !== null && s.to_move === s.seat && !s.round_over && s.legal.length > 0;
  }

  onConnection(status) {
    $("room").classList.toggle("offline", !status.up);
    this.connection.update(status);
    if (!status.up) this.selected = null;
    if (this.state) this.render();
  }

  movesFor(tile) {
    if (!this.myTurn || !tile) return [];
    return this.state.legal.filter((m) => m !== "draw" && m !== "pass" && sameTile(tileOf(m), tile));
  }

  onState(state, events) {
    const previous = this.state;
    this.state = state;
    if (this.selected && !state.hand.some((t) => sameTile(t, this.selected))) this.selected = null;
    if (!this.myTurn) this.selected = null;
    // Preselect a freshly drawn tile that may be played.
    if (this.myTurn && state.drawn && this.movesFor(state.drawn).length) this.selected = state.drawn;
    for (const event of events) {
      if (event.kind === "chicken_foot") this.banner();
      if (event.kind === "renamed" && event.seat !== state.seat) this.toast(say(event, seatNames(state)));
    }
    if (!events.length && previous && state.layout.length > previous.layout.length) {
      const [tile, target] = state.layout[state.layout.length - 1];
      if (target && parseTile(tile)[0] === parseTile(tile)[1]) this.banner();
    }
    // The server names the move it makes for this seat (a sole draw or pass) and makes it shortly.
    if (state.forced && this.myTurn) {
      this.toast(t(state.forced === "draw" ? "move.auto_draw" : "move.auto_pass"));
    }
    if (state.round_over) this.finished = state;
    if (this.welcome && state.seat !== null) {
      this.welcome = false;
      this.rename(state.names[state.seat] ?? "", "");
    }
    // A hint holds for the turn it was asked in (a presence update keeps the same legal moves).
    if (this.hint && !(this.myTurn && state.legal.includes(this.hint.move))) this.hint = null;
    this.render();
    if (!this.hint) this.askHint();
  }

  onHint(hint) {
    // An answer that arrives after the turn moved on is stale.
    if (!$("hints").checked || !this.myTurn || !this.state.legal.includes(hint.move)) return;
    this.hint = { move: hint.move, message: hint };
    if (hint.move !== "draw" && hint.move !== "pass") this.selected = tileOf(hint.move);
    this.render();
    this.board.focusMove(hint.move);
  }

  askHint() {
    if (!$("hints").checked || !this.myTurn || this.state.forced) {
      if (this.hint) {
        this.hint = null;
        this.render();
      }
      return;
    }
    // Once per turn position: presence updates resend the same state.
    const turn = `${this.state.round}/${this.state.layout.length}/${this.state.legal.join()}`;
    if (!this.hint && this.hintAsked !== turn) {
      this.hintAsked = turn;
      this.socket.send({ type: "hint" });
    }
  }

  renderHint() {
    const box = $("hint");
    box.hidden = !this.hint;
    if (!this.hint) return;
    const { move, message } = this.hint;
    box.textContent = t("hint", { move: moveWords(move), reason: say(message, seatNames(this.state)) });
    box.dataset.move = move;
  }

  play(move) {
    if (!this.myTurn || !this.state.legal.includes(move)) return;
    this.selected = null;
    this.socket.move(move);
  }

  select(tile) {
    this.selected = tile && this.movesFor(tile).length ? tile : null;
    this.renderHand();
    this.renderBoard();
  }

  onKey(e) {
    if (!this.state || e.target.closest("input:not([type=checkbox]), select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
    const hand = this.sortedHand();
    const key = e.key.toLowerCase();
    const index = this.selected ? hand.findIndex((t) => sameTile(t, this.selected)) : -1;
    const selectable = hand.filter((t) => this.movesFor(t).length);
    if (key === "arrowright" || key === "arrowleft") {
      if (!selectable.length) return;
      const at = selectable.findIndex((t) => this.selected && sameTile(t, this.selected));
      const step = key === "arrowright" ? 1 : -1;
      this.select(selectable[(at + step + selectable.length + (at < 0 && step < 0 ? 1 : 0)) % selectable.length]);
    } else if (/^[1-9]$/.test(key)) {
      const tile = hand[Number(key) - 1];
      if (tile) this.select(tile);
    } else if (key === "tab" && this.selected) {
      e.preventDefault();
      const move = this.board.cycleTarget(e.shiftKey ? -1 : 1);
      if (move) this.boardText.say(moveWords(move));
    } else if (key === "enter" && index >= 0) {
      const move = this.board.focusedMove();
      if (move) this.play(move);
    } else if (key === "d") this.play("draw");
    else if (key === "p") this.play("pass");
    else if (key === "h") {
      $("hints").checked = true;
      this.askHint();
    } else if (key === "escape") this.select(null);
    else return;
    e.preventDefault();
  }

  sortedHand() {
    const hand = [...(this.state?.hand ?? [])];
    if (this.sort === "number") hand.sort((a, b) => parseTile(b)[0] - parseTile(a)[0] || parseTile(b)[1] - parseTile(a)[1]);
    else if (this.sort === "pips") hand.sort((a, b) => pips(b) - pips(a));
    return hand;
  }

  render() {
    const s = this.state;
    $("room").hidden = false;
    $("room").textContent = s.code;
    renderPlayers($("players"), s, {
      rename: (name) => this.rename(name ?? ""),
      actions: (seat, name) => this.seatActions(seat, name),
    });
    renderWaiting($("waiting"), s, invitesOf(s.code), (url) => this.copy(url));
    this.boardText.render(s);
    const title = [t("ui.game_name"), s.code].join(" · ");
    $("table-title").textContent = title; // the page's heading, for screen readers
    this.notice.update(this.myTurn, title, s.code);
    this.renderStatus();
    this.renderHand();
    this.renderBoard();
    this.renderLog();
    this.renderScores();
    this.renderShare();
    this.renderHint();
    this.renderRoundOver();
    this.chat.render(seatNames(s));
    this.company.render(s);
  }

  renderBoard() {
    const moves = this.selected ? this.movesFor(this.selected) : [];
    this.board.render(this.state, this.selected, moves, this.hint?.move ?? null);
  }

  // The creator may hand an absent friend's seat to a bot for the rest of the match.
  seatActions(seat, name) {
    const s = this.state;
    const absent = s.kinds[seat] === "human" && !s.connected[seat] && !(s.free_seats ?? []).includes(seat);
    if (s.seat !== s.creator || seat === s.seat || !absent || s.match_over) return [];
    const replace = seatButton("replace", t("ui.bot"), t("table.replace_title", { name }), () =>
      this.replaceWithBot(seat, name),
    );
    return [replace, this.company.reopenButton(seat, name)];
  }

  async rename(current, offered = current) {
    const name = await askName(offered);
    if (name && name !== current) this.socket.send({ type: "name", name });
  }

  // The turn timer's countdown, from the table's deadline (the server's bot plays when it runs out).
  renderClock() {
    const clock = $("clock");
    const deadline = this.state?.turn_deadline;
    clearTimeout(this.clockTimer);
    if (!deadline) {
      clock.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
    clock.hidden = false;
    clock.textContent = this.myTurn
      ? t("table.clock_you", { seconds: left })
      : t("table.clock", { name: seatNames(this.state)[this.state.to_move], seconds: left });
    clock.classList.toggle("low", left <= 10);
    if (left > 0) this.clockTimer = setTimeout(() => this.renderClock(), 1000);
  }

  async replaceWithBot(seat, name) {
    if (!confirm(t("table.replace_confirm", { name }))) return;
    try {
      await api("POST", `/api/tables/${encodeURIComponent(this.code)}/seats/${seat}/bot`, { token: this.token });
    } catch (err) {
      this.toast(err.message);
    }
  }

  renderStatus() {
    const s = this.state;
    let text;
    if (this.socket.reconnecting) text = t("connection.paused");
    else if (s.status === "waiting") text = t("table.status_waiting");
    else if (s.match_over) text = t("match.over");
    else if (s.round_over) text = t("round.over", { round: s.round });
    else if (s.phase === "empty") text = t("table.waiting_hub", { round: s.round, tile: `${s.start_double}-${s.start_double}` });
    else if (this.myTurn) text = s.phase === "foot" ? t("table.finish_foot", { tile: s.foot }) : s.phase === "hub" ? t("table.start_arm") : t("event.your_turn");
    else text = t("event.turn", { name: seatNames(s)[s.to_move] });
    $("status").textContent = text;
    this.renderClock();
    $("boneyard").textContent = t("ui.boneyard", { count: s.boneyard });
    const legal = this.myTurn ? s.legal : [];
    $("draw").hidden = !legal.includes("draw");
    $("pass").hidden = !legal.includes("pass");
  }

  renderHand() {
    const s = this.state;
    const hand = $("hand");
    hand.replaceChildren(
      ...this.sortedHand().map((tile, i) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "hand-tile";
        button.dataset.tile = tile;
        button.setAttribute("role", "option");
        button.setAttribute("aria-label", i < 9 ? t("table.tile_key", { tile, key: i + 1 }) : t("ui.tile", { tile }));
        const moves = this.myTurn ? this.movesFor(tile) : [];
        button.classList.toggle("playable", moves.length > 0);
        button.classList.toggle("dim", this.myTurn && moves.length === 0);
        button.classList.toggle("drawn", !!s.drawn && sameTile(s.drawn, tile));
        button.classList.toggle("hinted", !!this.hint && this.hint.move.includes("@") && sameTile(tileOf(this.hint.move), tile));
        const selected = !!this.selected && sameTile(this.selected, tile);
        button.classList.toggle("selected", selected);
        button.setAttribute("aria-selected", String(selected));
        button.appendChild(tileSvg(tile));
        button.addEventListener("click", () => this.select(selected ? null : tile));
        button.addEventListener("dblclick", () => {
          const options = this.movesFor(tile);
          if (options.length === 1) this.play(options[0]);
        });
        this.bindDrag(button, tile);
        return button;
      }),
    );
  }

  // Drag a tile from the hand onto a highlighted target to play it there.
  bindDrag(button, tile) {
    button.addEventListener("pointerdown", (down) => {
      if (!this.movesFor(tile).length || down.button !== 0) return;
      let ghost = null;
      const move = (e) => {
        if (!ghost && Math.hypot(e.clientX - down.clientX, e.clientY - down.clientY) < 10) return;
        if (!ghost) {
          if (!this.selected || !sameTile(this.selected, tile)) this.select(tile);
          ghost = document.createElement("div");
          ghost.className = "drag-ghost";
          ghost.appendChild(tileSvg(tile));
          document.body.appendChild(ghost);
        }
        ghost.style.left = `${e.clientX - 20}px`;
        ghost.style.top = `${e.clientY - 40}px`;
      };
      const up = (e) => {
        removeEventListener("pointermove", move);
        removeEventListener("pointerup", up);
        if (!ghost) return;
        ghost.remove();
        const target = document.elementFromPoint(e.clientX, e.clientY)?.closest("[data-move]");
        if (target) this.play(target.dataset.move);
      };
      addEventListener("pointermove", move);
      addEventListener("pointerup", up);
    });
  }

  renderLog() {
    const log = $("log");
    const names = seatNames(this.state);
    log.replaceChildren(
      ...this.state.log.map((entry) => {
        const li = document.createElement("li");
        li.textContent = say(entry, names);
        return li;
      }),
    );
    log.scrollTop = log.scrollHeight;
  }

  scoreTable(s, withHands) {
    const table = document.createElement("table");
    const head = table.createTHead().insertRow();
    const th = (text) => {
      const cell = document.createElement("th");
      cell.textContent = text;
      head.appendChild(cell);
    };
    th(t("ui.player"));
    if (withHands) [t("ui.hand"), t("table.this_round")].forEach(th);
    s.scores.forEach((_, r) => th(t("ui.round_short", { round: r + 1 })));
    th(t("ui.total"));
    const body = table.createTBody();
    seatNames(s).forEach((name, seat) => {
      const row = body.insertRow();
      row.insertCell().textContent = name;
      if (withHands) {
        // A flex box inside the cell: a flex cell would lose the table's row lines.
        const hand = document.createElement("div");
        hand.className = "revealed";
        for (const t of s.round_over.hands[seat]) hand.appendChild(tileSvg(t));
        row.insertCell().appendChild(hand);
        row.insertCell().textContent = String(s.round_over.points[seat]);
      }
      for (const round of s.scores) row.insertCell().textContent = String(round[seat]);
      row.insertCell().textContent = String(s.totals[seat]);
      row.classList.add("total");
    });
    return table;
  }

  renderScores() {
    const box = $("scores");
    box.className = "scores";
    box.replaceChildren(this.scoreTable(this.state, false));
  }

  renderShare() {
    const s = this.state;
    const box = $("share");
    const invites = invitesOf(s.code).map((i) => i.invite);
    box.innerHTML = `<h2 data-t="table.room"></h2><div class="row"><code id="room-code"></code>
      <button type="button" id="copy" data-t="table.copy_link" aria-describedby="room-kind"></button></div>
      <p class="muted" id="room-kind"></p><div class="links"></div>`;
    translatePage(box);
    box.querySelector("#room-code").textContent = s.code;
    box.querySelector("#room-kind").textContent = t(s.open ? "table.open" : "table.invite_only");
    const links = box.querySelector(".links");
    const watch = `${location.origin}/t/${s.code}`;
    const copyText = invites.length ? `${location.origin}${invites[0]}` : watch;
    for (const invite of invites) {
      const a = document.createElement("a");
      a.href = invite;
      a.textContent = t("table.invite", { url: `${location.origin}${invite}` });
      links.appendChild(a);
    }
    const spectate = document.createElement("a");
    spectate.href = watch;
    spectate.textContent = t("table.watch", { url: watch });
    links.appendChild(spectate);
    if (s.match_over) links.appendChild(replayLink(s.code));
    box.querySelector("#copy").addEventListener("click", () => this.copy(copyText));
  }

  async copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      this.toast(t("table.link_copied"));
    } catch {
      this.toast(text);
    }
  }

  // The results of the last finished round, from its own STATE: they stay up, even once the next
  // round is dealt underneath, until the player closes them.
  renderRoundOver() {
    const s = this.finished;
    const dialog = $("round-over");
    if (!s || this.dismissedRound === s.round) {
      dialog.hidden = true;
      return;
    }
    dialog.hidden = false;
    const dealt = this.state.round !== s.round;
    const over = s.round_over;
    const out = over.hands.findIndex((hand) => hand.length === 0);
    const names = seatNames(s);
    $("ro-title").textContent =
      over.reason !== "domino"
        ? t("event.round_over.blocked", { round: s.round })
        : out === s.seat
          ? t("event.round_over.domino_you", { round: s.round })
          : t("event.round_over.domino", { round: s.round, name: names[out] });
    const body = $("ro-body");
    body.replaceChildren();
    // Who won the round: the fewest points left in hand (the one who went out, or on a blocked
    // round whoever is caught with least).
    const least = Math.min(...over.points);
    const won = over.points.flatMap((points, seat) => (points === least ? [seat] : []));
    const winners = document.createElement("p");
    winners.className = "round-winner";
    winners.textContent = say({ code: "round.won", names: won, count: won.length }, names);
    const note = document.createElement("p");
    note.textContent = t("round.scoring", { points: s.rules.double_blank_points });
    body.append(winners, note, this.scoreTable(s, true));
    if (s.match_over) {
      const win = document.createElement("p");
      win.className = "winner";
      const winners = s.match_over.winners;
      win.textContent = say({ code: "event.match_over", names: winners, count: winners.length }, names);
      const why = document.createElement("p");
      why.textContent = s.match_over.why ? say(s.match_over.why, names) : s.match_over.explanation;
      body.append(win, why, replayLink(s.code));
    }
    if (dealt) {
      const next = document.createElement("p");
      next.className = "dealt";
      next.textContent = t("round.dealt", { round: this.state.round });
      body.append(next);
    }
    $("next-round").hidden = !!s.match_over || s.seat === null || dealt;
    $("ro-close").textContent = t(dealt ? "table.play_on" : "table.look");
  }

  banner() {
    const banner = $("banner");
    banner.hidden = false;
    // Restart the animation for back-to-back feet.
    banner.style.animation = "none";
    void banner.offsetWidth;
    banner.style.animation = "";
    clearTimeout(this.bannerTimer);
    this.bannerTimer = setTimeout(() => (banner.hidden = true), 1800);
  }

  toast(text) {
    const toast = $("toast");
    toast.textContent = text;
    toast.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => (toast.hidden = true), 2500);
  }
}

// An invite link (/t/CODE?invite=CLAIM) is claimed once for a fresh secret, kept in this browser;
// the address then becomes the plain /t/CODE, so it never shows or shares a secret.
async function claimInvite(code, invite) {
  try {
    const seat = await api("POST", `/api/tables/${encodeURIComponent(code)}/claim`, { invite, name: savedName() || null });
    rememberSeat(code, seat.token);
    return null;
  } catch (err) {
    return err.message;
  }
}

async function start() {
  setupTheme();
  await loadCatalog();
  translatePage();
  // A new language: the static words at once, the table's on its next render; the lobby's form
  // is built in the language it opened with, so it opens again.
  languageSwitcher($("language"), () => {
    translatePage();
    if (window.chickenfoot?.state) {
      window.chickenfoot.render();
      window.chickenfoot.connection.render();
    }
    else if (!window.chickenfoot) location.reload();
  });
  const match = location.pathname.match(/^\/t\/([^/]+)/);
  if (!match) {
    showLobby();
    return;
  }
  const code = decodeURIComponent(match[1]).toUpperCase();
  const invite = new URLSearchParams(location.search).get("invite");
  // A browser that holds this table's seat already keeps it (a second claim would be refused).
  const refused = invite && !seatSecret(code) ? await claimInvite(code, invite) : null;
  if (invite) history.replaceState(null, "", `/t/${encodeURIComponent(code)}`);
  $("table").hidden = false;
  window.chickenfoot = new TablePage(code, seatSecret(code));
  // A friend seated by an invite on their first visit is asked for a name at once.
  window.chickenfoot.welcome = !!invite && !refused && !savedName();
  if (refused) window.chickenfoot.toast(t("table.watching_instead", { error: refused }));
}

start();
