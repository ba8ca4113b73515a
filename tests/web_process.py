"""A real server in its own process (``tricktable serve``), and clients over real sockets
that reconnect by themselves: for the restart test and the load benchmark's checks."""

from __future__ import annotations

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
from typing import Any

from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``tricktable serve`` on a port of loopback, started and killed at will."""

    def __init__(self, db_url: str, port: int | None = None) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tricktable", "serve", "--port", str(self.port),
             "--db", self.db_url],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
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


Chooser = Callable[[dict[str, Any]], "str | None"]


@dataclass
class SeatClient:
    """A person at a seat over a real socket: reconnects by itself whenever the socket
    drops (as the browser client does), says hello again, and plays ``chooser``'s choice
    on every view that asks it something, until the game is over."""

    server: Server
    table: str
    token: str
    name: str
    chooser: Chooser
    views: list[dict[str, Any]] = field(default_factory=list)
    others: list[dict[str, Any]] = field(default_factory=list)
    """Every message that is not a view (welcomes, refusals)."""
    connections: int = 0
    error: BaseException | None = None

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self._run, daemon=True)
        thread.start()
        return thread

    def _run(self, patience: float = 60.0) -> None:
        try:
            while True:
                if self._session(patience):
                    return
                time.sleep(0.1)
        except BaseException as e:  # handed to the test
            self.error = e

    def _session(self, patience: float) -> bool:
        """One connection; True when the game is over."""
        deadline = time.monotonic() + patience
        while True:
            try:
                ws = connect(f"ws://127.0.0.1:{self.server.port}/ws/{self.table}",
                             open_timeout=2)
                break
            except (OSError, WebSocketException):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        self.connections += 1
        with ws:
            ws.send(json.dumps({"type": "hello", "token": self.token, "name": self.name}))
            pending: str | None = None
            try:
                while True:
                    m = json.loads(ws.recv())
                    if m["type"] != "view":
                        self.others.append(m)
                        if m.get("code") == "rate" and pending is not None:
                            # dropped for speed: wait a little and send it again (a
                            # stale resend is refused harmlessly)
                            time.sleep(0.2)
                            ws.send(pending)
                        continue
                    self.views.append(m)
                    if m["status"] == "over":
                        return True
                    if m["legal"] and m["status"] == "playing":
                        choice = self.chooser(m)
                        if choice is not None:
                            pending = json.dumps(
                                {"type": "action", "seq": m["seq"], "action": choice})
                            ws.send(pending)
            except ConnectionClosed:
                return False
