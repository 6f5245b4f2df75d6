"""Continue on another device: a seat's single-use link moves its credential; the old device watches,
told why, and its credential opens the seat nowhere any more (the attacks of issue 27)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from chickenfoot.rules import Rules
from chickenfoot.server.clock import FakeClock
from chickenfoot.server.credentials import Credentials
from chickenfoot.server.edge.client import CLOSE_SEAT_ELSEWHERE
from chickenfoot.server.handover.store import HANDOVER_SECONDS, HandoverStore
from chickenfoot.server.storage import Storage
from chickenfoot.server.table.config import Seat, TableConfig

from .conftest import create_table


def offer(client: TestClient, code: str, token: str) -> dict[str, Any]:
    response = client.post(f"/api/tables/{code}/handover", json={"token": token})
    assert response.status_code == 200, response.text
    return dict(response.json())


def take(client: TestClient, code: str, link: str) -> Any:
    return client.post(f"/api/tables/{code}/handover/take", json={"handover": link.split("#handover=")[1]})


def first_state(client: TestClient, code: str, token: str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        message = ws.receive_json()
    assert message["type"] == "state", message
    return dict(message["state"])


def test_the_link_moves_the_seat_and_the_old_device_watches(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human"}, {"kind": "bot"}])
    code, old = table["code"], table["token"]
    with client.websocket_connect(f"/ws/{code}?token={old}") as laptop:
        assert laptop.receive_json()["state"]["seat"] == 0
        made = offer(client, code, old)
        assert made["link"].startswith(f"http://testserver/t/{code}#handover=")
        assert made["qr"].startswith("data:image/svg+xml") and made["seconds"] == HANDOVER_SECONDS
        moved = take(client, code, made["link"])
        assert moved.status_code == 200, moved.text
        phone = moved.json()
        assert phone["seat"] == 0 and phone["token"] != old
        # The laptop is told, then closed; it comes back watching, and is told why.
        while (message := laptop.receive_json())["type"] != "error":
            pass
        assert message["code"] == "error.seat_elsewhere"
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                laptop.receive_json()
        assert closed.value.code == CLOSE_SEAT_ELSEWHERE
    watching = first_state(client, code, old)
    assert watching["seat"] is None and watching["watching"] == {"reason": "seat_elsewhere"}
    assert first_state(client, code, phone["token"])["seat"] == 0
    assert "watching" not in first_state(client, code, phone["token"])


def test_a_moved_credential_and_a_spent_link_open_nothing(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human"}, {"kind": "bot"}])
    code, old = table["code"], table["token"]
    link = offer(client, code, old)["link"]
    assert take(client, code, link).status_code == 200
    # The link replayed, by the device that spent it or by a third party who saw it: refused.
    for headers in ({}, {"user-agent": "someone else", "x-forwarded-for": "203.0.113.9"}):
        refused = client.post(
            f"/api/tables/{code}/handover/take", json={"handover": link.split("#handover=")[1]}, headers=headers
        )
        assert (refused.status_code, refused.json()["code"]) == (403, "error.handover_used")
    # The old credential: no new link, no seat for an account, and its socket cannot move.
    again = client.post(f"/api/tables/{code}/handover", json={"token": old})
    assert (again.status_code, again.json()["code"]) == (403, "error.unknown_token")
    with client.websocket_connect(f"/ws/{code}?token={old}") as ws:
        state = ws.receive_json()["state"]
        assert state["seat"] is None
        ws.send_json({"type": "move", "move": state["legal"][0] if state["legal"] else "draw"})
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["code"].startswith("error.")
    # A made-up link, or one for another table, opens nothing either.
    assert take(client, code, f"/t/{code}#handover=guess").status_code == 403


def test_only_the_newest_link_works_and_a_seat_given_away_cannot_be_taken(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human"}, {"kind": "human"}])
    code, old = table["code"], table["token"]
    first, second = offer(client, code, old)["link"], offer(client, code, old)["link"]
    assert take(client, code, first).status_code == 403
    friend = table["seats"][1]
    link = offer(client, code, friend["token"])["link"]
    given = client.post(f"/api/tables/{code}/seats/1/bot", json={"token": old, "bot": "easy"})
    assert given.status_code == 200, given.text
    assert take(client, code, link).status_code == 403  # the seat's credential was revoked meanwhile
    assert take(client, code, second).status_code == 200


def test_a_link_expires(tmp_path: Any) -> None:
    async def scenario() -> tuple[object, object]:
        clock = FakeClock()
        storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", clock)
        await storage.migrate()
        try:
            config = TableConfig(Rules.preset("classic"), [Seat("human"), Seat("bot")], 1)
            await storage.create_table("ABCDEF", config.to_json())
            token = await Credentials(storage).issue_seat("ABCDEF", 0)
            assert token is not None
            handovers = HandoverStore(storage, clock)
            late, soon = await handovers.offer("ABCDEF", 0), None
            clock.advance(HANDOVER_SECONDS + 1)
            expired = await handovers.take("ABCDEF", late or "")
            soon = await handovers.offer("ABCDEF", 0)
            return expired, await handovers.take("ABCDEF", soon or "")
        finally:
            await storage.close()

    expired, taken = asyncio.run(scenario())
    assert expired is None
    assert taken is not None
