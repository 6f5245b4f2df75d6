"""Playing the arena's games: duplicate deals, each replayed with the bots rotated through every seat."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from chickenfoot.bots import Bot, Budget, make_bot
from chickenfoot.bots.search import CheaterBot, SearchBot, cheat_choose
from chickenfoot.match import Match
from chickenfoot.rules import Rules
from chickenfoot.tournament.duplicate import deal_seed

CHEATER = "cheater"
"""The arena-only upper bound: the search given the true deal."""


@dataclass(frozen=True, slots=True)
class Game:
    """One match to play: deal ``deal`` with the line-up rotated by ``rotation`` seats."""

    lineup: tuple[str, ...]
    rules: Rules
    seed: int
    deal: int
    rotation: int
    iterations: int | None = None
    """Overrides the search bots' iteration budget (results then do not depend on machine load)."""

    def seat_of(self, slot: int) -> int:
        """The seat the ``slot``-th bot of the line-up sits in."""
        return (slot + self.rotation) % len(self.lineup)


@dataclass(frozen=True, slots=True)
class SlotResult:
    """How one bot of the line-up did in one game."""

    bot: str
    slot: int
    seat: int
    rank: int
    """1 is first; tied seats share a rank."""
    win: float
    """1 for a sole win, 1/k for a win shared by k seats, else 0."""
    total: int
    round_points: tuple[int, ...]
    move_seconds: tuple[float, ...] = field(repr=False, compare=False)
    """Time of each decision with more than one legal move."""


@dataclass(frozen=True, slots=True)
class GameResult:
    deal: int
    rotation: int
    slots: tuple[SlotResult, ...]


def schedule(lineup: Sequence[str], rules: Rules, deals: int, seed: int, iterations: int | None = None) -> list[Game]:
    """Every deal replayed once per rotation of the line-up (duplicate play)."""
    players = len(lineup)
    return [
        Game(tuple(lineup), rules, seed, deal, rotation, iterations)
        for deal in range(deals)
        for rotation in range(players)
    ]


def _bot(name: str, seed: int, iterations: int | None) -> Bot:
    bot: Bot = CheaterBot(seed) if name == CHEATER else make_bot(name, seed)
    if isinstance(bot, SearchBot):
        bot.workers = 1  # the arena already spreads whole games over the processes
        if iterations is not None:
            bot.budget = Budget(iterations=iterations)
    return bot


def play(game: Game) -> GameResult:
    """Play one match of the schedule; deterministic for a given game (with iteration budgets)."""
    players = len(game.lineup)
    match = Match(game.rules, players, deal_seed(game.seed, game.deal))
    by_seat: list[Bot] = [None] * players  # type: ignore[list-item]
    slot_of_seat = [0] * players
    for slot, name in enumerate(game.lineup):
        seat = game.seat_of(slot)
        by_seat[seat] = _bot(
            name, random.Random(f"{game.seed}:{game.deal}:{game.rotation}:{slot}").getrandbits(63), game.iterations
        )
        slot_of_seat[seat] = slot
    seconds: list[list[float]] = [[] for _ in range(players)]
    while True:
        r = match.round
        while not r.is_over():
            seat = r.to_move
            bot = by_seat[seat]
            view = match.view(seat)
            start = time.perf_counter()
            move = cheat_choose(bot, r) if isinstance(bot, CheaterBot) else bot.choose(view)
            if len(view.legal_moves) > 1:
                seconds[seat].append(time.perf_counter() - start)
            match.push(move)
        if match.is_over():
            break
        match.next_round()
    standings = {s.seat: s for s in match.standings()}
    winners = match.winners()
    results = []
    for slot, name in enumerate(game.lineup):
        seat = game.seat_of(slot)
        results.append(
            SlotResult(
                bot=name,
                slot=slot,
                seat=seat,
                rank=standings[seat].rank,
                win=1.0 / len(winners) if seat in winners else 0.0,
                total=match.totals()[seat],
                round_points=tuple(points[seat] for points in match.round_points),
                move_seconds=tuple(seconds[seat]),
            )
        )
    return GameResult(game.deal, game.rotation, tuple(results))
