"""SQLite is served by one process: a second `tricktable serve` on the same file is refused
in one line, exit status 2, and the first goes on serving. PostgreSQL takes several
processes, each table owned by one of them through its lease: a table is served by
whichever process the requests reach, the other hands it over."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from web_process import Server, free_port


def test_a_second_server_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"
    first = Server(url)
    first.start()
    try:
        second = subprocess.run(
            [sys.executable, "-m", "tricktable", "serve", "--port", str(free_port()),
             "--db", url],
            capture_output=True, text=True, timeout=120,
        )
        assert second.returncode == 2
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and "another tricktable server" in lines[0], second.stderr
        assert "several need PostgreSQL" in lines[0]
        assert "Traceback" not in second.stderr
        assert first.get("/api/games")["games"]  # the first is still serving
    finally:
        first.stop()
    # once the first has stopped, the database can be served again
    again = Server(url)
    again.start()
    again.stop()


def test_two_servers_on_postgresql_hand_a_table_to_the_one_asked(
        postgres_server: object) -> None:
    from conftest import _drop_postgres_database, _fresh_postgres_database

    url, name = _fresh_postgres_database(postgres_server)
    first, second = Server(url), Server(url)
    first.start()
    second.start()
    try:
        created = first.post("/api/tables", {"game": "spades", "seats": {"0": "person"}})
        table = created["table"]
        assert first.get(f"/api/tables/{table}")["table"] == table
        # the second is asked: it is told the table is moving, and has it a moment later
        deadline = time.monotonic() + 30
        while True:
            status, body = second.request("GET", f"/api/tables/{table}")
            if status == 200:
                break
            assert status == 503 and body["error"] == "moving", body
            assert time.monotonic() < deadline, "the table never moved"
            time.sleep(0.2)
        assert body["table"] == table
    finally:
        first.stop()
        second.stop()
        _drop_postgres_database(postgres_server, name)
