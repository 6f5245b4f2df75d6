"""Names folded with NFKC before their skeletons (``tester２`` is ``tester2``), and a deleted account's name
held for a while (``account_name_keys.held_until``).

Every stored skeleton and look-alike key is recomputed (``names.claims``: of two existing names that only
now look alike, the older keeps its name; the newer signs in with its passkeys). A name that is reserved only
under today's rules (``admin1``) stays its account's: the rules decide what a new name may be.

Revision ID: 0015_name_folding
Revises: 0014_foreign_keys
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from chickenfoot.server.accounts.names import claims

revision: str = "0015_name_folding"
down_revision: str | None = "0014_foreign_keys"
branch_labels: Sequence[str] | None = None
depends_on: Sequence[str] | None = None

accounts = sa.table(
    "accounts", sa.column("id", sa.Integer), sa.column("username", sa.String), sa.column("skeleton", sa.String)
)
name_keys = sa.table(
    "account_name_keys",
    sa.column("key", sa.String),
    sa.column("account_id", sa.Integer),
    sa.column("held_until", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    with op.batch_alter_table("account_name_keys") as batch:
        batch.add_column(sa.Column("held_until", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_account_name_keys_held_until", ["held_until"])
    conn = op.get_bind()
    named = conn.execute(
        sa.select(accounts.c.id, accounts.c.username).where(accounts.c.username.is_not(None)).order_by(accounts.c.id)
    ).all()
    skeletons, holders = claims((int(account_id), str(username)) for account_id, username in named)
    conn.execute(name_keys.delete())
    conn.execute(accounts.update().values(skeleton=None))
    for account_id, new in skeletons.items():
        conn.execute(accounts.update().where(accounts.c.id == account_id).values(skeleton=new))
    if holders:
        conn.execute(
            name_keys.insert(), [{"key": key, "account_id": holder} for key, holder in sorted(holders.items())]
        )


def downgrade() -> None:
    """Held names are let go; the skeletons stay (the older ones were a coarser reading of the same names)."""
    conn = op.get_bind()
    conn.execute(name_keys.delete().where(name_keys.c.held_until.is_not(None)))
    with op.batch_alter_table("account_name_keys") as batch:
        batch.drop_index("ix_account_name_keys_held_until")
        batch.drop_column("held_until")
