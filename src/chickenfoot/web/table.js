// @ts-check
// The table page: holds the last STATE, the player's selection and what the server said beside it
// (a hint, the rematch, the series, the rating), and hands each part of the page the slice of them
// it draws. No part sees this object: each gets its slice, and a narrow port for what it may ask.
// Each part draws again only when its slice changed, and only what changed. The page never decides
// what is legal: it offers exactly the moves in the server's `legal`.

import { changeAccount } from "./account-api.js";
import { Board } from "./board.js";
import { BoardText } from "./boardtext.js";
import { Chat } from "./chat.js";
import { Company, Rematch } from "./company.js";
import { confirmAction } from "./confirm.js";
import { ConnectionBar } from "./connection.js";
import { byId, setText } from "./dom.js";
import { Hand } from "./hand.js";
import { Handover } from "./handover.js";
import { Hints } from "./hints.js";
import { say, seatNames, t } from "./i18n.js";
import { bindKeys } from "./keys.js";
import { GameLog } from "./log.js";
import { Motion } from "./motion.js";
import { askName } from "./name.js";
import { TableSocket, invitesOf, refusalText, rememberInvites } from "./net.js";
import { TurnNotice } from "./notice.js";
import { PaceLine, paceLines } from "./pace.js";
import { PlayersBar, seatSlices } from "./players.js";
import { TableRating } from "./rating.js";
import { ResultsDialog, ScoresPanel, matchEnded, scoresOf } from "./results.js";
import { RoomBadge, ShareCard, copyText, shareSlice } from "./share.js";
import { Sounds } from "./sound.js";
import { StatusLine, statusSlice } from "./status.js";
import { TableSocial } from "./tablesocial.js";
import { Toasts } from "./toasts.js";
import { parseTile, sameTile, tileKey, tileOf } from "./tiles.js";
import { WaitingCard, waitingSlice } from "./waiting.js";
import { Watching } from "./watching.js";

/** @import { ConnectionStatus, GameEvent, Invite, RematchMessage, SeriesMessage, State } from "./protocol.js" */
/** @import { ResultsSlice } from "./results.js" */

export class TablePage {
  /**
   * @param {string} code
   * @param {string | null} token the seat's credential this browser holds, if any
   * @param {() => void} [reconnected] told when the table's connection is back: so is the network
   * @param {boolean} [signedIn] the reader is signed in (their chat menus and the results' follow buttons)
   */
  constructor(code, token, reconnected = () => {}, signedIn = false) {
    this.code = code;
    this.token = token;
    this.reconnected = reconnected;
    /** @type {State | null} */
    this.state = null;
    /** @type {string | null} the tile chosen in the hand */
    this.selected = null;
    /** @type {number | null} the round whose results the player closed */
    this.dismissedRound = null;
    /** @type {State | null} the last finished round's STATE: its results stay up until closed */
    this.finished = null;
    /** @type {RematchMessage} */
    this.rematchMessage = { accepted: [], waiting: [], code: null };
    /** @type {SeriesMessage | null} the rematches this table follows on from */
    this.series = null;
    this.welcome = false; // a friend seated by an invite on their first visit is asked for a name
    /**
     * @template T
     * @param {string} path
     * @param {Record<string, unknown>} [body]
     * @returns {Promise<T>}
     */
    // By the seat's credential this browser holds, else by the account's session (with its form token):
    // either opens the seat for every one of its buttons (server/accounts/holders.py).
    const request = (path, body = {}) => changeAccount("POST", `/api/tables/${encodeURIComponent(code)}/${path}`, token ? { token, ...body } : body);
    this.request = request;
    /** @param {string} text */
    const toast = (text) => this.toast(text);
    /** @param {string} text */
    const copy = (text) => this.copy(text);
    const svg = byId("board", SVGSVGElement);
    this.title = byId("table-title");
    this.board = new Board(svg, (move) => this.play(move));
    this.boardText = new BoardText(byId("board-text"));
    this.toasts = new Toasts(byId("toast"), byId("banner"));
    this.sounds = new Sounds(byId("sound", HTMLButtonElement));
    this.room = new RoomBadge(byId("room"), byId("status"));
    this.players = new PlayersBar(byId("players"), {
      rename: (chosen) => this.rename(chosen ?? ""),
      replace: (seat, name) => this.replaceWithBot(seat, name),
      reopen: (seat, name) => this.company.reopen(seat, name),
    });
    this.hand = new Hand({ select: (tile) => this.select(tile), play: (move) => this.play(move) });
    this.motion = new Motion(svg, byId("boneyard"), {
      from: (seat, tile) => (seat === this.state?.seat ? this.hand.tileElement(tile) : null) ?? this.players.card(seat),
      to: (seat) => (seat === this.state?.seat ? this.hand.drawnElement() : this.players.card(seat)),
      placed: (tile) => this.board.tileElement(tile),
    });
    this.notice = new TurnNotice(byId("notice-notify", HTMLInputElement), toast);
    this.connection = new ConnectionBar(byId("connection"), () => this.socket.retryNow());
    this.social = new TableSocial(code, toast);
    this.social.signedIn = signedIn;
    this.chat = new Chat(
      (message) => this.socket.send(message),
      (line, speaker) => this.social.lineActions(line, speaker, { seat: this.state?.seat ?? null, over: !!this.state && matchEnded(this.state) }),
    );
    const company = { code, request, toast, changed: () => this.render() };
    this.company = new Company(company);
    this.rematch = new Rematch(company, (message) => this.onRematch(message));
    this.handover = new Handover({
      // A guest's seat by its credential; an account's without one by the session.
      offer: () => request("handover"),
      copy,
      toast,
    });
    this.hints = new Hints({
      ask: () => this.socket.send({ type: "hint" }),
      hinted: (move) => this.hinted(move),
      changed: () => this.render(),
    });
    this.status = new StatusLine();
    this.pace = new PaceLine(byId("pace"));
    this.rating = new TableRating(code, () => {
      this.hints.offer(this.rating.rated !== true); // a rated match is the players' own: no hints
      this.render();
    });
    this.results = new ResultsDialog(
      () => {
        this.dismissedRound = this.finished?.round ?? null;
        this.render();
      },
      () => this.socket.send({ type: "next_round" }),
      (names) => this.social.followRow(names),
    );
    this.scores = new ScoresPanel(byId("scores"));
    this.log = new GameLog(byId("log"));
    this.share = new ShareCard(byId("share"), copy);
    this.waiting = new WaitingCard(byId("waiting"), {
      ready: () => this.seatRequest("ready"),
      start: () => this.seatRequest("start"),
      invites: () => this.newInvites(),
      copy,
    });
    this.watching = new Watching(byId("watching"), byId("spectators"));
    this.socket = new TableSocket(code, token, {
      chat: (message) => this.chat.receive(message),
      rematch: (message) => this.onRematch(message),
      rating: (message) => this.rating.receive(message),
      series: (message) => this.onSeries(message),
      mute: (message) => {
        const text = say(message);
        if (message.moment === null) this.toast(text);
        this.chat.mutedUntil(text, message.moment);
      },
      state: (state, events) => this.onState(state, events),
      hint: (hint) => this.hints.receive(hint),
      error: (message) => {
        const text = say(message, this.state ? seatNames(this.state) : []);
        this.toast(text);
        if (message.code?.startsWith("moderation.")) this.chat.refused(text, typeof message.moment === "string" ? message.moment : undefined);
      },
      connection: (status) => this.onConnection(status),
    });
    this.bind(svg);
  }

  /** @param {SVGSVGElement} svg */
  bind(svg) {
    byId("draw").addEventListener("click", () => this.play("draw"));
    byId("pass").addEventListener("click", () => this.play("pass"));
    byId("zoom-in").addEventListener("click", () => this.board.zoom(1.25));
    byId("zoom-out").addEventListener("click", () => this.board.zoom(0.8));
    byId("zoom-fit").addEventListener("click", () => this.board.fit());
    svg.addEventListener("click", (e) => {
      const onTarget = e.target instanceof Element && e.target.closest(".target");
      if (!onTarget && !this.board.pointers.size) this.select(null);
    });
    bindKeys({
      shown: () => this.state !== null,
      tiles: () => this.hand.sorted(),
      selected: () => this.selected,
      playable: (tile) => this.movesFor(tile).length > 0,
      select: (tile) => this.select(tile),
      nextTarget: (step) => this.board.cycleTarget(step),
      focusedMove: () => this.board.focusedMove(),
      say: (words) => this.boardText.say(words),
      play: (move) => this.play(move),
      hint: () => this.hints.turnOn(),
    });
  }

  // Play is offered only at a table that has started, over a live connection.
  get myTurn() {
    const s = this.state;
    if (!s || s.status !== "playing" || this.socket.reconnecting) return false;
    return s.seat !== null && s.to_move === s.seat && !s.round_over && s.legal.length > 0;
  }

  /** @param {ConnectionStatus} status */
  onConnection(status) {
    this.connection.update(status);
    if (status.up) this.chat.mutedUntil("", null); // a mute still in force is said again after the first state
    if (status.up) this.reconnected();
    if (!status.up) this.selected = null;
    this.render();
  }

  /**
   * The moves `tile` has now (none but on the player's turn).
   * @param {string} tile
   */
  movesFor(tile) {
    if (!this.myTurn || !this.state) return [];
    return this.state.legal.filter((m) => m !== "draw" && m !== "pass" && sameTile(tileOf(m), tile));
  }

  /**
   * @param {State} state
   * @param {GameEvent[]} events
   */
  onState(state, events) {
    const previous = this.state;
    const wasMyTurn = this.myTurn;
    const flights = this.motion.plan(previous, state);
    this.state = state;
    const selected = this.selected;
    if (selected && !state.hand.some((tile) => sameTile(tile, selected))) this.selected = null;
    if (!this.myTurn) this.selected = null;
    // Preselect a freshly drawn tile that may be played.
    if (this.myTurn && state.drawn && this.movesFor(state.drawn).length) this.selected = state.drawn;
    let foot = false;
    for (const event of events) {
      if (event.kind === "chicken_foot") foot = true;
      if (event.kind === "renamed" && event.seat !== state.seat) this.toast(say(event, seatNames(state)));
      // At a turn-based table: a time ran out, and the table's rule was applied.
      if (event.kind === "replaced" || event.kind === "lost_on_time") this.toast(say(event, seatNames(state)));
    }
    const placed = !!previous && previous.round === state.round && state.layout.length > previous.layout.length;
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
    if (state.round_over || typeof state.lost_on_time === "number") this.finished = state; // a result to show
    if (this.welcome && state.seat !== null) {
      this.welcome = false;
      this.rename(state.names[state.seat] ?? "", "");
    }
    this.hints.follow({
      mine: this.myTurn,
      legal: state.legal,
      forced: !!state.forced,
      position: `${state.round}/${state.layout.length}/${state.legal.join()}`,
    });
    this.render();
    this.motion.fly(flights);
    if (state.round_over && !previous?.round_over) this.sounds.play("round");
    else if (foot) this.sounds.play("foot");
    else if (placed) this.sounds.play("placed");
    if (this.myTurn && !wasMyTurn && !state.forced) this.sounds.play("turn", placed ? 0.15 : 0);
  }

  /**
   * A `rematch` message (or the answer to the player's offer): who accepted, who is awaited, and the
   * new table once made. The match's results come back up, with the rematch.
   * @param {RematchMessage} message
   */
  onRematch(message) {
    this.rematchMessage = message;
    this.dismissedRound = null;
    this.rematch.receive(message, this.state !== null && this.state.seat !== null);
    this.render();
  }

  /**
   * The series of rematches this table belongs to: shown with the scores and the match's results.
   * @param {SeriesMessage} message
   */
  onSeries(message) {
    this.series = message;
    this.render();
  }

  /**
   * A hint came: its tile chosen, its place on the board in focus.
   * @param {string} move
   */
  hinted(move) {
    if (move !== "draw" && move !== "pass") this.selected = tileOf(move);
    this.render();
    this.board.focusMove(move);
  }

  /** @param {string} move */
  play(move) {
    if (!this.myTurn || !this.state?.legal.includes(move)) return;
    this.selected = null;
    this.socket.move(move);
  }

  /** @param {string | null} tile */
  select(tile) {
    this.selected = tile && this.movesFor(tile).length ? tile : null;
    this.render();
  }

  // Every part, with its slice of the state: each draws only what changed since it last drew.
  render() {
    const s = this.state;
    if (!s) return;
    const myTurn = this.myTurn;
    const names = seatNames(s);
    const invites = invitesOf(s.code);
    const hint = this.hints.hint?.move ?? null;
    const seated = s.seat !== null;
    this.room.update({ code: s.code, offline: this.socket.reconnecting, rated: this.rating.rated });
    this.players.update(seatSlices(s));
    this.waiting.update(waitingSlice(s, invites));
    this.watching.update(s);
    const arms = s.rules.hub_arms ?? 4;
    const toes = s.rules.toes ?? 3;
    this.boardText.update({ round: s.round, layout: s.layout, openEnds: s.open_ends, arms, toes, startDouble: s.start_double });
    const title = [t("ui.game_name"), s.code].join(" · ");
    setText(this.title, title); // the page's heading, for screen readers
    this.notice.update(myTurn, title, s.code);
    this.sounds.render();
    this.status.update(statusSlice(s, myTurn, this.socket.reconnecting));
    this.pace.update(paceLines(s, names));
    /** @type {Record<string, string[]>} */
    const moves = {};
    if (myTurn) for (const move of s.legal) if (move !== "draw" && move !== "pass") (moves[tileKey(tileOf(move))] ??= []).push(move);
    const hinted = hint?.includes("@") ? tileOf(hint) : null;
    this.hand.update({ seated, tiles: s.hand, myTurn, moves, drawn: s.drawn, hinted, selected: this.selected });
    const targets = this.selected ? this.movesFor(this.selected) : [];
    this.board.update({ layout: s.layout, arms, toes, openEnds: s.open_ends, targets, hint });
    this.log.update(s.log.map((entry) => say(entry, names)));
    this.scores.update(scoresOf(s, names), this.series);
    this.share.update(shareSlice(s, invites));
    this.hints.update(names);
    this.results.update(this.resultsSlice(s));
    this.chat.update(names);
    this.company.update({ seated, creator: seated && s.seat === s.creator, over: matchEnded(s), listed: !!s.public });
    const human = s.seat !== null && s.kinds[s.seat] === "human";
    const accepted = s.seat !== null && this.rematchMessage.accepted.includes(s.seat);
    this.rematch.update(matchEnded(s) ? { names, offer: human, accepted, message: this.rematchMessage } : null);
    this.handover.update(seated && !matchEnded(s));
  }

  /**
   * The results of the last finished round, from its own STATE, over the table's present state `s`:
   * they stay up, even once the next round is dealt underneath, until the player closes them. A match
   * lost on time shows its result the same way, though its round was not played out.
   * @param {State} s
   * @returns {ResultsSlice | null}
   */
  resultsSlice(s) {
    const f = this.finished;
    const lostOnTime = typeof f?.lost_on_time === "number" ? f.lost_on_time : null;
    if (!f || !(f.round_over || lostOnTime !== null) || this.dismissedRound === f.round) return null;
    return {
      code: f.code,
      round: f.round,
      now: s.round,
      seat: f.seat,
      over: f.round_over,
      lostOnTime,
      scores: scoresOf(f, seatNames(f)),
      doubleBlank: f.rules.double_blank_points,
      matchOver: f.match_over,
      series: this.series,
      changes: this.rating.changes,
    };
  }

  /**
   * @param {string} current
   * @param {string} [offered]
   */
  async rename(current, offered = current) {
    const name = await askName(offered);
    if (name && name !== current) this.socket.send({ type: "name", name });
  }

  /**
   * Ready for the first deal, or (the creator) start now with bots in the empty seats.
   * @param {"ready" | "start"} what
   */
  async seatRequest(what) {
    try {
      await this.request(what);
    } catch (err) {
      this.toast(refusalText(err));
    }
  }

  // The creator on a device without the invite links (another device of the account made the table):
  // new links from the server, kept here; those made before open nothing after.
  async newInvites() {
    try {
      /** @type {{ invites: Invite[] }} */
      const made = await this.request("invites");
      rememberInvites(this.code, made.invites);
      this.render();
    } catch (err) {
      this.toast(refusalText(err));
    }
  }

  /**
   * The creator hands an absent friend's seat to a bot for the rest of the match.
   * @param {number} seat
   * @param {string} name
   */
  async replaceWithBot(seat, name) {
    if (!(await confirmAction(t("table.replace_confirm", { name }), t("table.replace_yes")))) return;
    try {
      await this.request(`seats/${seat}/bot`);
    } catch (err) {
      this.toast(refusalText(err));
    }
  }

  /** @param {string} text */
  copy(text) {
    return copyText(text, (words) => this.toast(words));
  }

  /** @param {string} text */
  toast(text) {
    this.toasts.show(text);
  }
}
