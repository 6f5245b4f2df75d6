"""Profiles: each finished match's result per seat (``match_results``, server/history/); and usernames'
skeletons and look-alike keys recomputed with Unicode's full confusables data (prototypes
of several characters: ``rn`` for ``m``).

Of two existing names that only now look alike, the older account takes the new skeleton and keys;
the newer one keeps the keys nobody holds and no skeleton: its name can no longer be looked up (it
signs in with its passkeys; its password would find the older account), as if it had been refused
at sign-up, which it would be today.

Revision ID: 0010_profiles
Revises: 0009_quick_play
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from chickenfoot.server.accounts.names import keys, skeleton

revision: str = "0010_profiles"
down_revision: str | None = "0009_quick_play"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

accounts = sa.table(
    "accounts", sa.column("id", sa.Integer), sa.column("username", sa.String), sa.column("skeleton", sa.String)
)
name_keys = sa.table("account_name_keys", sa.column("key", sa.String), sa.column("account_id", sa.Integer))


def upgrade() -> None:
    op.create_table(
        "match_results",
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("accuracy", sa.Float, nullable=True),
        sa.Column("reviewed", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    conn = op.get_bind()
    named = conn.execute(
        sa.select(accounts.c.id, accounts.c.username).where(accounts.c.username.is_not(None)).order_by(accounts.c.id)
    ).all()
    conn.execute(name_keys.delete())
    conn.execute(accounts.update().values(skeleton=None))
    taken_skeletons: set[str] = set()
    taken_keys: set[str] = set()
    for account_id, username in named:
        new = skeleton(username)
        if new not in taken_skeletons:
            taken_skeletons.add(new)
            conn.execute(accounts.update().where(accounts.c.id == account_id).values(skeleton=new))
        free = sorted(keys(username) - taken_keys)
        taken_keys.update(free)
        if free:
            conn.execute(name_keys.insert(), [{"key": key, "account_id": account_id} for key in free])


def downgrade() -> None:
    """The results go; the skeletons stay (the older ones were a coarser reading of the same names)."""
    op.drop_table("match_results")
