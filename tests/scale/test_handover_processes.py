"""Continue on another device across processes: a link made at one process and spent at another
moves the seat, and the old device, connected to a third, is told and watches."""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from chickenfoot.server.edge.client import CLOSE_SEAT_ELSEWHERE

from .conftest import Fleet
from .test_processes import BOT, HUMAN, new_table


async def first_state(ws: ClientConnection) -> dict[str, Any]:
    while (message := json.loads(await ws.recv()))["type"] != "state":
        pass
    return dict(message["state"])


async def scenario(fleet: Fleet) -> None:
    maker, taker, old_home = fleet.ports[0], fleet.ports[1], fleet.ports[2]
    table = await new_table(fleet.base(maker), [HUMAN, BOT])
    path = table.seats[0]
    token = parse_qs(urlsplit(path).query)["token"][0]
    async with connect(f"ws://127.0.0.1:{old_home}{path}") as old:
        assert (await first_state(old))["seat"] == 0
        async with httpx.AsyncClient(timeout=30) as http:
            made = await http.post(f"{fleet.base(maker)}/api/tables/{table.code}/handover", json={"token": token})
            secret = made.json()["link"].split("#handover=")[1]
            taken = await http.post(
                f"{fleet.base(taker)}/api/tables/{table.code}/handover/take", json={"handover": secret}
            )
            assert taken.status_code == 200, taken.text
            replayed = await http.post(
                f"{fleet.base(old_home)}/api/tables/{table.code}/handover/take", json={"handover": secret}
            )
            assert (replayed.status_code, replayed.json()["code"]) == (403, "error.handover_used")
        async with asyncio.timeout(30):
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    message = json.loads(await old.recv())
                    if message["type"] == "error":
                        assert message["code"] == "error.seat_elsewhere"
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_SEAT_ELSEWHERE
    async with connect(f"ws://127.0.0.1:{old_home}{path}") as again:
        state = await first_state(again)
        assert state["seat"] is None and state["watching"] == {"reason": "seat_elsewhere"}
    new_path = f"/ws/{table.code}?token={taken.json()['token']}"
    async with connect(f"ws://127.0.0.1:{maker}{new_path}") as new:
        assert (await first_state(new))["seat"] == 0


def test_a_link_made_at_one_process_moves_the_seat_at_another(fleet: Fleet) -> None:
    asyncio.run(scenario(fleet))
