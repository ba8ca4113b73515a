"""Abuse while ordinary tables play (issue 39): do the other tables notice?

A real server (``tricktable serve`` on a new SQLite file, its own process on loopback)
holds ``--tables`` ordinary tables of Spades, each a person (a client over a socket that
plays the rules bot's choice) and three rules bots at ``--pace``. A spectator of each table
pings it five times a second and times the pong. The run has three phases of ``--seconds``
each:

- **before**: the tables play, nothing else;
- **during**: the abuse of ``tests/test_web_abuse.py``, sent over and over from other
  loopback addresses: the 300-hand record's replay, three 8-MiB bodies at once, bad table
  requests (deep JSON, a lone surrogate, a NUL, huge numbers, a bot named by a list), a
  flood of new tables, 200 sockets that never say hello, lone surrogates over a socket,
  and four bot-only tables asked to play at pace 0;
- **after**: the abuse stopped, the tables still playing.

It prints, in words, the ping round trip of the ordinary tables in each phase (p50, p99,
worst), the server's CPU (1.0 is one core busy) and resident memory (its peak and at the
phase's end), and how each kind of abuse was answered (a 5xx, an error or a hang is a
defect). The last lines are ``p99_before_ms``, ``p99_during_ms``, ``rss_peak_mb`` and
``defects`` (``key: value``).

Run: ``.venv/bin/python benchmarks/web_abuse.py [--tables 6] [--seconds 15]``
(needs the ``web`` extra; about a minute with the defaults).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from rich.console import Console
from rich.table import Table as RichTable
from websockets.exceptions import ConnectionClosed, WebSocketException

from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.web.protocol import observation_from_json
from web_abuse_kit import (
    BOTS_ONLY,
    DEADLINE,
    DEEP_TABLE,
    SURROGATE_MESSAGES,
    bad_tables,
    create,
    deep_junk,
    end,
    long_record,
    loopback_sources,
    open_socket,
    padded_record,
    receive,
    record_bytes,
    say_hello,
    too_many_hands,
    until,
    until_closed,
)
from web_process import SeatClient, Server

PING_EVERY = 0.2
"""Seconds between a spectator's pings: five a second, under a socket's message rate."""
FLOOD_SOURCE = "127.0.3.2"
"""The address the flood of new tables comes from (the ordinary tables are made from
127.0.0.1 before it starts)."""


# --- the ordinary tables ---------------------------------------------------------------------


_games: dict[str, Any] = {}


def rules_choice(view: dict[str, Any]) -> str | None:
    """What the rules bot would do in the person's seat, from the view alone."""
    key = json.dumps([view["game"], view["options"]], sort_keys=True)
    game = _games.get(key)
    if game is None:
        game = _games[key] = make_game(view["game"], view["options"])
    obs = observation_from_json(view["game"], view["observation"])
    bot = make_bot("rules", game, obs.seat, f"person/{view['seq']}")
    if obs.to_act in obs.controls:
        return str(bot.choose(obs, list(obs.legal)))
    offer = bot.offer(obs, list(obs.legal))
    return None if offer is None else str(offer)


class Pinger:
    """A spectator of one table that pings it every PING_EVERY seconds and keeps each
    round trip under the phase it was measured in."""

    def __init__(self, server: Server, created: dict[str, Any], phase: Callable[[], str],
                 stop: threading.Event) -> None:
        self.server = server
        self.table = created["table"]
        self.token = created["spectator"]["token"]
        self.phase = phase
        self.stop = stop
        self.trips: dict[str, list[float]] = {}
        self.lost: Counter[str] = Counter()
        """Pings without a pong (the socket closed, or no answer in DEADLINE seconds)."""

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                with open_socket(self.server, self.table) as ws:
                    say_hello(ws, self.token)
                    until(ws, time.monotonic() + DEADLINE, "welcome")
                    self._ping(ws)
            except (OSError, TimeoutError, ConnectionClosed, WebSocketException):
                self.lost[self.phase()] += 1
                time.sleep(0.5)

    def _ping(self, ws: Any) -> None:
        next_at = time.monotonic()
        while not self.stop.is_set():
            phase = self.phase()
            sent = time.perf_counter()
            ws.send('{"type":"ping"}')
            until(ws, time.monotonic() + DEADLINE, "pong")
            self.trips.setdefault(phase, []).append(time.perf_counter() - sent)
            next_at += PING_EVERY
            time.sleep(max(0.0, next_at - time.monotonic()))


# --- the abuse ---------------------------------------------------------------------------------


class Abuse:
    """Workers that each send one kind of abuse over and over until ``stop``, counting
    how each request was answered (``kind -> answer -> count``)."""

    def __init__(self, server: Server, stop: threading.Event) -> None:
        self.server = server
        self.stop = stop
        self.answers: dict[str, Counter[str]] = {}
        self.defects: Counter[str] = Counter()
        self.tables: dict[str, dict[str, Any]] = {}
        self.sources = 0
        self.lock = threading.Lock()
        record = long_record()
        self.record = record_bytes(record)
        self.hands = len(record.hands)
        self.big = {"deep junk": deep_junk(), "too many hands": too_many_hands(record),
                    "a padded legal record": padded_record(record)}

    def count(self, kind: str, answer: str, defect: bool = False) -> None:
        """One answer to a request of ``kind``; ``defect``: not an answer the server
        should give (a 5xx other than "busy", an exception, a hang, a silent close)."""
        with self.lock:
            self.answers.setdefault(kind, Counter())[answer] += 1
            self.defects[kind] += defect

    def request(self, kind: str, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None, source: str | None = None,
                refused: bool = False) -> Any:
        """Send it and count its answer; ``refused``: anything but a 4xx is a defect."""
        try:
            status, answer = self.server.request(method, path, body, headers,
                                                 timeout=DEADLINE, source=source)
        except (OSError, TimeoutError) as e:
            self.count(kind, f"no answer ({type(e).__name__})", defect=True)
            return None
        code = answer.get("error") if isinstance(answer, dict) else None
        self.count(kind, f"{status} {code}" if code else str(status),
                   defect=(status >= 500 and not (status == 503 and code == "busy"))
                   or (refused and not 400 <= status < 500))
        return answer

    def workers(self) -> dict[str, Callable[[], None]]:
        """Every kind of abuse by name (``--abuse`` picks some)."""
        return {"replay": self.replay, "big-bodies": self.big_bodies,
                "bad-requests": self.bad_requests, "flood": self.flood,
                "idle-sockets": self.idle_sockets, "surrogates": self.surrogates,
                "bots-only": self.bots_only}

    def forever(self, work: Callable[[], None]) -> None:
        while not self.stop.is_set():
            try:
                work()
            except Exception as e:  # counted, and the worker goes on
                self.count(work.__name__, f"failed: {type(e).__name__}: {e}"[:80],
                           defect=True)
                time.sleep(0.5)

    def replay(self) -> None:
        """The 300-hand record: its outline, and its last hand's frames."""
        self.request("replay the long record", "POST", "/api/replay", self.record)
        self.request("replay the long record", "POST", f"/api/replay?hand={self.hands}",
                     self.record)

    def big_bodies(self) -> None:
        """Three 8-MiB bodies at once."""
        threads = [
            threading.Thread(target=self.request, args=(
                f"8 MiB: {name}", "POST", "/api/replay", body, None, source))
            for (name, body), source in zip(self.big.items(), loopback_sources(3, first=10),
                                            strict=True)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def bad_requests(self) -> None:
        """Every bad table request, a bot named by a list, NULs in paths."""
        for name, body in {**bad_tables(), "deep JSON (100,000 [)": DEEP_TABLE}.items():
            if self.stop.is_set():
                return
            # each from an address of its own, as from many clients: from one, the limit
            # on new tables would refuse them all before they are read
            self.request(f"bad table: {name}", "POST", "/api/tables", body,
                         source=self._next_source(), refused=True)
        source = self._next_source()
        created = self._table("bad requests", {"game": "spades", "bot_pace": 30})
        self.request("a bot named by a list", "POST", f"/api/tables/{created['table']}/seats/1",
                     b'{"do": "bot", "bot": ["rules"]}',
                     {"authorization": f"Bearer {created['host_token']}"}, source, True)
        self.request("a NUL in a table id", "GET", "/api/tables/ab%00cd", source=source,
                     refused=True)
        with open_socket(self.server, "ab%00cd", source) as ws:
            messages, code = until_closed(ws, time.monotonic() + DEADLINE)
        self.count("a NUL in a socket's table id",
                   f"{'+'.join(str(m.get('code')) for m in messages)}, closed {code}")
        time.sleep(0.2)

    def flood(self) -> None:
        """New tables from one address as fast as it can ask."""
        self.request("a flood of new tables", "POST", "/api/tables",
                     b'{"game": "spades", "bot_pace": 30}', source=FLOOD_SOURCE)

    def idle_sockets(self) -> None:
        """200 sockets from four addresses that never say hello, until each is closed."""
        table = self._table("idle sockets", {"game": "spades", "bot_pace": 30})
        with contextlib.ExitStack() as stack:
            sockets = [stack.enter_context(open_socket(self.server, table["table"], source))
                       for source in loopback_sources(4, first=40) for _ in range(50)]
            deadline = time.monotonic() + DEADLINE
            for ws in sockets:
                try:
                    messages, code = until_closed(ws, deadline)
                    said = "+".join(str(m.get("code")) for m in messages)
                    self.count("a socket that never says hello", f"{said}, closed {code}")
                except TimeoutError:
                    self.count("a socket that never says hello", "still open", defect=True)

    def surrogates(self) -> None:
        """Lone surrogates over a person's socket, then a ping."""
        table = self._table("surrogates", {"game": "spades", "bot_pace": 30, "seats": {
            "0": "person", "1": "rules", "2": "rules", "3": "rules"}})
        with open_socket(self.server, table["table"], "127.0.5.2") as ws:
            say_hello(ws, table["invites"]["0"]["token"], "Surrogate")
            deadline = time.monotonic() + DEADLINE
            view = until(ws, deadline, "view")
            while view["status"] != "playing":
                view = until(ws, deadline, "view")
            for name, text in SURROGATE_MESSAGES.items():
                if self.stop.is_set():
                    break
                kind = f"a lone surrogate in {name}"
                try:
                    ws.send(text % view["seq"])
                    answer = receive(ws, time.monotonic() + DEADLINE)
                    ws.send('{"type":"ping"}')
                    until(ws, time.monotonic() + DEADLINE, "pong")
                    self.count(kind, f"{answer.get('type')} {answer.get('code')}, then pong")
                except ConnectionClosed as e:
                    self.count(kind, f"closed {e.rcvd.code if e.rcvd else None}",
                               defect=e.rcvd is None)
                    break
                except TimeoutError:
                    self.count(kind, "no answer", defect=True)
                    break
                time.sleep(0.2)

    def bots_only(self) -> None:
        """Four tables of four bots asked to play at pace 0; their moves are counted."""
        tables = [self._table(f"bots only {i}",
                              {"game": "spades", "bot_pace": 0, "seats": BOTS_ONLY})
                  for i in range(4)]
        began = time.monotonic()
        while not self.stop.is_set():
            time.sleep(0.2)
        seconds = time.monotonic() - began
        for table in tables:
            seq = self.server.get(f"/api/tables/{table['table']}")["seq"]
            # the server paces such a table at 0.2 s a move at least: 5 a second at most
            self.count("a bot-only table at pace 0", f"{seq / seconds:.1f} moves a second",
                       defect=seq / seconds > 6)

    def _table(self, name: str, body: dict[str, Any]) -> dict[str, Any]:
        """The abuse's own table ``name``, made once (from an address of its own, so that
        the flood's limit is not its)."""
        with self.lock:
            table = self.tables.get(name)
        if table is not None:
            return table
        status, answer = self.server.request(
            "POST", "/api/tables", json.dumps(body).encode(),
            source=loopback_sources(1, first=500 + len(self.tables))[0])
        if status != 201:
            raise RuntimeError(f"a table could not be made: {status} {answer}")
        assert isinstance(answer, dict)
        with self.lock:
            self.tables[name] = answer
        return answer

    def _next_source(self) -> str:
        with self.lock:
            self.sources += 1
            return loopback_sources(1, first=1000 + self.sources % 20_000)[0]

    def end_tables(self) -> None:
        for table in self.tables.values():
            end(self.server, table)


# --- the run -----------------------------------------------------------------------------------


class Sampler:
    """The server's resident memory, sampled every 0.1 s, per phase."""

    def __init__(self, server: Server, phase: Callable[[], str],
                 stop: threading.Event) -> None:
        self.server, self.phase, self.stop = server, phase, stop
        self.rss: dict[str, list[int]] = {}

    def run(self) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(OSError, RuntimeError):
                self.rss.setdefault(self.phase(), []).append(self.server.rss_bytes())
            time.sleep(0.1)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=6, help="ordinary tables (at most 25)")
    parser.add_argument("--seconds", type=float, default=15, help="seconds of each phase")
    parser.add_argument("--pace", type=float, default=0.5,
                        help="the ordinary tables' bots' pace, seconds")
    parser.add_argument("--hello-timeout", type=float, default=2.0,
                        help="the server's hello timeout, seconds (its default is 10)")
    kinds = ("replay", "big-bodies", "bad-requests", "flood", "idle-sockets", "surrogates",
             "bots-only")
    parser.add_argument("--abuse", nargs="+", choices=kinds, default=list(kinds),
                        metavar="KIND", help="the kinds of abuse sent (default: all): "
                        + ", ".join(kinds))
    args = parser.parse_args()
    if not 1 <= args.tables <= 25:
        parser.error("--tables is from 1 to 25 (two sockets each from one address)")
    console = Console()
    folder = Path(tempfile.mkdtemp(prefix="tricktable-abuse-"))
    server = Server(f"sqlite:///{folder / 'abuse.db'}", log=folder / "server.log",
                    env={"TRICKTABLE_HELLO_TIMEOUT": f"{args.hello_timeout:g}"})
    server.start()
    phase_now = ["setup"]
    stop_all, stop_abuse = threading.Event(), threading.Event()
    threads: list[threading.Thread] = []
    abusers: list[threading.Thread] = []

    def spawn(target: Callable[[], None]) -> None:
        thread = threading.Thread(target=target, daemon=True)
        thread.start()
        threads.append(thread)

    try:
        console.print(f"server on port {server.port}, log {folder / 'server.log'}; "
                      "making the long record and the 8-MiB bodies ...")
        abuse = Abuse(server, stop_abuse)
        pingers, people = [], []
        for i in range(args.tables):
            # each from an address of its own, as its host would be
            created = create(server, {
                "game": "spades", "seed": f"ordinary/{i}", "bot_pace": args.pace,
                "seats": {"0": "person", "1": "rules", "2": "rules", "3": "rules"},
            }, source=loopback_sources(1, first=200 + i)[0])
            person = SeatClient(server, created["table"], created["invites"]["0"]["token"],
                                f"Person {i}", rules_choice)
            person.start()
            people.append(person)
            pinger = Pinger(server, created, lambda: phase_now[0], stop_all)
            spawn(pinger.run)
            pingers.append(pinger)
        sampler = Sampler(server, lambda: phase_now[0], stop_all)
        spawn(sampler.run)
        cpu: dict[str, float] = {}
        for phase in ("before", "during", "after"):
            console.print(f"{phase}: {args.seconds:g} s")
            if phase == "during":
                for name, work in abuse.workers().items():
                    if name in args.abuse:
                        abusers.append(threading.Thread(
                            target=abuse.forever, args=(work,), daemon=True))
                        abusers[-1].start()
            if phase == "after":
                # the abuse's requests under way are let finish: "after" is the calm
                stop_abuse.set()
                for thread in abusers:
                    thread.join(2 * DEADLINE)
            phase_now[0] = phase
            cpu_from, wall_from = server.cpu_seconds(), time.monotonic()
            time.sleep(args.seconds)
            cpu[phase] = (server.cpu_seconds() - cpu_from) / (time.monotonic() - wall_from)
        phase_now[0] = "done"
        alive_at_end = server.process is not None and server.process.poll() is None
        stop_abuse.set()
        stop_all.set()
        for person in people:
            person.stop()
        for thread in threads:
            thread.join(DEADLINE + 5)
        abuse.end_tables()
    finally:
        server.stop()
    log = (folder / "server.log").read_text(errors="replace")
    report(console, args, pingers, sampler, cpu, abuse, alive_at_end, log)


def report(console: Console, args: argparse.Namespace, pingers: list[Pinger],
           sampler: Sampler, cpu: dict[str, float], abuse: Abuse, alive_at_end: bool,
           log: str) -> None:
    table = RichTable(title=f"{args.tables} ordinary tables' ping round trip, "
                            f"{args.seconds:g} s a phase")
    for column in ("phase", "pings", "lost", "p50 ms", "p99 ms", "worst ms",
                   "server CPU", "RSS peak MB", "RSS at end MB"):
        table.add_column(column, justify="left" if column == "phase" else "right")
    p99: dict[str, float] = {}
    for phase in ("before", "during", "after"):
        trips = [t for p in pingers for t in p.trips.get(phase, [])]
        lost = sum(p.lost[phase] for p in pingers)
        rss = sampler.rss.get(phase, [0])
        p99[phase] = 1000 * percentile(trips, 0.99)
        table.add_row(
            phase, str(len(trips)), str(lost), f"{1000 * percentile(trips, 0.5):.1f}",
            f"{p99[phase]:.1f}", f"{1000 * max(trips, default=float('nan')):.1f}",
            f"{cpu.get(phase, float('nan')):.2f}", f"{max(rss) / 1e6:.0f}",
            f"{rss[-1] / 1e6:.0f}")
    console.print(table)
    answers = RichTable(title="How the abuse was answered")
    answers.add_column("request")
    answers.add_column("answers (how many)")
    answers.add_column("defects", justify="right")
    for kind in sorted(abuse.answers):
        counted = abuse.answers[kind]
        answers.add_row(kind, ", ".join(f"{a} ({n})" for a, n in counted.most_common()),
                        str(abuse.defects[kind]))
    console.print(answers)
    tracebacks = log.count("Traceback")
    defects = sum(abuse.defects.values()) + tracebacks + (not alive_at_end)
    before, during = p99["before"], p99["during"]
    ratio = during / before if before > 0 else float("nan")
    console.print(
        f"During the abuse the other tables' p99 ping round trip was {during:.1f} ms, "
        f"against {before:.1f} ms before it ({ratio:.1f} times); after it, "
        f"{p99['after']:.1f} ms. The server "
        + ("was still serving at the end" if alive_at_end else "had STOPPED")
        + f", logged {tracebacks} traceback(s), and answered "
        + ("every abusive request as it should" if defects == 0 else
           f"{defects} abusive request(s) with a 5xx, an error or not at all")
        + ".")
    rss_peak = max((max(v) for v in sampler.rss.values() if v), default=0)
    print(f"p99_before_ms: {before:.1f}")
    print(f"p99_during_ms: {during:.1f}")
    print(f"rss_peak_mb: {rss_peak / 1e6:.0f}")
    print(f"defects: {defects}")


if __name__ == "__main__":
    main()
