"""The messages of docs/protocol.md: each one built for one recipient from the engine's ``view(seat)``.

Nothing here reads a hand or the boneyard directly: a seat's state comes from its
:class:`~chickenfoot.view.SeatView`, so another seat's tiles cannot leak into it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chickenfoot.match import Match
from chickenfoot.move import Move
from chickenfoot.round import Event
from chickenfoot.view import SeatView

MAX_MESSAGE_BYTES = 4096
CLIENT_TYPES = ("move", "hint", "next_round", "ping")


class ProtocolError(ValueError):
    """A client message the server refuses; its text is sent back as one ``error`` line."""


@dataclass(frozen=True, slots=True)
class Presence:
    """Who is at the table: names, kinds and connection state per seat."""

    names: tuple[str, ...]
    kinds: tuple[str, ...]
    connected: tuple[bool, ...]
    covered: tuple[bool, ...]


def dumps(message: dict[str, Any] | list[Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def parse_client_message(text: str | bytes) -> dict[str, Any]:
    """A client message as a dict with a known ``type``; raises :class:`ProtocolError`."""
    if len(text) > MAX_MESSAGE_BYTES or (isinstance(text, str) and len(text.encode()) > MAX_MESSAGE_BYTES):
        raise ProtocolError(f"message too large (limit {MAX_MESSAGE_BYTES} bytes)")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ProtocolError("message is not valid JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError('message must be a JSON object with a "type"')
    if data["type"] not in CLIENT_TYPES:
        raise ProtocolError(f"unknown message type {data['type'][:40]!r}")
    if data["type"] == "move":
        if not isinstance(data.get("move"), str):
            raise ProtocolError('a move message needs "move" (a string in RULES.md notation)')
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ProtocolError('a move message needs "version" (the last version seen)')
        parse_move(data["move"])
    return data


def raw_events(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The engine's events as stored: a draw keeps its tile, to be shown to the drawer alone."""
    out: list[dict[str, Any]] = []
    for event in events:
        raw: dict[str, Any] = {"kind": event.kind, "seat": event.seat, "move": str(event.move) if event.move else None}
        if event.kind == "draw" and event.tile is not None:
            raw["tile"] = str(event.tile)
        out.append(raw)
    return out


def events_for(events: Sequence[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them: a drawn tile only in the drawer's own events."""
    out = []
    for event in events:
        if "tile" in event and event["seat"] != seat:
            event = {key: value for key, value in event.items() if key != "tile"}
        out.append(event)
    return out


LogCache = dict[tuple[int, int, str | None], dict[str, Any]]
"""Log entries by (round, step index, tile shown): each entry is written once, not once per message."""


def log_for(round_number: int, view: SeatView, names: Sequence[str], cache: LogCache) -> list[dict[str, Any]]:
    entries = []
    for index, step in enumerate(view.history):
        key = (round_number, index, str(step.drawn) if step.drawn is not None else None)
        entry = cache.get(key)
        if entry is None:
            entry = {
                "seat": step.seat,
                "move": str(step.move),
                "text": step.move.describe(names[step.seat], step.drawn),
            }
            cache[key] = entry
        entries.append(entry)
    return entries


def state_for(
    code: str, status: str, match: Match, view: SeatView, presence: Presence, log_cache: LogCache | None = None
) -> dict[str, Any]:
    """The STATE object of docs/protocol.md for the recipient of ``view``."""
    over = view.is_over
    match_over = None
    if match.is_over():
        match_over = {"winners": match.winners(), "explanation": match.explain_winner()}
    return {
        "code": code,
        "status": status,
        "seat": view.seat,
        "players": view.players,
        "names": list(presence.names),
        "kinds": list(presence.kinds),
        "connected": list(presence.connected),
        "covered": list(presence.covered),
        "rules": match.rules.to_dict(),
        "round": match.round_number,
        "rounds": match.rules.round_count,
        "start_double": view.start_double,
        "hand": [str(t) for t in view.hand],
        "layout": [[str(tile), str(target) if target is not None else None] for tile, target in view.layout],
        "open_ends": [[str(tile), number] for tile, number in view.open_ends],
        "phase": view.phase.name.lower(),
        "foot": str(view.open_foot) if view.open_foot is not None else None,
        "boneyard": view.boneyard_size,
        "hand_sizes": list(view.hand_sizes),
        "to_move": view.to_move,
        "drawn": str(view.drawn) if view.drawn is not None else None,
        "legal": [str(m) for m in view.legal_moves],
        "log": log_for(match.round_number, view, presence.names, {} if log_cache is None else log_cache),
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


def parse_move(text: str) -> Move:
    try:
        return Move.parse(text)
    except ValueError as exc:
        raise ProtocolError(str(exc).splitlines()[0][:200]) from None
