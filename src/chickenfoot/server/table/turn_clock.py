"""The turn clock of a table: when the current turn began, and whether it stands.

A clock runs only for a player who has the table open: while the seat to move has no socket
anywhere its clock stands, and on its player's return the turn's start moves on by the time away,
so the clock goes on from where it stood. Times are wall times (seconds since the epoch), as stored
with each action: a restarted server resumes the same clock.

>>> clock = TurnClock(started=100.0)
>>> clock.deadline(30)
130.0
>>> clock.follow(present=False, now=110.0)  # the player closes the page: the clock stands
>>> clock.deadline(30) is None
True
>>> clock.follow(present=True, now=125.0)  # back 15 s later: the deadline moves on by 15 s
>>> clock.deadline(30)
145.0
"""

from __future__ import annotations

from datetime import datetime


class TurnClock:
    """When the current turn began, and since when it stands (its player away)."""

    __slots__ = ("away_since", "started")

    def __init__(self, started: float) -> None:
        self.started = started
        """When the current turn began: the turn timer counts from it, moved on by any time its
        player spent away."""
        self.away_since: float | None = None
        """Since when the seat to move has had no socket anywhere (its clock stands meanwhile)."""

    def resume(self, playing_since: float | None, last_action: datetime | None) -> None:
        """Restart where storage says the turn began (after a restart, not afresh)."""
        times = [t for t in (playing_since, last_action.timestamp() if last_action else None) if t]
        if times:
            self.started = max(times)

    def begin(self, at: float, present: bool, now: float) -> None:
        """A new turn's clock starts at ``at`` (standing at once if its player is away)."""
        self.started = at
        self.away_since = None
        self.follow(present, now)

    def follow(self, present: bool, now: float) -> None:
        """Stop while the seat to move has no socket; on its return, go on from where it stood."""
        if not present and self.away_since is None:
            self.away_since = max(now, self.started)
        elif present and self.away_since is not None:
            self.started += max(0.0, now - self.away_since)
            self.away_since = None

    def deadline(self, timer: float) -> float | None:
        """When a turn of ``timer`` seconds runs out; ``None`` while the clock stands."""
        return None if self.away_since is not None else self.started + timer
