"""Replays and reviews of finished matches: what a replay shows (the overview, a round's frames, the
record, the review), each written once and kept.

Every position is computed by the engine, replaying the match record; hands and boneyard are shown
face up only once the match is over (refused before). A match of two lost on time is over too, though
the engine's is not (its rounds are not all played): its answers say who lost on time, and when
(:func:`time_loss`). Nothing here is a rule of the game. Writing an answer not kept yet is counted
against the asker (``allowed``, the edge's limit).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from chickenfoot.i18n import DEFAULT, english, render, seat_names
from chickenfoot.match import Match
from chickenfoot.messages import Code, Said
from chickenfoot.review import Review
from chickenfoot.server.http.tables import TableGetter, TableLookup
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.replays.frames import ReplayBusy, ReplayFrames, RoundJob
from chickenfoot.server.replays.reviews import ReviewWorker
from chickenfoot.server.table.actor import Table

DeletedSeats = Callable[[str], Awaitable[list[int]]]
"""The seats of a table whose account has been deleted since: their names are not served ("deleted player")."""
Allowed = Callable[[], Awaitable[None]]
"""Counts one answer written for the asker; raises :class:`Refusal` when they have had too many."""
BUSY_RETRY_SECONDS = 2


def time_loss(table: Table) -> dict[str, Any] | None:
    """Who lost the match on time, and when: in which round, after how many of its moves, and at what time
    (seconds since the epoch); ``None``: nobody. Nothing is played after it, so the table's last position is
    where their time ran out."""
    seat = table.config.lost_on_time
    if seat is None:
        return None
    match = table.match
    return {"seat": seat, "round": match.round_number, "move": len(match.round.history), "at": table.config.lost_at}


def overview(table: Table) -> dict[str, Any]:
    match = table.match
    seats = table.config.seats
    lost = time_loss(table)
    why = match.winner_reason() if lost is None else Said.of(Code.EVENT_LOST_ON_TIME, seat=lost["seat"])
    return {
        "code": table.code,
        "rules": match.rules.to_dict(),
        "players": match.players,
        "names": [seat.name for seat in seats],
        "kinds": [seat.kind for seat in seats],
        "bots": table.config.bot_levels(),
        "bot_accounts": [seat.bot_account for seat in seats],
        "rounds": [
            {"round": n, "start_double": r.start_double, "moves": len(r.history), "points": r.points()}
            for n, r in enumerate(match.rounds, start=1)
        ],
        "totals": match.totals(),
        "winners": table.winners(),
        "explanation": english(why),
        "lost_on_time": lost,
    }


def human_seats(table: Table) -> list[int]:
    return [s for s, seat in enumerate(table.config.seats) if seat.kind == "human"]


async def review_job(get_table: TableGetter, code: str) -> tuple[Match, list[int]] | None:
    """What the review worker needs of a finished table: its match and its human seats."""
    table = await get_table(code)
    if table is None or not table.over:
        return None
    return table.match, human_seats(table)


class Replays:
    def __init__(self, tables: TableLookup, reviews: ReviewWorker, frames: ReplayFrames, deleted: DeletedSeats) -> None:
        self.tables, self.reviews, self.frames, self.deleted = tables, reviews, frames, deleted

    async def finished(self, code: str, not_over: Code = Code.ERROR_REPLAY_NOT_OVER) -> Table:
        """Table ``code``, refused (forbidden) while its match is not over (one lost on time is)."""
        table = await self.tables(code)
        if not table.over:
            raise Refusal(Why.FORBIDDEN, Said.of(not_over))
        return table

    async def kept(self, key: str, allowed: Allowed, write: Callable[[], bytes]) -> bytes:
        """What a finished match's ``key`` answers: written once (its writing counted), then kept."""
        built = self.frames.cached(key)
        if built is None:
            await allowed()
            built = write()
            self.frames.keep(key, built)
        return built

    async def overview(self, code: str, allowed: Allowed) -> bytes:
        """The match's overview: its seats (without the names of deleted accounts), rounds and result."""
        table = await self.finished(code)
        deleted = await self.deleted(table.code)

        def write() -> bytes:
            facts = overview(table)
            facts["names"] = [None if s in deleted else name for s, name in enumerate(facts["names"])]
            return orjson.dumps(facts | {"deleted": deleted})

        return await self.kept(f"overview:{table.code}:{deleted}", allowed, write)

    async def round_job(self, code: str, number: int) -> RoundJob:
        """What round ``number``'s frames are written from (its digest names them)."""
        table = await self.finished(code)
        if not 1 <= number <= len(table.match.rounds):
            raise Refusal(Why.NOT_FOUND, Said.of(Code.ERROR_ROUND_NOT_PLAYED, round=number))
        config = table.config
        deleted = await self.deleted(table.code)
        names = seat_names([seat.name for seat in config.seats], config.bot_levels(), DEFAULT)
        names = [render(Code.PLAYER_DELETED, DEFAULT) if s in deleted else name for s, name in enumerate(names)]
        return RoundJob.of(table.match, number, names)

    async def round_frames(self, job: RoundJob, allowed: Allowed) -> bytes:
        """Every position of a finished round, face up: kept, or built off the event loop."""
        built = self.frames.cached(job.digest())
        if built is None:
            await allowed()
            try:
                built = await self.frames.get(job)
            except ReplayBusy:
                raise Refusal.busy(Said.of(Code.ERROR_REPLAY_BUSY), retry_after=BUSY_RETRY_SECONDS) from None
        return built

    async def record(self, code: str, allowed: Allowed) -> bytes:
        """The match record (tens of milliseconds to write for a long match), with the seat that lost it on time
        if one did (its field ``lost_on_time``: the seat to move where the record ends)."""
        table = await self.finished(code, Code.ERROR_RECORD_NOT_OVER)

        def write() -> bytes:
            lost = table.config.lost_on_time
            return orjson.dumps(table.match.record() | ({} if lost is None else {"lost_on_time": lost}))

        return await self.kept(f"record:{table.code}", allowed, write)

    async def review(self, code: str, allowed: Allowed) -> bytes | dict[str, Any]:
        """The stored review (kept once read), or how far it has come (polled by the page: not counted)."""
        table = await self.finished(code)
        key = f"review:{table.code}"
        built = self.frames.cached(key)
        if built is None:
            stored = await self.reviews.storage.load_review(table.code)
            if stored is None:
                return self.progress(table.code)
            await allowed()
            # Read back, so a review stored by an older server has today's messages.
            built = orjson.dumps({"status": "done", "review": Review.from_dict(stored).to_dict()})
            self.frames.keep(key, built)
        return built

    def progress(self, code: str) -> dict[str, Any]:
        known = self.reviews.progress.get(code)
        if known is None:
            known = self.reviews.request(code)
        if known is None:
            return {"status": "busy", "done": 0, "total": 0}
        return {"status": known.status, "done": known.done, "total": known.total}
