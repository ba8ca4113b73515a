"""Leases: which server process owns a table (several processes on one PostgreSQL).

``web_tables.lease_owner`` is the process holding the table, ``lease_epoch`` grows at each
takeover (every append checks it, so a process whose lease was taken can no longer write),
``lease_wanted`` the process that asked for the table (the proxy sends its requests there):
the holder hands it over. ``web_servers`` holds one row per process, ``expires`` renewed
every second: a process's leases hold while its row has not expired, so renewing costs one
row a process, not one a table.

Revision ID: 0004_web_leases
Revises: 0003_web_games
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_web_leases"
down_revision = "0003_web_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_servers",
        sa.Column("owner", sa.String(80), primary_key=True),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("web_tables") as batch:
        batch.add_column(sa.Column("lease_owner", sa.String(80), nullable=True))
        batch.add_column(sa.Column("lease_epoch", sa.Integer(), nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("lease_wanted", sa.String(80), nullable=True))
        batch.create_index("ix_web_tables_lease_owner", ["lease_owner"])


def downgrade() -> None:
    with op.batch_alter_table("web_tables") as batch:
        batch.drop_index("ix_web_tables_lease_owner")
        batch.drop_column("lease_wanted")
        batch.drop_column("lease_epoch")
        batch.drop_column("lease_owner")
    op.drop_table("web_servers")
