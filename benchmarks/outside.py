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

import dataclasses
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import chickenfoot.interop.openspiel  # noqa: F401 (registers python_chickenfoot)
from chickenfoot.arena import GameResult, SlotResult
from chickenfoot.bots import Budget, make_bot
from chickenfoot.bots.reward import REWARD_SCALE
from chickenfoot.bots.search import EXPLORATION, SearchBot
from chickenfoot.interop.actions import ActionCodec
from chickenfoot.rules import Rules
from chickenfoot.view import MatchStanding

DETERMINIZATIONS = 4
UCT_C = EXPLORATION * REWARD_SCALE


class Player(Protocol):
    def action(self, state: Any) -> int: ...


class OursPlayer:
    """One of our bots (a ``make_bot`` name) at a fixed iteration budget, given only the seat's view.

    Each round here is scored alone, so the view carries the standings of a one-round match: a bot
    that plays for the match (``expert``) then plays to win the round, as it would in a match's last
    round; the others play for the round's margin, as they always do."""

    def __init__(self, name: str, iterations: int, seed: int) -> None:
        self.bot = make_bot(name, seed)
        if isinstance(self.bot, SearchBot):
            self.bot.workers = 1
        self.budget = Budget(iterations=iterations)
        self.codec = ActionCodec.for_max_pip(Rules().max_pip)

    def action(self, state: Any) -> int:
        view = state.view(state.current_player())
        view = dataclasses.replace(view, match=one_round_match(view.players))
        return self.codec.action_of(self.bot.choose(view, self.budget))


def one_round_match(players: int) -> MatchStanding:
    """The standings before the first and only round of a match."""
    return MatchStanding(1, 1, (0,) * players, (0,) * players, (None,) * players)


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
        return int(max(legal, key=lambda a: visits[a]))


def make_player(game: pyspiel.Game, name: str, simulations: int, seed: int) -> Player:
    if name == "os-ismcts":
        return IsmctsPlayer(game, simulations, seed)
    if name == "os-dmcts":
        return DeterminizedMctsPlayer(game, simulations, seed)
    return OursPlayer(name, simulations, seed)


@dataclass(frozen=True)
class Entrant:
    """A line-up slot: a label for the tables, the player kind and its simulations (iterations)."""

    label: str
    kind: str
    simulations: int


@dataclass(frozen=True)
class OutsideGame:
    lineup: tuple[Entrant, ...]
    seed: int
    deal: int
    rotation: int

    def seat_of(self, slot: int) -> int:
        return (slot + self.rotation) % len(self.lineup)


def outside_schedule(lineup: Sequence[Entrant], deals: int, seed: int) -> list[OutsideGame]:
    return [
        OutsideGame(tuple(lineup), seed, deal, rotation) for deal in range(deals) for rotation in range(len(lineup))
    ]


def play(game: OutsideGame) -> GameResult:
    """One round of the schedule on its duplicate deal; ranks and wins by the round's points."""
    players = len(game.lineup)
    spiel = pyspiel.load_game("python_chickenfoot", {"players": players, "zero_sum": True})
    seats: list[Player] = [None] * players  # type: ignore[list-item]
    for slot, entrant in enumerate(game.lineup):
        seed = random.Random(f"{game.seed}:{game.deal}:{game.rotation}:{slot}").getrandbits(31)
        seats[game.seat_of(slot)] = make_player(spiel, entrant.kind, entrant.simulations, seed)
    order = list(range(spiel.max_chance_outcomes()))
    random.Random(f"{game.seed}:{game.deal}").shuffle(order)
    dealt = players * Rules().hand_size_for(players)
    draws = iter(order[dealt:])
    state = spiel.new_initial_state()
    seconds: list[list[float]] = [[] for _ in range(players)]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(order[len(state.dealt)] if state.round is None else next(draws))
            continue
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        player = state.current_player()
        start = time.process_time()
        action = seats[player].action(state)
        seconds[player].append(time.process_time() - start)
        state.apply_action(action)
    points = state.round.points()
    best = min(points)
    winners = [s for s in range(players) if points[s] == best]
    slots = []
    for slot, entrant in enumerate(game.lineup):
        seat = game.seat_of(slot)
        rank = 1 + sum(p < points[seat] for p in points)
        win = 1.0 / len(winners) if seat in winners else 0.0
        slots.append(
            SlotResult(entrant.label, slot, seat, rank, win, points[seat], (points[seat],), tuple(seconds[seat]))
        )
    return GameResult(game.deal, game.rotation, tuple(slots))


def run_outside(games: Sequence[OutsideGame], workers: int) -> list[GameResult]:
    if workers <= 1:
        return [play(game) for game in games]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return sorted(pool.map(play, games), key=lambda r: (r.deal, r.rotation))


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
    found: list[Any] = []
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
