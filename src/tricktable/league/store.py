"""The league's tables (SQLAlchemy 2) and the store that reads and writes them.

People, groups and their members, sessions, finished games with each player's facts, and
the marks added after a game. A group is reached by a private link (a token) and a person
by the key his browser holds: only their SHA-256 hashes are stored. Names are unique within
a group; games point at people, so a renamed person's past games follow him.

The schema is made and upgraded by Alembic (``league/migrations``); opening a store brings
the database up to date first. SQLite by default, any SQLAlchemy URL (PostgreSQL:
``postgresql+psycopg://...``) by ``url``.

The store keeps entries; every number shown is computed from them by ``threeb`` and
``stats`` (docs/league.md). Writing is all-or-nothing: a game, its players and its
session go in one transaction, and a mark is stored only after the score sheet has been
recomputed with it and no rule refused it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator, Mapping, Sequence
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
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

from ..play.database import open_database
from ..play.paths import DATABASE_VARIABLE, default_database_url
from .model import (
    BONEHEAD,
    THREEB,
    ZERO_BUDDY,
    GameEntry,
    GroupInfo,
    LeagueError,
    Mark,
    PersonInfo,
    PlayerResult,
    StakeFacts,
    ThreeBFacts,
    check_text,
    check_time_zone,
    in_order,
    zone_of,
)
from .threeb import threeb_history

DATABASE_ENV = DATABASE_VARIABLE


def default_url() -> str:
    """See ``play.paths.default_database_url``."""
    return default_database_url()


def _now() -> datetime:
    return datetime.now(UTC)


SECRET_BYTES = 24
"""A group's link token and a person's key: 192 random bits (32 characters of base64url)."""
MAX_SECRET = 200
"""Longer text is no token or key of ours: not even hashed."""


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def secret_hash(secret: str) -> str:
    """What is stored of a token or key: its SHA-256 (the secret itself never is)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class Base(DeclarativeBase):
    pass


class PlayerRow(Base):
    """A person known across games. The name is unique within each group of his (the store
    checks it), not across groups; ``key_hash`` is the hash of the key his browser holds
    (None for people made by imports, until one takes a key through the group's link)."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    key_hash: Mapped[str | None] = mapped_column(String(64), unique=True, index=True)


class GroupRow(Base):
    """A group (a lunch table, a club) with its own league. ``token_hash`` is the hash of
    its private link's token (None for groups made by imports, until one is made);
    ``open_session`` the session it opened (None: a game's session is its date in
    ``time_zone``)."""

    __tablename__ = "league_groups"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, index=True)
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC", server_default="UTC")
    open_session: Mapped[str | None] = mapped_column(String(100))


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

    @contextmanager
    def _session(self, s: Session | None) -> Iterator[Session]:
        """``s`` if the caller holds a transaction, else one of the store's own."""
        if s is not None:
            yield s
            return
        with self.session() as own:
            yield own

    # --- groups ---------------------------------------------------------------------------

    def create_group(self, name: str, time_zone: str = "UTC") -> tuple[GroupInfo, str]:
        """A new group and the token of its private link (only its hash is stored)."""
        name = check_text(name, "the group's name")
        zone = check_time_zone(time_zone)
        token = new_secret()
        refusal = LeagueError(f"a group named {name!r} already exists: choose another name")
        try:
            with self.session() as s:
                if s.scalar(select(GroupRow.id).where(GroupRow.name == name)) is not None:
                    raise refusal
                row = GroupRow(name=name, time_zone=zone, token_hash=secret_hash(token))
                s.add(row)
                s.flush()
                info = self._group_info(s, row)
        except IntegrityError:
            if name in self.groups():  # made by someone else meanwhile
                raise refusal from None
            raise
        return info, token

    def group_link(self, name: str) -> str:
        """A new token for the group's link; the old link stops working."""
        with self.session() as s:
            row = s.scalar(select(GroupRow).where(GroupRow.name == name))
            if row is None:
                raise LeagueError(f"no group is named {name!r}")
            token = new_secret()
            row.token_hash = secret_hash(token)
        return token

    def group_by_token(self, token: str) -> GroupInfo | None:
        with self.session() as s:
            row = self._group_of_token(s, token)
            return None if row is None else self._group_info(s, row)

    def group_by_id(self, group_id: int, s: Session | None = None) -> GroupInfo | None:
        with self._session(s) as s:
            row = s.get(GroupRow, group_id)
            return None if row is None else self._group_info(s, row)

    def set_open_session(self, token: str, name: str | None) -> GroupInfo:
        """Open a named session ("Friday night"): the group's games go into it until it is
        closed (``name`` None), then each game's session is its date again."""
        session = None if name is None else check_text(name, "the session's name")
        with self.session() as s:
            row = self._known_group(s, token)
            row.open_session = session
            return self._group_info(s, row)

    def session_for(self, group_id: int, when: datetime, s: Session | None = None) -> str:
        """The session a game of the group finished at ``when`` belongs to: the session the
        group opened, else the day in the group's time zone ("2026-11-28"). A naive
        ``when`` is taken as UTC (SQLite hands back stored times without their zone)."""
        with self._session(s) as s:
            row = self._group_row(s, group_id)
            if row.open_session is not None:
                return row.open_session
            return _local_day(when, row.time_zone).isoformat()

    def played_day(self, group_id: int, when: datetime, s: Session | None = None) -> date:
        """``when`` as a day in the group's time zone (a naive ``when`` is UTC)."""
        with self._session(s) as s:
            return _local_day(when, self._group_row(s, group_id).time_zone)

    @staticmethod
    def _group_row(s: Session, group_id: int) -> GroupRow:
        row = s.get(GroupRow, group_id)
        if row is None:
            raise LeagueError(f"no group has the id {group_id}")
        return row

    @staticmethod
    def _group_of_token(s: Session, token: str, lock: bool = False) -> GroupRow | None:
        if not isinstance(token, str) or not 0 < len(token) <= MAX_SECRET:
            return None
        query = select(GroupRow).where(GroupRow.token_hash == secret_hash(token))
        return s.scalar(query.with_for_update() if lock else query)

    def _known_group(self, s: Session, token: str) -> GroupRow:
        """The group of ``token``, locked for the transaction (so two people cannot take
        one name at once); LeagueError if no group has that link."""
        row = self._group_of_token(s, token, lock=True)
        if row is None:
            raise LeagueError("this group link leads nowhere (mistyped, or the group made a "
                              "new link): ask a member for the group's link")
        return row

    @staticmethod
    def _group_info(s: Session, row: GroupRow) -> GroupInfo:
        members = s.scalars(
            select(PlayerRow.name).join(MembershipRow).where(MembershipRow.group_id == row.id)
        )
        return GroupInfo(row.id, row.name, row.time_zone, row.open_session,
                         tuple(sorted(members)))

    @staticmethod
    def _group(s: Session, name: str) -> GroupRow:
        """The group named ``name`` (made if new: imports name their group), locked."""
        row = s.scalar(select(GroupRow).where(GroupRow.name == name).with_for_update())
        if row is None:
            row = GroupRow(name=name, time_zone="UTC")
            s.add(row)
            s.flush()
        return row

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
        """Every person's name (two groups may each have an Ann: then twice)."""
        with self.session() as s:
            return list(s.scalars(select(PlayerRow.name).order_by(PlayerRow.name)))

    # --- people ---------------------------------------------------------------------------

    def join_group(self, token: str, name: str, person_key: str | None = None
                   ) -> tuple[PersonInfo, str]:
        """A person joins the group of ``token``: the holder of ``person_key`` (keeping his
        name; ``name`` is not used), else a new person named ``name``. Returns the person
        and his key (a new one for a new person)."""
        with self.session() as s:
            group = self._known_group(s, token)
            person = None if person_key is None else self._person_of_key(s, person_key)
            if person is None:
                name = check_text(name, "your name")
                self._check_name_free(s, group, name, None)
                person_key = new_secret()
                person = PlayerRow(name=name, key_hash=secret_hash(person_key))
                s.add(person)
                s.flush()
            elif s.get(MembershipRow, (group.id, person.id)) is None:
                self._check_name_free(s, group, person.name, person.id)
            assert person_key is not None
            self._join(s, group, person, _local_day(_now(), group.time_zone))
            return self._person_info(s, person), person_key

    def relink_person(self, token: str, name: str) -> tuple[PersonInfo, str]:
        """A member who lost his key takes a new one through the group's link; the old key
        stops working."""
        with self.session() as s:
            group = self._known_group(s, token)
            person = self._member_named(s, group.id, check_text(name, "the name"))
            if person is None:
                members = ", ".join(sorted(s.scalars(
                    select(PlayerRow.name).join(MembershipRow)
                    .where(MembershipRow.group_id == group.id)))) or "none yet"
                raise LeagueError(f"{group.name} has no member named {name.strip()!r} "
                                  f"(members: {members}): join the group instead")
            key = new_secret()
            person.key_hash = secret_hash(key)
            return self._person_info(s, person), key

    def person_by_key(self, key: str) -> PersonInfo | None:
        with self.session() as s:
            row = self._person_of_key(s, key)
            return None if row is None else self._person_info(s, row)

    def rename_person(self, key: str, new_name: str) -> PersonInfo:
        """The person's new name, in every group of his; his past games follow him (they
        point at the person, not the name)."""
        with self.session() as s:
            person = self._person_of_key(s, key)
            if person is None:
                raise LeagueError("this person key is not known: join a group, or take a new "
                                  "key through your group's link")
            name = check_text(new_name, "the new name")
            groups = s.scalars(
                select(GroupRow).join(MembershipRow).where(MembershipRow.player_id == person.id)
                .order_by(GroupRow.id).with_for_update(of=GroupRow)  # locked in one order
            )
            for group in groups:
                self._check_name_free(s, group, name, person.id, joining=False)
            person.name = name
            return self._person_info(s, person)

    @staticmethod
    def _person_of_key(s: Session, key: str) -> PlayerRow | None:
        if not isinstance(key, str) or not 0 < len(key) <= MAX_SECRET:
            return None
        return s.scalar(select(PlayerRow).where(PlayerRow.key_hash == secret_hash(key)))

    @staticmethod
    def _person_info(s: Session, row: PlayerRow) -> PersonInfo:
        groups = s.scalars(
            select(GroupRow.name).join(MembershipRow).where(MembershipRow.player_id == row.id)
        )
        return PersonInfo(row.id, row.name, tuple(sorted(groups)))

    @staticmethod
    def _members_named(s: Session, group_id: int, name: str) -> list[PlayerRow]:
        """The group's members called ``name``, the same letters in any case ("ann" is
        Ann): the name exactly first."""
        wanted = name.casefold()
        rows = s.scalars(select(PlayerRow).join(MembershipRow)
                         .where(MembershipRow.group_id == group_id))
        alike = [r for r in rows if r.name.casefold() == wanted]
        return sorted(alike, key=lambda r: (r.name != name, r.id))

    def _member_named(self, s: Session, group_id: int, name: str) -> PlayerRow | None:
        found = self._members_named(s, group_id, name)
        return found[0] if found else None

    def _check_name_free(self, s: Session, group: GroupRow, name: str,
                         person_id: int | None, joining: bool = True) -> None:
        """Names are unique within a group (in any case): refuse ``name`` if another
        member of ``group`` has it."""
        for other in self._members_named(s, group.id, name):
            if other.id != person_id:
                hint = (" (or, if that is you, take a new key through the group's link)"
                        if joining else "")
                raise LeagueError(f"{group.name} already has a member named {other.name}: "
                                  f"choose another name{hint}")

    def add_member(self, group: str, person: str, joined: date | None = None) -> None:
        with self.session() as s:
            row = self._group(s, group)
            self._join(s, row, self._named_in(s, row, person), joined or date.today())

    def _named_in(self, s: Session, group: GroupRow, name: str) -> PlayerRow:
        """The member of ``group`` called ``name``, or a new person of that name (imports
        name people; a new one gets no key until he takes one through the group's link)."""
        row = self._member_named(s, group.id, name)
        if row is None:
            row = PlayerRow(name=name)
            s.add(row)
            s.flush()
        return row

    @staticmethod
    def _join(s: Session, group: GroupRow, player: PlayerRow, joined: date) -> None:
        if s.get(MembershipRow, (group.id, player.id)) is None:
            s.add(MembershipRow(group_id=group.id, player_id=player.id, joined=joined))
            s.flush()

    # --- games ----------------------------------------------------------------------------

    def has_game(self, key: str) -> bool:
        with self.session() as s:
            return s.scalar(select(GameRow.id).where(GameRow.key == key)) is not None

    def next_sequence(self, group: str, day: date, s: Session | None = None) -> int:
        """The sequence number after the group's last game of ``day``."""
        with self._session(s) as s:
            last = s.scalar(
                select(GameRow.sequence).join(GroupRow).where(
                    GroupRow.name == group, GameRow.played == day
                ).order_by(GameRow.sequence.desc()).limit(1)
            )
            return 0 if last is None else last + 1

    def add_game(self, entry: GameEntry, record: str | None = None) -> bool:
        """Store a finished game, its players joining its group. False (and nothing
        changes) if a game with the same key is already stored."""
        try:
            with self.session() as s:
                return self.add_game_in(s, entry, record)
        except IntegrityError:  # another import stored the same game meanwhile
            if self.has_game(entry.key):
                return False
            raise

    def add_game_in(self, s: Session, entry: GameEntry, record: str | None,
                    people: Mapping[str, int] | None = None) -> bool:
        """``add_game`` in a transaction the caller holds (the web server's writer, in the
        transaction of the table's last event). ``people`` maps the entry's names to person
        ids (a table knows who sat down); other names are the group's members of that name,
        or new people. False, and nothing written, if the game's key is stored already.
        Everything is checked before anything is written: a LeagueError leaves ``s`` as it
        was."""
        if not entry.group:
            raise LeagueError("a game belongs to a group: name one")
        if s.scalar(select(GameRow.id).where(GameRow.key == entry.key)) is not None:
            return False
        group = s.scalar(select(GroupRow).where(GroupRow.name == entry.group)
                         .with_for_update())
        persons = self._game_people(s, group, entry, people or {})
        facts = _facts_json(entry)
        if group is None:
            group = self._group(s, entry.group)
        session = s.scalar(select(SessionRow).where(
            SessionRow.group_id == group.id, SessionRow.name == entry.session_name))
        if session is None:
            session = SessionRow(group_id=group.id, name=entry.session_name)
            s.add(session)
            s.flush()
        game_id = self._insert_game(s, entry, facts, group.id, session.id, record)
        if game_id is None:  # stored by another transaction since the look above
            return False
        for p in entry.players:
            person = persons[p.person] or self._named_in(s, group, p.person)
            persons[p.person] = person
            self._join(s, group, person, entry.played)
            s.add(GamePlayerRow(
                game_id=game_id, seat=p.seat, player_id=person.id, side=p.side, won=p.won,
                score=p.score, **{name: getattr(p, name) for name in _COUNTS},
            ))
        for m in entry.marks:
            s.add(self._mark_row(s, group, m, game_id, persons))
        s.flush()
        return True

    def _game_people(self, s: Session, group: GroupRow | None, entry: GameEntry,
                     people: Mapping[str, int]) -> dict[str, PlayerRow | None]:
        """Each player of ``entry``: the person ``people`` names, else the group's member
        of that name, else None (a new person, made when the game is written). Refuses an
        unknown id, one person in two seats, and a person whose name another member of the
        group has."""
        out: dict[str, PlayerRow | None] = {}
        for name in entry.people:
            if name in people:
                row = s.get(PlayerRow, people[name])
                if row is None:
                    raise LeagueError(f"no person has the id {people[name]} (given for "
                                      f"{name})")
                if group is not None and s.get(MembershipRow, (group.id, row.id)) is None:
                    self._check_name_free(s, group, row.name, row.id)
            else:
                row = None if group is None else self._member_named(s, group.id, name)
            out[name] = row
        ids = [r.id for r in out.values() if r is not None]
        new = [n.casefold() for n, r in out.items() if r is None]
        if len(set(ids)) < len(ids) or len(set(new)) < len(new):
            raise LeagueError(f"one person sits in two seats of game {entry.key[:12]}: "
                              f"{', '.join(entry.people)}")
        for m in entry.marks:
            for marked in (m.person, m.named):
                if marked is not None and marked not in out and (
                        group is None or self._member_named(s, group.id, marked) is None):
                    raise LeagueError(f"{marked} is not a member of {entry.group}: a mark "
                                      "goes to one of its people")
        return out

    @staticmethod
    def _insert_game(s: Session, entry: GameEntry, facts: dict[str, Any], group_id: int,
                     session_id: int, record: str | None) -> int | None:
        """The new game's id; None if its key is there already (stored by a transaction
        that committed while this one looked): nothing is written then, and the caller's
        transaction goes on (where the database can say so: SQLite and PostgreSQL)."""
        values = dict(
            key=entry.key, game=entry.game, played=entry.played, sequence=entry.sequence,
            group_id=group_id, session_id=session_id, facts=facts,
            record=record, added=_now(),
        )
        dialect = s.get_bind().dialect.name
        if dialect in ("sqlite", "postgresql"):
            insert = sqlite_insert if dialect == "sqlite" else postgresql_insert
            statement = (insert(GameRow).values(**values)
                         .on_conflict_do_nothing(index_elements=["key"])
                         .returning(GameRow.id))
            return s.scalar(statement)
        row = GameRow(**values)
        s.add(row)
        s.flush()
        return row.id

    def _mark_row(self, s: Session, group: GroupRow, m: Mark, game_id: int,
                  persons: Mapping[str, PlayerRow | None] | None = None) -> MarkRow:
        def person(name: str) -> int:
            row = (persons or {}).get(name) or self._member_named(s, group.id, name)
            if row is None:
                raise LeagueError(f"{name} is not a member of {group.name}: a mark goes to "
                                  "one of its people")
            return row.id

        return MarkRow(game_id=game_id, kind=m.kind, player_id=person(m.person), note=m.note,
                       named_id=None if m.named is None else person(m.named), added=_now())

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
            s.add(self._mark_row(s, row.group, mark, row.id))

    def entries(self, group: str | None = None, game: str | None = None) -> list[GameEntry]:
        """The stored games (of one group, of one game), in the order they were played."""
        with self.session() as s:
            query = select(GameRow).join(GroupRow)
            if group is not None:
                query = query.where(GroupRow.name == group)
            if game is not None:
                query = query.where(GameRow.game == game)
            return in_order([_entry(row) for row in s.scalars(query)])

    def entries_of(self, group_id: int, s: Session | None = None) -> list[GameEntry]:
        """The group's games, in the order they were played (names as they are now)."""
        with self._session(s) as s:
            rows = s.scalars(select(GameRow).where(GameRow.group_id == group_id))
            return in_order([_entry(row) for row in rows])

    def record_of(self, key: str) -> str | None:
        with self.session() as s:
            return s.scalar(select(GameRow.record).where(GameRow.key == self.find_key(key)))


def _local_day(when: datetime, time_zone: str) -> date:
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(zone_of(time_zone)).date()


def _facts_json(entry: GameEntry) -> dict[str, Any]:
    """The game's 3B or stake facts as stored: each person named by his seat. LeagueError
    if they name someone who did not play the game."""
    seats = {p.person: p.seat for p in entry.players}

    def seat(name: str) -> int:
        if name not in seats:
            raise LeagueError(f"game {entry.key[:12]}: its facts name {name}, who did not "
                              f"play it ({', '.join(seats)})")
        return seats[name]

    out: dict[str, Any] = {}
    if entry.threeb is not None:
        t = entry.threeb
        out["threeb"] = {
            "winner": None if t.winner is None else seat(t.winner),
            "tray_person": None if t.tray_person is None else seat(t.tray_person),
            "wire_to_wire": t.wire_to_wire,
            "tray_sheet": [[seat(p) for p in row] for row in t.tray_sheet],
            "perfect_day": [seat(p) for p in t.perfect_day],
            "imperfect_day": [seat(p) for p in t.imperfect_day],
        }
    if entry.stakes is not None:
        k = entry.stakes
        out["stakes"] = {"winners": [seat(p) for p in k.winners],
                         "losers": [seat(p) for p in k.losers],
                         "points": k.points, "stake": k.stake, "amount": k.amount}
    return out


def _entry(row: GameRow) -> GameEntry:
    facts = row.facts or {}
    names = {p.seat: p.player.name for p in row.players}

    def person(value: int | str) -> str:
        return value if isinstance(value, str) else names[value]

    def people(values: list[int | str]) -> tuple[str, ...]:
        return tuple(map(person, values))

    threeb = stakes = None
    if "threeb" in facts:
        t = facts["threeb"]
        threeb = ThreeBFacts(
            None if t["winner"] is None else person(t["winner"]),
            None if t["tray_person"] is None else person(t["tray_person"]),
            t["wire_to_wire"], tuple(people(r) for r in t["tray_sheet"]),
            people(t["perfect_day"]), people(t["imperfect_day"]),
        )
    if "stakes" in facts:
        k = facts["stakes"]
        stakes = StakeFacts(people(k["winners"]), people(k["losers"]), k["points"],
                            k["stake"], k["amount"])
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
