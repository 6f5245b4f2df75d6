"""How the cyclic garbage collector runs in the long-lived processes: the server and the load generator.

Every collection stops every table a process serves. Its pause grows with the objects it walks:
the young generation's size, and for a full collection the whole heap (about 300,000 objects in a
server holding 400 tables, 0.3–0.5 s on the reference machine). Python's default (700, 10, 10)
ran full collections every few seconds while a server's heap grew; the 50,000-object young
generation used before paused 30–150 ms each time and its first middle collection 0.56 s. Small
young and middle generations with rare full collections cost about the same CPU in all, in pauses of
2–4 ms (young) and 10–25 ms (middle): ``benchmarks/load.py`` reports them.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

from chickenfoot.server.clock import SYSTEM_CLOCK

THRESHOLDS = (2_000, 5, 100)
"""Young collections every 2,000 net allocations, middle every 5 young, full at most every 100 middle."""


def tune() -> None:
    """Leave what is loaded at start-up out of every collection, and keep each collection short."""
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


def log_pauses(out: IO[str]) -> Callable[[], None]:
    """Write one line per collection to ``out``: when it ended (Unix time), its generation and its
    pause in milliseconds. Returns the function that stops the logging."""
    started = 0.0

    def note(phase: str, info: dict[str, Any]) -> None:
        nonlocal started
        if phase == "start":
            started = time.perf_counter()
        else:
            out.write(f"{SYSTEM_CLOCK.now():.3f} {info['generation']} {1000 * (time.perf_counter() - started):.3f}\n")

    gc.callbacks.append(note)
    return lambda: gc.callbacks.remove(note)


def pauses(logs: Iterable[Path], since: float, until: float) -> dict[str, dict[str, float]]:
    """The pauses written by :func:`log_pauses` to ``logs`` that ended between two Unix times, per
    generation: how many, their median, their 99th percentile and the longest, in milliseconds."""
    found: defaultdict[str, list[float]] = defaultdict(list)
    for path in logs:
        for line in path.read_text().splitlines():
            fields = line.split()
            if len(fields) == 3 and since <= float(fields[0]) <= until:
                found[fields[1]].append(float(fields[2]))
    summary = {}
    for generation, times in sorted(found.items()):
        times.sort()
        summary[generation] = {
            "count": len(times),
            "p50_ms": round(statistics.median(times), 2),
            "p99_ms": round(times[int(len(times) * 0.99)], 2),
            "max_ms": round(times[-1], 2),
        }
    return summary
