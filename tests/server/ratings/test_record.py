"""Recording rated matches: once per match across processes, abandonment counted last, the leaderboard's
window and form (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
from datetime import datetime

from chickenfoot.match import Match
from chickenfoot.rules import Rules
from chickenfoot.server.accounts.store import AccountStore
from chickenfoot.server.clock import FakeClock, SystemClock, utc
from chickenfoot.server.ratings.model import Family, Rating
from chickenfoot.server.ratings.rated import RatedMatch, RatedSeat, rated_match
from chickenfoot.server.ratings.service import ACTIVE_DAYS, PLACES_SECONDS, Ratings
from chickenfoot.server.storage import Storage
from chickenfoot.server.table.config import Seat, TableConfig


def heads_up(code: str, winner: int, loser: int) -> RatedMatch:
    return RatedMatch(code, "2", (RatedSeat(1, winner), RatedSeat(2, loser)))


def test_a_match_seen_by_two_processes_or_finished_twice_counts_once(database_url: str, empty_ratings: None) -> None:
    async def scenario() -> None:
        first, second = Storage(database_url, SystemClock()), Storage(database_url, SystemClock())
        await first.migrate()
        here, there = Ratings(first, FakeClock()), Ratings(second, FakeClock())
        match = heads_up("TWICE1", 1, 2)
        outcomes = await asyncio.gather(here.record(match), there.record(match), here.record(match))
        assert sum(outcome is not None for outcome in outcomes) == 1
        assert await here.record(match) is None  # finished again later: nothing changes
        winner, loser = await there.of(1, "2"), await there.of(2, "2")
        assert winner.matches == loser.matches == 1 and winner.mu > 25 > loser.mu
        assert len(await here.store.changes("TWICE1")) == 2
        await first.close()
        await second.close()

    asyncio.run(scenario())


def test_two_matches_of_one_player_both_count(database_url: str, empty_ratings: None) -> None:
    async def scenario() -> None:
        first, second = Storage(database_url, SystemClock()), Storage(database_url, SystemClock())
        await first.migrate()
        here, there = Ratings(first, FakeClock()), Ratings(second, FakeClock())
        await asyncio.gather(here.record(heads_up("ONE001", 1, 2)), there.record(heads_up("TWO002", 1, 3)))
        assert (await here.of(1, "2")).matches == 2
        await first.close()
        await second.close()

    asyncio.run(scenario())


def finished_match(players: int, seed: int) -> Match:
    match = Match(Rules(), players, seed)
    while not match.is_over():
        r = match.round
        while not r.is_over():
            match.push(r.view(r.to_move).legal_moves[0])
        if not match.is_over():
            match.next_round()
    return match


def test_a_player_who_left_and_did_not_come_back_finishes_last() -> None:
    match = finished_match(3, 11)
    leader = match.winners()[0]
    seats = [Seat("human", taken=True) for _ in range(3)]
    seats[leader].left = True
    config = TableConfig(Rules(), seats, 11, rated=True)
    rated = rated_match("LEFT01", config, match, {0: 10, 1: 11, 2: 12})
    assert rated is not None and rated.family == "3-4"
    assert rated.seats[leader].rank == 3
    assert sorted(seat.rank for seat in rated.seats) == [1, 2, 3]
    # A seat handed to a bot keeps its account: its player abandoned it too.
    seats[leader] = Seat("bot", bot="easy", taken=True)
    assert rated_match("LEFT01", config, match, {0: 10, 1: 11, 2: 12}).seats[leader].rank == 3  # type: ignore[union-attr]


def test_a_guest_seat_or_a_casual_table_rates_nobody() -> None:
    match = finished_match(2, 3)
    config = TableConfig(Rules(), [Seat("human", taken=True), Seat("human", taken=True)], 3, rated=True)
    assert rated_match("GUEST1", config, match, {0: 10}) is None
    assert rated_match("TWINS1", config, match, {0: 10, 1: 10}) is None
    config.rated = False
    assert rated_match("CASUAL", config, match, {0: 10, 1: 11}) is None


def test_the_leaderboard_holds_established_players_active_in_the_window(database_url: str, empty_ratings: None) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        ratings = Ratings(storage, clock)
        accounts = AccountStore(storage)
        ids = {}
        for name in ("ann", "bob", "cid", "dee"):
            account = await accounts.create(name, f"handle-{name}", utc(clock))
            assert account is not None
            ids[name] = account.id
        # dee plays once, long ago; the others many times, ann winning most.
        await ratings.record(heads_up("OLD000", ids["dee"], ids["cid"]))
        clock.advance(86_400 * (ACTIVE_DAYS + 1))
        for n in range(45):
            winner, loser = ("ann", "bob") if n % 3 else ("bob", "ann")
            await ratings.record(heads_up(f"AB{n:04}", ids[winner], ids[loser]))
            await ratings.record(
                heads_up(f"BC{n:04}", ids["bob"] if n % 2 else ids["cid"], ids["cid"] if n % 2 else ids["bob"])
            )
        board = await ratings.store.leaderboard("2", ratings.active_since(), 10)
        assert board[0].username == "ann" and {row.username for row in board} == {"ann", "bob", "cid"}
        assert [row.rating.mu for row in board] == sorted((row.rating.mu for row in board), reverse=True)
        assert all(not row.rating.provisional for row in board)
        assert len(board[0].form) == 5
        latest = await ratings.store.changes("AB0044")
        assert board[0].form[0] == latest[0].after.shown - latest[0].before.shown
        assert await ratings.rank(ids[board[1].username], "2") == 2
        assert await ratings.rank(ids["dee"], "2") is None
        clock.advance(86_400 * (ACTIVE_DAYS + 1))
        assert await ratings.store.leaderboard("2", ratings.active_since(), 10) == []
        assert isinstance(await ratings.of(ids["dee"], "2"), Rating)
        await storage.close()

    asyncio.run(scenario())


def test_a_rank_is_read_from_the_places_kept_not_counted_per_request(database_url: str, empty_ratings: None) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        ratings = Ratings(storage, clock)
        accounts = AccountStore(storage)
        ids = []
        for name in ("eve", "fay"):
            account = await accounts.create(name, f"handle-{name}", utc(clock))
            assert account is not None
            ids.append(account.id)
        for n in range(30):
            await ratings.record(heads_up(f"EF{n:04}", ids[n % 3 == 0], ids[n % 3 != 0]))
        reads = []
        places = ratings.store.places

        async def counted(family: Family, since: datetime) -> dict[int, int]:
            reads.append(family)
            return await places(family, since)

        ratings.store.places = counted  # type: ignore[method-assign]
        ranks = await asyncio.gather(*(ratings.rank(account, "2") for account in ids * 20))
        assert ranks[:2] == [1, 2] and len(set(ranks)) == 2 and reads == ["2"]
        clock.advance(PLACES_SECONDS - 1)
        assert await ratings.rank(ids[0], "2") == 1 and reads == ["2"]
        clock.advance(1)
        assert await ratings.rank(ids[0], "2") == 1 and reads == ["2", "2"]
        # A match recorded here moves the places: they are read again at the next rank.
        for n in range(30):
            await ratings.record(heads_up(f"FE{n:04}", ids[1], ids[0]))
        assert await ratings.rank(ids[1], "2") == 1 and reads == ["2", "2", "2"]
        await storage.close()

    asyncio.run(scenario())
