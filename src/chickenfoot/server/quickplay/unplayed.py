"""The quick play tables this process made that nobody has played yet, and the players seated at each.

A pass makes a table for players who may never come to it (a flood of guests joining from many
addresses, none coming to its table, left hundreds stored for a day). So a player (an account, or a
guest's browser) may be seated at only so many unplayed tables, and the process may have made only
so many: a join past either is refused, and a pass makes no more tables than the process may (the
players left over wait for the next). Counted in this process's memory, for the tables its own passes
made; a table leaves the count once it has an action or is gone, which is asked of the store only when
a count is at its cap, in one read for all of that count's tables.

>>> import asyncio
>>> played: set[str] = set()
>>> async def unplayed_among(codes):
...     return set(codes) - played
>>> tables = UnplayedTables(unplayed_among, per_owner=1, per_process=2)
>>> tables.add("ABC", ["guest:ann", "guest:bo"])
>>> asyncio.run(tables.full_for("guest:ann")), asyncio.run(tables.full_for("guest:cy")), asyncio.run(tables.room())
(True, False, 1)
>>> played.add("ABC")  # its first move
>>> asyncio.run(tables.full_for("guest:ann")), asyncio.run(tables.room())
(False, 2)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable, Collection, Iterable

UnplayedAmong = Callable[[Collection[str]], Awaitable[set[str]]]
"""Those of the codes still stored without a single action (the store's ``unplayed_among``)."""


class UnplayedTables:
    """What this process's passes made and nobody has played yet: a player may be seated at ``per_owner``
    of these tables, the process may hold ``per_process``."""

    def __init__(self, unplayed_among: UnplayedAmong, per_owner: int, per_process: int) -> None:
        self._unplayed_among = unplayed_among
        self.per_owner, self.per_process = per_owner, per_process
        self._owners: dict[str, tuple[str, ...]] = {}
        """Each table's players (their queue entries' owners)."""
        self._tables: defaultdict[str, set[str]] = defaultdict(set)
        """Each owner's tables."""

    def add(self, code: str, owners: Iterable[str]) -> None:
        """A pass made table ``code`` for ``owners``."""
        self._owners[code] = tuple(owners)
        for owner in self._owners[code]:
            self._tables[owner].add(code)

    async def full_for(self, owner: str) -> bool:
        """Whether ``owner`` is seated at as many unplayed tables as a player may be."""
        if len(self._tables.get(owner, ())) >= self.per_owner:
            await self._forget_played(self._tables[owner])
        return len(self._tables.get(owner, ())) >= self.per_owner

    async def room(self) -> int:
        """How many more tables this process may make now."""
        if len(self._owners) >= self.per_process:
            await self._forget_played(self._owners)
        return max(0, self.per_process - len(self._owners))

    async def _forget_played(self, codes: Collection[str]) -> None:
        """Forget those of ``codes`` that have been played or are gone."""
        asked = list(codes)
        unplayed = await self._unplayed_among(asked)
        for code in asked:
            if code not in unplayed:
                for owner in self._owners.pop(code, ()):
                    self._tables[owner].discard(code)
                    if not self._tables[owner]:
                        del self._tables[owner]
