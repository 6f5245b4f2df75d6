"""Fixtures of the server tests: an in-process app over SQLite or PostgreSQL, and scripted players."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from chickenfoot.server import Settings, create_app
from chickenfoot.server.edge.client import ConnectionLimits
from chickenfoot.server.http.limits import AddressLimits
from chickenfoot.server.table.config import Timing
from chickenfoot.server.table.protocol import whole_log
from chickenfoot.testing.clients import new_table
from chickenfoot.testing.stores import copy_of

INSTANT = Timing(bot_delay=0, forced_delay=0, next_round_delay=0, grace=0, bot_seconds=0.05)
"""Automatic play without pauses (a disconnected seat is covered at once)."""

State = dict[str, Any]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated store: a SQLite file of the test's own, or the session's PostgreSQL database
    (shared by the session's tests: codes are random, and tests that need no accounts empty them).
    PostgreSQL's are in the slow tier: the fast one is a developer's loop, and CI runs both."""
    if request.param == "sqlite":
        return copy_of(request.getfixturevalue("sqlite_template"), tmp_path)
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def make_client(database_url: str) -> Iterator[Callable[..., TestClient]]:
    """Start an app (with instant automatic play unless told otherwise) and close it afterwards."""
    clients: list[TestClient] = []

    def make(timing: Timing = INSTANT, **settings: Any) -> TestClient:
        # Scripted players are faster than people: the limits have their own tests. A fake clock moved
        # on by hand must not find a send still in flight (read, not yet marked done) "not read".
        limits = ConnectionLimits(rate_burst=10_000, rate_per_second=10_000.0, send_timeout=3600.0)
        settings = {"connection": limits, **settings}
        settings = {
            "addresses": AddressLimits("10000/second", "10000/second", cutoff=None, chat="10000/second"),
            **settings,
        }
        client = TestClient(create_app(Settings(database_url=database_url, timing=timing, **settings)))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()


def create_table(client: TestClient, seats: list[dict[str, Any]], claim: bool = True, **extra: Any) -> dict[str, Any]:
    """Create a table; with ``claim`` every invite is claimed, each human seat lists its ``token``
    and every player has pressed Ready (the match has begun)."""
    return new_table(client, {"seats": seats, **extra}, claim)


def ready(client: TestClient, code: str, token: str) -> None:
    """The player of ``token`` presses Ready."""
    response = client.post(f"/api/tables/{code}/ready", json={"token": token})
    assert response.status_code == 200, response.text


def claim_invite(client: TestClient, invite: str, name: str | None = None) -> dict[str, Any]:
    """Claim an invite link (``/t/CODE?invite=CLAIM``) as the invited friend: their seat and credential."""
    code, claim = invite.removeprefix("/t/").split("?invite=")
    response = client.post(f"/api/tables/{code}/claim", json={"invite": claim, "name": name})
    assert response.status_code == 200, response.text
    return dict(response.json())


class Player:
    """One WebSocket client that records every message it receives."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.state: State = {}
        self.version = -1

    def receive(self) -> dict[str, Any]:
        message = dict(self.ws.receive_json())
        if message["type"] == "state":
            message["state"] = whole_log(message["state"], self.state or None)
            self.state, self.version = message["state"], message["version"]
        self.messages.append(message)
        return message

    def until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read messages until one satisfies ``done``; returns it."""
        while True:
            message = self.receive()
            if done(message):
                return message

    def until_state(self, done: Callable[[State], bool]) -> State:
        if self.state and done(self.state):
            return self.state
        self.until(lambda m: m["type"] == "state" and done(m["state"]))
        return self.state

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def move(self, move: str) -> None:
        self.send({"type": "move", "move": move, "version": self.version})


def settled(state: State) -> bool:
    """Nothing automatic is pending: a human is to move, or the round (or match) waits for a human."""
    if state["match_over"] is not None:
        return True
    if state["round_over"] is not None:
        return "bot" not in state["kinds"] and not any(state["covered"])
    seat = state["to_move"]
    return state["kinds"][seat] == "human" and not state["covered"][seat]


def forced(state: State) -> bool:
    """The seat to move has only a draw or a pass: the server makes it for them."""
    return len(state["legal"]) == 1 and state["legal"][0] in ("draw", "pass")


def settle(players: dict[int, Player]) -> State:
    """Read until every player is at the same version and only a human's choice can move the table on."""
    while True:
        for player in players.values():
            player.until_state(settled)
        version = max(player.version for player in players.values())
        for player in players.values():
            player.until_state(lambda s, p=player, v=version: p.version >= v and settled(s))
        if any(player.version != version for player in players.values()):
            continue  # something happened meanwhile: settle again
        state = next(iter(players.values())).state
        mover = players.get(state["to_move"])
        if state["round_over"] is None and mover is not None and forced(mover.state):
            mover.until_state(lambda s, p=mover, v=version: p.version > v)
            continue
        return state


def play_out(players: dict[int, Player], rng: random.Random) -> State:
    """Drive the seated players with random legal moves until the match ends."""
    anyone = next(iter(players.values()))
    while True:
        state = settle(players)
        if state["match_over"] is not None:
            return state
        if state["round_over"] is not None:
            anyone.send({"type": "next_round"})
            anyone.until_state(lambda s, r=state["round"]: s["round"] > r)
            continue
        mover = players[state["to_move"]]
        version = mover.version
        mover.move(rng.choice(mover.state["legal"]))
        reply = mover.until(lambda m, v=version: m["type"] == "error" or (m["type"] == "state" and m["version"] > v))
        assert reply["type"] == "state", reply


def seat_players(client: TestClient, table: dict[str, Any], stack: ExitStack) -> dict[int, Player]:
    """Connect every human seat of a created table (entered on ``stack``, an ExitStack)."""
    players = {}
    for seat in table["seats"]:
        if seat["kind"] == "human":
            ws = stack.enter_context(client.websocket_connect(f"/ws/{table['code']}?token={seat['token']}"))
            players[seat["seat"]] = Player(ws)
    return players
