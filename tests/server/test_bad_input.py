"""Bad input over the WebSocket: an error to that client only, nothing changes, the server serves on."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from chickenfoot.i18n import render_wire
from chickenfoot.server.edge.client import ConnectionLimits

from .conftest import Player, create_table, seat_players, settle

HUMAN = {"kind": "human"}


def two_seats(client: TestClient, stack: ExitStack) -> tuple[dict[str, Any], dict[int, Player], Player]:
    table = create_table(client, [HUMAN, HUMAN])
    players = seat_players(client, table, stack)
    settle(players)
    spectator = Player(stack.enter_context(client.websocket_connect(f"/ws/{table['code']}")))
    spectator.until_state(lambda s: True)
    return table, players, spectator


def refused(player: Player, send: Callable[[], None]) -> str:
    """Send something bad; returns the error, after checking the table did not change."""
    before, version = player.state, player.version
    send()
    error = player.until(lambda m: m["type"] == "error")
    assert {"type", "message"} <= set(error) and "\n" not in error["message"]
    if set(error) != {"type", "message"}:  # a refusal the engine words has its code and parameters
        assert render_wire(error, "lt") and render_wire(error, "en")
    player.send({"type": "ping"})
    player.until(lambda m: m["type"] == "pong")  # still served
    assert player.version == version and player.state["layout"] == before["layout"]
    return str(error["message"])


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"move": "9-9"}', 'needs a "type"'),
        ('{"type": "dance"}', "unknown message type 'dance'"),
        ('{"type": "move", "version": 0}', "field 'move'"),
        ('{"type": "move", "move": "9-9"}', "field 'version'"),
        ('{"type": "move", "move": "9-9", "version": "0"}', "field 'version'"),
        ('{"type": "move", "move": {"tile": [[["9-9"]]]}, "version": 0}', "field 'move'"),
        ('{"type": "move", "move": "9-9", "version": ' + "9" * 4000 + "}", "field 'version'"),
        ('{"type": "move", "move": "9-9", "version": 0, "extra": 1}', "field 'extra'"),
        ("[" * 2000 + "]" * 2000, "not valid JSON"),
        ('{"type": "move", "move": "banana", "version": 0}', "bad move 'banana'"),
        ('{"type": "move", "move": "9-4@9-4", "version": 0}', "bad move '9-4@9-4': a tile cannot go on itself"),
        ('"\\ud800"', "not valid JSON"),
    ],
)
def test_malformed_messages(client: TestClient, payload: str, words: str) -> None:
    with ExitStack() as stack:
        _, players, _ = two_seats(client, stack)
        player = players[players[0].state["to_move"]]
        assert words in refused(player, lambda: player.ws.send_text(payload))


def test_oversized_and_binary_messages(client: TestClient) -> None:
    with ExitStack() as stack:
        _, players, _ = two_seats(client, stack)
        huge = json.dumps({"type": "ping", "pad": "x" * 5000})
        assert "too large" in refused(players[0], lambda: players[0].ws.send_text(huge))
        binary = refused(players[0], lambda: players[0].ws.send_bytes(b'{"type": "ping"}'))
        assert binary == "binary frames are not part of the protocol: send JSON text"
        assert "binary" in refused(players[0], lambda: players[0].ws.send_bytes(b"\xff\xfe"))


def test_a_frame_over_64_kib_gets_an_error_then_closes(client: TestClient) -> None:
    with ExitStack() as stack:
        _, players, _ = two_seats(client, stack)
        players[0].ws.send_text("x" * 70_000)
        error = players[0].until(lambda m: m["type"] == "error")
        assert error["message"] == "frame too large (limit 65536 bytes): closing"
        with pytest.raises(WebSocketDisconnect) as closed:
            players[0].receive()
        assert closed.value.code == 1009
        players[1].send({"type": "ping"})
        players[1].until(lambda m: m["type"] == "pong")


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("since=abc", "query field 'since'"),
        ("since=-1", "query field 'since'"),
        ("since=" + "9" * 40, "query field 'since'"),
        ("token=" + "t" * 200, "query field 'token'"),
    ],
)
def test_bad_query_parameters_get_one_line_and_close(client: TestClient, query: str, words: str) -> None:
    table = create_table(client, [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/{table['code']}?{query}") as ws:
        error = ws.receive_json()
        assert error["type"] == "error" and words in error["message"] and "\n" not in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400


def test_illegal_out_of_turn_spectator_and_stale_moves(client: TestClient) -> None:
    with ExitStack() as stack:
        _, players, spectator = two_seats(client, stack)
        mover = players[players[0].state["to_move"]]
        other = players[1 - players[0].state["to_move"]]
        legal = mover.state["legal"]
        illegal = "draw" if "draw" not in legal else "pass"
        assert "illegal move" in refused(mover, lambda: mover.move(illegal))
        assert "not your turn" in refused(other, lambda: other.move(legal[0]))
        assert "spectators cannot play" in refused(spectator, lambda: spectator.move(legal[0]))
        stale = {"type": "move", "move": legal[0], "version": mover.version + 5}
        assert "stale version" in refused(mover, lambda: mover.send(stale))
        mover.move(legal[0])
        mover.until_state(lambda s, v=mover.version: mover.version > v)
        other.until_state(lambda s, v=mover.version: other.version >= v)
        # Each error went to its offender alone.
        assert [m["type"] for m in other.messages].count("error") == 1
        assert [m["type"] for m in spectator.messages].count("error") == 1
        assert [m["type"] for m in mover.messages].count("error") == 2


def test_a_wrong_token_or_table_is_refused(client: TestClient) -> None:
    table = create_table(client, [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/{table['code']}?token=forged") as ws:
        assert ws.receive_json() == {
            "type": "error",
            "message": "unknown token for this table",
            "code": "error.unknown_token",
        }
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect("/ws/NOSUCH") as ws:
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    # The table still serves its real seats.
    with client.websocket_connect(f"/ws/{table['code']}?token={table['seats'][0]['token']}") as ws:
        assert ws.receive_json()["type"] == "state"


def test_rate_limit(make_client: Callable[..., TestClient]) -> None:
    client = make_client(connection=ConnectionLimits(rate_burst=5, rate_per_second=0.01))
    table = create_table(client, [HUMAN, HUMAN])
    with client.websocket_connect(f"/ws/{table['code']}?token={table['seats'][0]['token']}") as ws:
        for _ in range(8):
            ws.send_json({"type": "ping"})
        replies = []
        while len(replies) < 8:
            message = ws.receive_json()
            if message["type"] != "state":
                replies.append(message)
        assert [m["type"] for m in replies] == ["pong"] * 5 + ["error"] * 3
        assert replies[-1]["message"] == "too many messages: slow down"


def test_a_storage_failure_refuses_the_move_and_changes_nothing(client: TestClient) -> None:
    with ExitStack() as stack:
        table, players, _ = two_seats(client, stack)
        mover = players[players[0].state["to_move"]]
        storage = client.app.state.storage  # type: ignore[attr-defined]
        real = storage.append_action

        async def broken(*args: Any) -> None:
            raise OSError("disk full")

        storage.append_action = broken
        try:
            message = refused(mover, lambda: mover.move(mover.state["legal"][0]))
        finally:
            storage.append_action = real
        assert message == "the move could not be stored; try again"
        assert client.app.state.hub.tables[table["code"]].version == mover.version  # type: ignore[attr-defined]
