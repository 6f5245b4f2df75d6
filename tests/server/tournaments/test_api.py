"""The tournaments' HTTP API: what makes an event and what refuses it, joining, leaving and pausing, and an
arena on the fake clock from its start to its end, ranked as the library ranks its results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chickenfoot.server.clock import FakeClock
from chickenfoot.tournament import ARENA_TIEBREAKS, Result, standings

from ..accounts.conftest import GENEROUS
from ..botapi.conftest import bearer, bot_account
from ..social.conftest import EVERYTHING, Person, refusal
from .conftest import create, finished, page, people, wait_for


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"format": "knockout", "rounds": 3}, "error.invalid"),
        ({"format": "swiss", "rounds": 3, "table_size": 5}, "error.invalid"),
        ({"format": "swiss"}, "tournament.bad_rounds"),
        ({"format": "swiss", "rounds": 3, "minutes": 10}, "tournament.rounds_not_minutes"),
        ({"format": "arena"}, "tournament.bad_minutes"),
        ({"format": "arena", "minutes": 10, "duplicate": "matchpoints"}, "tournament.arena_rounds"),
        ({"format": "swiss", "rounds": 2, "par": True}, "tournament.par_not_duplicate"),
        ({"format": "swiss", "rounds": 2, "bot_level": "godlike"}, "tournament.bad_bot"),
        ({"format": "swiss", "rounds": 2, "rated": True, "match_rounds": 1}, "tournament.not_rated"),
    ],
)
def test_settings_an_event_cannot_run_with_are_refused_with_their_reason(
    events_client: TestClient, settings: dict[str, Any], code: str
) -> None:
    (ann,) = people(events_client, 1)
    status, body = refusal(ann.post("/api/tournaments", {"name": "Club night", **settings}))
    assert status in (400, 422)
    assert body["code"] == code
    assert ann.ok("get", "/api/tournaments")["mine"] == []  # nothing was made


def test_a_guest_makes_no_event_and_nobody_finds_one_by_a_wrong_code(events_client: TestClient) -> None:
    status, _ = refusal(events_client.post("/api/tournaments", json={"name": "x", "format": "swiss", "rounds": 1}))
    assert status == 401
    status, body = refusal(events_client.get("/api/tournaments/nosuchevent"))
    assert (status, body["code"]) == (404, "tournament.not_found")


def test_entrants_join_leave_and_only_an_arena_pauses(events_client: TestClient) -> None:
    ann, bob = people(events_client, 2)
    code = create(ann, format="swiss", rounds=2, table_size=2)
    assert bob.ok("get", f"/api/tournaments/{code}/me")["entered"] is False
    bob.ok("post", f"/api/tournaments/{code}/join")
    bob.ok("post", f"/api/tournaments/{code}/join")  # twice is once
    assert [e["name"] for e in page(events_client, code)["entrants"]] == ["player2"]
    status, body = refusal(bob.post(f"/api/tournaments/{code}/pause"))
    assert (status, body["code"]) == (409, "tournament.pause_arena")
    bob.ok("post", f"/api/tournaments/{code}/leave")
    assert page(events_client, code)["entrants"] == []
    status, body = refusal(bob.post(f"/api/tournaments/{code}/leave"))
    assert (status, body["code"]) == (409, "tournament.not_entered")
    mine = ann.ok("get", f"/api/tournaments/{code}/me")
    assert (mine["entered"], mine["creator"]) == (False, True)
    assert [e["code"] for e in ann.ok("get", "/api/tournaments")["mine"]] == [code]


def test_a_swiss_with_one_entrant_is_cancelled_and_a_started_one_takes_nobody_new(events_client: TestClient) -> None:
    ann, bob, cy = people(events_client, 3)
    lonely = create(ann, format="swiss", rounds=1, table_size=2)
    ann.ok("post", f"/api/tournaments/{lonely}/join")
    ann.ok("post", f"/api/tournaments/{lonely}/start")
    assert wait_for(events_client, lonely, lambda e, _: e.status != "scheduled").status == "cancelled"

    code = create(ann, format="swiss", rounds=1, table_size=2, match_rounds=1)
    for person in (ann, bob):
        person.ok("post", f"/api/tournaments/{code}/join")
    ann.ok("post", f"/api/tournaments/{code}/start")
    wait_for(events_client, code, lambda e, _: e.status != "scheduled")
    status, body = refusal(cy.post(f"/api/tournaments/{code}/join"))
    assert (status, body["code"]) == (409, "tournament.started")
    wait_for(events_client, code, finished)
    status, body = refusal(ann.post(f"/api/tournaments/{code}/leave"))
    assert (status, body["code"]) == (409, "tournament.over")


def seated(tables: list[dict[str, Any]]) -> list[Result]:
    return [
        Result(
            t["code"], tuple(None if s is None else str(s) for s in t["seats"]), tuple(t["points"]), tuple(t["places"])
        )
        for t in tables
        if t["finished_at"] is not None
    ]


def test_an_arena_seats_its_players_again_until_its_time_is_up(events_client: TestClient, clock: FakeClock) -> None:
    client = events_client
    players: list[Person] = people(client, 4)
    code = create(players[0], format="arena", minutes=1, table_size=2, match_rounds=1)
    for person in players:
        person.ok("post", f"/api/tournaments/{code}/join")
    players[0].ok("post", f"/api/tournaments/{code}/start")
    wait_for(client, code, lambda e, _: e.results >= 6)  # every player seated again and again, the clock standing
    for person in players:  # paused: seated no more, their points kept
        person.ok("post", f"/api/tournaments/{code}/pause")
    status, body = refusal(players[0].post(f"/api/tournaments/{code}/pause"))
    assert (status, body["code"]) == (409, "tournament.not_entered")  # paused already
    wait_for(client, code, lambda _, playing: playing == 0)
    client.portal.call(clock.advance, 61)  # type: ignore[union-attr]  # on the app's loop: its timers fire there
    wait_for(client, code, finished)

    shown = page(client, code)
    results = seated(shown["tables"])
    assert len(results) >= 6
    seeding = [str(e["id"]) for e in shown["entrants"]]
    library = standings(results, ARENA_TIEBREAKS, seeding)
    assert [(r["player"], r["rank"], r["score"], r["matches"], r["tiebreaks"]) for r in shown["standings"]["rows"]] == [
        (row.player, row.rank, row.score, row.matches, list(row.tiebreaks)) for row in library
    ]
    assert all(state == "paused" for state in (e["state"] for e in shown["entrants"]))
    for table in shown["tables"]:
        assert all(seat is not None for seat in table["seats"])  # four players fill tables of two: no bot


def test_a_bot_account_enters_through_the_bot_api_only_the_events_that_take_bot_accounts(
    make_client: Callable[..., TestClient], no_events_yet: None, database_url: str
) -> None:
    client = make_client(addresses=GENEROUS, account_limits=EVERYTHING)  # tokens are minted on the real clock
    token = bot_account(client, database_url, "robo")
    (ann,) = people(client, 1)
    closed = create(ann, format="swiss", rounds=1, table_size=2)
    status, body = refusal(client.post(f"/api/bot/tournaments/{closed}/join", headers=bearer(token)))
    assert (status, body["code"]) == (403, "tournament.no_bot_accounts")
    status, _ = refusal(client.post(f"/api/bot/tournaments/{closed}/join"))
    assert status == 401  # no token

    code = create(ann, format="swiss", rounds=1, table_size=2, match_rounds=1, bot_accounts=True)
    assert client.post(f"/api/bot/tournaments/{code}/join", headers=bearer(token)).status_code == 200
    ann.ok("post", f"/api/tournaments/{code}/join")
    entrants = page(client, code)["entrants"]
    assert [(e["name"], e["bot"]) for e in entrants] == [("robo", True), ("player1", False)]
    ann.ok("post", f"/api/tournaments/{code}/start")
    wait_for(client, code, finished)
    (table,) = page(client, code)["tables"]
    assert sorted(table["seats"]) == sorted(e["id"] for e in entrants)  # the bot account in its own seat
    assert client.post(f"/api/bot/tournaments/{code}/leave", headers=bearer(token)).status_code == 409


def test_a_par_of_bots_plays_every_duplicate_deal_and_is_compared_but_never_ranked(events_client: TestClient) -> None:
    client = events_client
    ann, bob = people(client, 2)
    code = create(ann, format="swiss", rounds=1, table_size=2, match_rounds=1, duplicate="difference", par=True)
    for person in (ann, bob):
        person.ok("post", f"/api/tournaments/{code}/join")
    ann.ok("post", f"/api/tournaments/{code}/start")
    wait_for(client, code, finished)
    shown = page(client, code)
    people_table, par = sorted(shown["tables"], key=lambda t: t["seats"] == [None, None])
    assert par["seats"] == [None, None] and par["deal"] == people_table["deal"] == 1
    assert sorted(people_table["seats"]) == sorted(e["id"] for e in shown["entrants"])
    (deal,) = shown["standings"]["deals"]
    assert [len(seat["rows"]) for seat in deal["seats"]] == [2, 2]  # each seat: the people's table and the par's
    assert {row["player"] for seat in deal["seats"] for row in seat["rows"]} >= {None}
    assert len(shown["standings"]["rows"]) == 2  # the par is compared with, never ranked
    assert shown["tiebreaks"] == ["matchpoints"]  # ranked by difference, match points breaking ties
