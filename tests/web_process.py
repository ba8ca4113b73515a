"""A real server in its own process (``tricktable serve``), and clients over real sockets
that reconnect by themselves: for the restart test and the load benchmark's checks."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``tricktable serve`` on a port of loopback, started and killed at will."""

    def __init__(self, db_url: str, port: int | None = None,
                 env: dict[str, str] | None = None, log: Path | None = None) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.env = dict(env or {})
        """Extra environment variables of the server (``TRICKTABLE_HELLO_TIMEOUT``, ...)."""
        self.log = log
        """A file that takes the server's standard error (appended to). Without one it goes
        to a pipe read only if the server stops at start: a server that logs much (a
        traceback per bad request) would fill the pipe and stall."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        log_file = None if self.log is None else open(self.log, "ab")  # noqa: SIM115
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tricktable", "serve", "--port", str(self.port),
                 "--db", self.db_url],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE if log_file is None else log_file, env=env,
            )
        finally:
            if log_file is not None:
                log_file.close()  # the server holds its own copy
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                if self.log is not None:
                    err = self.log.read_text(errors="replace")
                else:
                    err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"the server stopped at start: {err}")
            try:
                self.get("/api/games")
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """kill -9: no clean-up of any kind."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def get(self, path: str, token: str | None = None) -> Any:
        request = urllib.request.Request(self.base + path)
        if token:
            request.add_header("authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=5) as r:
            body = r.read().decode()
        return json.loads(body)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), method="POST",
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=5) as r:
            return json.loads(r.read().decode())

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def rss_bytes(self) -> int:
        """The server process's resident memory now (VmRSS of /proc/PID/status)."""
        return proc_rss_bytes(self.pid)

    def peak_rss_bytes(self) -> int:
        """The most resident memory the server process has had since it started (VmHWM)."""
        return proc_status_bytes(self.pid, "VmHWM")

    def cpu_seconds(self) -> float:
        """User plus system CPU time the server process has used so far."""
        return proc_cpu_seconds(self.pid)

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None, timeout: float = 30.0,
                source: str | None = None) -> tuple[int, Any]:
        """Any request, bytes as they are (odd paths and bodies included), over
        http.client: the status and the answer's JSON (its text when it is not JSON).
        ``timeout`` bounds each wait on the socket, so a server that hangs fails;
        ``source`` is the client's own address on loopback (127.0.0.2, ...), to come from
        another address than 127.0.0.1."""
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=timeout,
            source_address=None if source is None else (source, 0))
        try:
            connection.putrequest(method, path, skip_accept_encoding=True)
            sent = {"content-type": "application/json", **(headers or {})}
            if body is not None:
                sent.setdefault("content-length", str(len(body)))
            for name, value in sent.items():
                connection.putheader(name, value)
            connection.endheaders()
            if body:
                connection.send(body)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
        finally:
            connection.close()
        try:
            return response.status, json.loads(text)
        except ValueError:
            return response.status, text


def proc_rss_bytes(pid: int) -> int:
    """A process's resident memory (VmRSS of /proc/PID/status, Linux)."""
    return proc_status_bytes(pid, "VmRSS")


def proc_status_bytes(pid: int, key: str) -> int:
    """A memory figure of /proc/PID/status (VmRSS, VmHWM, ...) in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {key} for process {pid}")


def proc_cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process (/proc/PID/stat, Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


Chooser = Callable[[dict[str, Any]], "str | None"]


@dataclass
class SeatClient:
    """A person at a seat over a real socket: reconnects by itself whenever the socket
    drops (as the browser client does), says hello again, and plays ``chooser``'s choice
    on every view that asks it something, until the game is over (or ``stop``).

    An action refused for speed ("rate") or because the table could not store it
    ("not-stored": the database is away) is sent again after a short wait."""

    server: Server
    table: str
    token: str
    name: str
    chooser: Chooser
    person: str | None = None
    """At a league group's table: the member's person key, sent in hello (the seat then
    takes the member's own name; ``name`` is not used)."""
    views: list[dict[str, Any]] = field(default_factory=list)
    others: list[dict[str, Any]] = field(default_factory=list)
    """Every message that is not a view (welcomes, refusals)."""
    connections: int = 0
    error: BaseException | None = None
    drops: list[float] = field(default_factory=list)
    """When (``time.monotonic()``) a socket closed before the game was over, by the
    server or the network: not by ``stop``."""
    _stopping: threading.Event = field(default_factory=threading.Event, repr=False)
    _socket: Any = field(default=None, repr=False)

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self._run, daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        """Leave the table: close the socket and reconnect no more."""
        self._stopping.set()
        ws = self._socket
        if ws is not None:
            ws.close()

    def _run(self, patience: float = 60.0) -> None:
        try:
            while not self._stopping.is_set():
                if self._session(patience):
                    return
                time.sleep(0.1)
        except BaseException as e:  # handed to the test
            self.error = e

    def _session(self, patience: float) -> bool:
        """One connection; True when the game is over."""
        deadline = time.monotonic() + patience
        while True:
            if self._stopping.is_set():
                return True
            try:
                ws = connect(f"ws://127.0.0.1:{self.server.port}/ws/{self.table}",
                             open_timeout=2)
                break
            except (OSError, WebSocketException):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        self.connections += 1
        self._socket = ws
        if self._stopping.is_set():  # stopped while connecting
            ws.close()
        with ws:
            pending: str | None = None
            pending_seq = seen_seq = -1
            try:
                hello = {"type": "hello", "token": self.token, "name": self.name}
                if self.person is not None:
                    hello["person"] = self.person
                ws.send(json.dumps(hello))
                while True:
                    m = json.loads(ws.recv())
                    if m["type"] != "view":
                        self.others.append(m)
                        if m.get("code") == "rate" and pending is not None:
                            # dropped for speed: wait a little and send it again (a
                            # stale resend is refused harmlessly)
                            time.sleep(0.2)
                            ws.send(pending)
                        elif (m.get("code") == "not-stored" and pending is not None
                              and pending_seq == seen_seq):
                            # the database is away and the table is where it was: try
                            # again in a while (a newer view brings its own choice)
                            time.sleep(0.3)
                            ws.send(pending)
                        continue
                    self.views.append(m)
                    seen_seq = m["seq"]
                    if m["status"] == "over":
                        return True
                    if m["legal"] and m["status"] == "playing":
                        choice = self.chooser(m)
                        if choice is not None:
                            pending = json.dumps(
                                {"type": "action", "seq": m["seq"], "action": choice})
                            pending_seq = m["seq"]
                            ws.send(pending)
            except ConnectionClosed:
                if not self._stopping.is_set():
                    self.drops.append(time.monotonic())
                return False
