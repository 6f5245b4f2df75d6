"""The messages server processes send each other about a table: one type per kind, written and read here.

Each says what changed at the table, and with which of its versions: an action stored (with the action
itself, so the others apply it without reading it back), the configuration changed, someone came or went
(with the lease holder's decisions: who is covered and when each grace ends), a notice for the clients
(a chat line, a rematch), a seat's credential moved to another device, a process asking the holder for
its decisions, a process asking the others to count a table's sockets again, and an operator's
ending of the table. Beside a table's, three messages for the whole server: sessions that ended (their
connections end wherever they are), the chat filter's words changed, and an account's mute in chat
started or lifted (its own connections say so, wherever they are).

On the wire (Redis pub/sub, JSON) every message carries the format's version ``v``, its ``kind``, the
sender ``from`` and the table's ``version``. The rule that lets processes of two releases serve the
same tables during a rolling upgrade (docs/scale-out.md): within one ``v`` a field may be added but
never removed or changed in meaning; a reader ignores fields and kinds it does not know. A message of
another ``v``, or one that is not well formed, is dropped with a debug log line (never an exception):
the database is the record, so a dropped message costs the others a catch-up, never a wrong table.
The fields keep the names of the messages that had no ``v`` yet (read here as ``v`` 0), so the two
understand each other.

>>> wire = encode(ActionStored(7, "9-4@9-9", 1700000000.5), sender="a")
>>> wire["v"], wire["kind"], wire["version"], wire["action"]
(1, 'action', 7, ['9-4@9-9', 1700000000.5])
>>> decode(wire)
('a', ActionStored(version=7, action='9-4@9-9', at=1700000000.5))
>>> decode({"v": 1, "kind": "action", "from": "a", "version": "7"}) is None
True
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

WIRE = 1
"""The format's version, ``v`` on the wire."""
MAX_LISTED = 16
"""Events and grace periods read from one message at most: a table has at most a few seats."""
MAX_SESSIONS = 1000
"""Sessions read from one message at most (one account's, or a few accounts')."""
MAX_MOMENT = 40
"""Characters of an instant (ISO 8601) read from one message at most."""

Events = list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class ActionStored:
    """The table stored action ``version`` (``action``, stored at ``at``, wall time)."""

    version: int
    action: str
    at: float


@dataclass(frozen=True, slots=True)
class ConfigChanged:
    """The table's configuration changed (a seat taken, a name, a bot): read it again; ``events`` for the
    clients. Its ``version`` is ``None`` when it was changed outside the table (a deleted player's name
    erased, by a process that may not hold the table)."""

    version: int | None
    events: Events


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """Someone came or went: count the sockets again; ``events`` for the clients. From the lease
    holder, also its decisions: the seats it ``covered``, and when each ``grace`` ends (seat, wall time)."""

    version: int | None
    events: Events
    covered: list[int] | None = None
    grace: list[tuple[int, float]] | None = None


@dataclass(frozen=True, slots=True)
class Notice:
    """Tell the clients ``notice`` (a chat line, a rematch, a rating): no game action."""

    version: int | None
    notice: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SeatMoved:
    """``seat`` moved to the device holding the credential of digest ``credential``: its other
    connections end (by an older credential, or by an account's session)."""

    version: int | None
    seat: int
    credential: str


@dataclass(frozen=True, slots=True)
class AskCovering:
    """A process that may have missed the lease holder's decisions asks for them."""

    version: int | None


@dataclass(frozen=True, slots=True)
class TableEnded:
    """An operator ended the table (server/moderation): it is deleted; its connections end."""

    version: int | None


@dataclass(frozen=True, slots=True)
class SessionsEnded:
    """Sessions ended (signed out, an account closed, suspended by an operator): the table connections
    they seated end, in every process (server/accounts/live.py). On the server's sessions channel, not a
    table's: its ``version`` is ``None``."""

    digests: tuple[str, ...]
    version: None = None


@dataclass(frozen=True, slots=True)
class ChatWordsChanged:
    """The operators changed the chat filter's words: every process reads them again (server/moderation)."""

    version: None = None


@dataclass(frozen=True, slots=True)
class MuteChanged:
    """The operators muted ``account`` in chat until ``until`` (ISO 8601), or lifted its mute (``None``):
    its table connections tell their client alone, in every process (server/moderation/mutes.py)."""

    account: int
    until: str | None
    version: None = None


TableMessage = ActionStored | ConfigChanged | PresenceChanged | Notice | SeatMoved | AskCovering | TableEnded
"""What a table's channel carries."""
PeerMessage = TableMessage | SessionsEnded | ChatWordsChanged | MuteChanged

_KINDS: dict[type[Any], str] = {
    ActionStored: "action",
    ConfigChanged: "config",
    PresenceChanged: "presence",
    Notice: "notice",
    SeatMoved: "moved",
    AskCovering: "ask",
    TableEnded: "table_ended",
    SessionsEnded: "sessions_ended",
    ChatWordsChanged: "words",
    MuteChanged: "mute",
}


def encode(message: PeerMessage, sender: str) -> dict[str, Any]:
    """``message`` as JSON-ready data, from process ``sender``."""
    wire: dict[str, Any] = {"v": WIRE, "kind": _KINDS[type(message)], "from": sender, "version": message.version}
    match message:
        case ActionStored(_, action, at):
            wire["action"] = [action, at]
        case ConfigChanged(_, events):
            wire |= {"config": True, "events": events}
        case PresenceChanged(_, events, covered, grace):
            wire |= {"presence": True, "events": events}
            if covered is not None:
                wire["covered"] = covered
            if grace is not None:
                wire["grace"] = [list(pair) for pair in grace]
        case Notice(_, notice):
            wire["notice"] = notice
        case SeatMoved(_, seat, credential):
            wire["moved"] = {"seat": seat, "to": credential}
        case AskCovering():
            wire["ask"] = "covering"
        case TableEnded():
            wire["table_ended"] = True
        case SessionsEnded(digests):
            wire["ended"] = list(digests)  # the field's name from before ``v``: older processes read it too
        case ChatWordsChanged():
            wire["words"] = "changed"
        case MuteChanged(account, until):
            wire |= {"account": account, "until": until}
    return wire


def decode(wire: Any) -> tuple[str, PeerMessage] | None:
    """The sender and the message of ``wire`` (parsed JSON); ``None`` (logged) when it is of another
    format, of a kind unknown here, or not well formed."""
    if not isinstance(wire, dict):
        log.debug("a message between processes is no object: dropped")
        return None
    v = wire.get("v", 0)
    kind = wire.get("kind") if v == WIRE else _kind_without_v(wire) if v == 0 else None
    read = _READERS.get(kind) if isinstance(kind, str) else None
    sender = wire.get("from", "" if kind == "sessions_ended" else None)  # ended sessions had no sender before ``v``
    if read is None or not isinstance(sender, str):
        log.debug("a message between processes of format %r, kind %r: dropped", v, kind)
        return None
    try:
        version = wire.get("version")
        if version is not None and not _is_int(version):
            raise ValueError("version")
        return sender, read(wire, version)
    except (KeyError, TypeError, ValueError) as exc:
        log.debug("a %s message between processes is not well formed (%s): dropped", kind, exc)
        return None


def _kind_without_v(wire: dict[str, Any]) -> str | None:
    """The kind of a message from before ``v``: each carried one of these keys (the ended sessions, ``ended``)."""
    if "ended" in wire:
        return "sessions_ended"
    return next((kind for kind in ("action", "config", "presence", "notice", "moved", "ask") if kind in wire), None)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_time(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _events(wire: dict[str, Any]) -> Events:
    events = wire.get("events", [])
    if not isinstance(events, list):
        raise TypeError("events")
    # Bounded: they are only the "connected"/"disconnected" news shown beside the state.
    return [event for event in events[:MAX_LISTED] if isinstance(event, dict)]


def _action(wire: dict[str, Any], version: int | None) -> ActionStored:
    action = wire["action"]
    if version is None or not (isinstance(action, list) and len(action) == 2 and isinstance(action[0], str)):
        raise ValueError("action")
    if not _is_time(action[1]):
        raise ValueError("time")
    return ActionStored(version, action[0], float(action[1]))


def _config(wire: dict[str, Any], version: int | None) -> ConfigChanged:
    return ConfigChanged(version, _events(wire))


def _presence(wire: dict[str, Any], version: int | None) -> PresenceChanged:
    covered, grace = wire.get("covered"), wire.get("grace")
    if covered is not None:
        if not isinstance(covered, list):
            raise TypeError("covered")
        covered = [seat for seat in covered[:MAX_LISTED] if _is_int(seat)]
    if grace is not None:
        if not isinstance(grace, list):
            raise TypeError("grace")
        pairs = [pair for pair in grace[:MAX_LISTED] if isinstance(pair, list) and len(pair) == 2]
        grace = [(pair[0], float(pair[1])) for pair in pairs if _is_int(pair[0]) and _is_time(pair[1])]
    return PresenceChanged(version, _events(wire), covered, grace)


def _notice(wire: dict[str, Any], version: int | None) -> Notice:
    notice = wire["notice"]
    if not isinstance(notice, dict):
        raise TypeError("notice")
    return Notice(version, notice)


def _moved(wire: dict[str, Any], version: int | None) -> SeatMoved:
    moved = wire["moved"]
    if not (isinstance(moved, dict) and _is_int(moved.get("seat")) and isinstance(moved.get("to"), str)):
        raise ValueError("moved")
    return SeatMoved(version, moved["seat"], moved["to"])


def _ask(wire: dict[str, Any], version: int | None) -> AskCovering:
    if wire.get("ask") != "covering":
        raise ValueError("ask")
    return AskCovering(version)


def _table_ended(wire: dict[str, Any], version: int | None) -> TableEnded:
    if wire.get("table_ended") is not True:
        raise ValueError("table_ended")
    return TableEnded(version)


def _sessions_ended(wire: dict[str, Any], version: int | None) -> SessionsEnded:
    ended = wire["ended"]
    if not isinstance(ended, list):
        raise TypeError("ended")
    return SessionsEnded(tuple(digest for digest in ended[:MAX_SESSIONS] if isinstance(digest, str)))


def _words(wire: dict[str, Any], version: int | None) -> ChatWordsChanged:
    if wire.get("words") != "changed":
        raise ValueError("words")
    return ChatWordsChanged()


def _mute(wire: dict[str, Any], version: int | None) -> MuteChanged:
    account, until = wire["account"], wire["until"]
    if not _is_int(account) or not (until is None or (isinstance(until, str) and len(until) <= MAX_MOMENT)):
        raise ValueError("mute")
    return MuteChanged(account, until)


_READERS: dict[str, Callable[[dict[str, Any], int | None], PeerMessage]] = {
    "action": _action,
    "config": _config,
    "presence": _presence,
    "notice": _notice,
    "moved": _moved,
    "ask": _ask,
    "table_ended": _table_ended,
    "sessions_ended": _sessions_ended,
    "words": _words,
    "mute": _mute,
}
