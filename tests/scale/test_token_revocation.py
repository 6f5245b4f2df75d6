"""A revoked API token ends its open streams at once, in every process: two servers over one PostgreSQL
and one Redis; the token is revoked on one, its bot's account and table streams are open on the other."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

from chickenfoot.testing.bot_accounts import PASSWORD, bot_token
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

from .conftest import RedisDaemon

STREAM = httpx.Timeout(30, read=30)
"""A stream that does not end within this after the revocation fails the test (it ends at once)."""


def lines_of(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """The stream's messages (keep-alive lines skipped)."""
    for line in response.iter_lines():
        if line:
            yield json.loads(line)


def test_a_revoked_token_ends_its_streams_in_every_process(
    scale_database: str, redis_daemon: RedisDaemon, tmp_path: Path
) -> None:
    name = f"rv{secrets.token_hex(4)}"
    with ExitStack() as stack:
        ports = [free_port(), free_port()]
        for port in ports:
            log = stack.enter_context((tmp_path / f"server-{port}.log").open("w"))
            stack.enter_context(
                served(port, scale_database, redis_url=redis_daemon.url, options=OPEN_LIMITS, output=log)
            )
        revoking, streaming = (f"http://127.0.0.1:{port}" for port in ports)
        token = bot_token(revoking, scale_database, name)
        bot = stack.enter_context(httpx.Client(base_url=streaming, headers={"Authorization": f"Bearer {token}"}))
        code = bot.post("/api/bot/tables", json={"opponents": [{"bot": "easy"}]}).json()["table"]
        events = lines_of(stack.enter_context(bot.stream("GET", "/api/bot/stream", timeout=STREAM)))
        assert next(events)["type"] == "hello"
        table = lines_of(stack.enter_context(bot.stream("GET", f"/api/bot/tables/{code}/stream", timeout=STREAM)))
        assert next(table)["type"] == "state"
        assert httpx.get(f"{streaming}/api/tables/{code}").json()["seats"][0]["connected"] is True

        owner = stack.enter_context(httpx.Client(base_url=revoking))
        assert owner.post("/api/account/signin", json={"username": name, "password": PASSWORD}).status_code == 200
        csrf = {"x-csrf-token": owner.get("/api/account").json()["csrf"]}
        (minted,) = owner.get("/api/account/tokens").json()["tokens"]
        assert owner.delete(f"/api/account/tokens/{minted['id']}", headers=csrf).status_code == 200

        # Each stream's last line says why it ends, and then it ends: no state, no event after it.
        assert list(events)[-1]["code"] == "botapi.token_revoked"
        last = list(table)[-1]
        assert (last["type"], last["code"]) == ("error", "botapi.token_revoked")
        # The other process forgot the token at once (not after its few seconds of trust).
        refused = bot.get("/api/bot/account")
        assert (refused.status_code, refused.json()["code"]) == (401, "botapi.bad_token")
        # The seat is absent like any other: nobody connected, so the usual grace and cover apply.
        assert httpx.get(f"{streaming}/api/tables/{code}").json()["seats"][0]["connected"] is False
