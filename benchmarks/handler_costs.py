"""CPU each HTTP handler's own work costs, on the largest match the rules allow (double-18, 8 seats).

Plays one match to its end with random legal moves (every round), then times, in this process, the
work each handler does besides waiting for the database: median and max of ``--repeat`` runs.
Anything above about a millisecond must not run on the server's event loop (docs/deploy.md).

    python benchmarks/handler_costs.py [--players 8] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import orjson
from fastapi.encoders import jsonable_encoder

from chickenfoot.match import Match
from chickenfoot.rules import Rules
from chickenfoot.server.clock import SYSTEM_CLOCK
from chickenfoot.server.replays.frames import RoundJob, build
from chickenfoot.server.table.actor import Services, Table
from chickenfoot.server.table.config import Seat, TableConfig, Timing
from chickenfoot.server.table.ports import ALONE
from chickenfoot.server.table.protocol import NEXT_ROUND


def finished_match(players: int, seed: int) -> tuple[Match, list[str]]:
    """A double-18 match played to its end with random legal moves, and its actions as stored."""
    match, rng = Match(Rules.preset("double-18"), players, seed=seed), random.Random(seed)
    actions: list[str] = []
    while True:
        if match.round.is_over():
            if match.is_over():
                return match, actions
            match.next_round()
            actions.append(NEXT_ROUND)
        else:
            move = rng.choice(match.legal_moves())
            match.push(move)
            actions.append(str(move))


def timed(work: Callable[[], object], repeat: int) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        runs.append((time.perf_counter() - started) * 1000)
    return statistics.median(runs), max(runs)


def as_json(data: Any) -> bytes:
    """What FastAPI does with a handler's dict: jsonable_encoder, then json.dumps."""
    return json.dumps(jsonable_encoder(data)).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    match, actions = finished_match(args.players, args.seed)
    seats = [Seat("human", "Ann")] + [Seat("bot", None, bot="greedy") for _ in range(args.players - 1)]
    config = TableConfig(match.rules, seats, args.seed)
    names = [f"P{s}" for s in range(args.players)]
    longest = max(range(1, len(match.rounds) + 1), key=lambda n: len(match.rounds[n - 1].history))
    record = match.record()

    def restore() -> Table:
        services = Services(None, None, Timing(), None, SYSTEM_CLOCK)  # type: ignore[arg-type]
        return Table.restore("BENCH1", config, actions, services, ALONE)

    table = restore()

    def overview() -> bytes:
        rounds = [len(r.history) for r in match.rounds]
        return as_json({"rounds": rounds, "totals": match.totals(), "explanation": match.explain_winner()})

    costs: dict[str, Callable[[], object]] = {
        "a table restored from its actions (a request for a table not in memory)": restore,
        "GET /api/tables/CODE/replay/N: frames built (its longest round)": lambda: build(
            RoundJob.of(match, longest, names)
        ),
        "GET /api/tables/CODE/replay/N: the job and its digest": lambda: RoundJob.of(match, longest, names).digest(),
        "GET /api/tables/CODE/record: the record (as FastAPI wrote it)": lambda: as_json(match.record()),
        "GET /api/tables/CODE/record: the record (orjson)": lambda: orjson.dumps(match.record()),
        "GET /api/tables/CODE/replay: the overview": overview,
        "GET /api/tables/CODE: the summary": lambda: as_json(
            {"rules": table.match.rules.to_dict(), "totals": table.match.totals()}
        ),
        "a match record read back (Match.from_record)": lambda: Match.from_record(record),
    }
    print(f"double-18, {args.players} seats, {len(match.rounds)} rounds, {len(actions)} actions")
    for what, work in costs.items():
        median, worst = timed(work, args.repeat)
        print(f"{median:9.2f} ms median {worst:9.2f} ms max  {what}")


if __name__ == "__main__":
    main()
