"""Results and standings: place points, each tie-break, shared ranks, bad input, and names that decide nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot import Match, Rules
from chickenfoot.errors import TournamentError
from chickenfoot.tournament import PlayerStanding, Result, Tiebreak, place_points, standings
from tournament.strategies import relabelled, results_of

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)


def test_place_points_give_two_per_seat_beaten_and_one_per_tie() -> None:
    assert place_points((1, 2, 3, 4)) == (6, 4, 2, 0)
    assert place_points((1, 2, 2)) == (4, 1, 1)
    assert place_points((1, 1, 1, 1)) == (3, 3, 3, 3)
    assert place_points((2, 1)) == (0, 2)


@pytest.mark.parametrize(
    ("players", "points", "places", "error"),
    [
        (("a",), (1,), (1,), "a table seats 2 to 4, not 1"),
        (("a", "b", "c", "d", "e"), (1, 2, 3, 4, 5), (1, 2, 3, 4, 5), "a table seats 2 to 4, not 5"),
        (("a", "b"), (1,), (1, 2), "table t: one score and one place per seat"),
        (("a", "a"), (1, 2), (1, 2), "table t: a player holds two seats"),
        (("a", "b"), (1, 2), (2, 2), "table t: places must count the seats ahead, (2, 2) do not"),
        (("a", "b", "c"), (1, 2, 3), (1, 1, 2), "table t: places must count the seats ahead, (1, 1, 2) do not"),
    ],
)
def test_a_result_that_does_not_add_up_is_refused_in_one_line(
    players: tuple[str, ...], points: tuple[int, ...], places: tuple[int, ...], error: str
) -> None:
    with pytest.raises(TournamentError) as caught:
        Result("t", players, points, places)
    assert str(caught.value) == error


def test_a_result_from_a_match_takes_its_totals_and_its_ranks() -> None:
    """The places are the match's own ranks (docs/rules.md §6's tie-breaks), not the totals re-ranked."""
    match = Match(Rules(rounds=2), players=3, seed=11)
    with pytest.raises(TournamentError, match="table t: the match is not over"):
        Result.from_match("t", ("a", "b", "c"), match)
    while not match.is_over():
        if match.round.is_over():
            match.next_round()
        match.push(match.legal_moves()[0])
    result = Result.from_match("t", ("a", "b", "c"), match, deal=4, finished_at=9.5)
    assert result.points == tuple(match.totals())
    assert result.places == tuple(s.rank for s in sorted(match.standings(), key=lambda s: s.seat))
    assert (result.deal, result.finished_at) == (4, 9.5)
    with pytest.raises(TournamentError, match="table t: 2 players for 3 seats"):
        Result.from_match("t", ("a", "b"), match)


def test_bots_take_places_but_never_stand() -> None:
    result = Result.from_points("t", ("ann", None, "bob"), (5, 3, 9))
    table = standings([result])
    assert [(row.player, row.score) for row in table] == [("ann", 2), ("bob", 0)]


def test_entrants_without_a_result_stand_at_zero_in_seeding_order() -> None:
    table = standings([], (), ["cy", "ann", "bob"])
    assert [(row.rank, row.player, row.score, row.matches) for row in table] == [
        (1, "cy", 0, 0),
        (1, "ann", 0, 0),
        (1, "bob", 0, 0),
    ]
    with pytest.raises(TournamentError, match="ann is entered twice"):
        standings([], (), ["ann", "ann"])


def test_opponents_average_prefers_the_score_made_in_stronger_company() -> None:
    results = [
        Result.from_points("1", ("ann", "bob"), (0, 10)),
        Result.from_points("2", ("cy", "dan"), (0, 10)),
        Result.from_points("3", ("bob", "eve"), (0, 10)),  # bob wins again: ann's opponent is stronger
    ]
    table = standings(results, (Tiebreak.OPPONENTS_AVERAGE,))
    ann, cy = (next(row for row in table if row.player == p) for p in ("ann", "cy"))
    assert ann.score == cy.score == 2
    assert ann.tiebreaks == (2.0,) and cy.tiebreaks == (0.0,)
    assert ann.rank < cy.rank


def test_head_to_head_applies_only_when_every_tied_pair_has_met() -> None:
    met = [
        Result.from_points("1", ("ann", "bob"), (0, 10)),  # ann beat bob
        Result.from_points("2", ("bob", "cy"), (5, 5)),
        Result.from_points("3", ("bob", "dan"), (0, 10)),
        Result.from_points("4", ("ann", "eve"), (5, 5)),
    ]
    table = standings(met, (Tiebreak.HEAD_TO_HEAD,))
    assert [(row.rank, row.player, row.score, row.tiebreaks) for row in table[:2]] == [
        (1, "ann", 3, (2,)),
        (2, "bob", 3, (0,)),
    ]
    # cy reaches 3 too, and never met ann: the three-way tie is not decided head to head.
    rows = standings([*met, Result.from_points("5", ("cy", "dan"), (0, 10))], (Tiebreak.HEAD_TO_HEAD,))
    assert [(row.rank, row.player, row.tiebreaks) for row in rows[:3]] == [
        (1, "ann", (None,)),
        (1, "bob", (None,)),
        (1, "cy", (None,)),
    ]


def test_game_points_rank_fewer_first_and_equal_everything_shares_the_rank() -> None:
    results = [
        Result.from_points("1", ("ann", "bob"), (0, 10)),
        Result.from_points("2", ("cy", "dan"), (4, 10)),
        Result.from_points("3", ("eve", "fay"), (0, 10)),
    ]
    table = standings(results, (Tiebreak.GAME_POINTS,), ["eve", "ann", "cy"])
    assert [(row.rank, row.player) for row in table][:3] == [(1, "eve"), (1, "ann"), (3, "cy")]


def test_per_match_and_wins_are_an_arenas_tie_breaks() -> None:
    results = [
        Result.from_points("1", ("ann", "bob"), (0, 10)),
        Result.from_points("2", ("cy", "bob"), (0, 10)),
        Result.from_points("3", ("cy", "dan"), (5, 5)),
        Result.from_points("4", ("cy", "dan"), (10, 0)),
    ]
    rows = {row.player: row for row in standings(results, (Tiebreak.PER_MATCH, Tiebreak.WINS))}
    assert rows["ann"].score == 2 and rows["ann"].tiebreaks == (2.0, 1)
    assert rows["cy"].score == 3 and rows["cy"].tiebreaks == (1.0, 2)


def test_a_duplicate_tie_break_is_refused_for_table_standings() -> None:
    with pytest.raises(TournamentError, match="difference tie-break belongs to duplicate standings"):
        standings([Result.from_points("1", ("a", "b"), (1, 2))], (Tiebreak.DIFFERENCE,))


def ranked(table: list[PlayerStanding]) -> dict[str, tuple[int, float, tuple[float | None, ...]]]:
    return {row.player: (row.rank, row.score, row.tiebreaks) for row in table}


@SETTINGS
@given(results_of(), st.randoms(use_true_random=False))
def test_standings_do_not_depend_on_names(results: list[Result], rng: random.Random) -> None:
    tiebreaks = (Tiebreak.OPPONENTS_AVERAGE, Tiebreak.HEAD_TO_HEAD, Tiebreak.GAME_POINTS, Tiebreak.WINS)
    players = sorted({p for r in results for p in r.players if p is not None})
    names, renamed = relabelled(players, rng)
    before = ranked(standings(results, tiebreaks, players))
    after = ranked(standings(renamed(results), tiebreaks, [names[p] for p in players]))
    assert after == {names[p]: line for p, line in before.items()}


@SETTINGS
@given(results_of())
def test_every_table_hands_out_the_same_points_and_ranks_count_the_players_ahead(results: list[Result]) -> None:
    for result in results:
        size = len(result.players)
        assert sum(result.place_points()) == size * (size - 1)
    table = standings(results, (Tiebreak.GAME_POINTS,))
    for row in table:
        ahead = [
            other
            for other in table
            if (other.score, -(other.tiebreaks[0] or 0)) > (row.score, -(row.tiebreaks[0] or 0))
        ]
        assert row.rank == 1 + len(ahead)
