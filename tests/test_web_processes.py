"""Several server processes on one PostgreSQL behind nginx (issue 43), with the real parts:
three ``tricktable serve`` processes, Debian's nginx configured by the shipped
``docs/nginx/tricktable.conf``, and a PostgreSQL cluster of the test's own.

Tables of every seed game are played through nginx by people (socket clients that
reconnect by themselves) and bots, then

- a process is killed (``kill -9``) mid-hand: its tables carry on in the others, its
  clients reconnect by themselves and are shown the table again, the other tables' sockets
  stay open, and nothing acknowledged is lost (every view a client was shown is what the
  table's stored log replays to);
- a process is stopped (``SIGSTOP``) until the others have taken its tables' leases, then
  continued: it writes nothing to the tables it lost, and its sockets close (its clients
  reconnect and the tables carry on);
- the leak test (``tests/test_web_leaks.py``) holds through nginx.

Who wrote each entry of the log is recorded by a trigger of the test's own: each process's
connections carry its name (``PGAPPNAME``), and the trigger notes it beside the lease the
table's row showed at that moment. No process may ever write under another's lease.

Without nginx or PostgreSQL's programs these tests skip, unless
``TRICKTABLE_REQUIRE_POSTGRES=1`` or ``CI=true`` (.ci/run installs both), where they fail.
The tests of ``tricktable serve --workers`` and of the shipped configuration's routing
need only nginx (the latter runs on SQLite).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from conftest import own_postgres_cluster
from nginx_process import Nginx, nginx_program, required_missing
from test_web_leaks import OPTION_SETS, no_card_leaked
from tricktable.web.store import Store
from web_faults import (
    BOT_PACE,
    KINDS,
    PlayedTable,
    _conninfo,
    _person,
    _watch,
    committed_counts,
    compare_with_log,
    new_database,
)
from web_helpers import moments, rules_choice
from web_process import SeatClient, Server, free_port

PROCESSES = 3
MOVE_DEADLINE = 60.0
"""Seconds within which every table must move on after a process was killed or came back
(a lease is about 5 s; the others look for expired ones every few seconds): a patience,
generous for a machine whose cores are busy with other work, not a figure measured."""
TAKEOVER_DEADLINE = 80.0
"""Seconds within which the others take every lease of a stopped process."""
ENVIRONMENT = {
    # the tests make many tables and hold many sockets from one address
    "TRICKTABLE_CREATE_RATE": "6000/1000", "TRICKTABLE_SOCKETS_PER_ADDRESS": "1000",
}

WRITERS_SQL = """
CREATE TABLE test_writes (
    table_id text, n integer, kind text, app text, owner text, epoch integer,
    at timestamptz DEFAULT clock_timestamp());
CREATE FUNCTION test_note_write() RETURNS trigger AS $$
BEGIN
    INSERT INTO test_writes (table_id, n, kind, app, owner, epoch)
    SELECT NEW.table_id, NEW.n, NEW.kind, current_setting('application_name'),
           t.lease_owner, t.lease_epoch
    FROM web_tables t WHERE t.id = NEW.table_id;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER test_note_write AFTER INSERT ON web_events
    FOR EACH ROW EXECUTE FUNCTION test_note_write();
"""
"""Who wrote each log entry (the writing connection's application_name: the process), and
the table's lease as its row stood when the entry was written (in the same transaction)."""


# --- the parts ------------------------------------------------------------------------------


def _need_nginx() -> None:
    if nginx_program() is None:
        required_missing("no nginx on this machine (Debian: apt-get install nginx)")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A PostgreSQL cluster of this module's own (each test makes a database in it)."""
    _need_nginx()
    if importlib.util.find_spec("psycopg") is None:
        required_missing("psycopg is not installed")
    # not under pytest's own folder: that is private to this user, and the cluster may
    # run as the postgres user
    folder = Path(tempfile.mkdtemp(prefix="tricktable-processes-"))
    try:
        made = own_postgres_cluster(folder)
    except (RuntimeError, OSError) as e:
        shutil.rmtree(folder, ignore_errors=True)
        required_missing(f"no PostgreSQL cluster for the processes test: {e}")
    try:
        yield made
    finally:
        made.stop()
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Site:
    """``PROCESSES`` servers on one database behind nginx."""

    url: str
    folder: Path
    servers: list[Server] = field(default_factory=list)
    nginx: Nginx | None = None
    tables: list[PlayedTable] = field(default_factory=list)

    def start(self) -> None:
        for i in range(PROCESSES):
            self.servers.append(Server(self.url, env={**ENVIRONMENT, "PGAPPNAME": _app(i)},
                                       log=self.folder / f"server-{i}.log"))
        # one after the other: the first makes the schema
        self.servers[0].start()
        with self.connect() as conn:
            conn.execute(WRITERS_SQL)
        for server in self.servers[1:]:
            server.start()
        self.nginx = Nginx([s.port for s in self.servers], self.folder / "nginx")
        self.nginx.start()

    def stop(self) -> None:
        for t in self.tables:
            for c in t.clients:
                c.stop()
        for server in self.servers:
            if server.process is not None and server.process.poll() is None:
                server.process.send_signal(signal.SIGCONT)  # a stopped one cannot stop
            server.stop()
        if self.nginx is not None:
            self.nginx.stop()

    @property
    def front(self) -> Server:
        assert self.nginx is not None
        return self.nginx.front()

    def connect(self) -> Any:
        import psycopg

        return psycopg.connect(**_conninfo(self.url), autocommit=True)

    def logs(self) -> str:
        """The end of every server's log and nginx's errors, for a failure's message."""
        out = []
        for i, server in enumerate(self.servers):
            assert server.log is not None
            with contextlib.suppress(OSError):
                tail = server.log.read_text(errors="replace").splitlines()[-15:]
                out.append(f"{_app(i)}:\n  " + "\n  ".join(tail))
        if self.nginx is not None:
            out.append(f"nginx: {self.nginx.errors()}")
        return "\n".join(out)

    # --- tables ----------------------------------------------------------------------------

    def make_tables(self, copies: int) -> None:
        """``copies`` tables of each kind of the fault test (every seed game, and one of bots
        alone), made through nginx, each person seat and a spectator on a socket."""
        front = self.front
        for copy in range(copies):
            for kind in KINDS:
                body = {"game": kind.game, "options": kind.options, "seats": kind.seats,
                        "bot_pace": BOT_PACE, "seed": f"processes-{kind.label}-{copy}"}
                created = front.post("/api/tables", body)
                clients = [
                    SeatClient(front, created["table"], invite["token"], f"P{seat}",
                               _person(f"{created['table']}/{seat}"))
                    for seat, invite in sorted(created["invites"].items())
                ]
                clients.append(SeatClient(front, created["table"],
                                          created["spectator"]["token"], "watcher", _watch))
                self.tables.append(PlayedTable(kind, created["table"], clients,
                                               [c.start() for c in clients]))

    def state(self) -> dict[str, tuple[str, int]]:
        """Per table, its stored status and its committed moves."""
        with self.connect() as conn:
            counts = committed_counts(conn)
            rows = conn.execute("SELECT id, status FROM web_tables").fetchall()
        return {str(t): (str(status), counts.get(str(t), 0)) for t, status in rows}

    def writers(self) -> dict[str, str]:
        """Per table, the process that wrote its newest log entry."""
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT DISTINCT ON (table_id) table_id, app FROM test_writes "
                "ORDER BY table_id, at DESC").fetchall()
        return {str(t): str(app) for t, app in rows}

    def leases(self) -> dict[str, tuple[str | None, int]]:
        with self.connect() as conn:
            rows = conn.execute("SELECT id, lease_owner, lease_epoch FROM web_tables").fetchall()
        return {str(t): (owner, int(epoch)) for t, owner, epoch in rows}

    def wait_all_moved(self, since: dict[str, tuple[str, int]], what: str,
                       deadline: float = MOVE_DEADLINE) -> None:
        """Every table that was not over at ``since`` has moved on from it (or ended)."""

        def behind() -> list[str]:
            now = self.state()
            return [f"{t.id} ({t.kind.label}) at {since[t.id][1]}" for t in self.tables
                    if since[t.id][0] not in ("over", "ended")
                    and now[t.id][0] == since[t.id][0] and now[t.id][1] <= since[t.id][1]]

        wait_for(lambda: not behind(), deadline,
                 lambda: f"tables that did not move on {what}: {behind()}\n{self.logs()}")

    def check_logs(self) -> int:
        """Stop the clients; compare every view each was shown with its table's stored
        log (nothing acknowledged lost); the moves compared."""
        for t in self.tables:
            for c in t.clients:
                c.stop()
        for t in self.tables:
            for thread in t.threads:
                thread.join(10)
        errors = [f"{t.id} {c.name}: {c.error!r}" for t in self.tables for c in t.clients
                  if c.error is not None]
        assert not errors, errors
        store = Store(self.url)
        problems: list[str] = []
        shown = 0
        try:
            for t in self.tables:
                data = store.load(t.id)
                assert data is not None, f"table {t.id} is not stored"
                moves, found = compare_with_log(data, [v for c in t.clients for v in c.views])
                shown += moves
                problems.extend(f"{p} ({t.kind.label})" for p in found)
        finally:
            store.close()
        assert not problems, "\n".join(problems)
        return shown

    def check_writers(self) -> Counter[str]:
        """Every log entry was written by the process holding the table's lease: no lease
        owner was ever written under by two processes. The entries each process wrote."""
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT owner, array_agg(DISTINCT app) FROM test_writes "
                "WHERE owner IS NOT NULL GROUP BY owner").fetchall()
            per_app = conn.execute("SELECT app, count(*) FROM test_writes GROUP BY app"
                                   ).fetchall()
        assert rows, "no log entry was written under a lease (the check would be empty)"
        shared = {owner: apps for owner, apps in rows if len(apps) > 1}
        counts = Counter({str(app): int(n) for app, n in per_app})
        assert not shared, (f"entries written under another process's lease: {shared} "
                            f"(entries per process: {dict(counts)})")
        return counts


def _app(i: int) -> str:
    return f"tricktable-test-{i}"


def wait_for(done: Callable[[], bool], seconds: float, why: Callable[[], str]) -> None:
    """Poll ``done`` until it holds; fail with ``why()`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            pytest.fail(why(), pytrace=False)
        time.sleep(0.2)


@pytest.fixture
def site(cluster: Any, tmp_path: Path) -> Iterator[Site]:
    url = new_database(cluster.url, f"tricktable_processes_{uuid.uuid4().hex[:10]}")
    made = Site(url, tmp_path)
    try:
        made.start()
        yield made
    finally:
        made.stop()


def _settle(site: Site) -> None:
    """Wait until every table is well into its game and every person has been shown it."""

    def ready() -> bool:
        state = site.state()
        return all(state[t.id][1] >= 6 or state[t.id][0] in ("over", "ended")
                   for t in site.tables) and all(
            c.views for t in site.tables for c in t.clients)

    wait_for(ready, 60, lambda: f"the tables did not start: {site.state()}\n{site.logs()}")


def _victim(site: Site) -> tuple[int, list[PlayedTable]]:
    """The process that holds the most live tables with people, and its live tables (with
    people or bots alone)."""
    writers = site.writers()
    state = site.state()
    live = [t for t in site.tables if state[t.id][0] not in ("over", "ended")]
    with_people = Counter(writers.get(t.id) for t in live if len(t.clients) > 1)
    assert with_people, f"no live table with people is written by any process: {writers}"
    app = with_people.most_common(1)[0][0]
    index = next(i for i in range(PROCESSES) if _app(i) == app)
    return index, [t for t in live if writers.get(t.id) == app]


def _latest_seq(client: SeatClient) -> int:
    return max((v["seq"] for v in list(client.views)), default=-1)


def _moved(client: SeatClient) -> int:
    """Sockets the server closed saying the table moved to another process."""
    return sum(1 for m in list(client.others) if m.get("code") == "moved")


# --- the scenarios --------------------------------------------------------------------------


@pytest.mark.timeout(400)
def test_a_killed_process_tables_carry_on_in_the_others(site: Site) -> None:
    site.make_tables(copies=2)
    _settle(site)
    index, moved = _victim(site)
    victim = site.servers[index]
    others = [t for t in site.tables if t not in moved]
    before = site.state()
    connections = {id(c): c.connections for t in moved for c in t.clients}
    seen = {id(c): _latest_seq(c) for t in moved for c in t.clients}
    victim.kill()  # mid-hand: every table is well into a game
    killed = time.monotonic()

    site.wait_all_moved(before, f"after {_app(index)} was killed")
    # its people and spectators reconnected by themselves (through nginx, to the process
    # that took the table) and were shown the table moving on
    playing = [t for t in moved if site.state()[t.id][0] not in ("over", "ended")]

    def stranded() -> list[str]:
        state = site.state()
        return [f"{t.id} ({t.kind.label}, {state[t.id]}) {c.name}: connections "
                f"{connections[id(c)]} -> {c.connections}, view {seen[id(c)]} -> "
                f"{_latest_seq(c)}, error {c.error!r}, last others "
                f"{[m.get('code') or m.get('type') for m in list(c.others)[-3:]]}"
                for t in playing for c in t.clients
                if c.connections <= connections[id(c)] or _latest_seq(c) <= seen[id(c)]]

    wait_for(lambda: not stranded(), MOVE_DEADLINE,
             lambda: f"clients not shown their table again: {stranded()}\n{site.logs()}")
    # the other tables kept their sockets: only the dead process's tables moved
    dropped = [f"{t.id} ({t.kind.label}) {c.name}: last others "
               f"{[m.get('code') or m.get('type') for m in list(c.others)[-3:]]}"
               for t in others for c in t.clients
               if any(at >= killed for at in c.drops) and site.state()[t.id][0] != "ended"]
    assert not dropped, f"sockets of tables of the live processes dropped: {dropped}"
    # and the dead process's tables are written by the others now
    writers = site.writers()
    assert all(writers[t.id] != _app(index) for t in playing), writers

    shown = site.check_logs()
    written = site.check_writers()
    assert shown > 0
    print(f"{_app(index)} killed with {len(moved)} tables; {shown} moves shown and compared "
          f"with the logs; log entries per process: {dict(written)}")


@pytest.mark.timeout(400)
def test_a_stopped_process_writes_nothing_to_the_tables_it_lost(site: Site) -> None:
    site.make_tables(copies=2)
    _settle(site)
    index, held = _victim(site)
    victim = site.servers[index]
    app = _app(index)
    leases_before = site.leases()
    assert victim.process is not None
    victim.process.send_signal(signal.SIGSTOP)
    stopped = True
    try:
        # past its leases (each has expired), and the others took them: its tables with
        # bots to move at least, so that they carry on
        def unexpired() -> list[str]:
            """Its tables whose lease is still its own and still running."""
            with site.connect() as conn:
                rows = conn.execute(
                    "SELECT id, lease_epoch FROM web_tables WHERE id = ANY(%s) AND status "
                    "NOT IN ('over', 'ended') AND lease_owner IN (SELECT owner FROM web_servers "
                    "WHERE expires >= clock_timestamp())",
                    ([t.id for t in held],)).fetchall()
            return [str(t) for t, epoch in rows if epoch == leases_before[str(t)][1]]

        def taken() -> list[PlayedTable]:
            now = site.leases()
            return [t for t in held if now[t.id][1] != leases_before[t.id][1]]

        wait_for(lambda: not unexpired() and bool(taken()), TAKEOVER_DEADLINE,
                 lambda: f"the stopped {app}'s leases not expired ({unexpired()}) or none "
                         f"taken\n{site.logs()}")
        lost = taken()
        with site.connect() as conn:
            resumed_at = conn.execute("SELECT clock_timestamp()").fetchone()[0]
        before = site.state()
        connections = {id(c): c.connections for t in lost for c in t.clients}
        moved = {id(c): _moved(c) for t in lost for c in t.clients}
        victim.process.send_signal(signal.SIGCONT)
        stopped = False
    finally:
        if stopped:
            victim.process.send_signal(signal.SIGCONT)

    # it closes its sockets of the tables it lost, saying "moved": their clients reconnect
    # (to the process the proxy chooses, which is handed the table) and the tables carry on
    still = [t for t in lost if site.state()[t.id][0] not in ("over", "ended")]

    def unclosed() -> list[str]:
        return [f"{t.id} {c.name}" for t in still for c in t.clients
                if _moved(c) <= moved[id(c)] or c.connections <= connections[id(c)]]

    wait_for(lambda: not unclosed(), MOVE_DEADLINE,
             lambda: f"sockets of {app} still open on tables it lost: {unclosed()}\n"
                     f"{site.logs()}")
    site.wait_all_moved(before, f"after {app} came back")

    # nothing written by it under a lease it had lost: after it came back, each entry it
    # wrote is under a lease of its own (one it was handed or took anew)
    with site.connect() as conn:
        own = {str(o) for (o,) in conn.execute(
            "SELECT DISTINCT owner FROM test_writes WHERE app = %s AND at < %s "
            "AND owner IS NOT NULL", (app, resumed_at)).fetchall()}
        stale = conn.execute(
            "SELECT table_id, n, kind, owner, epoch FROM test_writes WHERE app = %s "
            "AND at >= %s AND (owner IS NULL OR NOT owner = ANY(%s))",
            (app, resumed_at, list(own))).fetchall()
    assert own, f"{app} wrote nothing before it was stopped"
    assert not stale, f"{app} wrote under leases it had lost: {stale[:10]}"
    shown = site.check_logs()
    written = site.check_writers()
    print(f"{app} stopped: {len(lost)} of its {len(held)} tables taken by the others and "
          f"handed back; {shown} moves shown and compared with the logs; log entries per "
          f"process: {dict(written)}")


@pytest.mark.timeout(400)
def test_no_message_names_a_hidden_card_through_nginx(site: Site) -> None:
    """The leak test's games (every option set that changes who sees what), all at once
    through nginx on three processes: every message each receiver got, in order, against
    the engine's own observation replayed from the stored log."""
    from tricktable import make_game

    front = site.front
    played: list[tuple[str, list[int], dict[str, list[dict[str, Any]]],
                       list[SeatClient]]] = []
    for game, options in OPTION_SETS:
        seats = make_game(game, options).player_seats
        who = {str(s): "person" for s in seats}
        if len(seats) >= 4:
            who[str(seats[-1])] = "rules"
        created = front.post("/api/tables", {"game": game, "options": options, "seats": who,
                                             "seed": f"leak/{game}", "bot_pace": 0})
        received: dict[str, list[dict[str, Any]]] = {}
        clients = []
        for seat, invite in sorted(created["invites"].items()):
            # one list for views and the rest: every message in the order it came
            messages = received.setdefault(seat, [])
            clients.append(SeatClient(front, created["table"], invite["token"], f"P{seat}",
                                      rules_choice, views=messages, others=messages))
        messages = received.setdefault("spectator", [])
        clients.append(SeatClient(front, created["table"], created["spectator"]["token"],
                                  "watcher", _watch, views=messages, others=messages))
        for c in clients:
            c.start()
        played.append((created["table"], list(seats), received, clients))

    def unfinished() -> list[str]:
        return [table for table, _, received, _ in played
                if not any(m.get("type") == "view" and m["status"] == "over"
                           for m in received["spectator"])]

    wait_for(lambda: not unfinished(), 300,
             lambda: f"games not over: {unfinished()}\n{site.logs()}")
    for _, _, _, clients in played:
        for c in clients:
            c.stop()
        assert all(c.error is None for c in clients), [c.error for c in clients]

    checked = 0
    for table, seats, received, _ in played:
        seen = moments(site.url, table)
        for receiver, messages in received.items():
            checked += no_card_leaked(messages, receiver, seen, seats, table)
    assert checked > 50 * len(OPTION_SETS)


@pytest.mark.timeout(300)
def test_the_lobby_new_tables_and_the_league_work_through_any_process(site: Site) -> None:
    """What is not a table's is served by any process: a public table made on each is in
    every process's lobby, a league group made on one is read on the others, and each new
    table answers through nginx, whichever process made it (the one the proxy chooses is
    handed it)."""
    made = [server.post("/api/tables", {"game": "spades", "public": True,
                                        "seats": {"0": "person"}})["table"]
            for server in site.servers]
    group = site.servers[0].post("/api/groups", {"name": "Lunch", "time_zone": "UTC"})
    for server in [*site.servers, site.front]:
        assert set(made) <= {t["table"] for t in server.get("/api/tables")}
        assert server.get(f"/api/groups/{group['token']}")["name"] == "Lunch"
        assert server.request("GET", "/league")[0] == 200
    front = site.front

    def unanswered() -> list[str]:
        return [table for table in made
                if front.request("GET", f"/api/tables/{table}", timeout=5)[0] != 200]

    wait_for(lambda: not unanswered(), MOVE_DEADLINE,
             lambda: f"tables not answered through nginx: {unanswered()}\n{site.logs()}")


# --- tricktable serve --workers -------------------------------------------------------------


def test_several_workers_on_sqlite_are_refused_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tricktable", "serve", "--workers", "2", "--port",
         str(free_port()), "--db", f"sqlite:///{tmp_path / 'one.db'}"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "SQLite" in lines[0] and "PostgreSQL" in lines[0], done.stderr
    assert not (tmp_path / "one.db").exists()  # refused before anything was made


class _Output:
    """A process's standard error, read as it comes (a pipe nobody reads would fill)."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        assert process.stderr is not None
        self._thread = threading.Thread(target=self._read, args=(process.stderr,),
                                         daemon=True)
        self._thread.start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def text(self) -> str:
        return "\n".join(self.lines)


def _answers(port: int) -> bool:
    try:
        return bool(Server("", port=port).get("/api/games")["games"])
    except (OSError, ValueError):
        return False


@pytest.mark.timeout(300)
def test_workers_start_restart_and_stop(cluster: Any) -> None:
    """``serve --workers 2``: both answer, it prints the upstream lines; a worker killed is
    started again on its port; SIGTERM stops them all."""
    url = new_database(cluster.url, f"tricktable_workers_{uuid.uuid4().hex[:10]}")
    port = free_port()
    while not all(_port_free(port + i) for i in range(2)):
        port = free_port()
    supervisor = subprocess.Popen(
        [sys.executable, "-m", "tricktable", "serve", "--workers", "2", "--port", str(port),
         "--db", url], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    output = _Output(supervisor)
    try:
        wait_for(lambda: "stops them all" in output.text() or supervisor.poll() is not None,
                 120,
                 lambda: f"the workers did not start:\n{output.text()}")
        assert supervisor.poll() is None, output.text()
        text = output.text()
        for p in (port, port + 1):
            assert f"server 127.0.0.1:{p} max_fails=1" in text, text
            assert _answers(p)
        assert "hash $tricktable_table consistent;" in text
        first = _worker_pid(text, 1)
        os.kill(first, signal.SIGKILL)
        wait_for(lambda: "worker 1 serves again" in output.text(), 60,
                 lambda: f"worker 1 was not started again:\n{output.text()}")
        assert "killed by SIGKILL" in output.text()
        assert _answers(port) and _answers(port + 1)
        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(30) == 0, output.text()
        assert not _answers(port) and not _answers(port + 1)
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
            supervisor.wait(10)


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _worker_pid(text: str, number: int) -> int:
    for line in text.splitlines():
        if line.startswith(f"tricktable: worker {number} of ") and "(process " in line:
            return int(line.rsplit("(process ", 1)[1].rstrip(")"))
    raise AssertionError(f"no process number for worker {number}:\n{text}")


# --- the shipped configuration's routing (one database per process: SQLite) ------------------


@pytest.fixture
def two_behind_nginx(tmp_path: Path) -> Iterator[tuple[list[Server], Nginx, int]]:
    """Two SQLite servers of their own and a port where nothing listens, behind nginx: the
    routing alone, without leases."""
    _need_nginx()
    servers = [Server(f"sqlite:///{tmp_path / f'{i}.db'}",
                      env={"TRICKTABLE_CREATE_RATE": "1/1"}) for i in range(2)]
    dead = free_port()
    nginx = Nginx([servers[0].port, dead, servers[1].port], tmp_path / "nginx")
    try:
        for s in servers:
            s.start()
        nginx.start()
        yield servers, nginx, dead
    finally:
        nginx.stop()
        for s in servers:
            s.stop()


def test_nginx_sends_a_table_to_one_process_and_the_client_address_through(
        two_behind_nginx: tuple[list[Server], Nginx, int]) -> None:
    servers, nginx, dead = two_behind_nginx
    front = nginx.front()
    ids = [f"t{i:03d}-x_Y" for i in range(40)]
    for table in ids:
        for path in (f"/api/tables/{table}", f"/play/{table}",
                     f"/api/tables/{table}/records/1"):
            status, _ = front.request("GET", path)
            assert status in (200, 404), (path, status)  # answered, never a 502
        with contextlib.suppress(OSError, ValueError):
            from websockets.sync.client import connect

            with connect(f"ws://127.0.0.1:{nginx.port}/ws/{table}", open_timeout=5) as ws:
                assert json.loads(ws.recv(timeout=5))["code"] == "no-table"
    wait_for(lambda: sum("/ws/" in p for _, _, p in nginx.requests()) >= len(ids), 10,
             lambda: f"nginx did not log the sockets: {nginx.requests()[-5:]}")
    reached: dict[str, set[str]] = {}
    for _, upstream, path in nginx.requests():
        table = next((t for t in ids if f"/{t}" in path), None)
        if table is not None:
            # a request that found the dead port first was passed on: the last one served
            reached.setdefault(table, set()).add(upstream.split(", ")[-1])
    assert all(len(ups) == 1 for ups in reached.values()), reached
    used = {next(iter(ups)) for ups in reached.values()}
    assert used == {f"127.0.0.1:{s.port}" for s in servers}, used  # both, never the dead one
    assert any(str(dead) in upstream for _, upstream, _ in nginx.requests())

    # the server sees the client's address, not nginx's: one new table a minute each
    body = json.dumps({"game": "spades"}).encode()
    assert front.request("POST", "/api/tables", body)[0] == 201
    assert front.request("POST", "/api/tables", body)[0] == 429
    assert front.request("POST", "/api/tables", body, source="127.0.0.2")[0] == 201
    # a body over the server's limit is refused by nginx in the server's own words (JSON)
    status, answer = front.request("POST", "/api/tables", b"x" * (16 * 1024 + 1))
    assert status == 413 and answer["error"] == "too-large", answer
    status, answer = front.request("POST", "/api/replay", b"x" * (8 * 1024 * 1024 + 1))
    assert status == 413 and answer["error"] == "too-large", answer
