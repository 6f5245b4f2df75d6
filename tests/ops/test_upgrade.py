"""An older game store upgraded: the schema built at 0012_ratings (the first with accounts and ratings),
filled with the rows a server of that release stored (``data/schema_0012.json``: accounts, rated and
unrated matches, a match half played), then served by this release, which migrates it to head at
start-up, and played on: the half-played match to its end, a sign-in with the old password, a new
rated match moving the old rating on."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import connect

from chickenfoot.server.storage import MIGRATIONS
from chickenfoot.testing.clients import HonestPlayer, Measure
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served
from chickenfoot.testing.waiting import until

FIXTURE = json.loads((Path(__file__).parent / "data" / "schema_0012.json").read_text())
OLD = "0012_ratings"


def old_schema_with_its_rows(connection: Connection) -> None:
    """The schema at :data:`OLD`, and the fixture's rows written through it (that schema's own tables)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, OLD)
    assert connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == OLD
    schema = sa.MetaData()
    schema.reflect(connection)
    assert set(FIXTURE["rows"]) == set(schema.tables) - {"alembic_version"}
    for table in schema.sorted_tables:
        stored = FIXTURE["rows"].get(table.name, [])
        if stored:
            connection.execute(
                table.insert(), [{k: as_stored(table.c[k].type, v) for k, v in row.items()} for row in stored]
            )
        key = list(table.primary_key.columns)
        if connection.dialect.name == "postgresql" and stored and len(key) == 1 and isinstance(key[0].type, sa.Integer):
            # Where the old server's ids had got to (nothing for a key without a sequence).
            name, column = table.name, key[0].name
            connection.execute(
                sa.text(
                    f"SELECT setval(pg_get_serial_sequence('{name}', '{column}'), (SELECT max({column}) FROM {name}))"
                )
            )


def as_stored(kind: sa.types.TypeEngine[Any], value: Any) -> Any:
    """A value of the fixture (as SQLite kept it) as the column of ``kind`` takes it."""
    if value is None:
        return None
    if isinstance(kind, sa.DateTime):
        at = datetime.fromisoformat(value)
        return at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    if isinstance(kind, sa.Boolean):
        return bool(value)
    return value


async def build(url: str) -> None:
    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.run_sync(old_schema_with_its_rows)
    await engine.dispose()


async def play(base: str, paths: dict[int, str]) -> list[HonestPlayer]:
    measure, stop = Measure(), asyncio.Event()
    players = [
        HonestPlayer(base, path, seat, 0.0, random.Random(seat), measure, seat == min(paths))
        for seat, path in paths.items()
    ]
    async with asyncio.timeout(300):
        await asyncio.gather(*(player.play(stop) for player in players))
    return players


async def play_on(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        ready = await http.get("/readyz")
        assert ready.json()["schema"] == "head" and ready.status_code == 200
        for code in FIXTURE["finished"]:  # replays of matches finished before the upgrade
            assert (await http.get(f"/api/tables/{code}/record")).status_code == 200
        code = FIXTURE["unfinished"]
        stored = sum(1 for row in FIXTURE["rows"]["actions"] if row["table_code"] == code)
        paths = {int(seat): f"/ws/{code}?token={token}" for seat, token in FIXTURE["tokens"].items()}
        async with connect(base.replace("http", "ws") + paths[0]) as ws:
            assert json.loads(await ws.recv())["version"] == stored  # the old actions replayed, none lost
        players = await play(base, paths)
        assert all(player.over() for player in players)
        assert (await http.get(f"/api/tables/{code}/record")).status_code == 200
        before = (await http.get("/api/ratings/annika")).json()["families"]["2"]
        assert before["matches"] == 1 and len(before["history"]) == 1
        signed_in = await http.post("/api/account/signin", json={"username": "annika", "password": FIXTURE["password"]})
        assert signed_in.status_code == 200
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]
        created = (await http.post("/api/tables", json={"seats": seats, "rated": True})).json()
        await play(base, {0: f"/ws/{created['code']}?token={created['token']}"})

        async def rated_again() -> bool:  # the rating is settled just after the match's last action
            return bool((await http.get("/api/ratings/annika")).json()["families"]["2"]["matches"] == 2)

        await until(rated_again, 30, "annika's second rated match counted")
        after = (await http.get("/api/ratings/annika")).json()["families"]["2"]
        assert len(after["history"]) == 2
        fresh = await http.post("/api/account/signup", json={"username": "newcomer", "password": FIXTURE["password"]})
        assert fresh.status_code == 201  # new rows after the old ones: the ids went on from where they were


def upgrade_and_play(url: str) -> None:
    asyncio.run(build(url))
    port = free_port()
    with ExitStack() as stack:
        stack.enter_context(served(port, url, options=OPEN_LIMITS, timeout=120))
        asyncio.run(play_on(f"http://127.0.0.1:{port}"))


def test_an_sqlite_store_of_schema_0012_upgrades_and_plays_on(tmp_path: Path) -> None:
    upgrade_and_play(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")


def test_a_postgresql_store_of_schema_0012_upgrades_and_plays_on(fresh_postgres: Callable[[], str]) -> None:
    upgrade_and_play(fresh_postgres())
