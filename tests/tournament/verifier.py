"""A second, deliberately plain duplicate scorer, used only to check the package's: it reads match records.

It knows nothing of deal numbers or of :mod:`chickenfoot.tournament`: two records played the same deal
when every round dealt the same hands and the same boneyard, and a seat's result is the sum of that
seat's round points written in the record. Each result is then compared with every other result at its
seat of its deal, one pair at a time.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any


def deal_of(record: dict[str, Any]) -> str:
    """What was dealt, round by round: the same text for two records exactly when their deals are the same."""
    return json.dumps([[r["start_double"], r["hands"], r["boneyard"]] for r in record["rounds"]])


def verify(
    tables: Sequence[tuple[str, Sequence[str | None], dict[str, Any]]],
) -> dict[tuple[str, str, int], tuple[int, int, int, float]]:
    """For each (deal as dealt, table, seat): the points, match points, top and difference, from
    ``(table, players by seat, match record)`` triples."""
    by_deal: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for table, _players, record in tables:
        by_deal.setdefault(deal_of(record), []).append((table, record))
    found = {}
    for deal, played in by_deal.items():
        seats = played[0][1]["players"]
        for seat in range(seats):
            points = {}
            for table, record in played:
                total = 0
                for round_ in record["rounds"]:
                    total += round_["points"][seat]
                points[table] = total
            for table, own in points.items():
                matchpoints = 0
                others = []
                for other_table, other in points.items():
                    if other_table == table:
                        continue
                    others.append(other)
                    if own < other:
                        matchpoints += 2
                    elif own == other:
                        matchpoints += 1
                difference = sum(others) / len(others) - own if others else 0.0
                found[(deal, table, seat)] = (own, matchpoints, 2 * len(others), difference)
    return found
