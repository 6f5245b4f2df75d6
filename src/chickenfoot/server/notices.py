"""The notify port: what may be said to a player who is not looking at the page, and who says it.

Whoever has news for an account (the end of a match, an invitation, a rematch offered, a challenge and
its answer, and with turn-based tables the turn and a chat line) hands a typed :data:`Notice` to a
:class:`Notifier`; the
notifications feature (``server/notifications``) keeps it in the account's list and sends it on the
channels its player chose (push, e-mail), in their language, outside their quiet hours.

A notice carries only what everyone at the table may know: its kind, the table's code, names chosen by
players, counts and a rating change. No field can hold a tile, so no notice can carry a hand. A notice
about a table opens it (:func:`page_of`); a challenge and its answer open the friends page, where the
player answers it or takes the seat it made.

Each notice names itself by a :attr:`key` (per account) and a :attr:`seq`: the same notice told twice
(by two processes following one table) is kept once; a notice whose key is known and whose ``seq`` is
higher is news about the same thing (the turn at that table again, more chat lines there) and
updates the one kept.

>>> notice = YourTurn("ABC123", turn=7)
>>> notice.kind, notice.key, notice.seq, notice.params()
(<Kind.YOUR_TURN: 'your_turn'>, 'your_turn:ABC123', 7, {})
>>> Invited("ABC123", seat=2, inviter="Ann", players=4).params()
{'players': 4, 'name': 'Ann'}
>>> challenge = Challenge(None, challenge=12, challenger="Ann", players=3)
>>> challenge.key, challenge.params(), page_of(challenge.kind, challenge.table)
('challenge:12', {'name': 'Ann', 'players': 3, 'rated': 0}, '/friends')
>>> Challenge(None, challenge=13, challenger="Ann", move_seconds=86400, on_timeout="replace").params()
{'name': 'Ann', 'players': 2, 'rated': 0, 'move_seconds': 86400, 'on_timeout': 'replace'}
>>> ChallengeAnswered("ABC123", challenge=12, by="Bo", answer="accepted").params()
{'name': 'Bo', 'answer': 'accepted'}
>>> YourTurn("abc 123", turn=1)
Traceback (most recent call last):
ValueError: not a table code: 'abc 123'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, Literal, Protocol

TABLE_CODE = re.compile(r"[A-Z0-9]{1,16}")
NAME_LENGTH = 64
FRIENDS_PAGE = "/friends"
"""Where a challenge is answered, and an accepted one's seat taken."""


class Kind(StrEnum):
    """What a notice is about; each kind is chosen per channel on the account page."""

    YOUR_TURN = "your_turn"
    INVITED = "invited"
    CHALLENGE = "challenge"
    MATCH_OVER = "match_over"
    REMATCH = "rematch"
    CHAT = "chat"
    ANSWER = "answer"
    """One's own challenge accepted, declined or expired unanswered."""


Param = str | int


def page_of(kind: Kind, table: str | None) -> str:
    """The page a notice opens: the friends page for a challenge and its answer, else its table's."""
    return FRIENDS_PAGE if kind in (Kind.CHALLENGE, Kind.ANSWER) or table is None else f"/t/{table}"


def _table(code: str) -> str:
    if not TABLE_CODE.fullmatch(code):
        raise ValueError(f"not a table code: {code[:20]!r}")
    return code


def _name(name: str | None) -> str | None:
    return None if name is None else name[:NAME_LENGTH]


@dataclass(frozen=True, slots=True)
class _Notice:
    table: str | None
    """The table the notice is about (``None``: a challenge, whose table is made when it is accepted)."""

    kind: ClassVar[Kind]

    def __post_init__(self) -> None:
        if self.table is not None:
            _table(self.table)

    @property
    def key(self) -> str:
        """The notice among the account's: the same key is the same thing (kept once, or updated)."""
        return f"{self.kind}:{self.table}"

    @property
    def seq(self) -> int:
        """Its order among the notices of one key: a higher one is news, the same or lower is known."""
        return 0

    def params(self) -> dict[str, Param]:
        """The words and numbers it is said with (names as chosen, counts): nothing else is stored or sent."""
        return {}


@dataclass(frozen=True, slots=True)
class YourTurn(_Notice):
    """It is the account's turn at a (turn-based) table; ``turn`` numbers the turns of that table."""

    turn: int = 0
    kind: ClassVar[Kind] = Kind.YOUR_TURN

    @property
    def seq(self) -> int:
        return self.turn


@dataclass(frozen=True, slots=True)
class Invited(_Notice):
    """The account is invited to a seat of a table (``inviter``: the inviter's name, if they gave one)."""

    seat: int = 0
    inviter: str | None = None
    players: int = 2
    kind: ClassVar[Kind] = Kind.INVITED

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.table}:{self.seat}"

    def params(self) -> dict[str, Param]:
        return {"players": self.players} | ({} if self.inviter is None else {"name": _name(self.inviter) or ""})


@dataclass(frozen=True, slots=True)
class Challenge(_Notice):
    """Someone (``challenger``) challenges the account to a match of ``players`` (``challenge``: its
    number), real-time or at its own pace (``move_seconds`` per move, ``on_timeout`` its rule for a
    time run out); its table is made when it is accepted."""

    challenge: int = 0
    challenger: str = ""
    players: int = 2
    rated: bool = False
    move_seconds: int | None = None
    on_timeout: str | None = None
    kind: ClassVar[Kind] = Kind.CHALLENGE

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.challenge}"

    def params(self) -> dict[str, Param]:
        said: dict[str, Param] = {"name": _name(self.challenger) or "", "players": self.players}
        said["rated"] = int(self.rated)
        if self.move_seconds is not None:
            said |= {"move_seconds": self.move_seconds, "on_timeout": self.on_timeout or "move"}
        return said


@dataclass(frozen=True, slots=True)
class ChallengeAnswered(_Notice):
    """The account's challenge (``challenge``) of ``by`` was accepted (``table``: the table it made),
    declined, or expired unanswered."""

    challenge: int = 0
    by: str = ""
    answer: Literal["accepted", "declined", "expired"] = "declined"
    kind: ClassVar[Kind] = Kind.ANSWER

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.challenge}"

    def params(self) -> dict[str, Param]:
        return {"name": _name(self.by) or "", "answer": self.answer}


@dataclass(frozen=True, slots=True)
class MatchOver(_Notice):
    """The match at the table is over: whether the account won, and its rating's change if it was rated."""

    won: bool = False
    rating_change: int | None = None
    kind: ClassVar[Kind] = Kind.MATCH_OVER

    def params(self) -> dict[str, Param]:
        params: dict[str, Param] = {"won": int(self.won)}
        return params | ({} if self.rating_change is None else {"change": self.rating_change})


@dataclass(frozen=True, slots=True)
class RematchOffered(_Notice):
    """A player (``by``) accepted a rematch after the match at the table: the account may accept too."""

    by: str = ""
    kind: ClassVar[Kind] = Kind.REMATCH

    def params(self) -> dict[str, Param]:
        return {"name": _name(self.by) or ""}


@dataclass(frozen=True, slots=True)
class ChatLine(_Notice):
    """A chat line at a (turn-based) table, said by ``by``; ``number`` numbers the table's lines. The
    line's words are not carried: the table shows them to whoever opens it."""

    by: str = ""
    number: int = 0
    kind: ClassVar[Kind] = Kind.CHAT

    @property
    def seq(self) -> int:
        return self.number

    def params(self) -> dict[str, Param]:
        return {"name": _name(self.by) or ""}


Notice = YourTurn | Invited | Challenge | ChallengeAnswered | MatchOver | RematchOffered | ChatLine
"""Everything a notice can be."""


class Notifier(Protocol):
    """The port: tell an account something (kept in its list, sent on the channels it chose)."""

    async def notify(self, account_id: int, notice: Notice, *, sender: int | None = None) -> None:
        """Tell ``account_id`` about ``notice``; ``sender``: the account whose action it is (an inviter,
        a challenger, a player answering a challenge), counted against its caps. An account that blocks
        ``sender`` is told nothing, and nobody is told that it was not.

        Raises :class:`~chickenfoot.server.refusals.Refusal` (too many) when the sender, or the
        receiver, has had too many notices of a capped kind (invitations, challenges): nothing is kept
        or sent then, and the action that would have caused it should be refused too.
        """

    async def seen(self, account_id: int, table: str) -> None:
        """The account has seen table ``table`` (opened its page, moved there): its notices of it are read,
        and a push or e-mail still held back for them (quiet hours, a digest's wait) is not sent."""


class NobodyNotified:
    """A :class:`Notifier` that tells nobody (a server built without notifications, a unit test)."""

    async def notify(self, account_id: int, notice: Notice, *, sender: int | None = None) -> None:
        return None

    async def seen(self, account_id: int, table: str) -> None:
        return None
