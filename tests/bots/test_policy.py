"""The rollout policies: the heaviest-tile policy's weights, the move features, the shipped learned policy."""

from __future__ import annotations

import random

import pytest

from chickenfoot import Round, Rules
from chickenfoot.bots import make_bot
from chickenfoot.bots.policy import MOVE_FEATURES, POLICIES, learned, move_features, rollout_policy
from chickenfoot.bots.search import rollout
from chickenfoot.move import PASS
from chickenfoot.tiles import tile_id


def mask(*tiles: tuple[int, int]) -> int:
    return sum(1 << tile_id(*t) for t in tiles)


def test_the_heaviest_policy_sheds_the_costliest_tile_doubles_first() -> None:
    rules = Rules(double_blank_points=25)
    heaviest = rollout_policy(rules)
    assert heaviest.features == ()  # the tile alone decides
    assert heaviest.tiles[tile_id(9, 8)] == 17.0 and heaviest.tiles[tile_id(8, 8)] == 19.0
    assert heaviest.tiles[0] == 28.0  # the 0-0 at the rules' value, a double
    assert heaviest.pass_score < min(heaviest.tiles)


def test_move_features_read_the_movers_hand_against_the_layout() -> None:
    rules = Rules()
    hands = [mask((9, 9), (1, 0)), mask((9, 5), (5, 5), (5, 2), (9, 3))]
    r = Round.from_masks(rules, hands, [], 9)
    r.push_code(r.legal_codes()[0])  # the hub, 9-9
    hub = tile_id(9, 9)
    codes = r.legal_codes()
    assert codes == [tile_id(9, 3) << 8 | hub, tile_id(9, 5) << 8 | hub]
    by_name = [dict(zip(MOVE_FEATURES, move_features(r, code), strict=True)) for code in codes]
    # 9-3 opens a 3 the mover cannot follow; 9-5 opens a 5 it can follow twice, with the 5-5 among them.
    # Seat 0 holds one tile: the round may end soon, so the tile's cost counts as late_points too.
    # Its 1-0 follows neither number: both placements open a number the next seat lacks.
    first = {"follow": 0, "stay": 1, "double_next": 0, "opened": 3, "dead_end": 1, "late_points": 12}
    second = {"follow": 2, "stay": 1, "double_next": 1, "opened": 5, "dead_end": 0, "late_points": 14}
    assert by_name[0] == first | {"next_lacks": 1, "double_next_lacks": 0, "later_lack": 0, "double_later_lack": 0}
    assert by_name[1] == second | {"next_lacks": 1, "double_next_lacks": 0, "later_lack": 0, "double_later_lack": 0}


def test_next_lacks_reads_the_next_seats_hand_and_the_blocking_policy_plays_on_it() -> None:
    rules = Rules()
    hands = [mask((9, 9), (5, 3)), mask((9, 5), (9, 3)), mask((5, 1), (2, 0))]
    r = Round.from_masks(rules, hands, [], 9)
    r.push_code(r.legal_codes()[0])  # seat 0 places the hub; seat 1 moves, seat 2 is next
    hub = tile_id(9, 9)
    nine_three, nine_five = tile_id(9, 3) << 8 | hub, tile_id(9, 5) << 8 | hub
    assert r.legal_codes() == [nine_three, nine_five]
    lacks = [dict(zip(MOVE_FEATURES, move_features(r, code), strict=True))["next_lacks"] for code in r.legal_codes()]
    assert lacks == [1, 0]  # seat 2 holds a 5 but no 3 (seat 0's 5-3 is not the next seat's)
    heaviest, blocking = rollout_policy(rules), rollout_policy(rules, "blocking")
    assert max(r.legal_codes(), key=lambda code: heaviest.score(r, code)) == nine_five
    assert max(r.legal_codes(), key=lambda code: blocking.score(r, code)) == nine_three


def test_later_lack_reads_every_seat_after_the_next() -> None:
    rules = Rules()
    hands = [mask((9, 9), (2, 1)), mask((9, 5), (9, 3)), mask((1, 0), (4, 4)), mask((5, 2), (6, 0))]
    r = Round.from_masks(rules, hands, [], 9)
    r.push_code(r.legal_codes()[0])  # seat 0 places the hub; seat 1 moves, seat 2 is next, then 3 and 0
    hub = tile_id(9, 9)
    assert r.legal_codes() == [tile_id(9, 3) << 8 | hub, tile_id(9, 5) << 8 | hub]
    by_name = [dict(zip(MOVE_FEATURES, move_features(r, code), strict=True)) for code in r.legal_codes()]
    # Seat 2 lacks both a 3 and a 5; seats 3 and 0 lack the 3, but seat 3 holds the 5-2.
    assert [(f["next_lacks"], f["later_lack"], f["double_later_lack"]) for f in by_name] == [(1, 1, 0), (1, 0, 0)]
    # Both block the next seat; the blocking policy prefers the 3 that no seat but the mover can follow,
    # though the 5 is heavier.
    blocking = rollout_policy(rules, "blocking")
    assert max(r.legal_codes(), key=lambda code: blocking.score(r, code)) == tile_id(9, 3) << 8 | hub


def test_a_double_on_a_line_opens_the_number_its_toes_need() -> None:
    rules = Rules()
    hands = [mask((9, 9), (9, 4), (9, 2), (1, 0)), mask((9, 5), (9, 3), (4, 4), (4, 1))]
    r = Round.from_masks(rules, hands, [], 9)
    hub = tile_id(9, 9)
    r.push_code(hub << 8 | 0xFF)
    for arm in ((9, 5), (9, 4), (9, 3), (9, 2)):  # the four arms, seats in turn: a 4 is open for seat 1
        r.push_code(tile_id(*arm) << 8 | hub)
    double = tile_id(4, 4) << 8 | tile_id(9, 4)
    assert double in r.legal_codes()
    # The 4-1 can be a toe; seat 0, next, holds only the 1-0: it lacks the 4 the double's toes need.
    assert move_features(r, double) == (1, 1, 0, 4, 0, 8, 1, 1, 0, 0)  # 2 players: no seat after the next


def test_the_learned_policy_ships_with_the_package() -> None:
    coefficients = learned()
    assert len(coefficients.move) == len(MOVE_FEATURES) and any(coefficients.move)
    chosen = rollout_policy(Rules(), "learned")
    assert len(chosen.tiles) == Rules().tile_count and chosen.features == coefficients.move
    with pytest.raises(ValueError, match="no rollout policy"):
        rollout_policy(Rules(), "softest")


@pytest.mark.parametrize("name", POLICIES)
def test_every_policy_plays_rounds_to_their_end(name: str) -> None:
    rules = Rules()
    chosen = rollout_policy(rules, name)
    rng = random.Random(2)
    for seed in range(20):
        r = Round.deal(rules, 4, seed=seed)
        points = rollout(r, rng, chosen, 0.0)
        assert r.is_over() and points == r.points()
    assert chosen.score(Round.deal(rules, 2, seed=1), PASS) == chosen.pass_score


def test_the_learned_search_bot_uses_the_learned_policy() -> None:
    assert getattr(make_bot("ismcts-learned"), "rollout", None) == "learned"
    assert getattr(make_bot("ismcts"), "rollout", None) == "heaviest"


def test_the_blocking_search_bot_and_the_expert_level_use_the_blocking_policy() -> None:
    assert getattr(make_bot("ismcts-blocking"), "rollout", None) == "blocking"
    assert getattr(make_bot("expert"), "rollout", None) == "blocking"
    assert getattr(make_bot("hard"), "rollout", None) == "heaviest"
