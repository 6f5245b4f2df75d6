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


def test_stored_skeletons_are_recomputed_and_the_older_of_two_look_alikes_keeps_its_name(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'games.db'}")
    migrate(engine, "0007_accounts")
    # As 0007 stored them: "mary" and "rnary" had different skeletons then; "walt" alone.
    old = {"mary": "mary", "rnary": "rnary", "walt": "walt"}
    with engine.begin() as conn:
        for number, (name, stored) in enumerate(old.items(), start=1):
            conn.execute(
                accounts.insert().values(
                    id=number, username=name, skeleton=stored, user_handle=f"h{number}", created_at=NOW
                )
            )
            conn.execute(name_keys.insert().values(key=stored, account_id=number))
    migrate(engine, "head")
    with engine.connect() as conn:
        skeletons = dict(conn.execute(sa.select(accounts.c.username, accounts.c.skeleton)).all())
        held = {key: account for key, account in conn.execute(sa.select(name_keys.c.key, name_keys.c.account_id))}
    assert skeletons == {"mary": skeleton("mary"), "rnary": None, "walt": skeleton("walt")}
    assert skeletons["walt"] == skeleton("vvalt") != "walt"
    assert all(held[key] == 1 for key in keys("mary"))  # the older account holds the look-alike keys
    assert all(held[key] == 3 for key in keys("walt"))
    engine.dispose()
