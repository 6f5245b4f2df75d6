"""Caps on what one client may hold open at once in this process: table WebSockets per table, per
seat, per account, per address and per credential, and Bot API streams per token and per account; and
what the whole process holds: its table WebSockets, and their handshakes in progress.

The rate limits (:mod:`.limits`) bound how often something new may be opened; these bound how many
stay open, whatever the number of addresses a flood comes from. One over a cap is refused at once
with its own code (never queued), and nothing is held for it. Counted in this process's memory: with
several server processes each holds at most its caps.

>>> holds = OpenHolds(OpenCaps(seat=1))
>>> first = holds.hold()
>>> first.take("seat", "ABC:0")
>>> try:
...     holds.hold().take("seat", "ABC:0")
... except Refusal as refusal:
...     print(refusal.said.code.id, refusal)
error.seat_sockets_full your seat is open in as many places as it may be (1); close one of them first
>>> first.release()
>>> holds.hold().take("seat", "ABC:0")
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from chickenfoot.messages import Code, Said
from chickenfoot.server.refusals import Refusal

Scope = Literal[
    "table", "seat", "account", "address", "credential", "sockets", "opening", "token_streams", "account_streams"
]

RETRY_SECONDS = 30
"""What a refusal suggests waiting: until one of the connections held open has ended."""
PROCESS_WIDE: dict[Scope, int] = {"sockets": RETRY_SECONDS, "opening": 2}
"""The caps on what the whole process holds, with the wait each refusal suggests (a handshake takes
milliseconds): reaching one is the server busy (503), not one client's excess (429)."""


@dataclass(frozen=True, slots=True)
class OpenCaps:
    """How many may be open at once in one process."""

    table: int = 200
    """Sockets at one table: its players' and its spectators' together."""
    seat: int = 8
    """Sockets of one seat (a player's devices and tabs, by the seat's credential or the account's session)."""
    account: int = 24
    """Sockets of one signed-in account, over every table."""
    address: int = 64
    """Sockets from one client address, over every table (a household or a school shares one)."""
    credential: int = 24
    """Sockets that bring one credential (a seat's token, or a session's cookie), over every table: one
    credential opens one seat or one account, so this is never less than those caps allow; it is what a
    handshake can count before anything is read for it (which seat or account the credential opens)."""
    sockets: int = 10_000
    """Table WebSockets in this process, open or opening (each one a file descriptor and its buffers)."""
    opening: int = 64
    """Table WebSocket handshakes in progress at once in this process, from the upgrade until the
    connection is at its table (each may read the store: the table, its seat, the account)."""
    token_streams: int = 16
    """Bot API streams (the account's and its tables') open with one token."""
    account_streams: int = 64
    """Bot API streams of one bot account, over all its tokens (one per table it plays, and its own)."""


CODES: dict[Scope, Code] = {
    "table": Code.ERROR_TABLE_SOCKETS_FULL,
    "seat": Code.ERROR_SEAT_SOCKETS_FULL,
    "account": Code.ERROR_ACCOUNT_SOCKETS_FULL,
    "address": Code.ERROR_ADDRESS_SOCKETS_FULL,
    "credential": Code.ERROR_CREDENTIAL_SOCKETS_FULL,
    "sockets": Code.ERROR_SERVER_SOCKETS_FULL,
    "opening": Code.ERROR_SERVER_OPENING_FULL,
    "token_streams": Code.BOTAPI_TOKEN_STREAMS_FULL,
    "account_streams": Code.BOTAPI_ACCOUNT_STREAMS_FULL,
}


class OpenHolds:
    """What is open in this process, by what it counts against."""

    def __init__(self, caps: OpenCaps) -> None:
        self.caps = caps
        self.open = Counter[tuple[Scope, str]]()
        self.refused = Counter[Scope]()
        """Refusals so far by cap, for the metrics."""

    def hold(self) -> Hold:
        """What one new connection or stream will hold (nothing yet)."""
        return Hold(self)

    def held(self, scope: Scope, key: str = "") -> int:
        return self.open[scope, key]

    def full(self, scope: Scope, key: str) -> Refusal | None:
        """The refusal of one more against ``scope``'s ``key`` (counted as refused), if it is at its cap."""
        cap = getattr(self.caps, scope)
        if self.open[scope, key] < cap:
            return None
        self.refused[scope] += 1
        said = Said.of(CODES[scope], limit=cap)
        if scope in PROCESS_WIDE:
            return Refusal.busy(said, retry_after=PROCESS_WIDE[scope])
        return Refusal.too_many(said, retry_after=RETRY_SECONDS)

    def refusal(self, keys: Iterable[tuple[Scope, str]]) -> Refusal | None:
        """The refusal of one more counted against each of ``keys``, if one is at its cap; nothing counted."""
        return next((refused for scope, key in keys if (refused := self.full(scope, key)) is not None), None)

    def drop(self, scope: Scope, key: str) -> None:
        """One fewer held against ``scope``'s ``key``."""
        self.open[scope, key] -= 1
        if self.open[scope, key] <= 0:
            del self.open[scope, key]


class Hold:
    """What one connection or stream holds open; all of it is given back by :meth:`release`."""

    __slots__ = ("_holds", "_taken")

    def __init__(self, holds: OpenHolds) -> None:
        self._holds = holds
        self._taken: list[tuple[Scope, str]] = []

    def take(self, scope: Scope, key: str = "") -> None:
        """Count this connection against ``scope``'s ``key`` (once: taking it again does nothing); raises
        :class:`Refusal` at the cap: too many (429), or for what the whole process holds, busy (503)."""
        holds = self._holds
        if (scope, key) in self._taken:
            return
        if (refused := holds.full(scope, key)) is not None:
            raise refused
        holds.open[scope, key] += 1
        self._taken.append((scope, key))

    def give_back(self, scope: Scope, key: str = "") -> None:
        """Give back what was taken for ``scope``'s ``key`` alone (if it was)."""
        if (scope, key) in self._taken:
            self._taken.remove((scope, key))
            self._holds.drop(scope, key)

    def release(self) -> None:
        """Give back everything taken (once: a second call does nothing)."""
        for scope, key in self._taken:
            self._holds.drop(scope, key)
        self._taken.clear()
