"""A table read back from storage covers a seat whose player is away, as a table that stayed in memory does.

The players close their pages and the table leaves memory (in the app, released by its last
connection; through a real ``chickenfoot serve``, stopped with the server); when someone connects
again, the absent seat is covered after the grace period and the table plays on without its player.
"""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from chickenfoot.server.table.config import Timing
from chickenfoot.testing.launch import free_port

from .conftest import Player, create_table, settle
from .test_restart import SyncSocket, create, seat, server

pytestmark = pytest.mark.timeout(120)

COVERED_WITHIN = Timing().grace + 30
"""Seconds to wait for a cover: the server's grace period, and then some for a loaded machine."""


class PatientSocket(SyncSocket):
    """A client that waits for the grace period to run out before it gives up on the next message."""

    def receive_json(self) -> Any:
        return json.loads(self.conn.recv(timeout=COVERED_WITHIN))


def watch(stack: ExitStack, port: int, code: str, token: str | None = None) -> Player:
    query = "" if token is None else f"?token={token}"
    conn = stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws/{code}{query}"))
    return Player(PatientSocket(conn))  # type: ignore[arg-type]


def until_turn(players: dict[int, Player], seat_: int, rng: random.Random) -> int:
    """Play random moves for the connected humans until ``seat_`` is to move; returns the version."""
    while True:
        state = settle(players)
        if state["to_move"] == seat_:
            return max(player.version for player in players.values())
        mover = players[state["to_move"]]
        version = mover.version
        mover.move(rng.choice(mover.state["legal"]))
        mover.until_state(lambda s, p=mover, v=version: p.version > v)


@pytest.mark.parametrize("friends", [False, True], ids=["against-bots", "with-a-friend"])
def test_a_table_released_from_memory_covers_its_absent_seat(client: TestClient, friends: bool) -> None:
    bot, human = {"kind": "bot", "bot": "greedy"}, {"kind": "human"}
    table = create_table(client, [human, human if friends else bot, bot], rounds=2)
    code, tokens = table["code"], [seat.get("token") for seat in table["seats"]]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with ExitStack() as stack:
        players = {
            s: Player(stack.enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[s]}")))
            for s in ((0, 1) if friends else (0,))
        }
        version = until_turn(players, 0, random.Random(29))
    client.get("/api/presets")  # let the server finish the disconnects
    assert code not in hub.tables  # released: everything is in storage
    with ExitStack() as stack:
        # A spectator, or the friend coming back; seat 0's player stays away (the grace time is 0 here).
        query = f"?token={tokens[1]}" if friends else ""
        back = Player(stack.enter_context(client.websocket_connect(f"/ws/{code}{query}")))
        after = back.until_state(lambda s: s["covered"][0] and s["to_move"] != 0)
        assert after["covered"] == [True, False, False] and back.version > version


@pytest.mark.slow  # real server processes, and the grace period of the real clock
def test_a_table_read_back_from_storage_covers_its_absent_seats(tmp_path: Path) -> None:
    database, port, rng = tmp_path / "games.db", free_port(), random.Random(29)
    ann, bo = {"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}
    bot = {"kind": "bot", "bot": "greedy"}
    with server(port, database):
        alone = create(port, {"seats": [ann, bot, bot], "rounds": 2})
        friends = create(port, {"seats": [ann, bo, bot], "rounds": 2})
        with ExitStack() as stack:
            human = {0: seat(stack, port, alone["code"], alone["seats"][0]["token"])}
            alone_version = until_turn(human, 0, rng)
        with ExitStack() as stack:
            both = {s: seat(stack, port, friends["code"], friends["seats"][s]["token"]) for s in (0, 1)}
            friends_version = until_turn(both, 0, rng)
    with server(port, database), ExitStack() as stack:
        spectator = watch(stack, port, alone["code"])
        bo_back = watch(stack, port, friends["code"], friends["seats"][1]["token"])
        # Ann stays away from both tables: a bot takes her turn once the grace period is over.
        after = spectator.until_state(lambda s: s["covered"][0] and s["to_move"] != 0)
        assert after["covered"] == [True, False, False]
        assert spectator.version > alone_version
        after = bo_back.until_state(lambda s: s["covered"][0] and s["to_move"] != 0)
        assert after["covered"][:2] == [True, False]
        assert bo_back.version > friends_version
