"""A seated player changes their name: checked, throttled, stored and announced to every client."""

from __future__ import annotations

import logging
import math

from chickenfoot.messages import Code, Said
from chickenfoot.server.clock import Clock
from chickenfoot.server.refusals import Refusal
from chickenfoot.server.table.config import TableConfig
from chickenfoot.server.table.ports import ConfigPort

log = logging.getLogger(__name__)

RENAME_SECONDS = 5.0
"""A seat may change its name once in this many seconds (each change is stored and announced to all)."""


class RenameThrottle:
    """When each seat of a table last changed its name."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._renamed: dict[int, float] = {}

    def wait(self, seat: int) -> float:
        """Seconds before ``seat`` may change its name again (0 or less: now)."""
        return self._renamed.get(seat, -math.inf) + RENAME_SECONDS - self.clock.monotonic()

    def renamed(self, seat: int) -> None:
        self._renamed[seat] = self.clock.monotonic()


async def rename(table: ConfigPort, renames: RenameThrottle, seat: int | None, name: str) -> None:
    """A seated player's new name (checked plain text), stored and announced to every client.

    Raises :class:`~.refusals.Refusal` for a spectator, a bot's seat, a name changed too recently, or
    a store that cannot keep it.
    """
    if seat is None or table.config.seats[seat].kind != "human":
        text = "only a player at the table can change their name"
        raise Refusal.forbidden(Said.of(Code.ERROR_RENAME_SPECTATOR), text=text)
    entry = table.config.seats[seat]
    if entry.name == name:
        return
    if (wait := renames.wait(seat)) > 0:
        seconds = math.ceil(wait)
        text = f"you changed your name a moment ago: try again in {seconds} s"
        raise Refusal.too_many(Said.of(Code.ERROR_RENAME_WAIT, seconds=seconds), retry_after=wait, text=text)
    # A seat without a name was shown by its default name, in each reader's language.
    old = entry.name if entry.name is not None else Said.of(Code.SEAT_DEFAULT, number=seat + 1)
    renamed = Said.of(Code.EVENT_RENAMED, seat=seat, old=old)

    def named(config: TableConfig) -> None:
        config.seats[seat].name = name

    try:
        await table.change_config(named, [{"kind": "renamed", "seat": seat, "move": None} | renamed.wire()])
    except Exception:
        log.exception("cannot store a new name at table %s", table.code)
        text = "your name could not be stored; try again shortly"
        raise Refusal.busy(Said.of(Code.ERROR_NAME_NOT_STORED), text=text) from None
    renames.renamed(seat)
