"""``tricktable serve --workers N``: N server processes on one PostgreSQL database.

A small supervisor: it checks the database (and migrates it, once, before any worker
opens it) and the ports, starts ``python -m tricktable serve`` on ports PORT..PORT+N-1,
each a separate Python process (one core each: the interpreter's lock), says where each
listens and the nginx upstream lines that route to them (docs/nginx/tricktable.conf),
starts again a worker that ends (after 1 s, doubling to 30 s while it keeps ending at
once), and stops them all on SIGTERM or SIGINT. A table lives in one process at a time;
the processes hand tables over through leases in the database (docs/deployment.md).

SQLite is one process's database: several workers on it are refused in one line.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from types import FrameType
from typing import IO

from ..play.paths import DATABASE_VARIABLE
from .server import ServeError, _check_address, _shown, open_store
from .store import default_url

MAX_WORKERS = 64
"""More processes than cores only adds switching; 64 is far beyond any one machine's need."""
RESTART_FIRST = 1.0
"""Seconds before a worker that ended is started again, doubled at each quick end..."""
RESTART_MOST = 30.0
"""...up to this."""
RESTART_RESET = 60.0
"""A worker that served this long before it ended is started again after RESTART_FIRST."""
STOP_GRACE = 10.0
"""Seconds the workers have to stop after SIGTERM before they are killed."""
LOOK_EVERY = 0.2
"""Seconds between two looks at the workers."""
FAIL_TIMEOUT = 10
"""nginx's fail_timeout in the printed upstream lines: how long a process that refused a
connection is left out (a worker started again is back well within it)."""


def is_sqlite(url: str) -> bool:
    return url.split(":", 1)[0].split("+", 1)[0].lower() == "sqlite"


def check_workers(workers: int, port: int, url: str) -> None:
    """ServeError in one line if ``workers`` processes cannot run on ``url`` from
    ``port`` on."""
    if not 1 <= workers <= MAX_WORKERS:
        raise ServeError(f"--workers {workers}: between 1 and {MAX_WORKERS} processes")
    if workers > 1 and is_sqlite(url):
        raise ServeError(
            f"--workers {workers}: SQLite is one process's database; several workers need "
            "PostgreSQL (--db postgresql+psycopg://USER:PASS@HOST/DB)")
    if port + workers - 1 > 65535:
        raise ServeError(f"--workers {workers} from --port {port}: the ports would go past "
                         "65535 (use a lower --port)")


def _dialled(host: str) -> str:
    """The address a proxy on this machine dials to reach a server listening on ``host``."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def upstream_lines(host: str, ports: list[int]) -> list[str]:
    """The nginx upstream block that routes to the workers (docs/nginx/tricktable.conf)."""
    return [
        "upstream tricktable {",
        "    hash $tricktable_table consistent;",
        *(f"    server {_dialled(host)}:{p} max_fails=1 fail_timeout={FAIL_TIMEOUT}s;"
          for p in ports),
        "}",
    ]


def _say(text: str) -> None:
    print(f"tricktable: {text}", file=sys.stderr, flush=True)


def _how_it_ended(status: int) -> str:
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return f"killed by {name}"
    return f"exit status {status}"


@dataclass
class Worker:
    """One server process on ``port``, and what the supervisor knows of it."""

    number: int
    port: int
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    ready: bool = False
    """It has accepted a connection since it was last started."""
    ever_ready: bool = False
    delay: float = RESTART_FIRST
    restart_at: float | None = None
    relay: threading.Thread | None = field(default=None, repr=False)


class Supervisor:
    """Runs the workers until told to stop (``run``)."""

    def __init__(self, host: str, port: int, workers: int, url: str, think: float | None,
                 open_browser: bool = False) -> None:
        self.host = host
        self.url = url
        self.think = think
        self.open_browser = open_browser
        self.workers = [Worker(i + 1, port + i) for i in range(workers)]
        self.stopping = threading.Event()
        self.announced = False

    # --- starting ----------------------------------------------------------------------------

    def _command(self, worker: Worker) -> list[str]:
        command = [sys.executable, "-m", "tricktable", "serve", "--host", self.host,
                   "--port", str(worker.port), "--think", str(self.think or 0)]
        if self.open_browser and worker.number == 1 and not worker.ever_ready:
            command.append("--open")
        return command

    def _environment(self, worker: Worker) -> dict[str, str]:
        env = dict(os.environ)
        # the URL goes by the environment, not the command line: its password stays off
        # the process list
        env[DATABASE_VARIABLE] = self.url
        env["PYTHONUNBUFFERED"] = "1"
        # each worker's connections named in PostgreSQL's pg_stat_activity
        env.setdefault("PGAPPNAME", f"tricktable-{worker.port}")
        return env

    def _start(self, worker: Worker) -> None:
        worker.process = subprocess.Popen(
            self._command(worker), env=self._environment(worker), stdin=subprocess.DEVNULL,
            stderr=subprocess.PIPE)
        worker.started = time.monotonic()
        worker.ready = False
        worker.restart_at = None
        assert worker.process.stderr is not None
        worker.relay = threading.Thread(
            target=_relay, args=(worker.process.stderr, f"worker {worker.port}"),
            name=f"tricktable-worker-{worker.port}-log", daemon=True)
        worker.relay.start()

    def _listening(self, worker: Worker) -> bool:
        host = _dialled(self.host).strip("[]")
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.settimeout(1.0)
            try:
                probe.connect((host, worker.port))
            except OSError:
                return False
        return True

    # --- the loop ----------------------------------------------------------------------------

    def run(self) -> int:
        """Start the workers and look after them until SIGTERM or SIGINT: 0 then; 2 when a
        worker could not start the first time (it said why)."""
        previous = {s: signal.signal(s, self._stop) for s in (signal.SIGTERM, signal.SIGINT)}
        try:
            _say(f"{len(self.workers)} server processes on the database {_shown(self.url)}")
            # the first alone until it serves: a process finishes making the schemas (the
            # league's too) as it starts, and two making one at once would collide
            self._start(self.workers[0])
            others_started = False
            while not self.stopping.is_set():
                failed = self._look()
                if failed is not None:
                    _say(f"worker {failed.number} (port {failed.port}) could not start; "
                         "stopping them all")
                    return 2
                if not others_started and self.workers[0].ready:
                    for worker in self.workers[1:]:
                        self._start(worker)
                    others_started = True
                self.stopping.wait(LOOK_EVERY)
            _say("stopping the server processes")
            return 0
        finally:
            self._stop_all()
            for s, handler in previous.items():
                signal.signal(s, handler)

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        self.stopping.set()

    def _look(self) -> Worker | None:
        """Note the workers now serving, start again those due; the worker that ended
        before it ever served, if one did."""
        now = time.monotonic()
        for worker in self.workers:
            process = worker.process
            if process is None:
                if worker.restart_at is not None and now >= worker.restart_at:
                    self._start(worker)
                continue
            status = process.poll()
            if status is None:
                if not worker.ready and self._listening(worker):
                    worker.ready = worker.ever_ready = True
                    if self.announced:
                        _say(f"worker {worker.number} serves again on port {worker.port} "
                             f"(process {process.pid})")
                continue
            if worker.relay is not None:
                worker.relay.join(1.0)  # its last words before this line
            worker.process = None
            if not worker.ever_ready:
                return worker
            served = now - worker.started
            worker.delay = RESTART_FIRST if served >= RESTART_RESET else worker.delay
            _say(f"worker {worker.number} (port {worker.port}) ended ({_how_it_ended(status)}); "
                 f"starting it again in {worker.delay:g} s")
            worker.restart_at = now + worker.delay
            worker.delay = min(worker.delay * 2, RESTART_MOST)
        if not self.announced and all(w.ready for w in self.workers):
            self._announce()
        return None

    def _announce(self) -> None:
        self.announced = True
        for worker in self.workers:
            assert worker.process is not None
            _say(f"worker {worker.number} of {len(self.workers)} serves on "
                 f"http://{_dialled(self.host)}:{worker.port}/ (process {worker.process.pid})")
        _say("put them behind nginx with docs/nginx/tricktable.conf, whose upstream is:")
        for line in upstream_lines(self.host, [w.port for w in self.workers]):
            print(f"    {line}", file=sys.stderr)
        _say("Ctrl-C (or SIGTERM) stops them all")

    def _stop_all(self) -> None:
        running = [w.process for w in self.workers if w.process is not None]
        for process in running:
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + STOP_GRACE
        for process in running:
            try:
                process.wait(max(deadline - time.monotonic(), 0.0))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for worker in self.workers:
            worker.process = None
            if worker.relay is not None:
                worker.relay.join(1.0)


def _relay(stream: IO[bytes], label: str) -> None:
    """A worker's standard error, line by line, on ours with its label."""
    with stream:
        for raw in stream:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            print(f"[{label}] {line}", file=sys.stderr, flush=True)


def serve_workers(host: str, port: int, workers: int, db_url: str | None,
                  open_browser: bool = False, think: float | None = None) -> int:
    """``tricktable serve --workers N`` for N > 1: the exit status (0 after SIGTERM or
    SIGINT). Raises ServeError in one line when it cannot start."""
    url = db_url or default_url()
    check_workers(workers, port, url)
    for n in range(workers):
        _check_address(host, port + n)
    # migrated once here, before any worker opens it (two migrating at once would collide)
    open_store(url).close()
    return Supervisor(host, port, workers, url, think, open_browser).run()
