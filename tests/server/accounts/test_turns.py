"""Turn-based tables over the API: made at creation (and refused losing on time with more than two), the
tables waiting for an account listed by the time left (and right as soon as a move is acknowledged), and
vacations within the days of a year."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chickenfoot.server.clock import FakeClock
from chickenfoot.server.table.config import DAY, HOUR, Timing
from chickenfoot.server.table.deadlines import DeadlineBook
from chickenfoot.server.table.ports import table_channel
from chickenfoot.server.turns.store import TurnStore, Waiting
from chickenfoot.testing.waiting import until

from ..conftest import Player
from .conftest import GENEROUS, sign_up

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


def test_the_count_of_tables_waiting_is_right_as_soon_as_a_move_is_acknowledged(
    make_client: Callable[..., TestClient], no_accounts_yet: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the table waits for is stored before the move is told: the top bar, asking ``/api/turns`` as soon
    as the move is acknowledged, reads the table waiting for whom the acknowledged state says. A deadline stored
    after the move was told is held back until the count has been asked (it would be read stale)."""
    clock = FakeClock()
    paused = Timing(bot_delay=60, forced_delay=60, next_round_delay=60, grace=0, bot_seconds=0.05)
    client = make_client(addresses=GENEROUS, timing=paused, clock=clock)
    sign_up(client, "ann")
    created = turn_based(client)
    code, seat = created["code"], created["seat"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    told: set[int] = set()  # the versions whose news went out to the table's connections
    moved: list[int] = []  # the version of Ann's move, once she makes it
    asked = asyncio.Event()  # the count was asked after her move
    keep, waiting = DeadlineBook.keep, TurnStore.waiting

    async def kept_once_told(book: DeadlineBook, table: str, version: int, due: float | None, to: int | None) -> None:
        if version in moved and version in told:
            await asked.wait()
        await keep(book, table, version, due, to)

    async def counted(store: TurnStore, account_id: int, limit: int) -> list[Waiting]:
        answer = await waiting(store, account_id, limit)
        if moved:
            asked.set()
        return answer

    monkeypatch.setattr(DeadlineBook, "keep", kept_once_told)
    monkeypatch.setattr(TurnStore, "waiting", counted)
    client.portal.call(hub.fanout.subscribe, table_channel(code), lambda m: told.add(m.get("version")))  # type: ignore[union-attr]
    with client.websocket_connect(f"/ws/{code}?token={created['token']}") as ws:
        ann = Player(ws)
        state = ann.until_state(lambda s: True)
        while not (state["to_move"] == seat and state["round_over"] is None and state["forced"] is None):
            before = ann.version
            client.portal.call(clock.advance, 60)  # type: ignore[union-attr]  # the bot's (or a forced) move is due
            state = ann.until_state(lambda s, v=before: ann.version > v)
        client.portal.call(clock.advance, HOUR)  # type: ignore[union-attr]  # her next deadline differs from this one
        plays = [move for move in state["legal"] if move not in ("draw", "pass")]
        moved.append(ann.version + 1)
        ann.move((plays or state["legal"])[0])
        state = ann.until_state(lambda s: ann.version >= moved[0])
        answer = client.get("/api/turns").json()
    hers = state["to_move"] == seat and state["round_over"] is None and state["forced"] is None
    expected = [{"table": code, "seat": seat, "due": state["turn_deadline"]}] if hers else []
    assert answer == {"count": len(expected), "tables": expected}
