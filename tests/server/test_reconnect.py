"""Reconnecting: missed events or a snapshot, and a bot covering a seat whose player left."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient

from chickenfoot.server.clock import FakeClock
from chickenfoot.server.table.registry import Expiry

from .conftest import INSTANT, Player, create_table, forced, seat_players, settle

HUMAN = {"kind": "human"}


def public(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as every seat sees them: a draw shows its tile only to the seat that drew, and the end of
    a round is worded for the seat that went out (``_hidden`` and ``_you`` codes)."""
    return [
        {
            k: v.removesuffix("_hidden").removesuffix("_you") if k == "code" else v
            for k, v in event.items()
            if k != "tile"
        }
        for event in events
    ]


def test_reconnect_with_since_gets_what_was_missed(make_client: Callable[..., TestClient]) -> None:
    client = make_client(dataclasses.replace(INSTANT, grace=1000))
    table = create_table(client, [HUMAN, HUMAN])
    code, tokens = table["code"], [seat["token"] for seat in table["seats"]]
    rng = random.Random(5)
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        settle(players)
        left = players[0]
        last_seen = left.version
        left.ws.close()
        stayed = Player(stack.enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[1]}")))
        stayed.until_state(lambda s: not s["connected"][0])
        start = len(stayed.messages)
        # Seat 1 plays on; seat 0's turns wait for it (no bot covers it during the long grace).
        table_now = client.app.state.hub.tables[code]  # type: ignore[attr-defined]

        def pending() -> bool:
            """Seat 1 may move, or the server still owes a move (seat 0's forced draws and passes, which
            seat 1's view does not show, are made for it even while it is away)."""
            behind = stayed.version < table_now.version
            owed = table_now.match.round.forced_move() is not None
            return stayed.state["to_move"] == 1 or forced(stayed.state) or behind or owed

        while pending():
            version = stayed.version
            if stayed.version == table_now.version and stayed.state["to_move"] == 1 and not forced(stayed.state):
                stayed.move(rng.choice(stayed.state["legal"]))
            stayed.until_state(lambda s, v=version: stayed.version > v)
        missed = [e for m in stayed.messages[start:] if m["type"] == "state" for e in m["events"]]
        missed = [e for e in missed if e["kind"] not in ("connected", "disconnected")]
        with client.websocket_connect(f"/ws/{code}?token={tokens[0]}&since={last_seen}") as ws:
            back = Player(ws)
            first = back.receive()
            assert first["version"] == stayed.version
            assert public(first["events"]) == public(missed)
            own_draws = [e for e in first["events"] if e["kind"] == "draw" and e["seat"] == 0]
            assert all(e["code"] == "event.draw" and "tile" in e for e in own_draws)
            assert first["state"]["connected"][0] is True
        with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
            snapshot = ws.receive_json()
            assert snapshot["events"] == [] and snapshot["version"] == first["version"]
            assert snapshot["state"]["hand"] == first["state"]["hand"]
            assert snapshot["state"]["layout"] == first["state"]["layout"]
        for since in ("999999", str(2**53 - 1)):  # malformed ones are refused: test_bad_input
            with client.websocket_connect(f"/ws/{code}?token={tokens[0]}&since={since}") as ws:
                again = ws.receive_json()
                assert again["type"] == "state" and again["events"] == [] and again["version"] == first["version"]


def test_a_bot_covers_a_departed_seat_and_hands_it_back(client: TestClient) -> None:
    table = create_table(client, [HUMAN, HUMAN], rounds=1)
    code, tokens = table["code"], [seat["token"] for seat in table["seats"]]
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        state = settle(players)
        away = state["to_move"]
        players[away].ws.close()
        watcher = players[1 - away]
        # The grace time is 0 here: the seat is covered at once and its bot moves.
        watcher.until_state(lambda s: s["covered"][away] and not s["connected"][away])
        watcher.until_state(lambda s: s["to_move"] != away or s["round_over"] is not None)
        assert any(entry["seat"] == away for entry in watcher.state["log"][len(state["log"]) :])
        back = Player(stack.enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[away]}")))
        mine = back.until_state(lambda s: s["connected"][away])
        assert mine["covered"][away] is False and mine["seat"] == away
        watcher.until_state(lambda s: s["connected"][away] and not s["covered"][away])


def test_a_table_nobody_watches_pauses_and_leaves_memory(client: TestClient) -> None:
    table = create_table(client, [HUMAN, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}])
    code, token = table["code"], table["seats"][0]["token"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        player = Player(ws)
        state = settle({0: player})
        version = player.version
    client.get("/api/presets")  # let the server finish the disconnect
    assert code not in hub.tables  # released: everything is in storage
    summary = client.get(f"/api/tables/{code}").json()  # read back, and paused: nobody is connected
    assert summary["round"] == state["round"] and hub.tables[code].version == version
    with client.websocket_connect(f"/ws/{code}?token={token}&since={version}") as ws:
        back = Player(ws)
        first = back.receive()
        assert first["version"] == version and first["events"] == []
        assert first["state"]["hand"] == state["hand"] and first["state"]["layout"] == state["layout"]


def test_tables_nobody_connects_to_leave_memory_soon_after_their_last_use(
    make_client: Callable[..., TestClient],
) -> None:
    clock = FakeClock()
    client = make_client(expiry=Expiry(idle_seconds=3.0), clock=clock)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    code = create_table(client, [HUMAN, HUMAN], claim=False)["code"]  # the friend has not come yet
    watched = create_table(client, [HUMAN, HUMAN])["code"]
    with client.websocket_connect(f"/ws/{watched}") as ws:
        ws.receive_json()
        assert code in hub.tables and watched in hub.tables
        for _ in range(3):  # each use starts the wait again
            client.portal.call(clock.advance, 2.9)  # type: ignore[union-attr]
            assert code in hub.tables
            assert client.get(f"/api/tables/{code}").status_code == 200 and code in hub.tables
        client.portal.call(clock.advance, 3.0)  # type: ignore[union-attr]
        assert code not in hub.tables and watched in hub.tables  # watched: in use, it stays
    assert client.get(f"/api/tables/{code}").json()["status"] == "waiting"  # read back on demand
