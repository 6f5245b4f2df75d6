"""Playing over the WebSocket: full rounds and matches, bots, hints, forced moves, replays."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import ExitStack

from fastapi.testclient import TestClient

from chickenfoot import Match

from .conftest import Player, create_table, play_out, seat_players, settled

HUMAN = {"kind": "human"}


def test_two_humans_play_a_full_match(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}], rounds=2)
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        final = play_out(players, random.Random(1))
    assert final["status"] == "finished" and final["round"] == 2
    assert len(final["scores"]) == 2 and final["totals"] == [sum(r[s] for r in final["scores"]) for s in (0, 1)]
    assert final["match_over"]["winners"] and "win" in final["match_over"]["explanation"]
    record = client.get(f"/api/tables/{table['code']}/record").json()
    replay = Match.from_record(record)
    assert replay.is_over() and replay.totals() == final["totals"]
    summary = client.get(f"/api/tables/{table['code']}").json()
    assert summary["status"] == "finished" and summary["totals"] == final["totals"]


def test_a_human_against_bots_plays_a_round_and_the_bots_deal_on(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "expert"}]
    table = create_table(client, seats, rounds=2)
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        final = play_out(players, random.Random(2))
    assert final["match_over"] is not None and len(final["scores"]) == 2
    log = final["log"]
    assert log and all(entry["text"] for entry in log)
    assert any(entry["seat"] != 0 for entry in log)  # the bots played


def test_state_shape_for_the_first_seat(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    with client.websocket_connect(f"/ws/{table['code']}?token={table['seats'][0]['token']}") as ws:
        player = Player(ws)
        first = player.receive()
        assert first["type"] == "state" and first["events"] == []
        state = player.until_state(settled)
        assert state["seat"] == 0 and state["players"] == 2 and state["names"] == ["Ann", None]
        assert state["kinds"] == ["human", "bot"] and state["bots"] == [None, "random"]
        assert state["connected"] == [True, True]
        assert state["rounds"] == 10 and state["start_double"] == 9 and state["round"] == 1
        assert len(state["hand"]) + len(state["layout"]) >= 13
        assert state["hand_sizes"][0] == len(state["hand"])
        assert state["to_move"] == 0 and state["legal"]
        assert state["phase"] in ("empty", "hub") and state["round_over"] is None and state["match_over"] is None


def test_hint_answers_the_seat_to_move_only(client: TestClient) -> None:
    table = create_table(client, [HUMAN, {"kind": "bot", "bot": "greedy"}])
    with client.websocket_connect(f"/ws/{table['code']}?token={table['seats'][0]['token']}") as ws:
        player = Player(ws)
        state = player.until_state(settled)
        player.send({"type": "hint"})
        hint = player.until(lambda m: m["type"] in ("hint", "error"))
        assert hint["type"] == "hint" and hint["move"] in state["legal"] and hint["reason"]
    with client.websocket_connect(f"/ws/{table['code']}") as ws:
        spectator = Player(ws)
        spectator.send({"type": "hint"})
        assert spectator.until(lambda m: m["type"] == "error")["message"] == "a hint is for the seat to move"


def test_forced_draws_and_passes_are_made_for_humans(make_client: Callable[..., TestClient]) -> None:
    client = make_client(seeds=lambda: 5)  # a deal in which someone must draw: the check below is certain
    table = create_table(client, [HUMAN, HUMAN], rounds=1)
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        play_out(players, random.Random(3))
        # Every move a human made with a single legal move of draw or pass was the server's.
        sent = {p: [m for m in player.messages if m["type"] == "state"] for p, player in players.items()}
    final = sent[0][-1]["state"]
    moves = [entry["move"] for entry in final["log"]]
    assert "draw" in moves
    assert all(m["type"] != "error" for player in players.values() for m in player.messages)


def test_next_round_is_for_seated_humans_once_the_round_is_over(client: TestClient) -> None:
    table = create_table(client, [HUMAN, HUMAN], rounds=2)
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        players[0].until_state(settled)
        players[0].send({"type": "next_round"})
        assert players[0].until(lambda m: m["type"] == "error")["message"] == "the round is not over"
        spectator = Player(stack.enter_context(client.websocket_connect(f"/ws/{table['code']}")))
        spectator.send({"type": "next_round"})
        assert "seated" in spectator.until(lambda m: m["type"] == "error")["message"]
