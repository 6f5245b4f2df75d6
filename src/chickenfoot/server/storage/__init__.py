"""The game store: tables, their actions, configurations and secrets (:mod:`.store`), and the one
``MetaData`` every feature's tables are declared on (:mod:`.schema`)."""

from chickenfoot.server.storage.schema import (
    actions,
    archived_actions,
    chat_lines,
    game_tables,
    metadata,
    rematch_votes,
    reviews,
    seat_secrets,
    turn_deadlines,
)
from chickenfoot.server.storage.store import (
    MIGRATIONS,
    SeatKeeper,
    Storage,
    StorageUnavailable,
    StoredAction,
    VersionTaken,
    aware,
    default_database_url,
)

__all__ = [
    "MIGRATIONS",
    "SeatKeeper",
    "Storage",
    "StorageUnavailable",
    "StoredAction",
    "VersionTaken",
    "actions",
    "archived_actions",
    "aware",
    "chat_lines",
    "default_database_url",
    "game_tables",
    "metadata",
    "rematch_votes",
    "reviews",
    "seat_secrets",
    "turn_deadlines",
]
