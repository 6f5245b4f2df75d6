"""The outbox shared by several processes: each row is claimed by one worker at a time and sent once; a
worker that dies holding rows leaves them to another once their lease has run out; failures are tried
again later, waiting longer each time, and given up at last (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import timedelta

import pytest

from chickenfoot.server.accounts.store import AccountStore
from chickenfoot.server.clock import FakeClock, utc
from chickenfoot.server.notifications.outbox import Deliver, Done, Outbox, OutboxSettings
from chickenfoot.server.notifications.store import NotificationStore, Outgoing
from chickenfoot.server.storage import Storage

SETTINGS = OutboxSettings(lease_seconds=60, batch=20, retry_seconds=10, attempts=3, background=False)


async def outbox_of(database_url: str, clock: FakeClock, rows: int) -> tuple[Storage, NotificationStore]:
    storage = Storage(database_url, clock)
    await storage.migrate()
    account = await AccountStore(storage).create("outboxer", "handle-outboxer", utc(clock))
    assert account is not None
    store = NotificationStore(storage)
    for number in range(rows):
        await store.mail_row(account.id, "recover", {"to": f"{number}@example.org"}, utc(clock))
    return storage, store


def recorder(sent: Counter[int], outcome: str = "sent") -> Deliver:
    async def deliver(row: Outgoing) -> Done:
        sent[row.id] += 1
        await asyncio.sleep(0)  # another worker may claim meanwhile
        return Done(outcome)

    return deliver


@pytest.mark.usefixtures("no_accounts_yet")
def test_two_workers_send_every_row_once(database_url: str) -> None:
    async def scenario() -> Counter[int]:
        clock, sent = FakeClock(), Counter[int]()
        storage, store = await outbox_of(database_url, clock, 30)
        try:
            workers = [Outbox(store, clock, SETTINGS, recorder(sent)) for _ in range(2)]
            while await asyncio.gather(*(worker.run_once() for worker in workers)) != [0, 0]:
                pass
        finally:
            await storage.close()
        return sent

    sent = asyncio.run(scenario())
    assert len(sent) == 30 and set(sent.values()) == {1}


@pytest.mark.usefixtures("no_accounts_yet")
def test_rows_held_by_a_worker_that_died_are_sent_by_another_once_its_lease_runs_out(database_url: str) -> None:
    async def scenario() -> tuple[int, int, int, Counter[int]]:
        clock, sent = FakeClock(), Counter[int]()
        storage, store = await outbox_of(database_url, clock, 3)
        try:
            now = utc(clock)
            held = await store.claim("dead-worker", now, now + timedelta(seconds=SETTINGS.lease_seconds), 10)
            alive = Outbox(store, clock, SETTINGS, recorder(sent))
            during = await alive.run_once()
            clock.advance(SETTINGS.lease_seconds - 1)
            before = await alive.run_once()
            clock.advance(1)
            after = await alive.run_once()
            assert await alive.run_once() == 0
        finally:
            await storage.close()
        return len(held), during + before, after, sent

    held, during, after, sent = asyncio.run(scenario())
    assert (held, during, after) == (3, 0, 3) and set(sent.values()) == {1}


@pytest.mark.usefixtures("no_accounts_yet")
def test_a_failing_row_is_tried_again_later_and_given_up_at_last(database_url: str) -> None:
    async def scenario() -> list[int]:
        clock, sent = FakeClock(), Counter[int]()
        storage, store = await outbox_of(database_url, clock, 1)
        worker = Outbox(store, clock, SETTINGS, recorder(sent, "retry"))
        claimed = []
        try:
            for wait in (0, 9, 1, 19, 1, 40, 3600):  # tried at 0, 10 and 30 s; given up after the third
                clock.advance(wait)
                claimed.append(await worker.run_once())
        finally:
            await storage.close()
        return claimed

    assert asyncio.run(scenario()) == [1, 0, 1, 0, 1, 0, 0]
