"""Alembic environment: the server passes an open connection; the alembic command passes ``-x url=``."""

from alembic import context
from sqlalchemy import create_engine

config = context.config
connection = config.attributes.get("connection")
if connection is not None:
    context.configure(connection=connection, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    url = context.get_x_argument(as_dictionary=True)["url"]
    with create_engine(url).connect() as conn:
        context.configure(connection=conn, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
