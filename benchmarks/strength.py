"""Bot strength and speed: the arena runs behind the README's claims, and time per move of each level.

    python benchmarks/strength.py timing [--positions 80] [--level hard]
    python benchmarks/strength.py claims [--only NAME]   # long: minutes to hours on 2 cores

Results go to benchmarks/results/<name>/ (results.json, results.png; timing.json for timing).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from chickenfoot import Round, Rules
from chickenfoot.arena import ArenaConfig, run_arena
from chickenfoot.arena.stats import percentile
from chickenfoot.bots import DIFFICULTIES, make_bot

RESULTS = Path(__file__).parent / "results"

CLAIMS: dict[str, ArenaConfig] = {
    # 4 players, double-9, full 10-round matches: the hard level's search (600 iterations) against greedy.
    "4p-ismcts600-vs-greedy": ArenaConfig(("ismcts", "greedy", "greedy", "greedy"), Rules(), 20, 11, iterations=600),
    # 2 players, full matches.
    "2p-ismcts600-vs-greedy": ArenaConfig(("ismcts", "greedy"), Rules(), 30, 12, iterations=600),
    # The ladder, every bot at one table (5 seats, 7 tiles each), full matches.
    "5p-ladder": ArenaConfig(("random", "greedy", "heuristic", "ismcts", "cheater"), Rules(), 10, 13, iterations=300),
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


def timing(level: str, count: int, seed: int) -> dict[str, float | int | str]:
    bot = make_bot(level, seed)
    seconds = []
    for r in positions(count, seed):
        view = r.view(r.to_move)
        start = time.perf_counter()
        bot.choose(view)
        seconds.append(time.perf_counter() - start)
    return {
        "level": level,
        "budget": str(DIFFICULTIES[level].budget),
        "positions": count,
        "p50": round(percentile(seconds, 0.5), 3),
        "p95": round(percentile(seconds, 0.95), 3),
        "max": round(max(seconds), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("timing", help="time per move of a difficulty level")
    t.add_argument("--level", default="hard", choices=list(DIFFICULTIES))
    t.add_argument("--positions", type=int, default=80)
    t.add_argument("--seed", type=int, default=0)
    c = sub.add_parser("claims", help="the arena runs behind the README's strength claims")
    c.add_argument("--only", choices=list(CLAIMS))
    args = parser.parse_args()
    if args.command == "timing":
        result = timing(args.level, args.positions, args.seed)
        print(json.dumps(result))
        out = RESULTS / f"timing-{args.level}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        return
    for name, config in CLAIMS.items():
        if args.only in (None, name):
            run_arena(config, RESULTS / name)


if __name__ == "__main__":
    main()
