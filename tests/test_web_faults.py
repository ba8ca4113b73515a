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


def test_one_server_stays_one_across_a_database_restart(fault_cluster: Any) -> None:
    """The one-server lock lives on a PostgreSQL connection, which a restart ends: the
    server takes it again when the database is back, and if a second server was quicker,
    the first stops. Never two serving at once."""
    import subprocess
    import sys

    from web_process import Server, free_port

    url = new_database(fault_cluster.url, "tricktable_one")
    first = Server(url)
    first.start()
    try:
        fault_cluster.pause()
        fault_cluster.resume()
        second = subprocess.Popen(
            [sys.executable, "-m", "tricktable", "serve", "--port", str(free_port()),
             "--db", url], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            # whichever took the lock, within a few seconds exactly one is left serving
            deadline = time.monotonic() + 60
            while True:
                alive = [p for p in (first.process, second) if p is not None and
                         p.poll() is None]
                if len(alive) == 1:
                    break
                assert time.monotonic() < deadline, "two servers serve one database"
                time.sleep(0.1)
            # and the one left is really the only one: a third is refused
            third = subprocess.run(
                [sys.executable, "-m", "tricktable", "serve", "--port", str(free_port()),
                 "--db", url], capture_output=True, text=True, timeout=120)
            assert third.returncode == 2 and "another tricktable server" in third.stderr
        finally:
            if second.poll() is None:
                second.terminate()
                second.wait(10)
    finally:
        first.stop()
