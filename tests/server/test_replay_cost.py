"""What a replay costs the server: built off the loop once per content, revalidated by ETag, limited per address."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient

from chickenfoot.match import Match
from chickenfoot.rules import Rules
from chickenfoot.server.http.limits import AddressLimits
from chickenfoot.server.replays.frames import ReplayBusy, ReplayFrames, RoundJob, build

from .conftest import create_table, play_out, seat_players


def finished(client: TestClient, rounds: int) -> str:
    table = create_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}], rounds=rounds)
    with ExitStack() as stack:
        play_out(seat_players(client, table, stack), random.Random(3))
    return str(table["code"])


def test_a_replay_is_named_by_its_content_and_revalidated_without_being_built(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client()
    code = finished(client, rounds=2)
    first = client.get(f"/api/tables/{code}/replay/1")
    assert first.status_code == 200
    etag, caching = first.headers["etag"], first.headers["cache-control"]
    assert etag.startswith('"') and "max-age=" in caching
    assert client.get(f"/api/tables/{code}/replay/1").headers["etag"] == etag
    assert client.get(f"/api/tables/{code}/replay/2").headers["etag"] != etag

    again = client.get(f"/api/tables/{code}/replay/1", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    other = client.get(f"/api/tables/{code}/replay/1", headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200 and other.json() == first.json()


def test_only_replays_that_must_be_built_count_against_the_address(make_client: Callable[..., TestClient]) -> None:
    client = make_client(addresses=AddressLimits(replays="1/minute"))
    code = finished(client, rounds=2)
    assert client.get(f"/api/tables/{code}/replay/1").status_code == 200
    assert client.get(f"/api/tables/{code}/replay/1").status_code == 200  # kept: not built again, not counted
    refused = client.get(f"/api/tables/{code}/replay/2")
    assert refused.status_code == 429
    assert refused.json()["code"] == "error.too_many_replays" and int(refused.headers["retry-after"]) >= 1


def played_round(players: int, seed: int) -> Match:
    """A match of double-6 rules whose first round is played out with random legal moves."""
    match = Match(Rules.preset("double-6"), players, seed=seed)
    rng = random.Random(seed)
    while not match.round.is_over():
        match.push(rng.choice(match.legal_moves()))
    return match


def test_the_worker_builds_what_the_engine_replays() -> None:
    match = played_round(3, 5)
    job = RoundJob.of(match, 1, ["A", "B", "C"])
    frames = json.loads(build(job))["frames"]
    played = match.rounds[0]
    assert [f["entry"]["move"] for f in frames[1:]] == [str(s.move) for s in played.history]
    assert frames[-1]["points"] == played.points()
    assert RoundJob.of(match, 1, ["A", "B", "C"]).digest() == job.digest()
    assert RoundJob.of(match, 1, ["A", "B", "Z"]).digest() != job.digest()


def test_builds_are_shared_and_bounded() -> None:
    match = played_round(2, 7)
    jobs = [RoundJob.of(match, 1, [f"P{n}", "Q"]) for n in range(2)]

    async def scenario() -> None:
        frames = ReplayFrames(pending=1)
        try:
            same = asyncio.gather(frames.get(jobs[0]), frames.get(jobs[0]))  # one build, both answered
            await asyncio.sleep(0)
            with pytest.raises(ReplayBusy):
                await frames.get(jobs[1])
            first, second = await same
            assert first is second and frames.cached(jobs[0].digest()) is first
            assert await frames.get(jobs[1])  # the slot is free again
        finally:
            frames.close()

    asyncio.run(scenario())


def test_overview_and_record_are_written_once_and_counted_as_builds(make_client: Callable[..., TestClient]) -> None:
    client = make_client(addresses=AddressLimits(replays="2/minute"))
    code = finished(client, rounds=1)
    overview = client.get(f"/api/tables/{code}/replay")
    record = client.get(f"/api/tables/{code}/record")
    assert overview.status_code == record.status_code == 200
    assert "max-age=" in overview.headers["cache-control"] and record.json()["rounds"]
    for _ in range(3):  # kept: answered again without being written or counted
        assert client.get(f"/api/tables/{code}/replay").json() == overview.json()
        assert client.get(f"/api/tables/{code}/record").json() == record.json()
    refused = client.get(f"/api/tables/{code}/replay/1")  # a third build in the minute
    assert refused.status_code == 429 and refused.json()["code"] == "error.too_many_replays"
