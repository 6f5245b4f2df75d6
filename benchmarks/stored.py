"""Where the benchmarks store their results, and what each result says of how it was made.

A result the documentation quotes is one JSON file under ``benchmarks/results/``. Besides its figures it
holds ``command`` (what to run to measure again), ``commit`` (the code measured; ``+changes`` when the
engine, the bots or the benchmarks differed from it), ``date`` (UTC), ``load_average`` (the machine's
one-minute load when the measurement ended, the run's own processes included) and ``cpus``. The pages read
their figures from these files (``docs/hooks/figures.py``), the newest of each kind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results"
ROOT = Path(__file__).resolve().parents[1]


def commit() -> str:
    """The commit measured, ``+changes`` when its engine, bots or benchmarks were edited since."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False).stdout.strip()

    head = git("rev-parse", "--short=12", "HEAD") or "unknown"
    return head + ("+changes" if git("status", "--porcelain", "--", "src", "benchmarks/*.py") else "")


def provenance(script: str) -> dict[str, Any]:
    """The command that was run (``script`` and this process's arguments), the commit, the date and the machine."""
    return {
        "command": " ".join(["python", f"benchmarks/{script}", *sys.argv[1:]]),
        "commit": commit(),
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%MZ"),
        "load_average": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
    }


def save(name: str, data: object) -> Path:
    """Write ``data`` as ``benchmarks/results/NAME`` (JSON), and say where."""
    out = RESULTS / name
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"saved {out.relative_to(ROOT)}", file=sys.stderr)
    return out
