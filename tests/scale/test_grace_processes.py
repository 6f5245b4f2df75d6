"""A player's grace period shown at every process: the lease holder decides when a bot covers a seat
whose player has gone, and every process's clients are shown that deadline as a countdown."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from .conftest import Fleet
from .test_processes import HUMAN, new_table

# Six waits of WAIT_SECONDS at most; the fleet may be starting in the setup.
pytestmark = pytest.mark.timeout(300, func_only=True)

WAIT_SECONDS = 45.0
"""Each wait's bound: generous beside the 12 s grace, and it fails before the test's time limit,
so the failure says what was awaited and shows the fleet's logs."""

State = dict[str, Any]


def until(conn: ClientConnection, done: Callable[[State], bool], what: str) -> State:
    """Read states until one satisfies ``done``; fails naming ``what`` and the last state seen."""
    deadline = time.monotonic() + WAIT_SECONDS
    last: State | None = None
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = json.loads(conn.recv(timeout=left))
        except TimeoutError:
            break
        if message["type"] == "state":
            last = message["state"]
            if done(last):
                return dict(last)
    seen = None if last is None else {key: last.get(key) for key in ("status", "connected", "covered", "grace")}
    pytest.fail(f"{what}: not within {WAIT_SECONDS:.0f} s; the last state seen: {seen}")


def ws(fleet: Fleet, port: int, path: str) -> str:
    """The WebSocket address of ``path`` on the server at ``port``."""
    return fleet.base(port).replace("http://", "ws://") + path


def test_every_process_shows_the_grace_of_a_player_who_left(fleet: Fleet) -> None:
    first, second = fleet.ports[:2]
    table = asyncio.run(new_table(fleet.base(first), [HUMAN, HUMAN]))

    with ExitStack() as stack:
        stack.enter_context(connect(ws(fleet, first, table.seats[0])))
        bo = stack.enter_context(connect(ws(fleet, second, table.seats[1])))
        watchers = [stack.enter_context(connect(ws(fleet, port, f"/ws/{table.code}"))) for port in (first, second)]
        names = [f"the watcher on {name}" for name in ("the first process", "the second (Bo's)")]
        for watcher, name in zip(watchers, names, strict=True):
            until(watcher, lambda s: all(s["connected"]) and s["status"] == "playing", f"{name} sees both playing")
        bo.close()
        deadlines = [
            until(watcher, lambda s: s["grace"][1] is not None, f"{name} sees Bo's grace")["grace"][1]
            for watcher, name in zip(watchers, names, strict=True)
        ]
        assert deadlines[0] == deadlines[1]  # the lease holder's, wherever it is
        for watcher, name in zip(watchers, names, strict=True):
            assert until(watcher, lambda s: s["covered"][1], f"{name} sees Bo covered")["grace"] == [None, None]


def test_a_process_that_loads_the_table_during_a_grace_shows_its_countdown(fleet: Fleet) -> None:
    """The countdown lives in the lease holder's memory: a process that reads the table back after
    it began (or whose subscription broke meanwhile) asks the holder for it."""
    first, second = fleet.ports[:2]
    table = asyncio.run(new_table(fleet.base(first), [HUMAN, HUMAN]))

    with ExitStack() as stack:
        stack.enter_context(connect(ws(fleet, first, table.seats[0])))
        bo = stack.enter_context(connect(ws(fleet, first, table.seats[1])))
        here = stack.enter_context(connect(ws(fleet, first, f"/ws/{table.code}")))
        until(here, lambda s: all(s["connected"]) and s["status"] == "playing", "the watcher sees both playing")
        bo.close()  # the only process holding the table decides: it holds the lease
        deadline = until(here, lambda s: s["grace"][1] is not None, "the watcher sees Bo's grace")["grace"][1]
        late = stack.enter_context(connect(ws(fleet, second, f"/ws/{table.code}")))
        shown = until(late, lambda s: s["grace"][1] is not None or s["covered"][1], "the late watcher's countdown")
        assert shown["grace"][1] == deadline and not shown["covered"][1]
        assert until(late, lambda s: s["covered"][1], "the late watcher sees Bo covered")["grace"] == [None, None]
