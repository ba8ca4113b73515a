"""Shared fixtures: a database of each kind the stores support.

``database_url`` is parametrized over SQLite (a file in the test's folder) and PostgreSQL.
PostgreSQL is found, in order, at ``$TRICKTABLE_TEST_POSTGRES`` (a URL of a server where
the user may create databases; ``.ci/run`` starts one), or started here from the
machine's own ``initdb`` in a temporary folder on a free port. Each test gets a fresh
database, dropped afterwards. Where neither works, the PostgreSQL cases skip and say why.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

POSTGRES_ENV = "TRICKTABLE_TEST_POSTGRES"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _postgres_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


class _Cluster:
    """A throwaway PostgreSQL cluster (trust authentication, loopback only)."""

    def __init__(self, folder: Path) -> None:
        initdb, pg_ctl = _postgres_bin("initdb"), _postgres_bin("pg_ctl")
        if not initdb or not pg_ctl:
            raise RuntimeError("no PostgreSQL server programs (initdb, pg_ctl) on this machine")
        self.pg_ctl = pg_ctl
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            # PostgreSQL refuses to run as root: run it as the postgres user
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root and there is no postgres user") from None
            self.prefix = ["runuser", "-u", "postgres", "--"]
            shutil.chown(folder, "postgres")
        self.data = folder / "data"
        self.port = _free_port()
        subprocess.run([*self.prefix, initdb, "-D", str(self.data), "-A", "trust", "-U",
                        "postgres", "--no-sync"], check=True, capture_output=True)
        options = f"-p {self.port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run([*self.prefix, pg_ctl, "-D", str(self.data), "-o", options, "-w",
                        "-l", str(folder / "log"), "start"], check=True, capture_output=True)
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        self.options = options
        self.log = folder / "log"

    def stop(self) -> None:
        subprocess.run([*self.prefix, self.pg_ctl, "-D", str(self.data), "-m", "immediate",
                        "stop"], capture_output=True)

    def pause(self, mode: str = "fast") -> None:
        """Stop the server and keep its data (the fault test's outage). ``mode`` is
        pg_ctl's: "fast" disconnects the clients and shuts down cleanly, "immediate" as
        if the server had crashed (recovery at the next start)."""
        subprocess.run([*self.prefix, self.pg_ctl, "-D", str(self.data), "-m", mode, "-w",
                        "stop"], check=True, capture_output=True)

    def resume(self) -> None:
        """Start the server again on the same port and data, after ``pause``."""
        subprocess.run([*self.prefix, self.pg_ctl, "-D", str(self.data), "-o", self.options,
                        "-w", "-l", str(self.log), "start"], check=True, capture_output=True)


def own_postgres_cluster(folder: Path) -> _Cluster:
    """A PostgreSQL cluster of the caller's own, in ``folder`` (readable by the postgres
    user): for a test that stops and starts its server. Raises RuntimeError saying why
    there is none (no programs, no postgres user for root, initdb or pg_ctl failed)."""
    try:
        return _Cluster(folder)
    except subprocess.CalledProcessError as e:
        detail = (e.stderr or b"").decode(errors="replace").strip()[:300]
        raise RuntimeError(f"making a PostgreSQL cluster failed (exit status "
                           f"{e.returncode}): {detail}") from None


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a PostgreSQL server's maintenance database, or a skip saying why."""
    pytest.importorskip("psycopg", reason="psycopg is not installed")
    url = os.environ.get(POSTGRES_ENV)
    if url:
        yield url
        return
    # not under pytest's own folder: that is private to this user, and the server may
    # run as the postgres user
    folder = Path(tempfile.mkdtemp(prefix="tricktable-pg-"))
    try:
        cluster = _Cluster(folder)
    except (RuntimeError, OSError, subprocess.CalledProcessError) as e:
        detail = getattr(e, "stderr", b"") or b""
        pytest.skip(f"no PostgreSQL server: {e} {detail.decode(errors='replace')[:200]}"
                    f" (set {POSTGRES_ENV} to a server's URL)")
    try:
        yield cluster.url
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _fresh_postgres_database(server_url: str) -> tuple[str, str]:
    """(URL of a new empty database, its name)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"tricktable_test_{uuid.uuid4().hex[:12]}"
    engine = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return make_url(server_url).set(database=name).render_as_string(hide_password=False), name


def _drop_postgres_database(server_url: str, name: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each supported kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.db'}"
        return
    server = request.getfixturevalue("postgres_server")
    url, name = _fresh_postgres_database(server)
    try:
        yield url
    finally:
        _drop_postgres_database(server, name)


# --- the fixtures the browser test files share ---------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A real ``tricktable serve`` on a SQLite file of its own, for one test file."""
    from web_process import Server

    s = Server(f"sqlite:///{tmp_path_factory.mktemp('browser') / 'tables.db'}")
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium through Playwright, for one test file."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        from browser import launch

        b = launch(p)
        yield b
        b.close()
