"""The hint attack: tables asking a hint at every turn while an honest table plays with bots.

Starts one ``chickenfoot serve`` (SQLite in a temporary directory, bots at their usual pace), then
watches an honest table (one scripted human, three greedy bots) as a spectator: its bots' move gaps
(from their turn to their move) and a spectator's ping round trips, first quiet, then while
``--tables`` double-18 tables, each with two human seats played by an attacker from its own loopback
address, ask a hint before every move (and play it, or the first legal move when refused). Prints
p50 and max of both phases, and what the attackers got.

    python benchmarks/hint_attack.py                      # this tree's server
    python benchmarks/hint_attack.py --open-hints         # without the per-address limit on hints searched
    python benchmarks/hint_attack.py --source OTHER/src   # another checkout's server, same client
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections import Counter
from typing import Any

import httpx
from attack import add_source, attack, pings, summary
from websockets.asyncio.client import connect

from chickenfoot.testing.clients import CreatedTable, Measure, create_table, honest_players, loopback
from chickenfoot.testing.launch import OPEN_LIMITS

HONEST = {"seats": [{"kind": "human"}, *[{"kind": "bot", "bot": "greedy"}] * 3], "rounds": 5}
ASKING = {"preset": "double-18", "seats": [{"kind": "human"}, {"kind": "human"}], "rounds": 10}


async def bot_gaps(url: str, moves: int) -> list[float]:
    """Seconds from each bot's turn to its move, watched as a spectator, for ``moves`` bot moves."""
    gaps: list[float] = []
    turn_came: float | None = None
    async with connect(url, ping_interval=None, max_size=2**22) as ws:
        while len(gaps) < moves:
            message = json.loads(await ws.recv())
            if message["type"] != "state" or not message["events"]:
                continue  # presence changes do not count
            state = message["state"]
            if turn_came is not None and any(
                e["kind"] not in ("turn", "connected", "disconnected") for e in message["events"]
            ):
                gaps.append(time.monotonic() - turn_came)
                turn_came = None
            if state["round_over"] is None and state["kinds"][state["to_move"]] == "bot":
                turn_came = time.monotonic()
    return gaps


async def ask_hints(base: str, table: CreatedTable, seat: int, path: str, got: Counter[str]) -> None:
    """Play ``seat``, asking a hint before each move; counts the answers (``hint`` or an error's code)."""
    asked: tuple[int, list[str]] | None = None  # the version and legal moves a hint was asked for
    url = base.replace("http://", "ws://") + path
    local = None if table.source is None else (table.source, 0)  # each attacker its own address
    async with connect(url, ping_interval=None, max_size=2**22, local_addr=local) as ws:
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "hint" and asked is not None:
                got["hint"] += 1
                await ws.send(json.dumps({"type": "move", "move": message["move"], "version": asked[0]}))
                asked = None
            elif message["type"] == "error" and asked is not None:
                got[message.get("code", "error")] += 1
                await ws.send(json.dumps({"type": "move", "move": asked[1][0], "version": asked[0]}))
                asked = None
            elif message["type"] == "state":
                state, version = message["state"], message["version"]
                if state["status"] != "playing" or state["match_over"] is not None:
                    continue
                if state["round_over"] is not None:
                    if seat == 0:
                        await ws.send(json.dumps({"type": "next_round"}))
                    continue
                legal = state["legal"]
                forced = len(legal) == 1 and legal[0] in ("draw", "pass")
                if state["to_move"] == seat and legal and not forced and asked is None:
                    asked = (version, legal)
                    await ws.send('{"type": "hint"}')


async def phase(spectate: str, moves: int) -> tuple[list[float], list[float]]:
    """The honest table's bot gaps over ``moves`` bot moves, and the pings meanwhile."""
    stop = asyncio.Event()
    pinging = asyncio.create_task(pings(spectate, stop))
    gaps = await bot_gaps(spectate, moves)
    stop.set()
    return gaps, await pinging


async def scenario(base: str, args: argparse.Namespace) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        honest = await create_table(http, HONEST)
        asking = [await create_table(http, ASKING, loopback(9, i)) for i in range(args.tables)]
    stop = asyncio.Event()
    players = [
        asyncio.create_task(p.play(stop)) for p in honest_players(base, [honest], 0.05, random.Random(1), Measure())
    ]
    spectate = base.replace("http://", "ws://") + f"/ws/{honest.code}"
    quiet = await phase(spectate, args.moves)
    got = Counter[str]()
    attackers = [
        asyncio.create_task(ask_hints(base, table, seat, path, got))
        for table in asking
        for seat, path in table.seats.items()
    ]
    busy = await phase(spectate, args.moves)
    stop.set()
    for task in attackers:
        task.cancel()
    await asyncio.gather(*attackers, *players, return_exceptions=True)
    return {"quiet": quiet, "busy": busy, "answers": dict(got)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="tables asking hints")
    parser.add_argument("--moves", type=int, default=30, help="bot moves watched in each phase")
    add_source(parser)
    parser.add_argument(
        "--open-hints", action="store_true", help="lift the per-address limit on hints searched (--hint-limit)"
    )
    args = parser.parse_args()
    # The tables' limits out of the way; the hints' as served unless --open-hints.
    options = [*OPEN_LIMITS, *(("--hint-limit", "1000000/minute") if args.open_hints else ())]
    result = attack(args, options, scenario, pace=1.0)
    for name, (gaps, times) in (("quiet", result["quiet"]), ("asked hints", result["busy"])):
        print(f"{name + ':':13} bot gaps {summary(gaps, 's')}; pings {summary(times, 'ms')}")
    print(f"attackers' answers: {result['answers']}")


if __name__ == "__main__":
    main()
