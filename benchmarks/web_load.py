"""Load on one web server process: N tables at once, people on sockets, bots in the rest.

The server (``tricktable serve``, a fresh SQLite database unless ``--db``) runs in its own
process on loopback. This process creates ``--tables`` tables of ``--game``, each with one
person's seat and bots (``rules``, paced by ``--pace`` seconds) in the others, and holds
one websocket per table for its person: the person answers each view that asks him
something with the rules bot's choice, after ``--think`` seconds (a person thinks; a
client answering at once would be measuring a robot, not a table). When a game ends the
host asks for a rematch, so every table plays all the time.

After ``--warmup`` seconds, for ``--seconds`` seconds it counts:

- **actions per second**: every accepted action at every table (people's and bots',
  deals included), from the views' sequence numbers;
- **round trip**: from a person's action leaving this process to the view that shows it
  arriving back (the engine's check, the commit to the database, the broadcast): p50, p99
  and the worst, in milliseconds;
- the server process's CPU use (1.0 is one core busy).

The last two lines are ``tables: N`` and ``p99_ms: X``. The goal on a 2-core machine:
1,000 tables with p99 under 50 ms.

Run: ``.venv/bin/python benchmarks/web_load.py [--tables 1000] [--seconds 30]``
(needs the ``web`` extra; about a minute with the defaults).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
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
                await http.post(f"/api/tables/{self.table}/rematch",
                                headers={"authorization": f"Bearer {self.host}"})
                continue
            if m["legal"] and m["status"] == "playing":
                choice = self.choose(m)
                if choice is not None:
                    if self.pending is not None:
                        self.pending.cancel()
                    self.pending = asyncio.create_task(self._answer(ws, m["seq"], choice))

    async def _answer(self, ws: Any, seq: int, choice: str) -> None:
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        if seq != self.seq:
            return  # the table moved on meanwhile
        self.sent = (seq, time.perf_counter())
        with contextlib.suppress(websockets.ConnectionClosed):  # the run is ending
            await ws.send(json.dumps({"type": "action", "seq": seq, "action": choice}))


async def load(args: argparse.Namespace, base: str, server_pid: int) -> dict[str, Any]:
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
        cpu_before, wall_before = cpu_seconds(server_pid), time.perf_counter()
        stats.measuring = True
        for second in range(int(args.seconds)):
            await asyncio.sleep(1)
            print(f"\rmeasuring: {second + 1}/{int(args.seconds)} s, "
                  f"{len(stats.latencies)} round trips", end="", file=sys.stderr)
        stats.measuring = False
        wall = time.perf_counter() - wall_before
        cpu = cpu_seconds(server_pid) - cpu_before
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
    return {
        "tables": args.tables, "game": args.game, "bot_pace_s": args.pace,
        "think_s": args.think, "seconds": round(wall, 1),
        "actions_per_s": round(actions / wall, 1),
        "round_trips": len(lat), "p50_ms": round(pct(0.50), 2), "p99_ms": round(pct(0.99), 2),
        "max_ms": round(1000 * lat[-1], 2) if lat else None,
        "games_finished": games, "refused": stats.refused, "reconnects": stats.reconnects,
        "server_cpu": round(cpu / wall, 2),
        "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None,
    }


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
    args = parser.parse_args()
    raise_file_limit()
    folder = tempfile.mkdtemp(prefix="tricktable-load-")
    db = args.db or f"sqlite:///{folder}/load.db"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "tricktable", "serve", "--port", str(port), "--db", db],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=raise_file_limit,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(base + "/api/games", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        result = asyncio.run(load(args, base, server.pid))
    finally:
        server.terminate()
        server.wait(10)
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
