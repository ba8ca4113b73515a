"""The league's tables (SQLAlchemy 2) and the store that reads and writes them.

People, groups and their members, sessions, finished games with each player's facts, and
the marks added after a game. The schema is made and upgraded by Alembic
(``league/migrations``); opening a store brings the database up to date first. SQLite by
default, any SQLAlchemy URL (PostgreSQL: ``postgresql+psycopg://...``) by ``url``.

The store keeps entries; every number shown is computed from them by ``threeb`` and
``stats`` (docs/league.md). Writing is all-or-nothing: a game, its players and its
session go in one transaction, and a mark is stored only after the score sheet has been
recomputed with it and no rule refused it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

from ..play.database import open_database
from ..play.paths import DATABASE_VARIABLE, default_database_url
from .model import (
    BONEHEAD,
    THREEB,
    ZERO_BUDDY,
    GameEntry,
    LeagueError,
    Mark,
    PlayerResult,
    StakeFacts,
    ThreeBFacts,
    in_order,
)
from .threeb import threeb_history

DATABASE_ENV = DATABASE_VARIABLE


def default_url() -> str:
    """See ``play.paths.default_database_url``."""
    return default_database_url()


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class PlayerRow(Base):
    """A person known across games."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class GroupRow(Base):
    """A group (a lunch table, a club) with its own league."""

    __tablename__ = "league_groups"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class MembershipRow(Base):
    __tablename__ = "league_memberships"
    group_id: Mapped[int] = mapped_column(ForeignKey("league_groups.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    joined: Mapped[date] = mapped_column(Date)


class SessionRow(Base):
    """A session of a group: an evening, a lunch break (by default named by its date)."""

    __tablename__ = "league_sessions"
    __table_args__ = (UniqueConstraint("group_id", "name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("league_groups.id"))
    name: Mapped[str] = mapped_column(String(100))


class GameRow(Base):
    """A finished game. ``key`` is its record's hash; ``facts`` holds the game's own 3B or
    stake facts; ``record`` the record itself, when it came from one."""

    __tablename__ = "league_games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    game: Mapped[str] = mapped_column(String(40))
    played: Mapped[date] = mapped_column(Date, index=True)
    sequence: Mapped[int] = mapped_column(Integer, default=0)
    group_id: Mapped[int] = mapped_column(ForeignKey("league_groups.id"), index=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("league_sessions.id"))
    facts: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    record: Mapped[str | None] = mapped_column(Text, nullable=True)
    added: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    players: Mapped[list[GamePlayerRow]] = relationship(
        order_by="GamePlayerRow.seat", cascade="all, delete-orphan"
    )
    marks: Mapped[list[MarkRow]] = relationship(
        order_by="MarkRow.id", cascade="all, delete-orphan"
    )
    group: Mapped[GroupRow] = relationship()
    session: Mapped[SessionRow] = relationship()


class GamePlayerRow(Base):
    """One person's facts in one game (``model.PlayerResult``)."""

    __tablename__ = "league_game_players"
    game_id: Mapped[int] = mapped_column(ForeignKey("league_games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    side: Mapped[str] = mapped_column(String(8))
    won: Mapped[bool]
    score: Mapped[int]
    hands: Mapped[int]
    contracts: Mapped[int]
    made: Mapped[int]
    sets: Mapped[int]
    bags: Mapped[int]
    nils_bid: Mapped[int]
    nils_made: Mapped[int]
    nil_points: Mapped[int]
    declared: Mapped[int]
    declared_made: Mapped[int]
    player: Mapped[PlayerRow] = relationship()


class MarkRow(Base):
    """A mark added to a game after it was played (``model.Mark``)."""

    __tablename__ = "league_marks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("league_games.id"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    named_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    note: Mapped[str] = mapped_column(Text, default="")
    added: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    player: Mapped[PlayerRow] = relationship(foreign_keys=[player_id])
    named: Mapped[PlayerRow | None] = relationship(foreign_keys=[named_id])


_COUNTS = ("hands", "contracts", "made", "sets", "bags", "nils_bid", "nils_made",
           "nil_points", "declared", "declared_made")


class LeagueStore:
    """The league's games in a database. Opening it migrates the schema to the newest."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        self.engine = open_database(self.url, Path(__file__).with_name("migrations"))

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as s, s.begin():
            yield s

    # --- people and groups ----------------------------------------------------------------

    @staticmethod
    def _player(s: Session, name: str) -> PlayerRow:
        row = s.scalar(select(PlayerRow).where(PlayerRow.name == name))
        if row is None:
            row = PlayerRow(name=name)
            s.add(row)
            s.flush()
        return row

    @staticmethod
    def _group(s: Session, name: str) -> GroupRow:
        row = s.scalar(select(GroupRow).where(GroupRow.name == name))
        if row is None:
            row = GroupRow(name=name)
            s.add(row)
            s.flush()
        return row

    def add_member(self, group: str, person: str, joined: date | None = None) -> None:
        with self.session() as s:
            self._join(s, self._group(s, group), self._player(s, person), joined or date.today())

    @staticmethod
    def _join(s: Session, group: GroupRow, player: PlayerRow, joined: date) -> None:
        if s.get(MembershipRow, (group.id, player.id)) is None:
            s.add(MembershipRow(group_id=group.id, player_id=player.id, joined=joined))
            s.flush()

    def groups(self) -> list[str]:
        with self.session() as s:
            return list(s.scalars(select(GroupRow.name).order_by(GroupRow.name)))

    def members(self, group: str) -> list[str]:
        with self.session() as s:
            return list(s.scalars(
                select(PlayerRow.name).join(MembershipRow)
                .join(GroupRow).where(GroupRow.name == group).order_by(PlayerRow.name)
            ))

    def people(self) -> list[str]:
        with self.session() as s:
            return list(s.scalars(select(PlayerRow.name).order_by(PlayerRow.name)))

    # --- games ----------------------------------------------------------------------------

    def has_game(self, key: str) -> bool:
        with self.session() as s:
            return s.scalar(select(GameRow.id).where(GameRow.key == key)) is not None

    def next_sequence(self, group: str, day: date) -> int:
        """The sequence number after the group's last game of ``day``."""
        with self.session() as s:
            last = s.scalar(
                select(GameRow.sequence).join(GroupRow).where(
                    GroupRow.name == group, GameRow.played == day
                ).order_by(GameRow.sequence.desc()).limit(1)
            )
            return 0 if last is None else last + 1

    def add_game(self, entry: GameEntry, record: str | None = None) -> bool:
        """Store a finished game, its players joining its group. False (and nothing
        changes) if a game with the same key is already stored."""
        if not entry.group:
            raise LeagueError("a game belongs to a group: name one")
        try:
            return self._add_game(entry, record)
        except IntegrityError:  # another import stored the same game meanwhile
            if self.has_game(entry.key):
                return False
            raise

    def _add_game(self, entry: GameEntry, record: str | None) -> bool:
        with self.session() as s:
            if s.scalar(select(GameRow.id).where(GameRow.key == entry.key)) is not None:
                return False
            group = self._group(s, entry.group)
            session_name = entry.session_name
            session = s.scalar(select(SessionRow).where(
                SessionRow.group_id == group.id, SessionRow.name == session_name))
            if session is None:
                session = SessionRow(group_id=group.id, name=session_name)
                s.add(session)
            row = GameRow(
                key=entry.key, game=entry.game, played=entry.played, sequence=entry.sequence,
                group=group, session=session, facts=_facts_json(entry), record=record,
            )
            for p in entry.players:
                player = self._player(s, p.person)
                self._join(s, group, player, entry.played)
                row.players.append(GamePlayerRow(
                    seat=p.seat, player=player, side=p.side, won=p.won, score=p.score,
                    **{name: getattr(p, name) for name in _COUNTS},
                ))
            for m in entry.marks:
                row.marks.append(self._mark_row(s, m))
            s.add(row)
        return True

    def _mark_row(self, s: Session, m: Mark) -> MarkRow:
        return MarkRow(
            kind=m.kind, player=self._player(s, m.person), note=m.note,
            named=None if m.named is None else self._player(s, m.named),
        )

    def find_key(self, prefix: str) -> str:
        """The game whose key is ``prefix``, else the one game whose key starts with it."""
        with self.session() as s:
            if s.scalar(select(GameRow.id).where(GameRow.key == prefix)) is not None:
                return prefix
            keys = list(s.scalars(select(GameRow.key).where(GameRow.key.startswith(prefix))
                                  .limit(2)))
        if len(keys) != 1:
            what = "no game" if not keys else "more than one game"
            raise LeagueError(f"{what} has a key starting {prefix!r}: give more of the key")
        return keys[0]

    def add_mark(self, key: str, mark: Mark) -> None:
        """Add a mark to a stored game, after checking the score sheet still holds with it
        (a mark that breaks a rule raises LeagueError and nothing is stored)."""
        key = self.find_key(key)
        with self.session() as s:
            row = s.scalar(select(GameRow).where(GameRow.key == key))
            assert row is not None
            group = row.group.name
        entries = [
            GameEntry(**{**vars(e), "marks": (*e.marks, mark)}) if e.key == key else e
            for e in self.entries(group)
        ]
        target = next(e for e in entries if e.key == key)
        if target.game != THREEB and mark.kind not in (BONEHEAD, ZERO_BUDDY):
            raise LeagueError(
                f"a {mark.kind} mark belongs to the 3B tray: game {key[:12]} is {target.game}"
                f" (its marks: {BONEHEAD}, {ZERO_BUDDY})"
            )
        if mark.person not in target.people and mark.kind in (BONEHEAD, ZERO_BUDDY):
            raise LeagueError(
                f"{mark.person} did not play game {key[:12]}: a {mark.kind} mark goes to one"
                f" of its players ({', '.join(target.people)})"
            )
        threeb_history(entries)  # raises LeagueError if the mark breaks a 3B rule
        with self.session() as s:
            row = s.scalar(select(GameRow).where(GameRow.key == key))
            assert row is not None
            row.marks.append(self._mark_row(s, mark))

    def entries(self, group: str | None = None, game: str | None = None) -> list[GameEntry]:
        """The stored games (of one group, of one game), in the order they were played."""
        with self.session() as s:
            query = select(GameRow).join(GroupRow)
            if group is not None:
                query = query.where(GroupRow.name == group)
            if game is not None:
                query = query.where(GameRow.game == game)
            return in_order([_entry(row) for row in s.scalars(query)])

    def record_of(self, key: str) -> str | None:
        with self.session() as s:
            return s.scalar(select(GameRow.record).where(GameRow.key == self.find_key(key)))


def _facts_json(entry: GameEntry) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if entry.threeb is not None:
        t = entry.threeb
        out["threeb"] = {
            "winner": t.winner, "tray_person": t.tray_person, "wire_to_wire": t.wire_to_wire,
            "tray_sheet": [list(r) for r in t.tray_sheet], "perfect_day": list(t.perfect_day),
            "imperfect_day": list(t.imperfect_day),
        }
    if entry.stakes is not None:
        k = entry.stakes
        out["stakes"] = {"winners": list(k.winners), "losers": list(k.losers),
                         "points": k.points, "stake": k.stake, "amount": k.amount}
    return out


def _entry(row: GameRow) -> GameEntry:
    facts = row.facts or {}
    threeb = stakes = None
    if "threeb" in facts:
        t = facts["threeb"]
        threeb = ThreeBFacts(
            t["winner"], t["tray_person"], t["wire_to_wire"],
            tuple(tuple(r) for r in t["tray_sheet"]), tuple(t["perfect_day"]),
            tuple(t["imperfect_day"]),
        )
    if "stakes" in facts:
        k = facts["stakes"]
        stakes = StakeFacts(tuple(k["winners"]), tuple(k["losers"]), k["points"], k["stake"],
                            k["amount"])
    players = tuple(
        PlayerResult(p.player.name, p.seat, p.side, p.won, p.score,
                     **{name: getattr(p, name) for name in _COUNTS})
        for p in row.players
    )
    marks = tuple(
        Mark(m.kind, m.player.name, m.note, None if m.named is None else m.named.name)
        for m in row.marks
    )
    return GameEntry(
        key=row.key, game=row.game, played=row.played, players=players, group=row.group.name,
        session=row.session.name, sequence=row.sequence, threeb=threeb, stakes=stakes,
        marks=marks,
    )


def import_entries(store: LeagueStore, items: Sequence[tuple[GameEntry, str | None]]) -> int:
    """Store entries not stored yet; how many were new."""
    return sum(store.add_game(entry, record) for entry, record in items)
