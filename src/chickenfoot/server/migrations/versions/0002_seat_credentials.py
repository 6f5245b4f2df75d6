"""Seat credentials and invites stored as digests, out of the table configuration; action times.

Tokens stored in a table's configuration by earlier versions move here as digests: a taken seat's
token becomes its credential, a free seat's token becomes its invite (a single-use claim). The
configuration records the creator's seat (the first human seat).

Revision ID: c7e1d2a94b30
Revises: 0001
"""

import hashlib
import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c7e1d2a94b30"
down_revision: str | None = "0001"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None


def upgrade() -> None:
    secrets = op.create_table(
        "seat_secrets",
        sa.Column("table_code", sa.String(16), sa.ForeignKey("game_tables.code"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("purpose", sa.String(8), primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
    )
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("at", sa.DateTime(timezone=True), nullable=True))
    connection = op.get_bind()
    tables = sa.table("game_tables", sa.column("code", sa.String), sa.column("config", sa.Text))
    for code, text in connection.execute(sa.select(tables.c.code, tables.c.config)).all():
        config = json.loads(text)
        seats = config.get("seats") if isinstance(config, dict) else None
        if not isinstance(seats, list) or not all(isinstance(entry, dict) for entry in seats):
            continue  # not a table configuration this server wrote: nothing to move
        humans = [s for s, entry in enumerate(seats) if entry.get("kind") == "human"]
        if humans:
            config["creator"] = humans[0]  # the creator held the first human seat
        for seat, entry in enumerate(seats):
            token = entry.pop("token", None)
            if token:
                purpose = "seat" if entry.get("taken") else "invite"
                value = hashlib.sha256(token.encode()).hexdigest()
                connection.execute(secrets.insert().values(table_code=code, seat=seat, purpose=purpose, digest=value))
        connection.execute(tables.update().where(tables.c.code == code).values(config=json.dumps(config)))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("at")
    op.drop_table("seat_secrets")
