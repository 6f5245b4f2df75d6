"""Exact endgames: the solver's values match a plain game-tree search, every deal it averages over
agrees with the seat's knowledge, and the search plays the solved best move."""

from __future__ import annotations

import dataclasses
import random

import pytest

from chickenfoot import Round, Rules
from chickenfoot.bots import Budget, SearchBot, endgame, make_bot
from chickenfoot.knowledge import Knowledge, twin
from chickenfoot.view import SeatView


def endgames(players: int, count: int, seed: int = 0, max_tiles: int = 8) -> list[tuple[Round, SeatView]]:
    """Positions of greedy rounds where the endgame applies, the seat to move has a choice and at most
    ``max_tiles`` tiles are in hands (small enough for a search without transpositions)."""
    found: list[tuple[Round, SeatView]] = []
    for game in range(seed, seed + 40 * count):
        r = Round.deal(Rules(), players, game)
        bot = make_bot("greedy", game)
        while not r.is_over():
            view = r.view(r.to_move)
            if endgame.applies(view) and len(view.legal_moves) > 1 and sum(view.hand_sizes) <= max_tiles:
                found.append((r.copy(), view))
                break
            r.push(bot.choose(view))
        if len(found) == count:
            return found
    raise AssertionError(f"only {len(found)} endgames found")


def reference(r: Round) -> tuple[int, ...]:
    """Plain max^n on the true round, no transpositions: each seat plays for its own reward."""
    if r.is_over():
        return tuple(r.points())
    mover, best, best_value = r.to_move, (), -float("inf")
    for code in list(r.legal_codes()):
        r.push_code(code)
        points = reference(r)
        r.pop()
        value = endgame.reward(points, mover)
        if value > best_value:
            best, best_value = points, value
    return best


TWO = endgames(2, 8)


@pytest.mark.parametrize("index", range(len(TWO)))
def test_two_player_values_match_a_plain_game_tree_search(index: int) -> None:
    # With two players and no boneyard nothing is hidden: one deal, and its values are exact.
    r, view = TWO[index]
    stats = endgame.solve(view)
    assert stats is not None
    for code, (deals, total) in stats.items():
        assert deals == 1
        r.push_code(code)
        assert total == pytest.approx(endgame.reward(reference(r), view.seat or 0))
        r.pop()


def test_the_search_plays_the_solved_best_move() -> None:
    differing = 0
    for _, view in TWO:
        stats = endgame.solve(view)
        assert stats is not None
        best = max(stats.values(), key=lambda s: s[1])[1]
        chosen = SearchBot(seed=1, budget=Budget(iterations=8)).choose(view)
        assert stats[chosen.code][1] == best
        differing += len({total for _, total in stats.values()}) > 1
    assert differing >= 3  # positions where the choice matters


@pytest.mark.parametrize("players", [3, 4])
def test_every_twin_is_among_the_deals_and_every_deal_shows_the_same_view(players: int) -> None:
    rng = random.Random(players)
    for r, view in endgames(players, 4, seed=100):
        seat = r.to_move
        knowledge = Knowledge(view)
        dealt = [tuple(hands) for hands in endgame.deals(view, knowledge)]
        assert len(set(dealt)) == len(dealt) and tuple(r.hands) in dealt
        template = knowledge.round(rng)
        for hands in dealt:
            copy = template.copy()
            copy.hands = list(hands)
            # The solver's rounds start from the layout, without the history that led there.
            assert dataclasses.replace(copy.view(seat), history=view.history) == view
        for _ in range(20):
            other = twin(r, seat, rng)
            assert other is not None and tuple(other.hands) in dealt


def test_large_endgames_are_left_to_the_search() -> None:
    r = Round.deal(Rules(), 2, 0)
    assert not endgame.applies(r.view(r.to_move))
    assert endgame.solve(r.view(r.to_move)) is None


def test_an_endgame_over_its_limits_is_left_to_the_search() -> None:
    _, view = TWO[0]
    assert endgame.solve(view, max_nodes=1) is None
    assert endgame.solve(view, max_deals=0) is None
    assert SearchBot(seed=1, budget=Budget(iterations=8)).choose(view) in view.legal_moves
