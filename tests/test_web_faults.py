"""The web server under faults (issue 39): PostgreSQL stopped and started, a commit held
by a lock, and ``kill -9``s of the server, at seeded random moments while tables of five
games play (people on real sockets, bots, and a table of bots alone). After it the server
starts, every table's log replays to what its players were shown, no acknowledged move
is lost, nothing was told before it was committed, and every table moves again.

The scenario is ``tests/web_faults.py`` (its docstring lists the checks);
``benchmarks/web_faults.py`` runs it for minutes. It needs a PostgreSQL cluster of its
own (it stops and starts it), made here from the machine's ``initdb``; without one it
skips, unless ``TRICKTABLE_REQUIRE_POSTGRES=1`` or ``CI=true``, where it fails.
``TRICKTABLE_FAULT_SECONDS`` (default 60) is how long the faults go on;
``TRICKTABLE_FAULT_SEED`` picks other moments.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from conftest import own_postgres_cluster
from tricktable.web.store import Store
from web_faults import FaultScenario, compare_with_log, new_database, summary_in_words
from web_helpers import client_for, create, play_game, sqlite_url

SECONDS = float(os.environ.get("TRICKTABLE_FAULT_SECONDS", "60"))
SEED = int(os.environ.get("TRICKTABLE_FAULT_SEED", "39"))


def _no_postgres(reason: str) -> NoReturn:
    if os.environ.get("TRICKTABLE_REQUIRE_POSTGRES") == "1" or os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (PostgreSQL is required here: TRICKTABLE_REQUIRE_POSTGRES=1 "
                    "or CI=true)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def fault_cluster() -> Iterator[Any]:
    """A PostgreSQL cluster of this test's own, which it may stop and start."""
    if importlib.util.find_spec("psycopg") is None:
        _no_postgres("the fault test needs psycopg, which is not installed")
    # not under pytest's own folder: that is private to this user, and the cluster may
    # run as the postgres user
    folder = Path(tempfile.mkdtemp(prefix="tricktable-faults-"))
    try:
        cluster = own_postgres_cluster(folder)
    except (RuntimeError, OSError) as e:
        missing = str(e)
    else:
        missing = ""
    if missing:
        shutil.rmtree(folder, ignore_errors=True)
        _no_postgres(f"the fault test has no PostgreSQL cluster of its own: {missing}")
    try:
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.timeout(int(SECONDS) + 300)
def test_faults_lose_nothing(fault_cluster: Any, tmp_path: Path) -> None:
    url = new_database(fault_cluster.url, "tricktable_faults")
    log = tmp_path / "server.log"
    report = FaultScenario(fault_cluster, url, SECONDS, SEED, log).run()
    words = summary_in_words(report)
    print(words)
    print("faults: " + "; ".join(report.faults))
    tail = log.read_text(errors="replace").splitlines()[-40:] if log.exists() else []
    assert not report.problems(), (
        words + "\nfaults:\n  " + "\n  ".join(report.faults)
        + "\nthe server's log ends:\n  " + "\n  ".join(tail)
    )
    assert report.outages and report.locks and report.kills >= 2, report.faults
    assert report.acknowledged > 0, "no move was shown to anybody"


def test_the_log_check_finds_a_lost_move(tmp_path: Path) -> None:
    """The check the fault test relies on: the views of a game played in full match its
    log; with an action gone from the middle of the log (the next one stored in its
    place, as the defect did) or the log's end gone, the views shown no longer do."""
    url = sqlite_url(tmp_path)
    with client_for(url) as client:
        created = create(client, game="paperless-spades", options={"limit": 2},
                         seats={"0": "person", "1": "rules", "2": "rules", "3": "rules"})
        players = play_game(client, created)
    views = [m for p in players.values() for m in p.messages if m["type"] == "view"]
    store = Store(url)
    data = store.load(created["table"])
    store.close()
    assert data is not None
    shown, problems = compare_with_log(data, views)
    assert problems == []
    assert shown == sum(1 for e in data.events if e[1] in ("deal", "action"))

    actions = [i for i, e in enumerate(data.events) if e[1] == "action"]
    gone = actions[len(actions) // 2]
    skipped = [*data.events[:gone], *((n - 1, k, t, a) for n, k, t, a in data.events[gone + 1:])]
    _, problems = compare_with_log(dataclasses.replace(data, events=skipped), views)
    assert problems, "an action missing from the middle of the log went unnoticed"

    _, problems = compare_with_log(dataclasses.replace(data, events=data.events[:-3]), views)
    assert any("the log holds only" in p for p in problems), problems


def test_a_table_keeps_its_one_owner_across_a_database_restart(fault_cluster: Any) -> None:
    """Several servers share a PostgreSQL database, each table owned by one through its
    lease. A restart of the database ends every connection: the owner renews its leases
    when the database is back and its tables carry on; another server asked for a table
    gets it only by hand-over, after which the first writes nothing more to it."""
    from sqlalchemy import select

    from tricktable.web.store import TableRow
    from web_process import Server

    url = new_database(fault_cluster.url, "tricktable_leases")
    first, second = Server(url), Server(url)
    first.start()
    second.start()
    try:
        created = first.post("/api/tables", {
            "game": "spades", "options": {"target": 10000}, "bot_pace": 0.2,
            "seats": {str(s): "rules" for s in range(4)}})
        table = created["table"]

        def seq(server: Server) -> int:
            status, body = server.request("GET", f"/api/tables/{table}")
            return int(body["seq"]) if status == 200 else -1

        def owner() -> tuple[str | None, int]:
            store = Store(url)
            try:
                with store.session() as s:
                    row = s.execute(select(TableRow.lease_owner, TableRow.lease_epoch)
                                    .where(TableRow.id == table)).one()
                return row[0], int(row[1])
            finally:
                store.close()

        def waits_for(what: str, condition: Any) -> None:
            deadline = time.monotonic() + 60
            while not condition():
                assert time.monotonic() < deadline, f"never: {what}"
                time.sleep(0.1)

        waits_for("the bots playing", lambda: seq(first) >= 5)
        held_by, epoch = owner()
        assert held_by is not None and held_by.endswith(f":{first.port}")
        fault_cluster.pause()
        fault_cluster.resume()
        moved_on = seq(first)
        waits_for("the bots playing after the restart", lambda: seq(first) > moved_on + 3)
        assert owner() == (held_by, epoch)  # nobody took it meanwhile
        # the second server is asked: it says the table is moving, then has it
        waits_for("the hand-over", lambda: seq(second) >= 0)
        now_held_by, now_epoch = owner()
        assert now_held_by is not None and now_held_by.endswith(f":{second.port}")
        assert now_epoch > epoch
        waits_for("the bots playing at the second", lambda: seq(second) > moved_on + 10)
    finally:
        first.stop()
        second.stop()
