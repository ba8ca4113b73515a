"""Leases: which server process owns a table (several processes on one PostgreSQL).

``lease_owner`` is the process holding the table, ``lease_expires`` when its lease ends
unless renewed, ``lease_epoch`` grows at each takeover (every append checks it, so a
process whose lease was taken can no longer write), ``lease_wanted`` the process that asked
for the table (the proxy sends its requests there): the holder hands it over.

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
    with op.batch_alter_table("web_tables") as batch:
        batch.add_column(sa.Column("lease_owner", sa.String(80), nullable=True))
        batch.add_column(sa.Column("lease_epoch", sa.Integer(), nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("lease_expires", sa.DateTime(timezone=True),
                                   nullable=True))
        batch.add_column(sa.Column("lease_wanted", sa.String(80), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("web_tables") as batch:
        batch.drop_column("lease_wanted")
        batch.drop_column("lease_expires")
        batch.drop_column("lease_epoch")
        batch.drop_column("lease_owner")
