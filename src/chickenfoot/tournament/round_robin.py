"""Round-robin for a club night: a schedule made before play where everyone meets everyone as evenly as
the rounds allow, at tables of 2, 3 or 4, with bots in the seats the count leaves empty.

- **Tables of 2** follow Berger's tables (the circle method, as chess round-robins do): every pair
  meets once in ``n − 1`` rounds (``n`` rounds for an odd count, each player facing a bot once), and a
  longer schedule starts the circle again.
- **Tables of 3 or 4** have no such table for every count (Kirkman's schoolgirls are the rare exact
  case). The schedule is searched for: each round's tables from a seeded shuffle, then players swapped
  between two tables of one round whenever that makes the meetings more even (the sum over all pairs of
  their meetings squared, which is least when every pair meets as often as every other, give or take
  one) and spreads the seats beside bots evenly, until the schedule is as even as it can be or the
  search's budget is spent. The same players, size, rounds and seed give the same schedule.
- **Seats**: round by round, each table's players take the seats they have held least often.

Standings use place points with :data:`ROUND_ROBIN_TIEBREAKS`: head to head, then fewer game points,
then wins.

>>> schedule = round_robin(["ann", "bob", "cy", "dan"], 2, rounds=3)
>>> for tables in schedule:
...     print(tables)
[('ann', 'dan'), ('bob', 'cy')]
[('dan', 'bob'), ('cy', 'ann')]
[('cy', 'dan'), ('ann', 'bob')]
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations

from chickenfoot.errors import TournamentError
from chickenfoot.tournament._grouping import seat, table_sizes
from chickenfoot.tournament._history import History
from chickenfoot.tournament.results import Seat, Seating, check_table_size
from chickenfoot.tournament.standings import Tiebreak

ROUND_ROBIN_TIEBREAKS = (Tiebreak.HEAD_TO_HEAD, Tiebreak.GAME_POINTS, Tiebreak.WINS)
"""A round-robin's tie-breaks, in order."""

MAX_ROUNDS = 64
"""More rounds than a club night plays (a schedule is computed whole)."""
SEARCH_STEPS = 60_000
"""Swaps the search for an even schedule of tables of 3 or 4 tries at most (under a second of CPU)."""
START_TEMPERATURE = 1.0
"""The search's tolerance for a worse schedule at its start (it falls to nothing by the end)."""
BOT_WEIGHT = 3
"""How much more an uneven share of bots weighs than uneven meetings: sitting beside bots again is chess's
second bye, avoided first."""


def round_robin(players: Sequence[str], table_size: int, rounds: int, seed: int = 0) -> list[list[Seating]]:
    """The whole schedule: for each round, its tables, each seated (``None``: a bot).

    Raises :class:`~chickenfoot.errors.TournamentError` for fewer than two players, a player listed
    twice, or a number of rounds outside 1 … :data:`MAX_ROUNDS`.
    """
    check_table_size(table_size)
    if len(players) < 2:
        raise TournamentError("a round-robin needs at least 2 players")
    if len(set(players)) != len(players):
        raise TournamentError("a player is listed twice")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise TournamentError(f"a round-robin plays 1 to {MAX_ROUNDS} rounds, not {rounds}")
    if table_size == 2:
        return [
            [tuple(None if i is None else players[i] for i in pair) for pair in tables]
            for tables in _berger(len(players), rounds)
        ]
    groups = _even_tables(len(players), table_size, rounds, random.Random(seed))
    history = History()
    schedule: list[list[Seating]] = []
    for tables in groups:
        seated = [seat([players[i] for i in members], table_size, history.seats) for members in tables]
        for seating in seated:
            history.add(seating)
        schedule.append(seated)
    return _even_seats(schedule)


def _berger(count: int, rounds: int) -> list[list[tuple[int | None, int | None]]]:
    """Berger's circle: one place fixed, the others turning half the circle a round, so that everyone's
    seats alternate; the player at the top of the circle plays the fixed place, seat by round. With an odd
    count the fixed place is a bot's. A second cycle swaps every table's seats."""
    size = count + count % 2
    turning = size - 1
    fixed: int | None = turning if turning < count else None
    schedule = []
    for r in range(rounds):
        at = [(place - r * (size // 2)) % turning for place in range(turning)]
        tables: list[tuple[int | None, int | None]] = [(at[0], fixed) if r % 2 == 0 else (fixed, at[0])]
        for i in range(1, size // 2):
            tables.append((at[i], at[turning - i]) if (r // turning) % 2 == 0 else (at[turning - i], at[i]))
        schedule.append(tables)
    return schedule


class _Tables:
    """A schedule of tables of 3 or 4 with its meeting counts, changed a swap at a time."""

    def __init__(self, rounds: list[list[list[int]]], count: int, table_size: int) -> None:
        self.rounds = rounds
        self.bots_at = [table_size - len(members) for members in rounds[0]]
        sizes = [len(members) for members in rounds[0]]
        self.met = [[0] * count for _ in range(count)]
        self.beside_bots = [0] * count
        for tables in self.rounds:
            for members, bots in zip(tables, self.bots_at, strict=True):
                for a, b in combinations(members, 2):
                    self.met[a][b] += 1
                    self.met[b][a] += 1
                for p in members:
                    self.beside_bots[p] += bots
        pairs = sum(self.met[a][b] ** 2 for a in range(count) for b in range(a + 1, count))
        self.cost = pairs + BOT_WEIGHT * sum(n * n for n in self.beside_bots)
        """The unevenness: every pair's meetings squared, plus every player's bots beside them squared
        (times :data:`BOT_WEIGHT`)."""
        played = len(rounds)
        self.ideal = _even(
            math.comb(count, 2), played * sum(math.comb(size, 2) for size in sizes)
        ) + BOT_WEIGHT * _even(count, played * sum(size * bots for size, bots in zip(sizes, self.bots_at, strict=True)))
        """The unevenness of a perfectly even schedule, which may not exist."""

    @classmethod
    def shuffled(cls, count: int, table_size: int, rounds: int, rng: random.Random) -> _Tables:
        """Every round the players in a random order, cut into tables."""
        sizes = table_sizes(count, table_size)
        starts = [sum(sizes[:j]) for j in range(len(sizes))]
        schedule = []
        for _ in range(rounds):
            order = list(range(count))
            rng.shuffle(order)
            schedule.append([order[start : start + size] for start, size in zip(starts, sizes, strict=True)])
        return cls(schedule, count, table_size)

    def _moving(self, x: int, leaving: list[int], joining: list[int], bots_left: int, bots_joined: int) -> int:
        """How the cost moves when ``x`` leaves ``leaving`` for ``joining``."""
        delta = sum(1 - 2 * self.met[x][p] for p in leaving)  # each pair's (c − 1)² − c²
        delta += sum(2 * self.met[x][p] + 1 for p in joining)  # each pair's (c + 1)² − c²
        bots = self.beside_bots[x] + bots_joined - bots_left
        return delta + BOT_WEIGHT * (bots * bots - self.beside_bots[x] ** 2)

    def delta(self, r: int, a: int, i: int, b: int, j: int) -> int:
        """How the cost moves if player ``i`` of table ``a`` and player ``j`` of table ``b`` of round ``r`` swap."""
        table_a, table_b = self.rounds[r][a], self.rounds[r][b]
        others_a = table_a[:i] + table_a[i + 1 :]
        others_b = table_b[:j] + table_b[j + 1 :]
        bots_a, bots_b = self.bots_at[a], self.bots_at[b]
        return self._moving(table_a[i], others_a, others_b, bots_a, bots_b) + self._moving(
            table_b[j], others_b, others_a, bots_b, bots_a
        )

    def swap(self, r: int, a: int, i: int, b: int, j: int, delta: int) -> None:
        """Make the swap :meth:`delta` priced."""
        table_a, table_b = self.rounds[r][a], self.rounds[r][b]
        x, y = table_a[i], table_b[j]
        self._take_place(x, y, table_a[:i] + table_a[i + 1 :])
        self._take_place(y, x, table_b[:j] + table_b[j + 1 :])
        self.beside_bots[x] += self.bots_at[b] - self.bots_at[a]
        self.beside_bots[y] += self.bots_at[a] - self.bots_at[b]
        table_a[i], table_b[j] = y, x
        self.cost += delta

    def _take_place(self, leaving: int, arriving: int, others: list[int]) -> None:
        """``arriving`` takes ``leaving``'s place beside ``others``."""
        for p in others:
            self.met[leaving][p] -= 1
            self.met[p][leaving] -= 1
            self.met[arriving][p] += 1
            self.met[p][arriving] += 1

    def swaps(self) -> list[tuple[int, int, int, int, int]]:
        """Every swap of two players of different tables of one round."""
        return [
            (r, a, i, b, j)
            for r, tables in enumerate(self.rounds)
            for a, b in combinations(range(len(tables)), 2)
            for i in range(len(tables[a]))
            for j in range(len(tables[b]))
        ]

    def snapshot(self) -> list[list[tuple[int, ...]]]:
        return [[tuple(sorted(t)) for t in tables] for tables in self.rounds]


def _even_tables(count: int, table_size: int, rounds: int, rng: random.Random) -> list[list[tuple[int, ...]]]:
    """Anneal a random schedule towards even meetings, keep the best seen, and end at a schedule no single
    swap improves."""
    schedule = _Tables.shuffled(count, table_size, rounds, rng)
    tables = len(schedule.bots_at)
    if tables < 2:
        return schedule.snapshot()
    best, best_cost = schedule.snapshot(), schedule.cost
    for step in range(SEARCH_STEPS):
        if best_cost == schedule.ideal:
            break
        temperature = START_TEMPERATURE * (1 - step / SEARCH_STEPS) + 0.01
        r = rng.randrange(rounds)
        a, b = rng.sample(range(tables), 2)
        move = (r, a, rng.randrange(len(schedule.rounds[r][a])), b, rng.randrange(len(schedule.rounds[r][b])))
        delta = schedule.delta(*move)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            schedule.swap(*move, delta)
            if schedule.cost < best_cost:
                best, best_cost = schedule.snapshot(), schedule.cost
    schedule = _Tables([[list(t) for t in tables] for tables in best], count, table_size)
    improved = True
    while improved:
        improved = False
        for move in schedule.swaps():
            delta = schedule.delta(*move)
            if delta < 0:
                schedule.swap(*move, delta)
                improved = True
    return schedule.snapshot()


def _even_seats(schedule: list[list[Seating]]) -> list[list[Seating]]:
    """Swap two seats of a table while that makes the players' seat counts more even (the sum of every
    player's count in every seat, squared, falls), until no swap does."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    tables = [list(seating) for tables in schedule for seating in tables]
    for seating in tables:
        for place, player in enumerate(seating):
            if player is not None:
                counts[player][place] += 1

    def moving(player: Seat, leaving: int, joining: int) -> int:
        if player is None:
            return 0
        return 2 * (counts[player][joining] - counts[player][leaving]) + 2  # (c + 1)² − c² + (c' − 1)² − c'²

    improved = True
    while improved:
        improved = False
        for seating in tables:
            for s, t in combinations(range(len(seating)), 2):
                if moving(seating[s], s, t) + moving(seating[t], t, s) < 0:
                    for player, leaving, joining in ((seating[s], s, t), (seating[t], t, s)):
                        if player is not None:
                            counts[player][leaving] -= 1
                            counts[player][joining] += 1
                    seating[s], seating[t] = seating[t], seating[s]
                    improved = True
    per_round = len(schedule[0])
    return [[tuple(tables[r * per_round + j]) for j in range(per_round)] for r in range(len(schedule))]


def _even(slots: int, total: int) -> int:
    """The least sum of squares of ``slots`` whole numbers adding up to ``total``: all equal, give or take one."""
    floor_, extra = divmod(total, slots)
    return extra * (floor_ + 1) ** 2 + (slots - extra) * floor_**2
