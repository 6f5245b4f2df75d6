"""The hidden-information audit: every message of full games, to every seat and a spectator.

No message may name a tile its recipient cannot see: another seat's tile, an opponent's drawn tile
or a boneyard tile, before the round is over (then all hands are shown). Checked against the
ground truth of the finished match's record.
"""

from __future__ import annotations

import json
import random
import re
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient

from chickenfoot import Match

from .conftest import Player, create_table, play_out, seat_players

TILE = re.compile(r"(?<![\w-])\d{1,2}-\d{1,2}(?![\w-])")


def held_tiles(match: Match, seat: int | None) -> list[set[str]]:
    """Per round, every tile ``seat`` held at some time (dealt or drawn)."""
    if seat is None:
        return [set() for _ in match.rounds]
    held = []
    for round_, (hands, _) in zip(match.rounds, match.deals, strict=True):
        tiles = {str(t) for t in hands[seat]}
        tiles |= {str(step.drawn) for step in round_.history if step.seat == seat and step.drawn is not None}
        held.append(tiles)
    return held


def audit(messages: list[dict[str, Any]], seat: int | None, match: Match) -> int:
    """Check one recipient's messages; returns how many states were checked while tiles were hidden."""
    held = held_tiles(match, seat)
    hidden_states = 0
    for message in messages:
        for event in message.get("events", []):
            # A drawn tile reaches the drawer alone; other events name tiles laid on the table.
            assert event["kind"] != "draw" or "tile" not in event or event["seat"] == seat, (seat, event)
        if message["type"] != "state":
            assert not TILE.search(json.dumps(message)) or message["type"] == "hint", message
            continue
        state = message["state"]
        assert state["seat"] == seat
        if state["round_over"] is not None:
            continue  # every hand is shown at the end of a round
        hidden_states += 1
        visible = held[state["round"] - 1] | {tile for tile, _ in state["layout"]}
        named = set(TILE.findall(json.dumps(state)))
        assert named <= visible, (seat, named - visible)
        assert set(state["hand"]) <= held[state["round"] - 1]
        if seat is None:
            assert state["hand"] == [] and state["legal"] == [] and state["drawn"] is None
        assert len(state["hand"]) == state["hand_sizes"][seat] if seat is not None else True
    return hidden_states


def test_no_message_leaks_hidden_tiles(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human"}]
    table = create_table(client, seats, rounds=2)
    code = table["code"]
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        spectator = Player(stack.enter_context(client.websocket_connect(f"/ws/{code}")))
        for player in players.values():
            player.send({"type": "hint"})  # hints go to their asker only
        final = play_out(players, random.Random(7))
        spectator.until_state(lambda s: s["match_over"] is not None)
        # Reconnections replay every event since the start: they are audited too.
        rejoined = {}
        for seat in [*players, None]:
            token = f"?token={table['seats'][seat]['token']}&since=0" if seat is not None else "?since=0"
            with client.websocket_connect(f"/ws/{code}{token}") as ws:
                rejoined[seat] = ws.receive_json()
    assert final["match_over"] is not None
    match = Match.from_record(client.get(f"/api/tables/{code}/record").json())
    checked = sum(audit(player.messages, seat, match) for seat, player in players.items())
    checked += audit(spectator.messages, None, match)
    for seat, message in rejoined.items():
        assert len(message["events"]) > 20
        audit([message], seat, match)
    assert checked > 50  # the audit saw many states while tiles were hidden
    # Someone drew, and the drawn tile reached the drawer alone.
    draws = [
        e
        for p in players.values()
        for m in p.messages
        if m["type"] == "state"
        for e in m["events"]
        if e["kind"] == "draw" and "tile" in e
    ]
    assert draws
    summary = json.dumps(client.get(f"/api/tables/{code}").json())
    assert not TILE.search(summary)
