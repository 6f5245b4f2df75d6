"""A table read back from storage covers a seat whose player is away, as a table that stayed in memory does.

Through a real ``chickenfoot serve``: the players close their pages, the server stops (so the table
can only come back from storage), and when someone connects to the restarted server, the absent seat
is covered after the grace period and the table plays on without its player.
"""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from chickenfoot.server.table_config import Timing
from chickenfoot.testing.launch import free_port

from .conftest import Player, settle
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
