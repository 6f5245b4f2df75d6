"""The messages of docs/protocol.md: each one built for one recipient from the engine's ``view(seat)``.

Nothing here reads a hand or the boneyard directly: a seat's state comes from its
:class:`~chickenfoot.view.SeatView`, so another seat's tiles cannot leak into it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, NamedTuple

import orjson
import wcwidth
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
)
from pydantic_core import PydanticCustomError

from chickenfoot.i18n import DEFAULT, english, seat_names
from chickenfoot.match import Match
from chickenfoot.messages import Code, Said
from chickenfoot.move import Move
from chickenfoot.round import Event
from chickenfoot.rules import Rules
from chickenfoot.server.refusals import Refusal
from chickenfoot.view import OwnView, PublicStep, SeatView

MAX_MESSAGE_BYTES = 4096
"""A longer message is refused with an ``error`` (the connection stays open)."""
MAX_FRAME_BYTES = 65536
"""A longer frame is refused with an ``error`` and the connection is closed (code 1009)."""
MAX_VERSION = 2**53 - 1
"""Versions (and ``since``) are JSON-safe integers."""
NEXT_ROUND = "next_round"
"""The stored action that deals the next round (a move is stored in its own notation)."""


def error_message(refusal: Refusal) -> dict[str, Any]:
    """The ``error`` message of docs/protocol.md for ``refusal``: the English ``message`` and its code
    and parameters."""
    return {"type": "error", "message": str(refusal)} | refusal.said.wire()


def mute_message(until: str | None) -> dict[str, Any]:
    """The ``mute`` message, to a muted player's own connections: the operators muted them in chat until
    ``until`` (its ``moment``), or lifted the mute (``None``).

    >>> mute_message("2026-12-08T06:00+00:00")["message"]
    'The operators muted you in chat until 2026-12-08 06:00 UTC'
    >>> mute_message(None)["moment"], mute_message(None)["code"]
    (None, 'moderation.unmuted')
    """
    said = Said.of(Code.MODERATION_UNMUTED) if until is None else Said.of(Code.MODERATION_MUTED, moment=until)
    return {"type": "mute", "message": english(said)} | said.wire() | {"moment": until}


def stale_version(version: int, current: int) -> Refusal:
    """The refusal of an action chosen at ``version`` when the table is at ``current``."""
    return Refusal.conflict(Said.of(Code.ERROR_STALE_VERSION, version=version, current=current))


def hint_message(move: Move, why: Said) -> dict[str, Any]:
    """The ``hint`` message: the move, its reason in English and the reason's code and parameters."""
    return {"type": "hint", "move": str(move), "reason": english(why)} | why.wire()


@dataclass(frozen=True, slots=True)
class Presence:
    """Who is at the table: names (``None``: the player chose none), kinds, bot levels and connection state per seat."""

    names: tuple[str | None, ...]
    kinds: tuple[str, ...]
    connected: tuple[bool, ...]
    covered: tuple[bool, ...]
    bots: tuple[str | None, ...]


def dumps(message: dict[str, Any] | list[Any]) -> str:
    """Compact JSON text (orjson: the state messages are the server's largest per-message cost)."""
    return orjson.dumps(message).decode()


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _checked_move(text: str) -> str:
    try:
        parse_move(text)
    except Refusal as refusal:
        raise ValueError(str(refusal)) from None  # pydantic reports a ValueError as the field's problem
    return text


MoveText = Annotated[str, StringConstraints(max_length=64), AfterValidator(_checked_move)]
Version = Annotated[int, Field(ge=0, le=MAX_VERSION)]


MAX_NAME = 40
"""The widest name, in the cells of a fixed-width font: a wide character (日, 😀) takes two, a mark
stacked on a letter none, so a name's length is what it takes on a seat's card."""
MAX_MARKS = 4
"""Code points one character may hold beyond its first: accents, Indic vowel signs and a flag's pair fit;
a pile of marks that would draw over the names around it does not."""


def printable_name(name: str) -> str:
    """A player's name as given, if it is one line of printable text (it is shown as plain text, never
    markup) at most :data:`MAX_NAME` cells wide, each character (grapheme cluster) with at most
    :data:`MAX_MARKS` marks.

    >>> printable_name("Zoë"), printable_name("山田花子")
    ('Zoë', '山田花子')
    >>> printable_name("山" * 21)
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.PydanticCustomError: String should have at most 40 characters
    """
    too_long = PydanticCustomError(
        "string_too_long", "String should have at most {max_length} characters", {"max_length": MAX_NAME}
    )
    # Code points first: the cheap bound, before the grapheme clusters are found.
    if len(name) > MAX_NAME * (1 + MAX_MARKS):
        raise too_long
    if not name.isprintable() or any(len(c) > 1 + MAX_MARKS for c in wcwidth.iter_graphemes(name)):
        raise PydanticCustomError("printable", "a name is one line of printable text")
    if wcwidth.width(name) > MAX_NAME:
        raise too_long
    return name


PlayerName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1), AfterValidator(printable_name)]


class MoveMessage(_Message):
    """Play ``move`` (the notation of docs/rules.md §7, or ``draw``/``pass``) at table version ``version``."""

    type: Literal["move"]
    move: MoveText
    version: Version = Field(description="The last version the client saw; a different one is stale.")


class HintMessage(_Message):
    """Ask for a suggested move (only the seat to move)."""

    type: Literal["hint"]


class NextRoundMessage(_Message):
    """Deal the next round (any seated human, once the round is over)."""

    type: Literal["next_round"]


class NameMessage(_Message):
    """Set the sender's own name at the table (a seated player): one line of 1 to 40 printable characters."""

    type: Literal["name"]
    name: PlayerName


class PingMessage(_Message):
    """Ask for a ``pong``."""

    type: Literal["ping"]


class ChatMessage(_Message):
    """Say one line of plain text to the table (players and spectators; the server says who)."""

    type: Literal["chat"]
    text: str = Field(max_length=MAX_MESSAGE_BYTES)


Reaction = Literal["good_game", "well_played", "chicken_foot", "thanks"]
"""Quick reactions: each is the message ``chat.reaction.<reaction>``, shown in every reader's language."""


class ReactMessage(_Message):
    """Send a quick reaction to the table's chat."""

    type: Literal["react"]
    reaction: Reaction


AnyClientMessage = MoveMessage | HintMessage | NextRoundMessage | NameMessage | PingMessage | ChatMessage | ReactMessage
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
CLIENT_MESSAGES: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


class ConnectQuery(_Message):
    """The query of ``/ws/{code}``: a seat's credential (none: watch) and the last version seen."""

    model_config = ConfigDict(extra="ignore", strict=False, frozen=True)
    token: str | None = Field(default=None, max_length=100)
    since: Version | None = None


def client_message_schema() -> dict[str, Any]:
    """The JSON Schema of every client message (the one in docs/protocol.md)."""
    return CLIENT_MESSAGES.json_schema()


def one_line(error: ValidationError, what: str) -> str:
    """The first problem pydantic found, as one line naming where it was."""
    first = error.errors(include_url=False)[0]
    kind, message = first["type"], str(first["msg"]).removeprefix("Value error, ")
    if kind == "json_invalid":
        return f"{what} is not valid JSON ({message})"
    if kind in ("model_attributes_type", "model_type", "dict_type"):
        return f'{what} must be a JSON object with a "type"'
    if kind == "union_tag_not_found":
        return f'{what} needs a "type" (one of {", ".join(_TYPES)})'
    if kind == "union_tag_invalid":
        return f"unknown {what} type {str(first.get('ctx', {}).get('tag', ''))[:40]!r} (one of {', '.join(_TYPES)})"
    where = [str(part) for part in first["loc"]]
    if where and where[0] in _TYPES:
        what = f"{where.pop(0)} {what}"  # the discriminator's value names the message kind
    return f"{what}{''.join(f' field {part!r}' for part in where)}: {message}"[:300]


_TYPES = ("move", "hint", "next_round", "name", "ping", "chat", "react")


def parse_client_message(text: str | bytes) -> AnyClientMessage:
    """A client message; raises :class:`~chickenfoot.server.refusals.Refusal` with one line naming what was wrong."""
    if isinstance(text, bytes):
        raise Refusal.invalid(Said.of(Code.ERROR_BINARY_FRAME))
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise Refusal.invalid(Said.of(Code.ERROR_MESSAGE_TOO_LARGE, limit=MAX_MESSAGE_BYTES))
    try:
        return CLIENT_MESSAGES.validate_json(text.encode("utf-8", "surrogatepass"))
    except ValidationError as exc:
        reason = one_line(exc, "message")
        raise Refusal.invalid(Said.of(Code.ERROR_BAD_MESSAGE, reason=reason), text=reason) from None


def raw_events(events: Sequence[Event], round_number: int) -> list[dict[str, Any]]:
    """The engine's events as stored, each with its message (``code`` and parameters): a draw keeps
    its tile, to be shown to the drawer alone."""
    return [
        {"kind": event.kind, "seat": event.seat, "move": str(event.move) if event.move else None}
        | event.said(round_number).wire()
        for event in events
    ]


def round_start_events(match: Match) -> list[dict[str, Any]]:
    """The events of dealing a round: its start (``event.round_start``) and the first turn."""
    seat = match.round.to_move
    start = Said.of(
        Code.EVENT_ROUND_START, round=match.round_number, tile=f"{match.round.start_double}-{match.round.start_double}"
    )
    return [
        {"kind": "round_start", "seat": seat, "move": None} | start.wire(),
        {"kind": "turn", "seat": seat, "move": None} | Said.of(Code.EVENT_TURN, seat=seat).wire(),
    ]


def match_over_event(match: Match) -> dict[str, Any]:
    """The event of the match's end (``event.match_over``, its winners as a list of seats)."""
    winners = tuple(match.winners())
    said = Said.of(Code.EVENT_MATCH_OVER, names=winners, count=len(winners))
    return {"kind": "match_over", "seat": winners[0], "move": None} | said.wire()


def events_for(events: Sequence[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them: a drawn tile only in the drawer's own events; the end of a
    round by the recipient's own last tile is worded for them (``event.round_over.domino_you``)."""
    out = []
    for event in events:
        if event["kind"] == "draw" and "tile" in event and event["seat"] != seat:
            event = {key: value for key, value in event.items() if key != "tile"} | {"code": Code.EVENT_DRAW_HIDDEN.id}
        elif event.get("code") == Code.EVENT_ROUND_OVER_DOMINO.id and event["seat"] == seat:
            event = event | {"code": Code.EVENT_ROUND_OVER_DOMINO_YOU.id}
        out.append(event)
    return out


def seen_as_spectators_see(events: Sequence[dict[str, Any]], seat: int | None) -> bool:
    """``seat`` is shown ``events`` as a spectator is (:func:`events_for`): none is its own draw or its
    own last tile."""
    return seat is None or not any(
        event["seat"] == seat and (event["kind"] == "draw" or event.get("code") == Code.EVENT_ROUND_OVER_DOMINO.id)
        for event in events
    )


def log_names(presence: Presence) -> tuple[str, ...]:
    """The seats' names in the log's English ``text``."""
    return _english_names(presence.names, presence.bots)


@functools.lru_cache(maxsize=1024)
def _english_names(names: tuple[str | None, ...], bots: tuple[str | None, ...]) -> tuple[str, ...]:
    # Every new log entry of every seat names the seats: the same few names, rendered once.
    return tuple(seat_names(names, bots, DEFAULT))


@functools.lru_cache(maxsize=64)
def rules_dict(rules: Rules) -> dict[str, Any]:
    """``rules.to_dict()``, built once per rule set: every STATE carries it (callers copy it)."""
    return rules.to_dict()


def log_entry(step: PublicStep, names: Sequence[str]) -> dict[str, Any]:
    """One entry of the log: the step, its English ``text`` and its message (``code`` and parameters)."""
    return {
        "seat": step.seat,
        "move": str(step.move),
        "text": step.move.describe(names[step.seat], step.drawn),
    } | step.move.said(step.seat, step.drawn).wire()


LogCache = dict[tuple[int, int | None], list[str]]
"""The log's entries as JSON texts, by (round, seat): the entries every seat sees alike under
``None`` (a spectator's), encoded once for all; each seat's list reuses them and encodes only its
own draws again. A round's log only grows, so a state encodes only the entries added since the last."""


class LogSent(NamedTuple):
    """What one connection was last sent of the log: the round and how many of its entries."""

    round: int
    entries: int


def public_json(code: str, status: str, match: Match, view: SeatView, presence: Presence, **extra: Any) -> str:
    """:func:`public_state` with ``extra`` fields, as JSON text: the part of a STATE every recipient shares."""
    return dumps(public_state(code, status, match, view, presence) | extra)


def seat_json(view: SeatView | OwnView) -> str:
    """:func:`seat_state` as JSON text."""
    return dumps(seat_state(view))


def log_texts(round_number: int, view: SeatView | OwnView, presence: Presence, log_cache: LogCache) -> list[str]:
    """The log's entries for the recipient of ``view`` as JSON texts; each is encoded once, into
    ``log_cache``. The list returned is usually the cache's own: read it, do not change it."""
    history, names = view.history, log_names(presence)
    shared = log_cache.setdefault((round_number, None), [])
    if len(shared) < len(history):
        shared += [dumps(log_entry(_as_others_saw(step), names)) for step in history[len(shared) :]]
    if view.seat is None:
        return _first(shared, len(history))
    texts = log_cache.setdefault((round_number, view.seat), [])
    if len(texts) < len(history):
        texts += [
            shared[index] if step.drawn is None else dumps(log_entry(step, names))
            for index, step in enumerate(history[len(texts) :], len(texts))
        ]
    return _first(texts, len(history))


def _first(texts: list[str], count: int) -> list[str]:
    # A round's history only grows in a server, so the cached list is nearly always the whole of it.
    return texts if len(texts) == count else texts[:count]


def _as_others_saw(step: PublicStep) -> PublicStep:
    return step if step.drawn is None else replace(step, drawn=None)


def state_with_log(public: str, seat: str, entries: Sequence[str], start: int) -> str:
    """The STATE text of the recipient whose own fields are ``seat`` (from :func:`seat_json`), with
    the shared fields ``public`` (from :func:`public_json`) and the log's entries from ``start`` on:
    the entries before it are those the recipient was sent already (``log_from``)."""
    return f'{public[:-1]},{seat[1:-1]},"log_from":{start},"log":[{",".join(entries[start:])}]}}'


def whole_log(state: dict[str, Any], previous: dict[str, Any] | None) -> dict[str, Any]:
    """A received STATE with its whole log: the entries before its ``log_from`` are those of the
    ``previous`` state received on the same connection. Raises ``ValueError`` without them."""
    start = state.get("log_from", 0)
    if start == 0:
        return state
    if previous is None or len(previous.get("log", ())) < start:
        raise ValueError(f"the state continues a log of {start} entries that this connection was not sent")
    return state | {"log_from": 0, "log": previous["log"][:start] + state["log"]}


def state_for(code: str, status: str, match: Match, view: SeatView, presence: Presence) -> dict[str, Any]:
    """The STATE object of docs/protocol.md for the recipient of ``view``, its whole log included."""
    names = log_names(presence)
    return (
        public_state(code, status, match, view, presence)
        | seat_state(view)
        | {"log_from": 0, "log": [log_entry(step, names) for step in view.history]}
    )


def seat_state(view: SeatView | OwnView) -> dict[str, Any]:
    """The fields of a STATE that are the recipient's own: its seat, hand and moves."""
    return {
        "seat": view.seat,
        "hand": [str(t) for t in view.hand],
        "drawn": str(view.drawn) if view.drawn is not None else None,
        "legal": [str(m) for m in view.legal_moves],
        "forced": str(view.forced) if view.forced is not None else None,
    }


def public_state(code: str, status: str, match: Match, view: SeatView, presence: Presence) -> dict[str, Any]:
    """The fields of a STATE that every recipient shares, given any recipient's ``view``: all but
    :func:`seat_state`'s and the log."""
    over = view.is_over
    match_over = None
    if match.is_over():
        match_over = {"winners": match.winners(), "explanation": match.explain_winner(), **match_over_words(match)}
    return {
        "code": code,
        "status": status,
        "players": view.players,
        "names": list(presence.names),
        "kinds": list(presence.kinds),
        "bots": list(presence.bots),
        "connected": list(presence.connected),
        "covered": list(presence.covered),
        "rules": dict(rules_dict(match.rules)),
        "round": match.round_number,
        "rounds": match.rules.round_count,
        "start_double": view.start_double,
        "layout": [[str(tile), str(target) if target is not None else None] for tile, target in view.layout],
        "open_ends": [[str(tile), number] for tile, number in view.open_ends],
        "phase": view.phase.name.lower(),
        "foot": str(view.open_foot) if view.open_foot is not None else None,
        "boneyard": view.boneyard_size,
        "hand_sizes": list(view.hand_sizes),
        "to_move": view.to_move,
        "round_over": (
            {
                "reason": view.end_reason,
                "hands": [[str(t) for t in hand] for hand in view.revealed_hands or ()],
                "points": list(view.points or ()),
            }
            if over
            else None
        ),
        "scores": [list(points) for points in match.round_points],
        "totals": match.totals(),
        "match_over": match_over,
    }


def match_over_words(match: Match) -> dict[str, Any]:
    """The winner explanation as a message: ``{"why": {"code": "match.win.lowest", "seat": 2, ...}}``."""
    return {"why": match.winner_reason().wire()}


def parse_move(text: str) -> Move:
    """A move in the notation of docs/rules.md §7; the error quotes the whole move as typed."""
    try:
        return Move.parse(text)
    except ValueError as exc:
        reason = str(exc).splitlines()[0][:200] if str(exc) else "not in the notation of docs/rules.md §7"
        quoted = f"bad move {text[:64]!r}"
        said = Said.of(Code.ERROR_BAD_MOVE, move=repr(text[:64]), reason=reason.removeprefix(quoted).lstrip(": "))
        raise Refusal.invalid(said, text=reason if reason.startswith(quoted) else f"{quoted}: {reason}") from None
