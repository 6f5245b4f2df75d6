"""Splitting players into tables at the least cost, and seating each table.

A cost is a tuple compared lexicographically (the first entry matters most), each entry summed over the
tables. Small fields (up to :data:`EXACT_LIMIT` ways to split them) are searched exhaustively, so the
grouping is the optimum and a person can check it by hand; larger ones start from the players cut into
consecutive tables in the given order and improve by swapping two players of nearby tables while a swap
lowers the cost.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from itertools import combinations, permutations

from chickenfoot.tournament.results import Seat, Seating

Cost = tuple[float, ...]
TableCost = Callable[[tuple[int, ...], int], Cost]
"""The cost of one table: its members (indices into the order, ascending) and how many bots sit with them."""

EXACT_LIMIT = 20_000
"""The most ways of splitting a field that are all tried (12 players in tables of 3 have 15 400)."""
WINDOW = 4
"""How many tables further down a swap partner is sought in a large field."""
MAX_PASSES = 50
"""Improving passes over a large field at most (each pass that changes nothing ends the search sooner)."""


def table_sizes(players: int, size: int) -> list[int]:
    """How many players sit at each table, full tables first: the fewest tables that seat everyone, the
    empty seats (for bots) spread one per table from the last table up.

    >>> table_sizes(8, 4), table_sizes(10, 4), table_sizes(5, 4), table_sizes(7, 2)
    ([4, 4], [4, 3, 3], [3, 2], [2, 2, 2, 1])
    """
    tables = -(-players // size)
    bots = tables * size - players
    return [size - bots // tables - (j >= tables - bots % tables) for j in range(tables)]


def _add(a: Cost, b: Cost) -> Cost:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _ways(sizes: Sequence[int]) -> int:
    """How many distinct splittings of ``sum(sizes)`` players into tables of these sizes there are."""
    ways = math.factorial(sum(sizes))
    for size in sizes:
        ways //= math.factorial(size)
    for count in Counter(sizes).values():
        ways //= math.factorial(count)
    return ways


def group(count: int, sizes: Sequence[int], table_size: int, cost: TableCost) -> list[tuple[int, ...]]:
    """Split players ``0 … count − 1`` (in order of preference) into tables of ``sizes``, least ``cost`` first.

    Returns the tables, each ascending, ordered by their first member. Ties go to the split found first,
    which keeps players near their neighbours in the order.
    """
    cached = cache(cost)

    def table_cost(members: tuple[int, ...]) -> Cost:
        return cached(members, table_size - len(members))

    search = _exact if _ways(sizes) <= EXACT_LIMIT else _improve
    return sorted(search(count, sizes, table_cost))


def _exact(count: int, sizes: Sequence[int], table_cost: Callable[[tuple[int, ...]], Cost]) -> list[tuple[int, ...]]:
    best: list[tuple[int, ...]] = []
    best_cost: Cost | None = None
    chosen: list[tuple[int, ...]] = []

    def search(remaining: tuple[int, ...], left: Counter[int], total: Cost | None) -> None:
        nonlocal best, best_cost
        if not remaining:
            if total is not None and (best_cost is None or total < best_cost):
                best, best_cost = list(chosen), total
            return
        first, rest = remaining[0], remaining[1:]
        for size in sorted((s for s, n in left.items() if n), reverse=True):
            left[size] -= 1
            for others in combinations(rest, size - 1):
                members = (first, *others)
                cost = table_cost(members)
                new_total = cost if total is None else _add(total, cost)
                # Every cost is at least zero, so a partial total at the best already cannot beat it.
                if best_cost is not None and new_total >= best_cost:
                    continue
                chosen.append(members)
                search(tuple(p for p in rest if p not in others), left, new_total)
                chosen.pop()
            left[size] += 1

    search(tuple(range(count)), Counter(sizes), None)
    return best


def _improve(count: int, sizes: Sequence[int], table_cost: Callable[[tuple[int, ...]], Cost]) -> list[tuple[int, ...]]:
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(list(range(start, start + size)))
        start += size
    costs = [table_cost(tuple(t)) for t in tables]
    for _ in range(MAX_PASSES):
        improved = False
        for a in range(len(tables)):
            for b in range(a + 1, min(len(tables), a + 1 + WINDOW)):
                for i in range(len(tables[a])):
                    for j in range(len(tables[b])):
                        new_a = [*tables[a][:i], tables[b][j], *tables[a][i + 1 :]]
                        new_b = [*tables[b][:j], tables[a][i], *tables[b][j + 1 :]]
                        cost_a, cost_b = table_cost(tuple(sorted(new_a))), table_cost(tuple(sorted(new_b)))
                        if _add(cost_a, cost_b) < _add(costs[a], costs[b]):
                            tables[a], tables[b], costs[a], costs[b] = new_a, new_b, cost_a, cost_b
                            improved = True
        if not improved:
            break
    return [tuple(sorted(t)) for t in tables]


def seat(members: Sequence[str], table_size: int, seat_counts: Mapping[str, Sequence[int]]) -> Seating:
    """Seat ``members`` (the rest of the seats bots) so that together they sit least often where they have
    sat before; ties keep the members' order, bots last.

    >>> seat(["ann", "bob"], 3, {"ann": [2, 0, 0, 0]})
    ('bob', 'ann', None)
    """
    best: tuple[int, tuple[int, ...]] | None = None
    for seats in permutations(range(table_size), len(members)):
        repeats = sum(seat_counts[p][s] if p in seat_counts else 0 for p, s in zip(members, seats, strict=True))
        if best is None or repeats < best[0]:
            best = (repeats, seats)
    assert best is not None
    seating: list[Seat] = [None] * table_size
    for player, place in zip(members, best[1], strict=True):
        seating[place] = player
    return tuple(seating)
