"""What the server keeps to keep its promises: whether the creator chose the seed (then it
is shown to everyone at the table), whether the table is listed in the lobby (private
unless the host says otherwise), and room for names of 40 grapheme clusters (an emoji
family is several code points).

Revision ID: 0002_web_limits
Revises: 0001_web
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_web_limits"
down_revision = "0001_web"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("web_tables") as batch:
        batch.add_column(sa.Column("seed_chosen", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("public", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("web_players") as batch:
        batch.alter_column("name", type_=sa.String(length=400), existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("web_players") as batch:
        batch.alter_column("name", type_=sa.String(length=40), existing_nullable=False)
    with op.batch_alter_table("web_tables") as batch:
        batch.drop_column("public")
        batch.drop_column("seed_chosen")
