"""Quick play: a queue of players waiting for a table, paired by rating across every server process.

:mod:`.schema` the queue's table, :mod:`.store` the queue (joins, heartbeats, pairing passes),
:mod:`.pairing` who plays whom, :mod:`.service` what a player's requests do, :mod:`.routes` the HTTP API.
"""

from chickenfoot.server.quickplay.store import QuickPlaySettings

__all__ = ["QuickPlaySettings"]
