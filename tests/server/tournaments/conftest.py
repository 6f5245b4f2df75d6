"""Fixtures of the tournament tests: an app on a fake clock whose tables play themselves (every seat of an
event's table is covered by a bot while its player is away, at once), players signed in, and a way to
wait for an event to reach a state without guessing how long it takes: each check is made again when the
event's channel says it changed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chickenfoot.server.clock import FakeClock
from chickenfoot.server.tournaments import schema
from chickenfoot.server.tournaments.organiser import event_channel
from chickenfoot.server.tournaments.store import Event
from chickenfoot.testing.stores import emptied

from ..accounts.conftest import ACCOUNT_TABLES, GENEROUS
from ..social.conftest import EVERYTHING, Person

TOURNAMENT_TABLES = [schema.tournament_tables, schema.tournament_entrants, schema.tournaments]
WAIT_BOUND = 120.0
"""Seconds after which a wait fails the test rather than hang it (never how long anything should take)."""


@pytest.fixture
def no_events_yet(database_url: str) -> None:
    """PostgreSQL's test database outlives a test: each starts without events and accounts."""
    if not database_url.startswith("sqlite"):
        asyncio.run(emptied(database_url, TOURNAMENT_TABLES + ACCOUNT_TABLES))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def events_client(make_client: Callable[..., TestClient], no_events_yet: None, clock: FakeClock) -> TestClient:
    return make_client(addresses=GENEROUS, account_limits=EVERYTHING, clock=clock)


def people(client: TestClient, count: int) -> list[Person]:
    return [Person(client, f"player{n}") for n in range(1, count + 1)]


def create(person: Person, **settings: Any) -> str:
    """A private event made by ``person``: its code."""
    made = person.ok("post", "/api/tournaments", {"name": "Club night", **settings})
    assert made["path"] == f"/tournaments/{made['code']}"
    return str(made["code"])


def wait_for(client: TestClient, code: str, done: Callable[[Event, int], bool]) -> Event:
    """The event once ``done`` holds of it and the number of its tables in play: checked now, and again each
    time its channel tells of a change."""
    tournaments = client.app.state.tournaments  # type: ignore[attr-defined]

    async def waiting() -> Event:
        found = await tournaments.store.by_code(code)
        assert found is not None
        changed = asyncio.Event()
        unsubscribe = tournaments.bus.subscribe(event_channel(found.id), lambda _message: changed.set())
        event, playing = found, -1
        try:
            async with asyncio.timeout(WAIT_BOUND):
                while not done(
                    event := await tournaments.store.by_code(code),
                    playing := len(await tournaments.store.playing(found.id)),
                ):
                    await changed.wait()
                    changed.clear()
        except TimeoutError:
            raise AssertionError(f"the event stayed at {event} with {playing} tables in play") from None
        finally:
            unsubscribe()
        return event

    return client.portal.call(waiting)  # type: ignore[union-attr,no-any-return]


def finished(event: Event, _playing: int) -> bool:
    """The event is over and its standings count every result."""
    return event.status == "finished" and event.standings is not None and event.standings_of == event.results


def page(client: TestClient, code: str) -> dict[str, Any]:
    response = client.get(f"/api/tournaments/{code}")
    assert response.status_code == 200, response.text
    return dict(response.json())
