"""An MkDocs hook: the pages' measured figures, read from the stored results when the site is built.

A page writes ``{{ figure NAME }}`` where a figure goes, ``{{ measured FILE }}`` where it says how that
result was made (its command, commit, date and the machine's load), and ``{{ table NAME }}`` for a table of
results. The results are the JSON files under ``benchmarks/results/`` (``benchmarks/stored.py``); a
new measurement replaces its file, so every page shows the newest. An unknown name or file stops the build.
The README, which is read without this hook, writes its figures out: ``tests/docs/test_figures.py`` checks
them against the same results.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
PLACEHOLDER = re.compile(r"\{\{ (?P<kind>figure|measured|table) (?P<name>[\w.-]+) \}\}")
COMPILED = "chickenfoot (d) compiled, batches in C"
DOMINOES = "dominoes (PyPI)"
OPENSPIEL = "OpenSpiel python_block_dominoes"


def result(file: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RESULTS / file).read_text(encoding="utf-8"))
    return data


def spaced(value: float) -> str:
    """A whole number with its thousands apart: ``24 016 877``."""
    return f"{round(value):,}".replace(",", " ")


def percent(value: float) -> str:
    return f"{value * 100:.1f}%"


@dataclass(frozen=True)
class Figure:
    """One number of a stored result and how the pages write it."""

    file: str
    path: tuple[str | int, ...]
    written: Callable[[Any], str]

    def value(self) -> Any:
        found: Any = result(self.file)
        for key in self.path:
            found = found[key]
        return found

    def text(self) -> str:
        return self.written(self.value())


def _pooled(file: str) -> dict[str, Figure]:
    """The share of matches won (with its interval) and the matches of a pooled line-up's first bot."""
    name = file.removesuffix(".json")
    return {
        f"{name}.win": Figure(file, ("rows", 0, "win_share", 0), percent),
        f"{name}.win_low": Figure(file, ("rows", 0, "win_share", 1), percent),
        f"{name}.win_high": Figure(file, ("rows", 0, "win_share", 2), percent),
        f"{name}.matches": Figure(file, ("rows", 0, "games"), "{:,}".format),
    }


FIGURES: dict[str, Figure] = {
    "engine.compiled_millions": Figure(
        "playout-speed.json", ("contenders", COMPILED, "moves_per_second"), lambda v: f"{v / 1e6:.0f} million"
    ),
    "engine.compiled_times_dominoes": Figure(
        "playout-speed.json", ("contenders", COMPILED, "times", DOMINOES), lambda v: f"{v:.0f}"
    ),
    "search.compiled_times_pure": Figure(
        "search-speed.json", ("modes", "compiled loop", "times_pure"), lambda v: f"{v:.0f}"
    ),
    "expert.seconds_per_move": Figure("timing-expert.json", ("wall_p50",), lambda v: f"{v:.2f}"),
    "expert.load_average": Figure("timing-expert.json", ("load_average",), lambda v: f"{v:.0f}"),
    "bot_api.match_seconds": Figure("bot-api-match.json", ("seconds",), lambda v: f"{v:.0f}"),
    "tournament.arena_standings_ms": Figure(
        "tournament-standings.json", ("cpu_ms", "arena standings", "median_ms"), lambda v: f"{v:.0f}"
    ),
    "tournament.swiss_standings_ms": Figure(
        "tournament-standings.json", ("cpu_ms", "swiss tie-breaks", "median_ms"), lambda v: f"{v:.0f}"
    ),
    "tournament.arena_pairing_ms": Figure(
        "tournament-standings.json", ("cpu_ms", "arena pairing", "median_ms"), lambda v: f"{v:.0f}"
    ),
    **{
        f"tournament_server.{name}": Figure("tournament-server.json", path, lambda v: f"{v:.1f}")
        for name, path in {
            "worker_ms": ("standings in the worker", "wall", "median_ms"),
            "worker_lag_ms": ("standings in the worker", "loop_lag", "median_ms"),
            "worker_lag_max_ms": ("standings in the worker", "loop_lag", "max_ms"),
            "inline_ms": ("standings on the loop", "wall", "median_ms"),
            "inline_lag_ms": ("standings on the loop", "loop_lag", "median_ms"),
            "inline_lag_max_ms": ("standings on the loop", "loop_lag", "max_ms"),
            "built_ms": ("page built", "median_ms"),
        }.items()
    },
    "tournament_server.page_kb": Figure("tournament-server.json", ("page_bytes",), lambda v: f"{v / 1000:.0f}"),
    "tournament_server.cached_ms": Figure("tournament-server.json", ("page cached", "median_ms"), lambda v: f"{v:.2f}"),
    **_pooled("4p-expert-later-vs-hard-pooled.json"),
    **_pooled("pool-2p-expert-blocking-vs-hard.json"),
}
"""Every figure a page may name, by name."""


def measured(file: str) -> str:
    """How a stored result was made, in a sentence's words."""
    data = result(file)
    made = [f"`{data['command']}`"]
    if "commit" in data:
        made.append(f"commit `{data['commit']}`")
    if "date" in data:
        made.append(data["date"][:10])
    made.append(f"load average {data['load_average']} on {data.get('cpus', 2)} cores")
    return ", ".join(made) + f" (`benchmarks/results/{file}`)"


def _playout_table() -> str:
    data = result("playout-speed.json")
    refs = [ref for ref in (DOMINOES, OPENSPIEL) if ref in data["contenders"]]
    lines = [
        "| contender | games/s | moves/s | " + " | ".join(f"× {ref.split()[0]}" for ref in refs) + " |",
        "|---|---:|---:|" + "---:|" * len(refs),
    ]
    for name, row in data["contenders"].items():
        times = " | ".join(f"{row['times'][ref]:.2f}" for ref in refs)
        lines.append(f"| {name} | {spaced(row['games_per_second'])} | {spaced(row['moves_per_second'])} | {times} |")
    return "\n".join(lines)


def _search_table() -> str:
    data = result("search-speed.json")
    lines = [
        f"| `hard` search ({data['iterations']} iterations) | iterations/s | µs per iteration | × pure |",
        "|---|---:|---:|---:|",
    ]
    for mode, row in data["modes"].items():
        lines.append(
            f"| {mode} | {spaced(row['iterations_per_second'])} | {row['microseconds_per_iteration']:.1f} "
            f"| {row['times_pure']:.1f} |"
        )
    return "\n".join(lines)


def _distribution_table() -> str:
    data = result("playout-distribution.json")
    lines = [
        "| seat | pure: mean points [95% interval] | compiled | difference |",
        "|---|---|---|---:|",
    ]
    for seat, row in enumerate(data["seats"]):
        pure, compiled = row["pure"], row["compiled"]
        lines.append(
            f"| {seat} | {pure[0]:.2f} [{pure[1]:.2f}, {pure[2]:.2f}] "
            f"| {compiled[0]:.2f} [{compiled[1]:.2f}, {compiled[2]:.2f}] | z = {row['z']:.2f} |"
        )
    return "\n".join(lines)


LEVELS = {"easy": "greedy", "medium": "heuristic", "hard": "search", "expert": "search on 2 processes"}


def _timing_table() -> str:
    lines = [
        "| level | what | wall s/move p50 | p95 | max | load average |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for level, what in LEVELS.items():
        row = result(f"timing-{level}.json")
        lines.append(
            f"| `{level}` | {what}, `{row['budget']}` | {row['wall_p50']:.3f} | {row['wall_p95']:.3f} "
            f"| {row['wall_max']:.3f} | {row['load_average']} |"
        )
    return "\n".join(lines)


def _worst_p95(quiet: dict[str, Any], later: list[dict[str, Any]], key: str) -> str:
    """``key``'s p95 in the quiet phase → its worst p95 in the later ones."""
    worst = max((figures[key].get("p95", 0.0) for figures in later), default=0.0)
    return f"{quiet[key].get('p95', 0.0):g} → {worst:g}"


def _floods_table(file: str) -> str:
    """Each attack of a flood run (``benchmarks/floods.py``) on each tree: the honest player's p95 in the
    quiet phase against its worst phase with the attacker there or gone, the store's outages (as the log
    says, and as the honest player was told), the log's tracebacks, the server's memory and the load."""
    lines = [
        "| attack | tree | ping p95 ms | move p95 ms | longest wait ms | store down s (log · told) | tracebacks "
        "| RSS MiB before / peak / after | load |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for run in result(file)["results"]:
        phases = run["phases"]
        quiet, later = phases["before"], [figures for name, figures in phases.items() if name != "before"]
        seconds = sum(figures["store_down_s"] for figures in later)
        peak = max(figures.get("rss_peak_mb", 0.0) for figures in phases.values())
        wait = max(figures["pause_ms"] for figures in later)
        lines.append(
            f"| `{run['attack']}` ×{run['scale']:g} | {run['side']} | {_worst_p95(quiet, later, 'ping_ms')} "
            f"| {_worst_p95(quiet, later, 'move_ms')} | {wait:g} | {run['log']['store_down_s']:g} · {seconds:g} "
            f"| {run['log']['tracebacks']} "
            f"| {quiet.get('rss_mb', 0):g} / {peak:g} / {phases['after'].get('rss_mb', 0):g} "
            f"| {run['load_average']['start']} |"
        )
    return "\n".join(lines)


def _ping_table(file: str) -> str:
    """The honest player's pings in each phase of each run of a flood run: p50 / p95 / max, and the longest
    wait for any answer (a ping or a move)."""
    lines = [
        "| attack | tree | phase | ping ms p50 / p95 / max | longest wait ms |",
        "| --- | --- | --- | ---: | ---: |",
    ]
    for run in result(file)["results"]:
        for name, figures in run["phases"].items():
            ping = figures["ping_ms"]
            shown = "–" if not ping.get("n") else f"{ping['p50']:g} / {ping['p95']:g} / {ping['max']:g}"
            lines.append(f"| `{run['attack']}` | {run['side']} | {name} | {shown} | {figures['pause_ms']:g} |")
    return "\n".join(lines)


TABLES: dict[str, Callable[[], str]] = {
    "floods-smoke": lambda: _floods_table("floods-smoke.json"),
    "floods-proxy-smoke": lambda: _floods_table("floods-proxy-smoke.json"),
    "floods-http": lambda: _floods_table("floods-http.json"),
    "floods-http-proxy": lambda: _floods_table("floods-http-proxy.json"),
    "floods-sockets": lambda: _floods_table("floods-sockets.json"),
    "floods-sockets-grace": lambda: _floods_table("floods-sockets-grace.json"),
    "floods-handshake": lambda: _floods_table("floods-handshake.json"),
    "floods-handshake-pings": lambda: _ping_table("floods-handshake.json"),
    "floods-handshake-proxy": lambda: _floods_table("floods-handshake-proxy.json"),
    "floods-handshake-proxy-pings": lambda: _ping_table("floods-handshake-proxy.json"),
    "playout-speed": _playout_table,
    "search-speed": _search_table,
    "playout-distribution": _distribution_table,
    "levels-timing": _timing_table,
}
"""The tables a page may show, each from its stored results (``levels-timing``: ``timing-LEVEL.json``;
``floods-smoke``, ``floods-proxy-smoke``, ``floods-http``, ``floods-http-proxy``, ``floods-sockets``,
``floods-sockets-grace``, ``floods-handshake``, ``floods-handshake-proxy``: the JSON file of that name;
``…-pings``: the honest player's pings in each phase of that file's runs)."""


def rendered(markdown: str) -> str:
    """``markdown`` with every placeholder replaced; an unknown figure, file or table raises ``KeyError``."""

    def replace(found: re.Match[str]) -> str:
        kind, name = found["kind"], found["name"]
        if kind == "figure":
            return FIGURES[name].text()
        if kind == "measured":
            return measured(name)
        return TABLES[name]()

    return PLACEHOLDER.sub(replace, markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return rendered(markdown)
