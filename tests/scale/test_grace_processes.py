"""A player's grace period shown at every process: the lease holder decides when a bot covers a seat
whose player has gone, and every process's clients are shown that deadline as a countdown."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from .conftest import Fleet
from .test_processes import HUMAN, new_table

pytestmark = pytest.mark.timeout(120, func_only=True)  # the fleet may be starting in its setup

State = dict[str, Any]


def until(conn: ClientConnection, done: Callable[[State], bool]) -> State:
    """Read states until one satisfies ``done`` (each within the grace and then some)."""
    while True:
        message = json.loads(conn.recv(timeout=60))
        if message["type"] == "state" and done(message["state"]):
            return dict(message["state"])


def test_every_process_shows_the_grace_of_a_player_who_left(fleet: Fleet) -> None:
    first, second = fleet.ports[:2]
    table = asyncio.run(new_table(fleet.base(first), [HUMAN, HUMAN]))

    def ws(port: int, path: str) -> str:
        return fleet.base(port).replace("http://", "ws://") + path

    with ExitStack() as stack:
        stack.enter_context(connect(ws(first, table.seats[0])))
        bo = connect(ws(second, table.seats[1]))
        watchers = [stack.enter_context(connect(ws(port, f"/ws/{table.code}"))) for port in (first, second)]
        for watcher in watchers:
            until(watcher, lambda s: all(s["connected"]) and s["status"] == "playing")
        bo.close()
        deadlines = [until(watcher, lambda s: s["grace"][1] is not None)["grace"][1] for watcher in watchers]
        assert deadlines[0] == deadlines[1]  # the lease holder's, wherever it is
        for watcher in watchers:
            assert until(watcher, lambda s: s["covered"][1])["grace"] == [None, None]
