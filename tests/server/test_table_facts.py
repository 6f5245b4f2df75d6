"""Table facts come from the engine and the bots package: bot names, the largest table, forced moves."""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chickenfoot import Match, Rules
from chickenfoot.rules import MAX_PLAYERS
from chickenfoot.server.clock import SYSTEM_CLOCK
from chickenfoot.server.table.actor import Services, Table
from chickenfoot.server.table.config import Seat, TableConfig
from chickenfoot.server.table.ports import ALONE
from chickenfoot.server.table.protocol import (
    LogCache,
    Presence,
    log_texts,
    public_json,
    seat_json,
    state_for,
    state_with_log,
    whole_log,
)

from .conftest import INSTANT, create_table, seat_players, settle

HUMAN = {"kind": "human"}


@pytest.mark.parametrize("name", ["wizard", "Medium", "cheater", "", "x" * 500])
def test_an_unknown_bot_is_refused_at_creation(client: TestClient, name: str) -> None:
    response = client.post("/api/tables", json={"seats": [HUMAN, {"kind": "bot", "bot": name}]})
    if name == "":
        assert response.status_code == 201  # no name: the default level
        return
    detail = response.json()["detail"]
    # An over-long name is refused by the request's own limit before any bot is looked up.
    reason = "at most 40 characters" if len(name) > 40 else "unknown bot"
    assert response.status_code == 400 and reason in detail and "\n" not in detail and len(detail) < 300


def test_a_stored_table_naming_an_unknown_bot_is_not_given_another_bot() -> None:
    config = TableConfig(Rules(), [Seat("human", "Ann"), Seat("bot", "Old bot", bot="grandmaster")], seed=1)
    with pytest.raises(ValueError, match="unknown bot 'grandmaster'"):
        services = Services(None, None, INSTANT, None, SYSTEM_CLOCK)  # type: ignore[arg-type]
        Table("ABCDEF", config, Match(config.rules, 2, 1), services, ALONE)


def test_the_largest_table_is_the_rules_one(client: TestClient) -> None:
    assert client.get("/api/presets").json()["max_players"] == MAX_PLAYERS
    create_table(client, [HUMAN] * MAX_PLAYERS)
    too_many = client.post("/api/tables", json={"seats": [HUMAN] * (MAX_PLAYERS + 1)})
    assert too_many.status_code == 400 and "seats" in too_many.json()["detail"]


def test_the_state_names_the_forced_move_the_server_then_makes(client: TestClient) -> None:
    table = create_table(client, [HUMAN, HUMAN], rounds=1)
    seen: list[dict[str, Any]] = []
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        rng = random.Random(5)
        while True:
            state = settle(players)
            if state["round_over"] is not None:
                break
            mover = players[state["to_move"]]
            mover.move(rng.choice(mover.state["legal"]))
            mover.until(lambda m, v=mover.version: m["type"] == "error" or (m["type"] == "state" and m["version"] > v))
        for player in players.values():
            seen += [m["state"] for m in player.messages if m["type"] == "state"]
    forced = [s for s in seen if s["forced"] is not None]
    assert forced, "a whole round of two players always has a forced draw"
    for state in seen:
        legal = state["legal"]
        sole = legal[0] if len(legal) == 1 and legal[0] in ("draw", "pass") else None
        assert state["forced"] == sole
        assert state["forced"] is None or state["seat"] == state["to_move"]
    hub = next(s for s in seen if s["legal"] and s["phase"] == "empty" and s["legal"][0].count("-") == 1)
    assert hub["forced"] is None  # the hub is placed by its holder


def test_each_state_text_continues_its_recipients_log_and_is_then_exactly_the_state_object() -> None:
    """The server's STATE text is the shared fields, built once from a spectator's view, the
    recipient's own fields, and only the log entries after those the recipient holds (entries
    encoded once, then joined); with the recipient's earlier entries it is exactly
    :func:`state_for` of the recipient's own view, in every round and for every recipient."""
    presence = Presence(("Ann", None, None), ("human", "bot", "human"), (True,) * 3, (False,) * 3, (None, "hard", None))
    match, rng = Match(Rules(), 3, seed=5), random.Random(5)
    cache: LogCache = {}
    held: dict[int | None, dict[str, Any]] = {}
    checked = continued = 0
    while not match.is_over() and checked < 400:
        if match.round.is_over():
            match.next_round()
        else:
            match.push(rng.choice(match.round.legal_moves()))
        shared = public_json("ABCDEF", "playing", match, match.round.view(None), presence, open=False, free_seats=[])
        for seat in (0, 1, 2, None):
            view = match.round.view(seat)
            before = held.get(seat)
            start = len(before["log"]) if before is not None and before["round"] == match.round_number else 0
            entries = log_texts(match.round_number, view, presence, cache)
            sent = json.loads(state_with_log(shared, seat_json(view), entries, start))
            assert sent["log_from"] == start
            held[seat] = whole_log(sent, before)
            assert held[seat] == state_for("ABCDEF", "playing", match, view, presence) | {
                "open": False,
                "free_seats": [],
            }
            checked, continued = checked + 1, continued + (start > 0)
    assert checked == 400 and continued > 300 and cache  # most states continued a log; entries came from the cache


def test_a_log_continued_without_its_beginning_is_refused() -> None:
    with pytest.raises(ValueError, match="continues a log of 2 entries"):
        whole_log({"log_from": 2, "log": [{"seat": 0}]}, None)
    with pytest.raises(ValueError, match="continues a log of 2 entries"):
        whole_log({"log_from": 2, "log": []}, {"log_from": 0, "log": [{"seat": 1}]})
    assert whole_log({"log_from": 1, "log": [{"seat": 0}]}, {"log_from": 0, "log": [{"seat": 1}, {"seat": 2}]}) == {
        "log_from": 0,
        "log": [{"seat": 1}, {"seat": 0}],
    }
