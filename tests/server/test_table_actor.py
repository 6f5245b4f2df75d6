"""The table as an actor: commands handled one at a time from a bounded mailbox, each to its end,
the automatic play planned after each, a burst of arrivals told once."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from chickenfoot import Match
from chickenfoot.move import Move
from chickenfoot.rules import Rules
from chickenfoot.server.clock import FakeClock
from chickenfoot.server.cluster.connections import LocalConnections
from chickenfoot.server.cluster.fanout import LocalBus
from chickenfoot.server.refusals import Refusal, Why
from chickenfoot.server.table import actor
from chickenfoot.server.table.actor import Services, Table
from chickenfoot.server.table.commands import Attach, CatchUp, Detach, Play, Wake
from chickenfoot.server.table.config import Seat, TableConfig, Timing
from chickenfoot.server.table.ports import ALONE, Message
from chickenfoot.server.table.protocol import NEXT_ROUND, LogSent, raw_events, round_start_events

STILL = Timing(bot_delay=60, forced_delay=60, next_round_delay=60, grace=60)
"""Automatic play far off: only what the test submits happens."""


class SlowStore:
    """Storage whose writes wait until the test lets them through."""

    available = True

    def __init__(self) -> None:
        self.stored: list[tuple[int, str]] = []
        self.go = asyncio.Event()

    async def append_action(self, code: str, version: int, action: str, at: Any = None) -> None:
        await self.go.wait()
        self.stored.append((version, action))

    async def load_actions(self, code: str, after: int) -> list[Any]:
        return []


class Page:
    """A connection: counts the states published to it."""

    def __init__(self) -> None:
        self.states = 0

    def attached(self, first: str, log_sent: LogSent) -> None:
        pass

    def on_change(self, message: Message) -> None:
        self.states += "events" in message


def playing(store: Any, clock: FakeClock | None = None) -> Table:
    seats = [Seat("human", f"P{s}", taken=True) for s in range(4)]
    config = TableConfig(Rules(), seats, seed=1, playing_since=1.0)
    services = Services(store, LocalBus(), STILL, LocalConnections(), clock or FakeClock())
    return Table.restore("ACTOR1", config, [], services, ALONE)


def test_an_action_under_way_is_not_cut_off_when_its_sender_gives_up() -> None:
    async def scenario() -> tuple[list[tuple[int, str]], int]:
        store = SlowStore()
        table = playing(store)
        move = str(table.match.round.legal_moves()[0])
        sender = asyncio.ensure_future(table.submit(Play(table.match.to_move, move, 0)))
        await asyncio.sleep(0)
        sender.cancel()  # the client left while its move was being stored
        store.go.set()
        await table.settled()
        return store.stored, table.version

    stored, version = asyncio.run(scenario())
    assert len(stored) == 1 and version == 1  # stored and applied: the table's state follows its store


def test_commands_are_handled_one_at_a_time_in_the_order_they_came() -> None:
    async def scenario() -> list[str]:
        store = SlowStore()
        table = playing(store)
        move = str(table.match.round.legal_moves()[0])
        first = asyncio.ensure_future(table.submit(Play(table.match.to_move, move, 0)))
        second = asyncio.ensure_future(table.submit(Play(table.match.to_move, move, 0)))  # the same move, again
        await asyncio.sleep(0)
        store.go.set()
        outcomes = []
        for sent in (first, second):
            try:
                await sent
                outcomes.append("played")
            except Refusal as refusal:
                outcomes.append(refusal.said.code.id)
        return outcomes

    # The second waited for the first to be stored and applied, so it was judged against version 1.
    assert asyncio.run(scenario()) == ["played", "error.stale_version"]


def test_a_full_mailbox_refuses_a_persons_command_and_takes_the_tables_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(actor, "MAILBOX", 2)

    async def scenario() -> tuple[Why, int]:
        store = SlowStore()
        table = playing(store)
        move = str(table.match.round.legal_moves()[0])
        waiting = [asyncio.ensure_future(table.submit(Play(table.match.to_move, move, 0))) for _ in range(3)]
        await asyncio.sleep(0)  # the first is under way, two wait: the mailbox is full
        with pytest.raises(Refusal) as refused:
            await table.submit(Play(table.match.to_move, move, 0))
        following = asyncio.ensure_future(table.submit(CatchUp({})))  # the cluster's: always taken
        store.go.set()
        await asyncio.gather(*waiting, following, return_exceptions=True)
        return refused.value.why, table.version

    assert asyncio.run(scenario()) == (Why.TOO_MANY, 1)


def test_a_burst_of_arrivals_is_told_once() -> None:
    async def scenario() -> tuple[int, int, int]:
        table = playing(SlowStore())
        watcher = Page()
        await table.submit(Attach(None, watcher))
        await table.settled()
        alone = watcher.states  # its own arrival, told
        for _ in range(5):  # five spectators come at once
            table.tell(Attach(None, Page()))
        await table.settled()
        return alone, watcher.states - alone, table.counts.spectators

    assert asyncio.run(scenario()) == (1, 1, 6)


def test_a_crowd_coming_and_going_one_by_one_is_told_once_a_tick() -> None:
    """Spectators arriving one after another (each handled before the next comes) and then leaving the
    same way: past the first few, everyone hears of them once a tick, not once each."""

    async def scenario() -> tuple[int, int, int, int, int]:
        clock = FakeClock()
        table = playing(SlowStore(), clock)
        watcher = Page()
        await table.submit(Attach(None, watcher))
        await table.settled()
        crowd = []
        for _ in range(100):
            crowd.append(await table.submit(Attach(None, Page())))
            await table.settled()
        arrivals = watcher.states
        clock.advance(actor.PRESENCE_TICK)
        await table.settled()
        last_arrivals = watcher.states - arrivals
        for attached in crowd:
            attached.unsubscribe()
            await table.submit(Detach(None))
        departures = watcher.states - arrivals - last_arrivals
        clock.advance(actor.PRESENCE_TICK)
        await table.settled()
        return arrivals, last_arrivals, departures, watcher.states - arrivals - last_arrivals, table.counts.spectators

    arrivals, last_arrivals, departures, with_last_departures, spectators = asyncio.run(scenario())
    assert arrivals <= actor.PRESENCE_TELLS and last_arrivals == 1  # the rest of the crowd in one state
    assert departures == 0 and with_last_departures == 1 and spectators == 1


def test_the_automatic_play_is_planned_after_every_command() -> None:
    async def scenario() -> tuple[int, int]:
        clock = FakeClock()
        seats = [Seat("human", "Ann", taken=True), Seat("bot", bot="random", taken=True)]
        config = TableConfig(Rules(), seats, seed=2, playing_since=1.0)
        services = Services(SlowStore(), LocalBus(), STILL, LocalConnections(), clock)
        table = Table.restore("ACTOR2", config, [], services, ALONE)
        await table.submit(Attach(0, Page()))
        before = clock.pending()
        await table.submit(Wake())
        return before, clock.pending()

    before, after = asyncio.run(scenario())
    assert after == 1 and before <= 1  # one plan at a time: a bot's or forced move, or the next round


def played(config: TableConfig, count: int) -> list[str]:
    """The first ``count`` actions of a match at ``config`` played with random legal moves."""
    match, rng = Match(config.rules, len(config.seats), config.seed), random.Random(5)
    actions: list[str] = []
    while len(actions) < count and not match.is_over():
        if match.round.is_over():
            match.next_round()
            actions.append(NEXT_ROUND)
        else:
            move = rng.choice(list(match.round.legal_moves()))
            match.push(move)
            actions.append(str(move))
    return actions


def test_a_table_read_back_rebuilds_the_events_of_its_last_versions_only() -> None:
    seats = [Seat("human", f"P{s}", taken=True) for s in range(2)]
    config = TableConfig(Rules(), seats, seed=3, playing_since=1.0)
    actions = played(config, 3 * actor.EVENTS_READ_BACK)
    services = Services(SlowStore(), LocalBus(), STILL, LocalConnections(), FakeClock())
    table = Table.restore("READ01", config, actions, services, ALONE)
    version = len(actions)
    assert table.version == version
    # The events of the last versions, as the actions made them when they were played.
    match = Match(config.rules, len(config.seats), config.seed)
    expected: list[dict[str, Any]] = []
    for number, action in enumerate(actions, start=1):
        if action == NEXT_ROUND:
            match.next_round()
            events = round_start_events(match)
        else:
            match.push(Move.parse(action))
            events = raw_events(match.round.events_of_last(), match.round_number)
        if number > version - 10:
            expected += events
    assert table.events_since(version - 10) == expected
    assert table.events_since(version - actor.EVENTS_READ_BACK) is not None
    assert table.events_since(version - actor.EVENTS_READ_BACK - 1) is None  # older: a full snapshot
