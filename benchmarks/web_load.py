"""Load on web server processes: N tables at once, people on sockets, bots in the rest.

The server (``tricktable serve``, a fresh SQLite database unless ``--db``) runs in its own
process on loopback; with ``--processes N``, N server processes on one PostgreSQL database
(``--db postgresql+psycopg://...``, or a cluster of the run's own made with PostgreSQL's
``initdb``) behind Debian's nginx configured by ``docs/nginx/tricktable.conf``, and every
request and socket goes through nginx. This process creates ``--tables`` tables of
``--game``, each with one person's seat and bots (``rules``, paced by ``--pace`` seconds)
in the others, and holds one websocket per table for its person: the person answers each
view that asks him something with the rules bot's choice, after ``--think`` seconds (a
person thinks; a client answering at once would be measuring a robot, not a table). When a
game ends the host asks for a rematch, so every table plays all the time.

After ``--warmup`` seconds, for ``--seconds`` seconds it counts:

- **actions per second**: every accepted action at every table (people's and bots',
  deals included), from the views' sequence numbers;
- **round trip**: from a person's action leaving this process to the view that shows it
  arriving back (the engine's check, the commit to the database, the broadcast): p50, p99
  and the worst, in milliseconds;
- the server process's CPU use (1.0 is one core busy); with ``--processes``, each
  process's, nginx's, and the database's: its backends' CPU, transactions, rows inserted
  and updated a second, its connections, and the tables each process held at the end.

The last two lines are ``tables: N`` and ``p99_ms: X``. The goal on a 2-core machine:
1,000 tables with p99 under 50 ms; two processes carry twice the tables of one at the same
p99.

Run: ``.venv/bin/python benchmarks/web_load.py [--tables 1000] [--seconds 30]``
(needs the ``web`` extra; about a minute with the defaults), and
``.venv/bin/python benchmarks/web_load.py --processes 2 --tables 2000`` (also needs nginx
and PostgreSQL's programs, or ``--db`` naming a PostgreSQL database).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.web.protocol import observation_from_json

TESTS = Path(__file__).resolve().parents[1] / "tests"

SERVER_ENVIRONMENT = {
    # one address makes every table and holds every socket here
    "TRICKTABLE_CREATE_RATE": "100000/100000", "TRICKTABLE_SOCKETS_PER_ADDRESS": "100000",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_file_limit() -> None:
    """A socket per table on each side: lift the soft limit on open files to the hard."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """A process's children (Linux /proc): nginx's workers."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


class Database:
    """What PostgreSQL does for the run: its backends serving the database (their CPU,
    read through /proc on this machine), transactions committed (reads included), rows
    inserted and updated, connections."""

    def __init__(self, url: str) -> None:
        from sqlalchemy.engine import make_url

        u = make_url(url)
        self.conninfo = {"host": u.host, "port": u.port, "user": u.username,
                         "password": u.password, "dbname": u.database}
        self.name = u.database

    def sample(self) -> dict[str, Any]:
        import psycopg

        with psycopg.connect(**self.conninfo, autocommit=True) as conn:
            commits, inserted, updated = conn.execute(
                "SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database "
                "WHERE datname = %s", (self.name,)).fetchone()
            pids = [p for (p,) in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> "
                "pg_backend_pid()", (self.name,)).fetchall()]
            owners = dict(conn.execute(
                "SELECT coalesce(lease_owner, '-'), count(*) FROM web_tables WHERE status "
                "NOT IN ('over', 'ended') GROUP BY 1").fetchall())
        return {"commits": int(commits), "inserted": int(inserted), "updated": int(updated),
                "pids": pids,
                "cpu": {p: cpu_seconds(p) for p in pids}, "owners": owners}


def database_figures(before: dict[str, Any], after: dict[str, Any], wall: float
                     ) -> dict[str, Any]:
    common = [p for p in after["pids"] if p in before["cpu"]]
    cpu = sum(after["cpu"][p] - before["cpu"][p] for p in common)
    return {
        "db_transactions_per_s": round((after["commits"] - before["commits"]) / wall, 1),
        "db_inserts_per_s": round((after["inserted"] - before["inserted"]) / wall, 1),
        "db_updates_per_s": round((after["updated"] - before["updated"]) / wall, 1),
        "db_connections": len(after["pids"]),
        "db_backends_cpu": round(cpu / wall, 2),
        "tables_per_owner": after["owners"],
    }


class Stats:
    def __init__(self) -> None:
        self.measuring = False
        self.latencies: list[float] = []
        self.refused = 0
        self.reconnects = 0
        self.games = 0


class Person:
    """One table's person: a socket, the rules bot's choices after a pause."""

    def __init__(self, base: str, created: dict[str, Any], stats: Stats, think: float,
                 rng: random.Random) -> None:
        self.base = base
        self.table = created["table"]
        self.token = created["invites"]["0"]["token"]
        self.host = created["host_token"]
        self.stats = stats
        self.think = think
        self.rng = rng
        self.seq = 0
        self.game_number = 0
        self.sent: tuple[int, float] | None = None
        self.bot_cache: dict[str, Any] = {}
        self.pending: asyncio.Task[None] | None = None

    def choose(self, view: dict[str, Any]) -> str | None:
        key = json.dumps([view["game"], view["options"]], sort_keys=True)
        game = self.bot_cache.get(key)
        if game is None:
            game = self.bot_cache[key] = make_game(view["game"], view["options"])
        obs = observation_from_json(view["game"], view["observation"])
        bot = make_bot("rules", game, obs.seat, f"load/{view['seq']}")
        if obs.to_act in obs.controls:
            return str(bot.choose(obs, list(obs.legal)))
        offer = bot.offer(obs, list(obs.legal))
        return None if offer is None else str(offer)

    async def run(self, http: httpx.AsyncClient, stop: asyncio.Event) -> None:
        url = self.base.replace("http", "ws", 1) + f"/ws/{self.table}"
        while not stop.is_set():
            try:
                async with websockets.connect(url, max_size=2**22, open_timeout=30) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token,
                                              "name": "Load"}))
                    await self._serve(ws, http, stop)
            except (TimeoutError, OSError, websockets.WebSocketException):
                self.stats.reconnects += 1
                await asyncio.sleep(0.5)

    async def _serve(self, ws: Any, http: httpx.AsyncClient, stop: asyncio.Event) -> None:
        try:
            await self._read(ws, http, stop)
        finally:
            if self.pending is not None:
                self.pending.cancel()

    async def _read(self, ws: Any, http: httpx.AsyncClient, stop: asyncio.Event) -> None:
        async for raw in ws:
            if stop.is_set():
                return
            m = json.loads(raw)
            if m["type"] == "refused":
                self.stats.refused += 1
                self.sent = None
                continue
            if m["type"] != "view":
                continue
            now = time.perf_counter()
            if self.sent is not None and m["seq"] > self.sent[0]:
                if self.stats.measuring:
                    self.stats.latencies.append(now - self.sent[1])
                self.sent = None
            self.seq = m["seq"]
            if m["status"] == "over" and m["game_number"] == self.game_number:
                self.stats.games += 1
                self.game_number += 1
                await self._rematch(http)
                continue
            if m["legal"] and m["status"] == "playing":
                choice = self.choose(m)
                if choice is not None:
                    if self.pending is not None:
                        self.pending.cancel()
                    self.pending = asyncio.create_task(self._answer(ws, m["seq"], choice))

    async def _rematch(self, http: httpx.AsyncClient) -> None:
        """Ask for the next game; a table moving between processes answers 503 for a
        moment (Retry-After)."""
        for _ in range(20):
            r = await http.post(f"/api/tables/{self.table}/rematch",
                                headers={"authorization": f"Bearer {self.host}"})
            if r.status_code != 503:
                return
            await asyncio.sleep(float(r.headers.get("retry-after", "1")))

    async def _answer(self, ws: Any, seq: int, choice: str) -> None:
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        if seq != self.seq:
            return  # the table moved on meanwhile
        self.sent = (seq, time.perf_counter())
        with contextlib.suppress(websockets.ConnectionClosed):  # the run is ending
            await ws.send(json.dumps({"type": "action", "seq": seq, "action": choice}))


async def load(args: argparse.Namespace, base: str, watched: dict[str, int],
               database: Database | None = None) -> dict[str, Any]:
    """The run; ``watched``: the processes whose CPU is measured, by name."""
    stats = Stats()
    rng = random.Random(args.seed)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        seats = make_game(args.game, {}).player_seats
        body = {
            "game": args.game, "seats": {str(s): "person" if s == 0 else "rules"
                                         for s in seats},
            "bot_pace": args.pace,
        }
        people: list[Person] = []
        started = time.perf_counter()
        for i in range(args.tables):
            r = await http.post("/api/tables", json={**body, "seed": f"load/{i}"})
            r.raise_for_status()
            people.append(Person(base, r.json(), stats, args.think, random.Random(rng.random())))
            if (i + 1) % 100 == 0 or i + 1 == args.tables:
                print(f"\rtables created: {i + 1}/{args.tables}", end="", file=sys.stderr)
        print(f" ({time.perf_counter() - started:.1f} s)", file=sys.stderr)
        stop = asyncio.Event()
        tasks = []
        for p in people:
            tasks.append(asyncio.create_task(p.run(http, stop)))
            await asyncio.sleep(0.002)  # connect at a steady rate, not all in one burst
        print(f"people seated; warming up {args.warmup:g} s", file=sys.stderr)
        await asyncio.sleep(args.warmup)
        seq_before = sum(p.seq for p in people)  # a table's seq counts on across rematches
        games_before = stats.games
        db_before = database.sample() if database is not None else None
        cpu_before = {name: cpu_seconds(pid) for name, pid in watched.items()}
        wall_before = time.perf_counter()
        stats.measuring = True
        for second in range(int(args.seconds)):
            await asyncio.sleep(1)
            print(f"\rmeasuring: {second + 1}/{int(args.seconds)} s, "
                  f"{len(stats.latencies)} round trips", end="", file=sys.stderr)
        stats.measuring = False
        wall = time.perf_counter() - wall_before
        cpu = {name: (cpu_seconds(pid) - cpu_before[name]) / wall
               for name, pid in watched.items()}
        db_after = database.sample() if database is not None else None
        seq_after = sum(p.seq for p in people)
        games = stats.games - games_before
        print(file=sys.stderr)
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    lat = sorted(stats.latencies)

    def pct(q: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(q * len(lat)))] if lat else float("nan")

    actions = max(0, seq_after - seq_before)
    servers = [round(v, 2) for k, v in cpu.items() if k.startswith("server")]
    extra: dict[str, Any] = {}
    if len(servers) > 1 or "nginx" in cpu:
        extra["processes"] = len(servers)
        extra["server_cpu_each"] = servers
        extra["nginx_cpu"] = round(cpu.get("nginx", float("nan")), 2)
    if db_before is not None and db_after is not None:
        extra.update(database_figures(db_before, db_after, wall))
    return {
        "tables": args.tables, "game": args.game, "bot_pace_s": args.pace,
        "think_s": args.think, "seconds": round(wall, 1),
        "actions_per_s": round(actions / wall, 1),
        "round_trips": len(lat), "p50_ms": round(pct(0.50), 2), "p99_ms": round(pct(0.99), 2),
        "max_ms": round(1000 * lat[-1], 2) if lat else None,
        "games_finished": games, "refused": stats.refused, "reconnects": stats.reconnects,
        "server_cpu": round(sum(servers), 2),
        "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None,
        **extra,
    }


def start_servers(urls: list[str], folder: str
                  ) -> tuple[list[subprocess.Popen[bytes]], list[int]]:
    """``tricktable serve`` per URL on a free port each, one after the other (the first
    makes the schema), each logging to ``folder``/server-N.log; their processes and ports
    once each answers."""
    processes: list[subprocess.Popen[bytes]] = []
    ports: list[int] = []
    for i, url in enumerate(urls):
        port = free_port()
        with open(Path(folder) / f"server-{i + 1}.log", "ab") as log:
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "tricktable", "serve", "--port", str(port), "--db",
                 url], stdout=subprocess.DEVNULL, stderr=log, preexec_fn=raise_file_limit,
                env={**os.environ, **SERVER_ENVIRONMENT}))
        ports.append(port)
        for _ in range(600):
            if processes[-1].poll() is not None:
                raise SystemExit(f"the server on port {port} stopped at start (status "
                                 f"{processes[-1].returncode}): is --db usable?")
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                time.sleep(0.1)
    return processes, ports


def run_one(args: argparse.Namespace, folder: str) -> dict[str, Any]:
    """One server process, spoken to directly."""
    db = args.db or f"sqlite:///{folder}/load.db"
    processes, ports = start_servers([db], folder)
    try:
        return asyncio.run(load(args, f"http://127.0.0.1:{ports[0]}",
                                {"server": processes[0].pid}))
    finally:
        for p in processes:
            p.terminate()
            p.wait(10)


def run_behind_nginx(args: argparse.Namespace, folder: str) -> dict[str, Any]:
    """``--processes`` server processes on one PostgreSQL database behind nginx."""
    sys.path.insert(0, str(TESTS))
    from nginx_process import Nginx

    cluster = cluster_folder = None
    url = args.db
    if url is None:
        from conftest import own_postgres_cluster
        from web_faults import new_database

        # not in ``folder``: that is private to this user, and the cluster may run as the
        # postgres user
        cluster_folder = Path(tempfile.mkdtemp(prefix="tricktable-load-pg-"))
        try:
            cluster = own_postgres_cluster(cluster_folder)
        except (RuntimeError, OSError) as e:
            shutil.rmtree(cluster_folder, ignore_errors=True)
            raise SystemExit(f"--processes needs PostgreSQL: {e} (or --db "
                             "postgresql+psycopg://...)") from None
        url = new_database(cluster.url, "tricktable_load")
    elif not url.startswith("postgresql"):
        raise SystemExit("--processes needs a PostgreSQL database (--db postgresql+psycopg://...)")
    processes: list[subprocess.Popen[bytes]] = []
    nginx = None
    try:
        processes, ports = start_servers([url] * args.processes, folder)
        nginx = Nginx(ports, Path(folder), worker_connections=4 * args.tables + 256)
        nginx.start()
        watched = {f"server {i + 1}": p.pid for i, p in enumerate(processes)}
        workers = children(nginx.process.pid) if nginx.process is not None else []
        if workers:
            watched["nginx"] = workers[0]
        return asyncio.run(load(args, nginx.base, watched, Database(url)))
    finally:
        if nginx is not None:
            nginx.stop()
        for p in processes:
            p.terminate()
            p.wait(10)
        if cluster is not None:
            cluster.stop()
        if cluster_folder is not None:
            shutil.rmtree(cluster_folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--game", default="spades")
    parser.add_argument("--pace", type=float, default=1.0, help="bots' pace, seconds")
    parser.add_argument("--think", type=float, default=1.0, help="a person's pause, seconds")
    parser.add_argument("--db", help="database URL (default: a new SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--processes", type=int, default=None, metavar="N",
                        help="N server processes on PostgreSQL behind nginx (default: one "
                        "process, spoken to directly)")
    args = parser.parse_args()
    if args.processes is not None and not 1 <= args.processes <= 64:
        parser.error("--processes: between 1 and 64")
    raise_file_limit()
    folder = tempfile.mkdtemp(prefix="tricktable-load-")
    run = run_one if args.processes is None else run_behind_nginx
    result = run(args, folder)
    print(f"the servers' logs: {folder}", file=sys.stderr)
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        if key not in ("tables", "p99_ms"):
            print(f"{key}: {value}")
    print(f"tables: {result['tables']}")
    print(f"p99_ms: {result['p99_ms']}")


if __name__ == "__main__":
    main()
