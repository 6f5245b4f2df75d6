"""The organiser's dear work, done in a worker process: pairings, the round-robin's schedule, the
standings and a duplicate event's comparisons, all by :mod:`chickenfoot.tournament`.

Each job is a function of plain data (ids, numbers, tuples) in and plain data out, so it crosses to
the worker and back as it is; nothing here stores, sends or waits. A player is an account's id as
text (the library's players are strings); a bot's seat is ``None``. The standings of a 500-player
arena with 5 000 finished tables take tens of milliseconds of CPU (docs/players/tournaments.md): far
too much for the event loop, which serves every table of the process.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chickenfoot.tournament import (
    ArenaSettings,
    Entrant,
    PlayerStanding,
    Result,
    Scoring,
    Seating,
    Tiebreak,
    arena_pairings,
    compare,
    duplicate_standings,
    round_robin,
    standings,
    swiss_round,
)
from chickenfoot.tournament.arena import arena_standings

ResultData = tuple[str, tuple[str | None, ...], tuple[int, ...], tuple[int, ...], int | None, float]
"""A finished table as it crosses to the worker: its code, players, points, places, deal and end (epoch seconds)."""


def result_of(data: ResultData) -> Result:
    table, players, points, places, deal, finished_at = data
    return Result(table, players, points, places, deal, finished_at)


@dataclass(frozen=True, slots=True)
class Ranking:
    """How an event ranks: by place points with its format's tie-breaks, or duplicate by a scoring."""

    tiebreaks: tuple[str, ...]
    scoring: str | None = None
    """``matchpoints`` or ``difference`` for a duplicate event."""
    ends_at: float | None = None
    """An arena's end: a match finished later counts for nothing."""

    def rank(self, results: Sequence[Result], players: Sequence[str]) -> list[PlayerStanding]:
        if self.scoring is not None:
            return duplicate_standings(results, Scoring(self.scoring), players)
        if self.ends_at is not None:
            counted = [r for r in results if r.finished_at <= self.ends_at]
            return standings(counted, _tiebreaks(self.tiebreaks), players)
        return standings(results, _tiebreaks(self.tiebreaks), players)


def _tiebreaks(names: Sequence[str]) -> tuple[Tiebreak, ...]:
    return tuple(Tiebreak(name) for name in names)


def standings_job(ranking: Ranking, results: Sequence[ResultData], players: Sequence[str]) -> dict[str, Any]:
    """The standings as the event's page shows them, and for a duplicate event every deal compared."""
    played = [result_of(data) for data in results]
    rows = [
        {
            "player": row.player,
            "rank": row.rank,
            "score": row.score,
            "matches": row.matches,
            "tiebreaks": list(row.tiebreaks),
        }
        for row in ranking.rank(played, players)
    ]
    made: dict[str, Any] = {"rows": rows, "tiebreaks": list(ranking.tiebreaks), "scoring": ranking.scoring}
    if ranking.scoring is not None:
        made["deals"] = [
            {
                "deal": deal.deal,
                "tables": [
                    {"table": r.table, "players": list(r.players), "points": list(r.points)} for r in deal.tables
                ],
                "seats": [
                    {
                        "seat": seat.seat,
                        "average": seat.average,
                        "rows": [
                            {
                                "table": row.table,
                                "player": row.player,
                                "points": row.points,
                                "matchpoints": row.matchpoints,
                                "top": row.top,
                                "percent": row.percent,
                                "difference": row.difference,
                            }
                            for row in seat.rows
                        ],
                    }
                    for seat in deal.seats
                ],
            }
            for deal in compare(played)
        ]
    return made


def arena_job(
    settings: ArenaSettings,
    entrants: Sequence[tuple[str, float, bool]],
    playing: Sequence[Seating],
    results: Sequence[ResultData],
    now: float,
    apart: Sequence[tuple[str, str]] = (),
) -> list[Seating]:
    """The arena's tables to start now: ``entrants`` are (player, waiting since, paused); ``apart`` the pairs
    of them with a block between them."""
    waiting = [Entrant(player, since, paused) for player, since, paused in entrants]
    played = [result_of(data) for data in results]
    ranking = arena_standings(settings, played, waiting)
    return arena_pairings(settings, waiting, playing, played, now, ranking, apart)


def swiss_job(
    ranking: Ranking,
    results: Sequence[ResultData],
    seeding: Sequence[str],
    out: Sequence[str],
    table_size: int,
    apart: Sequence[tuple[str, str]] = (),
) -> list[Seating]:
    """The next Swiss round for everyone of ``seeding`` (the event's order) but those ``out`` (left), those
    of each pair of ``apart`` at different tables wherever the field allows."""
    played = [result_of(data) for data in results]
    gone = set(out)
    standing = [row for row in ranking.rank(played, seeding) if row.player not in gone]
    return swiss_round(standing, played, table_size, apart)


def schedule_job(players: Sequence[str], table_size: int, rounds: int, seed: int) -> list[list[Seating]]:
    """A round-robin's whole schedule (a search of up to a second for tables of three or four)."""
    return round_robin(players, table_size, rounds, seed)
