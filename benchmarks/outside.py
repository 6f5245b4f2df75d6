"""Our bots against OpenSpiel's own searchers on ``python_chickenfoot``, and what those searchers cost.

The opponents come from ``open_spiel.python.algorithms``, unchanged:

- ``os-ismcts``: ``ismcts.ISMCTSBot`` with random rollouts (``RandomRolloutEvaluator``), resampling
  hidden tiles through the game's ``resample_from_infostate``;
- ``os-dmcts``: determinized MCTS — the simulations split over ``DETERMINIZATIONS`` deals drawn by
  ``resample_from_infostate``, each searched by ``mcts.MCTSBot`` (random rollouts, draws as chance
  nodes), root visit counts summed over the deals, the most visited action played.

Both play the zero-sum game (the table's mean points minus the seat's own, what our search also
maximises); their exploration constant is ours in point units (``EXPLORATION * REWARD_SCALE``).
A round is one OpenSpiel game whose chance nodes follow a fixed deal, so every rotation of the
line-up holds the same tiles and draws the same boneyard order (duplicate play).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import chickenfoot.interop.openspiel  # noqa: F401 (registers python_chickenfoot)
from chickenfoot.bots import Budget, make_bot
from chickenfoot.bots.search import EXPLORATION, REWARD_SCALE, SearchBot
from chickenfoot.interop.actions import ActionCodec
from chickenfoot.rules import Rules

DETERMINIZATIONS = 4
UCT_C = EXPLORATION * REWARD_SCALE


class Player(Protocol):
    def action(self, state: Any) -> int: ...


class OursPlayer:
    """One of our bots (a ``make_bot`` name) at a fixed iteration budget, given only the seat's view."""

    def __init__(self, name: str, iterations: int, seed: int) -> None:
        self.bot = make_bot(name, seed)
        if isinstance(self.bot, SearchBot):
            self.bot.workers = 1
        self.budget = Budget(iterations=iterations)
        self.codec = ActionCodec.for_max_pip(Rules().max_pip)

    def action(self, state: Any) -> int:
        view = state.view(state.current_player())
        return self.codec.action_of(self.bot.choose(view, self.budget))


class IsmctsPlayer:
    def __init__(self, game: pyspiel.Game, simulations: int, seed: int) -> None:
        rng = np.random.RandomState(seed)
        self.bot = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rng), uct_c=UCT_C, max_simulations=simulations, random_state=rng
        )

    def action(self, state: Any) -> int:
        return int(self.bot.step(state))


class DeterminizedMctsPlayer:
    def __init__(self, game: pyspiel.Game, simulations: int, seed: int) -> None:
        self.rng = np.random.RandomState(seed)
        share = max(1, simulations // DETERMINIZATIONS)
        self.bot = mcts.MCTSBot(
            game, UCT_C, share, mcts.RandomRolloutEvaluator(1, self.rng), random_state=self.rng, solve=False
        )

    def action(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        player = state.current_player()
        visits = dict.fromkeys(legal, 0)
        sampler = pyspiel.UniformProbabilitySampler(int(self.rng.randint(2**31)), 0.0, 1.0)
        for _ in range(DETERMINIZATIONS):
            root = self.bot.mcts_search(state.resample_from_infostate(player, sampler))
            for child in root.children:
                visits[child.action] += child.explore_count
        return max(legal, key=lambda a: visits[a])


def make_player(game: pyspiel.Game, name: str, simulations: int, seed: int) -> Player:
    if name == "os-ismcts":
        return IsmctsPlayer(game, simulations, seed)
    if name == "os-dmcts":
        return DeterminizedMctsPlayer(game, simulations, seed)
    return OursPlayer(name, simulations, seed)


def deal_order(game: pyspiel.Game, deal_seed: int) -> list[int]:
    """The tiles in deal order: hands seat by seat, then the boneyard in draw order."""
    tiles = list(range(game.max_chance_outcomes()))
    random.Random(deal_seed).shuffle(tiles)
    return tiles


def play_round(game: pyspiel.Game, seats: Sequence[Player], order: Sequence[int]) -> tuple[list[float], list[float]]:
    """Play one round on a fixed deal: returns per seat and CPU seconds per decision per seat."""
    state = game.new_initial_state()
    dealt = 0
    draws = iter(order[game.num_players() * Rules().hand_size_for(game.num_players()) :])
    seconds: list[list[float]] = [[] for _ in seats]
    while not state.is_terminal():
        if state.is_chance_node():
            if dealt < game.num_players() * Rules().hand_size_for(game.num_players()):
                state.apply_action(order[dealt])
                dealt += 1
            else:
                state.apply_action(next(draws))
            continue
        player = state.current_player()
        if len(state.legal_actions()) == 1:
            state.apply_action(state.legal_actions()[0])
            continue
        start = time.process_time()
        action = seats[player].action(state)
        seconds[player].append(time.process_time() - start)
        state.apply_action(action)
    return list(state.returns()), [sum(s) / len(s) if s else 0.0 for s in seconds]


@dataclass(frozen=True)
class SpeedResult:
    players: int
    clone_microseconds: float
    ismcts_seconds_per_move: float
    simulations: int
    positions: int


def mid_round_states(game: pyspiel.Game, count: int, seed: int) -> list[Any]:
    """States a few moves into rounds of random play, at a decision with more than one legal action."""
    rng = np.random.RandomState(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        stop = int(rng.randint(4, 30))
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            if moves >= stop and len(state.legal_actions()) > 1:
                found.append(state)
                break
            state.apply_action(int(rng.choice(state.legal_actions())))
            moves += 1
    return found


def speed(players: int, positions: int, simulations: int, seed: int = 0) -> SpeedResult:
    """Mean CPU microseconds of ``state.clone()`` and CPU seconds of an ``ISMCTSBot`` move at ``simulations``."""
    game = pyspiel.load_game("python_chickenfoot", {"players": players, "zero_sum": True})
    states = mid_round_states(game, positions, seed)
    clones = 50
    start = time.process_time()
    for state in states:
        for _ in range(clones):
            state.clone()
    clone = (time.process_time() - start) / (clones * len(states)) * 1e6
    player = IsmctsPlayer(game, simulations, seed)
    start = time.process_time()
    for state in states:
        player.action(state)
    per_move = (time.process_time() - start) / len(states)
    return SpeedResult(players, round(clone, 1), round(per_move, 4), simulations, positions)
