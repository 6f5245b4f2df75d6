"""Hypothesis strategies for the tournament tests: fields of players, finished tables, renamings."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from hypothesis import strategies as st

from chickenfoot.tournament import Result, Seat

NAMES = [f"p{i:02}" for i in range(40)]


@st.composite
def results_of(draw: st.DrawFn, players: Sequence[str] = NAMES[:10], deals: bool = False) -> list[Result]:
    """Finished tables of 2 to 4 seats among ``players`` (some seats bots), with random points; with
    ``deals``, grouped into duplicate deals that no player plays twice."""
    results = []
    for index in range(draw(st.integers(0, 12))):
        size = draw(st.integers(2, 4))
        people = draw(st.lists(st.sampled_from(list(players)), min_size=1, max_size=size, unique=True))
        seats: list[Seat] = [*people, *[None] * (size - len(people))]
        seats = draw(st.permutations(seats))
        points = draw(st.lists(st.integers(0, 60), min_size=size, max_size=size))
        results.append(Result.from_points(f"t{index}", tuple(seats), points))
    return results


def relabelled(
    players: Sequence[str], rng: random.Random
) -> tuple[dict[str, str], Callable[[list[Result]], list[Result]]]:
    """A random renaming of ``players`` (to names that sort differently) and the function renaming results."""
    fresh = [f"q{i:02}" for i in range(len(players))]
    rng.shuffle(fresh)
    names = dict(zip(players, fresh, strict=True))

    def renamed(results: list[Result]) -> list[Result]:
        return [
            Result(
                r.table,
                tuple(None if p is None else names[p] for p in r.players),
                r.points,
                r.places,
                r.deal,
                r.finished_at,
            )
            for r in results
        ]

    return names, renamed
