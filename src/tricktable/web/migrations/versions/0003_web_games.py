"""Finished games kept whole, and tables that belong to a league group.

- ``web_games``: each finished game of a table, its record as JSON, written in the same
  transaction as the rematch that follows it; ``web_snapshots``: where the table stood just
  after its last rematch (the log entry, the game's number, what the table says of devices
  and chat). A table is rebuilt from its snapshot and the log after it, so loading a table
  costs its current game, never the games finished before.
- ``web_tables.group_id`` and ``web_seats.person_id``: a table started from a league group's
  page, and the people (league ``players``) who sit at it. No foreign keys across wings:
  each wing migrates its own tables.

Revision ID: 0003_web_games
Revises: 0002_web_limits
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_web_games"
down_revision = "0002_web_limits"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_games",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("web_tables.id"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("record", sa.Text(), nullable=False),
    )
    op.create_table(
        "web_snapshots",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("web_tables.id"), primary_key=True),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("talk", sa.JSON(), nullable=False),
    )
    with op.batch_alter_table("web_tables") as batch:
        batch.add_column(sa.Column("group_id", sa.Integer(), nullable=True))
    with op.batch_alter_table("web_seats") as batch:
        batch.add_column(sa.Column("person_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("web_seats") as batch:
        batch.drop_column("person_id")
    with op.batch_alter_table("web_tables") as batch:
        batch.drop_column("group_id")
    op.drop_table("web_snapshots")
    op.drop_table("web_games")
