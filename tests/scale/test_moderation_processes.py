"""Moderation across processes: an operator acting at one process reaches the sockets that another serves.
A suspension ends the player's session-seated socket at once, a table ended at one process closes its
sockets at another, and a word added to the chat filter is in force at every process."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from chickenfoot.server.accounts.sessions import COOKIE
from chickenfoot.server.clock import SystemClock
from chickenfoot.server.edge.client import CLOSE_NO_TABLE, CLOSE_SIGNED_OUT
from chickenfoot.server.moderation.admin import set_operator

from .conftest import Fleet
from .test_processes import BOT, HUMAN, new_table

PASSWORD = "tile hub toe chicken"


async def signed_up(base: str, name: str) -> httpx.AsyncClient:
    """A client signed in as a new account ``name`` (its CSRF token among its headers)."""
    http = httpx.AsyncClient(base_url=base, timeout=30)
    made = await http.post("/api/account/signup", json={"username": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    http.headers["x-csrf-token"] = made.json()["csrf"]
    return http


async def first_state(ws: ClientConnection) -> dict[str, Any]:
    while (message := json.loads(await ws.recv()))["type"] != "state":
        pass
    return dict(message["state"])


async def closed_with(ws: ClientConnection) -> tuple[str, int | None]:
    """The code of the last error the socket was sent, and its close code."""
    error = ""
    async with asyncio.timeout(30):
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "error":
                    error = message["code"]
    return error, None if closed.value.rcvd is None else closed.value.rcvd.code


async def said(ws: ClientConnection, text: str) -> dict[str, Any]:
    await ws.send(json.dumps({"type": "chat", "text": text}))
    async with asyncio.timeout(30):
        while (message := json.loads(await ws.recv()))["type"] not in ("chat", "error"):
            pass
    return dict(message)


async def scenario(fleet: Fleet, database_url: str) -> None:
    here, there, third = fleet.ports[0], fleet.ports[1], fleet.ports[2]
    suffix = secrets.token_hex(3)
    operator_name, player_name = f"olga{suffix}", f"kim{suffix}"
    operator = await signed_up(fleet.base(here), operator_name)
    player = await signed_up(fleet.base(there), player_name)
    assert await set_operator(database_url, operator_name, True, clock=SystemClock()) is not None
    try:
        found = await operator.get("/api/admin/players", params={"name": player_name})
        player_id = found.json()["id"]
        made = await player.post("/api/tables", json={"seats": [BOT, HUMAN]})
        code = made.json()["code"]
        cookie = {"cookie": f"{COOKIE}={player.cookies[COOKIE]}"}

        # A word added at one process is in force at another (its socket is served there).
        async with connect(f"ws://127.0.0.1:{there}/ws/{code}", additional_headers=cookie) as ws:
            assert (await first_state(ws))["seat"] == 1
            word = "zq" + "".join(secrets.choice("bcdfghjkmnpqrvwxz") for _ in range(8))  # letters only
            added = await operator.post("/api/admin/words", json={"word": word})
            assert added.status_code == 201, added.text
            async with asyncio.timeout(30):
                while (await said(ws, f"{word} {secrets.token_hex(2)}")).get("code") != "moderation.filtered":
                    await asyncio.sleep(0.2)  # the other process reads the words once it hears they changed

            # Suspended at one process: the session-seated socket at another ends at once.
            suspended = await operator.post(
                f"/api/admin/players/{player_id}/suspend", json={"reason": "spam", "minutes": 60}
            )
            assert suspended.status_code == 200, suspended.text
            assert await closed_with(ws) == ("error.signed_out", CLOSE_SIGNED_OUT)

        # A table ended at one process: its sockets at two others are told and closed.
        table = await new_table(fleet.base(there), [HUMAN, BOT])
        async with (
            connect(f"ws://127.0.0.1:{there}{table.seats[0]}") as seated,
            connect(f"ws://127.0.0.1:{third}/ws/{table.code}") as watching,
        ):
            await first_state(seated)
            await first_state(watching)
            ended = await operator.post(f"/api/admin/tables/{table.code}/end", json={"reason": "abuse"})
            assert ended.status_code == 200, ended.text
            assert await closed_with(seated) == ("error.table_ended", CLOSE_NO_TABLE)
            assert await closed_with(watching) == ("error.table_ended", CLOSE_NO_TABLE)
        audit = (await operator.get("/api/admin/audit")).json()["lines"]
        assert [line["action"] for line in audit[:3]] == ["end_table", "suspend", "word_add"]
    finally:
        await operator.aclose()
        await player.aclose()


def test_an_operator_at_one_process_reaches_the_sockets_of_the_others(fleet: Fleet) -> None:
    asyncio.run(scenario(fleet, fleet.database_url))
