"""Migration 0010_profiles: names stored with the older, single-character skeletons get today's."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from chickenfoot.server.accounts.names import keys, skeleton
from chickenfoot.server.accounts.schema import accounts, name_keys
from chickenfoot.server.storage import MIGRATIONS

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def migrate(engine: sa.Engine, revision: str) -> None:
    with engine.begin() as connection:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def migrated(
    tmp_path: Path, revision: str, stored: dict[str, str]
) -> tuple[sa.Engine, dict[str, str | None], dict[str, int]]:
    """Accounts named as ``revision`` stored them (name: skeleton), migrated to the head: the engine,
    each name's skeleton and each key's account."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'games.db'}")
    migrate(engine, revision)
    with engine.begin() as conn:
        for number, (name, old) in enumerate(stored.items(), start=1):
            conn.execute(
                accounts.insert().values(
                    id=number, username=name, skeleton=old, user_handle=f"h{number}", created_at=NOW
                )
            )
            conn.execute(name_keys.insert().values(key=old, account_id=number))
    migrate(engine, "head")
    with engine.connect() as conn:
        skeletons = dict(conn.execute(sa.select(accounts.c.username, accounts.c.skeleton)).all())
        held = {key: account for key, account in conn.execute(sa.select(name_keys.c.key, name_keys.c.account_id))}
    return engine, skeletons, held


def test_stored_skeletons_are_recomputed_and_the_older_of_two_look_alikes_keeps_its_name(tmp_path: Path) -> None:
    # As 0007 stored them: "mary" and "rnary" had different skeletons then; "walt" alone.
    engine, skeletons, held = migrated(tmp_path, "0007_accounts", {"mary": "mary", "rnary": "rnary", "walt": "walt"})
    assert skeletons == {"mary": skeleton("mary"), "rnary": None, "walt": skeleton("walt")}
    assert skeletons["walt"] == skeleton("vvalt") != "walt"
    assert all(held[key] == 1 for key in keys("mary"))  # the older account holds the look-alike keys
    assert all(held[key] == 3 for key in keys("walt"))
    engine.dispose()


def test_names_are_folded_and_held_names_can_be_stored(tmp_path: Path) -> None:
    """0015_name_folding: ``tester２`` beside ``tester2`` was two names; the older keeps it."""
    as_0013 = {"tester2": "tester2", "tester２": "tester２", "ruta１": "ruta１"}
    engine, skeletons, held = migrated(tmp_path, "0013_bot_api", as_0013)
    assert skeletons == {"tester2": skeleton("tester2"), "tester２": None, "ruta１": skeleton("ruta1")}
    assert all(held[key] == 1 for key in keys("tester２")) and all(held[key] == 3 for key in keys("ruta1"))
    with engine.begin() as conn:  # a deleted account's keys can be held
        conn.execute(name_keys.update().where(name_keys.c.account_id == 3).values(held_until=NOW))
    engine.dispose()
