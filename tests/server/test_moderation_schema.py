"""Migration 0018_moderation makes exactly the tables and the column the one MetaData declares (SQLite and
PostgreSQL); a restriction goes with its account, the audit log outlives every account it names."""

from __future__ import annotations

from chickenfoot.server.accounts.schema import accounts
from chickenfoot.server.moderation import schema
from chickenfoot.server.storage import metadata

from .notifications.test_schema import differences

TABLES = {"moderation_restrictions", "moderation_audit", "moderation_words"}


def test_the_migration_makes_the_tables_and_the_role_the_metadata_declares(database_url: str) -> None:
    assert {table.name for table in metadata.sorted_tables} >= TABLES
    assert "operator" in accounts.c
    mine = [
        difference
        for difference in differences(database_url)
        if any(f"'{table}'" in repr(difference) or f"<{table}>" in repr(difference) for table in TABLES)
        or "'operator'" in repr(difference)
    ]
    # As for 0017: SQLite reflects an indexed DateTime(timezone=True) as DATETIME, reported removed and added.
    removed = {d[1].name for d in mine if d[0] == "remove_index"}
    added = {d[1].name for d in mine if d[0] == "add_index"}
    assert [d for d in mine if not (d[0] in ("remove_index", "add_index") and d[1].name in removed & added)] == []


def test_a_restriction_goes_with_its_account_and_the_audit_log_outlives_it() -> None:
    [restricted] = [key for key in schema.restrictions.foreign_keys if key.parent.name == "account_id"]
    assert restricted.ondelete == "CASCADE"
    for key in schema.audit.foreign_keys:
        assert key.ondelete == "SET NULL", key.parent.name
