"""The accounts' storage over SQLite and PostgreSQL: look-alike names, sessions, one-time challenges, seats."""

from __future__ import annotations

import asyncio
import secrets
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from chickenfoot.server.accounts.names import NAME_HELD, skeleton
from chickenfoot.server.accounts.schema import account_seats
from chickenfoot.server.accounts.store import AccountStore, LastWayIn, Passkey, Session
from chickenfoot.server.clock import SystemClock
from chickenfoot.server.storage import Storage

NOW = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)


async def fresh(url: str) -> tuple[Storage, AccountStore]:
    storage = Storage(url, SystemClock())
    await storage.migrate()
    for code in ("T1", "T2"):  # the tables its seats are at (the database may have them from an earlier run)
        await storage.create_table(code, {})
    store = AccountStore(storage)
    storage.keep_seats_with(store)  # as the server does: a seat given away follows its account no more
    return storage, store


def name(text: str) -> tuple[str, str]:
    return text, secrets.token_urlsafe(32)


def test_accounts_sessions_challenges_and_seats(database_url: str) -> None:
    async def scenario() -> None:
        storage, store = await fresh(database_url)
        try:
            alice = await store.create(*name("alice"), NOW, "hash-of-alice")
            assert alice is not None
            assert await store.create(*name("ALICE"), NOW) is None  # one skeleton, one account
            assert await store.create(*name("аlice"), NOW) is None  # a Cyrillic а
            assert await store.create(*name("bob"), NOW) is not None
            assert await store.create(*name("ВОВ"), NOW) is None  # Cyrillic capitals
            assert (await store.sign_in_facts(skeleton("alice")))[1] == "hash-of-alice"
            assert await store.sign_in_facts(skeleton("nobody")) == (None, None)

            with pytest.raises(LastWayIn):
                await store.drop_password(alice.id)  # no passkey: the password is the last way in
            key = Passkey("cred-1", alice.id, b"key", 0, ["internal"], "", NOW, None)
            assert await store.add_passkey(key)
            assert not await store.add_passkey(key)
            await store.drop_password(alice.id)
            with pytest.raises(LastWayIn):
                await store.drop_passkey(alice.id, "cred-1")

            live = Session("d" * 64, alice.id, NOW, NOW, NOW + timedelta(days=1), NOW + timedelta(days=2), "ua")
            await store.add_session(live, None)
            assert (await store.session("d" * 64)) == live
            assert [s.digest for s in await store.sessions_of(alice.id, NOW)] == ["d" * 64]
            assert await store.sessions_of(alice.id, NOW + timedelta(days=1)) == []  # idle too long

            await store.put_challenge("c" * 64, "reset", {"x": 1}, NOW + timedelta(minutes=5), alice.id)
            assert await store.take_challenge("c" * 64, "sign_in", NOW) is None  # another purpose
            assert await store.take_challenge("c" * 64, "reset", NOW) == (alice.id, {"x": 1})
            assert await store.take_challenge("c" * 64, "reset", NOW) is None  # used
            await store.put_challenge("e" * 64, "reset", {}, NOW + timedelta(minutes=5), alice.id)
            assert await store.take_challenge("e" * 64, "reset", NOW + timedelta(minutes=5)) is None  # expired

            await store.sit("T1", 2, alice.id)
            assert await store.seat_at("T1", alice.id) == 2
            await storage.drop_secrets("T1", 2)  # the seat went to someone else or to a bot
            assert await store.seat_at("T1", alice.id) is None

            await store.sit("T2", 0, alice.id)
            await store.delete(alice.id, NOW)
            assert await store.by_id(alice.id) is None
            assert await store.session("d" * 64) is None
            assert await store.passkey("cred-1") is None
            assert await store.create(*name("alice"), NOW) is None  # the name is held for a while
            assert await store.create(*name("alice"), NOW + NAME_HELD) is not None  # then free again
            async with storage.reading() as conn:  # the seat it sat in stays: "deleted player"
                kept = await conn.execute(
                    sa.select(account_seats.c.account_id).where(account_seats.c.table_code == "T2")
                )
            assert kept.scalars().all() == [alice.id]
        finally:
            await storage.close()

    asyncio.run(scenario())


def test_a_deleted_accounts_name_is_held_then_free(database_url: str) -> None:
    async def scenario() -> None:
        storage, store = await fresh(database_url)
        try:
            gus = await store.create(*name("gus"), NOW)
            assert gus is not None
            await store.delete(gus.id, NOW)
            assert await store.by_skeleton(skeleton("gus")) is None
            for look_alike in ("gus", "GUS", "ｇｕｓ"):
                assert await store.look_alike_exists(look_alike, NOW + NAME_HELD - timedelta(seconds=1))
                assert await store.create(*name(look_alike), NOW + NAME_HELD - timedelta(seconds=1)) is None
            assert not await store.look_alike_exists("gus", NOW + NAME_HELD)
            again = await store.create(*name("ｇｕｓ"), NOW + NAME_HELD)
            assert again is not None and again.id != gus.id
            assert await store.create(*name("gus"), NOW + NAME_HELD) is None  # the new account has it now
        finally:
            await storage.close()

    asyncio.run(scenario())
