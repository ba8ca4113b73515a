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
    event,
    insert,
    select,
    update,
)
from sqlalchemy import text as sql_text
from sqlalchemy.dialects.postgresql import insert as postgres_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ..play.database import open_database
from ..play.paths import DATABASE_VARIABLE, default_database_url

DATABASE_ENV = DATABASE_VARIABLE
VERSION_TABLE = "tricktable_web_version"


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


def _alive(s: Session, owner: str, now: datetime) -> bool:
    """Is the process ``owner`` alive (its row renewed within its lease)?"""
    expires = s.scalar(select(ServerRow.expires).where(ServerRow.owner == owner))
    if expires is None:
        return False
    return (expires if expires.tzinfo is not None else expires.replace(tzinfo=UTC)) >= now


def keep_alive(s: Session, owner: str, until: datetime) -> None:
    """The process ``owner`` is alive until ``until``: its row made or renewed in one
    statement (two threads of a process may do it at once)."""
    upsert: Any = (postgres_insert if s.get_bind().dialect.name == "postgresql"
                   else sqlite_insert)(ServerRow).values(owner=owner, expires=until)
    s.execute(upsert.on_conflict_do_update(index_elements=[ServerRow.owner],
                                           set_={"expires": until}))


def _postgres_settings(dbapi_connection: Any, _record: Any) -> None:
    # A process stopped (SIGSTOP, a long pause) inside a transaction keeps its row locks:
    # the database ends such a transaction, so that another process can take the tables.
    cursor = dbapi_connection.cursor()
    cursor.execute("SET idle_in_transaction_session_timeout = '10s'")
    cursor.close()
    dbapi_connection.commit()


class TableHeld(Exception):
    """Another server process holds the table's lease (it has been asked to hand it over)."""


class LeaseLost(Exception):
    """This process no longer owns the table (another took its lease): it may not write."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id}: another server process owns it now")
        self.table_id = table_id


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
    lease_owner: Mapped[str | None] = mapped_column(String(80), nullable=True, index=True)
    """The server process that owns the table now (docs/deployment.md, "Leases"): its lease
    holds while that process's ``ServerRow`` has not expired."""
    lease_epoch: Mapped[int] = mapped_column(Integer, default=0)
    """Grows at each taking of the lease: an append carries the epoch it was made under."""
    lease_wanted: Mapped[str | None] = mapped_column(String(80), nullable=True)
    """A process the proxy sends the table's requests to: the owner hands it over."""


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


class ServerRow(Base):
    """A server process of the database, alive until ``expires`` (renewed every second):
    the leases of its tables hold while it is alive. One row a process, however many
    tables it holds."""

    __tablename__ = "web_servers"
    owner: Mapped[str] = mapped_column(String(80), primary_key=True)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))


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
        if self.engine.dialect.name == "postgresql":
            event.listen(self.engine, "connect", _postgres_settings)

    def close(self) -> None:
        self.release_serving()
        self.engine.dispose()

    def claim_serving(self) -> None:
        """SQLite: be the one process serving this file, or raise ServingTaken (SQLite has
        one writer at a time; a lock on a file beside the database, which goes with the
        process however it ends). PostgreSQL takes several processes: each table is
        owned by one of them through its lease (``take_lease``)."""
        if self.engine.dialect.name != "sqlite":
            return
        path = self.engine.url.database
        if not path or path == ":memory:":
            return
        handle = open(f"{path}.serving", "a+b")  # noqa: SIM115 (held while serving)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise ServingTaken(
                f"another tricktable server is serving {path} already (SQLite is served "
                "by one process; several need PostgreSQL)") from None
        self._serving: Any = handle

    def release_serving(self) -> None:
        held = getattr(self, "_serving", None)
        if held is not None:
            with contextlib.suppress(Exception):
                held.close()
            self._serving = None

    # --- leases -------------------------------------------------------------------------

    def take_lease(self, table_id: str, owner: str, seconds: float) -> int | None:
        """Own ``table_id`` (while ``owner`` stays alive: ``renew_leases``): the lease's
        new epoch; None if there is no such table; TableHeld if another live process holds
        it (it is then asked to hand the table over: ``lease_wanted``)."""
        now = _now()
        with self.session() as s:
            if self.engine.dialect.name == "postgresql":
                # a holder stopped inside a transaction must not stall the taker for long
                s.execute(sql_text("SET LOCAL lock_timeout = '2s'"))
            row = s.execute(select(TableRow.lease_owner, TableRow.lease_epoch)
                            .where(TableRow.id == table_id).with_for_update()).first()
            if row is None:
                return None
            holder, epoch = row
            alive = holder is not None and holder != owner and _alive(s, holder, now)
            if alive:
                s.execute(update(TableRow).where(TableRow.id == table_id)
                          .values(lease_wanted=owner))
            else:
                epoch = (epoch or 0) + 1
                s.execute(update(TableRow).where(TableRow.id == table_id).values(
                    lease_owner=owner, lease_epoch=epoch, lease_wanted=None))
                keep_alive(s, owner, now + timedelta(seconds=seconds))
        if alive:  # committed: the holder sees the request
            raise TableHeld(table_id)
        return int(epoch)

    def renew_leases(self, owner: str, held: dict[str, int], seconds: float
                     ) -> tuple[set[str], set[str]]:
        """Keep ``owner`` alive ``seconds`` more (one row, whatever it holds), and look at
        its tables ``held`` (table -> epoch): those whose lease is lost (another epoch or
        owner: taken over) and those another process asked for (hand them over:
        ``release_lease``)."""
        with self.session() as s:
            keep_alive(s, owner, _now() + timedelta(seconds=seconds))
            if not held:
                return set(), set()
            rows = s.execute(select(TableRow.id, TableRow.lease_owner, TableRow.lease_epoch,
                                    TableRow.lease_wanted)
                             .where(TableRow.id.in_(list(held)))).all()
        kept = {r.id for r in rows if r.lease_owner == owner and r.lease_epoch == held[r.id]}
        wanted = {r.id for r in rows if r.id in kept and r.lease_wanted not in (None, owner)}
        return set(held) - kept, wanted

    def release_lease(self, table_id: str, owner: str, epoch: int) -> None:
        """Give up a lease (the table goes to the process that asked for it)."""
        with self.session() as s:
            s.execute(update(TableRow).where(
                TableRow.id == table_id, TableRow.lease_owner == owner,
                TableRow.lease_epoch == epoch).values(lease_owner=None))

    def orphans(self, limit: int = 50) -> list[str]:
        """Tables under way whose owner is gone (its row expired: it died or was stopped),
        or that nobody owns and no live process asked for: a process takes them so that
        their bots carry on. A table handed over (``release_lease``) is left to the process
        that asked for it, which takes it when its client comes again: adopted by another
        (the one that handed it over, at once) it would be asked for again and again, and
        a table whose only client is a spectator never reached it."""
        now = _now()
        alive = select(ServerRow.owner).where(ServerRow.expires >= now)
        with self.session() as s:
            return list(s.scalars(select(TableRow.id).where(
                TableRow.status == "playing",
                (TableRow.lease_owner.is_(None)
                 & (TableRow.lease_wanted.is_(None) | TableRow.lease_wanted.not_in(alive)))
                | TableRow.lease_owner.not_in(alive),
            ).order_by(TableRow.created).limit(limit)))

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
    lease: tuple[str, int] | None = None
    """(owner, epoch) of the lease the table is held under: the append is written only if
    that lease still holds (a process whose lease was taken can no longer write)."""


Item = Job | Append
_Waiting = tuple[Item, asyncio.Future[None], asyncio.AbstractEventLoop]


def _lost_leases(session: Session, items: list[Item]) -> set[str]:
    """The tables of ``items`` whose lease no longer holds, read in one query; the rows
    stay locked to the end of the transaction, so nobody takes a lease meanwhile."""
    wanted = {i.table_id: i.lease for i in items if isinstance(i, Append) and i.lease}
    if not wanted:
        return set()
    rows = session.execute(select(TableRow.id, TableRow.lease_owner, TableRow.lease_epoch)
                           .where(TableRow.id.in_(list(wanted))).with_for_update()).all()
    holding = {r.id for r in rows if (r.lease_owner, r.lease_epoch) == wanted[r.id]}
    return set(wanted) - holding


def _apply(session: Session, items: list[Item]) -> dict[int, BaseException]:
    """Run ``items`` in order in one transaction: runs of appends as one insert, other
    jobs one by one (flushed, so the rows they add exist for the appends after them).
    Appends of a table whose lease was taken are left out: their failures, by index."""
    rows: list[dict[str, Any]] = []
    statuses: dict[str, str] = {}
    lost = _lost_leases(session, items)
    failed: dict[int, BaseException] = {}

    def write_rows() -> None:
        if rows:
            session.execute(insert(EventRow), rows)
            rows.clear()

    for index, item in enumerate(items):
        if isinstance(item, Append) and item.table_id in lost:
            failed[index] = LeaseLost(item.table_id)
            continue
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
    return failed


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
                failed = _apply(s, [item for item, _, _ in batch])
            outcomes = [failed.get(i) for i in range(len(batch))]
            self.commits += 1
        except Exception:
            outcomes = []
            for item, _, _ in batch:
                try:
                    with self.store.session() as s:
                        one = _apply(s, [item])
                    outcomes.append(one.get(0))
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
