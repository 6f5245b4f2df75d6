"""Quick play: a queue of players waiting for a table, paired by rating across every server process."""

from chickenfoot.server.quickplay.queue import QuickPlaySettings
from chickenfoot.server.quickplay.routes import quickplay_router

__all__ = ["QuickPlaySettings", "quickplay_router"]
