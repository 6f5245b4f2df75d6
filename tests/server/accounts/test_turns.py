"""Turn-based tables over the API: made at creation (and refused losing on time with more than two), the
tables waiting for an account listed by the time left, and vacations within the days of a year."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient

from chickenfoot.server.table.config import DAY
from chickenfoot.testing.waiting import until

from .conftest import sign_up

PACE = {"move_seconds": DAY, "on_timeout": "move"}


def turn_based(client: TestClient, **pace: Any) -> dict[str, Any]:
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "easy"}], "pace": PACE | pace}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def test_a_turn_based_table_is_listed_for_its_player_by_the_time_left(accounts_client: TestClient) -> None:
    client = accounts_client
    sign_up(client, "ann")
    created = turn_based(client)
    assert created["pace"] == PACE and created["turn_timer"] is None
    assert client.get(f"/api/tables/{created['code']}").json()["pace"] == PACE
    waiting: dict[str, Any] = {}

    def listed() -> bool:  # the bot moves first, or not: either way the table then waits for Ann
        waiting.update(client.get("/api/turns").json())
        return bool(waiting["count"])

    asyncio.run(until(listed, 30, "the table waiting for Ann"))
    [entry] = waiting["tables"]
    assert entry["table"] == created["code"] and entry["seat"] == created["seat"]
    assert client.get("/api/turns", cookies={"chickenfoot_session": "nobody"}).status_code == 401


def test_losing_on_time_is_for_two_players(accounts_client: TestClient) -> None:
    body = {"seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}], "pace": PACE | {"on_timeout": "lose"}}
    refused = accounts_client.post("/api/tables", json=body)
    assert refused.status_code == 400 and refused.json()["code"] == "error.lose_on_time_two", refused.text
    odd = accounts_client.post("/api/tables", json=body | {"pace": {"move_seconds": 5}})
    assert odd.status_code == 400 and odd.json()["code"] != "error.lose_on_time_two"  # only the times offered


def test_a_vacation_counts_its_days_and_stands_the_clocks(accounts_client: TestClient) -> None:
    client = accounts_client
    sign_up(client, "bob")
    created = turn_based(client, on_timeout="lose")
    csrf = {"x-csrf-token": client.get("/api/account").json()["csrf"]}
    assert client.get("/api/vacation").json() == {"days_a_year": 30, "left": 30, "until": None}
    too_long = client.post("/api/vacation", json={"days": 31}, headers=csrf)
    assert too_long.status_code == 400
    away = client.post("/api/vacation", json={"days": 7}, headers=csrf)
    assert away.status_code == 200, away.text
    assert away.json()["left"] == 23 and away.json()["until"] is not None
    again = client.post("/api/vacation", json={"days": 1}, headers=csrf)
    assert again.status_code == 409 and again.json()["code"] == "error.vacation_days"
    with client.websocket_connect(f"/ws/{created['code']}?token={created['token']}") as ws:
        state = ws.receive_json()["state"]
    assert state["away"][created["seat"]][1] == away.json()["until"]  # everyone at the table sees it
    back = client.delete("/api/vacation", headers=csrf)
    assert back.json()["until"] is None and back.json()["left"] == 29  # a day begun counts as one
    assert client.post("/api/vacation", json={"days": 1}).status_code == 403  # a change needs the CSRF token
