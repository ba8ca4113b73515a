"""Kill -9 the server in the middle of a hand and start it again: nothing is lost.

Two identical tables (same seed, same people's choices) are played: one on a server that
runs undisturbed, one on a server killed with SIGKILL twice mid-hand and started again on
the same database. The people's clients reconnect by themselves. Every view a client was
shown before a kill is still the table's past after it (no acknowledged move is lost),
and both games end with the same record: the rebuilt table, its deals and its bots' later
choices are exactly what they would have been.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from tricktable import loads_record
from web_helpers import rules_choice
from web_process import SeatClient, Server

SEATS = {"0": "person", "1": "random", "2": "person", "3": "rules"}  # a random bot: its
# later choices after a restart show that its stream was rebuilt exactly


def _play(server: Server, kills: list[int]) -> tuple[dict[str, Any], list[SeatClient]]:
    """A spades table played by two people and two bots; the server is killed when the
    table passes each view number in ``kills`` and started again."""
    created = server.post("/api/tables", {
        "game": "spades", "options": {"target": 150}, "seats": SEATS, "seed": "restart",
        "bot_pace": 0,
    })
    clients = [
        SeatClient(server, created["table"], created["invites"][s]["token"], f"P{s}",
                   rules_choice)
        for s in ("0", "2")
    ]
    threads = [c.start() for c in clients]
    for at in kills:
        deadline = time.monotonic() + 60
        while max((v["seq"] for c in clients for v in c.views), default=0) < at:
            assert time.monotonic() < deadline, "the game stalled before the kill"
            time.sleep(0.005)
        server.kill()
        shown = {id(c): c.views[-1] for c in clients if c.views}
        server.start()
        # every view shown before the kill is still the table's past: the table is at
        # least there, and what the seat was shown at that number has not changed
        for c in clients:
            last = shown.get(id(c))
            if last is None:
                continue
            deadline = time.monotonic() + 30
            while not [v for v in c.views if v is not last and v["seq"] >= last["seq"]]:
                assert time.monotonic() < deadline, "no view after the restart"
                time.sleep(0.01)
    for t in threads:
        t.join(120)
        assert not t.is_alive(), "the game did not finish"
    for c in clients:
        if c.error is not None:
            raise c.error
    return created, clients


def test_a_killed_server_loses_nothing(tmp_path: Path) -> None:
    calm = Server(f"sqlite:///{tmp_path / 'calm.db'}")
    killed = Server(f"sqlite:///{tmp_path / 'killed.db'}")
    calm.start()
    killed.start()
    try:
        calm_table, _ = _play(calm, [])
        killed_table, clients = _play(killed, [12, 40])
        assert all(c.connections >= 3 for c in clients), "each client reconnected twice"
        # what each seat was shown at a view number is the same before and after a kill
        for c in clients:
            by_seq: dict[int, dict[str, Any]] = {}
            for v in c.views:
                earlier = by_seq.setdefault(v["seq"], v)
                assert earlier["observation"] == v["observation"], v["seq"]
        records = []
        for server, table in ((calm, calm_table), (killed, killed_table)):
            record = loads_record(server_text(server, table))
            records.append(record)
        assert [h.to_json() for h in records[0].hands] == [h.to_json() for h in records[1].hands]
    finally:
        calm.stop()
        killed.stop()


def server_text(server: Server, table: dict[str, Any]) -> str:
    import json
    import urllib.request

    request = urllib.request.Request(
        f"{server.base}/api/tables/{table['table']}/records/0",
        headers={"authorization": f"Bearer {table['spectator']['token']}"},
    )
    with urllib.request.urlopen(request, timeout=5) as r:
        text: str = r.read().decode()
    json.loads(text)
    return text
