"""Debian's nginx in front of server processes, for the tests and the load benchmark: run
as the current user on a free port of loopback, configured by the shipped
``docs/nginx/tricktable.conf`` itself with the upstream's ports and the listening port
filled in (so the tests prove the file an operator copies)."""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import NoReturn

from web_process import Server, free_port

SHIPPED = Path(__file__).resolve().parents[1] / "docs" / "nginx" / "tricktable.conf"
NGINX = "/usr/sbin/nginx"


def nginx_program() -> str | None:
    """The nginx program: Debian's, else one on the PATH; None without one."""
    if os.access(NGINX, os.X_OK):
        return NGINX
    return shutil.which("nginx")


def required_missing(reason: str) -> NoReturn:
    """Skip a test that needs nginx or PostgreSQL's programs, saying which; fail instead
    where they must be there (``TRICKTABLE_REQUIRE_POSTGRES=1`` or ``CI=true``, set by
    .ci/run, which installs both)."""
    import pytest

    if os.environ.get("TRICKTABLE_REQUIRE_POSTGRES") == "1" or os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (required here: TRICKTABLE_REQUIRE_POSTGRES=1 or CI=true)",
                    pytrace=False)
    pytest.skip(reason)


_UPSTREAM_SERVER = re.compile(r"^(\s*)server\s+[^\s;]+((?:\s+[^;]*)?);\s*$")
_LISTEN = re.compile(r"^(\s*)listen\s+[^;]+;\s*$")


def site_config(upstream_ports: list[int], listen_port: int, text: str | None = None) -> str:
    """The shipped configuration with its upstream's servers on ``upstream_ports`` of
    loopback (each keeping the parameters of the file's first server line) and one
    ``listen`` on ``listen_port`` of loopback."""
    lines = (SHIPPED.read_text() if text is None else text).splitlines()
    out: list[str] = []
    in_upstream = servers_done = listen_done = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("upstream tricktable"):
            in_upstream = True
        elif in_upstream and stripped == "}":
            in_upstream = False
        server = _UPSTREAM_SERVER.match(line) if in_upstream else None
        if server is not None:
            if not servers_done:
                indent, parameters = server.group(1), server.group(2)
                out.extend(f"{indent}server 127.0.0.1:{p}{parameters};" for p in upstream_ports)
                servers_done = True
            continue
        listen = _LISTEN.match(line)
        if listen is not None and not in_upstream:
            if not listen_done:
                out.append(f"{listen.group(1)}listen 127.0.0.1:{listen_port};")
                listen_done = True
            continue
        out.append(line)
    if not (servers_done and listen_done):
        raise RuntimeError(f"{SHIPPED} has no 'upstream tricktable' servers or no 'listen' "
                           "line to fill in")
    return "\n".join(out) + "\n"


class Nginx:
    """nginx on a free port of loopback in front of ``upstream_ports``, in ``folder``
    (its configuration, logs, pid and temporary files)."""

    def __init__(self, upstream_ports: list[int], folder: Path,
                 worker_connections: int = 4096) -> None:
        program = nginx_program()
        if program is None:
            raise RuntimeError("nginx is not installed (Debian: apt-get install nginx)")
        self.program = program
        self.upstream_ports = list(upstream_ports)
        self.folder = folder
        self.port = free_port()
        self.worker_connections = worker_connections
        self.process: subprocess.Popen[bytes] | None = None
        self.error_log = folder / "error.log"
        self.access_log = folder / "access.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def front(self) -> Server:
        """A handle on nginx with a server's requests (``get``, ``post``, ``request``):
        ``SeatClient``s made with it connect through nginx. It is never started."""
        return Server("", port=self.port)

    def _main_config(self) -> str:
        temp = self.folder / "temp"
        temp.mkdir(exist_ok=True)
        # as root nginx would hand its workers to "nobody", who cannot write this folder
        user = "user root;\n" if os.geteuid() == 0 else ""
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        files = 2 * self.worker_connections + 64
        if hard != resource.RLIM_INFINITY:
            files = min(files, hard)
        temp_paths = "\n".join(
            f"    {kind}_temp_path {temp / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        return (
            f"{user}worker_processes 1;\n"
            f"worker_rlimit_nofile {files};\n"
            f"events {{ worker_connections {self.worker_connections}; }}\n"
            "http {\n"
            "    log_format tricktable_test '$status|$upstream_addr|$request_uri';\n"
            f"    access_log {self.access_log} tricktable_test;\n"
            f"{temp_paths}\n"
            f"    include {self.folder / 'tricktable.conf'};\n"
            "}\n"
        )

    def start(self, timeout: float = 20.0) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "tricktable.conf").write_text(
            site_config(self.upstream_ports, self.port))
        main = self.folder / "nginx.conf"
        main.write_text(self._main_config())
        self.process = subprocess.Popen(
            [self.program, "-e", str(self.error_log), "-p", str(self.folder), "-c", str(main),
             "-g", f"daemon off; pid {self.folder / 'nginx.pid'}; "
                   f"error_log {self.error_log};"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx stopped at start: {self.errors()}")
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"nginx did not listen on port {self.port}: {self.errors()}")

    def errors(self) -> str:
        """The end of nginx's error log."""
        try:
            return " | ".join(self.error_log.read_text(errors="replace").splitlines()[-8:])
        except OSError:
            return "(no error log)"

    def requests(self) -> list[tuple[int, str, str]]:
        """(status, upstream addresses, path) of each request nginx has logged."""
        out = []
        try:
            text = self.access_log.read_text(errors="replace")
        except OSError:
            return []
        for line in text.splitlines():
            status, upstream, path = line.split("|", 2)
            out.append((int(status), upstream, path))
        return out

    def stop(self) -> None:
        """A fast stop (SIGTERM: open sockets are cut)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
