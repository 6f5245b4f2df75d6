"""A turn-based table's clock: when the player to move runs out of time, and what is due next.

At a turn-based table the clock runs for the player to move whether or not they have the page open;
it stands only while they are on vacation. Times are wall times (seconds since the epoch), counted
from the stored time of the table's last action, so a restarted server, or another process, reads the
same deadline from storage.

>>> from chickenfoot.server.table.config import DAY, Pace, Seat
>>> pace = Pace(move_seconds=DAY)
>>> move_deadline(pace, started=0.0, seat=Seat("human"))
86400.0
>>> away = Seat("human", away_from=3_600.0, away_until=3_600.0 + 2 * DAY)  # two days away, an hour in
>>> move_deadline(pace, started=0.0, seat=away) / DAY
3.0
>>> late = Seat("human", away_from=2 * DAY, away_until=3 * DAY)  # the time had run out before
>>> move_deadline(pace, started=0.0, seat=late) / DAY
1.0
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from chickenfoot.messages import Code, Said
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table.config import MOVE_TIMES, Pace, Seat, TimeoutRule


class NewPace(BaseModel):
    """A new turn-based table's pace, as asked (``POST /api/tables``, the Bot API): seconds per move
    (1 h, 12 h, 1, 2, 3 or 7 days) and the rule when they run out."""

    move_seconds: Literal[3600, 43200, 86400, 172800, 259200, 604800]
    on_timeout: TimeoutRule = "move"


def paced(request: NewPace, players: int) -> Pace:
    """A new table's pace; raises :class:`Refusal` (invalid) for losing on time with more than two."""
    assert request.move_seconds in MOVE_TIMES
    if request.on_timeout == "lose" and players != 2:
        raise Refusal.invalid(Said.of(Code.ERROR_LOSE_ON_TIME_TWO))
    return Pace(request.move_seconds, request.on_timeout)


def pace_facts(pace: Pace | None) -> dict[str, Any] | None:
    """A table's pace as the API and the page show it (``None``: real-time)."""
    return None if pace is None else {"move_seconds": pace.move_seconds, "on_timeout": pace.on_timeout}


def move_deadline(pace: Pace, started: float, seat: Seat) -> float:
    """When the player of ``seat``, to move since ``started``, runs out of time: the time per move, plus
    the part of their vacation that began before it ran out."""
    due = started + pace.move_seconds
    if seat.away_from is not None and seat.away_until is not None and seat.away_from < due:
        due += max(0.0, seat.away_until - max(started, seat.away_from))
    return due


def vacation(seat: Seat) -> list[float] | None:
    """The seat's player's vacation as the page shows it (from, until), if they took one."""
    if seat.away_from is None or seat.away_until is None:
        return None
    return [seat.away_from, seat.away_until]
