"""How long the server takes to build the STATE messages of one version for every seat of a table.

    python benchmarks/state_text.py --players 4 --games 30 --repeats 5

Two builders play the same seeded random rounds, version by version, in one run:

- ``per recipient`` (the reference): for every seat, its own view and the whole STATE object of
  docs/protocol.md (:func:`~chickenfoot.server.table.protocol.state_for`, log included) in JSON: what a
  server that builds each message from scratch does.
- ``table``: :meth:`~chickenfoot.server.table.state_texts.StateTexts.state`, as the server sends it: the
  fields every seat shares built once per version from a spectator's view, each seat's own fields
  and own draws added, the log's entries encoded once and sent from where the recipient left off.

Prints microseconds per version (all seats), the best and the median of the repeats.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from chickenfoot import Match, Rules
from chickenfoot.server.table.attendance import Attendance
from chickenfoot.server.table.config import Seat, TableConfig
from chickenfoot.server.table.protocol import LogSent, Presence, dumps, state_for
from chickenfoot.server.table.state_texts import StateTexts


class Playing:
    """A table in play as its state texts read it (:class:`~chickenfoot.server.table.ports.StateSource`),
    every seat connected to this process."""

    def __init__(self, config: TableConfig, match: Match) -> None:
        self.code, self.config, self.match, self.version, self.closed = "ABCDEF", config, match, 0, False
        self.status = "playing"
        self.counts = Attendance(len(config.seats))
        self.counts.here = [1] * len(config.seats)
        self.texts = StateTexts(self)

    def presence(self) -> Presence:
        return self.counts.presence(self.config)

    def free_seats(self) -> list[int]:
        return []

    def turn_deadline(self) -> float | None:
        return None

    def graces(self) -> list[float | None]:
        return [None] * len(self.config.seats)


Builder = Callable[[Match, Playing, dict[int, LogSent | None]], None]


def per_recipient(match: Match, table: Playing, _sent: dict[int, LogSent | None]) -> None:
    presence = table.presence()
    for seat in range(match.players):
        dumps(state_for(table.code, table.status, match, match.round.view(seat), presence))


def shared(_match: Match, table: Playing, sent: dict[int, LogSent | None]) -> None:
    for seat in sent:
        _, sent[seat] = table.texts.state(seat, [], sent[seat])


def one_pass(builder: Builder, players: int, games: int) -> float:
    """Microseconds per version over ``games`` seeded rounds."""
    config = TableConfig(Rules(), [Seat("human", f"Player {s + 1}") for s in range(players)], seed=1)
    spent, versions = 0.0, 0
    for game in range(games):
        match, rng = Match(config.rules, players, game), random.Random(game)
        table = Playing(config, match)
        sent: dict[int, LogSent | None] = dict.fromkeys(range(players))
        while not match.round.is_over():
            match.push(rng.choice(match.round.legal_moves()))
            table.version += 1
            start = time.perf_counter()
            builder(match, table, sent)
            spent += time.perf_counter() - start
            versions += 1
    return 1e6 * spent / versions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    builders: dict[str, Builder] = {"per recipient": per_recipient, "table": shared}
    times: dict[str, list[float]] = {name: [] for name in builders}
    for _ in range(args.repeats):  # interleaved, so the machine's load falls on both alike
        for name, builder in builders.items():
            times[name].append(one_pass(builder, args.players, args.games))
    for name, spent in times.items():
        print(f"{name:>14}: best {min(spent):7.1f} us, median {statistics.median(spent):7.1f} us per version")
    ratio = statistics.median(times["per recipient"]) / statistics.median(times["table"])
    print(f"table is {ratio:.1f}x faster ({args.players} players, {args.games} rounds, {args.repeats} repeats)")


if __name__ == "__main__":
    main()
