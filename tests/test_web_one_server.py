"""Until tables are handed between processes by leases, one server process serves a
database: a second `tricktable serve` on it is refused in one line, exit status 2, and the
first goes on serving (SQLite and PostgreSQL)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from web_process import Server, free_port


def test_a_second_server_on_the_same_database_is_refused(database_url: str) -> None:
    first = Server(database_url)
    first.start()
    try:
        second = subprocess.run(
            [sys.executable, "-m", "tricktable", "serve", "--port", str(free_port()),
             "--db", database_url],
            capture_output=True, text=True, timeout=120,
        )
        assert second.returncode == 2
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and "another tricktable server" in lines[0], second.stderr
        assert "Traceback" not in second.stderr
        assert first.get("/api/games")["games"]  # the first is still serving
    finally:
        first.stop()
    # once the first has stopped, the database can be served again
    again = Server(database_url)
    again.start()
    again.stop()
