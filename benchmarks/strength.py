"""Bot strength and speed: the arena runs behind the README's claims, and time per move of each level.

    python benchmarks/strength.py timing [--positions 80] [--level hard] [--iterations N]
    python benchmarks/strength.py claims [--only NAME]   # long: minutes to hours on 2 cores
    python benchmarks/strength.py rerate DIR [DIR ...]   # intervals and ratings of saved results, recomputed

Results go to benchmarks/results/<name>/ (results.json, results.png; timing.json for timing).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import time
from pathlib import Path
from typing import Any

from chickenfoot import Round, Rules
from chickenfoot.arena import ArenaConfig, rerate, run_arena
from chickenfoot.arena.stats import percentile
from chickenfoot.bots import DIFFICULTIES, Budget, make_bot

RESULTS = Path(__file__).parent / "results"

CLAIMS: dict[str, ArenaConfig] = {
    # 4 players, double-9, full 10-round matches: the hard level's search (600 iterations) against greedy.
    "4p-ismcts600-vs-greedy": ArenaConfig(("ismcts", "greedy", "greedy", "greedy"), Rules(), 12, 31, iterations=600),
    # 2 players, full matches.
    "2p-ismcts600-vs-greedy": ArenaConfig(("ismcts", "greedy"), Rules(), 30, 12, iterations=600),
    "2p-ismcts600-vs-greedy-repeat": ArenaConfig(("ismcts", "greedy"), Rules(), 15, 32, iterations=600),
    # The ladder at one 4-seat table, single rounds (random's rung is below).
    "4p-ladder-1round": ArenaConfig(
        ("cheater", "ismcts", "heuristic", "greedy"), Rules(rounds=1), 30, 41, iterations=300
    ),
    # The ladder's rungs, one against three.
    "4p-heuristic-vs-greedy": ArenaConfig(("heuristic", "greedy", "greedy", "greedy"), Rules(), 50, 1),
    "4p-greedy-vs-random": ArenaConfig(("greedy", "random", "random", "random"), Rules(), 50, 2),
    "2p-heuristic-vs-greedy": ArenaConfig(("heuristic", "greedy"), Rules(), 50, 3),
    # Root-only search against the full SO-ISMCTS tree at the same budget, single rounds.
    "4p-ismcts-vs-tree-1round": ArenaConfig(
        ("ismcts", "ismcts-tree", "greedy", "greedy"), Rules(rounds=1), 40, 21, iterations=600
    ),
}


def positions(count: int, seed: int) -> list[Round]:
    """Positions from 4-player greedy games with at least two legal moves, spread over whole rounds."""
    rng = random.Random(seed)
    found: list[Round] = []
    while len(found) < count:
        r = Round.deal(Rules(), 4, rng.getrandbits(32))
        bot = make_bot("greedy", rng.getrandbits(32))
        while not r.is_over() and len(found) < count:
            view = r.view(r.to_move)
            if len(view.legal_moves) > 1 and rng.random() < 0.3:
                found.append(r.copy())
            r.push(bot.choose(view))
    return found


def timing(level: str, count: int, seed: int, iterations: int | None) -> dict[str, float | int | str]:
    """Wall and CPU seconds per move; CPU time shows the cost on an idle core when the machine is busy."""
    bot = make_bot(level, seed)
    if iterations is not None:
        bot.budget = Budget(iterations=iterations)
    wall, cpu = [], []
    for r in positions(count, seed):
        view = r.view(r.to_move)
        start, start_cpu = time.perf_counter(), time.process_time()
        bot.choose(view)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    result: dict[str, float | int | str] = {"level": level, "budget": str(bot.budget), "positions": count}
    for name, values in (("wall", wall), ("cpu", cpu)):
        result |= {f"{name}_p50": round(percentile(values, 0.5), 3), f"{name}_p95": round(percentile(values, 0.95), 3)}
        result[f"{name}_max"] = round(max(values), 3)
    result["load_average"] = round(os.getloadavg()[0], 2)
    return result


def machine() -> dict[str, Any]:
    """What the machine was doing: results measured under load say so."""
    return {"load_average": round(os.getloadavg()[0], 2), "cpus": os.cpu_count()}


def save(name: str, data: object) -> None:
    out = RESULTS / name
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("timing", help="time per move of a difficulty level")
    t.add_argument("--level", default="hard", choices=list(DIFFICULTIES))
    t.add_argument("--positions", type=int, default=80)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--iterations", type=int, help="a pure iteration budget instead of the level's")
    c = sub.add_parser("claims", help="the arena runs behind the README's strength claims")
    c.add_argument("--only", choices=list(CLAIMS))
    o = sub.add_parser("openspiel-speed", help="cost of python_chickenfoot's clone() and of an ISMCTSBot move")
    o.add_argument("--players", type=int, nargs="+", default=[2, 4])
    o.add_argument("--positions", type=int, default=20)
    o.add_argument("--simulations", type=int, default=100)
    o.add_argument("--label", default="")
    r = sub.add_parser("rerate", help="recompute the intervals and ratings of saved results with the current methods")
    r.add_argument("dirs", nargs="+", type=Path)
    args = parser.parse_args()
    if args.command == "rerate":
        for path in args.dirs:
            rerate(path)
        return
    if args.command == "openspiel-speed":
        from outside import speed

        rows = [dataclasses.asdict(speed(p, args.positions, args.simulations)) for p in args.players]
        for row in rows:
            print(json.dumps(row))
        save(f"openspiel-speed{'-' + args.label if args.label else ''}.json", {"rows": rows, **machine()})
        return
    if args.command == "timing":
        result = timing(args.level, args.positions, args.seed, args.iterations)
        print(json.dumps(result))
        suffix = f"-{args.iterations}it" if args.iterations else ""
        save(f"timing-{args.level}{suffix}.json", result)
        return
    for name, config in CLAIMS.items():
        if args.only in (None, name):
            run_arena(config, RESULTS / name)


if __name__ == "__main__":
    main()
