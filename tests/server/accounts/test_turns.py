"""Turn-based tables over the API: made at creation (and refused losing on time with more than two), the
tables waiting for an account listed by the time left (and right as soon as a move is acknowledged),
vacations within the days of a year, and a match lost on time served as finished on every road."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chickenfoot.match import Match
from chickenfoot.server.clock import FakeClock
from chickenfoot.server.table.config import DAY, HOUR, Timing
from chickenfoot.server.table.deadlines import DeadlineBook
from chickenfoot.server.table.ports import table_channel
from chickenfoot.server.turns.store import TurnStore, Waiting
from chickenfoot.testing.waiting import until, until_now

from ..conftest import Player
from .conftest import GENEROUS, sign_up

PACE = {"move_seconds": DAY, "on_timeout": "move"}


def turn_based(client: TestClient, rounds: int | None = None, **pace: Any) -> dict[str, Any]:
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "easy"}], "pace": PACE | pace}
    body |= {} if rounds is None else {"rounds": rounds}
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


def test_a_match_lost_on_time_is_finished_on_every_road(
    make_client: Callable[..., TestClient], no_accounts_yet: None
) -> None:
    """Ann lets her day run out at a table of two whose rule says she loses: the match is over for the server
    though not for the engine (its rounds are not all played). Its replay, each round's frames, its review,
    its record (saying who lost on time), her matches and her profile all serve it as finished."""
    clock = FakeClock()
    client = make_client(addresses=GENEROUS, clock=clock, review_budget=4)
    sign_up(client, "ann")
    created = turn_based(client, on_timeout="lose", rounds=2)
    code, seat = created["code"], created["seat"]
    finished = [f"/api/tables/{code}/{path}" for path in ("replay", "replay/1", "record", "review")]
    with client.websocket_connect(f"/ws/{code}?token={created['token']}") as ws:
        ann = Player(ws)
        waiting = ann.until_state(lambda s: s["to_move"] == seat and s["round_over"] is None and not s["forced"])
        assert [client.get(path).status_code for path in finished] == [403] * 4
        client.portal.call(clock.advance, DAY)  # type: ignore[union-attr]  # her day runs out
        over = ann.until_state(lambda s: s["status"] == "finished")
    assert over["lost_on_time"] == seat and over["match_over"] is None  # the engine's match goes on

    overview = served(client, f"/api/tables/{code}/replay")
    record = served(client, f"/api/tables/{code}/record")
    rounds, moves = len(overview["rounds"]), overview["rounds"][-1]["moves"]
    assert (rounds, moves) == (waiting["round"], len(record["rounds"][-1]["moves"]))
    assert overview["lost_on_time"] == {"seat": seat, "round": rounds, "move": moves, "at": waiting["turn_deadline"]}
    assert overview["winners"] == [1 - seat]
    assert overview["explanation"] == f"seat {seat} ran out of time and lost the match"
    frames = served(client, f"/api/tables/{code}/replay/{rounds}")["frames"]
    assert len(frames) == moves + 1 and frames[-1]["to_move"] == seat  # the position where her time ran out
    assert record["lost_on_time"] == seat and Match.from_record(record).to_move == seat  # the download says so

    review: dict[str, Any] = {}

    def reviewed() -> bool:
        review.update(client.get(f"/api/tables/{code}/review").json())
        assert review["status"] in ("queued", "running", "done"), review
        return review["status"] == "done"

    until_now(reviewed, 120, "the review of the match lost on time")
    assert [len(r["moves"]) for r in review["review"]["rounds"]][-1] == moves

    def listed() -> bool:  # its results are stored once the table has said the match is over
        return bool(client.get("/api/matches").json()["matches"][0]["result"])

    until_now(listed, 30, "the match lost on time in her history")
    [mine] = client.get("/api/matches").json()["matches"]
    assert (mine["code"], mine["over"], mine["result"], mine["lost_on_time"]) == (code, True, "lost", seat)
    assert mine["links"] == {"replay": f"/r/{code}", "review": f"/r/{code}#review"}
    assert mine["finished_at"] == datetime.fromtimestamp(waiting["turn_deadline"], UTC).isoformat(timespec="seconds")
    profile = client.get("/api/players/ann").json()
    assert (profile["played"], profile["won"], [m["code"] for m in profile["matches"]]) == (1, 0, [code])


def served(client: TestClient, path: str) -> dict[str, Any]:
    response = client.get(path)
    assert response.status_code == 200, response.text
    return dict(response.json())
