"""Answers built in the last seconds, kept by key: a flood of one page (a profile, a player's ratings, a
leaderboard) costs one build per :data:`KEEP_SECONDS`, whoever asks."""

from __future__ import annotations

from collections import OrderedDict

from chickenfoot.server.clock import Clock

KEEP_SECONDS = 10.0
"""How long a built answer is kept."""
KEEP_ANSWERS = 512
"""Answers kept at most (the oldest dropped first)."""


class Kept:
    """Built answers by key, each kept for ``KEEP_SECONDS`` (the oldest dropped past ``KEEP_ANSWERS``).

    An answer is kept only if nothing was cleared while it was built: a build reads :attr:`generation`
    first and hands it to :meth:`keep`, so an answer read before a change cannot outlive the change.
    """

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._kept: OrderedDict[str, tuple[float, bytes]] = OrderedDict()
        self.generation = 0
        """How many times the answers were cleared."""

    def get(self, key: str) -> bytes | None:
        kept = self._kept.get(key)
        if kept is None or kept[0] <= self.clock.monotonic():
            return None
        return kept[1]

    def keep(self, key: str, built: bytes, generation: int) -> None:
        """Keep ``built``, begun when :attr:`generation` was ``generation`` (if cleared since, it is dropped)."""
        if generation != self.generation:
            return
        self._kept[key] = (self.clock.monotonic() + KEEP_SECONDS, built)
        self._kept.move_to_end(key)
        while len(self._kept) > KEEP_ANSWERS:
            self._kept.popitem(last=False)

    def clear(self) -> None:
        """Forget every answer, and every one being built (what they were built from has changed)."""
        self._kept.clear()
        self.generation += 1
