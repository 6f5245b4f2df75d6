"""The cost of a large arena's standings on the server: computed in the organiser's worker process while
the event loop serves on, and its page served from the cache.

    python benchmarks/tournament_server.py --players 500 --tables 5000 --seed 1 --save tournament-server.json

One server application (``create_app``, SQLite in a temporary directory unless ``--database-url`` names
another store), its lifespan run as ``chickenfoot serve`` runs it. An arena of ``--players`` entrants is
filled straight into its store with ``--tables`` finished tables of four (seeded random seats and
points, one result a second), then, on the server's own event loop, with a ticker measuring the loop's
lag (how late a 5 ms sleep wakes) all along:

- ``standings in the worker``: the organiser computes the standings after a new result
  (``Organiser.standings``: the new results read, the job run in its worker process, the standings
  stored), ``--repeats`` times, the standings cleared before each (after one first call that starts the
  worker and reads every result); the loop's lag meanwhile;
- ``standings on the loop``, for comparison only: the same job called on the event loop, as a server
  without the worker would, and the loop's lag meanwhile;
- ``page built`` and ``page cached``: ``GET /api/tournaments/CODE`` answered through the application
  (ASGI, no network), the page built again for every request (as after each change of the event) or
  served from the cache (everyone watching between two changes), ``--requests`` of each.

Prints each measure's median and largest milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient
from stored import provenance, save

from chickenfoot.server import Settings, create_app
from chickenfoot.server.accounts.schema import accounts
from chickenfoot.server.tournaments.compute import standings_job
from chickenfoot.server.tournaments.organiser import ranking_of, seeding, table_config
from chickenfoot.server.tournaments.schema import tournament_entrants, tournament_tables, tournaments
from chickenfoot.server.tournaments.settings import EventSettings
from chickenfoot.server.tournaments.store import Event
from chickenfoot.tournament import Result

TICK = 0.005
"""The ticker's sleep: its lateness is the event loop's lag."""


class Ticker:
    """How late the event loop wakes a sleeper, sampled every :data:`TICK` seconds while it runs."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(TICK)
            self.lags.append(1000 * (loop.time() - start - TICK))

    async def during(self, work: Callable[[], Awaitable[object]]) -> tuple[float, float]:
        """Run ``work`` with the ticker on: its wall milliseconds and the loop's largest lag meanwhile."""
        self.lags = []
        self._task = asyncio.create_task(self._run())
        await asyncio.sleep(TICK * 2)
        start = time.perf_counter()
        await work()
        spent = 1000 * (time.perf_counter() - start)
        await asyncio.sleep(TICK * 2)
        self._task.cancel()
        return spent, max(self.lags, default=0.0)


async def fill(app: Any, players: int, tables: int, seed: int) -> Event:
    """An arena just over (the organiser seats nobody while it is measured), with ``players`` entrants and
    ``tables`` finished tables of four, straight into the store."""
    store = app.state.tournaments.store
    rng = random.Random(seed)
    now = datetime.now(UTC)
    settings = EventSettings.checked(format="arena", minutes=24 * 60, table_size=4)
    event = await store.create(
        "Benchmark arena", settings, public=True, creator_id=None, starts_at=None, repeat=None, seed=seed, at=now
    )
    started = now - timedelta(seconds=tables + 60)
    tag = secrets.token_hex(3)
    async with store.storage.transaction() as conn:
        ids = []
        for i in range(players):
            name = f"b{tag}{i:04}"
            made = await conn.execute(
                accounts.insert()
                .values(username=name, skeleton=name, user_handle=secrets.token_hex(16), created_at=now)
                .returning(accounts.c.id)
            )
            ids.append(int(made.scalar_one()))
        await conn.execute(
            tournament_entrants.insert(),
            [
                {
                    "tournament_id": event.id,
                    "account_id": a,
                    "number": n + 1,
                    "state": "in",
                    "since": started,
                    "rating": 1500.0,
                }
                for n, a in enumerate(ids)
            ],
        )
    entrants = {str(e.account_id): e for e in await store.entrants(event.id)}
    config = table_config(settings, tuple(str(a) for a in ids[:4]), entrants, seed, started.timestamp()).to_json()
    rows = []
    for t in range(tables):
        seats = rng.sample(ids, 4)
        code = f"bench{tag}{t:06}"
        result = Result.from_points(code, tuple(map(str, seats)), [rng.randrange(120) for _ in seats])
        rows.append(
            {
                "table_code": code,
                "tournament_id": event.id,
                "seats": json.dumps(seats),
                "started_at": started + timedelta(seconds=t),
                "finished_at": started + timedelta(seconds=t + 1),
                "points": json.dumps(list(result.points)),
                "places": json.dumps(list(result.places)),
                "number": t + 1,
            }
        )
    storage = store.storage
    async with storage.transaction() as conn:
        for row in rows:
            await conn.execute(storage.new_table(row["table_code"], config))
        await conn.execute(tournament_tables.insert(), rows)
        await conn.execute(
            tournaments.update()
            .where(tournaments.c.id == event.id)
            .values(status="finished", started_at=started, ends_at=now, results=tables)
        )
    found = await store.by_id(event.id)
    assert found is not None
    return found


def summary(values: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(values), 2), "max_ms": round(max(values), 2)}


async def measure(app: Any, event: Event, repeats: int, requests: int) -> dict[str, Any]:
    tournaments_ = app.state.tournaments
    organiser, store = tournaments_.organiser, tournaments_.store
    ticker = Ticker()
    measured: dict[str, Any] = {}

    async def cleared() -> None:
        async with store.storage.transaction() as conn:
            await conn.execute(
                tournaments.update().where(tournaments.c.id == event.id).values(standings=None, standings_of=0)
            )

    await cleared()
    await organiser.standings(event.id)  # the worker process started, every result read once
    worker_ms, worker_lag = [], []
    for _ in range(repeats):
        await cleared()
        spent, lag = await ticker.during(lambda: organiser.standings(event.id))
        worker_ms.append(spent)
        worker_lag.append(lag)
    kept = await store.by_id(event.id)
    assert kept is not None and kept.standings is not None and kept.standings_of == event.results
    measured["standings in the worker"] = {"wall": summary(worker_ms), "loop_lag": summary(worker_lag)}

    results = await organiser.results(event.id)
    players = [str(e.account_id) for e in seeding(await store.entrants(event.id))]
    ranking = ranking_of(kept)

    async def inline() -> None:
        standings_job(ranking, results, players)

    loop_ms, loop_lag = [], []
    for _ in range(repeats):
        spent, lag = await ticker.during(inline)
        loop_ms.append(spent)
        loop_lag.append(lag)
    measured["standings on the loop"] = {"wall": summary(loop_ms), "loop_lag": summary(loop_lag)}

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:

        async def answer() -> float:
            start = time.perf_counter()
            got = await client.get(f"/api/tournaments/{event.code}")
            spent = 1000 * (time.perf_counter() - start)
            assert got.status_code == 200 and got.json()["standings"] is not None
            return spent

        size = len((await client.get(f"/api/tournaments/{event.code}")).content)
        cached: list[float] = []
        while len(cached) < requests:  # a page is kept 2 s at most: it is asked for again, then in a burst
            await answer()
            cached += [await answer() for _ in range(min(20, requests - len(cached)))]
        built = []
        for n in range(requests):
            tournaments_.heard(event.id, 10**9 + n)  # news of a change: the next answer builds the page again
            built.append(await answer())
    measured["page cached"] = summary(cached)
    measured["page built"] = summary(built)
    measured["page_bytes"] = size
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--tables", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", help="SQLAlchemy async URL (default: SQLite in a temporary directory)")
    parser.add_argument("--save", metavar="NAME", help="store the result as benchmarks/results/NAME")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        url = args.database_url or f"sqlite+aiosqlite:///{Path(scratch) / 'games.db'}"
        with TestClient(create_app(Settings(database_url=url))) as client:
            event = client.portal.call(fill, client.app, args.players, args.tables, args.seed)  # type: ignore[union-attr]
            measured = client.portal.call(measure, client.app, event, args.repeats, args.requests)  # type: ignore[union-attr]
    for name in ("standings in the worker", "standings on the loop"):
        wall, lag = measured[name]["wall"], measured[name]["loop_lag"]
        print(
            f"{name:>24}: {wall['median_ms']:8.1f} ms (largest {wall['max_ms']:.1f}); "
            f"loop lag {lag['median_ms']:.1f} ms (largest {lag['max_ms']:.1f})"
        )
    for name in ("page built", "page cached"):
        print(f"{name:>24}: {measured[name]['median_ms']:8.2f} ms (largest {measured[name]['max_ms']:.2f})")
    print(f"({args.players} players, {args.tables} finished tables of 4; the page is {measured['page_bytes']} bytes)")
    if args.save:
        save(
            args.save,
            {
                **provenance("tournament_server.py"),
                "players": args.players,
                "tables": args.tables,
                "repeats": args.repeats,
                "requests": args.requests,
                "database": url.split(":", 1)[0],
                **measured,
            },
        )


if __name__ == "__main__":
    main()
