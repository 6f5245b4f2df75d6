"""Players' match history: which account sat in which seat of which match, how each finished match
went, and the pages that list them (a profile, "My matches").

A finished match's result per seat (won or not, the player count, when it ended, the review's
accuracy) is a row of ``match_results``, written when the match finishes and, for a match finished
before this table existed or while its process was stopping, the first time a history needs it
(:meth:`MatchHistory.backfill`, bounded per request: it replays the match). Accuracy is read from
the stored review once it exists.

Players are named by their public name only: the name chosen at the table, the account's username
(a link to its profile) or, for an account deleted since, nothing but ``deleted`` (the page says
"deleted player" in its reader's language).
"""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import UTC, datetime
from typing import Any

from chickenfoot.review import Review
from chickenfoot.server.accounts.store import Account
from chickenfoot.server.clock import Clock, utc
from chickenfoot.server.history.store import HistoryStore, SeatAt
from chickenfoot.server.http.kept import Kept
from chickenfoot.server.http.tables import TableGetter
from chickenfoot.server.storage import StorageUnavailable

log = logging.getLogger(__name__)

PAGE_SIZE = 10
"""Matches per page."""
BACKFILL = 5
"""Matches not yet recorded that one request replays at most (the next request does the next ones)."""
CHART_MATCHES = 30
"""Reviewed matches in a profile's accuracy chart."""


def iso(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat(timespec="seconds")


def seat_accuracies(stored: str) -> dict[int, float]:
    """Each reviewed seat's accuracy in a stored review (milliseconds for a long match: run off the loop)."""
    review = Review.from_dict(json.loads(stored))
    return {summary.seat: round(summary.accuracy, 1) for summary in review.summary()}


def listed(entry: SeatAt, accounts_at: dict[int, str | None]) -> dict[str, Any]:
    """One match of a history: its players by their public names only, the seat's result and links."""
    players = []
    for s, seat in enumerate(entry.config.seats):
        deleted = s in accounts_at and accounts_at[s] is None
        players.append(
            {
                "seat": s,
                "name": None if deleted else seat.name,
                "bot": seat.bot if seat.kind == "bot" else None,
                "account": accounts_at.get(s),
                "deleted": deleted,
            }
        )
    links = (
        {"replay": f"/r/{entry.code}", "review": f"/r/{entry.code}#review"}
        if entry.over
        else {"return": f"/t/{entry.code}"}
    )
    return {
        "code": entry.code,
        "seat": entry.seat,
        "created_at": iso(entry.created_at),
        "finished_at": iso(entry.finished_at),
        "over": entry.over,
        "result": None if entry.won is None else ("won" if entry.won else "lost"),
        "lost_on_time": entry.config.lost_on_time,
        "accuracy": entry.accuracy,
        "players": players,
        "links": links,
    }


class MatchHistory:
    def __init__(self, store: HistoryStore, tables: TableGetter, clock: Clock) -> None:
        self.store, self.tables, self.clock = store, tables, clock
        self.kept = Kept(clock)
        """The pages built in the last seconds (a profile's, a player's own matches)."""
        self._tasks: set[asyncio.Task[None]] = set()

    def finished(self, code: str) -> None:
        """A table's match is over: its results are stored (a hook of :meth:`.TableRegistry.on_match_finished`)."""
        task = asyncio.get_running_loop().create_task(self._finished(code))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _finished(self, code: str) -> None:
        try:
            await self._record_from_table(code)
        except StorageUnavailable:
            log.warning("results of %s not stored: the game store is unavailable (a history stores them later)", code)

    async def _record_from_table(self, code: str) -> None:
        table = await self.tables(code)
        if table is not None and table.over:  # played out, or lost on time (then its other player won)
            ran_out = table.config.lost_at  # a match lost on time ended then, not at its last move
            at = await self.store.storage.last_action_time(code)
            at = at if ran_out is None else datetime.fromtimestamp(ran_out, UTC)
            await self.store.record(code, table.match.players, set(table.winners()), at or utc(self.clock))

    async def deleted_seats(self, code: str) -> list[int]:
        """The seats of table ``code`` whose account has been deleted since ("deleted player")."""
        return await self.store.deleted_seats(code)

    async def backfill(self, account_id: int, limit: int) -> int:
        """Record up to ``limit`` of the account's finished matches that have no results yet (each is
        replayed); then store the accuracy of up to ``limit`` reviewed since. How many were missing."""
        codes = await self.store.missing(account_id, limit)
        for code in codes:
            await self._record_from_table(code)
        stored = await self.store.unreviewed(account_id, limit)
        for code, review in stored:
            await self.store.record_accuracy(code, await asyncio.to_thread(seat_accuracies, review))
        return len(codes) + len(stored)

    # --- the pages ----------------------------------------------------------------------------------

    async def page_of(self, account: Account, *, finished_only: bool, page: int) -> dict[str, Any]:
        """A page of the account's matches, the newest first, with how many pages there are."""
        entries, total = await self.store.matches(
            account.id, finished_only=finished_only, offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE
        )
        names = await self.store.names(entry.code for entry in entries)
        return {
            "page": page,
            "pages": max(1, -(-total // PAGE_SIZE)),
            "total": total,
            "matches": [listed(entry, names.get(entry.code, {})) for entry in entries],
        }

    async def profile(self, account: Account, page: int) -> dict[str, Any]:
        """A player's public profile: member since, played and won by player count, the accuracy chart,
        and a page of their finished matches."""
        tallies = await self.store.tallies(account.id)
        chart = await self.store.accuracy(account.id, CHART_MATCHES)
        return {
            "username": account.username,
            "bot": account.bot,
            "member_since": iso(account.created_at),
            "played": sum(t.played for t in tallies),
            "won": sum(t.won for t in tallies),
            "by_players": [{"players": t.players, "played": t.played, "won": t.won} for t in tallies],
            "accuracy": [{"code": code, "at": iso(at), "accuracy": value} for code, at, value in chart],
        } | await self.page_of(account, finished_only=True, page=page)

    async def data_of(self, account_id: int) -> dict[str, Any]:
        """What the history keeps of the account, for its data download: every match of it with its
        result (players by their public names, as the history lists them) and the chat lines it said."""
        await self.backfill(account_id, BACKFILL)
        entries, _ = await self.store.matches(account_id, finished_only=False, offset=0, limit=None)
        names = await self.store.names(entry.code for entry in entries)
        return {
            "matches": [listed(entry, names.get(entry.code, {})) for entry in entries],
            "chat": await self.store.chat_of(account_id),
        }

    async def own_matches(self, me: Account, page: int) -> dict[str, Any]:
        """The player's own matches, unfinished ones included."""
        return {"username": me.username} | await self.page_of(me, finished_only=False, page=page)
