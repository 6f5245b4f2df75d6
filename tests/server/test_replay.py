"""Replays and background reviews of finished matches: hidden until the end, from the engine, stored."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient

from chickenfoot.match import Match
from chickenfoot.review import review_match
from chickenfoot.testing.waiting import until_now

from .conftest import create_table, play_out, seat_players

BUDGET = 4


def poll_review(client: TestClient, code: str, seconds: float = 120) -> dict[str, Any]:
    """The finished review, read as the page does: every status seen on the way is checked."""
    latest: dict[str, Any] = {}

    def finished() -> bool:
        latest.clear()
        latest.update(client.get(f"/api/tables/{code}/review").json())
        assert latest["status"] in ("queued", "running", "done", "busy"), latest
        if latest["status"] == "running":
            assert 0 <= latest["done"] <= latest["total"]
        return latest["status"] == "done"

    until_now(finished, seconds, "the review did not finish")
    return latest


def test_a_finished_match_has_a_replay_and_a_stored_review_equal_to_the_command_lines(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(review_budget=BUDGET)
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "easy"}], rounds=1)
    code = table["code"]
    with ExitStack() as stack:
        players = seat_players(client, table, stack)
        for path in (f"/api/tables/{code}/replay", f"/api/tables/{code}/replay/1", f"/api/tables/{code}/review"):
            assert client.get(path).status_code == 403
        assert client.get(f"/r/{code}").status_code == 200  # the page itself; it shows the refusal
        play_out(players, random.Random(2))
    record = client.get(f"/api/tables/{code}/record").json()
    match = Match.from_record(record)

    overview = client.get(f"/api/tables/{code}/replay").json()
    assert overview["names"] == ["Ann", None] and overview["kinds"] == ["human", "bot"]
    assert overview["bots"] == [None, "easy"]
    assert overview["rounds"][0]["moves"] == len(record["rounds"][0]["moves"])
    assert overview["totals"] == match.totals()
    frames = client.get(f"/api/tables/{code}/replay/1").json()["frames"]
    dealt = record["rounds"][0]
    assert len(frames) == len(dealt["moves"]) + 1
    assert [sorted(h) for h in frames[0]["hands"]] == [sorted(h) for h in dealt["hands"]]
    assert frames[0]["boneyard"] == dealt["boneyard"] and frames[0]["layout"] == []
    assert [f["entry"]["move"] for f in frames[1:]] == dealt["moves"]
    assert frames[-1]["points"] == dealt["points"] and frames[-1]["to_move"] is None
    played = match.rounds[0]
    assert frames[-1]["layout"] == [[str(t), str(on) if on else None] for t, on in played.placed()]
    assert client.get(f"/api/tables/{code}/replay/2").status_code == 404

    stored = poll_review(client, code)["review"]
    # The human seat alone is marked; the command line on the record says the same.
    assert stored == review_match(match, seats=[0], budget=BUDGET, seed=0).to_dict()
    assert client.get(f"/api/tables/{code}/review").json() == {"status": "done", "review": stored}


def test_replays_of_unknown_tables_are_not_found(client: TestClient) -> None:
    assert client.get("/api/tables/NOPE42/replay").status_code == 404
    assert client.get("/api/tables/NOPE42/review").status_code == 404
