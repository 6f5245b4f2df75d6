"""Every sentence a player reads, once: a code with its English message and named placeholders.

The server and the engine speak in codes with parameters (``{"code": "illegal.not_in_hand",
"tile": "9-4", "seat": 0}``); the page and the terminal game render them in the reader's language
with :func:`chickenfoot.i18n.render`. The English here is the gettext ``msgid`` and the code its
``msgctxt``, so a catalog that lacks a translation falls back to this English, never to the code.

``msg`` and ``nmsg`` are the markers ``pybabel extract`` looks for (``-k msg:1c,2 -k nmsg:1c,2,3``,
see ``scripts/i18n.sh``). A plural message chooses its form by the parameter ``count``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, Union

EventKind = Literal[
    "hub",
    "play",
    "chicken_foot",
    "foot_done",
    "draw",
    "pass",
    "turn",
    "round_over",
    "match_over",
    "round_start",
    "connected",
    "disconnected",
    "renamed",
    "left",
]
"""The kinds of event the protocol sends (docs/protocol.md); kind ``k`` is worded by the codes ``event.k...``."""


@dataclass(frozen=True, slots=True)
class Text:
    """One message: its code, its English and, for a plural message, the English plural."""

    code: str
    english: str
    plural: str | None = None


def msg(code: str, english: str) -> Text:
    return Text(code, english)


def nmsg(code: str, singular: str, plural: str) -> Text:
    return Text(code, singular, plural)


class Code(Enum):
    """The typed set of message codes; ``Code.parse("event.hub")`` reads one off the wire.

    >>> Code.EVENT_PLAY.id, Code.parse("illegal.not_in_hand") is Code.ILLEGAL_NOT_IN_HAND
    ('event.play', True)
    """

    # --- events of the protocol (docs/protocol.md), one per kind; moves as Move.describe words them
    EVENT_HUB = msg("event.hub", "{name} placed the hub {tile}")
    EVENT_PLAY = msg("event.play", "{name} played {tile} on {target}")
    EVENT_DRAW = msg("event.draw", "{name} drew {tile}")
    EVENT_DRAW_HIDDEN = msg("event.draw_hidden", "{name} drew a tile")
    EVENT_PASS = msg("event.pass", "{name} passed")
    EVENT_CHICKEN_FOOT = nmsg(
        "event.chicken_foot", "Chicken foot! {tile} needs {count} toe", "Chicken foot! {tile} needs {count} toes"
    )
    EVENT_FOOT_DONE = msg("event.foot_done", "The chicken foot on {tile} is complete")
    EVENT_TURN = msg("event.turn", "{name} to play")
    EVENT_YOUR_TURN = msg("event.your_turn", "Your turn")
    EVENT_ROUND_START = msg("event.round_start", "Round {round}: the hub is {tile}")
    EVENT_ROUND_OVER_DOMINO = msg("event.round_over.domino", "Round {round} is over: {name} is out of tiles")
    EVENT_ROUND_OVER_DOMINO_YOU = msg("event.round_over.domino_you", "Round {round} is over: you are out of tiles")
    EVENT_ROUND_OVER_BLOCKED = msg("event.round_over.blocked", "Round {round} is over: blocked, nobody can play")
    EVENT_MATCH_OVER = nmsg("event.match_over", "{names} wins the match!", "{names} win the match!")
    EVENT_CONNECTED = msg("event.connected", "{name} is at the table")
    EVENT_DISCONNECTED = msg("event.disconnected", "{name} left the table")
    EVENT_COVERED = msg("event.covered", "A bot plays for {name} until they return")
    EVENT_RENAMED = msg("event.renamed", "{old} is now called {name}")
    EVENT_RESIGNED = msg("event.resigned", "{name} resigned: a bot plays their seat to the end")
    EVENT_ABORTED = msg("event.aborted", "The table was called off before the match began")
    EVENT_LEFT = msg("event.left", "{name} left the match: a bot plays for them until they come back")
    EVENT_TIME_REPLACED = msg(
        "event.time_replaced", "{name} ran out of time: a bot plays for them to the end of the match"
    )
    EVENT_LOST_ON_TIME = msg("event.lost_on_time", "{name} ran out of time and lost the match")

    # --- moves in words (hints, forced moves, the board's targets)
    MOVE_HUB = msg("move.hub", "place the hub {tile}")
    MOVE_PLAY = msg("move.play", "play {tile} on {target}")
    MOVE_DRAW = msg("move.draw", "draw a tile")
    MOVE_PASS = msg("move.pass", "pass")
    MOVE_FORCED = msg("move.forced", "{name} has no choice: {move}")
    MOVE_AUTO_DRAW = msg("move.auto_draw", "No tile fits — drawing for you…")
    MOVE_AUTO_PASS = msg("move.auto_pass", "Nothing to play — passing…")
    MOVE_DREW_PLAYABLE = msg("move.drew_playable", "You drew {tile}: play it, or pass")
    MOVE_UNDONE = nmsg("move.undone", "Took back {count} move", "Took back {count} moves")
    MOVE_UNDONE_YOURS = msg("move.undone_yours", "Your last move was taken back.")
    MOVE_NOTHING_TO_UNDO = msg("move.nothing_to_undo", "Nothing to undo (undo is for one player against bots).")

    # --- the state of the layout: what is open
    OPEN_NONE = msg("open.none", "Open ends: none yet.")
    OPEN_ENDS = msg("open.ends", "Open ends: {ends}.")
    OPEN_END = msg("open.end", "{number} on {tile}")
    OPEN_HUB = nmsg(
        "open.hub",
        "The hub {tile} needs {count} more arm carrying {number}.",
        "The hub {tile} needs {count} more arms carrying {number}.",
    )
    OPEN_FOOT = nmsg(
        "open.foot",
        "Chicken foot on {tile}: {count} more toe carrying {number}, nothing else may be played.",
        "Chicken foot on {tile}: {count} more toes carrying {number}, nothing else may be played.",
    )
    OPEN_EMPTY = msg("open.empty", "The table is empty: the round opens with {tile}.")
    BOARD_HUB = msg("board.hub", "hub")
    BOARD_ARMS_LEFT = nmsg("board.arms_left", "needs {count} more arm", "needs {count} more arms")
    BOARD_TOES_LEFT = nmsg("board.toes_left", "needs {count} more toe", "needs {count} more toes")

    # --- the end of a round and of the match (docs/rules.md §5, §6)
    ROUND_OVER = msg("round.over", "Round {round} is over")
    ROUND_STATUS = msg("round.status", "Round {round} of {rounds} · hub {tile} · boneyard {count}")
    ROUND_SCORING = msg("round.scoring", "Points are the pips left in hand; the 0-0 counts {points}.")
    ROUND_DEALT = msg("round.dealt", "Round {round} has been dealt — close this to play on.")
    ROUND_POINTS = nmsg("round.points", "{count} point", "{count} points")
    ROUND_OUT = msg("round.out", "out!")
    ROUND_WON = nmsg("round.won", "{names} won the round", "{names} won the round")
    MATCH_OVER = msg("match.over", "Match over")
    MATCH_WIN_LOWEST = msg("match.win.lowest", "{name} wins with the lowest total ({total})")
    MATCH_WIN_ZERO_ROUNDS = msg(
        "match.win.zero_rounds", "{tied} tied on {total}; {name} wins with the most rounds scored 0 ({zeros})"
    )
    MATCH_WIN_LOWEST_ROUND = msg(
        "match.win.lowest_round",
        "{tied} tied on {total} and on rounds scored 0; {name} wins with the lowest non-zero round score ({points})",
    )
    MATCH_WIN_NO_NONZERO = msg(
        "match.win.no_nonzero", "{tied} tied on {total} and on rounds scored 0; {name} wins with no non-zero round"
    )
    MATCH_WIN_SHARED = msg(
        "match.win.shared", "{names} share the win: tied on total, rounds scored 0 and lowest non-zero round"
    )
    LIST_AND = msg("list.and", "{head} and {last}")
    DECIMAL_SIGN = msg("number.decimal_sign", ".")

    # --- hints: a suggested move and the search's reason (chickenfoot.bots.hint)
    HINT = msg("hint", "Hint: {move} — {reason}")
    HINT_ONLY_MOVE = msg("hint.only_move", "it is your only legal move")
    HINT_SEARCH = msg(
        "hint.search",
        "the search expects about {own} points for you against {theirs} for {them} at the round's end; "
        "the next best, {next}, gives {next_own} points for you against {next_theirs} for {them} ({closeness})",
    )
    HINT_THEM_ONE = msg("hint.them.one", "your opponent")
    HINT_THEM_MANY = msg("hint.them.many", "your opponents on average")
    HINT_ABOUT_AS_GOOD = msg("hint.about_as_good", "about as good")
    HINT_WORSE = msg("hint.worse", "{gap} points worse")

    # --- errors: illegal moves (round.py why_illegal, layout.py why_not) and bad notation
    ILLEGAL_MOVE = msg("illegal.move", "Illegal move {move}: {reason}")
    ILLEGAL_ROUND_OVER = msg("illegal.round_over", "the round is over")
    ILLEGAL_MUST_PLAY_DRAWN = msg("illegal.must_play_drawn", "{name} drew {tile} and must play it")
    ILLEGAL_MUST_PLAY_DRAWN_OR_PASS = msg(
        "illegal.must_play_drawn_or_pass", "{name} drew {tile} and must play it or pass"
    )
    ILLEGAL_MUST_DRAW = msg("illegal.must_draw", "{name} has no legal play and must draw")
    ILLEGAL_MUST_PLAY = msg("illegal.must_play", "{name} has a legal play and must play")
    ILLEGAL_NOT_IN_HAND = msg("illegal.not_in_hand", "{tile} is not in the hand of {name}")
    ILLEGAL_ONLY_DRAWN = msg("illegal.only_drawn", "{name} drew {drawn}: only that tile may be played now")
    ILLEGAL_OPENS_WITH = msg("illegal.opens_with", "the round opens with {tile}")
    ILLEGAL_ALREADY_PLACED = msg("illegal.already_placed", "{tile} is already in the layout")
    ILLEGAL_NO_HUB_YET = msg("illegal.no_hub_yet", "the hub has not been placed yet")
    ILLEGAL_HUB_PLACED = msg("illegal.hub_placed", "the hub is already placed")
    ILLEGAL_TARGET_MISSING = msg("illegal.target_missing", "{target} is not in the layout")
    ILLEGAL_NOT_HUB_NUMBER = msg("illegal.not_hub_number", "{tile} does not carry the hub's {number}")
    ILLEGAL_NOT_FOOT_NUMBER = msg("illegal.not_foot_number", "{tile} does not carry {number}")
    ILLEGAL_NO_OPEN_END = msg("illegal.no_open_end", "{target} has no open end")
    ILLEGAL_NO_MATCH = msg("illegal.no_match", "{tile} does not match the open {number} of {target}")
    ILLEGAL_NO_FIT = msg("illegal.no_fit", "it does not fit the layout")
    ILLEGAL_IS_LEGAL = msg("illegal.is_legal", "it is legal")
    ERROR_NOT_YOUR_TURN = msg("error.not_your_turn", "It is not your turn: {name} is to move")
    ERROR_HINT_NOT_YOUR_TURN = msg("error.hint_not_your_turn", "A hint is for the player to move")
    ERROR_MATCH_OVER = msg("error.match_over", "The match is over")
    ERROR_LOSE_ON_TIME_TWO = msg("error.lose_on_time_two", "Losing the match on time is a rule for two players")
    ERROR_VACATION_DAYS = nmsg(
        "error.vacation_days",
        "You have {count} day of vacation left this year",
        "You have {count} days of vacation left this year",
    )
    ERROR_ROUND_NOT_OVER = msg("error.round_not_over", "The round is not over yet")
    ERROR_SLOW_DOWN = msg("error.slow_down", "Too many messages: slow down")
    ERROR_BINARY_FRAME = msg("error.binary_frame", "binary frames are not part of the protocol: send JSON text")
    ERROR_MESSAGE_TOO_LARGE = msg("error.message_too_large", "message too large (limit {limit} bytes)")
    ERROR_FRAME_TOO_LARGE = msg("error.frame_too_large", "frame too large (limit {limit} bytes): closing")
    ERROR_BAD_MESSAGE = msg("error.bad_message", "{reason}")
    ERROR_BAD_MOVE = msg("error.bad_move", "bad move {move}: {reason}")
    ERROR_STALE_VERSION = msg("error.stale_version", "stale version {version} (the table is at version {current})")
    ERROR_SHUTTING_DOWN = msg("error.shutting_down", "the server is shutting down: reconnect in a moment")
    ERROR_SPECTATOR_MOVE = msg("error.spectator_move", "spectators cannot play")
    ERROR_NOT_STARTED = msg("error.not_started", "waiting for every player to join")
    ERROR_NEXT_ROUND_SEATED = msg("error.next_round_seated", "only a seated player can deal the next round")
    ERROR_MOVE_NOT_STORED = msg("error.move_not_stored", "the move could not be stored; try again")
    ERROR_CHAT_NOT_STORED = msg("error.chat_not_stored", "the line could not be stored; try again")
    ERROR_CHAT_UNAVAILABLE = msg(
        "error.chat_unavailable", "the chat is unavailable while the game store is; try again shortly"
    )
    ERROR_REFUSED = msg("error.refused", "{reason}")
    ERROR_FLOODING = msg(
        "error.flooding", "Disconnected: too many messages (at most {rate} a second, bursts of {burst})"
    )
    ERROR_NOT_READING = msg("error.not_reading", "Disconnected: not reading (a message waited over {seconds} s)")
    ERROR_STORE_DOWN = msg(
        "error.store_down", "Moves are refused while the game store is unavailable; try again shortly"
    )
    ERROR_RENAME_WAIT = msg("error.rename_wait", "You changed your name a moment ago: try again in {seconds} s")
    ERROR_RENAME_SPECTATOR = msg("error.rename_spectator", "Only a player at the table can change their name")
    ERROR_NAME_NOT_STORED = msg("error.name_not_stored", "Your name could not be stored; try again shortly")
    SERVICE_DOWN = msg("service.down", "The game store is unavailable: moves are refused until it is back")
    SERVICE_UP = msg("service.up", "The game store is back: play on")
    NOTATION_BAD_TILE = msg("notation.bad_tile", "bad tile '{text}': expected two numbers like 9-4")
    NOTATION_BAD_MOVE = msg("notation.bad_move", "bad move '{text}': expected H-H, TILE@TARGET, draw or pass")

    # --- labels shared by the page and the terminal game
    GAME_NAME = msg("ui.game_name", "Chicken Foot")
    SEAT = msg("ui.seat", "Seat {seat}")
    YOU = msg("ui.you", "You")
    NAME_YOU = msg("ui.name_you", "{name} (you)")
    BOT = msg("ui.bot", "bot")
    HUMAN = msg("ui.human", "human")
    BOT_EASY = msg("ui.bot.easy", "easy")
    BOT_MEDIUM = msg("ui.bot.medium", "medium")
    BOT_HARD = msg("ui.bot.hard", "hard")
    BOT_EXPERT = msg("ui.bot.expert", "expert")
    BOT_RANDOM = msg("ui.bot.random", "random")
    BOT_GREEDY = msg("ui.bot.greedy", "greedy")
    PLAYER = msg("ui.player", "Player")
    # --- the name of a seat whose player chose none (the server stores no name for it); numbered from 1
    SEAT_DEFAULT = msg("seat.default", "Player {number}")
    BOT_DEFAULT = msg("bot.default", "Bot {number}")
    BOT_DEFAULT_EASY = msg("bot.default.easy", "Easy bot {number}")
    BOT_DEFAULT_MEDIUM = msg("bot.default.medium", "Medium bot {number}")
    BOT_DEFAULT_HARD = msg("bot.default.hard", "Hard bot {number}")
    BOT_DEFAULT_EXPERT = msg("bot.default.expert", "Expert bot {number}")
    BOT_DEFAULT_RANDOM = msg("bot.default.random", "Random bot {number}")
    BOT_DEFAULT_GREEDY = msg("bot.default.greedy", "Greedy bot {number}")
    PLAYERS = msg("ui.players", "Players")
    PLAYER_COUNT = nmsg("ui.player_count", "{count} player", "{count} players")
    TILE_COUNT = nmsg("ui.tile_count", "{count} tile", "{count} tiles")
    TILE = msg("ui.tile", "tile {tile}")
    RULES = msg("ui.rules", "Rules")
    ROUNDS = msg("ui.rounds", "Rounds")
    ROUNDS_ALL = msg("ui.rounds_all", "all")
    BONEYARD = msg("ui.boneyard", "Boneyard: {count}")
    DRAW = msg("ui.draw", "Draw")
    PASS = msg("ui.pass", "Pass")
    HINTS = msg("ui.hints", "Hints")
    LOG = msg("ui.log", "Log")
    SCORES = msg("ui.scores", "Scores")
    HAND = msg("ui.hand", "Hand")
    POINTS = msg("ui.points", "Points")
    TOTAL = msg("ui.total", "Total")
    ROUND_SHORT = msg("ui.round_short", "R{round}")
    HOW_TO_PLAY = msg("ui.how_to_play", "How to play")
    LANGUAGE = msg("ui.language", "Language")
    BACK = msg("ui.back", "Back to the game")

    # --- the page: lobby and table (web/pages/index.html, lobby.js, app.js)
    LOBBY = msg("lobby.home", "Chicken Foot lobby")
    LOBBY_NEW_TABLE = msg("lobby.new_table", "New table")
    LOBBY_PRESET = msg("lobby.preset", "Rules preset")
    # The presets of rules.PRESETS as players read them, one code "preset.<name>" each.
    PRESET_CLASSIC = msg("preset.classic", "Classic")
    PRESET_SIX_ARMS = msg("preset.six-arms", "Six arms")
    PRESET_EIGHT_ARMS = msg("preset.eight-arms", "Eight arms")
    PRESET_BLANK_ZERO = msg("preset.blank-zero", "The 0-0 counts 0")
    PRESET_BLANK_25 = msg("preset.blank-25", "The 0-0 counts 25")
    PRESET_DRAW_UNTIL_PLAYABLE = msg("preset.draw-until-playable", "Draw until a tile fits")
    PRESET_MUST_PLAY_DRAWN = msg("preset.must-play-drawn", "A drawn tile that fits must be played")
    PRESET_DOUBLE_6 = msg("preset.double-6", "Double-6 set")
    PRESET_DOUBLE_12 = msg("preset.double-12", "Double-12 set")
    PRESET_DOUBLE_15 = msg("preset.double-15", "Double-15 set")
    PRESET_DOUBLE_18 = msg("preset.double-18", "Double-18 set")
    LOBBY_ROUND_COUNT = msg("lobby.round_count", "Number of rounds")
    LOBBY_PLAYER_COUNT = msg("lobby.player_count", "Number of players")
    LOBBY_YOUR_NAME = msg("lobby.your_name", "Your name")
    LOBBY_CREATE = msg("lobby.create", "Create table")
    LOBBY_JOIN_TITLE = msg("lobby.join_title", "Join a table")
    LOBBY_ROOM_CODE = msg("lobby.room_code", "Room code")
    LOBBY_JOIN = msg("lobby.join", "Join")
    LOBBY_WATCH = msg("lobby.watch", "Watch")
    LOBBY_FRIEND = msg("lobby.friend", "Friend (invite)")
    LOBBY_SEAT_PLAYER = msg("lobby.seat_player", "Seat {seat} player")
    LOBBY_SEAT_BOT = msg("lobby.seat_bot", "Seat {seat} bot difficulty")
    TABLE_THEME = msg("table.theme", "Toggle dark mode")
    TABLE_THEME_TITLE = msg("table.theme_title", "Light / dark")
    TABLE_LAYOUT = msg("table.layout", "The layout")
    TABLE_ZOOM = msg("table.zoom", "Zoom")
    TABLE_ZOOM_IN = msg("table.zoom_in", "Zoom in")
    TABLE_ZOOM_OUT = msg("table.zoom_out", "Zoom out")
    TABLE_ZOOM_FIT = msg("table.zoom_fit", "Fit the board")
    TABLE_BANNER = msg("table.banner", "Chicken foot!")
    TABLE_GAME_LOG = msg("table.game_log", "Game log")
    TABLE_YOUR_HAND = msg("table.your_hand", "Your hand")
    TABLE_YOUR_TILES = msg("table.your_tiles", "Your tiles")
    TABLE_BONEYARD_TITLE = msg("table.boneyard_title", "Tiles in the boneyard")
    TABLE_SHOW_HINTS = msg("table.show_hints", "Show hints")
    TABLE_SORT = msg("table.sort", "Sort")
    TABLE_SORT_HAND = msg("table.sort_hand", "Sort hand")
    TABLE_SORT_NUMBER = msg("table.sort.number", "by number")
    TABLE_SORT_PIPS = msg("table.sort.pips", "by pips")
    TABLE_SORT_NONE = msg("table.sort.none", "as dealt")
    TABLE_TILE_KEY = msg("table.tile_key", "tile {tile} (key {key})")
    TABLE_PLAYABLE = msg("table.playable", "can be played")
    HAND_DRAG_HINT = msg(
        "hand.drag_hint", "Drag a tile onto a highlighted place to play it there, or tap the tile, then the place."
    )
    HAND_DRAG_HINT_CLOSE = msg("hand.drag_hint_close", "Got it")
    TABLE_PLAYER = nmsg("table.player", "{name}: {count} tile, {presence}", "{name}: {count} tiles, {presence}")
    TABLE_CONNECTED = msg("table.connected", "connected")
    TABLE_DISCONNECTED = msg("table.disconnected", "disconnected")
    TABLE_ROOM = msg("table.room", "Room")
    TABLE_COPY_LINK = msg("table.copy_link", "Copy link")
    TABLE_LINK_COPIED = msg("table.link_copied", "Link copied")
    TABLE_INVITE = msg("table.invite", "Invite: {url}")
    TABLE_WATCH = msg("table.watch", "Watch: {url}")
    TABLE_NEXT_ROUND = msg("table.next_round", "Next round")
    TABLE_LOOK = msg("table.look", "Look at the board")
    TABLE_PLAY_ON = msg("table.play_on", "Play on")
    TABLE_REPLAY = msg("table.replay", "Replay and review the match")
    TABLE_FINISH_FOOT = msg("table.finish_foot", "Your turn — finish the chicken foot on {tile}")
    TABLE_START_ARM = msg("table.start_arm", "Your turn — start an arm")
    TABLE_WAITING_HUB = msg("table.waiting_hub", "Round {round}: waiting for the {tile}")
    TABLE_CLOCK_YOU = msg("table.clock_you", "You have {seconds} s")
    TABLE_CLOCK = msg("table.clock", "{name} has {seconds} s")
    TABLE_CLOCK_LABEL = msg("table.clock_label", "Time left for this turn")
    TABLE_REPLACE_TITLE = msg("table.replace_title", "Let a bot play {name}'s seat from now on")
    TABLE_REPLACE_CONFIRM = msg(
        "table.replace_confirm", "Let a bot play {name}'s seat for the rest of the match? {name} will not get it back."
    )
    TABLE_REPLACE_YES = msg("table.replace_yes", "Let a bot play")
    TABLE_OPEN = msg("table.open", "Open table: anyone with the code may take a free seat.")
    TABLE_INVITE_ONLY = msg("table.invite_only", "Invite-only: each invite link seats one friend, once.")
    TABLE_THIS_ROUND = msg("table.this_round", "This round")
    TABLE_WATCHING_INSTEAD = msg("table.watching_instead", "{error} — watching instead")
    LOBBY_OPEN_TABLE = msg(
        "lobby.open_table",
        "Open table: anyone with the room code may take a free seat (otherwise only the friends you invite)",
    )
    LOBBY_TURN_TIMER = msg("lobby.turn_timer", "Turn timer")
    LOBBY_TIMER_AUTO = msg("lobby.timer_auto", "60 s with friends, off against bots")
    LOBBY_TIMER_OFF = msg("lobby.timer_off", "off")
    LOBBY_JOIN_OPEN = msg("lobby.join_open", "{code} is open: join to take a free seat, or watch.")
    LOBBY_JOIN_INVITE = msg(
        "lobby.join_invite", "{code} is invite-only: open your invite link to take your seat, or watch."
    )
    TABLE_TO_PLAY = msg("table.to_play", "to play")
    TABLE_NOT_JOINED = msg("table.not_joined", "not joined yet")
    TABLE_STATUS_WAITING = msg("table.status_waiting", "Waiting for every player to join")
    WAITING_MISSING = nmsg("waiting.missing", "Waiting for {names} to join", "Waiting for {names} to join")
    WAITING_NO_MOVES = msg("waiting.no_moves", "The round starts as soon as everyone has taken their seat.")
    WAITING_INVITES = msg("waiting.invites", "Send each friend their own invite link (each opens one seat, once):")
    WAITING_OPEN = msg("waiting.open", "Or give them the room code {code}: anyone with it may take a free seat.")
    WAITING_ASK_CREATOR = msg("waiting.ask_creator", "{name} created the table and has the invite links.")
    WAITING_INVITES_ELSEWHERE = msg(
        "waiting.invites_elsewhere",
        "The invite links are on the device that created the table. New links made here replace them.",
    )
    WAITING_NEW_INVITES = msg("waiting.new_invites", "Make new invite links")
    NAME_TITLE = msg("name.title", "What should the others call you?")
    NAME_NOTE = msg("name.note", "Everyone at the table sees it. You can change it later.")
    NAME_SAVE = msg("name.save", "Save")
    NAME_CHANGE = msg("name.change", "Change your name")
    CONNECTION_LOST = msg("connection.lost", "Connection lost — reconnecting…")
    CONNECTION_RETRY = nmsg(
        "connection.retry",
        "Attempt {attempt} in {count} second",
        "Attempt {attempt} in {count} seconds",
    )
    CONNECTION_RETRY_NOW = msg("connection.retry_now", "Retry now")
    CONNECTION_BACK = msg("connection.back", "Connected again")
    CONNECTION_PAUSED = msg("connection.paused", "Reconnecting — play resumes once the connection is back")
    OFFLINE_TITLE = msg("offline.title", "You are offline")
    OFFLINE_NOTE = msg("offline.note", "This page comes back by itself when the network returns.")
    OFFLINE_PAGE_TITLE = msg("offline.page_title", "This page needs the network")
    OFFLINE_PAGE_NOTE = msg(
        "offline.page_note", "It opens by itself when the network returns. Meanwhile, How to play works without it:"
    )
    NOTICE_TITLE = msg("notice.title", "Your turn · {title}")
    NOTICE_BODY = msg("notice.body", "It is your turn at table {code}")
    NOTICE_SETTINGS = msg("notice.settings", "Turn notices")
    SOUND_TOGGLE = msg("sound.toggle", "Sounds")
    SOUND_ON = msg("sound.on", "Sounds on: click to mute")
    SOUND_OFF = msg("sound.off", "Sounds muted: click to turn them on")
    NOTICE_NOTIFY = msg("notice.notify", "Notify me when this tab is hidden")
    NOTICE_BLOCKED = msg("notice.blocked", "This browser blocks notifications from this site")
    A11Y_HUB = msg("a11y.hub", "Hub {tile}")
    A11Y_ARM = msg("a11y.arm", "Arm {n}: {tiles}")
    A11Y_TOE = msg("a11y.toe", "Toe {n} of the chicken foot {tile}: {tiles}")
    A11Y_OPEN_END = msg("a11y.open_end", "open end {number}")
    A11Y_NOT_STARTED = msg("a11y.not_started", "not started")
    A11Y_FOOT = msg("a11y.foot", "chicken foot")
    A11Y_CHANGED = msg("a11y.changed", "{tile} played. {line}")

    # One seat open on several devices (web/players.js): the player's own card says so
    TABLE_OPEN_ELSEWHERE = msg("table.open_elsewhere", "also open on another device")

    # Ratings (server/ratings, web/rating.js, web/leaderboard.js): rated tables, rating changes, leaderboards
    RATING_RATED = msg("rating.rated", "Rated")
    RATING_CASUAL = msg("rating.casual", "Casual")
    RATING_RATED_CHOICE = msg(
        "rating.rated_choice", "Rated: the match counts for your rating (classic rules, signed-in players)"
    )
    RATING_CHANGE = msg("rating.change", "{name}: {before} → {after} ({delta})")
    RATING_LEADERBOARD = msg("rating.leaderboard", "Leaderboard")
    RATING_FAMILY_2 = msg("rating.family.2", "2 players")
    RATING_FAMILY_3_4 = msg("rating.family.3-4", "3–4 players")
    RATING_RANK = msg("rating.rank", "Rank")
    RATING_RATING = msg("rating.rating", "Rating")
    RATING_MATCHES = msg("rating.matches", "Matches")
    RATING_FORM = msg("rating.form", "Recent form")
    RATING_BOTS = msg("rating.bots", "Bots (fixed ratings)")
    RATING_ACTIVE = nmsg(
        "rating.active",
        "Players with an established rating and a rated match in the last {count} day.",
        "Players with an established rating and a rated match in the last {count} days.",
    )
    RATING_EMPTY = msg("rating.empty", "Nobody here yet: play rated matches to appear.")
    RATING_HISTORY = msg("rating.history", "Rating history")
    RATING_PROFILE_TITLE = msg("rating.profile_title", "Rating: {family}")
    RATING_RANKED = msg("rating.ranked", "{rating}, rank {rank}")
    RATING_PROVISIONAL = msg(
        "rating.provisional", "A rating with ? is provisional: still uncertain, it moves more with each match."
    )

    # --- the replay page (web/replay.*) and the review's verdicts (chickenfoot.review)
    REPLAY_TITLE = msg("replay.title", "Chicken Foot — replay")
    REPLAY_BADGE = msg("replay.badge", "Replay")
    REPLAY_HANDS = msg("replay.hands", "Every hand, face up")
    REPLAY_MOVE = msg("replay.move", "Move")
    REPLAY_REVIEW = msg("replay.review", "Review")
    REPLAY_CONTROLS = msg("replay.controls", "Replay controls")
    REPLAY_ROUND = msg("replay.round", "Round")
    REPLAY_FIRST = msg("replay.first", "Start of the round")
    REPLAY_FIRST_KEY = msg("replay.first_key", "Start (Home)")
    REPLAY_BACK = msg("replay.back", "Step back")
    REPLAY_BACK_KEY = msg("replay.back_key", "Back (←)")
    REPLAY_PLAY = msg("replay.play", "Play")
    REPLAY_PAUSE = msg("replay.pause", "Pause")
    REPLAY_PLAY_KEY = msg("replay.play_key", "Play / pause (space)")
    REPLAY_FORWARD = msg("replay.forward", "Step forward")
    REPLAY_FORWARD_KEY = msg("replay.forward_key", "Forward (→)")
    REPLAY_LAST = msg("replay.last", "End of the round")
    REPLAY_LAST_KEY = msg("replay.last_key", "End (End)")
    REPLAY_SPEED = msg("replay.speed", "Speed")
    REPLAY_SPEED_SLOW = msg("replay.speed.slow", "slow")
    REPLAY_SPEED_NORMAL = msg("replay.speed.normal", "normal")
    REPLAY_SPEED_FAST = msg("replay.speed.fast", "fast")
    REPLAY_LINK = msg("replay.link", "Link to this move")
    REPLAY_LINK_TITLE = msg("replay.link_title", "Copy a link to this move")
    REPLAY_BONEYARD = msg("replay.boneyard", "Boneyard:")
    REPLAY_EMPTY = msg("replay.empty", "empty")
    REPLAY_COUNTER = msg("replay.counter", "move {move} / {moves}")
    REPLAY_DEAL = msg("replay.deal", "The deal, before the first move.")
    REPLAY_STATUS = msg("replay.status", "Round {round} · {name} to play")
    REPLAY_ROUND_OVER = msg("replay.round_over", "Round {round} is over: {points}")
    REPLAY_CHART = msg("replay.chart", "Expected final points, move by move")
    REPLAY_CHART_MOVES = msg("replay.chart_moves", "moves")
    REVIEW_WAITING = msg("review.waiting", "The review is waiting its turn…")
    REVIEW_RUNNING = nmsg("review.running", "Reviewing: {done} of {count} move", "Reviewing: {done} of {count} moves")
    REVIEW_PROGRESS = msg("review.progress", "Review progress")
    REVIEW_FAILED = msg("review.failed", "The review could not be made.")
    REVIEW_LOST_PER_MOVE = msg("review.lost_per_move", "Lost / move")
    REVIEW_ACCURACY = msg("review.accuracy", "Accuracy")
    REVIEW_COSTLIEST = msg("review.costliest", "Costliest:")
    REVIEW_NOTE = nmsg(
        "review.note",
        "Losses in expected points, from each player's own view ({count} sampled deal a move).",
        "Losses in expected points, from each player's own view ({count} sampled deals a move).",
    )
    REVIEW_GOOD = msg("review.verdict.good", "Good: within {loss} expected points of the best move.")
    REVIEW_INACCURACY = msg("review.verdict.inaccuracy", "Inaccuracy: {loss} expected points lost. Better: {best}.")
    REVIEW_MISTAKE = msg("review.verdict.mistake", "Mistake: {loss} expected points lost. Better: {best}.")
    REVIEW_BLUNDER = msg("review.verdict.blunder", "Blunder: {loss} expected points lost. Better: {best}.")
    REVIEW_EXPECTED = msg("review.expected", "Expected points for {name} at the round's end: {own} after this move.")
    REVIEW_EXPECTED_BEST = msg(
        "review.expected_best",
        "Expected points for {name} at the round's end: {own} after this move, {best_own} after the better one.",
    )
    REVIEW_COSTLY = msg("review.costly", "{number}. {played} → {best} (−{loss})")
    PERCENT = msg("number.percent", "{value}%")
    # --- ``chickenfoot review`` in the terminal (review_cli.py)
    REVIEW_CLI_PROGRESS = msg("review.cli.progress", "Reviewing the moves")
    REVIEW_CLI_HEADER = nmsg(
        "review.cli.header",
        "Review at {count} sampled deal per move (seed {seed}); losses in expected points",
        "Review at {count} sampled deals per move (seed {seed}); losses in expected points",
    )
    REVIEW_CLI_ROUND = msg("review.cli.round", "Round {round}")
    REVIEW_CLI_ROUND_POINTS = msg("review.cli.round_points", "Round {round} — points {points}")
    REVIEW_CLI_SEAT = msg("review.cli.seat", "Seat")
    REVIEW_CLI_DECISIONS = msg("review.cli.decisions", "Decisions")
    REVIEW_CLI_MARKS = msg("review.cli.marks", "Marks")
    REVIEW_CLI_COSTLIEST = msg("review.cli.costliest", "Costliest moves")
    REVIEW_CLI_INACCURACIES = nmsg("review.cli.inaccuracies", "{count} inaccuracy", "{count} inaccuracies")
    REVIEW_CLI_MISTAKES = nmsg("review.cli.mistakes", "{count} mistake", "{count} mistakes")
    REVIEW_CLI_BLUNDERS = nmsg("review.cli.blunders", "{count} blunder", "{count} blunders")
    REVIEW_CLI_ALL_GOOD = msg("review.cli.all_good", "all good")
    REVIEW_CLI_MOVE = msg("review.cli.move", "move {move}: {played}, better {best} (−{loss})")
    REVIEW_CLI_ROUND_MOVE = msg(
        "review.cli.round_move", "round {round}, move {move}: {played}, better {best} (−{loss})"
    )
    REVIEW_CLI_MATCH = nmsg(
        "review.cli.match",
        "Seat {seat} in the match: {count} decision, {loss} expected points lost per move, accuracy {accuracy}; "
        "costliest:",
        "Seat {seat} in the match: {count} decisions, {loss} expected points lost per move, accuracy {accuracy}; "
        "costliest:",
    )
    REVIEW_CLI_CHART_WRITTEN = msg("review.cli.chart_written", "Chart written to {path}")
    REVIEW_CLI_EXPECTED = msg("review.cli.expected", "expected points")
    REVIEW_CLI_SEAT_LEGEND = msg("review.cli.seat_legend", "seat {seat}")

    # --- refusals of the HTTP API (server/http/answers.py): {"detail": English, "code", ...},
    # and of a WebSocket before it reaches its table (server/edge/client.py)
    ERROR_HTTP = msg("error.http", "request failed ({status})")
    ERROR_NO_TABLE = msg("error.no_table", "no table '{table}'")
    ERROR_REPLAY_NOT_OVER = msg("error.replay_not_over", "the replay is available once the match is over")
    ERROR_RECORD_NOT_OVER = msg("error.record_not_over", "the record is available once the match is over")
    ERROR_ROUND_NOT_PLAYED = msg("error.round_not_played", "round {round} was not played")
    ERROR_PAGE_MISSING = msg("error.page_missing", "the page is not installed")
    ERROR_INVITE_ONLY = msg("error.invite_only", "this table is invite-only: ask its creator for an invite, or watch")
    ERROR_NO_FREE_SEAT = msg("error.no_free_seat", "no free seat at this table")
    ERROR_UNKNOWN_TOKEN = msg("error.unknown_token", "unknown token for this table")
    ERROR_FOREIGN_ORIGIN = msg("error.foreign_origin", "origin '{origin}' may not open tables")
    ERROR_BAD_HOST = msg("error.bad_host", "this server does not answer for the host {host}")
    ERROR_INVITE_USED = msg(
        "error.invite_used", "this invite opens nothing: it was used already or is not for this table"
    )
    ERROR_CREATOR_ONLY = msg("error.creator_only", "only the table's creator may replace a player with a bot")
    ERROR_NO_SEAT = msg("error.no_seat", "no seat {number} at this table")
    ERROR_NOT_FRIENDS_SEAT = msg("error.not_friends_seat", "seat {number} is not a friend's seat")
    ERROR_SEAT_CONNECTED = msg(
        "error.seat_connected",
        "seat {number} is connected: only an absent player's seat can go to someone else or a bot",
    )
    ERROR_UNKNOWN_BOT = msg("error.unknown_bot", "unknown bot '{bot}' (choose from {choices})")
    ERROR_NO_HUMAN_SEAT = msg("error.no_human_seat", "a table needs at least one human seat")
    ERROR_BAD_RULES = msg("error.bad_rules", "bad rules: {reason}")
    ERROR_TOO_MANY_TABLES = msg(
        "error.too_many_tables",
        "too many new tables from your address (at most {limit} in {window} s); try again in {seconds} s",
    )
    ERROR_TOO_MANY_CONNECTIONS = msg(
        "error.too_many_connections",
        "too many new connections from your address (at most {limit} in {window} s); try again in {seconds} s",
    )
    ERROR_TABLE_SOCKETS_FULL = msg(
        "error.table_sockets_full", "this table has as many connections open as it may ({limit}); try again later"
    )
    ERROR_SEAT_SOCKETS_FULL = msg(
        "error.seat_sockets_full",
        "your seat is open in as many places as it may be ({limit}); close one of them first",
    )
    ERROR_ACCOUNT_SOCKETS_FULL = msg(
        "error.account_sockets_full",
        "your account has as many connections open as it may ({limit}); close one of them first",
    )
    ERROR_ADDRESS_SOCKETS_FULL = msg(
        "error.address_sockets_full",
        "your address has as many connections open as it may ({limit}); close one of them first",
    )
    ERROR_CREDENTIAL_SOCKETS_FULL = msg(
        "error.credential_sockets_full",
        "your seat or sign-in is open in as many places as it may be ({limit}); close one of them first",
    )
    ERROR_SERVER_SOCKETS_FULL = msg(
        "error.server_sockets_full", "the server has as many connections open as it may ({limit}); try again later"
    )
    ERROR_SERVER_OPENING_FULL = msg(
        "error.server_opening_full",
        "the server is opening as many connections as it may at once ({limit}); try again in a moment",
    )
    ERROR_CUT_OFF = msg(
        "error.cut_off", "a connection from your address was cut off for abuse; try again in {seconds} s"
    )
    ERROR_TOO_MANY_REPLAYS = msg(
        "error.too_many_replays",
        "too many replays asked from your address (at most {limit} in {window} s); try again in {seconds} s",
    )
    ERROR_TOO_MANY_HINTS = msg(
        "error.too_many_hints",
        "too many hints asked from your address (at most {limit} in {window} s); try again in {seconds} s",
    )
    ERROR_HINT_BUSY = msg("error.hint_busy", "the server is busy finding other hints; try again shortly")
    ERROR_REPLAY_BUSY = msg("error.replay_busy", "the server is busy preparing other replays; try again shortly")
    ERROR_STORE_UNAVAILABLE = msg("error.store_unavailable", "the game store is unavailable; try again shortly")
    ERROR_SERVER_BUSY = msg(
        "error.server_busy",
        "the server is busy (at most {limit} requests like this one in {window} s from everyone); "
        "try again in {seconds} s",
    )
    ERROR_TOO_MANY_REQUESTS = msg(
        "error.too_many_requests",
        "too many requests from your address (at most {limit} in {window} s); try again in {seconds} s",
    )
    ERROR_TOO_MANY_OPEN_CONNECTIONS = msg(
        "error.too_many_open_connections",
        "too many connections open from your address (at most {limit}); close some and try again",
    )
    ERROR_BODY_JSON = msg("error.body.json", "the body is not valid JSON")
    ERROR_BODY_UTF8 = msg("error.body.utf8", "the body is not valid UTF-8")
    ERROR_BODY_DEEP = msg("error.body.deep", "the body is nested too deeply")
    ERROR_BODY_DIGITS = msg("error.body.digits", "a number in the body has too many digits")
    ERROR_INVALID = msg("error.invalid", "{field}: {reason}")
    INVALID_MISSING = msg("invalid.missing", "required")
    INVALID_TOO_LONG = msg("invalid.too_long", "at most {max} characters")
    INVALID_TOO_SHORT = msg("invalid.too_short", "at least {min} characters")
    INVALID_TOO_MANY = msg("invalid.too_many", "at most {max} items")
    INVALID_TOO_FEW = msg("invalid.too_few", "at least {min} items")
    INVALID_AT_LEAST = msg("invalid.at_least", "at least {min}")
    INVALID_AT_MOST = msg("invalid.at_most", "at most {max}")
    INVALID_CHOICE = msg("invalid.choice", "not one of the allowed values")
    INVALID_TYPE = msg("invalid.type", "a value of the wrong type")
    INVALID_NAME = msg("invalid.name", "a name is one line of printable text")
    INVALID_OTHER = msg("invalid.other", "not a valid value")
    # Company refusals (leaving, reopening, the rematch: server/company.py, seats.py, rematch.py)
    ERROR_TOKEN_OPENS_NO_SEAT = msg("error.token_opens_no_seat", "this credential opens no seat at this table")
    ERROR_ONLY_CREATOR = msg("error.only_creator", "only the table's creator may do this")
    ERROR_NOT_PLAYERS_SEAT = msg("error.not_players_seat", "seat {number} is not a player's seat")
    ERROR_NOTHING_TO_LEAVE = msg("error.nothing_to_leave", "the match is over: there is nothing to leave")
    ERROR_REMATCH_NOT_YET = msg("error.rematch_not_yet", "a rematch is offered once the match is over")
    ERROR_NO_REMATCH_YET = msg("error.no_rematch_yet", "there is no rematch for this table yet")
    ERROR_REMATCH_MADE = msg("error.rematch_made", "the rematch is made already, at table {table}")
    ERROR_SEAT_TAKEN = msg("error.seat_taken", "your seat at the new table is taken already")

    # Ratings (server/ratings): refusals of rated tables and of the ratings API
    RATING_SIGN_IN = msg("rating.sign_in", "sign in to play at a rated table")
    RATING_NOT_PRESET = msg("rating.not_preset", "only the classic rules are rated")
    RATING_NOT_PLAYERS = msg("rating.not_players", "only tables of 2, 3 or 4 players are rated")
    RATING_NOT_BOT = msg(
        "rating.not_bot", "at a rated table every bot is one of the levels: easy, medium, hard or expert"
    )
    RATING_NO_HINTS = msg("rating.no_hints", "no hints at a rated table: a rated match is the player's own play")
    RATING_TWO_SEATS = msg(
        "rating.two_seats", "your account has a seat at this rated table already: a rated match is one seat each"
    )
    RATING_NO_PLAYER = msg("rating.no_player", "no player '{name}'")
    RATING_NO_FAMILY = msg("rating.no_family", "no leaderboard '{family}'")

    # --- company at the table: chat, reactions, leaving, reopening, public tables, rematch
    CHAT_TITLE = msg("chat.title", "Chat")
    CHAT_PLACEHOLDER = msg("chat.placeholder", "Say something to the table")
    CHAT_SEND = msg("chat.send", "Send")
    CHAT_MUTE = msg("chat.mute", "Mute the chat")
    CHAT_MUTED = nmsg("chat.muted", "Chat muted: {count} new line", "Chat muted: {count} new lines")
    CHAT_WATCHER = msg("chat.watcher", "Spectator")
    CHAT_UNREAD = nmsg("chat.unread", "{count} new chat line", "{count} new chat lines")
    CHAT_REACTIONS = msg("chat.reactions", "Quick reactions")
    CHAT_REACTION_GOOD_GAME = msg("chat.reaction.good_game", "Good game")
    CHAT_REACTION_WELL_PLAYED = msg("chat.reaction.well_played", "Well played")
    CHAT_REACTION_CHICKEN_FOOT = msg("chat.reaction.chicken_foot", "Chicken foot!")
    CHAT_REACTION_THANKS = msg("chat.reaction.thanks", "Thanks")
    ERROR_CHAT_LINE = msg("error.chat_line", "A chat line is one line of 1 to {limit} characters")
    ERROR_CHAT_SLOW_DOWN = msg("error.chat_slow_down", "You are chatting too fast: wait a moment")
    ERROR_TOO_MANY_CHAT_LINES = msg(
        "error.too_many_chat_lines",
        "too many chat lines from your address (at most {limit} in {window} s); try again in {seconds} s",
    )
    # The rematch as a series (web/results.js, company.js) and the invite once used (share.js, lobby.js)
    SERIES_TITLE = nmsg("series.title", "Series: {count} match played", "Series: {count} matches played")
    SERIES_WON = msg("series.won", "Matches won")
    SERIES_PREVIOUS = msg("series.previous", "The previous match: replay and review")
    REMATCH_COUNTDOWN = nmsg(
        "rematch.countdown", "The next match starts in {count} second", "The next match starts in {count} seconds"
    )
    REMATCH_GO_NOW = msg("rematch.go_now", "Go now")
    TABLE_INVITE_USED = msg("table.invite_used", "The invite for seat {seat} was used: {name} took it.")
    # --- a table's life: the ready step, a player's grace, spectators
    # (server/table/readiness.py, web/waiting.js, web/players.js, web/watching.js)
    ERROR_ABORTED = msg("error.aborted", "this table was called off before its match began")
    ERROR_ABORT_STARTED = msg("error.abort_started", "the match has begun: resign or leave instead")
    ERROR_READY_STARTED = msg("error.ready_started", "the match has begun already")
    ERROR_START_CREATOR_ONLY = msg("error.start_creator_only", "only the table's creator may start with bots")
    READY_BUTTON = msg("ready.button", "Ready")
    READY_START_BOTS = msg("ready.start_bots", "Start with bots")
    READY_START_NOW = msg("ready.start_now", "Start now")
    READY_START_NOW_EXPLAIN = msg("ready.start_now_explain", "Or start now, without waiting for everyone to be ready.")
    READY_SEAT_EMPTY = msg("ready.seat_empty", "empty")
    READY_SEAT_JOINED = msg("ready.seat_joined", "joined")
    READY_SEAT_READY = msg("ready.seat_ready", "ready")
    READY_TITLE = msg("ready.title", "Waiting for every player to be ready")
    READY_EXPLAIN = msg(
        "ready.explain", "The first round is dealt once every seat is taken and each player has pressed Ready."
    )
    READY_YOU_ARE = msg("ready.you_are", "You are ready. The deal comes when everyone is.")
    READY_START_EXPLAIN = msg("ready.start_explain", "Or start now: bots take the empty seats.")
    READY_SEAT = msg("ready.seat", "{name}: {state}")
    GRACE_COUNTDOWN = msg("grace.countdown", "{name} left — a bot takes over in {seconds} s")
    WATCHING_TITLE = msg("watching.title", "You are watching")
    WATCHING_NO_SEAT = msg("watching.no_seat", "You have no seat at this table.")
    WATCHING_SEAT_ELSEWHERE = msg("watching.seat_elsewhere", "Your seat is open on another device.")
    WATCHING_SIGN_IN = msg("watching.sign_in", "A seat here belongs to an account.")
    WATCHING_SIGN_IN_LINK = msg("watching.sign_in_link", "Sign in to take your seat")
    SPECTATORS = nmsg("table.spectators", "{count} watching", "{count} watching")

    # --- accounts (server/accounts): refusals of the account API
    ACCOUNT_SIGN_IN_FAILED = msg("account.sign_in_failed", "wrong username or password")
    ACCOUNT_TOO_MANY_SIGN_INS = nmsg(
        "account.too_many_sign_ins",
        "too many sign-in attempts with this username: try again in {count} minute, or sign in with a passkey",
        "too many sign-in attempts with this username: try again in {count} minutes, or sign in with a passkey",
    )
    ACCOUNT_TOO_MANY_FROM_ADDRESS = nmsg(
        "account.too_many_from_address",
        "too many sign-in attempts from your address: try again in {count} minute",
        "too many sign-in attempts from your address: try again in {count} minutes",
    )
    ACCOUNT_HASHING_BUSY = msg(
        "account.hashing_busy", "too many sign-ins are being checked right now; try again in {seconds} s"
    )
    ACCOUNT_TOO_MANY_SIGN_UPS = msg(
        "account.too_many_sign_ups",
        "too many new accounts right now (at most {limit} in {window} s from everyone); try again in {seconds} s",
    )
    ACCOUNT_NAME_LENGTH = msg("account.name_length", "a username has {min} to {max} characters")
    ACCOUNT_NAME_CHARACTERS = msg(
        "account.name_characters",
        "a username has only letters, digits, '-', '_' and '.', and starts with a letter or a digit",
    )
    ACCOUNT_NAME_RESERVED = msg("account.name_reserved", "the username {name} is reserved")
    ACCOUNT_NAME_TAKEN = msg("account.name_taken", "the username {name} is taken, or looks too much like one that is")
    ACCOUNT_PASSWORD_SHORT = msg("account.password_short", "a password has at least {min} characters")
    ACCOUNT_PASSWORD_LONG = msg("account.password_long", "a password has at most {max} characters")
    ACCOUNT_PASSWORD_GUESSABLE = msg(
        "account.password_guessable", "this password is too easy to guess (a very common one, or your username)"
    )
    ACCOUNT_NOT_SIGNED_IN = msg("account.not_signed_in", "you are not signed in")
    ACCOUNT_CROSS_SITE = msg(
        "account.cross_site", "this request came from another site or without its form token; reload the page"
    )
    ACCOUNT_PASSKEY_FAILED = msg("account.passkey_failed", "the passkey could not be checked; try again")
    ACCOUNT_PASSKEY_EXPIRED = msg(
        "account.passkey_expired", "this passkey request has expired or was used already; start again"
    )
    ACCOUNT_PASSKEY_KNOWN = msg("account.passkey_known", "this passkey is registered already")
    ACCOUNT_LAST_WAY_IN = msg(
        "account.last_way_in", "this is your account's last way to sign in: add another one first"
    )
    ACCOUNT_NO_PASSKEY = msg("account.no_passkey", "your account has no such passkey")
    ACCOUNT_NO_SESSION = msg("account.no_session", "your account has no such session")
    ACCOUNT_LINK_USED = msg("account.link_used", "this sign-in link has expired or was used already")
    ACCOUNT_CONFIRM_NEEDED = nmsg(
        "account.confirm_needed",
        "you signed in over {count} minute ago: confirm that it is you with your password or a passkey",
        "you signed in over {count} minutes ago: confirm that it is you with your password or a passkey",
    )
    ACCOUNT_CONFIRM_FAILED = msg("account.confirm_failed", "this is not your account's password")
    # --- account pages, passkeys in the browser, continue on another device
    # (web/signin.js, account.js, accountmenu.js, handover.js; server/handover/)
    ERROR_HANDOVER_USED = msg(
        "error.handover_used", "this link to continue on another device has expired or was used already"
    )
    ERROR_TOO_MANY_HANDOVERS = msg(
        "error.too_many_handovers",
        "too many links to continue on another device from your address (at most {limit} in {window} s); "
        "try again in {seconds} s",
    )
    ERROR_SIGNED_OUT = msg("error.signed_out", "You were signed out: you are watching here")
    ERROR_SEAT_ELSEWHERE = msg("error.seat_elsewhere", "Your seat moved to another device: you are watching here")
    ACCOUNT_SIGN_IN = msg("account.sign_in", "Sign in")
    ACCOUNT_SIGN_UP = msg("account.sign_up", "Create an account")
    ACCOUNT_MENU = msg("account.menu", "Your account: {name}")
    ACCOUNT_PROFILE = msg("account.profile", "Profile")
    ACCOUNT_ACCOUNT = msg("account.account", "Account")
    ACCOUNT_SIGN_OUT = msg("account.sign_out", "Sign out")
    ACCOUNT_GUEST_NOTE = msg(
        "account.guest_note",
        "You can play without an account. With one you come back as yourself, on any device, and keep your seats.",
    )
    ACCOUNT_PASSKEY_SIGN_IN = msg("account.passkey_sign_in", "Sign in with a passkey")
    ACCOUNT_PASSKEY_SIGN_UP = msg("account.passkey_sign_up", "Create it with a passkey")
    ACCOUNT_PASSKEY_NOTE = msg(
        "account.passkey_note",
        "A passkey is kept by your phone, computer or security key: nothing to remember or type.",
    )
    ACCOUNT_OR_PASSWORD = msg("account.or_password", "Or with a username and password")
    ACCOUNT_USERNAME = msg("account.username", "Username")
    ACCOUNT_USERNAME_HINT = msg(
        "account.username_hint", "{min} to {max} letters, digits, '-', '_' or '.'; everyone sees it"
    )
    ACCOUNT_PASSWORD = msg("account.password", "Password")
    ACCOUNT_PASSWORD_HINT = msg("account.password_hint", "At least {min} characters, not a common one")
    ACCOUNT_SIGN_IN_PASSWORD = msg("account.sign_in_password", "Sign in with the password")
    ACCOUNT_SIGN_UP_PASSWORD = msg("account.sign_up_password", "Create it with a password")
    ACCOUNT_TO_SIGN_UP = msg("account.to_sign_up", "No account yet? Create one")
    ACCOUNT_TO_SIGN_IN = msg("account.to_sign_in", "Have an account already? Sign in")
    ACCOUNT_PASSKEY_UNSUPPORTED = msg(
        "account.passkey_unsupported", "This browser cannot use passkeys: use a username and password instead"
    )
    ACCOUNT_PASSKEY_CANCELLED = msg("account.passkey_cancelled", "No passkey was used; try again when you are ready")
    ACCOUNT_PASSKEY_NEEDS_NAME = msg(
        "account.passkey_needs_name", "Passkeys do not work at an IP address: use localhost or the site's name"
    )
    ACCOUNT_TITLE = msg("account.title", "Your account")
    ACCOUNT_MEMBER_SINCE = msg("account.member_since", "Member since {date}")
    ACCOUNT_WAYS_IN = msg("account.ways_in", "Ways to sign in")
    ACCOUNT_PASSKEYS = msg("account.passkeys", "Passkeys")
    ACCOUNT_NO_PASSKEYS = msg("account.no_passkeys", "No passkey yet.")
    ACCOUNT_PASSKEY_UNNAMED = msg("account.passkey_unnamed", "Passkey of {date}")
    ACCOUNT_PASSKEY_USED = msg("account.passkey_used", "added {added}, last used {used}")
    ACCOUNT_PASSKEY_UNUSED = msg("account.passkey_unused", "added {added}, not used yet")
    ACCOUNT_PASSKEY_LABEL = msg("account.passkey_label", "Name of the new passkey (optional)")
    ACCOUNT_ADD_PASSKEY = msg("account.add_passkey", "Add a passkey")
    ACCOUNT_REMOVE = msg("account.remove", "Remove")
    ACCOUNT_REMOVE_PASSKEY_CONFIRM = msg(
        "account.remove_passkey_confirm", "Remove the passkey {label}? It will not sign you in any more."
    )
    ACCOUNT_PASSWORD_IS_SET = msg("account.password_is_set", "You have a password.")
    ACCOUNT_PASSWORD_NOT_SET = msg("account.password_not_set", "You have no password.")
    ACCOUNT_NEW_PASSWORD = msg("account.new_password", "New password")
    ACCOUNT_SAVE_PASSWORD = msg("account.save_password", "Save the password")
    ACCOUNT_REMOVE_PASSWORD = msg("account.remove_password", "Remove the password")
    ACCOUNT_REMOVE_PASSWORD_CONFIRM = msg(
        "account.remove_password_confirm", "Remove your password? You will sign in with a passkey only."
    )
    ACCOUNT_SAVED = msg("account.saved", "Saved")
    ACCOUNT_KEEP_THIS_DEVICE = msg("account.keep_this_device", "Stay signed in on this device")
    ACCOUNT_PASSWORD_SIGNS_OUT = msg(
        "account.password_signs_out", "A new password signs you out on every other device."
    )
    ACCOUNT_CONFIRM_TITLE = msg("account.confirm_title", "Confirm that it is you")
    ACCOUNT_CONFIRM_WITH_PASSWORD = msg("account.confirm_with_password", "Confirm with the password")
    ACCOUNT_CONFIRM_WITH_PASSKEY = msg("account.confirm_with_passkey", "Confirm with a passkey")
    ACCOUNT_LAST_WAY_NOTE = msg(
        "account.last_way_note", "Your only way to sign in cannot be removed: add another first."
    )
    ACCOUNT_SESSIONS = msg("account.sessions", "Where you are signed in")
    ACCOUNT_SESSION_COUNT = nmsg("account.session_count", "Signed in on {count} device", "Signed in on {count} devices")
    ACCOUNT_THIS_DEVICE = msg("account.this_device", "this device")
    ACCOUNT_SESSION_SEEN = msg("account.session_seen", "signed in {created}, last seen {seen}")
    ACCOUNT_UNKNOWN_DEVICE = msg("account.unknown_device", "Unknown browser")
    ACCOUNT_SIGN_OUT_OTHERS = msg("account.sign_out_others", "Sign out all other devices")
    ACCOUNT_SIGN_OUT_EVERYWHERE = msg("account.sign_out_everywhere", "Sign out everywhere")
    ACCOUNT_SIGN_OUT_EVERYWHERE_CONFIRM = msg(
        "account.sign_out_everywhere_confirm", "Sign out on every device, this one included?"
    )
    ACCOUNT_DATA = msg("account.data", "Your data")
    ACCOUNT_DOWNLOAD = msg("account.download", "Download everything stored about you (JSON)")
    ACCOUNT_DELETE_TITLE = msg("account.delete_title", "Delete the account")
    ACCOUNT_DELETE_NOTE = msg(
        "account.delete_note",
        'Your passkeys, password and sessions go at once; finished matches keep their moves under "deleted player".',
    )
    ACCOUNT_DELETE = msg("account.delete", "Delete my account")
    ACCOUNT_DELETE_CONFIRM = msg("account.delete_confirm", "Delete the account {name} for good? This cannot be undone.")
    ACCOUNT_DELETED = msg("account.deleted", "Your account is deleted.")
    ACCOUNT_SIGNED_OUT = msg("account.signed_out", "You are signed out.")
    ACCOUNT_LINK_SIGNED_IN = msg(
        "account.link_signed_in", "You are signed in with your operator's link: add a passkey or a password now."
    )
    HANDOVER_BUTTON = msg("handover.button", "Continue on another device")
    HANDOVER_NOTE = nmsg(
        "handover.note",
        "Scan the code or open the link on your other device. It works once, within {count} minute; "
        "then this device only watches.",
        "Scan the code or open the link on your other device. It works once, within {count} minutes; "
        "then this device only watches.",
    )
    HANDOVER_QR = msg("handover.qr", "QR code of the link")
    HANDOVER_COPY = msg("handover.copy", "Copy the link")
    HANDOVER_COPIED = msg("handover.copied", "Link copied")
    HANDOVER_CLOSE = msg("handover.close", "Close")
    HANDOVER_ARRIVED = msg("handover.arrived", "Your seat is on this device now")
    # Bot API (server/botapi): tokens, refusals, the lobby's bots and the token list
    BOTAPI_PLAYED_AS_PERSON = msg(
        "botapi.played_as_person",
        "An account that has sat at a table as a person cannot become a bot account: create a new account for the bot",
    )
    BOTAPI_NOT_BOT_ACCOUNT = msg("botapi.not_bot_account", "only a bot account has API tokens")
    BOTAPI_UNKNOWN_SCOPE = msg("botapi.unknown_scope", "there is no scope {scope}")
    BOTAPI_TOO_MANY_TOKENS = msg("botapi.too_many_tokens", "an account has at most {limit} tokens: revoke one first")
    BOTAPI_NO_TOKEN = msg("botapi.no_token", "your account has no such token")
    BOTAPI_BAD_TOKEN = msg("botapi.bad_token", "a missing, unknown or revoked API token")
    BOTAPI_TOKEN_REVOKED = msg("botapi.token_revoked", "this API token was revoked: its streams end")
    BOTAPI_SCOPE_MISSING = msg("botapi.scope_missing", "this token lacks the scope {scope}")
    BOTAPI_TOO_MANY = msg(
        "botapi.too_many", "too many requests with this token (at most {limit} in {window} s): wait {seconds} s"
    )
    BOTAPI_TOKEN_STREAMS_FULL = msg(
        "botapi.token_streams_full", "this token has as many streams open as it may ({limit}); close one first"
    )
    BOTAPI_ACCOUNT_STREAMS_FULL = msg(
        "botapi.account_streams_full",
        "this bot account has as many streams open as it may ({limit}); close one first",
    )
    BOTAPI_PAUSED = msg("botapi.paused", "this token kept going over its limits: it is paused for {seconds} s")
    BOTAPI_NOT_SEATED = msg("botapi.not_seated", "your bot has no seat at table {table}")
    BOTAPI_NO_INVITATION = msg("botapi.no_invitation", "your bot has no invitation to table '{table}'")
    BOTAPI_NOT_A_BOT = msg("botapi.not_a_bot", "there is no bot account named '{name}'")
    BOTAPI_PAGE_SEAT = msg("botapi.page_seat", "a bot account plays through the Bot API, not through a page")
    BOTAPI_SEAT_NOT_FREE = msg("botapi.seat_not_free", "seat {number} is not free")
    BOTAPI_NO_HINTS = msg("botapi.no_hints", "hints are for people, not for bots")
    BOT_TAG = msg("bot.tag", "BOT")
    # Bot API under a flood (server/botapi/gate.py)
    BOTAPI_TOO_MANY_LOOKUPS = msg(
        "botapi.too_many_lookups",
        "too many unknown tokens from your address (at most {limit} in {window} s): wait {seconds} s",
    )
    LOBBY_BOTS = msg("lobby.bots", "Bots")
    LOBBY_NO_BOTS = msg("lobby.no_bots", "No bot account plays here yet.")
    LOBBY_CHALLENGE = msg("lobby.challenge", "Play")
    LOBBY_CHALLENGE_TITLE = msg("lobby.challenge_title", "Start a table and invite {name}")
    BOT_ACCOUNT_TITLE = msg("bot_account.title", "Bot account")
    BOT_ACCOUNT_NOTE = msg(
        "bot_account.note",
        "A program can play with this account through the Bot API, with API tokens you make here. "
        "A bot account never sits at a table in the browser, and the change cannot be undone.",
    )
    BOT_ACCOUNT_HAS_PLAYED = msg(
        "bot_account.has_played",
        "This account has played at tables as a person, so it stays a player's account: "
        "create a new account for your bot.",
    )
    BOT_ACCOUNT_MAKE = msg("bot_account.make", "Make this a bot account")
    BOT_ACCOUNT_CONFIRM = msg(
        "bot_account.confirm", "Make {name} a bot account for good? It will play only through the Bot API."
    )
    BOT_ACCOUNT_MADE = msg("bot_account.made", "This is now a bot account: make its first API token below.")
    TOKENS_TITLE = msg("tokens.title", "API tokens")
    TOKENS_NONE = msg("tokens.none", "No token yet.")
    TOKENS_LABEL = msg("tokens.label", "Name of the new token")
    TOKENS_MINT = msg("tokens.mint", "New token")
    TOKENS_SHOWN_ONCE = msg("tokens.shown_once", "Copy this token now: it is shown only once.")
    TOKENS_REVOKE = msg("tokens.revoke", "Revoke")
    TOKENS_CREATED = msg("tokens.created", "created {date}")
    TABLE_LEAVE = msg("table.leave", "Leave the table")
    TABLE_LEAVE_CONFIRM = msg(
        "table.leave_confirm", "Leave this match? A bot plays your seat; you can come back while the match lasts."
    )
    TABLE_LEFT = msg("table.left", "left")
    TABLE_REOPEN = msg("table.reopen", "Reopen")
    TABLE_REOPEN_TITLE = msg("table.reopen_title", "Give {name}'s seat to someone else with a new invite link")
    TABLE_REOPEN_CONFIRM = msg(
        "table.reopen_confirm", "Give {name}'s seat to someone else? {name}'s link to this table stops working."
    )
    TABLE_PUBLIC = msg("table.public", "List this table in the lobby")
    LOBBY_PUBLIC_TABLE = msg(
        "lobby.public_table", "Public: list the table in the lobby, where anyone may join or watch"
    )
    LOBBY_OPEN_TABLES = msg("lobby.open_tables", "Open tables")
    LOBBY_NO_OPEN_TABLES = msg("lobby.no_open_tables", "No public table right now: create one!")
    LOBBY_LISTING_RULES = nmsg("lobby.listing.rules", "double-{pips}, {count} round", "double-{pips}, {count} rounds")
    LOBBY_LISTING_PLAYERS = nmsg("lobby.listing.players", "{count} player", "{count} players")
    LOBBY_LISTING_FREE = nmsg("lobby.listing.free", "{count} seat free", "{count} seats free")
    LOBBY_LISTING_BOTS = nmsg("lobby.listing.bots", "{count} bot", "{count} bots")
    LOBBY_LISTING_WAITING = msg("lobby.listing.waiting", "waiting for players")
    LOBBY_LISTING_PLAYING = msg("lobby.listing.playing", "in play")
    LOBBY_YOUR_TABLES = msg("lobby.your_tables", "Your tables")
    LOBBY_BACK = msg("lobby.back", "Back to {code}")
    REMATCH_OFFER = msg("rematch.offer", "Same seats, new match")
    REMATCH_WANTED = nmsg("rematch.wanted", "{names} wants a rematch", "{names} want a rematch")
    REMATCH_WAITING = msg("rematch.waiting", "Waiting for {names}")
    REMATCH_READY = msg("rematch.ready", "The new match is at table {code}")
    REMATCH_GO = msg("rematch.go", "Go to the new match")
    # --- quick play (server/quickplay, web/quickplay.js): the lobby's "Play now", its queue and refusals
    QUICKPLAY_TITLE = msg("quickplay.title", "Play now")
    QUICKPLAY_INTRO = msg("quickplay.intro", "Get a table with players waiting like you, in seconds.")
    QUICKPLAY_PLAYERS = msg("quickplay.players", "Players")
    QUICKPLAY_KIND = msg("quickplay.kind", "Game")
    QUICKPLAY_CASUAL = msg("quickplay.casual", "Casual")
    QUICKPLAY_RATED = msg("quickplay.rated", "Rated (needs an account)")
    QUICKPLAY_BOTS_AFTER = msg("quickplay.bots_after", "Bots take the empty seats after")
    QUICKPLAY_BOTS_NEVER = msg("quickplay.bots_never", "never")
    QUICKPLAY_START = msg("quickplay.start", "Play now")
    QUICKPLAY_SEARCHING = msg("quickplay.searching", "Looking for players…")
    QUICKPLAY_WAITING = nmsg("quickplay.waiting", "{count} player waiting", "{count} players waiting")
    QUICKPLAY_WAITED = msg("quickplay.waited", "You have waited {time}")
    QUICKPLAY_LEAVE = msg("quickplay.leave", "Stop looking")
    QUICKPLAY_FOUND = msg("quickplay.found", "Table {code} found: taking your seat")
    QUICKPLAY_RATED_NEEDS_ACCOUNT = msg(
        "quickplay.rated_needs_account", "rated games need an account: sign in, or play a casual game"
    )
    QUICKPLAY_FULL = msg("quickplay.full", "too many players are waiting right now; try again shortly")
    QUICKPLAY_ADDRESS_FULL = msg(
        "quickplay.address_full", "too many players are waiting from your address; try again shortly"
    )
    QUICKPLAY_UNPLAYED_FULL = msg(
        "quickplay.unplayed_full",
        "you have been seated at {limit} quick play tables that nobody has played yet; play at one of them first",
    )
    QUICKPLAY_TABLES_FULL = msg(
        "quickplay.tables_full", "too many quick play tables are waiting for their players right now; try again later"
    )
    QUICKPLAY_GONE = msg("quickplay.gone", "you are no longer waiting: choose Play now again")
    QUICKPLAY_TOO_MANY_JOINS = msg(
        "quickplay.too_many_joins",
        "too many Play now requests from your address (at most {limit} in {window} s); try again in {seconds} s",
    )

    # --- profiles (/u/NAME) and "My matches" (/matches): server/history, web/profile.js, web/matches.js
    PLAYER_DELETED = msg("player.deleted", "deleted player")
    PROFILE_TITLE = msg("profile.title", "Player profile")
    PROFILE_MEMBER_SINCE = msg("profile.member_since", "Member since {date}")
    PROFILE_TALLY = msg("profile.tally", "Matches played and won")
    PROFILE_TALLY_PLAYERS = msg("profile.tally_players", "Players at the table")
    PROFILE_PLAYED = msg("profile.played", "Played")
    PROFILE_WON = msg("profile.won", "Won")
    PROFILE_RECENT = msg("profile.recent", "Recent matches")
    PROFILE_NO_MATCHES = msg("profile.no_matches", "No finished match yet.")
    PROFILE_ACCURACY = msg("profile.accuracy", "Accuracy in reviewed matches")
    PROFILE_ACCURACY_NONE = msg("profile.accuracy_none", "No reviewed match yet.")
    PROFILE_ACCURACY_POINT = msg("profile.accuracy_point", "{date}: {accuracy}")
    PROFILE_UNKNOWN = msg("profile.unknown", "there is no player called '{name}'")
    HISTORY_DATE = msg("history.date", "Date")
    HISTORY_PLAYERS = msg("history.players", "Players")
    HISTORY_RESULT = msg("history.result", "Result")
    HISTORY_ACCURACY = msg("history.accuracy", "Accuracy")
    HISTORY_WON = msg("history.won", "won")
    HISTORY_LOST = msg("history.lost", "lost")
    HISTORY_UNFINISHED = msg("history.unfinished", "not finished")
    HISTORY_REPLAY = msg("history.replay", "Replay")
    HISTORY_REVIEW = msg("history.review", "Review")
    HISTORY_RETURN = msg("history.return", "Return")
    HISTORY_NEWER = msg("history.newer", "Newer")
    HISTORY_OLDER = msg("history.older", "Older")
    HISTORY_PAGE = msg("history.page", "Page {page} of {pages}")
    MATCHES_TITLE = msg("matches.title", "My matches")
    MATCHES_NONE = msg("matches.none", "No match yet: start one from the lobby.")
    MATCHES_SIGN_IN = msg("matches.sign_in", "Sign in to see your matches.")
    MATCHES_PROFILE = msg("matches.profile", "Your profile")
    ERROR_TOO_MANY_PROFILES = msg(
        "error.too_many_profiles",
        "too many profiles asked from your address (at most {limit} in {window} s); try again in {seconds} s",
    )

    # --- turn-based tables (server/table/pace.py, web/pace.js): the pace, the time left, vacations
    PACE_TITLE = msg("pace.title", "Pace")
    PACE_LIVE = msg("pace.live", "Real-time: everyone plays at once")
    PACE_TURN_BASED = msg("pace.turn_based", "At your own pace: each player moves when they can")
    PACE_MOVE_TIME = msg("pace.move_time", "Time per move")
    PACE_HOURS = nmsg("pace.hours", "{count} hour", "{count} hours")
    PACE_DAYS = nmsg("pace.days", "{count} day", "{count} days")
    PACE_ON_TIMEOUT = msg("pace.on_timeout", "When a player's time runs out")
    PACE_RULE_MOVE = msg("pace.rule.move", "a bot plays that one move")
    PACE_RULE_REPLACE = msg("pace.rule.replace", "a bot plays for them to the end of the match")
    PACE_RULE_LOSE = msg("pace.rule.lose", "they lose the match (two players)")
    PACE_SUMMARY = msg("pace.summary", "At your own pace: {time} per move; when time runs out, {rule}")
    PACE_DEADLINE = msg("pace.deadline", "{name} has until {when}")
    PACE_YOUR_DEADLINE = msg("pace.your_deadline", "Your move, until {when}")
    PACE_AWAY = msg("pace.away", "{name} is on vacation until {when}: their clock stands")
    PACE_WAITING = nmsg("pace.waiting", "{count} table waits for you", "{count} tables wait for you")
    PACE_TIME_LEFT = msg("pace.time_left", "{time} left")
    VACATION_TITLE = msg("vacation.title", "Vacation")
    VACATION_NOTE = msg(
        "vacation.note",
        "On vacation your clocks at the tables played at your own pace stand, and the other players see it.",
    )
    VACATION_LEFT = nmsg(
        "vacation.left", "{count} day of vacation left this year", "{count} days of vacation left this year"
    )
    VACATION_DAYS = msg("vacation.days", "Days")
    VACATION_START = msg("vacation.start", "Go on vacation")
    VACATION_END = msg("vacation.end", "End the vacation")
    VACATION_UNTIL = msg("vacation.until", "On vacation until {when}")

    # --- notifications (server/notifications, web/notices.js, web/notification-settings.js): the bell,
    # push and e-mail; each notice is rendered from its kind and its parameters (server/notices.py)
    NOTIFY_YOUR_TURN = msg("notify.your_turn", "Your turn at table {table}")
    NOTIFY_INVITED = msg("notify.invited", "{name} invites you to table {table}")
    NOTIFY_INVITED_ANONYMOUS = msg("notify.invited_anonymous", "You are invited to table {table}")
    NOTIFY_CHALLENGE = msg("notify.challenge", "{name} challenges you to a match")
    NOTIFY_MATCH_WON = msg("notify.match_won", "You won the match at table {table}")
    NOTIFY_MATCH_OVER = msg("notify.match_over", "The match at table {table} is over")
    NOTIFY_RATING_CHANGE = msg("notify.rating_change", "Your rating changed by {change}")
    NOTIFY_REMATCH = msg("notify.rematch", "{name} offers a rematch at table {table}")
    NOTIFY_REMATCH_ANONYMOUS = msg("notify.rematch_anonymous", "A rematch is offered at table {table}")
    NOTIFY_CHAT = nmsg(
        "notify.chat", "{count} new chat line at table {table}", "{count} new chat lines at table {table}"
    )
    NOTIFY_CHAT_FROM = msg("notify.chat_from", "The latest from {name}")
    NOTIFY_TITLE = msg("notify.title", "Notifications")
    NOTIFY_UNREAD = nmsg("notify.unread", "{count} unread notification", "{count} unread notifications")
    NOTIFY_NONE = msg("notify.none", "Nothing new.")
    NOTIFY_JUST_NOW = msg("notify.just_now", "just now")
    NOTIFY_MINUTES_AGO = nmsg("notify.minutes_ago", "{count} minute ago", "{count} minutes ago")
    NOTIFY_HOURS_AGO = nmsg("notify.hours_ago", "{count} hour ago", "{count} hours ago")
    NOTIFY_DAYS_AGO = nmsg("notify.days_ago", "{count} day ago", "{count} days ago")
    NOTIFY_MARK_ALL_READ = msg("notify.mark_all_read", "Mark all as read")
    NOTIFY_SETTINGS_LINK = msg("notify.settings_link", "Notification settings")
    NOTIFY_KIND_YOUR_TURN = msg("notify.kind.your_turn", "Your turn")
    NOTIFY_KIND_INVITED = msg("notify.kind.invited", "Invitations")
    NOTIFY_KIND_CHALLENGE = msg("notify.kind.challenge", "Challenges")
    NOTIFY_KIND_ANSWER = msg("notify.kind.answer", "Answers to your challenges")
    NOTIFY_KIND_MATCH_OVER = msg("notify.kind.match_over", "Match results")
    NOTIFY_KIND_REMATCH = msg("notify.kind.rematch", "Rematch offers")
    NOTIFY_KIND_CHAT = msg("notify.kind.chat", "Chat lines at turn-based tables")
    NOTIFY_CHANNEL_IN_APP = msg("notify.channel.in_app", "On the site")
    NOTIFY_CHANNEL_PUSH = msg("notify.channel.push", "Push")
    NOTIFY_CHANNEL_EMAIL = msg("notify.channel.email", "E-mail")
    NOTIFY_CHOICES_NOTE = msg(
        "notify.choices_note", "Choose what reaches you where. E-mails come as one digest, not one per move."
    )
    NOTIFY_PUSH_TITLE = msg("notify.push.title", "Push on this device")
    NOTIFY_PUSH_ALLOW = msg("notify.push.allow", "Allow notifications on this device")
    NOTIFY_PUSH_ON = msg("notify.push.on", "This device shows your notifications.")
    NOTIFY_PUSH_STOP = msg("notify.push.stop", "Stop them on this device")
    NOTIFY_PUSH_BLOCKED = msg(
        "notify.push.blocked", "This browser blocks notifications from this site: allow them in its settings."
    )
    NOTIFY_PUSH_UNSUPPORTED = msg("notify.push.unsupported", "This browser cannot show notifications.")
    NOTIFY_PUSH_DEVICES = nmsg(
        "notify.push.devices", "Push goes to {count} device of yours.", "Push goes to {count} devices of yours."
    )
    NOTIFY_EMAIL_TITLE = msg("notify.email.title", "E-mail address")
    NOTIFY_EMAIL_NONE = msg(
        "notify.email.none", "No address yet. An address gets e-mails once you confirm it by a link."
    )
    NOTIFY_EMAIL_PENDING = msg(
        "notify.email.pending", "A confirmation link went to '{address}': open it, and e-mails will come there."
    )
    NOTIFY_EMAIL_VERIFIED = msg("notify.email.verified", "E-mails go to '{address}'.")
    NOTIFY_EMAIL_SEND_LINK = msg("notify.email.send_link", "Send a confirmation link")
    NOTIFY_EMAIL_REMOVE = msg("notify.email.remove", "Remove the address")
    NOTIFY_EMAIL_CONFIRMED = msg("notify.email.confirmed", "Your e-mail address is confirmed.")
    NOTIFY_EMAIL_OFF = msg("notify.email.off", "This server sends no e-mail.")
    NOTIFY_QUIET_TITLE = msg("notify.quiet.title", "Quiet hours")
    NOTIFY_QUIET_NOTE = msg(
        "notify.quiet.note", "No push and no e-mail between these hours: what comes meanwhile waits until they end."
    )
    NOTIFY_QUIET_ON = msg("notify.quiet.on", "Keep quiet hours")
    NOTIFY_QUIET_FROM = msg("notify.quiet.from", "From")
    NOTIFY_QUIET_UNTIL = msg("notify.quiet.until", "Until")
    NOTIFY_QUIET_ZONE = msg("notify.quiet.zone", "Time zone")
    NOTIFY_LANGUAGE = msg("notify.language", "Push and e-mail are written in {language}, the language of your pages.")
    NOTIFY_SAVE = msg("notify.save", "Save the notification settings")
    NOTIFY_DIGEST_SUBJECT = nmsg(
        "notify.digest.subject", "Chicken Foot: {count} new notification", "Chicken Foot: {count} new notifications"
    )
    NOTIFY_DIGEST_TURNS = nmsg("notify.digest.turns", "{count} table waits for you.", "{count} tables wait for you.")
    NOTIFY_DIGEST_WHY = msg(
        "notify.digest.why",
        "You get this e-mail because you chose notifications by e-mail on your Chicken Foot account.",
    )
    NOTIFY_DIGEST_SETTINGS = msg("notify.digest.settings", "Choose what you get:")
    NOTIFY_DIGEST_UNSUBSCRIBE = msg("notify.digest.unsubscribe", "No more e-mails:")
    NOTIFY_VERIFY_SUBJECT = msg("notify.verify.subject", "Chicken Foot: confirm your e-mail address")
    NOTIFY_VERIFY_BODY = msg(
        "notify.verify.body", "Open this link to receive the notifications of the account {name} at this address:"
    )
    NOTIFY_VERIFY_IGNORE = msg(
        "notify.verify.ignore", "If you did not ask for this, ignore this e-mail: nothing more will come."
    )
    NOTIFY_RECOVER_SUBJECT = msg("notify.recover.subject", "Chicken Foot: a link to sign in")
    NOTIFY_RECOVER_BODY = nmsg(
        "notify.recover.body",
        "Someone asked for a link to sign in to the account {name}. It works once, within {count} minute:",
        "Someone asked for a link to sign in to the account {name}. It works once, within {count} minutes:",
    )
    NOTIFY_RECOVER_IGNORE = msg(
        "notify.recover.ignore", "If it was not you, ignore this e-mail: your account stays as it is."
    )
    NOTIFY_UNSUBSCRIBE_TITLE = msg("notify.unsubscribe.title", "No more e-mails")
    NOTIFY_UNSUBSCRIBE_NOTE = msg(
        "notify.unsubscribe.note", "One click, and this server sends no more notifications to your e-mail address."
    )
    NOTIFY_UNSUBSCRIBE_BUTTON = msg("notify.unsubscribe.button", "Send me no more e-mails")
    NOTIFY_UNSUBSCRIBE_DONE = msg(
        "notify.unsubscribe.done", "Done: no more e-mails. Push and the site stay as you chose on your account page."
    )
    NOTIFY_RECOVER_TITLE = msg("notify.recover.title", "Cannot sign in?")
    NOTIFY_RECOVER_NOTE = msg(
        "notify.recover.note", "If your account has a confirmed e-mail address, a link to sign in once goes there."
    )
    NOTIFY_RECOVERED = msg(
        "notify.recovered",
        "You are signed in by the link sent to your e-mail address: set a new password if you need one.",
    )
    NOTIFY_RECOVER_SEND = msg("notify.recover.send", "Send me a link")
    NOTIFY_RECOVER_SENT = msg(
        "notify.recover.sent", "If that account has a confirmed address, a link is on its way. It works once."
    )
    NOTIFY_TOO_MANY_SENT = msg(
        "notify.too_many_sent",
        "you have sent too many invitations (at most {limit} in {window} s); try again in {seconds} s",
    )
    NOTIFY_TOO_MANY_RECEIVED = msg(
        "notify.too_many_received",
        "this player has had too many invitations (at most {limit} in {window} s); try again in {seconds} s",
    )
    NOTIFY_TOO_MANY_MAILS = msg(
        "notify.too_many_mails",
        "too many e-mails asked for from your address (at most {limit} in {window} s); try again in {seconds} s",
    )
    NOTIFY_TOO_MANY_STREAMS = msg("notify.too_many_streams", "too many pages follow your notifications at once")
    NOTIFY_BAD_ADDRESS = msg("notify.bad_address", "this is not an e-mail address")
    NOTIFY_LINK_USED = msg("notify.link_used", "this confirmation link has expired or was used already")
    NOTIFY_BAD_SUBSCRIPTION = msg("notify.bad_subscription", "this browser's push subscription cannot be used here")
    NOTIFY_BAD_UNSUBSCRIBE = msg("notify.bad_unsubscribe", "this unsubscribe link is not valid")
    NOTIFY_BAD_ZONE = msg("notify.bad_zone", "there is no time zone '{zone}'")

    # --- moderation (server/moderation, web/admin.js): what players are told, and the operators' page
    MODERATION_MUTED = msg("moderation.muted", "The operators muted you in chat until {moment}")
    MODERATION_UNMUTED = msg("moderation.unmuted", "The operators lifted your mute: you may chat again")
    MODERATION_FILTERED = msg(
        "moderation.filtered", "Your chat line has a word that is not allowed here: nobody saw it. Say it otherwise."
    )
    MODERATION_REPEATED = msg("moderation.repeated", "You said that already: say something new, or wait {seconds} s")
    MODERATION_LINKS = msg("moderation.links", "You have sent too many links: the next one in {seconds} s")
    MODERATION_SUSPENDED = msg(
        "moderation.suspended", "The operators suspended your account until {moment}: you cannot sign in before then"
    )
    ERROR_TABLE_ENDED = msg("error.table_ended", "The operators ended this table")
    MODERATION_NO_PLAYER = msg("moderation.no_player", "No account has the username {name}")
    MODERATION_NO_ACCOUNT = msg("moderation.no_account", "There is no such account")
    MODERATION_CLOSED = msg("moderation.closed", "This account is closed")
    MODERATION_OPERATOR = msg("moderation.operator", "{name} is an operator: revoke the role on the command line first")
    MODERATION_NOT_MUTED = msg("moderation.not_muted", "{name} is not muted")
    MODERATION_NOT_SUSPENDED = msg("moderation.not_suspended", "{name} is not suspended")
    MODERATION_NO_NAME = msg("moderation.no_name", "No neutral name was free: try again")
    MODERATION_TABLE_FINISHED = msg(
        "moderation.table_finished", "The match at table {table} is over: a finished match stays as it is"
    )
    MODERATION_NO_REPORT = msg("moderation.no_report", "There is no open report with this number")
    MODERATION_BAD_WORD = msg(
        "moderation.bad_word",
        "A word of the filter is letters, with * at its start or its end to take in more words; "
        "a phrase of several words has no *",
    )
    MODERATION_WORD_THERE = msg("moderation.word_there", "The filter has ‘{word}’ already")
    MODERATION_NO_WORD = msg("moderation.no_word", "‘{word}’ is not among the words added here")
    ADMIN_TITLE = msg("admin.title", "Moderation")
    ADMIN_REPORTS = msg("admin.reports", "Reports")
    ADMIN_OPEN_REPORTS = nmsg("admin.open_reports", "{count} open report", "{count} open reports")
    ADMIN_SHOW_OPEN = msg("admin.show_open", "Open")
    ADMIN_SHOW_HANDLED = msg("admin.show_handled", "Handled")
    ADMIN_NO_REPORTS = msg("admin.no_reports", "No reports here.")
    ADMIN_REPORTED = msg("admin.reported", "Reported player")
    ADMIN_REPORTER = msg("admin.reporter", "Reported by")
    ADMIN_GUEST = msg("admin.guest", "a guest")
    ADMIN_REASON = msg("admin.reason", "Reason")
    ADMIN_REASON_ABUSE = msg("admin.reason.abuse", "Insults or harassment")
    ADMIN_REASON_CHEATING = msg("admin.reason.cheating", "Cheating")
    ADMIN_REASON_SPAM = msg("admin.reason.spam", "Spam or advertising")
    ADMIN_REASON_NAME = msg("admin.reason.name", "An offensive name")
    ADMIN_REASON_OTHER = msg("admin.reason.other", "Something else")
    ADMIN_NOTE = msg("admin.note", "In the reporter's words")
    ADMIN_EVIDENCE = msg("admin.evidence", "The chat lines kept with the report")
    ADMIN_EVIDENCE_NONE = msg("admin.evidence_none", "No chat lines were kept with it.")
    ADMIN_TABLE = msg("admin.table", "Table {table}")
    ADMIN_ACTION_TAKEN = msg("admin.action_taken", "Action taken")
    ADMIN_DISMISS = msg("admin.dismiss", "Dismiss")
    ADMIN_DISMISSED = msg("admin.dismissed", "Dismissed")
    ADMIN_RESOLUTION = msg("admin.resolution", "How it was handled")
    ADMIN_LOOK_UP = msg("admin.look_up", "Look up")
    ADMIN_PLAYER = msg("admin.player", "Player")
    ADMIN_USERNAME = msg("admin.username", "Username")
    ADMIN_MUTED_UNTIL = msg("admin.muted_until", "Muted in chat until {moment}")
    ADMIN_SUSPENDED_UNTIL = msg("admin.suspended_until", "Suspended until {moment}")
    ADMIN_CLOSED = msg("admin.closed", "Closed account")
    ADMIN_OPERATOR = msg("admin.operator", "Operator")
    ADMIN_BOT = msg("admin.bot", "Bot account")
    ADMIN_RECENT_CHAT = msg("admin.recent_chat", "Recent chat lines")
    ADMIN_NO_CHAT = msg("admin.no_chat", "No chat lines of theirs are kept.")
    ADMIN_RECENT_TABLES = msg("admin.recent_tables", "Recent tables")
    ADMIN_NO_TABLES = msg("admin.no_tables", "No tables.")
    ADMIN_MATCH_OVER = msg("admin.match_over", "match over")
    ADMIN_MATCH_ON = msg("admin.match_on", "match not over")
    ADMIN_ACTIONS = msg("admin.actions", "Actions")
    ADMIN_FOR = msg("admin.for", "For")
    ADMIN_MINUTES = nmsg("admin.minutes", "{count} minute", "{count} minutes")
    ADMIN_HOURS = nmsg("admin.hours", "{count} hour", "{count} hours")
    ADMIN_DAYS = nmsg("admin.days", "{count} day", "{count} days")
    ADMIN_WHY = msg("admin.why", "Why (kept in the audit log)")
    ADMIN_MUTE = msg("admin.mute", "Mute in chat")
    ADMIN_UNMUTE = msg("admin.unmute", "Lift the mute")
    ADMIN_SUSPEND = msg("admin.suspend", "Suspend sign-in")
    ADMIN_UNSUSPEND = msg("admin.unsuspend", "Lift the suspension")
    ADMIN_CLOSE = msg("admin.close", "Close the account")
    ADMIN_RENAME = msg("admin.rename", "Rename to a neutral name")
    ADMIN_END_TABLE = msg("admin.end_table", "End a table")
    ADMIN_TABLE_CODE = msg("admin.table_code", "Table code")
    ADMIN_END = msg("admin.end", "End the table")
    ADMIN_CONFIRM_CLOSE = msg(
        "admin.confirm_close",
        "Close the account of the player {name}? Their sessions end, their name is erased from their tables, "
        "and it cannot be undone.",
    )
    ADMIN_CONFIRM_END = msg(
        "admin.confirm_end", "End table {table}? Its match stops where it is, and the table is deleted."
    )
    ADMIN_WRITTEN = msg("admin.written", "Done, and written in the audit log.")
    ADMIN_WORDS = msg("admin.words", "Chat filter")
    ADMIN_WORDS_NOTE = msg(
        "admin.words_note",
        "A chat line with a word of the filter is refused, in any language and in any look-alike spelling. "
        "A word ending in * takes in every word that starts with it.",
    )
    ADMIN_WORDS_FIXED = nmsg(
        "admin.words_fixed",
        "{count} word comes with the server; these were added here:",
        "{count} words come with the server; these were added here:",
    )
    ADMIN_WORDS_NONE = msg("admin.words_none", "No words were added here.")
    ADMIN_WORD = msg("admin.word", "Word")
    ADMIN_ADD = msg("admin.add", "Add")
    ADMIN_REMOVE = msg("admin.remove", "Remove")
    ADMIN_AUDIT = msg("admin.audit", "Audit log")
    ADMIN_AUDIT_NOTE = msg("admin.audit_note", "Every moderation action, as it was done. Nothing here can be changed.")
    ADMIN_WHEN = msg("admin.when", "When")
    ADMIN_WHO = msg("admin.who", "Operator")
    ADMIN_WHAT = msg("admin.what", "Action")
    ADMIN_WHOM = msg("admin.whom", "Player or table")
    ADMIN_COMMAND_LINE = msg("admin.command_line", "the command line")
    ADMIN_DID_MUTE = msg("admin.did.mute", "Muted in chat until {moment}")
    ADMIN_DID_UNMUTE = msg("admin.did.unmute", "Mute lifted")
    ADMIN_DID_SUSPEND = msg("admin.did.suspend", "Sign-in suspended until {moment}")
    ADMIN_DID_UNSUSPEND = msg("admin.did.unsuspend", "Suspension lifted")
    ADMIN_DID_CLOSE = msg("admin.did.close", "Account closed")
    ADMIN_DID_RENAME = msg("admin.did.rename", "New name: {name}")
    ADMIN_DID_END_TABLE = msg("admin.did.end_table", "Table ended")
    ADMIN_DID_REPORT_ACTIONED = msg("admin.did.report_actioned", "Report {report} handled: action taken")
    ADMIN_DID_REPORT_DISMISSED = msg("admin.did.report_dismissed", "Report {report} dismissed")
    ADMIN_DID_WORD_ADD = msg("admin.did.word_add", "Word ‘{word}’ added to the filter")
    ADMIN_DID_WORD_REMOVE = msg("admin.did.word_remove", "Word ‘{word}’ removed from the filter")
    ADMIN_DID_GRANT = msg("admin.did.grant", "Made an operator")
    ADMIN_DID_REVOKE = msg("admin.did.revoke", "No longer an operator")
    # --- friends and blocks: server/social, web/friends.js, web/social.js (the profile's, the chat's and
    # the results' buttons), web/news.js (challenges in the lobby), web/privacy.js (the account page)
    SOCIAL_FRIENDS = msg("social.friends", "Friends")
    SOCIAL_SIGN_IN = msg("social.sign_in", "Sign in to follow players and challenge your friends.")
    SOCIAL_FOLLOWING = msg("social.following", "Players you follow")
    SOCIAL_NO_FRIENDS = msg(
        "social.no_friends", "You follow nobody yet: follow players from their profile, a finished match or the chat."
    )
    SOCIAL_FOLLOW_NAME = msg("social.follow_name", "Player's name")
    SOCIAL_FOLLOW = msg("social.follow", "Follow")
    SOCIAL_FOLLOW_PLAYER = msg("social.follow_player", "Follow the player {name}")
    SOCIAL_UNFOLLOW = msg("social.unfollow", "Unfollow")
    SOCIAL_FOLLOWED = msg("social.followed", "You follow {name} now.")
    SOCIAL_ONLINE = msg("social.online", "Online")
    SOCIAL_OFFLINE = msg("social.offline", "Offline")
    SOCIAL_AT_TABLE = msg("social.at_table", "At a table")
    SOCIAL_WATCH_TABLE = msg("social.watch_table", "Watch table {code}")
    SOCIAL_CHALLENGE = msg("social.challenge", "Challenge")
    SOCIAL_CHALLENGE_TITLE = msg("social.challenge_title", "Challenge the player {name}")
    SOCIAL_BOTS_LEVEL = msg("social.bots_level", "Bots in the other seats")
    SOCIAL_SEND_CHALLENGE = msg("social.send_challenge", "Send the challenge")
    SOCIAL_CANCEL = msg("social.cancel", "Cancel")
    SOCIAL_CHALLENGE_SENT = msg("social.challenge_sent", "Challenge sent: waiting for the answer of {name}.")
    SOCIAL_CHALLENGES = msg("social.challenges", "Challenges")
    SOCIAL_CHALLENGED_YOU = msg("social.challenged_you", "{name} challenges you")
    SOCIAL_TABLE_RATED = nmsg("social.table_rated", "{count} player, rated", "{count} players, rated")
    SOCIAL_TABLE_CASUAL = nmsg("social.table_casual", "{count} player, casual", "{count} players, casual")
    SOCIAL_TABLE_PACE = msg("social.table_pace", "{table}. {pace}")
    SOCIAL_PACE_WAITS = msg(
        "social.pace_waits", "A challenge at your own pace waits for its answer as long as one move's time."
    )
    SOCIAL_ACCEPT = msg("social.accept", "Accept")
    SOCIAL_DECLINE = msg("social.decline", "Decline")
    SOCIAL_WAITING_FOR = msg("social.waiting_for", "Your challenge of {name} waits for an answer")
    SOCIAL_OPEN_UNTIL = msg("social.open_until", "Open until {when}")
    SOCIAL_WITHDRAW = msg("social.withdraw", "Withdraw")
    SOCIAL_ANSWER_ACCEPTED = msg("social.answer.accepted", "{name} accepted your challenge")
    SOCIAL_ANSWER_DECLINED = msg("social.answer.declined", "{name} declined your challenge")
    SOCIAL_ANSWER_EXPIRED = msg("social.answer.expired", "{name} did not answer your challenge in time")
    SOCIAL_GO = msg("social.go", "Go to the table")
    SOCIAL_BLOCKED = msg("social.blocked", "Blocked players")
    SOCIAL_NO_BLOCKS = msg("social.no_blocks", "You block nobody.")
    SOCIAL_BLOCKS_EXPLAIN = msg(
        "social.blocks_explain",
        "A player you block cannot challenge you, invite you, take a seat at your table or be seated with you "
        "by Play now, and their chat lines are not shown to you. They are not told.",
    )
    SOCIAL_BLOCK = msg("social.block", "Block")
    SOCIAL_UNBLOCK = msg("social.unblock", "Unblock")
    SOCIAL_BLOCK_CONFIRM = msg(
        "social.block_confirm", "Block the player {name}? They will not be told, and you can unblock them later."
    )
    SOCIAL_BLOCKED_NOW = msg("social.blocked_now", "You block {name} now.")
    SOCIAL_REPORT = msg("social.report", "Report")
    SOCIAL_REPORT_PLAYER = msg("social.report_player", "Report the player {name} to the operators")
    SOCIAL_REPORT_LINE = msg("social.report_line", "Report this chat line to the operators")
    SOCIAL_REASON = msg("social.reason", "Why")
    SOCIAL_REASON_ABUSE = msg("social.reason.abuse", "Insults or harassment")
    SOCIAL_REASON_CHEATING = msg("social.reason.cheating", "Cheating")
    SOCIAL_REASON_SPAM = msg("social.reason.spam", "Spam or advertising")
    SOCIAL_REASON_NAME = msg("social.reason.name", "An offensive name")
    SOCIAL_REASON_OTHER = msg("social.reason.other", "Something else")
    SOCIAL_REPORT_NOTE = msg("social.report_note", "What happened (optional)")
    SOCIAL_SEND_REPORT = msg("social.send_report", "Send the report")
    SOCIAL_REPORTED = msg("social.reported", "Thank you: the operators will look at it.")
    SOCIAL_LINE_ACTIONS = msg("social.line_actions", "More about this chat line")
    SOCIAL_PRIVACY = msg("social.privacy", "Privacy")
    SOCIAL_WHO_CHALLENGES = msg("social.who_challenges", "Who may challenge you")
    SOCIAL_WHO_STATUS = msg("social.who_status", "Who may see that you are online, and at which table")
    SOCIAL_AUDIENCE_EVERYONE = msg("social.audience.everyone", "Everyone")
    SOCIAL_AUDIENCE_FRIENDS = msg("social.audience.friends", "Players you follow")
    SOCIAL_AUDIENCE_NOBODY = msg("social.audience.nobody", "Nobody")
    SOCIAL_NOT_ACCEPTING = msg("social.not_accepting", "{name} is not accepting challenges")
    SOCIAL_YOU_BLOCK = msg("social.you_block", "you block {name}: unblock them first")
    SOCIAL_NOT_YOURSELF = msg("social.not_yourself", "that is you")
    SOCIAL_NO_ACCOUNT = msg("social.no_account", "this player plays without an account")
    SOCIAL_NO_TARGET = msg("social.no_target", "name a player: by name, or by a table and a seat or a chat line")
    SOCIAL_NO_LINE = msg("social.no_line", "that chat line is no longer kept at this table")
    SOCIAL_NOT_AT_TABLE = msg(
        "social.not_at_table",
        "you can follow or block a player from a table only while you play at it, or once its match is over",
    )
    SOCIAL_NO_CHALLENGE = msg("social.no_challenge", "this challenge is no longer open")
    SOCIAL_SEAT_TAKEN = msg("social.seat_taken", "your seat at that table has been taken already: open the table")
    SOCIAL_CHALLENGE_PENDING = msg("social.challenge_pending", "your challenge of {name} still waits for an answer")
    SOCIAL_CHALLENGES_FULL = msg(
        "social.challenges_full", "at most {limit} of your challenges may wait for an answer: withdraw one first"
    )
    SOCIAL_THEIR_CHALLENGES_FULL = msg(
        "social.their_challenges_full", "too many challenges wait for {name}; try again shortly"
    )
    SOCIAL_FOLLOWS_FULL = msg("social.follows_full", "you may follow at most {limit} players: unfollow one first")
    SOCIAL_BLOCKS_FULL = msg("social.blocks_full", "you may block at most {limit} players: unblock one first")
    SOCIAL_ALREADY_REPORTED = msg(
        "social.already_reported", "you have reported this already; the operators have not looked at it yet"
    )
    SOCIAL_TOO_MANY_REPORTS = msg(
        "social.too_many_reports", "at most {limit} of your reports may wait for the operators; try again later"
    )
    SOCIAL_TOO_MANY_FOLLOWS = msg(
        "social.too_many_follows", "too many players followed (at most {limit} in {window} s); try again in {seconds} s"
    )
    SOCIAL_TOO_MANY_CHALLENGES_OF = msg(
        "social.too_many_challenges_of",
        "too many challenges of this player (at most {limit} in {window} s); try again in {seconds} s",
    )
    SOCIAL_TOO_MANY_REPORTED = msg(
        "social.too_many_reported", "too many reports (at most {limit} in {window} s); try again in {seconds} s"
    )
    # --- tournaments: the list and an event's page (web/tournaments.js, web/tournament.js)
    TOURNAMENT_TITLE = msg("tournament.title", "Tournaments")
    TOURNAMENT_INTRO = msg(
        "tournament.intro",
        "Events for a family, a club or everyone: an arena, a Swiss or a round-robin, dealt duplicate if you like.",
    )
    TOURNAMENT_SIGN_IN = msg("tournament.sign_in", "Sign in to make a tournament or to join one.")
    TOURNAMENT_MINE = msg("tournament.mine", "Your tournaments")
    TOURNAMENT_PUBLIC = msg("tournament.public", "Public tournaments")
    TOURNAMENT_NONE = msg("tournament.none", "No tournament here yet.")
    TOURNAMENT_CREATE = msg("tournament.create", "Make a private tournament")
    TOURNAMENT_CREATE_NOTE = msg(
        "tournament.create_note", "Anyone with its link can join it: send the link to your family or your club."
    )
    TOURNAMENT_NAME = msg("tournament.name", "Name")
    TOURNAMENT_FORMAT = msg("tournament.format", "Format")
    TOURNAMENT_FORMAT_ARENA = msg("tournament.format.arena", "Arena")
    TOURNAMENT_FORMAT_SWISS = msg("tournament.format.swiss", "Swiss")
    TOURNAMENT_FORMAT_ROUND_ROBIN = msg("tournament.format.round_robin", "Round-robin")
    TOURNAMENT_DUPLICATE = msg("tournament.duplicate", "Duplicate deals")
    TOURNAMENT_DUPLICATE_OFF = msg("tournament.duplicate.off", "No")
    TOURNAMENT_SCORING_MATCHPOINTS = msg("tournament.scoring.matchpoints", "Scored by match points")
    TOURNAMENT_SCORING_DIFFERENCE = msg("tournament.scoring.difference", "Scored by difference")
    TOURNAMENT_TABLE_SIZE = msg("tournament.table_size", "Players at each table")
    TOURNAMENT_ROUNDS = msg("tournament.rounds", "Rounds of the tournament")
    TOURNAMENT_MATCH_ROUNDS = msg("tournament.match_rounds", "Rounds in each match")
    TOURNAMENT_MINUTES = msg("tournament.minutes", "Length in minutes")
    TOURNAMENT_RATED = msg("tournament.rated", "Rated tables")
    TOURNAMENT_MAKE = msg("tournament.make", "Make the tournament")
    TOURNAMENT_STATUS_SCHEDULED = msg("tournament.status.scheduled", "Not started yet")
    TOURNAMENT_STATUS_RUNNING = msg("tournament.status.running", "In play")
    TOURNAMENT_STATUS_FINISHED = msg("tournament.status.finished", "Finished")
    TOURNAMENT_STATUS_CANCELLED = msg("tournament.status.cancelled", "Cancelled")
    TOURNAMENT_REPEATS_DAILY = msg("tournament.repeats.daily", "Every day")
    TOURNAMENT_REPEATS_WEEKLY = msg("tournament.repeats.weekly", "Every week")
    TOURNAMENT_ROUND_OF = msg("tournament.round_of", "Round {round} of {rounds}")
    TOURNAMENT_JOIN = msg("tournament.join", "Join")
    TOURNAMENT_LEAVE = msg("tournament.leave", "Leave")
    TOURNAMENT_PAUSE = msg("tournament.pause", "Pause")
    TOURNAMENT_RESUME = msg("tournament.resume", "Come back")
    TOURNAMENT_START = msg("tournament.start", "Start now")
    TOURNAMENT_INVITE = msg("tournament.invite", "Copy the invitation link")
    TOURNAMENT_INVITE_COPIED = msg("tournament.invite_copied", "Link copied")
    TOURNAMENT_ENTERED = msg("tournament.entered", "You are in: you are seated when your table is ready.")
    TOURNAMENT_YOU_PAUSED = msg("tournament.you_paused", "You are paused: you are not seated until you come back.")
    TOURNAMENT_GO = msg("tournament.go", "Your table is ready: go to it")
    TOURNAMENT_ENTRANTS = nmsg("tournament.entrants", "{count} player", "{count} players")
    TOURNAMENT_NOBODY = msg("tournament.nobody", "Nobody has joined yet.")
    TOURNAMENT_STANDINGS = msg("tournament.standings", "Standings")
    TOURNAMENT_RANK = msg("tournament.rank", "Place")
    TOURNAMENT_SCORE = msg("tournament.score", "Points")
    TOURNAMENT_MATCHES = msg("tournament.matches", "Matches")
    TOURNAMENT_TIEBREAKS = msg("tournament.tiebreaks", "Ties are broken by, in order:")
    TOURNAMENT_TIEBREAK_PER_MATCH = msg("tournament.tiebreak.per_match", "Points per match")
    TOURNAMENT_TIEBREAK_WINS = msg("tournament.tiebreak.wins", "Matches won")
    TOURNAMENT_TIEBREAK_OPPONENTS = msg("tournament.tiebreak.opponents_average", "Opponents' average")
    TOURNAMENT_TIEBREAK_HEAD_TO_HEAD = msg("tournament.tiebreak.head_to_head", "Head to head")
    TOURNAMENT_TIEBREAK_GAME_POINTS = msg("tournament.tiebreak.game_points", "Fewest points in hand")
    TOURNAMENT_TIEBREAK_MATCHPOINTS = msg("tournament.tiebreak.matchpoints", "Match points (%)")
    TOURNAMENT_TIEBREAK_DIFFERENCE = msg("tournament.tiebreak.difference", "Difference")
    TOURNAMENT_PAUSED = msg("tournament.paused", "paused")
    TOURNAMENT_LEFT = msg("tournament.left", "left")
    TOURNAMENT_TABLES = msg("tournament.tables", "Tables")
    TOURNAMENT_IN_PLAY = msg("tournament.in_play", "in play")
    TOURNAMENT_DEALS = msg("tournament.deals", "Deals compared")
    TOURNAMENT_DEAL = msg("tournament.deal", "Deal {deal}")
    TOURNAMENT_DEAL_NOTE = msg(
        "tournament.deal_note",
        "Each column is one seat, with the same tiles at every table. A cell gives who held it, the points "
        "left in hand, the share of match points and the difference with the others at that seat.",
    )
    TOURNAMENT_TABLE = msg("tournament.table", "Table {table}")
    # --- tournaments (server/tournaments): what refuses a request about an event
    TOURNAMENT_BAD_FORMAT = msg("tournament.bad_format", "a tournament is an arena, a Swiss or a round-robin")
    TOURNAMENT_BAD_TABLE_SIZE = msg("tournament.bad_table_size", "a tournament's tables seat 2, 3 or 4 players")
    TOURNAMENT_BAD_BOT = msg("tournament.bad_bot", "there is no such bot level")
    TOURNAMENT_BAD_TURN_TIMER = msg("tournament.bad_turn_timer", "a turn lasts 30, 60 or 120 seconds")
    TOURNAMENT_BAD_RULES = msg("tournament.bad_rules", "these rules cannot be played at tables of this size")
    TOURNAMENT_NOT_RATED = msg("tournament.not_rated", "this tournament cannot be rated: {reason}")
    TOURNAMENT_BAD_MINUTES = msg("tournament.bad_minutes", "an arena lasts from half a minute to a day")
    TOURNAMENT_BAD_WAIT = msg(
        "tournament.bad_wait", "the arena's closing time must be shorter than the arena, and its wait 5 to 300 s"
    )
    TOURNAMENT_ARENA_ROUNDS = msg(
        "tournament.arena_rounds", "an arena has a length, not rounds, and its tables never play duplicate deals"
    )
    TOURNAMENT_BAD_ROUNDS = msg("tournament.bad_rounds", "this tournament plays from 1 to {most} rounds")
    TOURNAMENT_ROUNDS_NOT_MINUTES = msg("tournament.rounds_not_minutes", "this tournament has rounds, not a length")
    TOURNAMENT_PAR_NOT_DUPLICATE = msg("tournament.par_not_duplicate", "a par plays only in a duplicate tournament")
    TOURNAMENT_BAD_START = msg("tournament.bad_start", "a tournament starts in the next 60 days")
    TOURNAMENT_BAD_SCORING = msg(
        "tournament.bad_scoring", "duplicate deals are scored by match points or by difference"
    )
    TOURNAMENT_PUBLIC_NEEDS_START = msg("tournament.public_needs_start", "a public tournament needs a start time")
    TOURNAMENT_BAD_REPEAT = msg("tournament.bad_repeat", "a tournament repeats daily or weekly")
    TOURNAMENT_REPEAT_PUBLIC = msg("tournament.repeat_public", "only a public tournament repeats")
    TOURNAMENT_OPERATORS_ONLY = msg(
        "tournament.operators_only", "only the site's operators make public or repeating tournaments"
    )
    TOURNAMENT_NO_NAME = msg("tournament.no_name", "a tournament needs a name")
    TOURNAMENT_NOT_FOUND = msg("tournament.not_found", "there is no such tournament")
    TOURNAMENT_NO_BOT_ACCOUNTS = msg("tournament.no_bot_accounts", "this tournament does not take bot accounts")
    TOURNAMENT_BOTS_BY_API = msg("tournament.bots_by_api", "a bot account joins tournaments through the Bot API")
    TOURNAMENT_OVER = msg("tournament.over", "this tournament is over")
    TOURNAMENT_STARTED = msg("tournament.started", "this tournament has started: nobody can join it now")
    TOURNAMENT_FULL = msg("tournament.full", "this tournament is full (at most {limit} players)")
    TOURNAMENT_NOT_ENTERED = msg("tournament.not_entered", "you are not in this tournament")
    TOURNAMENT_PAUSE_ARENA = msg("tournament.pause_arena", "only an arena can be paused")
    TOURNAMENT_CREATOR_ONLY = msg("tournament.creator_only", "only the tournament's creator can do this")
    TOURNAMENT_TOO_MANY_OPEN = msg(
        "tournament.too_many_open", "you have too many tournaments to come or in play (at most {limit})"
    )
    TOURNAMENT_TOO_MANY = msg(
        "tournament.too_many",
        "too many tournament requests from your address (at most {limit} in {window} s); try again in {seconds} s",
    )
    TOURNAMENT_TOO_MANY_MADE = msg(
        "tournament.too_many_made",
        "you have made too many tournaments (at most {limit} in {window} s); try again in {seconds} s",
    )
    TOURNAMENT_TOO_MANY_WATCHING = msg(
        "tournament.too_many_watching", "too many pages follow tournaments from your address at once"
    )

    # --- the terminal game (tui/)
    TUI_START = msg("tui.start", "Start")
    TUI_START_MATCH = msg("tui.start_match", "Start match")
    TUI_QUIT = msg("tui.quit", "Quit")
    TUI_SEATS = msg("tui.seats", "Seats")
    TUI_SEED = msg("tui.seed", "Seed")
    TUI_SEED_RANDOM = msg("tui.seed_random", "random")
    TUI_SAVED_FILE = msg("tui.saved_file", "saved match file")
    TUI_RESUME = msg("tui.resume", "Resume")
    TUI_RESUME_NEEDS_FILE = msg("tui.resume_needs_file", "type the file of a saved match to resume it")
    TUI_WHOLE_NUMBER = msg("tui.whole_number", "{field} must be a whole number (got '{text}')")
    TUI_HANDOVER = msg("tui.handover", "Pass the keyboard to {name}.\nPress any key to show the hand.")
    TUI_SAVE_PROMPT = msg("tui.save_prompt", "Save the match to (Enter saves, Escape cancels):")
    TUI_SAVED = msg("tui.saved", "Saved to {path}")
    FILE_SAVE_FAILED = msg("file.save_failed", "cannot save the match to {file}: {reason}")
    FILE_READ_FAILED = msg("file.read_failed", "cannot read {file}: {reason}")
    FILE_NOT_FOUND = msg("file.not_found", "there is no such file or folder")
    FILE_DENIED = msg("file.denied", "you may not open it (permission denied)")
    FILE_IS_FOLDER = msg("file.is_folder", "it is a folder, not a file")
    FILE_NO_SPACE = msg("file.no_space", "the disk is full")
    FILE_OTHER = msg("file.other", "the system refused it")
    TUI_CANCEL = msg("tui.cancel", "Cancel")
    TUI_KEY_TILE = msg("tui.key.tile", "Tile")
    TUI_KEY_TARGET = msg("tui.key.target", "Target")
    TUI_KEY_PLAY = msg("tui.key.play", "Play")
    TUI_KEY_HINT = msg("tui.key.hint", "Hint")
    TUI_KEY_UNDO = msg("tui.key.undo", "Undo")
    TUI_KEY_SAVE = msg("tui.key.save", "Save")
    TUI_HAND_HIDDEN = msg("tui.hand_hidden", "Hand hidden")
    TUI_HAND_HIDDEN_NOTE = msg("tui.hand_hidden_note", "The hand is hidden until its player takes the keyboard.")
    TUI_HAND_TITLE = nmsg("tui.hand_title", "{name} · {count} tile", "{name} · {count} tiles")
    TUI_CHOOSE_TILE = msg("tui.choose_tile", "←→ choose a tile")
    TUI_THINKING = msg("tui.thinking", "{name} is thinking…")
    TUI_PLAY_ON = msg("tui.play_on", "{tile} on:")
    TUI_WHERE = msg("tui.where", "↑↓ where · Enter plays")
    TUI_CANNOT_PLAY = msg("tui.cannot_play", "{tile} cannot be played now")
    TUI_P_PASSES = msg("tui.p_passes", "p passes")
    TUI_HANDS = msg("tui.hands", "Hands")
    TUI_COLUMN_TILES = msg("tui.column.tiles", "Hand")
    TUI_COLUMN_POINTS = msg("tui.column.points", "Pts")
    TUI_TILES_LEFT = msg("tui.tiles_left", "Tiles left")
    TUI_PRESS_QUIT = msg("tui.press_quit", "Press q to quit.")
    TUI_PRESS_NEXT = msg("tui.press_next", "Press Enter for the next round.")
    PLAIN_HELP = msg(
        "plain.help",
        "Type a move (9-4@9-9, 9-9, draw, pass), or: moves, board, hint, undo, save FILE, howto, help, quit. "
        "TILE@TARGET puts TILE on the open end of TARGET.",
    )
    PLAIN_TILES_IN_HAND = msg("plain.tiles_in_hand", "Tiles in hand: {counts}.")
    PLAIN_ENTRY = msg("plain.entry", "{name} ({value})")
    PLAIN_SEAT_HAND = msg("plain.seat_hand", "{name}'s hand: {tiles}")
    PLAIN_LEGAL = msg("plain.legal", "Legal moves: {moves}")
    PLAIN_NONE = msg("plain.none", "(none)")
    PLAIN_TOTALS = msg("plain.totals", "Totals: {totals}.")
    PLAIN_BYE = msg("plain.bye", "Bye.")
    PLAIN_INPUT_ENDED = msg("plain.input_ended", "Input ended; the match is not finished (use save FILE to keep it).")
    PLAIN_ROUND_HAND = msg("plain.round_hand", "{player}: {points}, hand {tiles}")
    PLAIN_ERROR = msg("plain.error", "error: {message}")

    # --- the terminal game: the player at the keyboard addressed as "you" (tui/session.py
    # YOU_WORDING), quitting, who won a blocked round, and the replay (tui/replay.py)
    EVENT_HUB_YOU = msg("event.hub_you", "You placed the hub {tile}")
    EVENT_PLAY_YOU = msg("event.play_you", "You played {tile} on {target}")
    EVENT_DRAW_YOU = msg("event.draw_you", "You drew {tile}")
    EVENT_PASS_YOU = msg("event.pass_you", "You passed")
    EVENT_MATCH_OVER_YOU = msg("event.match_over_you", "You win the match!")
    MOVE_FORCED_YOU = msg("move.forced_you", "You have no choice: {move}")
    ILLEGAL_MUST_PLAY_DRAWN_YOU = msg("illegal.must_play_drawn_you", "you drew {tile} and must play it")
    ILLEGAL_MUST_PLAY_DRAWN_OR_PASS_YOU = msg(
        "illegal.must_play_drawn_or_pass_you", "you drew {tile} and must play it or pass"
    )
    ILLEGAL_MUST_DRAW_YOU = msg("illegal.must_draw_you", "you have no legal play and must draw")
    ILLEGAL_MUST_PLAY_YOU = msg("illegal.must_play_you", "you have a legal play and must play")
    ILLEGAL_NOT_IN_HAND_YOU = msg("illegal.not_in_hand_you", "{tile} is not in your hand")
    ILLEGAL_ONLY_DRAWN_YOU = msg("illegal.only_drawn_you", "you drew {drawn}: only that tile may be played now")
    MATCH_WIN_LOWEST_YOU = msg("match.win.lowest_you", "You win with the lowest total ({total})")
    MATCH_WIN_ZERO_ROUNDS_YOU = msg(
        "match.win.zero_rounds_you", "{tied} tied on {total}; you win with the most rounds scored 0 ({zeros})"
    )
    MATCH_WIN_LOWEST_ROUND_YOU = msg(
        "match.win.lowest_round_you",
        "{tied} tied on {total} and on rounds scored 0; you win with the lowest non-zero round score ({points})",
    )
    MATCH_WIN_NO_NONZERO_YOU = msg(
        "match.win.no_nonzero_you", "{tied} tied on {total} and on rounds scored 0; you win with no non-zero round"
    )
    ROUND_WON_BLOCKED = nmsg(
        "round.won_blocked",
        "{names} wins the round with the fewest points left ({points})",
        "{names} win the round with the fewest points left ({points})",
    )
    ROUND_WON_BLOCKED_YOU = msg("round.won_blocked_you", "You win the round with the fewest points left ({points})")
    TUI_HAND_TITLE_YOU = nmsg("tui.hand_title_you", "Your hand · {count} tile", "Your hand · {count} tiles")
    PLAIN_SEAT_HAND_YOU = msg("plain.seat_hand_you", "Your hand: {tiles}")
    PLAIN_SAVE_NEEDS_FILE = msg("plain.save_needs_file", "save needs a file name: save FILE")
    TUI_QUIT_QUESTION = msg("tui.quit_question", "The match is not over. Save it before you quit?")
    TUI_SAVE_AND_QUIT = msg("tui.save_and_quit", "Save and quit")
    TUI_QUIT_WITHOUT_SAVING = msg("tui.quit_without_saving", "Quit without saving")
    TUI_KEEP_PLAYING = msg("tui.keep_playing", "Keep playing")
    REPLAY_ROUND_OF = msg("replay.round_of", "Round {round}/{rounds}")
    REPLAY_PLAYING = msg("replay.playing", "playing")
    REPLAY_KEY_BACK = msg("replay.key.back", "Back")
    REPLAY_KEY_FORWARD = msg("replay.key.forward", "Forward")
    REPLAY_KEY_START = msg("replay.key.start", "Start")
    REPLAY_KEY_END = msg("replay.key.end", "End")
    REPLAY_KEY_ROUND_BACK = msg("replay.key.round_back", "Round −")
    REPLAY_KEY_ROUND_FORWARD = msg("replay.key.round_forward", "Round +")
    REPLAY_KEY_PLAY_PAUSE = msg("replay.key.play_pause", "Play/pause")

    # --- How to play (docs/rules.md at a player's level); sections in reading order
    HOWTO_INTRO = msg(
        "howto.intro",
        "Chicken Foot is a domino game for two to eight players. Play tiles from your hand onto the "
        "table by matching numbers. Each round, try to get rid of your tiles: what is left in your hand "
        "counts against you. After the last round, the lowest total wins.",
    )
    HOWTO_SETUP_TITLE = msg("howto.setup.title", "Setting up")
    HOWTO_SETUP = msg(
        "howto.setup.text",
        "The game uses a double-nine set: 55 tiles, each with two ends of 0 to 9 pips. Shuffle the tiles "
        "face down and deal each player a hand: seven tiles with four to seven players, more with two or "
        "three, six with eight. The tiles left over stay face down: they are the chicken yard, the boneyard "
        "you draw from.",
    )
    HOWTO_HUB_TITLE = msg("howto.hub.title", "The hub")
    HOWTO_HUB = msg(
        "howto.hub.text",
        "Round 1 starts with the 9-9, round 2 with the 8-8, and so on down to the 0-0 in the last "
        "round. Whoever holds that double places it in the middle of the table: it is the hub. If "
        "nobody holds it, players draw one tile each in turn until someone finds it and places it.",
    )
    HOWTO_ARMS = msg(
        "howto.hub.arms",
        "Next, four arms grow from the hub: each player in turn must lay a tile carrying the hub's "
        "number against it. No arm gets a second tile until all four have one.",
    )
    HOWTO_MATCHING = msg(
        "howto.hub.matching",
        "After that, a tile goes on the free end of any line whose number it matches: a 9-4 on the end "
        "of an arm showing 4 leaves a 9 open.",
    )
    HOWTO_FOOT_TITLE = msg("howto.foot.title", "Chicken feet")
    HOWTO_FOOT = msg(
        "howto.foot.text",
        "Whenever someone plays a double (any double but the hub), it is laid crosswise and calls a "
        "chicken foot. The next three tiles played, by whoever is next, must be its toes: tiles "
        "carrying the double's number, fanned out on its far side. Nothing may be played anywhere else "
        "until the foot has all three toes. Then play is open again, on the toes too.",
    )
    HOWTO_TURN_TITLE = msg("howto.turn.title", "Drawing and passing")
    HOWTO_TURN = msg(
        "howto.turn.text",
        "Play goes clockwise. If you can play a tile, you must. If you cannot, draw one tile from the "
        "chicken yard; if it fits, you may play it at once or keep it and pass, otherwise your turn ends. "
        "When the chicken yard is empty and you cannot play, you pass.",
    )
    HOWTO_END_TITLE = msg("howto.end.title", "The end of a round")
    HOWTO_END = msg(
        "howto.end.text",
        "The round ends at once when a player lays their last tile, even with a chicken foot open. It "
        "also ends when the chicken yard is empty and nobody can play: the round is blocked.",
    )
    HOWTO_SCORE_TITLE = msg("howto.score.title", "Scoring")
    HOWTO_SCORE = msg(
        "howto.score.text",
        "Each player scores the pips left in their hand; a player who went out scores 0. The 0-0 is "
        "the exception: caught in your hand it costs 50 points. Scores add up over the rounds.",
    )
    HOWTO_WIN_TITLE = msg("howto.win.title", "Winning and ties")
    HOWTO_WIN = msg(
        "howto.win.text",
        "After the last round the lowest total wins. On a tie, the tied player with the most rounds "
        "scored 0 wins. Still tied: the one whose lowest round score above 0 is lowest wins (never "
        "having scored above 0 beats any score). Still tied: the win is shared.",
    )
    HOWTO_DRAWING_HUB = msg("howto.drawing.hub", "A hub with its four arms")
    HOWTO_DRAWING_FOOT = msg("howto.drawing.foot", "A chicken foot: the 4-4 with its three toes")

    @property
    def id(self) -> str:
        """The code on the wire, e.g. ``event.hub``."""
        return self.value.code

    @classmethod
    def parse(cls, wire: str) -> Code:
        """The code for a wire id; raises :class:`ValueError` with a one-line message if unknown."""
        try:
            return _BY_ID[wire]
        except KeyError:
            raise ValueError(f"unknown message code {wire[:60]!r}") from None


_BY_ID: dict[str, Code] = {code.id: code for code in Code}


Param = Union[str, int, float, tuple[int, ...], "Said"]
"""A message's parameter: a tile or a move as text, a number (a fraction is shown to one decimal),
a list of seats, or a message within."""


@dataclass(frozen=True, slots=True)
class Said:
    """A message as the engine and the server say it: a code and its parameters, in no language.

    A parameter ``seat`` also names its player (``{name}``); a tuple of seats is shown as their names
    joined (``Ann, Bo and Cy``); a :class:`Said` within is rendered in the same language.

    >>> Said.of(Code.EVENT_PLAY, seat=1, tile="9-4", target="9-9").wire()
    {'code': 'event.play', 'seat': 1, 'tile': '9-4', 'target': '9-9'}
    """

    code: Code
    """Which message: ``Code.EVENT_PLAY`` is ``event.play``, its English and its place in every catalog."""
    params: tuple[tuple[str, Param], ...] = ()
    """The values of its placeholders, as ``(name, value)`` pairs in the order given."""

    @classmethod
    def of(cls, code: Code, /, **params: Param) -> Said:
        """The message ``code`` with its placeholders' values: ``Said.of(Code.EVENT_PASS, seat=2)``."""
        return cls(code, tuple(params.items()))

    def wire(self) -> dict[str, Any]:
        """The message as JSON: ``{"code": ..., **params}``, seat tuples as lists, inner messages as objects."""
        out: dict[str, Any] = {"code": self.code.id}
        for key, value in self.params:
            out[key] = value.wire() if isinstance(value, Said) else list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> Said:
        """A message read back from JSON (:meth:`wire`); keys that are no parameter (``type``, ``text``) are ignored.

        Raises :class:`ValueError` for an unknown code.
        """
        params: dict[str, Param] = {}
        for key, value in data.items():
            if key == "code" or value is None or isinstance(value, bool):
                continue
            if isinstance(value, Mapping) and "code" in value:
                params[key] = cls.from_wire(value)
            elif isinstance(value, list) and all(isinstance(seat, int) for seat in value):
                params[key] = tuple(value)
            elif isinstance(value, (str, int, float)):
                params[key] = value
        return cls.of(Code.parse(str(data["code"])), **params)
