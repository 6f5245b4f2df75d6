"""The floods of issue 39, before and after, side by side: does any flood stall another table or take the store down?

For each chosen attack and each of two source trees in turn (``--before``, ``--after``: a checkout, or a
revision of this repository), starts that tree's ``chickenfoot serve`` (SQLite in a temporary directory,
its default limits), prepares what the attack needs, and starts an honest player at a table of their own
(against a bot: pings at a person's pace, a move after each look). After a quiet phase the attacker
starts in a process of its own, from many loopback addresses (127.0.0.2 on), and says when each of its
phases begins; when it has gone, the honest player plays on until the server rests. Per phase: the honest
ping and move round trips (p50/p95/max), the longest wait for an answer, the ``service`` outages seen,
the server's CPU and resident memory (its whole process tree); per run: the tracebacks and outages in
the server's log, the attacker's own figures, and the load average at its start and end. Writes
``results/NAME.json`` and ``results/NAME.md`` (the same tables) and prints the tables.

``--pin`` runs the server on the first core and every client on the others, the attacker at the lowest
priority; ``--proxy`` puts nginx in front, with each tree's ``deploy/nginx.conf`` and site template
(the server then believes nginx's ``X-Forwarded-For``); ``--scale`` multiplies the attacks' counts (not
their durations) for a quick run, all of them (``--scale 0.25``) or one (``--scale sockets-seat=1``).

    python benchmarks/floods.py --before main --after . --pin              # every attack, about 20 min
    python benchmarks/floods.py --before main --after main --scale 0.2 --attack sign-ins
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from attack import python_path, raise_open_files, server_core
from flood_attacks import ATTACKS, Attack, Served, Target, attacker
from flood_watch import HonestPlayer, Phased, ServerWatch, read_log
from stored import ROOT, provenance, save

from chickenfoot.testing.clients import create_table
from chickenfoot.testing.launch import free_port, proxied, served

HONEST_TABLE = {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "turn_timer": None}
LONGEST_REST = 60.0
"""The most the phase after an attack waits for the server to rest."""
COMPILED = ("src/chickenfoot/_engine.pyx", "src/chickenfoot/_engine.pxd", "src/chickenfoot/bots/_search.pyx")


@dataclass(frozen=True)
class Tree:
    """A source tree to serve: its ``src`` goes on the server's ``PYTHONPATH``, its ``deploy`` in front."""

    given: str
    root: Path
    commit: str
    compiled: bool
    """Whether its compiled core is there (else the server runs the pure-Python engine)."""


def git(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)


def tree(given: str, stack: ExitStack) -> Tree:
    """A checkout's directory as it is, or a revision of this repository exported to a temporary directory
    (with this checkout's compiled core when its sources are the revision's)."""
    path = Path(given)
    if (path / "src" / "chickenfoot").is_dir():
        head = git("rev-parse", "--short=12", "HEAD", cwd=path).stdout.strip() or "unknown"
        changed = git("status", "--porcelain", "--", "src", "deploy", cwd=path).stdout.strip()
        compiled = any((path / "src" / "chickenfoot").glob("_engine*.so"))
        return Tree(given, path.resolve(), head + ("+changes" if changed else ""), compiled)
    commit = git("rev-parse", "--short=12", f"{given}^{{commit}}").stdout.strip()
    if not commit:
        raise SystemExit(f"{given!r} is neither a checkout (with src/chickenfoot) nor a revision of this repository")
    root = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="chickenfoot-tree-")))
    archive = subprocess.run(["git", "archive", commit, "src", "deploy"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)
    compiled = git("diff", "--quiet", commit, "--", *COMPILED).returncode == 0
    for built in [
        *(ROOT / "src/chickenfoot").glob("_engine*.so"),
        *(ROOT / "src/chickenfoot/bots").glob("_search*.so"),
    ]:
        if compiled:
            shutil.copy2(built, root / built.relative_to(ROOT))
    return Tree(given, root, commit, compiled and any((root / "src/chickenfoot").glob("_engine*.so")))


class Run:
    """One attack against one served tree, watched."""

    def __init__(self, attack: Attack, served: Served, pid: int, args: argparse.Namespace) -> None:
        self.attack, self.served, self.args = attack, served, args
        self.phases = Phased()
        self.watch = ServerWatch(pid, phases=self.phases)
        self.probes: dict[str, tuple[asyncio.Event, asyncio.Task[dict[str, Any]]]] = {}

    def enter(self, phase: str, prepared: dict[str, Any]) -> None:
        """Phase ``phase`` begins: the last one's honest check ends, this one's starts."""
        for stop, _ in self.probes.values():
            stop.set()
        if phase != self.phases.name:
            self.phases.enter(phase)
        if self.attack.probe is not None:
            stop = asyncio.Event()
            self.probes[phase] = (stop, asyncio.create_task(self.attack.probe(self.served, phase, prepared, stop)))

    async def measure(self) -> dict[str, Any]:
        prepared = await self.attack.prepare(self.served)
        async with httpx.AsyncClient(base_url=self.served.target.base, timeout=30) as http:
            table = await create_table(http, HONEST_TABLE)
        honest = HonestPlayer(self.served.target.ws + table.seats[0], self.phases)
        stop = asyncio.Event()
        watching = [asyncio.create_task(honest.play(stop)), asyncio.create_task(self.watch.watch(stop))]
        self.enter("before", prepared)
        await asyncio.sleep(self.args.quiet)
        result = await self.attacked(prepared)
        self.enter("after", prepared)
        began = time.monotonic()
        while time.monotonic() - began < LONGEST_REST:  # at least the quiet phase, and until the server rests
            await asyncio.sleep(0.5)
            if time.monotonic() - began >= self.args.quiet and self.watch.idle_since(began) is not None:
                break
        stop.set()
        for probe_stop, _ in self.probes.values():
            probe_stop.set()
        await asyncio.gather(*watching)
        probes = dict(zip(self.probes, await asyncio.gather(*(t for _, t in self.probes.values())), strict=True))
        now = time.monotonic()
        phases = {
            name: honest.summary(name, now)
            | self.watch.summary(name)
            | ({"honest": probes[name]} if name in probes else {})
            for name in self.phases.order
        }
        return {"phases": phases, "attacker": result | await self.attack.inspect(self.served, result)}

    async def attacked(self, prepared: dict[str, Any]) -> dict[str, Any]:
        """Run the attacker's process to its end (killed past its bound), following its phases."""
        spawn = multiprocessing.get_context("spawn")
        said: multiprocessing.queues.Queue[Any] = spawn.Queue()
        scale = self.args.scale.get(self.attack.name, self.args.scale["*"])
        arguments = (self.attack.name, self.served.target.base, prepared, scale, said, self.args.pin)
        process = spawn.Process(target=attacker, args=arguments)
        process.start()
        deadline = time.monotonic() + self.attack.seconds + 60
        try:
            while True:
                try:
                    kind, value = await asyncio.to_thread(said.get, True, max(0.1, deadline - time.monotonic()))
                except queue.Empty:
                    return {"failed": f"the attacker did not end within {self.attack.seconds + 60:.0f} s"}
                if kind == "phase":
                    self.enter(value, prepared)
                elif kind == "result":
                    return dict(value)
                else:
                    return {"failed": value}
        finally:
            await asyncio.to_thread(process.join, 10)  # off the loop: the honest player plays on meanwhile
            if process.is_alive():
                process.kill()
                await asyncio.to_thread(process.join)


def run(attack: Attack, side: str, source: Tree, args: argparse.Namespace) -> dict[str, Any]:
    """``attack`` against ``source``'s server (behind its nginx with ``--proxy``), in a directory that is gone after."""
    started, load = time.monotonic(), os.getloadavg()[0]
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="chickenfoot-flood-")))
        stack.enter_context(python_path(source.root / "src"))
        log = stack.enter_context((folder / "serve.log").open("w"))
        backend, database = free_port(), folder / "games.db"
        trusted = ["--forwarded-allow-ips", "127.0.0.1"] if args.proxy else []
        with server_core(args.pin):
            server = stack.enter_context(
                served(backend, f"sqlite+aiosqlite:///{database}", output=log, timeout=60, options=trusted)
            )
        port = backend
        if args.proxy:
            port = free_port()
            deploy = source.root / "deploy"
            stack.enter_context(proxied(port, [backend], deploy / "nginx.conf.template", main=deploy / "nginx.conf"))
        figures = asyncio.run(
            Run(attack, Served(Target(f"http://127.0.0.1:{port}"), database), server.pid, args).measure()
        )
        log.flush()
        figures["log"] = read_log(folder / "serve.log")
        if args.logs is not None:
            args.logs.mkdir(parents=True, exist_ok=True)
            shutil.copy2(folder / "serve.log", args.logs / f"{attack.name}-{side}.log")
    return {
        "attack": attack.name,
        "tree": source.commit,
        "scale": args.scale.get(attack.name, args.scale["*"]),
        "load_average": {"start": round(load, 2), "end": round(os.getloadavg()[0], 2)},
        "seconds": round(time.monotonic() - started, 1),
    } | figures


# --- the report -----------------------------------------------------------------------------------


def shown(value: Any) -> str:
    """A figure as a table cell: round trips as ``p50 / p95 / max (n)``."""
    if isinstance(value, dict) and "n" in value:
        return "–" if value["n"] == 0 else f"{value['p50']:g} / {value['p95']:g} / {value['max']:g} ({value['n']})"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {shown(v)}" for k, v in value.items()) or "–"
    if value is None:
        return "–"
    return f"{value:g}" if isinstance(value, float) else str(value)


def flat(figures: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested figures as ``a.b`` keys, stopping at round trips and answer counts."""
    out: dict[str, Any] = {}
    for key, value in figures.items():
        if isinstance(value, dict) and "n" not in value and key not in ("answers", "refusals", "exceptions"):
            out |= flat(value, f"{prefix}{key}.")
        else:
            out[prefix + key] = value
    return out


PHASE_COLUMNS: list[tuple[str, Callable[[dict[str, Any]], Any]]] = [
    ("honest ping ms p50 / p95 / max (n)", lambda p: p.get("ping_ms")),
    ("honest move ms", lambda p: p.get("move_ms")),
    ("longest wait ms", lambda p: p.get("pause_ms")),
    ("store down (s)", lambda p: f"{p.get('store_down', 0)} ({p.get('store_down_s', 0):g} s)"),
    ("server CPU s / busy s", lambda p: f"{shown(p.get('cpu_s'))} / {shown(p.get('busy_s'))}"),
    ("RSS MB end / peak", lambda p: f"{shown(p.get('rss_mb'))} / {shown(p.get('rss_peak_mb'))}"),
]


def table(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """One attack's two runs: a table per phase (each figure before | after), then the run's own figures."""
    lines = []
    names = list(dict.fromkeys([*before["phases"], *after["phases"]]))
    lines += ["| phase | " + " | ".join(f"{title} before · after" for title, _ in PHASE_COLUMNS) + " |"]
    lines += ["|---" * (len(PHASE_COLUMNS) + 1) + "|"]
    for name in names:
        cells = []
        for _, pick in PHASE_COLUMNS:
            sides = [shown(pick(run["phases"][name])) if name in run["phases"] else "–" for run in (before, after)]
            cells.append(" · ".join(sides))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    rows: dict[str, list[Any]] = {}
    for side, run in enumerate((before, after)):
        own = (
            {
                "load average start → end": f"{run['load_average']['start']} → {run['load_average']['end']}",
                "seconds": run["seconds"],
            }
            | flat(run["log"], "log.")
            | flat(run["attacker"])
        )
        for name, phase in run["phases"].items():
            if "honest" in phase:
                own |= flat(phase["honest"], f"{name}: ")
            if phase.get("refusals"):
                own[f"{name}: honest refusals"] = phase["refusals"]
        for key, value in own.items():
            rows.setdefault(key, ["–", "–"])[side] = shown(value)
    lines += ["", "| figure | before | after |", "|---|---|---|"]
    lines += [f"| {key} | {b} | {a} |" for key, (b, a) in rows.items()]
    return lines


def report(summary: dict[str, Any]) -> str:
    trees = summary["trees"]
    lines = [
        f"# Floods: before `{trees['before']['commit']}`, after `{trees['after']['commit']}`",
        "",
        f"`{summary['command']}` — {summary['date']}, {summary['cpus']} CPUs, open files {summary['open_files']}, "
        f"pinned {summary['pinned']}, through nginx {summary['proxy']}, "
        f"load average at the end {summary['load_average']}.",
        "",
        "Round trips in ms as p50 / p95 / max (count); *longest wait*: the longest an honest ping or move "
        "waited for its answer; *store down*: `service` outages the honest player was sent (their seconds); "
        "*busy s*: from the phase's start until the server first rested a second (– : busy to its end).",
    ]
    for name in summary["attacks"]:
        runs = {run["side"]: run for run in summary["results"] if run["attack"] == name}
        lines += [
            "",
            f"## {name}",
            "",
            f"{ATTACKS[name].summary} Counts × {runs['before']['scale']:g}.",
            "",
            *table(runs["before"], runs["after"]),
        ]
    return "\n".join(lines) + "\n"


def scale(given: str) -> tuple[str, float]:
    """``F`` for every attack (``*``), or ``NAME=F`` for one."""
    name, _, factor = given.rpartition("=")
    if name and name not in ATTACKS:
        raise argparse.ArgumentTypeError(f"no attack {name!r} (there are {', '.join(ATTACKS)})")
    try:
        return name or "*", float(factor)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {factor!r}") from None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="main", help="a checkout's directory or a revision (default: main)")
    parser.add_argument(
        "--after", default=str(ROOT), help="a checkout's directory or a revision (default: this checkout)"
    )
    parser.add_argument("--attack", action="append", choices=sorted(ATTACKS), help="this attack only (repeatable)")
    parser.add_argument(
        "--scale",
        type=scale,
        action="append",
        default=[],
        help="the attacks' counts times F, or attack NAME's (NAME=F); repeatable (durations stay)",
    )
    parser.add_argument("--quiet", type=float, default=5.0, help="seconds of honest play before and after each attack")
    parser.add_argument("--pin", action="store_true", help="the server on the first core, the clients on the others")
    parser.add_argument("--proxy", action="store_true", help="through nginx with each tree's deploy/ files")
    parser.add_argument("--logs", type=Path, help="keep each server's log in this directory (ATTACK-SIDE.log)")
    parser.add_argument("--save", help="results/NAME(.json, .md) (default: floods, floods-proxy)")
    args = parser.parse_args()
    args.scale = {"*": 1.0} | dict(args.scale)
    open_files = raise_open_files()
    chosen = args.attack or list(ATTACKS)
    summary: dict[str, Any] = provenance("floods.py")
    # What to run to measure again: where this machine kept the servers' logs is no part of it.
    summary["command"] = re.sub(r" --logs(?:=| )\S+", "", summary["command"])
    with ExitStack() as stack:
        trees = {"before": tree(args.before, stack), "after": tree(args.after, stack)}
        summary |= {
            "trees": {
                side: {"given": t.given, "commit": t.commit, "compiled": t.compiled} for side, t in trees.items()
            },
            "open_files": open_files,
            "pinned": args.pin,
            "proxy": args.proxy,
            "scale": args.scale,
            "attacks": chosen,
            "results": [],
        }
        for name in chosen:
            for side, source in trees.items():  # before and after in turn: the machine's load is shared alike
                print(f"{name} on {side} ({source.commit}) ...", file=sys.stderr, flush=True)
                summary["results"].append({"side": side} | run(ATTACKS[name], side, source, args))
    summary["load_average"] = round(os.getloadavg()[0], 2)
    name = args.save or ("floods-proxy" if args.proxy else "floods")
    text = report(summary)
    save(f"{name}.json", summary).with_suffix(".md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
