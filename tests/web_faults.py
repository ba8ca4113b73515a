"""The web server under faults (issue 39): a real ``tricktable serve`` on a PostgreSQL
cluster of its own, tables of several games in play, and at seeded random moments

- an **outage**: PostgreSQL stopped (``pg_ctl stop -m fast`` or ``immediate``) for 1-5 s
  and started again;
- a **held commit**: another connection holds ``LOCK TABLE web_events IN ACCESS
  EXCLUSIVE MODE`` for 1-3 s, so every commit of the server waits (now and then the
  server is killed while they wait, and started once the lock is let go);
- a **kill**: ``kill -9`` of the server and a start on the same database.

What is checked, as it goes and at the end:

- nothing is told before it is committed: while a commit is held, no table's summary
  (``GET /api/tables/{id}``), no pong and no view a client holds is further on than the
  table's committed deals, actions and rematches (the count is read under the lock, so
  it cannot change while it is held); what a summary showed during an outage is
  committed once the database is back;
- after every fault every table that is not over moves again within a deadline (its
  bots, its people: the people's clients resend an action refused as "not-stored");
- the server starts after every kill, and once more at the end; then every table ever
  made answers ``GET /api/tables/{id}`` (none was set aside: every log replays);
- no acknowledged move is lost: every view a client was shown (each person seat's and a
  spectator's, at every table) is what the table's stored log, replayed by the server's
  own ``LiveTable``, shows that seat at that sequence number;
- no person's socket dropped other than when the server was killed (a refused action
  keeps its socket).

``tests/test_web_faults.py`` runs it for about a minute; ``benchmarks/web_faults.py``
for as long as it is asked.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Protocol

from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import connect

from tricktable import parse_action, step
from tricktable.web import protocol
from tricktable.web.store import Store, TableData
from tricktable.web.tables import LiveTable
from web_helpers import rules_choice
from web_process import SeatClient, Server

COUNTED = ("deal", "action", "rematch")
"""The events a table's ``seq`` counts (``LiveTable._rebuild``); seat changes it does not."""
FINISHED = ("over", "ended")
BOT_PACE = 0.05
MOVE_DEADLINE = 20.0
"""Seconds within which a table that is not over must move again after a fault."""
FINAL_MOVE_DEADLINE = 30.0


class Cluster(Protocol):
    """The PostgreSQL cluster the scenario stops and starts (conftest's ``_Cluster``)."""

    def pause(self, mode: str = "fast") -> None: ...

    def resume(self) -> None: ...


@dataclass(frozen=True)
class TableKind:
    label: str
    game: str
    options: dict[str, Any]
    seats: dict[str, str]
    """Per player seat: "person" (a client here plays it) or a bot."""


KINDS = (
    TableKind("spades", "spades", {"target": 200},
              {"0": "person", "1": "rules", "2": "person", "3": "rules"}),
    TableKind("3b-spades", "3b-spades", {"players": 3, "hands": 3},
              {"0": "person", "1": "rules", "2": "rules"}),
    TableKind("dummy-whist", "dummy-whist", {"target": 7},
              {"0": "rules", "1": "person", "2": "rules"}),
    TableKind("paperless-spades", "paperless-spades", {"limit": 3},
              {"0": "person", "1": "rules", "2": "rules", "3": "rules"}),
    TableKind("dummy-hand-spades", "dummy-hand-spades", {"target": 150},
              {"0": "person", "1": "rules", "2": "rules"}),
    TableKind("bots only", "spades", {"target": 100},
              {"0": "rules", "1": "rules", "2": "rules", "3": "rules"}),
)


PERSON_THINKS = 0.3
"""Seconds a person thinks at most before acting: so that an outage or a held commit
often begins while a person is about to act (an action sent into it)."""


def _watch(view: dict[str, Any]) -> str | None:
    return None


def _person(seed: str) -> Callable[[dict[str, Any]], str | None]:
    """A person who thinks a random while, then plays what the rules bot would."""
    rng = random.Random(seed)

    def choose(view: dict[str, Any]) -> str | None:
        time.sleep(rng.uniform(0.0, PERSON_THINKS))
        return rules_choice(view)

    return choose


@dataclass
class PlayedTable:
    kind: TableKind
    id: str
    clients: list[SeatClient]
    """The people's clients, then a spectator's."""
    threads: list[threading.Thread]
    status: str = "waiting"
    seq: int = 0
    """As its summary last said."""
    checked: bool = False
    """Its log was compared with what its clients were shown (and their views let go)."""

    @property
    def live(self) -> bool:
        return self.status not in FINISHED


@dataclass
class FaultReport:
    seconds: float
    seed: int
    tables: int = 0
    acknowledged: int = 0
    """Moves (deals and actions) shown to a client, each compared with the stored log."""
    lost: list[str] = field(default_factory=list)
    outages: int = 0
    locks: int = 0
    kills: int = 0
    not_stored: int = 0
    """Refusals "not-stored" the clients got (and resent after)."""
    pongs_checked: int = 0
    summaries_checked: int = 0
    ahead: list[str] = field(default_factory=list)
    frozen: list[str] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)
    start_failures: list[str] = field(default_factory=list)
    client_errors: list[str] = field(default_factory=list)
    drops: list[str] = field(default_factory=list)
    server_tracebacks: int = 0
    faults: list[str] = field(default_factory=list)
    """What was done when, in words."""

    def problems(self) -> list[str]:
        out: list[str] = []
        for title, items in (
            ("the server did not start", self.start_failures),
            ("acknowledged moves lost (a view shown that the stored log does not replay "
             "to)", self.lost),
            ("told before it was committed", self.ahead),
            ("tables that did not move again", self.frozen),
            ("tables set aside or unreadable after the last start", self.set_aside),
            ("sockets that dropped while the server was up", self.drops),
            ("clients that failed", self.client_errors),
        ):
            if items:
                shown = "\n    ".join(items[:12])
                more = f"\n    ... and {len(items) - 12} more" if len(items) > 12 else ""
                out.append(f"{title}: {len(items)}\n    {shown}{more}")
        if self.tables == 0:
            out.append("no table was made")
        return out


def _request(server: Server, path: str, timeout: float = 5.0) -> tuple[int, Any]:
    """GET ``path``: (status, JSON answer); (0, reason) when there is no answer."""
    try:
        with urllib.request.urlopen(server.base + path, timeout=timeout) as r:
            return r.status, json.loads(r.read().decode())
    except urllib.error.HTTPError as e:
        try:
            body: Any = json.loads(e.read().decode())
        except ValueError:
            body = None
        return e.code, body
    except (OSError, ValueError) as e:
        return 0, str(e)


def _conninfo(url: str) -> dict[str, Any]:
    from sqlalchemy.engine import make_url

    u = make_url(url)
    return {"host": u.host, "port": u.port, "user": u.username, "dbname": u.database,
            "password": u.password}


def new_database(cluster_url: str, name: str) -> str:
    """A new database ``name`` on the server of ``cluster_url`` (its maintenance
    database's URL); the new one's URL."""
    import psycopg
    from sqlalchemy.engine import make_url

    with psycopg.connect(**_conninfo(cluster_url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return make_url(cluster_url).set(database=name).render_as_string(hide_password=False)


def committed_counts(conn: Any) -> dict[str, int]:
    """Per table, its committed deals, actions and rematches: what its ``seq`` may be."""
    rows = conn.execute(
        "SELECT table_id, count(*) FROM web_events WHERE kind = ANY(%s) GROUP BY table_id",
        (list(COUNTED),),
    ).fetchall()
    return {str(t): int(n) for t, n in rows}


def compare_with_log(data: TableData, views: Iterable[dict[str, Any]]) -> tuple[int, list[str]]:
    """(moves shown, what does not match): every view shown (past the wait for players)
    against the table the server's own ``LiveTable`` rebuilds from the log. One pass: a
    table is rebuilt from the log up to each deal (and rematch), and the actions after it
    are stepped as the rebuild steps them, so that every sequence number is seen."""
    wanted: dict[int, dict[int | None, dict[str, Any]]] = {}
    problems: list[str] = []
    for v in views:
        if v["status"] == "waiting":
            continue
        seat = v["you"]["seat"] if v["you"]["role"] == "seat" else None
        earlier = wanted.setdefault(v["seq"], {}).setdefault(seat, v["observation"])
        if earlier != v["observation"]:
            problems.append(f"table {data.id}: {_who(seat)} was shown two different views "
                            f"numbered {v['seq']}")
    hub = SimpleNamespace(store=None, writer=None, think=None, tasks=set())

    def compare(table: LiveTable, seq: int) -> None:
        for seat, observation in wanted.get(seq, {}).items():
            expected = json.loads(protocol.dumps(table.observation_for(seat)))
            if expected != observation:
                problems.append(f"table {data.id}: {_who(seat)} was shown view {seq}, and "
                                "the log replays to another")

    if 0 in wanted:
        compare(LiveTable(hub, dataclasses.replace(data, events=[])),  # type: ignore[arg-type]
                0)
    table: LiveTable | None = None
    seq = 0
    for i, (n, kind, text, _actor) in enumerate(data.events):
        if n != i:
            problems.append(f"table {data.id}: the log's event {i} is numbered {n}")
            return _moves(wanted), problems
        if kind not in COUNTED:
            continue  # a seat's change: the rebuild takes seats from their rows
        seq += 1
        try:
            if kind == "action" and table is not None:
                step(table.runner.state, parse_action(text))
            else:
                table = LiveTable(hub, dataclasses.replace(  # type: ignore[arg-type]
                    data, events=data.events[:i + 1]))
        except Exception as e:
            problems.append(f"table {data.id}: its log does not replay at event {n} "
                            f"({kind} {text[:30]}): {type(e).__name__}: {e}")
            return _moves(wanted), problems
        compare(table, seq)
    beyond = sorted(s for s in wanted if s > seq)
    if beyond:
        seats = sorted({_who(seat) for s in beyond for seat in wanted[s]})
        problems.append(f"table {data.id}: views up to {beyond[-1]} were shown "
                        f"({', '.join(seats)}) but the log holds only {seq} moves")
    return _moves(wanted), problems


def _moves(wanted: dict[int, Any]) -> int:
    return sum(1 for s in wanted if s > 0)


def _who(seat: int | None) -> str:
    return "the spectator" if seat is None else f"seat {seat}"


Progress = Callable[[float, str, "FaultReport"], None]
"""Told now and then: seconds of faults so far, what is happening, the counts so far."""


class FaultScenario:
    """One run: ``run()`` returns the report (it raises only for a fault of this harness
    itself, never for the server's)."""

    def __init__(self, cluster: Cluster, db_url: str, seconds: float, seed: int,
                 log_path: Path, on_progress: Progress | None = None) -> None:
        self.cluster = cluster
        self.db_url = db_url
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.report = FaultReport(seconds, seed)
        self.log_path = log_path
        self.on_progress = on_progress
        self.server = Server(db_url, env={
            # the scenario makes tables all the time and holds many sockets from one address
            "TRICKTABLE_CREATE_RATE": "6000/1000", "TRICKTABLE_SOCKETS_PER_ADDRESS": "1000",
        })
        self.tables: list[PlayedTable] = []
        self.kill_windows: list[tuple[float, float]] = []
        """(from, to) of each kill and start: a socket may drop in there."""
        self.frozen: set[str] = set()
        self.started = 0.0
        self.note = "starting"
        self.made = 0
        self.making = True
        """New tables are made in place of those that are over (not after the run)."""

    # --- the run ------------------------------------------------------------------------------

    def run(self) -> FaultReport:
        self.started = time.monotonic()
        self._start_server()
        try:
            self._top_up()
            must = ["outage", "lock", "kill"]
            self.rng.shuffle(must)
            # every kind of fault at least once, however short the run
            while ((self._elapsed() < self.seconds or must)
                   and not self.report.start_failures):
                self._calm(self.rng.uniform(1.0, 4.0))
                kind = must.pop() if must else self.rng.choice(
                    ("outage", "outage", "lock", "lock", "kill"))
                {"outage": self._outage, "lock": self._lock, "kill": self._kill}[kind]()
                if self.report.start_failures:
                    break
                self._wait_moving(f"after {self.report.faults[-1]}", MOVE_DEADLINE)
            if not self.report.start_failures:
                self._finish()
        finally:
            for t in self.tables:
                for c in t.clients:
                    c.stop()
            self.server.stop()
            for t in self.tables:
                for thread in t.threads:
                    thread.join(5)
        self._count_after()
        return self.report

    def _elapsed(self) -> float:
        return time.monotonic() - self.started

    def _progress(self, note: str) -> None:
        self.note = note
        if self.on_progress is not None:
            self.on_progress(min(self._elapsed(), self.seconds), note, self.report)

    def _start_server(self) -> None:
        self.server.start()
        process = self.server.process
        assert process is not None and process.stderr is not None
        threading.Thread(target=self._keep_log, args=(process,), daemon=True).start()

    def _keep_log(self, process: subprocess.Popen[bytes]) -> None:
        """The server's standard error into the log file (a pipe nobody read would fill
        and stop the server)."""
        assert process.stderr is not None
        with self.log_path.open("ab") as out:
            for line in process.stderr:
                out.write(line)
                out.flush()

    # --- tables ------------------------------------------------------------------------------

    def _top_up(self) -> None:
        """A live table of every kind: a new one for each that is over (the database is
        up here; a table that cannot be made now is made at the next look)."""
        if not self.making:
            return
        for kind in KINDS:
            if any(t.kind is kind and t.live for t in self.tables):
                continue
            self.made += 1
            body = {"game": kind.game, "options": kind.options, "seats": kind.seats,
                    "bot_pace": BOT_PACE, "seed": f"faults-{self.report.seed}-{self.made}"}
            try:
                created = self.server.post("/api/tables", body)
            except (OSError, ValueError):
                continue
            clients = [
                SeatClient(self.server, created["table"], invite["token"], f"P{seat}",
                           _person(f"{created['table']}/{seat}"))
                for seat, invite in sorted(created["invites"].items())
            ]
            clients.append(SeatClient(self.server, created["table"],
                                      created["spectator"]["token"], "watcher", _watch))
            table = PlayedTable(kind, created["table"], clients, [c.start() for c in clients])
            self.tables.append(table)
            self.report.tables += 1

    def _look(self) -> None:
        """Read every live table's summary; check and let go of the tables that are over;
        make new ones in their place."""
        for t in self.tables:
            if not t.live:
                continue
            status, body = _request(self.server, f"/api/tables/{t.id}")
            if status == 200:
                t.status, t.seq = body["status"], body["seq"]
        for t in self.tables:
            if not t.live and not t.checked:
                self._check_table(t)
        self._top_up()

    def _calm(self, seconds: float) -> None:
        self._progress("play")
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            self._look()
            self._progress("play")
            time.sleep(0.25)

    def _check_table(self, t: PlayedTable, store: Store | None = None) -> None:
        """Compare what ``t``'s clients were shown with its stored log; then let the views
        go (a long run would hold them all)."""
        for c in t.clients:
            c.stop()
        own = store is None
        store = store or Store(self.db_url)
        try:
            data = store.load(t.id)
        finally:
            if own:
                store.close()
        views = [v for c in t.clients for v in c.views]
        if data is None:
            if views:
                self.report.lost.append(f"table {t.id} ({t.kind.label}) is not stored")
            t.checked = True
            return
        shown, problems = compare_with_log(data, views)
        self.report.acknowledged += shown
        self.report.lost.extend(f"{p} ({t.kind.label})" for p in problems)
        for c in t.clients:
            c.views.clear()
        t.checked = True

    def _wait_moving(self, when: str, deadline: float) -> None:
        """Every live table moves on from where it is now within ``deadline`` seconds (a
        table already found frozen is not waited for again)."""
        self._look()  # where every table is now
        waiting = {t.id: t.seq for t in self.tables if t.live and t.id not in self.frozen}
        by_id = {t.id: t for t in self.tables}
        until = time.monotonic() + deadline
        while waiting and time.monotonic() < until:
            for table_id, seq in list(waiting.items()):
                t = by_id[table_id]
                if not t.live or t.seq > seq:
                    del waiting[table_id]
            if waiting:
                time.sleep(0.2)
                self._look()
        for table_id in waiting:
            t = by_id[table_id]
            self.frozen.add(table_id)
            self.report.frozen.append(
                f"table {table_id} ({t.kind.label}) stayed at view {t.seq} for "
                f"{deadline:g} s {when}")

    # --- faults ------------------------------------------------------------------------------

    def _outage(self) -> None:
        mode = self.rng.choice(("fast", "immediate"))
        down = self.rng.uniform(1.0, 5.0)
        self.report.outages += 1
        what = f"outage {self.report.outages} ({down:.1f} s, {mode})"
        self.report.faults.append(f"{self._elapsed():.1f} s: {what}")
        self._progress(what)
        self.cluster.pause(mode)
        told: dict[str, int] = {}
        until = time.monotonic() + down
        try:
            while time.monotonic() < until:
                for t in self.tables:
                    if t.live:
                        status, body = _request(self.server, f"/api/tables/{t.id}", 2.0)
                        if status == 200:
                            told[t.id] = max(told.get(t.id, 0), body["seq"])
                time.sleep(0.2)
        finally:
            self.cluster.resume()
        # what the summaries told while nothing could commit must have been committed
        counts = self._counts_when_up()
        for table_id, seq in told.items():
            self.report.summaries_checked += 1
            if seq > counts.get(table_id, 0):
                self.report.ahead.append(
                    f"table {table_id}: its summary said view {seq} during {what}; "
                    f"{counts.get(table_id, 0)} moves were committed")

    def _counts_when_up(self, patience: float = 30.0) -> dict[str, int]:
        import psycopg

        until = time.monotonic() + patience
        while True:
            try:
                with psycopg.connect(**_conninfo(self.db_url), connect_timeout=5) as conn:
                    return committed_counts(conn)
            except psycopg.OperationalError:
                if time.monotonic() > until:
                    raise
                time.sleep(0.2)

    def _lock(self) -> None:
        import psycopg

        hold = self.rng.uniform(1.0, 3.0)
        # now and then the server is killed while its commits wait: they never happened,
        # and nobody may have been told of them
        kill_after = self.rng.uniform(0.2, hold) if self.rng.random() < 1 / 3 else None
        self.report.locks += 1
        what = f"held commit {self.report.locks} ({hold:.1f} s)"
        if kill_after is not None:
            self.report.kills += 1
            what += f" with kill -9 {self.report.kills} in it"
        self.report.faults.append(f"{self._elapsed():.1f} s: {what}")
        self._progress(what)
        live = [t for t in self.tables if t.live]
        probes: dict[str, Any] = {}
        with (psycopg.connect(**_conninfo(self.db_url), connect_timeout=5) as conn,
              contextlib.ExitStack() as sockets):
            conn.execute("SET lock_timeout = '20s'")
            conn.execute("LOCK TABLE web_events IN ACCESS EXCLUSIVE MODE")
            # nobody else can write the log now, and every earlier writer has finished:
            # this count is what is committed, for as long as the lock is held
            counts = committed_counts(conn)
            held = time.monotonic()
            killed: float | None = None
            try:
                for t in live:
                    with contextlib.suppress(OSError, WebSocketException):
                        probes[t.id] = sockets.enter_context(connect(
                            f"ws://127.0.0.1:{self.server.port}/ws/{t.id}", open_timeout=2))
                while time.monotonic() < held + hold:
                    if (kill_after is not None and killed is None
                            and time.monotonic() >= held + kill_after):
                        killed = time.monotonic()
                        self.server.kill()
                    if killed is None:
                        for t in live:
                            self._check_told(t, counts.get(t.id, 0), probes.get(t.id), what)
                    time.sleep(0.1)
                for t in live:
                    committed = counts.get(t.id, 0)
                    for c in t.clients:
                        shown = max((v["seq"] for v in list(c.views)), default=0)
                        if shown > committed:
                            self.report.ahead.append(
                                f"table {t.id}: a client was shown view {shown} with "
                                f"{committed} moves committed ({what})")
            finally:
                conn.rollback()
        if killed is not None:
            self._start_again(killed, what)

    def _check_told(self, t: PlayedTable, committed: int, probe: Any, what: str) -> None:
        """The summary's and a pong's ``seq`` are no further than ``committed``."""
        status, body = _request(self.server, f"/api/tables/{t.id}", 2.0)
        if status == 200:
            self.report.summaries_checked += 1
            if body["seq"] > committed:
                self.report.ahead.append(f"table {t.id}: its summary said view {body['seq']} "
                                         f"with {committed} moves committed ({what})")
        if probe is None:
            return
        try:
            probe.send(json.dumps({"type": "ping"}))
            until = time.monotonic() + 1.0
            while time.monotonic() < until:
                m = json.loads(probe.recv(timeout=max(until - time.monotonic(), 0.01)))
                if m.get("type") == "pong":
                    self.report.pongs_checked += 1
                    if m["seq"] > committed:
                        self.report.ahead.append(
                            f"table {t.id}: a pong said view {m['seq']} with {committed} "
                            f"moves committed ({what})")
                    return
        except (TimeoutError, ConnectionClosed, ValueError):
            return

    def _kill(self) -> None:
        self.report.kills += 1
        what = f"kill -9 {self.report.kills}"
        self.report.faults.append(f"{self._elapsed():.1f} s: {what}")
        self._progress(what)
        killed = time.monotonic()
        self.server.kill()
        self._start_again(killed, what)

    def _start_again(self, killed: float, what: str) -> None:
        """Start the server killed at ``killed``; a failure is the report's."""
        try:
            self._start_server()
        except RuntimeError as e:
            self.report.start_failures.append(f"after {what}: {_last_lines(str(e))}")
        self.kill_windows.append((killed - 0.5, time.monotonic() + 5.0))

    # --- the end -----------------------------------------------------------------------------

    def _finish(self) -> None:
        """A last kill and start; every table readable; every live table moving; then
        every log compared with what its clients were shown."""
        self._progress("last kill -9 and start")
        self.making = False
        self._kill()
        if self.report.start_failures:
            return
        for t in self.tables:
            status, body = _request(self.server, f"/api/tables/{t.id}", 10.0)
            if status != 200:
                code = body.get("error") if isinstance(body, dict) else body
                self.report.set_aside.append(
                    f"table {t.id} ({t.kind.label}): GET answered {status} {code}")
        self._progress("last check: every table moves")
        self._wait_moving("after the last start", FINAL_MOVE_DEADLINE)
        self._progress("comparing the logs with what was shown")
        for t in self.tables:
            for c in t.clients:
                c.stop()
        self.server.stop()
        store = Store(self.db_url)
        try:
            for t in self.tables:
                if not t.checked:
                    self._check_table(t, store)
        finally:
            store.close()

    def _count_after(self) -> None:
        r = self.report
        for t in self.tables:
            for c in t.clients:
                r.not_stored += sum(1 for m in c.others if m.get("code") == "not-stored")
                if c.error is not None:
                    r.client_errors.append(f"table {t.id}: {c.name}: {c.error!r}"[:300])
                for at in c.drops:
                    if t.status == "ended":
                        break  # the server may close the sockets of a table it ended
                    if not any(start <= at <= end for start, end in self.kill_windows):
                        r.drops.append(f"table {t.id} ({t.kind.label}): {c.name}'s socket "
                                       f"closed at {at - self.started:.1f} s")
        with contextlib.suppress(OSError):
            text = self.log_path.read_text(errors="replace")
            r.server_tracebacks = text.count("Traceback (most recent call last)")


def _last_lines(text: str, n: int = 6) -> str:
    return " | ".join(line.strip() for line in text.strip().splitlines()[-n:])


def summary_in_words(report: FaultReport, minutes: float | None = None) -> str:
    r = report
    span = f"{minutes:g} minutes" if minutes is not None else f"{r.seconds:g} s"
    lines = [
        f"In {span} (seed {r.seed}): {r.tables} tables played, {r.acknowledged} moves shown "
        f"to players and compared with the stored logs; lost: {len(r.lost)}.",
        f"Faults: {r.outages} PostgreSQL outages, {r.locks} commits held by a lock, "
        f"{r.kills} kill -9s of the server (the last one at the end).",
        f"Told before committed: {len(r.ahead)} (checked {r.summaries_checked} summaries, "
        f"{r.pongs_checked} pongs). Tables that did not move again: {len(r.frozen)}. "
        f"Tables set aside: {len(r.set_aside)}. Server starts that failed: "
        f"{len(r.start_failures)}.",
        f"Refusals \"not-stored\" resent by clients: {r.not_stored}; sockets dropped while "
        f"the server was up: {len(r.drops)}; tracebacks in the server's log: "
        f"{r.server_tracebacks}.",
    ]
    problems = r.problems()
    lines.append("Nothing was lost." if not problems else "PROBLEMS:\n" + "\n".join(problems))
    return "\n".join(lines)
