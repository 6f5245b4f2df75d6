"""A round-robin of five players at tables of two over five rounds: its schedule is made once at the start
(the library's, from the event's seed), each round played as scheduled (the odd player out meets a bot),
and the standings are the library's with the round-robin's tie-breaks."""

from __future__ import annotations

from fastapi.testclient import TestClient

from chickenfoot.tournament import ROUND_ROBIN_TIEBREAKS, Result, round_robin, standings

from .conftest import create, finished, page, people, wait_for

FIVE = 5


def test_a_round_robin_plays_the_schedule_the_library_makes_from_its_seed(events_client: TestClient) -> None:
    client = events_client
    players = people(client, FIVE)
    code = create(players[0], format="round_robin", table_size=2, rounds=FIVE, match_rounds=1)
    for person in players:
        person.ok("post", f"/api/tournaments/{code}/join")
    players[0].ok("post", f"/api/tournaments/{code}/start")
    event = wait_for(client, code, finished)

    shown = page(client, code)
    entrants = [str(e["id"]) for e in shown["entrants"]]  # equal ratings: the order of entry
    schedule = round_robin(entrants, 2, FIVE, event.seed)
    tables = shown["tables"]
    for number, expected in enumerate(schedule, start=1):
        made = [tuple(None if s is None else str(s) for s in t["seats"]) for t in tables if t["round"] == number]
        assert sorted(made, key=str) == sorted(expected, key=str), f"round {number}"
    met = {frozenset(str(s) for s in t["seats"] if s is not None) for t in tables}
    assert sum(len(pair) == 2 for pair in met) == FIVE * (FIVE - 1) // 2  # everyone met everyone once
    results = [
        Result(
            t["code"], tuple(None if s is None else str(s) for s in t["seats"]), tuple(t["points"]), tuple(t["places"])
        )
        for t in tables
    ]
    library = standings(results, ROUND_ROBIN_TIEBREAKS, entrants)
    assert [(r["player"], r["rank"], r["score"], r["tiebreaks"]) for r in shown["standings"]["rows"]] == [
        (row.player, row.rank, row.score, list(row.tiebreaks)) for row in library
    ]
    assert shown["tiebreaks"] == [t.value for t in ROUND_ROBIN_TIEBREAKS]
