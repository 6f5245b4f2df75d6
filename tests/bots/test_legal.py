"""Every bot plays only legal moves, across every rule option, and the same seed replays the same moves."""

from __future__ import annotations

import pytest

from chickenfoot import Round, Rules
from chickenfoot.bots import BOTS, Budget, make_bot
from chickenfoot.move import Move
from chickenfoot.rules import PRESETS

# The big sets make long rounds: one player count keeps them in the suite without dominating its time.
CASES = [(name, players) for name, rules in PRESETS.items() for players in ((2, 3, 5) if rules.max_pip <= 12 else (3,))]
SMALL = Budget(iterations=12)


def play_round(rules: Rules, players: int, names: list[str], seed: int) -> list[Move]:
    r = Round.deal(rules, players, seed, start_double=seed % (rules.max_pip + 1))
    bots = [make_bot(names[s % len(names)], seed * 7 + s) for s in range(players)]
    moves = []
    while not r.is_over():
        view = r.view(r.to_move)
        move = bots[r.to_move].choose(view, SMALL)
        assert move in view.legal_moves, (str(move), [str(m) for m in view.legal_moves])
        r.push(move)
        moves.append(move)
    return moves


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_every_bot_plays_legally_under_every_rule_option(preset: str, players: int) -> None:
    rules = PRESETS[preset]
    names = list(BOTS)
    for seed in range(2):
        assert play_round(rules, players, names, seed)


@pytest.mark.parametrize("name", list(BOTS))
def test_same_seed_same_moves(name: str) -> None:
    rules = Rules(draw_limit="until_playable")
    first = play_round(rules, 4, [name, "random", name, "greedy"], 5)
    second = play_round(rules, 4, [name, "random", name, "greedy"], 5)
    assert first == second
