"""Random-playout speed of the rules engine against two reference domino engines, and of the search.

Every contender plays whole random games: list the legal moves, pick one uniformly, apply it,
until the game is over. Speed is player moves per second (chance events such as OpenSpiel's
deals are sampled but not counted). The contenders run in interleaved slices so that the load
of the machine falls on all of them alike.

    python benchmarks/playout.py --seconds 20
    python benchmarks/playout.py --search 40 --profile    # the hard level's search, pure and compiled
    python benchmarks/playout.py --distribution 100000    # compiled playouts against pure ones
    python benchmarks/playout.py --seconds 20 --save playout-speed.json   # also stored for the pages

Contenders: ``chickenfoot`` through its public API (``legal_moves`` + ``push``), through its
playout path (``Round.playout``) and through the compiled core (a round dealt and played out per
call, and batches of rounds dealt and played in C), double-9 with 4 players; the ``dominoes``
package (PyPI, double-6 draw-less 4-player games); OpenSpiel's ``python_block_dominoes`` (2
players). Also full chickenfoot matches (10 rounds) per second. The references are optional
(``pip install '.[bench]'``); a missing one is skipped, and so is the compiled core when it is
not built.

``--search N`` times the hard level's search (its 600 iterations) on N positions of greedy
4-player games, with the compiled core switched off and on in turn, and prints iterations per
second; ``--profile`` adds where each search spends its time. ``--distribution N`` plays
N rounds on each engine and compares the mean points per seat with their 95% intervals.
"""

from __future__ import annotations

import argparse
import cProfile
import math
import pstats
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from stored import provenance, save
from strength import positions

from chickenfoot import Match, Round, Rules, core
from chickenfoot.bots import DIFFICULTIES, Budget, SearchBot, make_bot, sampling
from chickenfoot.bots.policy import rollout_policy
from chickenfoot.bots.search import rollout
from chickenfoot.knowledge import Knowledge
from chickenfoot.view import SeatView

RULES = Rules()
BATCH = 100
"""Rounds per call of the compiled batch contender."""
Contender = Callable[[random.Random], tuple[int, int]]
"""Plays whole games with the given random source; returns the games and the player moves made."""


def chickenfoot_api(rng: random.Random) -> tuple[int, int]:
    round_ = Round.deal(RULES, players=4, rng=rng)
    moves = 0
    while not round_.is_over():
        legal = round_.legal_moves()
        round_.push(legal[int(rng.random() * len(legal))])
        moves += 1
    return 1, moves


def chickenfoot_playout(rng: random.Random) -> tuple[int, int]:
    round_ = Round.deal(RULES, players=4, rng=rng)
    round_.playout(rng)
    return 1, round_.ply


def compiled_round(rng: random.Random) -> tuple[int, int]:
    """One round dealt and played out by the compiled core, called from Python."""
    from chickenfoot._engine import CompiledRound

    round_ = CompiledRound.deal(RULES, 4, rng.getrandbits(64))
    round_.playout()
    return 1, round_.ply


def compiled_batch(rng: random.Random) -> tuple[int, int]:
    """A batch of rounds dealt and played out in C (the inner loop without Python)."""
    from chickenfoot._engine import playouts

    return BATCH, playouts(RULES, 4, BATCH, rng.getrandbits(64))[0]


def chickenfoot_match(rng: random.Random) -> tuple[int, int]:
    """A whole match through the playout path; counts its moves (reported as matches too)."""
    match = Match(Rules(), players=4, seed=rng.getrandbits(32))
    moves = 0
    while True:
        round_ = match.round
        round_.playout(rng)
        moves += round_.ply
        match.round_points.append(round_.points())
        if match.is_over():
            return 1, moves
        match.next_round()


def dominoes_game(rng: random.Random) -> tuple[int, int]:
    import dominoes  # type: ignore[import-untyped]

    game = dominoes.Game.new()
    moves = 0
    while game.result is None:
        legal = game.valid_moves
        game.make_move(*legal[int(rng.random() * len(legal))])
        moves += 1
    return 1, moves


def openspiel_game(rng: random.Random) -> tuple[int, int]:
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
    return 1, moves


def available() -> dict[str, Contender]:
    contenders: dict[str, Contender] = {
        "chickenfoot (a) legal_moves+push": chickenfoot_api,
        "chickenfoot (b) Round.playout": chickenfoot_playout,
        "chickenfoot full matches": chickenfoot_match,
    }
    if core.COMPILED:
        contenders["chickenfoot (c) compiled, per round"] = compiled_round
        contenders["chickenfoot (d) compiled, batches in C"] = compiled_batch
    else:
        print("compiled core not in use: skipped")
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


def speed(seconds: float, slice_: float, seed: int) -> dict[str, Any]:
    contenders = available()
    rng = random.Random(seed)
    for play in contenders.values():  # warm up imports and caches outside the clock
        play(rng)
    moves = dict.fromkeys(contenders, 0)
    games = dict.fromkeys(contenders, 0)
    spent = dict.fromkeys(contenders, 0.0)
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        for name, play in contenders.items():
            start = time.process_time()
            while True:
                played, made = play(rng)
                games[name] += played
                moves[name] += made
                elapsed = time.process_time() - start
                if elapsed >= slice_:
                    break
            spent[name] += elapsed
    rate = {name: moves[name] / spent[name] for name in contenders}
    refs = [name for name in ("dominoes (PyPI)", "OpenSpiel python_block_dominoes") if name in rate]
    header = f"{'contender':40} {'games':>8} {'games/s':>10} {'moves/s':>11}" + "".join(
        f" {'x ' + ref.split()[0]:>10}" for ref in refs
    )
    print(header)
    print("-" * len(header))
    for name in contenders:
        ratios = "".join(f" {rate[name] / rate[ref]:>10.2f}" for ref in refs)
        print(f"{name:40} {games[name]:>8} {games[name] / spent[name]:>10.1f} {rate[name]:>11.0f}{ratios}")
    return {
        "contenders": {
            name: {
                "games": games[name],
                "games_per_second": round(games[name] / spent[name], 1),
                "moves_per_second": round(rate[name]),
                "times": {ref: round(rate[name] / rate[ref], 2) for ref in refs},
            }
            for name in contenders
        }
    }


SEARCH_MODES = ("pure Python", "compiled rounds", "compiled loop")
"""The pure engine; compiled rounds driven by the search's loop in Python; the whole loop in C."""


def search_speed(count: int, seed: int, profile: bool) -> dict[str, Any]:
    """The hard level's search on the same positions on each engine, interleaved."""
    budget = Budget(iterations=DIFFICULTIES["hard"].budget.iterations)  # its iterations, without its clock
    views = [r.view(r.to_move) for r in positions(count, seed)]
    modes = SEARCH_MODES if sampling.COMPILED else SEARCH_MODES[:1]
    spent = dict.fromkeys(modes, 0.0)
    done = dict.fromkeys(modes, 0)

    def run(mode: str, view: SeatView) -> int:
        sampling.COMPILED = mode != "pure Python"
        sampling.COMPILED_LOOP = mode == "compiled loop"
        bot = make_bot("hard", seed)
        assert isinstance(bot, SearchBot)
        return sum(visits for visits, _ in bot.statistics(view, budget).values())

    for view in views:
        for mode in modes:
            start = time.process_time()
            done[mode] += run(mode, view)
            spent[mode] += time.process_time() - start
    profiler = cProfile.Profile()
    if profile:  # a separate pass: the profiler's own cost would distort the rates
        for view in views:
            profiler.runcall(run, "pure Python", view)
    sampling.COMPILED = len(modes) > 1
    sampling.COMPILED_LOOP = True
    rates = {mode: done[mode] / spent[mode] for mode in modes}
    for mode in modes:
        print(
            f"hard ({budget.iterations} iterations), {mode:15}: {rates[mode]:>9.0f} iterations/s, "
            f"{1e6 / rates[mode]:.1f} us each, {rates[mode] / rates[modes[0]]:.1f}x pure"
        )
    if profile:
        print("\nwhere the pure search spends its time:")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(10)
        if sampling.COMPILED:
            compiled_parts(views, budget.iterations or 1, rates["compiled loop"])
    return {
        "positions": count,
        "iterations": budget.iterations,
        "modes": {
            mode: {
                "iterations_per_second": round(rates[mode]),
                "microseconds_per_iteration": round(1e6 / rates[mode], 1),
                "times_pure": round(rates[mode] / rates[modes[0]], 1),
            }
            for mode in modes
        },
    }


def compiled_parts(views: Sequence[SeatView], iterations: int, rate: float) -> None:
    """The compiled search's time split: its C calls alone (sampling, the root move, rollouts) against the whole.

    The profiler cannot see inside the compiled calls, so they are timed on their own here."""
    sampling_time = rollout_time = 0.0
    for view in views:
        knowledge = Knowledge(view)
        codes = [m.code for m in view.legal_moves]
        policy = rollout_policy(view.rules)
        sample = sampling.sampler(knowledge)
        rng = random.Random(0)
        start = time.process_time()
        rounds = [sample(rng) for _ in range(iterations)]
        sampling_time += time.process_time() - start
        start = time.process_time()
        for k, r in enumerate(rounds):
            r.push_code(codes[k % len(codes)])
            rollout(r, rng, policy)
        rollout_time += time.process_time() - start
    n = iterations * len(views)
    whole = 1e6 / rate
    print(
        f"compiled search: {whole:.1f} us per iteration, of which sampling {sampling_time / n * 1e6:.1f} us, ", end=""
    )
    print(f"root move and rollout {rollout_time / n * 1e6:.1f} us, each called from Python (the search's loop in C")
    print("calls neither from Python: its whole iteration can cost less than these parts)")


def mean_interval(total: float, squares: float, n: int) -> tuple[float, float]:
    mean = total / n
    return mean, 1.96 * math.sqrt(max(squares / n - mean * mean, 0.0) * n / (n - 1) / n)


def distribution(n: int, seed: int) -> dict[str, Any]:
    """Mean points per seat of ``n`` random rounds on each engine, with 95% intervals."""
    from chickenfoot._engine import playouts

    rng = random.Random(seed)
    pure: list[Sequence[int]] = [Round.deal(RULES, 4, rng=rng).playout(rng) for _ in range(n)]
    _, sums, squares = playouts(RULES, 4, n, seed)
    print(f"{n} rounds each, double-9, 4 players: mean points per seat [95% interval]")
    seats = []
    for seat in range(4):
        a, ea = mean_interval(sum(p[seat] for p in pure), sum(p[seat] ** 2 for p in pure), n)
        b, eb = mean_interval(sums[seat], squares[seat], n)
        overlap = abs(a - b) < math.hypot(ea, eb)
        z = abs(a - b) / math.hypot(ea, eb) * 1.96
        print(
            f"seat {seat}: pure {a:6.2f} [{a - ea:.2f}, {a + ea:.2f}]  "
            f"compiled {b:6.2f} [{b - eb:.2f}, {b + eb:.2f}]  "
            f"{'agree' if overlap else 'DIFFER'} (z = {z:.2f})"
        )
        seats.append({"pure": [round(a, 2), round(a - ea, 2), round(a + ea, 2)], "z": round(z, 2)})
        seats[-1]["compiled"] = [round(b, 2), round(b - eb, 2), round(b + eb, 2)]
    return {"rounds": n, "seats": seats}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="total measuring time (default 20)")
    parser.add_argument("--slice", type=float, default=0.25, help="seconds per contender per turn (default 0.25)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--search", type=int, metavar="N", help="time the hard level's search on N positions instead")
    parser.add_argument("--profile", action="store_true", help="with --search: where the time goes")
    parser.add_argument("--distribution", type=int, metavar="N", help="compare N compiled and N pure rounds instead")
    parser.add_argument("--save", metavar="NAME", help="also store the result as benchmarks/results/NAME (JSON)")
    args = parser.parse_args()
    if args.seconds <= 0 or args.slice <= 0:
        parser.error("--seconds and --slice must be positive")
    if args.search is not None:
        result = search_speed(args.search, args.seed, args.profile)
    elif args.distribution is not None:
        if not core.COMPILED:
            parser.error("the compiled core is not in use")
        result = distribution(args.distribution, args.seed)
    else:
        result = speed(args.seconds, args.slice, args.seed)
    if args.save:
        save(args.save, {**result, "core": core.NAME, **provenance("playout.py")})


if __name__ == "__main__":
    main()
