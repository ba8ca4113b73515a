"""The web server's tables: people, tables, tokens, seats and the event log

Revision ID: 0001_web
Revises: (none: the first web revision)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_web"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "web_tables",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("bot_pace", sa.Float(), nullable=False),
        sa.Column("away_grace", sa.Float(), nullable=True),
        sa.Column("stand_in", sa.String(length=20), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_web_tables_status", "web_tables", ["status"])
    op.create_table(
        "web_tokens",
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("table_id", sa.String(length=24), nullable=False),
        sa.Column("role", sa.String(length=10), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["web_tables.id"]),
        sa.PrimaryKeyConstraint("hash"),
    )
    op.create_index("ix_web_tokens_table_id", "web_tokens", ["table_id"])
    op.create_table(
        "web_seats",
        sa.Column("table_id", sa.String(length=24), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("bot", sa.String(length=20), nullable=True),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("token", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["web_tables.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["web_players.id"]),
        sa.ForeignKeyConstraint(["token"], ["web_tokens.hash"]),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_table(
        "web_events",
        sa.Column("table_id", sa.String(length=24), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("actor", sa.String(length=80), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["web_tables.id"]),
        sa.PrimaryKeyConstraint("table_id", "n"),
    )


def downgrade() -> None:
    op.drop_table("web_events")
    op.drop_table("web_seats")
    op.drop_index("ix_web_tokens_table_id", table_name="web_tokens")
    op.drop_table("web_tokens")
    op.drop_index("ix_web_tables_status", table_name="web_tables")
    op.drop_table("web_tables")
    op.drop_table("web_players")
