"""Blocks respected when seating: the organiser keeps two entrants with a block between them at different
tables where another seating exists, here in a Swiss's first round, where the snake would have seated them
together (the arena's grouping and a later Swiss round are proved in the library's tests, which the
organiser calls with the same pairs)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from chickenfoot.tournament import SWISS_TIEBREAKS, standings, swiss_round

from .conftest import create, page, people, wait_for


def ids(client: TestClient, code: str) -> list[str]:
    """The entrants' account ids, in the order of entry (the seeding, every rating being equal)."""
    return [str(e["id"]) for e in page(client, code)["entrants"]]


def shared(tables: list[list[int | None]], a: str, b: str) -> bool:
    return any({a, b} <= {str(s) for s in seats} for seats in tables)


def test_a_swiss_seats_a_blocked_pair_at_different_tables(events_client: TestClient) -> None:
    client = events_client
    ann, bob, cy, dan = people(client, 4)
    code = create(ann, format="swiss", rounds=1, table_size=2, match_rounds=1)
    for person in (ann, bob, cy, dan):
        person.ok("post", f"/api/tournaments/{code}/join")
    dan.block(ann.name)  # one way is enough
    entrants = ids(client, code)
    unconstrained = swiss_round(standings([], SWISS_TIEBREAKS, entrants), [], 2)
    assert shared([list(t) for t in unconstrained], entrants[0], entrants[3])  # (ann, dan), (bob, cy)

    ann.ok("post", f"/api/tournaments/{code}/start")
    wait_for(client, code, lambda e, _: e.round == 1)
    tables = [t["seats"] for t in page(client, code)["tables"]]
    assert len(tables) == 2 and sorted(str(s) for t in tables for s in t) == sorted(entrants)
    assert not shared(tables, entrants[0], entrants[3])
