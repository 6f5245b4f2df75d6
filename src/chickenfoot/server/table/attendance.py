"""Who is at a table: the sockets of each seat (here and in every process), its spectators, and the
seats a bot covers while their player is away.

Only counts: arriving and leaving here are counted at once; the other processes' sockets come from
the cluster's shared counts (:meth:`Attendance.recounted`). Acting on the counts (covering a seat
after a grace, handing it back) is automatic play's business (:mod:`chickenfoot.server.table.autoplay`).
"""

from __future__ import annotations

from chickenfoot.server.table.config import TableConfig
from chickenfoot.server.table.protocol import Presence


class Attendance:
    """The sockets of a table's seats and spectators, and the seats covered by a bot."""

    def __init__(self, seats: int) -> None:
        self.here = [0] * seats
        """Sockets of each seat in this process."""
        self.spectators = 0
        """Spectators' sockets in this process."""
        self.connections = [0] * seats
        """Sockets of each seat in every process (as last counted)."""
        self.audience = 0
        """Spectators' sockets in every process (as last counted)."""
        self.covered: set[int] = set()
        """Seats a bot plays while their player is away (the lease holder decides)."""
        self.unseen: set[int] = set()
        """Seats of a table read back from storage whose player no count has found yet: without a
        socket anywhere, such a seat is gone, as if this process had seen its last socket leave."""
        self.epoch = 0
        """Counts up whenever who is here changes (the texts built for the last epoch are stale)."""

    def read_back(self, seats: list[int]) -> None:
        """The table was read back from storage with people in ``seats``: each is gone until counted."""
        self.unseen = set(seats)

    def slot(self, seat: int | None) -> int:
        """Where ``seat``'s sockets are counted: spectators after the seats."""
        return len(self.here) if seat is None else seat

    def arrive(self, seat: int | None) -> None:
        """Count a new socket of ``seat`` (``None``: a spectator); a covered seat is its player's again."""
        self.epoch += 1
        if seat is None:
            self.spectators += 1
            return
        self.here[seat] += 1
        self.connections[seat] += 1
        self.covered.discard(seat)

    def depart(self, seat: int | None) -> list[int]:
        """Count a socket of ``seat`` gone from here; returns the seats' counts to assume if the shared
        counts cannot be read."""
        if seat is None:
            self.spectators -= 1
            return list(self.connections)
        self.here[seat] -= 1
        fallback = list(self.connections)
        fallback[seat] = self.here[seat]
        return fallback

    def recounted(self, counts: list[int]) -> tuple[list[int], list[int]]:
        """Adopt every process's counts (the seats', then the spectators'); returns the seats present
        and the seats that had sockets (or are :attr:`unseen`) and now have none."""
        # This process's own sockets count even when the shared count has not heard of them yet
        # (a recount may run between a socket's arrival here and its announcement).
        counts = [max(count, here) for count, here in zip(counts, [*self.here, self.spectators], strict=True)]
        seats = len(self.here)
        present = [seat for seat in range(seats) if counts[seat] > 0]
        had = [count > 0 or seat in self.unseen for seat, count in enumerate(self.connections)]
        gone = [seat for seat in range(seats) if counts[seat] == 0 and had[seat]]
        self.covered.difference_update(present)
        self.unseen.difference_update(present)
        self.connections, self.audience = counts[:seats], counts[seats]
        self.epoch += 1
        return present, gone

    def watching(self) -> int:
        """Spectators' sockets in every process (at least those here)."""
        return max(self.audience, self.spectators)

    def idle(self) -> bool:
        """Nobody is connected to any process: the table pauses (bots too)."""
        return self.watching() == 0 and not any(self.connections)

    def watched_here(self) -> bool:
        """Someone is connected to this process (otherwise the table may leave its memory)."""
        return self.spectators > 0 or any(self.here)

    def presence(self, config: TableConfig) -> Presence:
        seats = config.seats
        return Presence(
            names=tuple(seat.name for seat in seats),
            bots=tuple(config.bot_levels()),
            kinds=tuple(seat.kind for seat in seats),
            connected=tuple(seat.kind == "bot" or self.connections[s] > 0 for s, seat in enumerate(seats)),
            covered=tuple(s in self.covered for s in range(len(seats))),
        )
