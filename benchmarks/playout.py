"""Random-playout speed of the rules engine against two reference domino engines.

Every contender plays whole random games: list the legal moves, pick one uniformly, apply it,
until the game is over. Speed is player moves per second (chance events such as OpenSpiel's
deals are sampled but not counted). The contenders run in interleaved slices so that the load
of the machine falls on all of them alike.

    python benchmarks/playout.py --seconds 20

Contenders: ``chickenfoot`` through its public API (``legal_moves`` + ``push``) and through its
playout path (``Round.playout``), double-9 with 4 players; the ``dominoes`` package (PyPI,
double-6 draw-less 4-player games); OpenSpiel's ``python_block_dominoes`` (2 players). Also full
chickenfoot matches (10 rounds) per second. The references are optional (``pip install
'.[bench]'``); a missing one is skipped.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from chickenfoot import Match, Round, Rules

RULES = Rules()
Contender = Callable[[random.Random], int]
"""Plays one whole game with the given random source; returns the player moves made."""


def chickenfoot_api(rng: random.Random) -> int:
    round_ = Round.deal(RULES, players=4, rng=rng)
    moves = 0
    while not round_.is_over():
        legal = round_.legal_moves()
        round_.push(legal[int(rng.random() * len(legal))])
        moves += 1
    return moves


def chickenfoot_playout(rng: random.Random) -> int:
    round_ = Round.deal(RULES, players=4, rng=rng)
    round_.playout(rng)
    return round_.ply


def chickenfoot_match(rng: random.Random) -> int:
    """A whole match through the playout path; counts its moves (reported as matches too)."""
    match = Match(Rules(), players=4, seed=rng.getrandbits(32))
    moves = 0
    while True:
        round_ = match.round
        round_.playout(rng)
        moves += round_.ply
        match.round_points.append(round_.points())
        if match.is_over():
            return moves
        match.next_round()


def dominoes_game(rng: random.Random) -> int:
    import dominoes  # type: ignore[import-untyped]

    game = dominoes.Game.new()
    moves = 0
    while game.result is None:
        legal = game.valid_moves
        game.make_move(*legal[int(rng.random() * len(legal))])
        moves += 1
    return moves


def openspiel_game(rng: random.Random) -> int:
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)

    state = pyspiel.load_game("python_block_dominoes").new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            continue
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
        moves += 1
    return moves


def available() -> dict[str, Contender]:
    contenders: dict[str, Contender] = {
        "chickenfoot (a) legal_moves+push": chickenfoot_api,
        "chickenfoot (b) Round.playout": chickenfoot_playout,
        "chickenfoot full matches": chickenfoot_match,
    }
    try:
        import dominoes  # noqa: F401

        contenders["dominoes (PyPI)"] = dominoes_game
    except ImportError:
        print("dominoes not installed: skipped")
    try:
        import pyspiel  # noqa: F401

        contenders["OpenSpiel python_block_dominoes"] = openspiel_game
    except ImportError:
        print("open_spiel not installed: skipped")
    return contenders


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="total measuring time (default 20)")
    parser.add_argument("--slice", type=float, default=0.25, help="seconds per contender per turn (default 0.25)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.seconds <= 0 or args.slice <= 0:
        parser.error("--seconds and --slice must be positive")
    contenders = available()
    rng = random.Random(args.seed)
    for play in contenders.values():  # warm up imports and caches outside the clock
        play(rng)
    moves = dict.fromkeys(contenders, 0)
    games = dict.fromkeys(contenders, 0)
    spent = dict.fromkeys(contenders, 0.0)
    deadline = time.process_time() + args.seconds
    while time.process_time() < deadline:
        for name, play in contenders.items():
            start = time.process_time()
            while True:
                moves[name] += play(rng)
                games[name] += 1
                elapsed = time.process_time() - start
                if elapsed >= args.slice:
                    break
            spent[name] += elapsed
    rate = {name: moves[name] / spent[name] for name in contenders}
    refs = [name for name in ("dominoes (PyPI)", "OpenSpiel python_block_dominoes") if name in rate]
    header = f"{'contender':36} {'games':>7} {'games/s':>9} {'moves/s':>10}" + "".join(
        f" {'x ' + ref.split()[0]:>10}" for ref in refs
    )
    print(header)
    print("-" * len(header))
    for name in contenders:
        ratios = "".join(f" {rate[name] / rate[ref]:>10.2f}" for ref in refs)
        print(f"{name:36} {games[name]:>7} {games[name] / spent[name]:>9.1f} {rate[name]:>10.0f}{ratios}")


if __name__ == "__main__":
    main()
