"""Caps on what one client may hold open at once in this process: table WebSockets per table, per
seat, per account and per address, and Bot API streams per token and per account.

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
from dataclasses import dataclass
from typing import Literal

from chickenfoot.messages import Code, Said
from chickenfoot.server.refusals import Refusal

Scope = Literal["table", "seat", "account", "address", "token_streams", "account_streams"]

RETRY_SECONDS = 30
"""What a refusal suggests waiting: until one of the connections held open has ended."""


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
    token_streams: int = 16
    """Bot API streams (the account's and its tables') open with one token."""
    account_streams: int = 64
    """Bot API streams of one bot account, over all its tokens (one per table it plays, and its own)."""


CODES: dict[Scope, Code] = {
    "table": Code.ERROR_TABLE_SOCKETS_FULL,
    "seat": Code.ERROR_SEAT_SOCKETS_FULL,
    "account": Code.ERROR_ACCOUNT_SOCKETS_FULL,
    "address": Code.ERROR_ADDRESS_SOCKETS_FULL,
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

    def held(self, scope: Scope, key: str) -> int:
        return self.open[scope, key]


class Hold:
    """What one connection or stream holds open; all of it is given back by :meth:`release`."""

    __slots__ = ("_holds", "_taken")

    def __init__(self, holds: OpenHolds) -> None:
        self._holds = holds
        self._taken: list[tuple[Scope, str]] = []

    def take(self, scope: Scope, key: str) -> None:
        """Count this connection against ``scope``'s ``key``; raises :class:`Refusal` (too many) at the cap."""
        holds = self._holds
        cap = getattr(holds.caps, scope)
        if holds.open[scope, key] >= cap:
            holds.refused[scope] += 1
            raise Refusal.too_many(Said.of(CODES[scope], limit=cap), retry_after=RETRY_SECONDS)
        holds.open[scope, key] += 1
        self._taken.append((scope, key))

    def release(self) -> None:
        """Give back everything taken (once: a second call does nothing)."""
        open_ = self._holds.open
        for taken in self._taken:
            open_[taken] -= 1
            if open_[taken] <= 0:
                del open_[taken]
        self._taken.clear()
