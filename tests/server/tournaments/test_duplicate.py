"""A duplicate event of eight people on two tables of four, over two deals, each person playing their own
seat (a scripted client on the table's socket, choosing among the legal moves at random, so the two
tables of a deal play it differently): every table of a deal is dealt the same tiles in the same seats
(each round's hands and boneyard, as the stored match records show), and the comparison the server
shows, deal by deal and seat by seat, is the one computed here from those records alone: match points
(2 for each other table's player at the seat with more points, 1 for each with as many) and differences
(their average minus one's own), then each player's share of match points."""

from __future__ import annotations

import dataclasses
import random
from collections import defaultdict
from collections.abc import Callable
from contextlib import ExitStack
from fractions import Fraction
from typing import Any

from fastapi.testclient import TestClient

from chickenfoot.server.clock import FakeClock

from ..accounts.conftest import GENEROUS
from ..conftest import INSTANT, Player, play_out
from ..social.conftest import EVERYTHING, Person
from .conftest import create, finished, page, people, wait_for

EIGHT = 8
DEALS = 2


def records(client: TestClient, tables: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    found = {}
    for table in tables:
        response = client.get(f"/api/tables/{table['code']}/record")
        assert response.status_code == 200, response.text
        found[table["code"]] = response.json()
    return found


def totals(record: dict[str, Any]) -> list[int]:
    """Each seat's match total: its points summed over the record's rounds."""
    return [sum(points) for points in zip(*(r["points"] for r in record["rounds"]), strict=True)]


def play_round(client: TestClient, code: str, number: int, by_account: dict[int, Person], rng: random.Random) -> None:
    """Every table of round ``number``, each person at their own seat (the account's, opened by its session)."""
    wait_for(client, code, lambda event, playing: event.round == number and playing == 2)
    for table in [t for t in page(client, code)["tables"] if t["round"] == number]:
        with ExitStack() as stack:
            seated = {
                seat: Player(stack.enter_context(by_account[account].socket(table["code"])))
                for seat, account in enumerate(table["seats"])
            }
            assert play_out(seated, rng)["match_over"] is not None


def test_a_duplicate_event_deals_alike_and_compares_each_seat_as_its_records_say(
    make_client: Callable[..., TestClient], no_events_yet: None, clock: FakeClock
) -> None:
    # Nobody is covered by a bot (the clock stands): each seat is played by its person.
    timing = dataclasses.replace(INSTANT, grace=3600)
    client = make_client(timing, addresses=GENEROUS, account_limits=EVERYTHING, clock=clock)
    players = people(client, EIGHT)
    code = create(players[0], format="swiss", table_size=4, rounds=DEALS, match_rounds=2, duplicate="matchpoints")
    for person in players:
        person.ok("post", f"/api/tournaments/{code}/join")
    ids = {entrant["name"]: entrant["id"] for entrant in page(client, code)["entrants"]}
    by_account = {ids[person.name]: person for person in players}
    players[0].ok("post", f"/api/tournaments/{code}/start")
    rng = random.Random(41)
    for number in range(1, DEALS + 1):
        play_round(client, code, number, by_account, rng)
    wait_for(client, code, finished)

    shown = page(client, code)
    tables = shown["tables"]
    kept = records(client, tables)
    by_deal: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for table in tables:
        by_deal[table["deal"]].append(table)
    assert sorted(by_deal) == [1, 2]
    for deal, dealt in by_deal.items():
        assert len(dealt) == 2, f"deal {deal}"
        assert all(None not in t["seats"] for t in dealt)  # eight people fill both tables
        first, second = (kept[t["code"]] for t in dealt)
        assert len(first["rounds"]) == len(second["rounds"]) == 2
        for one, other in zip(first["rounds"], second["rounds"], strict=True):
            assert one["hands"] == other["hands"]  # seat by seat
            assert one["boneyard"] == other["boneyard"]  # in draw order
    one_hand, other_hand = (kept[by_deal[deal][0]["code"]]["rounds"][0]["hands"] for deal in (1, 2))
    assert one_hand != other_hand  # each deal its own
    moves = [[r["moves"] for r in kept[t["code"]]["rounds"]] for t in by_deal[1]]
    assert moves[0] != moves[1]  # the same tiles, played differently
    for deal, dealt in by_deal.items():
        assert sorted(s for t in dealt for s in t["seats"]) == sorted(e["id"] for e in shown["entrants"]), deal

    # The comparison, computed from the records alone.
    won: dict[str, int] = defaultdict(int)
    tops: dict[str, int] = defaultdict(int)
    differences: dict[str, Fraction] = defaultdict(Fraction)
    expected_deals = []
    for deal in sorted(by_deal):
        dealt = by_deal[deal]
        seats = []
        for seat in range(4):
            points = {t["code"]: totals(kept[t["code"]])[seat] for t in dealt}
            rows = {}
            for table in dealt:
                own = points[table["code"]]
                others = [p for c, p in points.items() if c != table["code"]]
                matchpoints = sum(2 if own < p else 1 if own == p else 0 for p in others)
                difference = Fraction(sum(others), len(others)) - own
                player = str(table["seats"][seat])
                rows[table["code"]] = (player, own, matchpoints, 2 * len(others), float(difference))
                won[player] += matchpoints
                tops[player] += 2 * len(others)
                differences[player] += difference
            seats.append(rows)
        expected_deals.append((deal, seats))

    comparison = shown["standings"]["deals"]
    assert [d["deal"] for d in comparison] == [deal for deal, _ in expected_deals]
    for shown_deal, (deal, seats) in zip(comparison, expected_deals, strict=True):
        for shown_seat, rows in zip(shown_deal["seats"], seats, strict=True):
            got = {
                r["table"]: (r["player"], r["points"], r["matchpoints"], r["top"], r["difference"])
                for r in shown_seat["rows"]
            }
            assert got == rows, f"deal {deal}, seat {shown_seat['seat']}"
            listed = [r["points"] for r in shown_seat["rows"]]
            assert listed == sorted(listed)  # the best result first

    percent = {player: 100 * won[player] / tops[player] for player in won}
    rows = shown["standings"]["rows"]
    assert {r["player"]: r["score"] for r in rows} == percent
    assert {r["player"]: r["tiebreaks"] for r in rows} == {p: [float(d)] for p, d in differences.items()}
    assert all(r["matches"] == DEALS for r in rows)
    scores = [(r["score"], r["tiebreaks"][0]) for r in rows]
    assert scores == sorted(scores, reverse=True)  # ranked by match points, then the difference
    assert shown["tiebreaks"] == ["difference"]
