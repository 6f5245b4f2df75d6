"""One test per rule of docs/rules.md §1–§6, on hand-built positions."""

from __future__ import annotations

import random

import pytest

from chickenfoot import Match, Round, Rules
from chickenfoot.errors import IllegalMoveError, PositionError, RulesError
from chickenfoot.layout import Phase
from chickenfoot.match import explain_winner, standings
from chickenfoot.move import Move
from chickenfoot.tiles import TILES, Tile, full_set

from .helpers import CROSS, build, legal, play

# --- §1 Equipment and players ---------------------------------------------------------------


@pytest.mark.parametrize("n", range(6, 19))
def test_set_holds_every_pair_once(n: int) -> None:
    tiles = full_set(n)
    assert len(tiles) == (n + 1) * (n + 2) // 2 == Rules(max_pip=n).tile_count
    assert {(t.high, t.low) for t in tiles} == {(a, b) for a in range(n + 1) for b in range(a + 1)}


@pytest.mark.parametrize("n", [5, 19, 0])
def test_set_size_outside_6_to_18_is_rejected(n: int) -> None:
    with pytest.raises(RulesError, match="max_pip"):
        Rules(max_pip=n)


def test_players_two_or_more_and_play_goes_clockwise() -> None:
    with pytest.raises(RulesError, match="at least 2 players"):
        Rules().hand_size_for(1)
    with pytest.raises(PositionError, match="at least 2 hands"):
        build(["9-9 1-0"], "2-0")
    # Seat 2 of 3 opens; play wraps round to seat 0, then 1.
    r = build(["9-1 2-0", "9-2 3-0", "9-9 9-3"], "4-0", start=9)
    assert r.to_move == 2
    play(r, "9-9")
    assert r.to_move == 0
    play(r, "9-1@9-9")
    assert r.to_move == 1


@pytest.mark.parametrize(("players", "size"), [(2, 13), (3, 9), (4, 7), (5, 7), (6, 7), (7, 7), (8, 6)])
def test_hand_size_default_for_double_nine(players: int, size: int) -> None:
    assert Rules().hand_size_for(players) == size
    r = Round.deal(Rules(), players, seed=players)
    assert [len(r.hand(s)) for s in range(players)] == [size] * players


def test_hand_size_formula_for_every_set() -> None:
    for n in range(6, 19):
        total = Rules(max_pip=n).tile_count
        for players in range(2, 12):
            expected = min((total - 1) // players, max(7, total // (2 * players)))
            if expected < 1:
                continue
            assert Rules(max_pip=n).hand_size_for(players) == expected


@pytest.mark.parametrize(
    ("rules", "players"),
    [(Rules(max_pip=6), 28), (Rules(max_pip=6), 30), (Rules(hand_size=10), 6), (Rules(max_pip=6, hand_size=27), 2)],
)
def test_configuration_that_cannot_be_dealt_is_rejected(rules: Rules, players: int) -> None:
    with pytest.raises(RulesError, match="cannot deal"):
        rules.hand_size_for(players)
    with pytest.raises(RulesError):
        Round.deal(rules, players, seed=1)
    with pytest.raises(RulesError):
        Match(rules, players, seed=1)


def test_configuration_leaving_exactly_one_tile_is_dealt() -> None:
    r = Round.deal(Rules(hand_size=9), 6, seed=4)  # 54 dealt, 1 left
    assert r.boneyard_size == 1


def test_boneyard_is_the_undealt_tiles() -> None:
    r = Round.deal(Rules(max_pip=12), 5, seed=7)
    dealt = [t for s in range(5) for t in r.hand(s)]
    assert sorted(dealt + r.boneyard_tiles()) == full_set(12)
    assert r.boneyard_size == 91 - 5 * Rules(max_pip=12).hand_size_for(5)
    assert r.placed() == []


# --- §2 Rounds and the match ----------------------------------------------------------------


def test_match_has_n_plus_one_rounds_from_n_n_down_to_blank() -> None:
    assert Rules().start_doubles() == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert Rules(max_pip=12, rounds=3).start_doubles() == [12, 11, 10]
    m = Match(Rules(max_pip=6), players=3, seed=2)
    starts = []
    while True:
        starts.append(m.round.start_double)
        m.round.playout(random.Random(len(starts)))
        m.round_points.append(m.round.points())
        if m.is_over():
            break
        m.next_round()
    assert starts == [6, 5, 4, 3, 2, 1, 0]
    with pytest.raises(IllegalMoveError, match="match is over"):
        m.next_round()


def test_each_round_is_dealt_afresh_from_the_whole_set() -> None:
    m = Match(Rules(rounds=2), players=4, seed=9)
    m.round.playout(random.Random(0))
    m.round_points.append(m.round.points())
    second = m.next_round()
    assert second.placed() == []
    held = [t for s in range(4) for t in second.hand(s)]
    assert sorted(held + second.boneyard_tiles()) == full_set(9)
    assert m.deals[0] != m.deals[1]


def test_opening_holder_places_the_double_then_the_next_seat_plays() -> None:
    r = build(["9-4 8-8 7-2", "3-3 6-1", "5-0 9-9", "2-1"], "3-1 0-0")
    assert r.to_move == 2 and legal(r) == ["9-9"]
    with pytest.raises(IllegalMoveError, match="illegal move draw"):
        r.push(Move.parse("draw"))
    play(r, "9-9")
    assert r.to_move == 3 and r.phase is Phase.HUB


@pytest.mark.parametrize("draw_limit", ["one", "until_playable"])
@pytest.mark.parametrize("drawn_tile", ["may", "must"])
def test_opening_draws_start_at_seat_k_minus_1_one_tile_each(draw_limit: str, drawn_tile: str) -> None:
    # Round 3 of a double-9 match starts with 7-7: nobody holds it, so seat (3-1) mod 3 = 2 draws first.
    r = build(
        ["9-1 2-2", "9-2 3-3", "9-3 4-4"], "1-0 2-0 7-7 5-0", start=7, draw_limit=draw_limit, drawn_tile=drawn_tile
    )
    assert r.to_move == 2 and legal(r) == ["draw"]
    play(r, "draw")  # 1-0: seat 2 keeps it, seat 0 draws next
    assert r.to_move == 0 and Tile.parse("1-0") in r.hand(2)
    play(r, "draw")  # 2-0
    assert r.to_move == 1 and Tile.parse("2-0") in r.hand(0)
    play(r, "draw")  # 7-7: seat 1 must place it at once, no pass even with `may`
    assert r.to_move == 1 and legal(r) == ["7-7"] and r.drawn_tile == Tile.parse("7-7")
    play(r, "7-7")
    assert r.to_move == 2 and r.phase is Phase.HUB
    assert [s.seat for s in r.history] == [2, 0, 1, 1]
    assert r.boneyard_tiles() == [Tile.parse("5-0")]


def test_round_k_first_drawer_is_n_minus_s_mod_p() -> None:
    for start in range(10):
        for players in (2, 3, 4, 7):
            r = build([f"9-{seat}" for seat in range(players)], f"{start}-{start}", start=start)
            assert r.to_move == (9 - start) % players
            assert legal(r) == ["draw"]


def test_the_starting_double_is_the_hub() -> None:
    r = play(build(["9-9 9-1", "9-2 1-0"], "3-0"), "9-9")
    assert r.layout.hub == Tile.parse("9-9").id
    assert [(TILES[t], n) for t, n in r.layout.open_ends()] == [(Tile.parse("9-9"), 9)]


# --- §3 Play --------------------------------------------------------------------------------


@pytest.mark.parametrize("arms", [4, 6, 8])
def test_hub_phase_only_new_arms_until_every_arm_has_one(arms: int) -> None:
    placed = [f"9-{n}@9-9" for n in range(arms - 1)]
    ends = set(range(arms - 1))
    # Seat 0 holds 8-0, which fits the far end of arm 9-0, but the hub still lacks an arm.
    r = build(["9-8 8-0 6-6", "3-0 8-2 7-7"], "5-5", " ".join(["9-9", *placed]), to_move=0, hub_arms=arms)
    assert r.phase is Phase.HUB
    assert legal(r) == ["9-8@9-9"]
    play(r, "9-8@9-9")
    assert r.layout.phase is Phase.OPEN
    ends.add(8)
    expected = [f"3-0@9-{n}" for n in (0, 3) if n in ends] + [f"8-2@9-{n}" for n in (2, 8) if n in ends]
    assert legal(r) == sorted(expected)


def test_hub_phase_without_a_hub_tile_draws() -> None:
    r = build(["8-0 6-6", "9-7 7-7"], "5-5", "9-9 9-0@9-9", to_move=0)
    assert legal(r) == ["draw"]
    with pytest.raises(IllegalMoveError, match=r"hub 9-9 needs \d more arms? carrying 9"):
        r.push(Move.parse("8-0@9-0"))


def test_hub_arms_cannot_exceed_max_pip() -> None:
    with pytest.raises(RulesError, match="cannot exceed"):
        Rules(max_pip=6, hub_arms=8)
    assert Rules(max_pip=8, hub_arms=8).hub_arms == 8


FOOT_HANDS = ["4-4 4-2 6-0 8-5", "4-0 1-0 4-3 7-5"]


def test_double_opens_a_chicken_foot_whose_toes_any_player_must_play() -> None:
    r = build(FOOT_HANDS, "8-7", CROSS, to_move=0)
    assert legal(r) == ["4-2@9-2", "4-2@9-4", "4-4@9-4"]
    play(r, "4-4@9-4")
    assert r.phase is Phase.FOOT
    assert legal(r) == ["4-0@4-4", "4-3@4-4"]  # 1-0 fits the open 1 of 9-1, but toes come first
    play(r, "4-0@4-4")
    assert legal(r) == ["4-2@4-4"]  # seat 0's 6-0 fits the new toe's 0, still toes first
    with pytest.raises(
        IllegalMoveError, match="Chicken foot on 4-4: 2 more toes carrying 4, nothing else may be played"
    ):
        r.push(Move.parse("6-0@4-0"))
    play(r, "4-2@4-4", "4-3@4-4")
    assert r.layout.phase is Phase.OPEN


def test_toe_ends_become_playable_and_the_double_has_no_end_of_its_own() -> None:
    r = play(build(FOOT_HANDS, "8-7", CROSS, to_move=0), "4-4@9-4", "4-0@4-4", "4-2@4-4", "4-3@4-4")
    assert legal(r) == ["6-0@4-0"]
    assert sorted((str(TILES[t]), n) for t, n in r.layout.open_ends()) == [
        ("4-0", 0),
        ("4-2", 2),
        ("4-3", 3),
        ("9-1", 1),
        ("9-2", 2),
        ("9-3", 3),
    ]
    play(r, "6-0@4-0")
    assert legal(r) == ["1-0@9-1"]


def test_only_one_foot_open_and_never_in_the_hub_phase() -> None:
    # Every double other than the hub is placed on a line end; arms and toes carry the hub or
    # foot number, whose only double is already placed.
    for n in range(6, 19):
        for d in range(n + 1):
            carrying = [t for t in full_set(n) if d in (t.high, t.low)]
            assert [t for t in carrying if t.is_double] == [Tile(d, d)]


def test_foot_impossible_to_finish_leads_to_draws_then_a_blocked_round() -> None:
    # No tile carrying 4 is left: nobody can play; the last draw empties the boneyard: blocked.
    r = build(["1-0 2-0", "3-0 5-5"], "6-1 6-0", CROSS + " 4-4@9-4", to_move=0)
    assert r.phase is Phase.FOOT
    assert legal(r) == ["draw"]
    play(r, "draw")
    assert r.to_move == 1 and legal(r) == ["draw"]
    play(r, "draw")
    assert r.is_over() and r.end_reason == "blocked"
    assert r.points() == [1 + 2 + 6 + 1, 3 + 10 + 6]


# --- §4 A turn ------------------------------------------------------------------------------


def test_a_player_with_a_legal_play_must_play() -> None:
    r = build(["1-0 8-8", "2-0 8-7"], "6-6", CROSS, to_move=0)
    assert legal(r) == ["1-0@9-1"]
    for word in ("draw", "pass"):
        with pytest.raises(IllegalMoveError, match="has a legal play and must play"):
            r.push(Move.parse(word))


def test_no_legal_play_draws_one_and_an_unplayable_tile_passes_the_turn() -> None:
    r = build(["8-8 7-6", "2-0 8-7"], "6-6 1-0", CROSS, to_move=0)
    assert legal(r) == ["draw"]
    play(r, "draw")
    assert r.to_move == 1 and Tile.parse("6-6") in r.hand(0) and r.drawn_tile is None


def test_drawn_tile_may_be_played_at_once_or_passed() -> None:
    r = build(["8-8 7-6", "2-0 8-7"], "4-1 6-6", CROSS, to_move=0)
    play(r, "draw")
    assert r.to_move == 0 and r.drawn_tile == Tile.parse("4-1")
    assert legal(r) == ["4-1@9-1", "4-1@9-4", "pass"]
    play(r, "pass")
    assert r.to_move == 1 and Tile.parse("4-1") in r.hand(0)


def test_only_the_drawn_tile_may_be_played() -> None:
    r = build(["8-8 7-6", "2-0 8-7"], "4-1 6-6", CROSS, to_move=0)
    play(r, "draw")
    with pytest.raises(IllegalMoveError, match="drew 4-1"):
        r.push(Move.parse("draw"))


def test_drawn_tile_must_be_played_with_must() -> None:
    r = build(["8-8 7-6", "2-0 8-7"], "4-1 6-6", CROSS, to_move=0, drawn_tile="must")
    play(r, "draw")
    assert legal(r) == ["4-1@9-1", "4-1@9-4"]
    with pytest.raises(IllegalMoveError, match="illegal move pass"):
        r.push(Move.parse("pass"))


def test_draw_until_playable_is_separate_draw_moves_by_the_same_seat() -> None:
    r = build(["8-8 7-6", "2-0 8-7"], "6-6 5-5 3-2 0-0", CROSS, to_move=0, draw_limit="until_playable")
    play(r, "draw", "draw")
    assert r.to_move == 0 and legal(r) == ["draw"] and r.drawn_tile is None
    play(r, "draw")
    assert r.drawn_tile == Tile.parse("3-2")
    assert legal(r) == ["3-2@9-2", "3-2@9-3", "pass"]
    assert [(s.seat, str(s.move), str(s.drawn)) for s in r.history] == [
        (0, "draw", "6-6"),
        (0, "draw", "5-5"),
        (0, "draw", "3-2"),
    ]


def test_draw_until_playable_stops_when_the_boneyard_empties() -> None:
    r = build(["8-8 7-6", "2-0 8-7"], "6-6 5-5", CROSS, to_move=0, draw_limit="until_playable")
    play(r, "draw", "draw")
    assert r.to_move == 1 and r.boneyard_size == 0 and legal(r) == ["2-0@9-2"]


def test_no_legal_play_and_empty_boneyard_passes() -> None:
    r = build(["8-8 7-6", "2-0 8-7"], "", CROSS, to_move=0)
    assert not r.is_over() and legal(r) == ["pass"]
    play(r, "pass")
    assert r.to_move == 1 and legal(r) == ["2-0@9-2"]


# --- §5 End of a round and scoring -----------------------------------------------------------


def test_round_ends_at_once_on_the_last_tile_even_with_a_foot_open() -> None:
    r = build(["4-4", "4-0 1-0 4-3"], "8-7", CROSS, to_move=0)
    play(r, "4-4@9-4")
    assert r.is_over() and r.end_reason == "domino" and r.phase is Phase.FOOT
    assert r.points() == [0, 4 + 1 + 7]
    assert r.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="round is over"):
        r.push(Move.parse("4-0@4-4"))


def test_round_ends_blocked_when_the_boneyard_is_empty_and_nobody_can_play() -> None:
    r = build(["8-8 1-0", "7-7 8-5"], "", CROSS, to_move=0)
    play(r, "1-0@9-1")
    assert r.is_over() and r.end_reason == "blocked"
    assert build(["8-8 7-6", "7-7 8-5"], "", CROSS).end_reason == "blocked"


def test_a_playable_drawn_last_tile_does_not_block_the_round() -> None:
    r = build(["8-8 7-6", "7-7 8-5"], "4-0", CROSS, to_move=0)
    play(r, "draw")
    assert not r.is_over() and legal(r) == ["4-0@9-4", "pass"]
    play(r, "pass")
    assert legal(r) == ["pass"]
    play(r, "pass")
    assert legal(r) == ["4-0@9-4"]


@pytest.mark.parametrize(("blank", "points"), [(50, 55), (0, 5), (25, 30), (100, 105)])
def test_points_are_the_pips_left_the_double_blank_counting_its_option(blank: int, points: int) -> None:
    r = build(["0-0 3-2", "8-2 5-0"], "", CROSS, to_move=0, double_blank_points=blank)
    assert r.points() == [points, 10 + 5]


def test_a_player_with_no_tiles_scores_zero() -> None:
    r = play(build(["1-0", "0-0 8-8"], "7-7", CROSS, to_move=0), "1-0@9-1")
    assert r.points() == [0, 50 + 16]


def test_scores_add_up_over_the_rounds() -> None:
    m = Match(Rules(rounds=3), players=3, seed=5)
    rng = random.Random(5)
    while True:
        m.round.playout(rng)
        m.round_points.append(m.round.points())
        if m.is_over():
            break
        m.next_round()
    assert m.totals() == [sum(p[s] for p in m.round_points) for s in range(3)]


# --- §6 Winning the match -------------------------------------------------------------------


def ranks(round_points: list[list[int]]) -> list[int]:
    """Each seat's rank."""
    table = standings(round_points, len(round_points[0]))
    return [next(s.rank for s in table if s.seat == seat) for seat in range(len(round_points[0]))]


def test_lowest_total_wins() -> None:
    assert ranks([[10, 5, 7], [0, 9, 1]]) == [2, 3, 1]  # totals 10, 14, 8
    assert explain_winner(standings([[10, 5, 7], [0, 9, 1]], 3)) == "seat 2 wins with the lowest total (8)"


def test_tie_goes_to_the_most_rounds_scored_zero() -> None:
    points = [[0, 4], [10, 6]]  # totals 10 and 10; seat 0 scored 0 once
    assert ranks(points) == [1, 2]
    assert "seat 0 wins with the most rounds scored 0 (1)" in explain_winner(standings(points, 2))


def test_then_to_the_lowest_nonzero_round_score() -> None:
    points = [[0, 0], [9, 2], [1, 8]]  # totals 10/10, one zero round each; lowest non-zero 1 vs 2
    assert ranks(points) == [1, 2]
    assert "seat 0 wins with the lowest non-zero round score (1)" in explain_winner(standings(points, 2))


def test_every_round_zero_ties_only_with_every_round_zero() -> None:
    # Equal totals and equal counts of zero rounds leave no seat alone without a non-zero round.
    points = [[0, 0, 5], [0, 0, 5]]
    assert ranks(points) == [1, 1, 3]
    assert explain_winner(standings(points, 3)).endswith(
        "share the win: tied on total, rounds scored 0 and lowest non-zero round"
    )


def test_still_tied_the_win_is_shared() -> None:
    points = [[0, 0, 3], [4, 4, 1], [2, 2, 2]]  # totals 6, 6, 6; one zero round each; lowest 2, 2, 1
    assert ranks(points) == [1, 1, 3]
    m = Match(Rules(rounds=3), players=3, seed=1)
    m.round_points = points
    assert m.winners() == [0, 1]
    assert (
        m.explain_winner()
        == "seat 0 and seat 1 share the win: tied on total, rounds scored 0 and lowest non-zero round"
    )
