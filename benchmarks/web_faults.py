"""The web server's fault test for as long as you like: a real server on a PostgreSQL
cluster of its own, tables of five games in play (people on sockets, bots, and a table
of bots alone), PostgreSQL stopped and started, commits held by a lock and ``kill -9``s
of the server at random moments; then everything checked. The scenario and its checks
are the fault test's (``tests/web_faults.py``; ``tests/test_web_faults.py`` runs it for
a minute).

At the end, in words: the tables played, the moves shown to players (each compared with
the stored log), how many were lost (must be 0), the outages, held commits and kills,
anything told before it was committed, tables that did not move again or were set aside.
The exit status is 0 when nothing went wrong, 1 otherwise (the problems are listed).

Run: ``.venv/bin/python benchmarks/web_faults.py --minutes 10 [--seed N]``
(needs the ``web`` and ``test`` extras and PostgreSQL's programs: initdb, pg_ctl).
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from conftest import own_postgres_cluster
from web_faults import FaultReport, FaultScenario, new_database, summary_in_words


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0,
                        help="how long the faults go on (default 10)")
    parser.add_argument("--seed", type=int, default=None,
                        help="the faults' random moments (default: a new one, printed)")
    args = parser.parse_args(argv)
    console = Console()
    if args.minutes <= 0:
        console.print("--minutes is a number of minutes above 0")
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    seconds = args.minutes * 60
    folder = Path(tempfile.mkdtemp(prefix="tricktable-faults-"))
    logs = Path(tempfile.mkdtemp(prefix="tricktable-faults-log-"))
    try:
        cluster = own_postgres_cluster(folder)
    except (RuntimeError, OSError) as e:
        shutil.rmtree(folder, ignore_errors=True)
        console.print(f"no PostgreSQL cluster for the fault run: {e}")
        return 2
    log = logs / "server.log"
    try:
        url = new_database(cluster.url, "tricktable_faults")
        console.print(f"faults for {args.minutes:g} minutes, seed {seed}; the server's log: "
                      f"{log}")
        columns = (TextColumn("{task.description}"), BarColumn(bar_width=20),
                   TimeElapsedColumn(), TextColumn("{task.fields[counts]}"))
        with Progress(*columns, console=console) as progress:
            task = progress.add_task("starting", total=seconds, counts="")

            def show(elapsed: float, note: str, report: FaultReport) -> None:
                progress.update(task, completed=elapsed, description=note[:30].ljust(30),
                                counts=f"{report.tables} tables, {report.outages} outages, "
                                       f"{report.locks} locks, {report.kills} kills")

            report = FaultScenario(cluster, url, seconds, seed, log, show).run()
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
    console.print(summary_in_words(report, args.minutes), markup=False, highlight=False)
    if report.problems():
        console.print("faults: " + "; ".join(report.faults), markup=False, highlight=False)
        console.print(f"the server's log: {log}", markup=False, highlight=False)
        return 1
    shutil.rmtree(logs, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
