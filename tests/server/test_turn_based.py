"""Turn-based tables: the clock runs for the player to move whether or not their page is open, over days
of a fake clock; what happens when it runs out is the table's rule (a bot plays that move, a bot takes
the seat, or the match is lost on time); the deadline is stored, so a table read back after a restart,
by any process, acts on it, and of several processes exactly one claims it; a vacation stands the clock."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from chickenfoot.match import Match
from chickenfoot.rules import Rules
from chickenfoot.server.clock import FakeClock
from chickenfoot.server.cluster.connections import LocalConnections
from chickenfoot.server.cluster.fanout import LocalBus, Message
from chickenfoot.server.edge.line_stream import last_line
from chickenfoot.server.ratings.model import family_of
from chickenfoot.server.ratings.rated import rated_match
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.storage import Storage
from chickenfoot.server.table.actor import Table
from chickenfoot.server.table.commands import Attach, Detach, Play, Ready, Say, SetAway, Wake
from chickenfoot.server.table.config import DAY, HOUR, Pace, Seat, TableConfig, TimeoutRule
from chickenfoot.server.table.deadlines import BEHIND_SECONDS, DeadlineBook
from chickenfoot.server.table.protocol import ChatMessage, LogSent
from chickenfoot.server.table.registry import TableRegistry

from .conftest import INSTANT


def paced(rule: TimeoutRule, clock: FakeClock, people: int = 2, bots: int = 0, move: int = DAY) -> TableConfig:
    seats = [Seat("human", f"P{s}", taken=True) for s in range(people)] + [Seat("bot", bot="easy") for _ in range(bots)]
    return TableConfig(Rules(), seats, seed=5, pace=Pace(move, rule), playing_since=clock.now())


class Silent:
    def attached(self, first: str, log_sent: LogSent) -> None:
        pass

    def on_change(self, message: Message) -> None:
        pass


class Server:
    """One process: its registry of tables over a store shared with the others, on a fake clock."""

    def __init__(self, storage: Storage, clock: FakeClock) -> None:
        self.bus = LocalBus()
        self.hub = TableRegistry(storage, self.bus, INSTANT, LocalConnections(), clock)

    async def table(self, code: str) -> Table:
        table = await self.hub.get(code)
        assert table is not None
        return table

    async def until(self, code: str, done: Callable[[Table], bool]) -> Table:
        """Wait until the table (read back if need be) satisfies ``done``, woken by what it publishes."""
        table = await self.table(code)
        changed = asyncio.Event()
        unsubscribe = self.bus.subscribe(table.channel(), lambda _message: changed.set())
        try:
            while not done(table):
                await asyncio.wait_for(changed.wait(), 30)
                changed.clear()
        finally:
            unsubscribe()
        return table


async def store(tmp_path: Path, clock: FakeClock) -> Storage:
    storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", clock)
    await storage.migrate()
    return storage


@asynccontextmanager
async def one_server(tmp_path: Path) -> AsyncIterator[tuple[FakeClock, Storage, Server]]:
    """A fake clock, a store, and one process serving it (closed afterwards)."""
    clock = FakeClock()
    storage = await store(tmp_path, clock)
    server = Server(storage, clock)
    try:
        yield clock, storage, server
    finally:
        await server.hub.close()
        await storage.close()


async def move_by_hand(table: Table) -> None:
    """The player to move plays their first legal move (or deals the next round)."""
    match = table.match
    action = "next_round" if match.round.is_over() else str(match.legal_moves()[0])
    await table.submit(Play(match.to_move, action, table.version))


def human_to_move(table: Table) -> bool:
    return table.status != "playing" or (not table.match.round.is_over() and not table.automatic(table.match.to_move))


def test_the_clock_runs_with_the_page_closed_and_a_bot_plays_the_move_that_ran_out(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with one_server(tmp_path) as (clock, storage, server):
            table = await server.hub.create(paced("move", clock))
            await table.submit(Attach(0, Silent()))
            await table.submit(Detach(0))  # the player closed the page: no grace, no cover
            await table.settled()
            mover = table.match.to_move
            assert table.turn_deadline() == clock.now() + DAY and not table.presence().covered[0]
            book = DeadlineBook(storage, clock)
            assert await book.due_at(table.code) == (0, clock.now() + DAY)
            clock.advance(DAY - 1)
            await asyncio.sleep(0)
            assert table.version == 0  # a second early: nothing
            clock.advance(1)
            table = await server.until(table.code, lambda t: t.version >= 1)
            assert table.match.round.history[0].seat == mover
            assert not table.config.seats[mover].replaced and not table.automatic(mover)  # only that one move
            # The table stored what it waits for next before it told the move.
            assert (await book.due_at(table.code)) == (1, clock.now() + DAY)  # the next player's day

    asyncio.run(scenario())


def test_the_replace_rule_gives_the_seat_to_a_bot_for_the_rest_of_the_match(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with one_server(tmp_path) as (clock, _storage, server):
            table = await server.hub.create(paced("replace", clock, people=4, move=HOUR))
            late = table.match.to_move
            await table.submit(Wake())
            clock.advance(HOUR)
            table = await server.until(table.code, lambda t: t.config.seats[late].replaced)
            assert table.automatic(late)
            table = await server.until(table.code, lambda t: t.match.to_move != late or t.match.round.is_over())
            assert table.match.round.history[0].seat == late  # its bot played the move that ran out

    asyncio.run(scenario())


def test_the_lose_rule_ends_a_match_of_two_on_time(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with one_server(tmp_path) as (clock, storage, server):
            finished: list[str] = []
            server.hub.on_match_finished(finished.append)
            table = await server.hub.create(paced("lose", clock))
            await move_by_hand(table)  # the first player moves in time
            late = table.match.to_move
            clock.advance(DAY)
            table = await server.until(table.code, lambda t: t.status == "finished")
            assert table.config.lost_on_time == late and finished == [table.code]
            assert table.winners() == [1 - late]  # whatever the points so far
            assert last_line(table, table.state_text(1 - late, [])[0], over_before=False)  # a Bot API stream ends
            with pytest.raises(Refusal):
                await move_by_hand(table)
            assert await DeadlineBook(storage, clock).due_at(table.code) is None  # nothing waits any more

    asyncio.run(scenario())


def test_a_deadline_survives_a_restart_and_one_process_of_two_claims_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        storage = await store(tmp_path, clock)
        first = Server(storage, clock)
        code = (await first.hub.create(paced("move", clock, move=2 * DAY))).code
        await move_by_hand(await first.table(code))
        await first.hub.close()  # the process stops: nothing of the table is left in memory
        clock.advance(3 * DAY)  # the second player's two days ran out while no server ran
        second, third = Server(storage, clock), Server(storage, clock)
        claimed = [await second.hub.deadline_sweeper.sweep(), await third.hub.deadline_sweeper.sweep()]
        assert claimed == [[code], []]  # the first sweep claims it; the other finds it held
        table = await second.until(code, lambda t: t.version >= 2)
        assert table.match.round.history[1].seat == 1 and code not in third.hub.tables
        await second.hub.close()
        await third.hub.close()
        await storage.close()

    asyncio.run(scenario())


def test_a_claimed_deadline_stays_claimed_when_a_process_loading_its_table_keeps_the_same(tmp_path: Path) -> None:
    """The process that claimed a due deadline reads its table back and stores what it waits for, which is
    what the row says already: the row stays claimed, and another process's sweep leaves it alone."""

    async def scenario() -> None:
        async with one_server(tmp_path) as (clock, storage, server):
            code = (await server.hub.create(paced("move", clock, move=DAY))).code
            await server.hub.close()
            book = DeadlineBook(storage, clock)
            await book.keep(code, 3, clock.now() + 60, 1)
            clock.advance(60)
            assert await book.claim(10) == [code]
            await book.keep(code, 3, clock.now(), 1)  # the same deadline, kept by the table read back
            assert await book.claim(10) == []
            await book.keep(code, 4, clock.now(), 0)  # a new one: free to claim
            assert await book.claim(10) == [code]

    asyncio.run(scenario())


def test_a_deadline_row_left_behind_by_a_killed_process_is_found(tmp_path: Path) -> None:
    """A process killed between storing a move and its deadline leaves the row behind the table's actions:
    the sweep treats it as due, and the table read back stores the right one."""

    async def scenario() -> None:
        async with one_server(tmp_path) as (clock, storage, server):
            table = await server.hub.create(paced("move", clock, people=1, bots=1, move=7 * DAY))
            code = table.code
            book = DeadlineBook(storage, clock)
            if human_to_move(table):
                await move_by_hand(table)
            await table.submit(Wake())
            table = await server.until(code, lambda t: t.version >= 1 and human_to_move(t))
            version = table.version
            await server.hub.close()
            await book.keep(code, version - 1, clock.now() + 7 * DAY, 0)  # as if the last write never came
            revived = Server(storage, clock)
            clock.advance(BEHIND_SECONDS - 1)
            assert await revived.hub.deadline_sweeper.sweep() == []  # the driving process may be storing it
            clock.advance(1)
            assert await revived.hub.deadline_sweeper.sweep() == [code]
            await revived.until(code, lambda t: t.version == version)
            await (await revived.table(code)).settled()
            assert await book.due_at(code) == (version, (await revived.table(code)).turn_deadline())
            await revived.hub.close()

    asyncio.run(scenario())


def test_a_vacation_stands_the_clock_and_everyone_sees_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with one_server(tmp_path) as (clock, _storage, server):
            table = await server.hub.create(paced("lose", clock))
            mover = table.match.to_move
            clock.advance(HOUR)
            await table.submit(SetAway(mover, clock.now(), clock.now() + 3 * DAY))
            assert table.turn_deadline() == clock.now() - HOUR + 4 * DAY
            state = json.loads(table.state_text(None, [])[0])["state"]
            assert state["away"][mover] == [clock.now(), clock.now() + 3 * DAY] and state["away"][1 - mover] is None
            assert state["pace"] == {"move_seconds": DAY, "on_timeout": "lose"}
            clock.advance(DAY + 1)  # past the day per move, within the vacation
            await asyncio.sleep(0)
            assert table.status == "playing" and table.version == 0
            clock.advance(3 * DAY)
            table = await server.until(table.code, lambda t: t.status == "finished")
            assert table.config.lost_on_time == mover

    asyncio.run(scenario())


def test_a_rated_match_lost_on_time_ranks_its_loser_last_in_the_shared_family() -> None:
    clock = FakeClock()
    config = paced("lose", clock)
    config.rated = True
    match = Match(config.rules, len(config.seats), config.seed)
    assert rated_match("RATED1", config, match, {0: 10, 1: 11}) is None  # not over yet
    config.lost_on_time = 0
    rated = rated_match("RATED1", config, match, {0: 10, 1: 11})
    assert rated is not None and rated.family is family_of(2)
    assert [(seat.account_id, seat.rank) for seat in rated.seats] == [(10, 2), (11, 1)]


class Heard:
    """The players' news of a turn-based table, as the notifications would be told it."""

    def __init__(self) -> None:
        self.turns: list[tuple[str, int, int]] = []
        self.lines: list[tuple[str, int | None, str, int]] = []

    async def your_turn(self, code: str, seat: int, turn: int) -> None:
        self.turns.append((code, seat, turn))

    async def chat_line(self, code: str, seat: int | None, name: str, number: int) -> None:
        self.lines.append((code, seat, name, number))


def test_the_player_to_move_and_the_chat_lines_reach_the_players_through_their_notifications(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with one_server(tmp_path) as (clock, _storage, server):
            heard = Heard()
            server.hub.tell_turns_by(heard)
            table = await server.hub.create(paced("move", clock))
            await move_by_hand(table)
            await table.settled()
            assert heard.turns == [(table.code, table.match.to_move, 1)]  # the other player's turn, after move 1
            await table.submit(Say(0, ChatMessage(type="chat", text="your move!")))
            await table.settled()
            assert heard.lines == [(table.code, 0, "P0", 1)]

    asyncio.run(scenario())


def test_only_a_move_of_the_players_own_choice_is_their_turn(tmp_path: Path) -> None:
    """Seed 0 opens with twelve forced draws (nobody holds the hub): the table makes them at once, and
    tells nobody "your turn" until it waits for the player who drew the hub; neither does it store a
    deadline for anyone meanwhile."""

    async def scenario() -> None:
        async with one_server(tmp_path) as (clock, storage, server):
            heard = Heard()
            server.hub.tell_turns_by(heard)
            config = paced("move", clock)
            config.seed = 0
            table = await server.hub.create(config)
            table = await server.until(table.code, lambda t: t.match.round.forced_move() is None)
            await table.settled()
            assert table.version == 12 and table.match.to_move == 1
            assert heard.turns == [(table.code, 1, 12)]
            assert await DeadlineBook(storage, clock).due_at(table.code) == (12, clock.now() + DAY)

    asyncio.run(scenario())


def test_the_first_mover_is_told_when_the_last_player_is_ready(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with one_server(tmp_path) as (clock, _storage, server):
            heard = Heard()
            server.hub.tell_turns_by(heard)
            config = paced("move", clock)
            config.playing_since = None
            for seat in config.seats:
                seat.ready = False
            table = await server.hub.create(config)
            await table.submit(Ready(1))
            await table.settled()
            assert table.status == "waiting" and heard.turns == []
            await table.submit(Ready(0))
            await table.settled()
            assert table.status == "playing" and heard.turns == [(table.code, table.match.to_move, 0)]

    asyncio.run(scenario())


def test_a_real_time_table_tells_nobody_wherever_they_are(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with one_server(tmp_path) as (clock, storage, server):
            heard = Heard()
            server.hub.tell_turns_by(heard)
            config = paced("move", clock)
            config.pace = None
            table = await server.hub.create(config)
            await move_by_hand(table)
            await table.submit(Say(0, ChatMessage(type="chat", text="hi")))
            await table.settled()
            assert heard.turns == [] and heard.lines == []
            assert await DeadlineBook(storage, clock).due_at(table.code) is None  # no deadline is stored

    asyncio.run(scenario())
