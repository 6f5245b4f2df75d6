// The table page: holds the last STATE and the player's selection, and hands each part of the page
// its share to draw. The page never decides what is legal: it offers exactly the moves in the
// server's `legal`.

import { Board } from "./board.js";
import { BoardText } from "./boardtext.js";
import { Chat } from "./chat.js";
import { Company, seatButton } from "./company.js";
import { confirmAction } from "./confirm.js";
import { ConnectionBar } from "./connection.js";
import { Hand, sameTile, tileOf } from "./hand.js";
import { Handover } from "./handover.js";
import { Hints } from "./hints.js";
import { say, seatNames, t } from "./i18n.js";
import { bindKeys } from "./keys.js";
import { renderLog } from "./log.js";
import { Motion } from "./motion.js";
import { TableRating } from "./rating.js";
import { askName } from "./name.js";
import { TableSocket, api, invitesOf } from "./net.js";
import { TurnNotice } from "./notice.js";
import { renderPlayers } from "./players.js";
import { ResultsDialog, renderScores } from "./results.js";
import { copyText, renderShare } from "./share.js";
import { Sounds } from "./sound.js";
import { StatusLine } from "./status.js";
import { Toasts } from "./toasts.js";
import { parseTile } from "./tiles.js";
import { renderWaiting } from "./waiting.js";
import { renderSpectators, renderWatching } from "./watching.js";

const $ = (id) => document.getElementById(id);

export class TablePage {
  constructor(code, token) {
    this.code = code;
    this.token = token;
    this.state = null;
    this.selected = null;
    this.dismissedRound = null;
    this.finished = null; // the last finished round's STATE: its results stay up until closed
    this.board = new Board($("board"), (move) => this.play(move));
    this.boardText = new BoardText($("board-text"));
    this.toasts = new Toasts($("toast"), $("banner"));
    this.sounds = new Sounds($("sound"));
    this.motion = new Motion($("board"), $("boneyard"));
    this.notice = new TurnNotice($("notice-notify"), (text) => this.toast(text));
    this.connection = new ConnectionBar($("connection"), () => this.socket.retryNow());
    this.chat = new Chat((message) => this.socket.send(message));
    this.company = new Company(this);
    this.handover = new Handover(this);
    this.hand = new Hand(this);
    this.hints = new Hints(this);
    this.status = new StatusLine();
    this.rating = new TableRating(code, () => this.state && this.render());
    this.results = new ResultsDialog(() => {
      this.dismissedRound = this.finished?.round ?? null;
      this.results.close();
    });
    this.socket = new TableSocket(code, token, {
      chat: (message) => this.chat.receive(message),
      rematch: (message) => this.company.onRematch(message),
      rating: (message) => this.rating.receive(message),
      series: (message) => this.onSeries(message),
      state: (state, events) => this.onState(state, events),
      hint: (hint) => this.hints.receive(hint),
      error: (message) => this.toast(say(message, this.state ? seatNames(this.state) : [])),
      connection: (status) => this.onConnection(status),
    });
    this.bind();
  }

  bind() {
    $("draw").addEventListener("click", () => this.play("draw"));
    $("pass").addEventListener("click", () => this.play("pass"));
    $("zoom-in").addEventListener("click", () => this.board.zoom(1.25));
    $("zoom-out").addEventListener("click", () => this.board.zoom(0.8));
    $("zoom-fit").addEventListener("click", () => this.board.fit());
    $("next-round").addEventListener("click", () => this.socket.send({ type: "next_round" }));
    $("board").addEventListener("click", (e) => {
      if (!e.target.closest(".target") && !this.board.pointers.size) this.select(null);
    });
    bindKeys(this);
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
    const wasMyTurn = this.myTurn;
    const flights = this.motion.plan(previous, state);
    this.state = state;
    if (this.selected && !state.hand.some((t) => sameTile(t, this.selected))) this.selected = null;
    if (!this.myTurn) this.selected = null;
    // Preselect a freshly drawn tile that may be played.
    if (this.myTurn && state.drawn && this.movesFor(state.drawn).length) this.selected = state.drawn;
    let foot = false;
    for (const event of events) {
      if (event.kind === "chicken_foot") foot = true;
      if (event.kind === "renamed" && event.seat !== state.seat) this.toast(say(event, seatNames(state)));
    }
    const placed = previous && previous.round === state.round && state.layout.length > previous.layout.length;
    if (!events.length && placed) {
      const [tile, target] = state.layout[state.layout.length - 1];
      if (target && parseTile(tile)[0] === parseTile(tile)[1]) foot = true;
    }
    if (foot) this.toasts.banner();
    this.toasts.turnMoved(Toasts.turnOf(state));
    // The server names the move it makes for this seat (a sole draw or pass) and makes it shortly.
    if (state.forced && this.myTurn) {
      this.toasts.show(t(state.forced === "draw" ? "move.auto_draw" : "move.auto_pass"), Toasts.turnOf(state));
    }
    if (state.round_over) this.finished = state;
    if (this.welcome && state.seat !== null) {
      this.welcome = false;
      this.rename(state.names[state.seat] ?? "", "");
    }
    this.hints.onState(state);
    this.render();
    this.motion.fly(flights, state);
    if (state.round_over && !previous?.round_over) this.sounds.play("round");
    else if (foot) this.sounds.play("foot");
    else if (placed) this.sounds.play("placed");
    if (this.myTurn && !wasMyTurn && !state.forced) this.sounds.play("turn", placed ? 0.15 : 0);
    if (!this.hints.hint) this.hints.ask();
  }

  // The series of rematches this table belongs to: shown with the scores and the match's results.
  onSeries(message) {
    this.results.series = message;
    if (this.state) this.render();
  }

  play(move) {
    if (!this.myTurn || !this.state.legal.includes(move)) return;
    this.selected = null;
    this.socket.move(move);
  }

  select(tile) {
    this.selected = tile && this.movesFor(tile).length ? tile : null;
    this.hand.render();
    this.renderBoard();
  }

  render() {
    const s = this.state;
    $("room").hidden = false;
    $("room").textContent = s.code;
    this.rating.render($("room"));
    renderPlayers($("players"), s, {
      rename: (name) => this.rename(name ?? ""),
      actions: (seat, name) => this.seatActions(seat, name),
    });
    renderWaiting($("waiting"), s, invitesOf(s.code), (url) => this.copy(url), {
      ready: () => this.seatRequest("ready"),
      start: () => this.seatRequest("start"),
    });
    renderWatching($("watching"), s);
    renderSpectators($("spectators"), s);
    this.boardText.render(s);
    const title = [t("ui.game_name"), s.code].join(" · ");
    $("table-title").textContent = title; // the page's heading, for screen readers
    this.notice.update(this.myTurn, title, s.code);
    this.sounds.render();
    this.status.render(s, this.myTurn, this.socket.reconnecting);
    this.hand.render();
    this.renderBoard();
    renderLog($("log"), s);
    renderScores($("scores"), s, this.results.series);
    renderShare($("share"), s, (text) => this.copy(text));
    this.hints.render();
    // The results of the last finished round, from its own STATE: they stay up, even once the next
    // round is dealt underneath, until the player closes them.
    const f = this.finished;
    this.results.render(f, s, !!f && this.dismissedRound !== f.round);
    this.chat.render(seatNames(s));
    this.company.render(s);
    this.handover.render(s);
  }

  renderBoard() {
    const moves = this.selected ? this.movesFor(this.selected) : [];
    this.board.render(this.state, this.selected, moves, this.hints.hint?.move ?? null);
    this.motion.redraw();
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

  // Ready for the first deal, or (the creator) start now with bots in the empty seats.
  async seatRequest(what) {
    try {
      await api("POST", `/api/tables/${encodeURIComponent(this.code)}/${what}`, { token: this.token });
    } catch (err) {
      this.toast(err.message);
    }
  }

  async replaceWithBot(seat, name) {
    if (!(await confirmAction(t("table.replace_confirm", { name }), t("table.replace_yes")))) return;
    try {
      await api("POST", `/api/tables/${encodeURIComponent(this.code)}/seats/${seat}/bot`, { token: this.token });
    } catch (err) {
      this.toast(err.message);
    }
  }

  copy(text) {
    return copyText(text, (words) => this.toast(words));
  }

  toast(text) {
    this.toasts.show(text);
  }
}
