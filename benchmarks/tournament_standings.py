"""CPU time of a large arena's standings and pairings, as the server would compute them off the event loop.

    python benchmarks/tournament_standings.py --players 500 --tables 5000 --repeats 7 --save tournament-standings.json

Builds an arena of ``--players`` entrants at tables of 4 with ``--tables`` finished matches (random points,
seeded), then times, each ``--repeats`` times:

- ``arena standings``: :func:`~chickenfoot.tournament.arena.arena_standings` over every result (what the
  standings page shows, recomputed after each finished match);
- ``swiss tie-breaks``: the same results ranked with every tie-break a Swiss uses (opponents' average
  and head to head), the dearest standings the package computes;
- ``arena pairing``: :func:`~chickenfoot.tournament.arena.arena_pairings` with a tenth of the field free,
  given the standings already computed (as the organiser would pass its cached copy).

Prints the best and the median CPU milliseconds of each (``time.process_time``: this process's CPU alone,
so other work on a shared machine inflates it less than wall time).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from stored import provenance, save

from chickenfoot.tournament import (
    SWISS_TIEBREAKS,
    ArenaSettings,
    Entrant,
    Result,
    arena_pairings,
    arena_standings,
    standings,
)


def arena(players: int, tables: int, seed: int) -> tuple[ArenaSettings, list[Entrant], list[Result]]:
    """An arena of ``players`` with ``tables`` finished matches of 4, a new one every second."""
    rng = random.Random(seed)
    names = [f"player{i:04}" for i in range(players)]
    results = []
    for t in range(tables):
        seats = tuple(rng.sample(names, 4))
        results.append(Result.from_points(f"t{t}", seats, [rng.randrange(120) for _ in seats], finished_at=t))
    settings = ArenaSettings(table_size=4, starts_at=0, ends_at=tables + 3600)
    return settings, [Entrant(name, 0) for name in names], results


def cpu_ms(job: Callable[[], object], repeats: int) -> list[float]:
    spent = []
    for _ in range(repeats):
        start = time.process_time()
        job()
        spent.append(1000 * (time.process_time() - start))
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--tables", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", metavar="NAME", help="store the result as benchmarks/results/NAME")
    args = parser.parse_args()
    settings, entrants, results = arena(args.players, args.tables, args.seed)
    ranking = arena_standings(settings, results, entrants)
    rng = random.Random(args.seed)
    free = set(rng.sample([e.player for e in entrants], args.players // 10))
    busy = [e.player for e in entrants if e.player not in free]
    playing = [tuple(busy[i : i + 4]) for i in range(0, len(busy) - len(busy) % 4, 4)]
    now = args.tables + 60.0
    jobs: dict[str, Callable[[], object]] = {
        "arena standings": lambda: arena_standings(settings, results, entrants),
        "swiss tie-breaks": lambda: standings(results, SWISS_TIEBREAKS, [e.player for e in entrants]),
        "arena pairing": lambda: arena_pairings(settings, entrants, playing, results, now, ranking),
    }
    measured: dict[str, Any] = {}
    for name, job in jobs.items():
        spent = cpu_ms(job, args.repeats)
        measured[name] = {"best_ms": round(min(spent), 1), "median_ms": round(statistics.median(spent), 1)}
        print(f"{name:>17}: best {min(spent):7.1f} ms, median {statistics.median(spent):7.1f} ms of CPU")
    print(f"({args.players} players, {args.tables} finished tables of 4, {4 * args.tables} results by seat)")
    if args.save:
        save(
            args.save,
            {
                **provenance("tournament_standings.py"),
                "players": args.players,
                "tables": args.tables,
                "repeats": args.repeats,
                "cpu_ms": measured,
            },
        )


if __name__ == "__main__":
    main()
