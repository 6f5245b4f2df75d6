"""Migration 0021_tournaments makes exactly the tables the one MetaData declares (SQLite and PostgreSQL),
and every row of an event goes with it (its tables' rows also with their game table)."""

from __future__ import annotations

from typing import Any

from chickenfoot.server.storage import metadata
from chickenfoot.server.tournaments.schema import tournament_entrants, tournament_tables, tournaments

from ..test_turn_based_schema import differences

TABLES = {"tournaments", "tournament_entrants", "tournament_tables"}


def about(difference: Any) -> bool:
    return any(f"'{table}'" in repr(difference) or f"<{table}>" in repr(difference) for table in TABLES)


def test_the_migration_makes_the_tables_the_metadata_declares(database_url: str) -> None:
    assert {table.name for table in metadata.sorted_tables} >= TABLES
    mine = [difference for difference in differences(database_url) if about(difference)]
    # SQLite reflects an index's DateTime(timezone=True) column as DATETIME: the same index removed and added.
    removed = {d[1].name for d in mine if d[0] == "remove_index"}
    added = {d[1].name for d in mine if d[0] == "add_index"}
    assert [d for d in mine if not (d[0] in ("remove_index", "add_index") and d[1].name in removed & added)] == []


def test_an_events_rows_go_with_it() -> None:
    keys = {(key.parent.name, key.column.table.name): key.ondelete for key in tournament_entrants.foreign_keys}
    keys |= {(key.parent.name, key.column.table.name): key.ondelete for key in tournament_tables.foreign_keys}
    assert keys == {
        ("tournament_id", "tournaments"): "CASCADE",
        ("account_id", "accounts"): "CASCADE",
        ("table_code", "game_tables"): "CASCADE",
    }
    [creator] = tournaments.foreign_keys
    assert (creator.column.table.name, creator.ondelete) == ("accounts", "SET NULL")
