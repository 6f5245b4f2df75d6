"""A player's name: set when the seat is taken, changed later with the ``name`` message, and the
seats still free while a table waits (the STATE's ``free_seats``)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chickenfoot.i18n import render_wire, seat_names

from .conftest import Player, claim_invite, create_table, ready, seat_players, settled

HUMAN = {"kind": "human"}


def test_free_seats_name_who_is_still_missing(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, HUMAN, {"kind": "bot"}, HUMAN], claim=False)
    code = table["code"]
    with client.websocket_connect(f"/ws/{code}?token={table['token']}") as ws:
        ann = Player(ws)
        state = ann.until_state(lambda s: True)
        assert state["status"] == "waiting" and state["free_seats"] == [1, 3]
        di = claim_invite(client, table["seats"][3]["invite"], "Di")
        state = ann.until_state(lambda s: s["free_seats"] == [1])
        assert state["names"][3] == "Di" and state["status"] == "waiting"
        bo = claim_invite(client, table["seats"][1]["invite"], "Bo")
        state = ann.until_state(lambda s: s["free_seats"] == [])
        assert state["status"] == "waiting"  # seated, and each to press Ready
        for token in (table["token"], di["token"], bo["token"]):
            ready(client, code, token)
        state = ann.until_state(lambda s: s["status"] == "playing")
        assert state["ready"] == [True, True, True, True]


def test_a_new_name_is_stored_and_announced_to_everyone(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    table = create_table(client, [{"kind": "human", "name": "Ann"}, HUMAN])
    code = table["code"]
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        watcher = Player(stack.enter_context(client.websocket_connect(f"/ws/{code}")))
        for player in (*players.values(), watcher):
            player.until_state(lambda s: all(s["connected"]))
        players[1].send({"type": "name", "name": "  Bo <b>the bold</b>  "})
        for player in (*players.values(), watcher):
            # Wait for the event itself: a state sent just before it may already show the new name.
            player.until(lambda m: m["type"] == "state" and any(e["kind"] == "renamed" for e in m["events"]))
            assert player.state["names"] == ["Ann", "Bo <b>the bold</b>"]  # trimmed; plain text, kept as typed
            states = [m for m in player.messages if m["type"] == "state"]
            at = next(i for i, m in enumerate(states) if any(e["kind"] == "renamed" for e in m["events"]))
            assert states[at]["events"] == [
                {
                    "kind": "renamed",
                    "seat": 1,
                    "move": None,
                    "code": "event.renamed",
                    "old": {"code": "seat.default", "number": 2},  # Bo had no name: each reader's "Player 2"
                }
            ]
            # A name is no game action: the version stays, so no move in flight becomes stale.
            assert states[at]["version"] == states[at - 1]["version"]
    # Stored with the table: a server started afresh on the same database reads it back.
    again = make_client()
    assert [seat["name"] for seat in again.get(f"/api/tables/{code}").json()["seats"]] == ["Ann", "Bo <b>the bold</b>"]


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("", "at least 1 character"),
        ("   ", "at least 1 character"),
        ("x" * 41, "at most 40 characters"),
        ("山" * 21, "at most 40 characters"),  # 42 cells wide: a wide character takes two
        ("Bo\u0301\u0302\u0303\u0304\u0305", "one line of printable text"),  # marks piled on one letter
        ("Bo\nBobby", "one line of printable text"),
        ("Bo\u202eyb", "one line of printable text"),
        (7, "valid string"),
    ],
)
def test_a_bad_name_is_refused_in_one_line_and_changes_nothing(client: TestClient, name: Any, problem: str) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot"}])
    with client.websocket_connect(f"/ws/{table['code']}?token={table['token']}") as ws:
        ann = Player(ws)
        ann.until_state(lambda s: True)
        ann.send({"type": "name", "name": name})
        error = ann.until(lambda m: m["type"] == "error")
        assert problem in error["message"] and "\n" not in error["message"]
        ann.send({"type": "ping"})
        ann.until(lambda m: m["type"] == "pong")
        assert ann.state["names"][0] == "Ann"


@pytest.mark.parametrize(
    "name",
    [
        "e\u0301" * 40,  # 80 code points, 40 letters each with its accent as a mark
        "山" * 20,  # 40 cells
        "🇳🇱" * 20,  # flags: two code points, two cells each
        "Ba\u0328\u0301\u0300\u0303a",  # four marks on one letter: as many as one may hold
    ],
)
def test_a_name_is_measured_in_characters_as_read_and_cells_as_shown(client: TestClient, name: str) -> None:
    table = create_table(client, [{"kind": "human", "name": name}, {"kind": "bot"}])
    assert client.get(f"/api/tables/{table['code']}").json()["seats"][0]["name"] == name


def test_spectators_cannot_rename_and_renames_are_spaced(client: TestClient) -> None:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot"}])
    code = table["code"]
    with (
        client.websocket_connect(f"/ws/{code}?token={table['token']}") as seated,
        client.websocket_connect(f"/ws/{code}") as watching,
    ):
        ann, eve = Player(seated), Player(watching)
        eve.until_state(lambda s: True)
        eve.send({"type": "name", "name": "Eve"})
        assert eve.until(lambda m: m["type"] == "error")["code"] == "error.rename_spectator"
        ann.until_state(lambda s: True)
        ann.send({"type": "name", "name": "Annie"})
        ann.until_state(lambda s: s["names"][0] == "Annie")
        ann.send({"type": "name", "name": "Anna"})
        error = ann.until(lambda m: m["type"] == "error")
        assert error["code"] == "error.rename_wait" and 1 <= error["seconds"] <= 5
        ann.send({"type": "name", "name": "Annie"})  # the name it has already: nothing to do, nothing refused
        ann.send({"type": "ping"})
        assert ann.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
        assert ann.state["names"][0] == "Annie"


def test_a_seat_nobody_named_has_no_name_and_each_reader_sees_their_own_language(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client()
    table = create_table(client, [HUMAN, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "ismcts"}])
    code = table["code"]
    with client.websocket_connect(f"/ws/{code}?token={table['token']}") as ws:
        player = Player(ws)
        state = player.until_state(settled)
        while not any(entry["seat"] == 1 for entry in state["log"]):  # play on until the easy bot moved
            version = player.version
            player.move(state["legal"][0])
            state = player.until_state(lambda s, v=version: player.version > v and settled(s))
        # No English default is stored or sent: the page and the terminal name the seats.
        assert state["names"] == [None, None, None] and state["bots"] == [None, "easy", "ismcts"]
        assert seat_names(state["names"], state["bots"], "lt") == ["Žaidėjas 1", "Silpnas robotas 2", "Robotas 3"]
        assert seat_names(state["names"], state["bots"], "fy") == ["Spiler 1", "Maklike bot 2", "Bot 3"]
        assert seat_names(state["names"], state["bots"], "en") == ["Player 1", "Easy bot 2", "Bot 3"]
        entry = next(e for e in state["log"] if e["seat"] == 1)
        assert entry["text"].startswith("Easy bot 2 ")  # the English beside the code, for older clients
        assert render_wire(entry, "lv", seat_names(state["names"], state["bots"], "lv")).startswith("Vājš robots 2 ")
        player.send({"type": "name", "name": "Ann"})
        event = player.until(lambda m: m["type"] == "state" and m["events"] and m["events"][0]["kind"] == "renamed")
        names = seat_names(player.state["names"], player.state["bots"], "lt")
        assert render_wire(event["events"][0], "lt", names) == "Žaidėjas 1 dabar vadinasi Ann"
    seats = make_client().get(f"/api/tables/{code}").json()["seats"]
    assert [seat["name"] for seat in seats] == ["Ann", None, None]
