"""A bot's choice depends only on its seat's view: on twin rounds — every tile the seat never saw
dealt again, the public moves replayed, the views equal — every bot makes the same choice, and a
planted peek at the true round is caught."""

from __future__ import annotations

import dataclasses
import inspect
import random
from collections.abc import Callable
from dataclasses import fields

import pytest

from chickenfoot import Round, Rules
from chickenfoot.bots import BOTS, Bot, Budget, make_bot
from chickenfoot.bots.search import CheaterBot, SearchBot, cheat_choose
from chickenfoot.knowledge import twin
from chickenfoot.move import Move
from chickenfoot.tiles import TILES, ids_of
from chickenfoot.view import MatchStanding, SeatView

PAIRS = 10
BUDGET = Budget(iterations=60)

back_door: list[Round] = []
"""The true round of the position being decided: open to the planted peek alone."""


def twin_pairs(count: int) -> list[tuple[Round, Round]]:
    """``count`` positions (2 and 4 players, all through the round) with a twin that hides other tiles.

    Seeds are tried in order until ``count`` are found, so the same pairs come back every run."""
    pairs: list[tuple[Round, Round]] = []
    for seed in range(20 * count):
        rng = random.Random(seed)
        players = (2, 4)[seed % 2]
        r = Round.deal(Rules(), players, seed)
        bot = make_bot("greedy", seed)
        for _ in range(rng.randrange(4, 70)):
            if r.is_over():
                break
            r.push(bot.choose(r.view(r.to_move)))
        if r.is_over() or len(r.legal_codes()) < 2:
            continue
        other = twin(r, r.to_move, rng)
        if other is None or other.hands == r.hands:
            continue
        assert other.view(r.to_move) == r.view(r.to_move)
        pairs.append((r, other))
        if len(pairs) == count:
            return pairs
    raise AssertionError(f"only {len(pairs)} of {count} twin positions found")


PAIR_LIST = twin_pairs(PAIRS)


def decisions(choose: Callable[[SeatView], Move], pairs: list[tuple[Round, Round]]) -> list[tuple[Move, Move]]:
    """The move chosen in each round of each pair, with the back door showing that round."""
    chosen = []
    for pair in pairs:
        moves = []
        for r in pair:
            back_door[:] = [r]
            moves.append(choose(r.view(r.to_move)))
        chosen.append((moves[0], moves[1]))
    back_door.clear()
    return chosen


@pytest.mark.parametrize("name", list(BOTS))
def test_choice_depends_only_on_the_view(name: str) -> None:
    assert all(a == b for a, b in decisions(lambda view: make_bot(name, 3).choose(view, BUDGET), PAIR_LIST))


def late_in_a_match(view: SeatView) -> SeatView:
    """The view with standings of a close match in its last rounds (public, so equal on both twins)."""
    players = view.players
    totals = tuple(120 + 7 * s for s in range(players))
    return dataclasses.replace(view, match=MatchStanding(9, 10, totals, (1,) * players, (3,) * players))


def test_a_search_playing_for_the_match_depends_only_on_the_view() -> None:
    def choose(view: SeatView) -> Move:
        bot = make_bot("expert", 3)
        assert isinstance(bot, SearchBot) and bot.plays_match
        bot.workers = 1
        return bot.choose(late_in_a_match(view), BUDGET)

    assert all(a == b for a, b in decisions(choose, PAIR_LIST))


class PeekingBot(Bot):
    """The search, but sampling the true round through the back door: the leak the test must catch."""

    def choose(self, view: SeatView, budget: Budget | None = None) -> Move:
        return cheat_choose(CheaterBot(3), back_door[0], budget)


def test_a_planted_peek_is_caught() -> None:
    chosen = decisions(lambda view: PeekingBot().choose(view, BUDGET), PAIR_LIST)
    assert any(a != b for a, b in chosen)


def test_twins_hide_different_tiles_behind_equal_views() -> None:
    for r, other in PAIR_LIST:
        seat = r.to_move
        assert r.view(seat) == other.view(seat) and r.hands[seat] == other.hands[seat]
        assert [s.move for s in r.history] == [s.move for s in other.history]
        assert r.hands != other.hands
    assert {r.players for r, _ in PAIR_LIST} == {2, 4}


def test_the_bot_api_takes_a_view_never_a_round() -> None:
    for cls in {type(make_bot(name)) for name in BOTS} | {Bot}:
        params = inspect.signature(cls.choose).parameters
        assert params["view"].annotation in ("SeatView", SeatView)
    r = Round.deal(Rules(), 4, 1)
    view = r.view(0)
    assert not any(isinstance(getattr(view, f.name), Round) for f in fields(view))
    assert set(view.hand) == {TILES[t] for t in ids_of(r.hands[0])}
