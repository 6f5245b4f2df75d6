"""How long the two example clients of the Bot API take to play a whole classic match against each other.

    python benchmarks/bot_api_match.py              # about half a minute on an idle 2-core machine
    python benchmarks/bot_api_match.py --save bot-api-match.json

``examples/bot_client.py`` (the ``easy`` level) challenges ``examples/random_bot.py`` on a fresh server
process on SQLite, served as ``tests/server/botapi/test_examples.py`` serves it: ``chickenfoot serve --pace 0``
(no pauses before bots' and forced moves) with the per-address limits open. On a server with the default
pace every bot and forced move waits as it would for a person watching, and the match takes minutes.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from stored import ROOT, provenance, save

from chickenfoot.testing.bot_accounts import example_match
from chickenfoot.testing.launch import OPEN_LIMITS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--save", metavar="NAME", help="also store the result as benchmarks/results/NAME (JSON)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        match = example_match(ROOT / "examples", Path(directory), timeout=600)
    if match.client.returncode != 0 or match.random_bot.returncode != 0:
        raise SystemExit(f"the match did not finish: {match.client.stderr.strip() or match.client.stdout.strip()}")
    print(f"a whole classic match of the two example clients: {match.seconds:.1f} s")
    if args.save:
        served = " ".join(["chickenfoot serve --pace 0", *OPEN_LIMITS])
        result = {"seconds": round(match.seconds, 1), "rounds": 10, "served": served}
        save(args.save, {**result, **provenance("bot_api_match.py")})


if __name__ == "__main__":
    main()
