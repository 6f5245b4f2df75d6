"""The CPU one chat line costs the chat filter (server/moderation/words.py), on the event loop: everyday
lines and lines written to cost the most (every letter a word of its own, look-alike scripts), each
with the cache of words read so far empty ("cold") and warm.

    python benchmarks/chat_filter.py [--lines 300]
"""

from __future__ import annotations

import argparse
import random
import string
import time
from collections.abc import Callable

from chickenfoot.server.moderation.words import _readings, shipped

KINDS: dict[str, Callable[[random.Random], str]] = {
    "everyday": lambda rng: " ".join(
        rng.choice(["good", "game", "well", "played", "nice", "move", "hub", "arm", "toe", "gg"]) for _ in range(40)
    )[:200],
    "dotted letters": lambda rng: ".".join(rng.choice(string.ascii_lowercase) for _ in range(100))[:200],
    "look-alike Cyrillic": lambda rng: "".join(rng.choice("кКаАоОеЕxXрРсС ") for _ in range(200)),
    "mixed scripts": lambda rng: "".join(chr(rng.randrange(0x370, 0x4FF)) for _ in range(200)),
}


def cost(lines: list[str], cold: bool) -> float:
    """CPU milliseconds per line."""
    words = shipped()
    for line in lines[:20]:
        words.match(line)
    start = time.process_time()
    for line in lines:
        if cold:
            _readings.cache_clear()
        words.match(line)
    return (time.process_time() - start) / len(lines) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(1)
    print(f"{'line':22s} {'cold ms':>8s} {'warm ms':>8s}")
    for name, make in KINDS.items():
        lines = [make(rng) for _ in range(args.lines)]
        print(f"{name:22s} {cost(lines, True):8.3f} {cost(lines, False):8.3f}")


if __name__ == "__main__":
    main()
