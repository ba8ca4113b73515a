"""The league's tables: players, groups, memberships, sessions, games, game players, marks

Revision ID: 0001_league
Revises: (none: the first league revision)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0001_league'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('league_groups',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name')
    )
    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name')
    )
    op.create_table('league_memberships',
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('joined', sa.Date(), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['league_groups.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('group_id', 'player_id')
    )
    op.create_table('league_sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['league_groups.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('group_id', 'name')
    )
    op.create_table('league_games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('game', sa.String(length=40), nullable=False),
    sa.Column('played', sa.Date(), nullable=False),
    sa.Column('sequence', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('facts', sa.JSON(), nullable=False),
    sa.Column('record', sa.Text(), nullable=True),
    sa.Column('added', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['league_groups.id'], ),
    sa.ForeignKeyConstraint(['session_id'], ['league_sessions.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key')
    )
    op.create_index('ix_league_games_group_id', 'league_games', ['group_id'])
    op.create_index('ix_league_games_played', 'league_games', ['played'])

    op.create_table('league_game_players',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('side', sa.String(length=8), nullable=False),
    sa.Column('won', sa.Boolean(), nullable=False),
    sa.Column('score', sa.Integer(), nullable=False),
    sa.Column('hands', sa.Integer(), nullable=False),
    sa.Column('contracts', sa.Integer(), nullable=False),
    sa.Column('made', sa.Integer(), nullable=False),
    sa.Column('sets', sa.Integer(), nullable=False),
    sa.Column('bags', sa.Integer(), nullable=False),
    sa.Column('nils_bid', sa.Integer(), nullable=False),
    sa.Column('nils_made', sa.Integer(), nullable=False),
    sa.Column('nil_points', sa.Integer(), nullable=False),
    sa.Column('declared', sa.Integer(), nullable=False),
    sa.Column('declared_made', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['league_games.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('game_id', 'seat')
    )
    op.create_index('ix_league_game_players_player_id', 'league_game_players', ['player_id'])

    op.create_table('league_marks',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('named_id', sa.Integer(), nullable=True),
    sa.Column('note', sa.Text(), nullable=False),
    sa.Column('added', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['league_games.id'], ),
    sa.ForeignKeyConstraint(['named_id'], ['players.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_league_marks_game_id', 'league_marks', ['game_id'])



def downgrade() -> None:
    op.drop_index('ix_league_marks_game_id', table_name='league_marks')
    op.drop_table('league_marks')
    op.drop_index('ix_league_game_players_player_id', table_name='league_game_players')
    op.drop_table('league_game_players')
    op.drop_index('ix_league_games_played', table_name='league_games')
    op.drop_index('ix_league_games_group_id', table_name='league_games')
    op.drop_table('league_games')
    op.drop_table('league_sessions')
    op.drop_table('league_memberships')
    op.drop_table('players')
    op.drop_table('league_groups')
