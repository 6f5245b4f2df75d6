"""Steps per second of the PettingZoo environment, against one of PettingZoo's own classic games.

Both run through PettingZoo's ``performance_benchmark`` (random legal actions from the action mask,
about 5 seconds each, every step also builds the observation), in the same process, one after the
other:

    python benchmarks/env_speed.py                 # chickenfoot 4 players vs connect_four_v3
    python benchmarks/env_speed.py --players 2 8   # several table sizes

The reference needs pygame (``pip install -e '.[bench]'``); without it only chickenfoot runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
from typing import Any

from pettingzoo.test import performance_benchmark

from chickenfoot.interop.pettingzoo import env


def turns_per_second(environment: Any) -> float:
    """Run PettingZoo's benchmark on ``environment`` and read its turns-per-second figure."""
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        performance_benchmark(environment)
    found = re.search(r"([0-9.]+) turns per second", output.getvalue())
    if found is None:
        raise RuntimeError(f"unexpected benchmark output: {output.getvalue()!r}")
    return float(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[4], help="table sizes to measure (default 4)")
    args = parser.parse_args()
    for players in args.players:
        speed = turns_per_second(env(players=players))
        print(f"chickenfoot_v0 ({players} players, double-9): {speed:,.0f} steps/s")
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError as exc:
        print(f"connect_four_v3 skipped: {exc}")
        return
    print(f"connect_four_v3 (PettingZoo classic): {turns_per_second(connect_four_v3.env()):,.0f} steps/s")


if __name__ == "__main__":
    main()
