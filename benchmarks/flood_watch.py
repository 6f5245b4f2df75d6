"""What the flood benchmark watches while it attacks: an honest player at another table, and the served
process (its memory, its CPU, its log).

Every figure is kept by *phase* (``before``, the attack's own phases, ``after``): the watchers are told
when a phase begins and file what they see under it.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
from collections import Counter, defaultdict
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from attack import PING_SECONDS, quantiles
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

THINK_SECONDS = 0.5
"""How long the honest player looks at the table before each move."""
IDLE_SHARE = 0.1
"""A server using less than this share of a core over a second is idle (it answers the honest player's
pings and moves with a few per cent)."""


class Phased:
    """The phase now, and when each began."""

    def __init__(self) -> None:
        self.name = "before"
        self.began: dict[str, float] = {"before": time.monotonic()}
        self.order = ["before"]

    def enter(self, name: str) -> None:
        self.name = name
        self.began[name] = time.monotonic()
        self.order.append(name)

    def span(self, name: str, now: float) -> tuple[float, float]:
        """When phase ``name`` began and ended (``now`` for the current one)."""
        at = self.order.index(name)
        end = self.began[self.order[at + 1]] if at + 1 < len(self.order) else now
        return self.began[name], end


@dataclass
class HonestFigures:
    """What the honest player saw in one phase."""

    pings: list[float] = field(default_factory=list)
    """Round trips of pings (ms)."""
    moves: list[float] = field(default_factory=list)
    """From sending a move to the state that stores it (ms)."""
    pause: float = 0.0
    """The longest wait for an answer to a ping or a move (ms), an unanswered one up to the phase's end."""
    errors: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0


class HonestPlayer:
    """A person at a table of their own (against a bot), pinging at a person's pace and playing random
    legal moves after a look at the table, over one WebSocket (reconnecting with ``since`` if it drops).

    Files each round trip, refusal and ``service`` message under the phase it was sent in.
    """

    def __init__(self, url: str, phases: Phased, seed: int = 1) -> None:
        self.url, self.phases, self.rng = url, phases, random.Random(seed)
        self.figures: defaultdict[str, HonestFigures] = defaultdict(HonestFigures)
        self.outages: list[tuple[float, float | None]] = []
        """Each ``service`` down (monotonic time) and the ``service`` up that ended it."""
        self.version = -1
        self._ping: tuple[str, float] | None = None  # the phase a ping was sent in, and when
        self._move: tuple[str, float, int] | None = None  # the same for a move, and its version
        self._turn: tuple[float, str] | None = None  # when to play, and the move
        self._state: dict[str, Any] = {}  # the latest state

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            since = f"{'&' if '?' in self.url else '?'}since={self.version}" if self.version >= 0 else ""
            try:
                async with connect(self.url + since, ping_interval=None, max_size=2**22, open_timeout=30) as ws:
                    reader = asyncio.create_task(self._read(ws))
                    try:
                        await self._drive(ws, stop, reader)
                    finally:
                        reader.cancel()
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                pass
            if not stop.is_set():
                self.figures[self.phases.name].reconnects += 1
                self._ping = self._move = self._turn = None
                await asyncio.sleep(0.5)
        self._waited(time.monotonic())

    async def _drive(self, ws: ClientConnection, stop: asyncio.Event, reader: asyncio.Task[None]) -> None:
        while not stop.is_set() and not reader.done():
            now = time.monotonic()
            self._waited(now)
            if self._ping is None:
                self._ping = (self.phases.name, now)
                await ws.send('{"type": "ping"}')
            if self._turn is not None and self._move is None and now >= self._turn[0]:
                move = {"type": "move", "move": self._turn[1], "version": self.version}
                self._move, self._turn = (self.phases.name, now, self.version), None
                await ws.send(json.dumps(move))
            with suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(reader), PING_SECONDS)  # a person's pace
        if reader.done() and not reader.cancelled():
            reader.exception()  # the connection ended, cleanly or not: the caller reconnects

    def _waited(self, now: float) -> None:
        """A wait still open counts whole towards the pause of the phase it began in, and its part in this
        phase towards this one's."""
        current = self.phases.name
        for waiting in (self._ping, self._move):
            if waiting is not None:
                began = self.figures[waiting[0]]
                began.pause = max(began.pause, (now - waiting[1]) * 1000)
                here = self.figures[current]
                here.pause = max(here.pause, (now - max(waiting[1], self.phases.began[current])) * 1000)

    def _answered(self, waiting: tuple[str, float] | tuple[str, float, int], into: list[float]) -> None:
        now = time.monotonic()
        self._waited(now)
        into.append((now - waiting[1]) * 1000)

    async def _read(self, ws: ClientConnection) -> None:
        async for text in ws:
            message = json.loads(text)
            kind = message.get("type")
            if kind == "pong" and self._ping is not None:
                self._answered(self._ping, self.figures[self._ping[0]].pings)
                self._ping = None
            elif kind == "service":
                self._service(message["storage"] == "up")
                self._plan()
            elif kind == "error":
                self.figures[self.phases.name].errors[message.get("code", "error")] += 1
                self._move = None  # a refused move: try again after another look
                self._plan()
            elif kind == "state":
                self._stored(message["version"], message["state"])

    def _stored(self, version: int, state: dict[str, Any]) -> None:
        if self._move is not None and version > self._move[2]:
            self._answered(self._move, self.figures[self._move[0]].moves)
            self._move = None
        self.version, self._state = version, state
        self._plan()

    def _plan(self) -> None:
        """A move to play after a look, if it is the player's turn in the latest state."""
        state = self._state
        legal = state.get("legal") or []
        forced = len(legal) == 1 and legal[0] in ("draw", "pass")  # the server makes it
        mine = state.get("to_move") == state.get("seat") and state.get("round_over") is None
        if state.get("status") == "playing" and state.get("match_over") is None and mine and legal and not forced:
            if self._move is None:
                self._turn = (time.monotonic() + THINK_SECONDS, self.rng.choice(legal))
        else:
            self._turn = None

    def _service(self, up: bool) -> None:
        now = time.monotonic()
        if not up and (not self.outages or self.outages[-1][1] is not None):
            self.outages.append((now, None))
        elif up and self.outages and self.outages[-1][1] is None:
            self.outages[-1] = (self.outages[-1][0], now)

    def summary(self, phase: str, now: float) -> dict[str, Any]:
        figures = self.figures[phase]
        began, ended = self.phases.span(phase, now)
        down = [(start, end if end is not None else now) for start, end in self.outages]
        overlap = sum(max(0.0, min(end, ended) - max(start, began)) for start, end in down)
        return {
            "ping_ms": quantiles(figures.pings),
            "move_ms": quantiles(figures.moves),
            "pause_ms": round(figures.pause, 1),
            "store_down": sum(began <= start < ended for start, _ in down),
            "store_down_s": round(overlap, 1),
            "refusals": dict(figures.errors),
            "reconnects": figures.reconnects,
        }


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (Linux ``/proc``)."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        with suppress(OSError):
            for task in Path(f"/proc/{current}/task").iterdir():
                pending += [int(child) for child in (task / "children").read_text().split()]
    return found


@dataclass(frozen=True)
class Sample:
    phase: str
    when: float
    rss: int
    """Resident memory (bytes)."""
    cpu: float
    """CPU time so far (s)."""
    runnable: bool
    """Whether a thread was running or waiting for a core: on a busy machine a server with work to do
    may get under a tenth of a core, and is not idle for it."""


def sample(phase: str, pids: list[int]) -> Sample:
    """``pids`` together, now."""
    rss, ticks, runnable = 0, 0, False
    for pid in pids:
        with suppress(OSError, ValueError, IndexError):
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(stat[11]) + int(stat[12])  # utime, stime
            rss += int(stat[21]) * os.sysconf("SC_PAGE_SIZE")
            for task in Path(f"/proc/{pid}/task").iterdir():
                runnable = runnable or (task / "stat").read_text().rsplit(")", 1)[1].split()[0] == "R"
    return Sample(phase, time.monotonic(), rss, ticks / os.sysconf("SC_CLK_TCK"), runnable)


class ServerWatch:
    """The served process tree's memory and CPU, sampled four times a second, by phase."""

    def __init__(self, pid: int, phases: Phased) -> None:
        self.pid, self.phases = pid, phases
        self.samples: list[Sample] = []

    async def watch(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.samples.append(sample(self.phases.name, process_tree(self.pid)))
            with suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.25)

    def idle_since(self, began: float) -> float | None:
        """Seconds from ``began`` until the server first stayed idle for a second: under a tenth of a core,
        and no thread waiting for one (``None``: not yet)."""
        later = [s for s in self.samples if s.when >= began]
        for at, first in enumerate(later):
            second = [s for s in later[at:] if s.when < first.when + 1.0]
            end = later[at + len(second)] if at + len(second) < len(later) else None
            if end is None:
                return None
            if (end.cpu - first.cpu) / (end.when - first.when) < IDLE_SHARE and not any(s.runnable for s in second):
                return first.when - began
        return None

    def summary(self, phase: str) -> dict[str, Any]:
        mine = [s for s in self.samples if s.phase == phase]
        if not mine:
            return {}
        began, ended = self.phases.span(phase, mine[-1].when)
        busy = self.idle_since(began)
        return {
            "rss_mb": round(mine[-1].rss / 2**20, 1),
            "rss_peak_mb": round(max(s.rss for s in mine) / 2**20, 1),
            "cpu_s": round(mine[-1].cpu - mine[0].cpu, 1),
            "seconds": round(ended - began, 1),
            # From the phase's start until the server first rested: its work left over, e.g. after the
            # attacker went away (``None``: busy until the phase ended).
            "busy_s": None if busy is None or busy > ended - began else round(busy, 1),
        }


TRACEBACK = "Traceback (most recent call last):"
EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*)(?::\s|$)")
"""The line that ends a traceback: the exception's (qualified) name, and its message after a colon."""
STORE_DOWN = "the database stopped answering"
"""The line the server logs when it declares the game store down, and when it is back."""
STORE_BACK = "the database answers again"
LOGGED_AT = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) ")


CHAINED = ("During handling of the above exception", "The above exception was the direct cause")


def read_log(path: Path) -> dict[str, Any]:
    """The server log's tracebacks (a chain of them counts once) with the exceptions that ended them, and
    how often it declared the store down."""
    lines = path.read_text(errors="replace").splitlines()
    count, ends = 0, Counter[str]()
    inside = chained = False
    last: str | None = None
    for line in lines:
        if line.startswith(TRACEBACK):
            if not chained:
                count += 1
            elif last is not None:
                ends[last] -= 1  # a chain is named by the exception that ended it
            inside, chained = True, False
        elif line.startswith(CHAINED):
            chained = True
        elif inside and line.strip() and not line.startswith((" ", "\t")):
            match = EXCEPTION.match(line)
            if match is not None:
                last = match.group(1)
                ends[last] += 1
                inside = False
    return {
        "tracebacks": count,
        "exceptions": dict((+ends).most_common(4)),
        "store_down_lines": sum(STORE_DOWN in line for line in lines),
        "store_down_s": round(outages(lines), 1),
        "lines": len(lines),
    }


def outages(lines: list[str]) -> float:
    """Seconds the log says the store was down (one still down counts until the log's last time)."""
    total, down, last = 0.0, None, None
    for line in lines:
        stamp = LOGGED_AT.match(line)
        if stamp is None:
            continue
        last = datetime.strptime(stamp.group(1), "%Y-%m-%d %H:%M:%S,%f")
        if STORE_DOWN in line and down is None:
            down = last
        elif STORE_BACK in line and down is not None:
            total, down = total + (last - down).total_seconds(), None
    if down is not None and last is not None:
        total += (last - down).total_seconds()
    return total
