"""The database orders every table's events: two processes appending the same next version, one wins.

Each writer stands for a server process (its own engine and connection pool) that catches up from
storage, then appends the next version; the ``(table_code, version)`` primary key of ``actions``
refuses the second append of a version, whatever the interleaving: ``Storage.append_action`` raises
``VersionTaken`` for it.
"""

from __future__ import annotations

import asyncio
import secrets
from datetime import UTC, datetime

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from chickenfoot import Match, Rules
from chickenfoot.server.clock import SystemClock
from chickenfoot.server.cluster.connections import LocalConnections
from chickenfoot.server.cluster.fanout import LocalBus
from chickenfoot.server.storage import Storage, StoredAction, VersionTaken
from chickenfoot.server.table.actor import Services, Table
from chickenfoot.server.table.commands import CatchUp
from chickenfoot.server.table.config import Seat, TableConfig
from chickenfoot.server.table.ports import ALONE

from .conftest import INSTANT

Pauses = list[tuple[float, float]]
pauses = st.lists(st.tuples(*[st.sampled_from([0.0, 0.0005, 0.002])] * 2), min_size=1, max_size=4)
"""Per attempt: a pause before catching up, and one between catching up and appending."""


async def new_table(storage: Storage) -> str:
    code = secrets.token_hex(4).upper()  # the test database outlives runs
    assert await storage.create_table(code, {"test": "version guard"})
    return code


async def attempts(storage: Storage, code: str, name: str, plan: Pauses) -> list[tuple[int, bool]]:
    """Catch up, then append the next version, once per step of ``plan``: (version, accepted) each."""
    results = []
    for before, between in plan:
        await asyncio.sleep(before)
        loaded = await storage.load_table(code)
        assert loaded is not None
        version = len(loaded[1]) + 1
        await asyncio.sleep(between)
        try:
            await storage.append_action(code, version, f"{name}{len(results)}")
            results.append((version, True))
        except VersionTaken:
            results.append((version, False))
    return results


def test_two_processes_appending_the_same_version_at_once_one_is_refused(pg_url: str | None) -> None:
    assert pg_url is not None
    url = pg_url

    async def scenario() -> tuple[list[object], list[str]]:
        first, second = Storage(url, SystemClock()), Storage(url, SystemClock())
        await first.migrate()
        code = await new_table(first)
        outcomes = await asyncio.gather(
            first.append_action(code, 1, "9-9"), second.append_action(code, 1, "draw"), return_exceptions=True
        )
        loaded = await second.load_table(code)
        await first.close()
        await second.close()
        assert loaded is not None
        return list(outcomes), loaded[1]

    outcomes, stored = asyncio.run(scenario())
    # One append won and is the only one stored; the other was refused as the version's second.
    won = [action for action, outcome in zip(("9-9", "draw"), outcomes, strict=True) if outcome is None]
    refused = [outcome for outcome in outcomes if isinstance(outcome, VersionTaken)]
    assert len(won) == 1 and len(refused) == 1 and refused[0].version == 1
    assert stored == won


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first_plan=pauses, second_plan=pauses)
def test_any_interleaving_of_two_writers_stores_each_version_once_and_refuses_the_rest(
    pg_url: str | None, first_plan: Pauses, second_plan: Pauses
) -> None:
    assert pg_url is not None
    url = pg_url

    async def scenario() -> tuple[dict[str, list[tuple[int, bool]]], list[str]]:
        first, second = Storage(url, SystemClock()), Storage(url, SystemClock())
        await first.migrate()
        code = await new_table(first)
        a, b = await asyncio.gather(attempts(first, code, "a", first_plan), attempts(second, code, "b", second_plan))
        loaded = await first.load_table(code)
        await first.close()
        await second.close()
        assert loaded is not None
        return {"a": a, "b": b}, loaded[1]

    results, stored = asyncio.run(scenario())
    event("a writer was refused" if any(not ok for tried in results.values() for _, ok in tried) else "no conflict")
    accepted = {version: f"{name}{i}" for name, tried in results.items() for i, (version, ok) in enumerate(tried) if ok}
    # No version twice, no hole: the stored log is exactly the accepted appends, in version order.
    assert stored == [accepted[version] for version in range(1, len(accepted) + 1)]
    for name, tried in results.items():
        for version, ok in tried:
            if not ok:  # refused only because the other writer holds that version
                assert not stored[version - 1].startswith(name)


class _ReadCounter:
    """A storage holding ``stored``: counts the reads of actions."""

    def __init__(self, stored: list[StoredAction]) -> None:
        self.stored, self.reads = stored, 0

    async def load_actions(self, code: str, after: int) -> list[StoredAction]:
        self.reads += 1
        return [action for action in self.stored if action.version > after]


def test_announced_actions_are_applied_without_reading_them_back_and_a_gap_is_read() -> None:
    """Another process's announcement carries the stored action; only what was not announced is read."""
    config = TableConfig(Rules(), [Seat("human", None), Seat("human", None)], seed=3)
    played = Match(config.rules, 2, config.seed)
    stored = []
    for version in range(1, 7):
        move = played.round.legal_moves()[0]
        played.push(move)
        stored.append(StoredAction(version, str(move), datetime.now(UTC)))
    storage = _ReadCounter(stored)
    services = Services(storage, LocalBus(), INSTANT, LocalConnections(), SystemClock())  # type: ignore[arg-type]
    table = Table("ABCDEF", config, Match(config.rules, 2, config.seed), services, ALONE)

    async def scenario() -> list[tuple[int, int]]:
        seen = []
        await table.submit(CatchUp({1: stored[0], 2: stored[1]}, latest=2))  # everything announced
        seen.append((table.version, storage.reads))
        await table.submit(CatchUp({4: stored[3]}, latest=4))  # 3 was not announced (yet): read 3 and 4
        seen.append((table.version, storage.reads))
        await table.submit(CatchUp({}, latest=None))  # after a broken subscription: read everything
        seen.append((table.version, storage.reads))
        return seen

    assert asyncio.run(scenario()) == [(2, 0), (6, 1), (6, 2)]
    assert table.match.round.view(None).history == played.round.view(None).history
