"""Storage details: the default database location, the grouped commit of actions, the sweep of unplayed tables."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from chickenfoot.rules import Rules
from chickenfoot.server.accounts.schema import account_seats
from chickenfoot.server.accounts.store import AccountStore
from chickenfoot.server.botapi.schema import bot_invitations
from chickenfoot.server.botapi.store import BotStore, Invitation
from chickenfoot.server.clock import FakeClock, SystemClock
from chickenfoot.server.credentials import Credentials
from chickenfoot.server.handover.schema import handovers
from chickenfoot.server.handover.store import HandoverStore
from chickenfoot.server.storage import MIGRATIONS, Storage, VersionTaken, actions, default_database_url
from chickenfoot.server.storage.store import MAX_BATCH


def test_the_default_database_is_sqlite_in_the_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = default_database_url()
    assert url == f"sqlite+aiosqlite:///{tmp_path / 'chickenfoot' / 'games.db'}"
    assert (tmp_path / "chickenfoot").is_dir()


def test_actions_of_many_tables_commit_together_and_a_taken_version_is_refused_alone(database_url: str) -> None:
    async def scenario() -> tuple[list[object], list[str], list[str]]:
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        codes = [secrets.token_hex(3).upper() for _ in range(3)]  # the PostgreSQL database outlives runs
        for code in codes:
            assert await storage.create_table(code, {"n": code})
        assert not await storage.create_table(codes[0], {})  # a taken code
        await storage.append_action(codes[0], 1, "9-9")
        results = await asyncio.gather(
            storage.append_action(codes[0], 1, "draw"),  # version 1 is stored already: refused
            storage.append_action(codes[1], 1, "9-9"),
            storage.append_action(codes[2], 1, "draw"),
            return_exceptions=True,
        )
        first, second = await storage.load_table(codes[0]), await storage.load_table(codes[1])
        await storage.close()
        assert first is not None and second is not None
        return list(results), first[1], second[1]

    results, first, second = asyncio.run(scenario())
    assert isinstance(results[0], VersionTaken) and results[0].version == 1
    assert results[1:] == [None, None]
    assert first == ["9-9"] and second == ["9-9"]


def test_tokens_of_an_older_database_become_digests(tmp_path: Path) -> None:
    """Migration c7e1d2a94b30: a taken seat's token stays its credential, a free seat's becomes its invite."""
    path = tmp_path / "old.db"
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with sa.create_engine(f"sqlite:///{path}").begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")
        seats = [
            {"kind": "human", "name": "Ann", "bot": None, "token": "ann-old-token", "taken": True},
            {"kind": "human", "name": "Bo", "bot": None, "token": "bo-old-token", "taken": False},
        ]
        old = {"rules": Rules().to_dict(), "seats": seats, "seed": 3}
        conn.execute(
            sa.text("INSERT INTO game_tables (code, config, created_at) VALUES ('OLD111', :c, '2026-01-01')"),
            {"c": json.dumps(old)},
        )
        conn.execute(  # a row some other program left: the migration passes over it
            sa.text("INSERT INTO game_tables (code, config, created_at) VALUES ('JUNK11', '{\"n\": 1}', '2026-01-01')")
        )

    async def scenario() -> tuple[int | None, int | None, object, str]:
        storage = Storage(f"sqlite+aiosqlite:///{path}", SystemClock())
        await storage.migrate()
        credentials = Credentials(storage)
        ann = await credentials.seat_of("OLD111", "ann-old-token")
        bo_as_seat = await credentials.seat_of("OLD111", "bo-old-token")
        bo = await credentials.claim("OLD111", "bo-old-token")
        loaded = await storage.load_table("OLD111")
        await storage.close()
        assert loaded is not None
        return ann, bo_as_seat, bo, json.dumps(loaded[0])

    ann, bo_as_seat, bo, stored = asyncio.run(scenario())
    assert ann == 0 and bo_as_seat is None
    assert isinstance(bo, tuple) and bo[0] == 1
    assert "old-token" not in stored and json.loads(stored)["creator"] == 0


def test_the_sweep_deletes_old_unplayed_tables_only(database_url: str) -> None:
    async def scenario() -> tuple[list[str], list[str], list[bool]]:
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        codes = [secrets.token_hex(3).upper() for _ in range(4)]
        for code in codes:
            assert await storage.create_table(code, {"n": code})
        await storage.append_action(codes[0], 1, "9-9")  # played: a replay, kept
        await storage.put_secret(codes[2], 0, "seat", "0" * 64)  # its credentials go with it
        future = datetime.now(UTC) + timedelta(hours=1)
        deleted = await storage.delete_unplayed(future, 1000, keep={codes[1]})  # codes[1] is in use
        kept = [await storage.load_table(code) is not None for code in codes]
        await storage.close()
        return codes, deleted, kept

    codes, deleted, kept = asyncio.run(scenario())
    assert kept == [True, True, False, False] and {codes[2], codes[3]} <= set(deleted)


def test_unplayed_tables_are_told_and_swept_among_given_codes_alone(database_url: str) -> None:
    async def scenario() -> tuple[list[str], set[str], list[str], list[bool]]:
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        codes = [secrets.token_hex(3).upper() for _ in range(3)]
        for code in codes:
            assert await storage.create_table(code, {"n": code})
        await storage.append_action(codes[0], 1, "9-9")
        unplayed = await storage.unplayed_among([*codes, "NOSUCH"])
        future = datetime.now(UTC) + timedelta(hours=1)
        deleted = await storage.delete_unplayed(future, 1000, keep=set(), among=codes[:2])
        kept = [await storage.load_table(code) is not None for code in codes]
        await storage.close()
        return codes, unplayed, deleted, kept

    codes, unplayed, deleted, kept = asyncio.run(scenario())
    assert unplayed == {codes[1], codes[2]}
    assert deleted == [codes[1]] and kept == [True, False, True]


def test_a_swept_table_leaves_no_invitation_handover_or_followed_seat_behind(database_url: str) -> None:
    """Every row that belongs to a table goes with it when the sweep deletes it: a bot account's
    invitation to a seat, a link to continue on another device, a seat that followed an account."""

    async def scenario() -> dict[str, int]:
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        code = secrets.token_hex(3).upper()
        assert await storage.create_table(code, {"n": code})
        await storage.put_secret(code, 0, "seat", "0" * 64)
        name = f"sweep{secrets.token_hex(4)}"
        account = await AccountStore(storage).create(name, secrets.token_urlsafe(32), datetime.now(UTC))
        assert account is not None
        await AccountStore(storage).sit(code, 0, account.id)
        await BotStore(storage).invite(Invitation(code, 1, account.id, "Ann"), datetime.now(UTC))
        assert await HandoverStore(storage, FakeClock()).offer(code, 0) is not None
        assert code in await storage.delete_unplayed(datetime.now(UTC) + timedelta(hours=1), 1000, keep=set())
        left = {}
        async with storage.reading() as conn:
            for table in (bot_invitations, handovers, account_seats):
                count = sa.select(sa.func.count()).select_from(table).where(table.c.table_code == code)
                left[table.name] = int((await conn.execute(count)).scalar_one())
        await storage.close()
        return left

    assert asyncio.run(scenario()) == {"bot_invitations": 0, "seat_handovers": 0, "account_seats": 0}


def test_english_default_names_of_an_older_database_are_cleared(tmp_path: Path) -> None:
    """Migration 0006_default_names: a seat keeps only a name a person chose; downgrading writes the defaults back."""
    path = tmp_path / "old.db"
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    seats = [
        {"kind": "human", "name": "Player 1", "bot": None, "taken": True},  # nobody named seat 1
        {"kind": "human", "name": "Bo", "bot": None, "taken": True},
        {"kind": "bot", "name": "Easy bot 3", "bot": "easy", "taken": False},
        {"kind": "bot", "name": "Medium bot 3", "bot": "medium", "taken": False},  # a name given on creation
        {"kind": "human", "name": "Player 2", "bot": None, "taken": False},  # another seat's default: chosen
    ]
    old = {"rules": Rules().to_dict(), "seats": seats, "seed": 3}
    with sa.create_engine(f"sqlite:///{path}").begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0005_company")
        for code, stored in (("OLD111", json.dumps(old)), ("JUNK11", "[1, 2]")):
            conn.execute(
                sa.text("INSERT INTO game_tables (code, config, created_at) VALUES (:code, :c, '2026-01-01')"),
                {"code": code, "c": stored},
            )

    async def migrated() -> list[str | None]:
        storage = Storage(f"sqlite+aiosqlite:///{path}", SystemClock())
        await storage.migrate()
        loaded = await storage.load_config("OLD111")
        await storage.close()
        assert loaded is not None
        return [seat["name"] for seat in loaded["seats"]]

    assert asyncio.run(migrated()) == [None, "Bo", None, "Medium bot 3", "Player 2"]
    with sa.create_engine(f"sqlite:///{path}").begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0005_company")
        stored = conn.execute(sa.text("SELECT config FROM game_tables WHERE code = 'OLD111'")).scalar_one()
        junk = conn.execute(sa.text("SELECT config FROM game_tables WHERE code = 'JUNK11'")).scalar_one()
    assert [seat["name"] for seat in json.loads(stored)["seats"]] == [
        "Player 1",
        "Bo",
        "Easy bot 3",
        "Medium bot 3",
        "Player 2",
    ]
    assert junk == "[1, 2]"


def test_two_actions_of_one_version_in_one_batch_store_one(database_url: str) -> None:
    async def scenario() -> tuple[list[object], list[str]]:
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        code = secrets.token_hex(3).upper()
        assert await storage.create_table(code, {})
        results = await asyncio.gather(
            storage.append_action(code, 1, "9-9"), storage.append_action(code, 1, "draw"), return_exceptions=True
        )
        table = await storage.load_table(code)
        await storage.close()
        assert table is not None
        return list(results), table[1]

    results, stored = asyncio.run(scenario())
    assert len(stored) == 1
    accepted = ["9-9", "draw"].index(stored[0])
    assert results[accepted] is None
    refused = results[1 - accepted]
    assert isinstance(refused, VersionTaken) and refused.version == 1


def test_a_connection_the_database_dropped_while_idle_is_replaced_before_use(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncpg

    monkeypatch.setattr("chickenfoot.server.storage.store.IDLE_TEST_SECONDS", 0.0)

    async def scenario() -> dict[str, object] | None:
        storage = Storage(pg_url, SystemClock())
        await storage.migrate()
        code = secrets.token_hex(3).upper()
        assert await storage.create_table(code, {"n": 1})
        async with storage.engine.connect() as conn:  # the pool's one connection, idle afterwards
            backend = (await conn.execute(sa.text("SELECT pg_backend_pid()"))).scalar()
        admin = await asyncpg.connect(pg_url.replace("postgresql+asyncpg", "postgresql"))
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", backend)
        await admin.close()
        config = await storage.load_config(code)  # tested on checkout, replaced: no failure
        available = storage.available
        await storage.close()
        assert available
        return config

    assert asyncio.run(scenario()) == {"n": 1}


def test_more_actions_than_one_statement_takes_are_written_in_several(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("chickenfoot.server.storage.store.MAX_BATCH", 2)

    async def scenario() -> tuple[list[object], list[list[str]]]:
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        codes = [secrets.token_hex(3).upper() for _ in range(5)]
        for code in codes:
            assert await storage.create_table(code, {})
        await storage.append_action(codes[4], 1, "9-9")
        results = await asyncio.gather(
            *(storage.append_action(code, 1, "draw") for code in codes), return_exceptions=True
        )
        tables = [await storage.load_table(code) for code in codes]
        await storage.close()
        return list(results), [table[1] for table in tables if table is not None]

    results, stored = asyncio.run(scenario())
    assert results[:4] == [None] * 4 and isinstance(results[4], VersionTaken)
    assert stored == [["draw"]] * 4 + [["9-9"]]


def test_a_batch_of_actions_is_stored_as_sqlalchemy_stores_one_and_a_refused_row_fails_alone(
    database_url: str,
) -> None:
    """The batch goes to the driver itself (server/storage/new_actions.py): its rows, times included,
    read back exactly as a row SQLAlchemy wrote, and a row the schema refuses (no such table) fails
    alone, the store still available."""
    at = datetime(2026, 5, 4, 3, 2, 1, 123456, tzinfo=UTC)

    async def scenario() -> tuple[list[object], list[tuple[object, ...]], bool]:
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        code = secrets.token_hex(3).upper()
        assert await storage.create_table(code, {})
        await storage.append_action(code, 1, "9-9", at)  # a batch of one
        results = await asyncio.gather(
            storage.append_action(code, 2, "draw", at),
            storage.append_action(secrets.token_hex(3).upper(), 1, "draw", at),  # no such table
            return_exceptions=True,
        )
        async with storage.transaction() as conn:
            await conn.execute(actions.insert().values(table_code=code, version=3, action="pass", at=at))
        query = sa.text("SELECT version, action, at FROM actions WHERE table_code = :code ORDER BY version")
        async with storage.reading() as conn:
            rows = [tuple(row) for row in await conn.execute(query, {"code": code})]
        available = storage.available
        await storage.close()
        return list(results), rows, available

    results, rows, available = asyncio.run(scenario())
    assert results[0] is None and isinstance(results[1], sa.exc.IntegrityError)
    assert [row[:2] for row in rows] == [(1, "9-9"), (2, "draw"), (3, "pass")]
    assert rows[0][2] == rows[2][2]  # the time as the database holds it: text on SQLite
    assert available


def test_a_full_batch_of_actions_is_stored_by_one_statement(database_url: str) -> None:
    """MAX_BATCH rows in one statement stay within the database's parameters (on SQLite four a row)."""

    async def scenario() -> tuple[list[object], list[str] | None]:
        storage = Storage(database_url, SystemClock())
        await storage.migrate()
        code = secrets.token_hex(3).upper()
        assert await storage.create_table(code, {})
        versions = range(1, MAX_BATCH + 1)
        results = await asyncio.gather(*(storage.append_action(code, v, "draw") for v in versions))
        table = await storage.load_table(code)
        await storage.close()
        return list(results), None if table is None else table[1]

    results, stored = asyncio.run(scenario())
    assert results == [None] * MAX_BATCH and stored == ["draw"] * MAX_BATCH


def test_reads_holding_every_reader_neither_stop_a_write_nor_take_the_store_down(
    sqlite_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's one writer has its own connection: a flood of reads waits for the readers, a read that
    finds none free is refused as ``StorageUnavailable`` (never a raw timeout), the write goes through,
    and the store is still judged up by its writer."""
    from chickenfoot.server.storage import StorageUnavailable, store
    from chickenfoot.testing.stores import copy_of

    monkeypatch.setattr(store, "READ_WAIT_SECONDS", 0.05)

    async def scenario() -> tuple[bool, bool, bool]:
        storage = Storage(copy_of(sqlite_template, tmp_path), SystemClock())
        code = secrets.token_hex(3).upper()
        assert await storage.create_table(code, {"n": 1})
        async with contextlib.AsyncExitStack() as readers:
            for _ in range(store.READERS):
                await readers.enter_async_context(storage.reading())
            try:
                await storage.secrets_of(code, "seat")
            except StorageUnavailable:
                refused = True
            await storage.append_action(code, 1, "next_round")
            answers = await storage._answers()
        stored = await storage.load_actions(code, 0)
        await storage.close()
        return refused, answers and storage.available, [a.action for a in stored] == ["next_round"]

    assert asyncio.run(scenario()) == (True, True, True)
