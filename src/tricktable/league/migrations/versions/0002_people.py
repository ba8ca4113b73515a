"""Groups reached by a private link, people who hold a key, names unique within a group.

- ``league_groups``: ``token_hash`` (SHA-256 of the group's private link token; the token is
  never stored), ``time_zone`` (an IANA name, "UTC" for the groups made before) and
  ``open_session`` (the name of the session the group opened, or NULL: a game's session is
  then its date in the group's time zone).
- ``players``: ``key_hash`` (SHA-256 of the person's key; NULL for people made by imports).
  The name is no longer unique across the database, only within a group (the store checks
  it): two groups may each have an Ann. An index on the name keeps look-ups by name fast.
- ``league_games.facts`` names people by their seat in the game instead of by name (the
  winner, the tray person, the tray sheet, perfect and imperfect days, a stake's winners
  and losers), so that a renamed person's past games follow him as his results and marks
  (which point at the person) do.

Dropping the unique constraint on SQLite copies ``players`` (batch mode: a new table, the
rows copied, the old one dropped, the new one renamed). SQLite refuses to drop a table other
tables point at while it enforces foreign keys, even for a moment, so the copy runs with
them off, on a connection that is closed afterwards (never handed back to the pool without
them), and ``PRAGMA foreign_key_check`` must find nothing before the revision commits.

Revision ID: 0002_people
Revises: 0001_league
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = '0002_people'
down_revision = '0001_league'
branch_labels = None
depends_on = None

# SQLite's unique constraints made by 0001 have no name: batch mode names them by this
# convention when it reflects the table, so they can be dropped by name.
NAMING = {"uq": "uq_%(table_name)s_%(column_0_name)s"}


def _unique_on(table: str, column: str) -> str:
    """The name of the unique constraint on ``table.column`` (PostgreSQL named it
    ``players_name_key``; SQLite's has none: then the name the convention gives it)."""
    for constraint in sa.inspect(op.get_bind()).get_unique_constraints(table):
        if constraint["column_names"] == [column] and constraint["name"]:
            return str(constraint["name"])
    return f"uq_{table}_{column}"


@contextmanager
def _copying_a_referenced_table() -> Iterator[None]:
    """On SQLite: foreign keys off while a table others point at is copied, checked after."""
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        yield
        return
    raw = bind.connection.dbapi_connection
    assert raw is not None
    if raw.in_transaction:
        # The pragma cannot change inside a transaction: this is a new database, whose
        # first revision ran in this same transaction, so there are no rows to check.
        yield
        return
    bind.exec_driver_sql("PRAGMA foreign_keys = OFF")
    bind.connection.detach()  # closed, not pooled, once the upgrade is done
    bind.exec_driver_sql("BEGIN")  # one transaction for the revision (DDL included)
    yield
    broken = bind.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise RuntimeError(f"the league's foreign keys do not hold after the copy: {broken}")


_GAMES = sa.table("league_games", sa.column("id", sa.Integer), sa.column("facts", sa.JSON))
_SEATS = sa.table("league_game_players", sa.column("game_id", sa.Integer),
                  sa.column("seat", sa.Integer), sa.column("player_id", sa.Integer))
_PLAYERS = sa.table("players", sa.column("id", sa.Integer), sa.column("name", sa.String))


def _people_in(facts: dict[str, Any], convert: Callable[[Any], Any]) -> dict[str, Any]:
    """``facts`` with ``convert`` applied to every person it names."""
    out = dict(facts)
    if isinstance(out.get("threeb"), dict):
        t = out["threeb"] = dict(out["threeb"])
        for one in ("winner", "tray_person"):
            if t.get(one) is not None:
                t[one] = convert(t[one])
        for many in ("perfect_day", "imperfect_day"):
            t[many] = [convert(p) for p in t.get(many, [])]
        t["tray_sheet"] = [[convert(p) for p in row] for row in t.get("tray_sheet", [])]
    if isinstance(out.get("stakes"), dict):
        k = out["stakes"] = dict(out["stakes"])
        for many in ("winners", "losers"):
            k[many] = [convert(p) for p in k.get(many, [])]
    return out


def _converter(names: dict[int, str], by_seat: bool) -> Callable[[Any], Any]:
    """Name to seat (``by_seat``) or seat to name, in a game whose seats are ``names``; a
    name that is no player of the game stays as it was."""
    numbers = {name: seat for seat, name in names.items()}

    def convert(value: Any) -> Any:
        if by_seat:
            return numbers.get(value, value) if isinstance(value, str) else value
        return names.get(value, value) if isinstance(value, int) else value

    return convert


def _rewrite_facts(by_seat: bool) -> None:
    """Every game's facts naming people by seat (``by_seat``) or by name."""
    bind = op.get_bind()
    seats: dict[int, dict[int, str]] = {}
    query = sa.select(_SEATS.c.game_id, _SEATS.c.seat, _PLAYERS.c.name).join(
        _PLAYERS, _PLAYERS.c.id == _SEATS.c.player_id)
    for game_id, seat, name in bind.execute(query):
        seats.setdefault(game_id, {})[seat] = name
    for game_id, facts in bind.execute(sa.select(_GAMES.c.id, _GAMES.c.facts)).all():
        new = _people_in(facts or {}, _converter(seats.get(game_id, {}), by_seat))
        if new != facts:
            bind.execute(_GAMES.update().where(_GAMES.c.id == game_id).values(facts=new))


def upgrade() -> None:
    with _copying_a_referenced_table():
        with op.batch_alter_table('league_groups') as batch:
            batch.add_column(sa.Column('token_hash', sa.String(length=64), nullable=True))
            batch.add_column(sa.Column('time_zone', sa.String(length=64), nullable=False,
                                       server_default='UTC'))
            batch.add_column(sa.Column('open_session', sa.String(length=100), nullable=True))
        op.create_index('ix_league_groups_token_hash', 'league_groups', ['token_hash'],
                        unique=True)
        name_unique = _unique_on('players', 'name')
        with op.batch_alter_table('players', naming_convention=NAMING) as batch:
            batch.add_column(sa.Column('key_hash', sa.String(length=64), nullable=True))
            batch.drop_constraint(name_unique, type_='unique')
        op.create_index('ix_players_key_hash', 'players', ['key_hash'], unique=True)
        op.create_index('ix_players_name', 'players', ['name'])
        _rewrite_facts(by_seat=True)


def downgrade() -> None:
    """Back to names unique across the database: refused (by the database) while two
    groups each have a person of the same name."""
    with _copying_a_referenced_table():
        _rewrite_facts(by_seat=False)
        op.drop_index('ix_players_name', table_name='players')
        op.drop_index('ix_players_key_hash', table_name='players')
        with op.batch_alter_table('players', naming_convention=NAMING) as batch:
            batch.drop_column('key_hash')
            batch.create_unique_constraint('uq_players_name', ['name'])
        op.drop_index('ix_league_groups_token_hash', table_name='league_groups')
        with op.batch_alter_table('league_groups') as batch:
            batch.drop_column('open_session')
            batch.drop_column('time_zone')
            batch.drop_column('token_hash')
