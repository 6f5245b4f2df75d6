"""Notifications across processes: two servers over one PostgreSQL and one Redis send from one outbox. A
server killed in the middle of sending an e-mail loses it to nobody (the other sends it once its lease has
run out, and only once), and invitations told through both servers reach the device and the mailbox once
each."""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from chickenfoot.server.notifications.schema import notification_outbox
from chickenfoot.testing.bot_accounts import PASSWORD, bot_token
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served
from chickenfoot.testing.mail import MailCatcher, body, links
from chickenfoot.testing.push import PushService

from .conftest import RedisDaemon

ORIGIN = "http://chickenfoot.test"
LEASE_SECONDS = 3


@pytest.fixture
def catcher() -> Iterator[MailCatcher]:
    with MailCatcher() as mail:
        yield mail


@pytest.fixture
def push_service() -> Iterator[PushService]:
    with PushService() as service:
        yield service


class Servers:
    def __init__(self, database_url: str, redis_url: str, catcher: MailCatcher, push: PushService, logs: Path) -> None:
        self.database_url, self.redis_url, self.logs = database_url, redis_url, logs
        self.options = [
            *OPEN_LIMITS,
            *("--smtp-url", catcher.url, "--public-origin", ORIGIN, "--push-service", push.origin),
            *("--outbox-lease", str(LEASE_SECONDS), "--outbox-poll", "0.5", "--digest-minutes", "0.05"),
        ]
        self.stacks: dict[int, ExitStack] = {}

    def start(self) -> int:
        port, stack = free_port(), ExitStack()
        log = stack.enter_context((self.logs / f"server-{port}.log").open("a"))
        stack.enter_context(
            served(port, self.database_url, redis_url=self.redis_url, options=self.options, timeout=60, output=log)
        )
        self.stacks[port] = stack
        return port

    def kill(self, port: int) -> None:
        self.stacks.pop(port).close()  # SIGKILL: nothing is finished, nothing is said

    def close(self) -> None:
        for stack in self.stacks.values():
            stack.close()


@pytest.fixture
def servers(
    scale_database: str, redis_daemon: RedisDaemon, catcher: MailCatcher, push_service: PushService, tmp_path: Path
) -> Iterator[Servers]:
    """The test's processes, over a Redis of their own: the limits they keep there by account are counted
    by the ids of this session's database, which an earlier session's (within the hour) or the other
    worker's database gives to other accounts."""
    running = Servers(scale_database, redis_daemon.url, catcher, push_service, tmp_path)
    try:
        yield running
    finally:
        running.close()


def outbox_row(database_url: str, account_name_address: str) -> tuple[str | None, int]:
    """The outcome and tries of the confirmation e-mail sent to ``account_name_address``."""

    async def read() -> tuple[str | None, int]:
        engine = create_async_engine(database_url)
        try:
            async with engine.connect() as conn:
                query = sa.select(notification_outbox.c.outcome, notification_outbox.c.attempts).where(
                    notification_outbox.c.purpose == "verify",
                    notification_outbox.c.payload.contains(account_name_address),
                )
                outcome, attempts = (await conn.execute(query)).one()
                return outcome, int(attempts)
        finally:
            await engine.dispose()

    return asyncio.run(read())


@contextmanager
def signed_in(base: str, name: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=30) as client:
        answer = client.post("/api/account/signin", json={"username": name, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
        client.headers["x-csrf-token"] = answer.json()["csrf"]
        yield client


def test_a_server_killed_while_sending_loses_nothing_and_nothing_is_sent_twice(
    servers: Servers, catcher: MailCatcher, push_service: PushService, scale_database: str
) -> None:
    first, second = servers.start(), servers.start()
    suffix = secrets.token_hex(3)
    inviter, player = f"inv{suffix}", f"ann{suffix}"
    inviter_token = bot_token(f"http://127.0.0.1:{first}", scale_database, inviter)
    bot_token(f"http://127.0.0.1:{first}", scale_database, player)
    address = f"{player}@example.org"
    catcher.holding.set()  # the mail server takes the message's recipient, then waits
    with signed_in(f"http://127.0.0.1:{first}", player) as ann:
        assert ann.post("/api/notifications/email", json={"address": address}).status_code == 202
        assert catcher.held.wait(30)  # the first server is in the middle of sending it
    servers.kill(first)
    catcher.holding.clear()
    [mail] = catcher.wait_for(1, timeout=60)  # the second server sends it once the lease ran out
    assert mail["To"] == address
    assert outbox_row(scale_database, address) == ("sent", 2)  # finished: nobody sends it again
    secret = urlsplit(links(mail)[0]).fragment.removeprefix("confirm=")
    with signed_in(f"http://127.0.0.1:{second}", player) as ann:
        assert ann.post("/api/notifications/email/confirm", json={"link": secret}).status_code == 200
        device = push_service.device(player)
        assert ann.post("/api/notifications/subscriptions", json=device.subscription()).status_code == 201
    third = servers.start()
    tables = []
    for port in (second, third, second, third):  # invitations told by both servers, sent by whichever claims
        made = httpx.post(
            f"http://127.0.0.1:{port}/api/bot/tables",
            json={"opponents": [{"account": player}], "rounds": 1},
            headers={"authorization": f"Bearer {inviter_token}"},
            timeout=30,
        )
        assert made.status_code == 201, made.text
        tables.append(made.json()["table"])
    pushes = push_service.wait_for(4, timeout=60)
    assert sorted(push.payload["table"] for push in pushes) == sorted(tables)
    mailed: Counter[str] = Counter()
    while sum(mailed.values()) < len(tables):  # the digests, however many, say each invitation once
        catcher.wait_for(len(catcher.messages) + 1, timeout=60)
        mailed = Counter(
            code for digest in catcher.messages[1:] for code in tables if f"invites you to table {code}" in body(digest)
        )
    assert set(mailed) == set(tables) and set(mailed.values()) == {1}
    assert all(count == 1 for count in Counter(m["Message-ID"] for m in catcher.messages).values())
