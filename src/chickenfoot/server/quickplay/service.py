"""Quick play's service: a player joins the queue (by account or by browser), their heartbeats hear
how long they have waited or take the seat found for them, and a seat found for someone who left
goes to a bot near their rating."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import HTTPConnection

from chickenfoot.messages import Code, Said
from chickenfoot.server.accounts.service import Accounts, SignedIn
from chickenfoot.server.credentials import digest
from chickenfoot.server.quickplay.ratings import EQUAL_RATING, BotRatings
from chickenfoot.server.quickplay.store import (
    Abandoned,
    Entry,
    InQueue,
    Queue,
    QueueFull,
    QuickPlaySettings,
    TooManyUnplayed,
    Unclaimed,
)
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.table.commands import CoverUnclaimed, Take
from chickenfoot.server.table.registry import TableRegistry

FULL_RETRY_SECONDS = 10
"""When a player refused by a full queue may try again."""
UNPLAYED_RETRY_SECONDS = 60
"""When a player refused for unplayed tables may try again: once one is played, or swept."""


@dataclass(frozen=True, slots=True)
class Wanted:
    """What a joining player asks for."""

    players: int
    rated: bool
    bots_after: float | None
    name: str | None
    move_seconds: int | None = None
    """At one's own pace, seconds per move; ``None``: real-time."""


@dataclass(frozen=True, slots=True)
class SeatTaken:
    """A heartbeat's answer once the player's seat is theirs: the table, the seat, its credential."""

    code: str
    seat: int
    token: str


def bots_cover(hub: TableRegistry, bots: BotRatings) -> Abandoned:
    """What the queue does with a seat found for a player who left before taking it: a bot near their
    rating takes it, and their partners play on."""

    async def cover(seat: Unclaimed) -> None:
        table = await hub.get(seat.code)
        if table is not None:
            level = bots.near(seat.rating)
            revoke = lambda: hub.credentials.revoke(seat.code, seat.seat)  # noqa: E731
            await table.submit(CoverUnclaimed(seat.seat, level, revoke))

    return cover


class QuickPlay:
    def __init__(self, queue: Queue, hub: TableRegistry, accounts: Accounts, settings: QuickPlaySettings) -> None:
        self.queue, self.hub, self.accounts, self.settings = queue, hub, accounts, settings

    async def join(self, me: SignedIn | None, browser: str, address: str, wanted: Wanted) -> str:
        """Put the player (``me``, or the guest of ``browser``) in the queue; their ticket for the heartbeats."""
        if me is not None:
            owner = f"account:{me.account.id}"
            rating = await self.settings.ratings(me.account.id, wanted.players)
        else:
            owner, rating = f"guest:{digest(browser)}", EQUAL_RATING
        entry = Entry(
            owner,
            address[:64],
            wanted.players,
            wanted.rated,
            rating,
            wanted.bots_after,
            wanted.name,
            wanted.move_seconds,
        )
        try:
            return await self.queue.join(entry)
        except QueueFull as exc:
            if exc.whole:
                raise Refusal.busy(Said.of(Code.QUICKPLAY_FULL), FULL_RETRY_SECONDS) from None
            raise Refusal(Why.TOO_MANY, Said.of(Code.QUICKPLAY_ADDRESS_FULL), retry_after=FULL_RETRY_SECONDS) from None
        except TooManyUnplayed as exc:
            if exc.whole:
                raise Refusal.busy(Said.of(Code.QUICKPLAY_TABLES_FULL), UNPLAYED_RETRY_SECONDS) from None
            limit = self.settings.unplayed_per_owner
            said = Said.of(Code.QUICKPLAY_UNPLAYED_FULL, limit=limit)
            raise Refusal(Why.TOO_MANY, said, retry_after=UNPLAYED_RETRY_SECONDS) from None

    async def beat(self, ticket: str, connection: HTTPConnection) -> InQueue | SeatTaken:
        """The waiting page's heartbeat: how many wait and for how long, or the seat found, taken now (once)."""
        heard = await self.queue.beat(ticket)
        if heard is None:
            raise Refusal(Why.NOT_FOUND, Said.of(Code.QUICKPLAY_GONE))
        if isinstance(heard, InQueue):
            return heard
        table = await self.hub.get(heard.code)
        token = None if table is None else await self.hub.credentials.issue_seat(heard.code, heard.seat)
        if table is None or token is None:
            raise Refusal.conflict(Said.of(Code.QUICKPLAY_GONE))
        await table.submit(Take(heard.seat, heard.name or ""))
        await self.accounts.sit(connection, heard.code, heard.seat)
        self.queue.expire_later()  # a partner who never comes: their seat goes to a bot
        return SeatTaken(heard.code, heard.seat, token)

    async def leave(self, ticket: str) -> None:
        await self.queue.leave(ticket)
