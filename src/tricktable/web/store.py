"""The web server's tables (SQLAlchemy 2) and the writer that appends to them.

People who sat down, tables, their seats, the tokens that open them (stored as SHA-256
hashes: the token itself is only ever in the invite link), and an append-only log of
events per table: every deal and accepted action (who sent it, when), rematches and seat
changes. A table in memory is rebuilt from its rows and its log alone.

The schema is made and upgraded by Alembic (``web/migrations``, version table
``tricktable_web_version``), so the web tables can share a database with the league's.
SQLite by default, any SQLAlchemy URL (PostgreSQL: ``postgresql+psycopg://...``).

Writes go through ``Writer``: one thread that commits whatever is waiting in one
transaction (group commit), so a thousand tables cost a few commits a second, not a
thousand; an action is heard of only after its commit returned.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    insert,
    select,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ..play.database import open_database
from ..play.paths import DATABASE_VARIABLE, default_database_url

DATABASE_ENV = DATABASE_VARIABLE
VERSION_TABLE = "tricktable_web_version"


SERVING_LOCK_KEY = 0x7472_6963_6B74  # "trickt": the advisory lock of the serving process


class ServingTaken(Exception):
    """Another server process holds this database (one line)."""


def default_url() -> str:
    """See ``play.paths.default_database_url``."""
    return default_database_url()


def token_hash(token: str) -> str:
    """What is stored of a token. Tokens are 192 random bits, so a plain hash is enough:
    nothing to guess, and a leaked database opens no seat."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class PlayerRow(Base):
    """A person who named himself at a seat (there are no accounts: a name per seat)."""

    __tablename__ = "web_players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(400))
    """At most 40 grapheme clusters (web/names.py); an emoji may be several code points."""
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class TableRow(Base):
    __tablename__ = "web_tables"
    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[str] = mapped_column(String(64))
    bot_pace: Mapped[float] = mapped_column(Float, default=1.0)
    away_grace: Mapped[float | None] = mapped_column(Float, nullable=True)
    stand_in: Mapped[str] = mapped_column(String(20), default="rules")
    status: Mapped[str] = mapped_column(String(10), default="waiting", index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    seed_chosen: Mapped[bool] = mapped_column(Boolean, default=False)
    """The creator chose the seed: it is shown to everyone at the table."""
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    """Listed in the lobby; a table is private unless its host says otherwise."""
    group_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The league group whose page started the table: its finished games go to the
    group's league (docs/league.md)."""


class SeatRow(Base):
    """A player seat: a person's (``token`` opens it) or a bot's; a bot filling in for a
    person keeps the person's token so the seat can be given back."""

    __tablename__ = "web_seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    bot: Mapped[str | None] = mapped_column(String(20), nullable=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("web_players.id"), nullable=True)
    token: Mapped[str | None] = mapped_column(ForeignKey("web_tokens.hash"), nullable=True)
    person_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """At a group's table, the league person who sits here."""


class TokenRow(Base):
    """A credential: the host's, the spectators', or one seat's. Only its hash is kept."""

    __tablename__ = "web_tokens"
    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), index=True)
    role: Mapped[str] = mapped_column(String(10))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class EventRow(Base):
    """One entry of a table's log; ``n`` counts from 0 without gaps, so two processes
    that both believe they hold a table cannot both append: the second insert of an ``n``
    fails and that process reloads."""

    __tablename__ = "web_events"
    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    text: Mapped[str] = mapped_column(Text)
    actor: Mapped[str] = mapped_column(String(80))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class GameRecordRow(Base):
    """A finished game of a table: its record, stored with the rematch that follows it."""

    __tablename__ = "web_games"
    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    record: Mapped[str] = mapped_column(Text)


class SnapshotRow(Base):
    """Where a table stood just after its last rematch: the table is rebuilt from here
    and the log after entry ``n``, never by replaying the games finished before."""

    __tablename__ = "web_snapshots"
    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer)
    game_number: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    talk: Mapped[dict[str, Any]] = mapped_column(JSON)


@dataclass(frozen=True)
class Snapshot:
    """A table just after a rematch (``SnapshotRow``), as the table rebuilds from it."""

    n: int
    game_number: int
    seq: int
    talk: dict[str, Any]


def save_snapshot(session: Session, table_id: str, snapshot: Snapshot, number: int,
                  record: str) -> None:
    """Store finished game ``number``'s record and the snapshot after it (in the
    transaction of the rematch that ends the game)."""
    session.add(GameRecordRow(table_id=table_id, number=number, record=record))
    row = session.get(SnapshotRow, table_id)
    if row is None:
        session.add(SnapshotRow(table_id=table_id, n=snapshot.n,
                                game_number=snapshot.game_number, seq=snapshot.seq,
                                talk=snapshot.talk))
    else:
        row.n, row.game_number, row.seq = snapshot.n, snapshot.game_number, snapshot.seq
        row.talk = snapshot.talk


@dataclass
class SeatData:
    seat: int
    kind: str
    bot: str | None
    name: str | None
    token: str | None
    person_id: int | None = None


@dataclass
class TableData:
    """Everything stored of one table, as the table runner rebuilds it."""

    id: str
    game: str
    options: dict[str, Any]
    seed: str
    bot_pace: float
    away_grace: float | None
    stand_in: str
    status: str
    seats: list[SeatData]
    tokens: dict[str, tuple[str, int | None]]
    events: list[tuple[int, str, str, str]] = field(default_factory=list)
    """(n, kind, text, actor) in order: the whole log, or the log after ``snapshot``."""
    seed_chosen: bool = False
    public: bool = False
    snapshot: Snapshot | None = None
    records: list[str] = field(default_factory=list)
    """The finished games' records (JSON), in order, when there is a snapshot."""
    group_id: int | None = None


class Store:
    """The web tables in a database. Opening it migrates the schema to the newest."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        self.engine = open_database(self.url, Path(__file__).with_name("migrations"))

    def close(self) -> None:
        self.release_serving()
        self.engine.dispose()

    def claim_serving(self) -> None:
        """Be the one process serving this database, or raise ServingTaken. Two
        processes that both rebuilt every table would both run its bots and append to
        its log (one of them failing for good); until tables are handed between
        processes by leases, a second server on the same database is refused. PostgreSQL:
        an advisory lock held by a connection of this process; SQLite: a lock on a file
        beside the database. Both go with the process, however it ends."""
        if self.engine.dialect.name == "postgresql":
            connection = self.engine.raw_connection()
            cursor = connection.cursor()
            cursor.execute("SELECT pg_try_advisory_lock(%s)", (SERVING_LOCK_KEY,))
            row = cursor.fetchone()
            cursor.close()
            if not (row and row[0]):
                connection.close()
                raise ServingTaken(
                    "another tricktable server is serving this database already")
            self._serving: Any = connection
            self._serving_wanted = True
        elif self.engine.dialect.name == "sqlite":
            path = self.engine.url.database
            if not path or path == ":memory:":
                return
            handle = open(f"{path}.serving", "a+b")  # noqa: SIM115 (held while serving)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                raise ServingTaken(
                    f"another tricktable server is serving {path} already") from None
            self._serving = handle

    def keep_serving(self) -> bool:
        """Still the one serving process? On PostgreSQL the lock lives on a connection,
        and a restart of the database ends it: take it again as soon as the database
        answers. False only when another process holds it now (it started while the
        database was restarting): this one must stop serving. True while the database
        cannot tell (it is away: nobody else can take the lock either)."""
        if self.engine.dialect.name != "postgresql" or not getattr(self, "_serving_wanted",
                                                                    False):
            return True
        held = getattr(self, "_serving", None)
        if held is not None:
            try:
                cursor = held.cursor()
                cursor.execute("SELECT 1")
                cursor.close()
                return True
            except Exception:
                with contextlib.suppress(Exception):
                    held.close()
                self._serving = None
        try:
            self.claim_serving()
        except ServingTaken:
            return False
        except Exception:
            return True  # the database is still away
        return True

    def release_serving(self) -> None:
        held = getattr(self, "_serving", None)
        if held is not None:
            with contextlib.suppress(Exception):
                held.close()
            self._serving = None

    @contextlib.contextmanager
    def session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as s, s.begin():
            yield s

    def table_ids(self, status: tuple[str, ...] | None = None) -> list[str]:
        with self.session() as s:
            query = select(TableRow.id).order_by(TableRow.created)
            if status is not None:
                query = query.where(TableRow.status.in_(status))
            return list(s.scalars(query))

    def listing(self, limit: int = 200) -> list[dict[str, Any]]:
        """The newest public tables, for the lobby: id, game, status, when (a table is
        listed only when its host made it public)."""
        with self.session() as s:
            rows = s.scalars(select(TableRow).where(TableRow.public)
                             .order_by(TableRow.created.desc()).limit(limit))
            return [
                {"table": r.id, "game": r.game, "status": r.status,
                 "created": r.created.isoformat() if r.created else None}
                for r in rows
            ]

    def expire(self, idle_seconds: float) -> list[str]:
        """End every table that is not over and has had no event for ``idle_seconds``
        (nor was it made since): its ids. Its log stays; it is no longer loaded."""
        cutoff = datetime.now(UTC) - timedelta(seconds=idle_seconds)
        with self.session() as s:
            recent = select(EventRow.table_id).where(EventRow.at >= cutoff)
            ids = list(s.scalars(select(TableRow.id).where(
                TableRow.status.in_(("waiting", "playing")), TableRow.created < cutoff,
                TableRow.id.not_in(recent),
            )))
            if ids:
                s.execute(update(TableRow).where(TableRow.id.in_(ids)).values(status="ended"))
            return ids

    def load(self, table_id: str) -> TableData | None:
        with self.session() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            seats = []
            for seat in s.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            ):
                name = None
                if seat.player_id is not None:
                    player = s.get(PlayerRow, seat.player_id)
                    name = player.name if player is not None else None
                seats.append(SeatData(seat.seat, seat.kind, seat.bot, name, seat.token,
                                      seat.person_id))
            tokens = {
                t.hash: (t.role, t.seat)
                for t in s.scalars(
                    select(TokenRow).where(TokenRow.table_id == table_id, ~TokenRow.revoked)
                )
            }
            snap_row = s.get(SnapshotRow, table_id)
            snapshot = None if snap_row is None else Snapshot(
                snap_row.n, snap_row.game_number, snap_row.seq, dict(snap_row.talk or {}))
            after = -1 if snapshot is None else snapshot.n
            events = [
                (e.n, e.kind, e.text, e.actor)
                for e in s.scalars(
                    select(EventRow).where(EventRow.table_id == table_id, EventRow.n > after)
                    .order_by(EventRow.n)
                )
            ]
            records = [] if snapshot is None else list(s.scalars(
                select(GameRecordRow.record).where(GameRecordRow.table_id == table_id)
                .order_by(GameRecordRow.number)))
            return TableData(
                row.id, row.game, dict(row.options or {}), row.seed, row.bot_pace,
                row.away_grace, row.stand_in, row.status, seats, tokens, events,
                bool(row.seed_chosen), bool(row.public), snapshot, records, row.group_id,
            )


Job = Callable[[Session], None]


@dataclass(frozen=True)
class Append:
    """One entry for a table's log; the table's new status when it changed; and any
    other change (``extra``) that must commit with it. Appends waiting together are
    written with one multi-row insert: the writer's hot path, a few per second per table."""

    table_id: str
    n: int
    kind: str
    text: str
    actor: str
    status: str | None = None
    extra: Job | None = None


Item = Job | Append
_Waiting = tuple[Item, asyncio.Future[None], asyncio.AbstractEventLoop]


def _apply(session: Session, items: list[Item]) -> None:
    """Run ``items`` in order in one transaction: runs of appends as one insert, other
    jobs one by one (flushed, so the rows they add exist for the appends after them)."""
    rows: list[dict[str, Any]] = []
    statuses: dict[str, str] = {}

    def write_rows() -> None:
        if rows:
            session.execute(insert(EventRow), rows)
            rows.clear()

    for item in items:
        if isinstance(item, Append):
            rows.append({"table_id": item.table_id, "n": item.n, "kind": item.kind,
                         "text": item.text, "actor": item.actor[:80], "at": _now()})
            if item.status is not None:
                statuses[item.table_id] = item.status
            if item.extra is not None:
                write_rows()
                item.extra(session)
                session.flush()
        else:
            write_rows()
            item(session)
            session.flush()
    write_rows()
    for table_id, status in statuses.items():
        session.execute(update(TableRow).where(TableRow.id == table_id).values(status=status))


class Writer:
    """One thread that commits what is waiting in one transaction (group commit).
    ``submit`` returns a future that is done when the item's transaction has committed
    (or holds the exception that stopped it: a batch that fails is retried item by item,
    so one bad item fails alone)."""

    MAX_BATCH = 1000

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[_Waiting | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="tricktable-writer", daemon=True)
        self._thread.start()
        self.commits = 0

    def submit(self, item: Item) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._queue.put((item, future, loop))
        return future

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self.MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[_Waiting]) -> None:
        outcomes: list[BaseException | None]
        try:
            with self.store.session() as s:
                _apply(s, [item for item, _, _ in batch])
            outcomes = [None] * len(batch)
            self.commits += 1
        except Exception:
            outcomes = []
            for item, _, _ in batch:
                try:
                    with self.store.session() as s:
                        _apply(s, [item])
                    outcomes.append(None)
                    self.commits += 1
                except Exception as e:  # handed to the waiting table, which reloads
                    outcomes.append(e)
        for (_, future, loop), outcome in zip(batch, outcomes, strict=True):
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(_settle, future, outcome)


def _settle(future: asyncio.Future[None], outcome: BaseException | None) -> None:
    if future.done():
        return
    if outcome is None:
        future.set_result(None)
    else:
        future.set_exception(outcome)
