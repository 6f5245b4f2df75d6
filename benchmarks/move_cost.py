"""The server CPU one move costs: tables of 4 scripted players and a spectator, side by side with an
older version of the server, in one run.

    python benchmarks/move_cost.py --tables 100 --seconds 20 --against 1fac54a --repeats 3

Starts ``chickenfoot serve`` (a temporary SQLite file, automatic pauses off) for each version in
turn, the same load for each: ``--tables`` tables of 4 human seats, every seat played by a scripted
player answering its turn after about ``--think`` seconds (random legal moves, from ``--seed``), and
``--spectators`` spectators per table (one unless told). Once every client has its first state and
``--warmup`` seconds more have passed, it measures ``--seconds``: the CPU time the server process
used (user and system, from ``/proc``) over the actions its tables stored (every version: a player's
move, the server's forced draw or pass, a new round, counted by the spectators), and over the
players' moves alone. ``--against COMMIT`` also serves the code of that commit, checked out in a
temporary git worktree (its compiled engine copied from this one's, built from the same sources):
the versions take turns, ``--repeats`` times each, so the machine's load falls on both alike.

Prints one JSON line per run and a summary (median of the repeats); ``--out FILE`` keeps the command,
the runs and the summary (with the load average of each run), ``--plot FILE`` draws the CPU per action
of each run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import orjson

from chickenfoot.testing.clients import HonestPlayer, Measure, create_table, honest_players
from chickenfoot.testing.launch import OPEN_LIMITS, free_port, served

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ("src/chickenfoot/_engine", "src/chickenfoot/bots/_search")
"""The compiled modules an older checkout borrows from this one (their sources must be the same)."""
OPENING_SECONDS = 60.0
"""The longest wait for every client's first state before the warm-up."""


def cpu_seconds(pid: int) -> float:
    """CPU time used so far by process ``pid`` (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Spectator:
    """Watches one table and remembers its latest version."""

    def __init__(self, base: str, code: str) -> None:
        self.url = base.replace("http://", "ws://") + f"/ws/{code}"
        self.version = -1
        self.messages = 0

    async def watch(self, stop: asyncio.Event) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(self.url, max_msg_size=2**22) as ws:
            reading = asyncio.ensure_future(self._read(ws))
            await asyncio.wait((reading, asyncio.ensure_future(stop.wait())), return_when=asyncio.FIRST_COMPLETED)
            reading.cancel()

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for frame in ws:
            message = orjson.loads(frame.data)
            self.messages += 1
            if message["type"] == "state":
                self.version = max(self.version, message["version"])


def all_served(players: list[HonestPlayer], spectators: list[Spectator]) -> bool:
    """Every player and spectator has had its first state."""
    return all(player.version >= 0 for player in players) and all(s.version >= 0 for s in spectators)


async def load(base: str, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    """Play the load against the server at ``base`` (process ``pid``) and measure its CPU per action."""
    rng = random.Random(args.seed)
    measure = Measure(measuring=False)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        body = {"seats": [{"kind": "human"}] * 4, "turn_timer": None}
        created = [await create_table(http, body) for _ in range(args.tables)]
    players: list[HonestPlayer] = honest_players(base, created, args.think, rng, measure)
    spectators = [Spectator(base, table.code) for table in created for _ in range(args.spectators)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(player.play(stop)) for player in players]
    tasks += [asyncio.create_task(spectator.watch(stop)) for spectator in spectators]
    # The warm-up starts once every client has its first state: on a busy machine the sockets take a while
    # to open, and their opening is not a move's cost.
    opening = time.monotonic() + OPENING_SECONDS
    while not all_served(players, spectators) and time.monotonic() < opening:
        await asyncio.sleep(0.1)
    await asyncio.sleep(args.warmup)
    # Each table's first spectator counts its versions.
    counting = spectators[:: args.spectators]
    versions, moves, cpu = sum(s.version for s in counting), len(measure.round_trips), cpu_seconds(pid)
    measure.measuring = True
    started = time.perf_counter()
    await asyncio.sleep(args.seconds)
    measure.measuring = False
    elapsed = time.perf_counter() - started
    used = cpu_seconds(pid) - cpu
    actions = sum(s.version for s in counting) - versions
    moves = len(measure.round_trips) - moves
    stop.set()
    for task in tasks:
        task.cancel()
    with suppress(asyncio.CancelledError):
        await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "actions_per_second": round(actions / elapsed, 1),
        "moves_per_second": round(moves / elapsed, 1),
        "server_cpu_percent": round(100 * used / elapsed, 1),
        "ms_per_action": round(1000 * used / max(actions, 1), 3),
        "ms_per_move": round(1000 * used / max(moves, 1), 3),
        "round_trip_p50_ms": round(1000 * statistics.median(measure.round_trips), 1) if measure.round_trips else None,
        "errors": len(measure.errors),
        "load_average": os.getloadavg()[0],
    }


@contextmanager
def checkout(commit: str) -> Iterator[Path]:
    """The ``src`` folder of ``commit``, checked out in a temporary worktree (removed afterwards)."""
    folder = Path(tempfile.mkdtemp(prefix="chickenfoot-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder), commit], check=True)
    try:
        for module in COMPILED:
            sources = [f"{module}.pyx"]
            same = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", commit, "--", *sources]).returncode == 0
            for built in ROOT.glob(f"{module}.*.so"):
                if same:
                    shutil.copy(built, folder / built.relative_to(ROOT))
        yield folder / "src"
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)], check=False)


def serve_and_load(source: Path | None, args: argparse.Namespace) -> dict[str, Any]:
    """One run against a server of the code at ``source`` (``None``: this checkout's)."""
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(source), *filter(None, [env.get("PYTHONPATH")])])
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        database = f"sqlite+aiosqlite:///{folder}/games.db"
        with served(port, database, options=OPEN_LIMITS, env=env) as process:
            return asyncio.run(load(f"http://127.0.0.1:{port}", process.pid, args))


def plot(runs: list[dict[str, Any]], path: Path, spectators: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(run["version"] for run in runs))
    figure, axes = plt.subplots(figsize=(6, 3.5))
    for index, name in enumerate(names):
        values = [run["ms_per_action"] for run in runs if run["version"] == name]
        axes.scatter([index] * len(values), values, label=name)
        axes.hlines(statistics.median(values), index - 0.25, index + 0.25)
    axes.axhline(1.0, linestyle=":", color="grey")
    axes.set_xticks(range(len(names)), names)
    axes.set_xlim(-0.6, len(names) - 0.4)
    axes.set_ylim(bottom=0)
    axes.set_ylabel("server CPU per action (ms)")
    axes.set_title("4 players and a spectator per table" if spectators == 1 else f"4 players, {spectators} spectators")
    figure.tight_layout()
    figure.savefig(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player takes per move")
    parser.add_argument("--spectators", type=int, default=1, help="spectators per table")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--against", metavar="COMMIT", help="also serve the code of this commit, in turns")
    parser.add_argument("--out", type=Path, help="keep the command, the runs and the summary in this JSON file")
    parser.add_argument("--plot", type=Path, help="draw each run's CPU per action into this PNG")
    args = parser.parse_args()
    runs: list[dict[str, Any]] = []
    with ExitStack() as stack:
        versions: list[tuple[str, Path | None]] = [("this checkout", None)]
        if args.against:
            versions.insert(0, (args.against, stack.enter_context(checkout(args.against))))
        for repeat in range(args.repeats):
            for name, source in versions:
                run = {"version": name, "repeat": repeat} | serve_and_load(source, args)
                print(json.dumps(run), flush=True)
                runs.append(run)
    summary = {}
    for name, _ in versions:
        mine = [run for run in runs if run["version"] == name]
        keys = ("ms_per_action", "ms_per_move", "actions_per_second", "server_cpu_percent")
        summary[name] = medians = {key: statistics.median(run[key] for run in mine) for key in keys}
        print(
            f"{name}: {medians['ms_per_action']:.2f} ms of server CPU per action, "
            f"{medians['ms_per_move']:.2f} per player's move ({medians['actions_per_second']:.0f} actions/s, "
            f"{len(mine)} runs)"
        )
    if args.out:
        command = " ".join(["python", "benchmarks/move_cost.py", *sys.argv[1:]])
        kept = {"command": command, "seed": args.seed, "runs": runs, "median": summary}
        args.out.write_text(json.dumps(kept, indent=1) + "\n")
    if args.plot:
        plot(runs, args.plot, args.spectators)


if __name__ == "__main__":
    main()
