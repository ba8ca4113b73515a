"""Alembic environment: run on the connection ``play.database.upgrade`` hands over (online only)."""

from __future__ import annotations

from alembic import context

from tricktable.web.store import VERSION_TABLE, Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    version_table=VERSION_TABLE,
    render_as_batch=True,  # SQLite alters tables by copying them
)
with context.begin_transaction():
    context.run_migrations()
