"""A Swiss of six players over three rounds, at tables of four (two tables of three, a bot in each bye
seat): made, joined and started over HTTP, each round paired by the organiser onto real tables whose
matches play themselves, each result read as its match ends. Every round's tables are the library's
pairing of the standings before it, and the final standings (and their tie-breaks) are the library's
standings of the results, each of which is the match its table stored."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from chickenfoot.tournament import SWISS_TIEBREAKS, Result, standings, swiss_round

from .conftest import create, finished, page, people, wait_for

SIX = 6
ROUNDS = 3


def record_totals(client: TestClient, code: str) -> tuple[int, ...]:
    """A table's match totals from its stored match record: each seat's points over the rounds."""
    record = client.get(f"/api/tables/{code}/record").json()
    return tuple(sum(points) for points in zip(*(r["points"] for r in record["rounds"]), strict=True))


def results_of(tables: list[dict[str, Any]], round_: int) -> list[Result]:
    """The library's results of the tables of rounds before ``round_`` (players by account id, as text)."""
    return [
        Result(
            t["code"], tuple(None if s is None else str(s) for s in t["seats"]), tuple(t["points"]), tuple(t["places"])
        )
        for t in tables
        if t["round"] < round_
    ]


def test_a_swiss_of_six_is_paired_and_ranked_as_the_library_pairs_and_ranks(events_client: TestClient) -> None:
    client = events_client
    players = people(client, SIX)
    code = create(players[0], format="swiss", table_size=4, rounds=ROUNDS, match_rounds=1)
    for person in players:
        person.ok("post", f"/api/tournaments/{code}/join")
    shown = page(client, code)
    assert shown["status"] == "scheduled"
    assert shown["tiebreaks"] == ["opponents_average", "head_to_head", "game_points"]
    seeding = [str(entrant["id"]) for entrant in shown["entrants"]]  # equal ratings: the order of entry
    assert [e["name"] for e in shown["entrants"]] == [p.name for p in players]

    refused = players[1].post(f"/api/tournaments/{code}/start")
    assert refused.status_code == 403, refused.text  # only its creator starts it
    players[0].ok("post", f"/api/tournaments/{code}/start")
    wait_for(client, code, finished)

    shown = page(client, code)
    tables = shown["tables"]
    assert sorted({t["round"] for t in tables}) == [1, 2, 3]
    for round_ in range(1, ROUNDS + 1):
        before = results_of(tables, round_)
        expected = swiss_round(standings(before, SWISS_TIEBREAKS, seeding), before, 4)
        made = [tuple(None if s is None else str(s) for s in t["seats"]) for t in tables if t["round"] == round_]
        assert sorted(made, key=str) == sorted(expected, key=str), f"round {round_}"
        assert all(seats.count(None) == 1 for seats in made)  # six at tables of four: a bot in each bye seat
    for table in tables:
        assert table["finished_at"] is not None
        assert tuple(table["points"]) == record_totals(client, table["code"])

    results = results_of(tables, ROUNDS + 1)
    library = standings(results, SWISS_TIEBREAKS, seeding)
    rows = shown["standings"]["rows"]
    assert [(r["player"], r["rank"], r["score"], r["matches"]) for r in rows] == [
        (row.player, row.rank, row.score, row.matches) for row in library
    ]
    assert [r["tiebreaks"] for r in rows] == [list(row.tiebreaks) for row in library]
    assert shown["standings"]["tiebreaks"] == [t.value for t in SWISS_TIEBREAKS]
    assert sum(r["score"] for r in rows) == sum(
        sum(r.place_points()[s] for s, p in enumerate(r.players) if p) for r in results
    )
