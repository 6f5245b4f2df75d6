"""The replay attack: clients looping over finished rounds' replays while an honest player pings another table.

Starts one ``chickenfoot serve`` (SQLite in a temporary directory, automatic play without pauses),
plays ``--tables`` double-18 matches to their end with scripted players, then measures an honest
player's ping round trips on another table: first quiet, then while ``--attackers`` clients ask
``GET /api/tables/CODE/replay/N`` for every finished round, over and over (each from its own
loopback address, as separate machines would). Prints p50 and max of both, and what the attackers got.

    python benchmarks/replay_attack.py                      # this tree's server
    python benchmarks/replay_attack.py --open-replays       # without the per-address limit on replays built
    python benchmarks/replay_attack.py --source OTHER/src   # another checkout's server, same client
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections import Counter
from typing import Any

import httpx
from attack import add_source, attack, pings, summary

from chickenfoot.testing.clients import CreatedTable, Measure, create_table, honest_players, loopback
from chickenfoot.testing.launch import OPEN_LIMITS

ONE_HUMAN = {"preset": "double-18", "seats": [{"kind": "human"}, *[{"kind": "bot", "bot": "greedy"}] * 3]}


async def play_to_the_end(base: str, tables: list[CreatedTable]) -> None:
    stop = asyncio.Event()
    players = honest_players(base, tables, 0.0, random.Random(1), Measure())
    await asyncio.gather(*(player.play(stop) for player in players))


async def attacker(
    base: str, rounds: list[tuple[str, int]], source: str, stop: asyncio.Event, got: Counter[int]
) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
        while not stop.is_set():
            for code, number in rounds:
                if stop.is_set():
                    return
                response = await http.get(f"/api/tables/{code}/replay/{number}")
                got[response.status_code] += 1


async def scenario(base: str, args: argparse.Namespace) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        tables = [await create_table(http, ONE_HUMAN) for _ in range(args.tables)]
        started = time.monotonic()
        await play_to_the_end(base, tables)
        played = time.monotonic() - started
        rounds = []
        for table in tables:
            overview = (await http.get(f"/api/tables/{table.code}/replay")).json()
            rounds += [(table.code, r["round"]) for r in overview["rounds"]]
        honest = await create_table(http, {"seats": [{"kind": "human"}, {"kind": "human"}]})
    ws = base.replace("http://", "ws://") + honest.seats[0]
    stop, got = asyncio.Event(), Counter[int]()
    quiet = await pings(ws, stop, args.pings)
    attackers = [
        asyncio.create_task(attacker(base, rounds if i % 2 == 0 else rounds[::-1], loopback(9, i), stop, got))
        for i in range(args.attackers)
    ]
    busy = await pings(ws, stop, args.pings)
    stop.set()
    await asyncio.gather(*attackers)
    return {"rounds": len(rounds), "played_seconds": played, "quiet": quiet, "busy": busy, "answers": dict(got)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--attackers", type=int, default=2)
    parser.add_argument("--pings", type=int, default=50)
    add_source(parser)
    parser.add_argument(
        "--open-replays", action="store_true", help="lift the per-address limit on replays built (--replay-limit)"
    )
    args = parser.parse_args()
    # The honest players' limits out of the way; the replays' as served unless --open-replays.
    options = [*OPEN_LIMITS, *(() if args.open_replays else ("--replay-limit", "30/minute"))]
    if args.source is not None:  # a server from before --replay-limit: without the option
        while "--replay-limit" in options:
            at = options.index("--replay-limit")
            del options[at : at + 2]
    result = attack(args, options, scenario)
    print(f"{result['rounds']} finished rounds (played in {result['played_seconds']:.0f} s)")
    print(f"quiet:        {summary(result['quiet'], 'ms', 1)}")
    print(f"under attack: {summary(result['busy'], 'ms', 1)}")
    print(f"attackers' answers: {result['answers']}")


if __name__ == "__main__":
    main()
