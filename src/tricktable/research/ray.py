"""Bot tournaments on a Ray cluster (needs the ``ray`` extra).

The same tournament as ``play.simulate.run`` (the same plan of games and seeds, duplicate
mode included, so the same results), with its batches of whole games run as Ray tasks:
on a local Ray started for the run, or on an existing cluster (``address``, e.g.
``ray://head:10001`` or ``auto``). The outcomes, and the records when asked for, come back
to the driver, which writes the record files itself (a worker on another machine cannot
write in the driver's folder).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import ray

from ..play.simulate import (
    DEFAULT_MAX_HANDS,
    GameOutcome,
    batches,
    play_batch,
    prepare,
    record_name,
)


def run(
    game_name: str,
    options: Mapping[str, Any],
    bots: Sequence[str],
    games: int,
    seed: int | str = 0,
    *,
    workers: int = 2,
    duplicate: bool = False,
    max_hands: int = DEFAULT_MAX_HANDS,
    records_dir: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
    address: str | None = None,
) -> list[GameOutcome]:
    """Play a tournament on Ray and return every game's outcome, in plan order.

    Without ``address`` a local Ray with ``workers`` CPUs is started and stopped again;
    with one, the cluster's CPUs are used (``workers`` only sizes the batches)."""
    opts, specs, directory = prepare(game_name, options, bots, games, seed, duplicate,
                                     records_dir)
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        task = ray.remote(play_batch)
        pending = [
            task.remote(game_name, opts, batch, max_hands, None, directory is not None)
            for batch in batches(specs, workers)
        ]
        outcomes: list[GameOutcome] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                got: list[GameOutcome] = ray.get(ref)
                outcomes.extend(got)
                if progress:
                    progress(len(got))
    except BaseException:
        for ref in locals().get("pending", []):
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
    by_plan = {(s.index, s.rotation): s for s in specs}
    if directory is not None:
        for outcome in outcomes:
            if outcome.record is not None:
                spec = by_plan[(outcome.index, outcome.rotation)]
                (Path(directory) / record_name(game_name, spec)).write_text(outcome.record)
    outcomes = [_without_record(o) for o in outcomes]
    outcomes.sort(key=lambda o: (o.index, o.rotation))
    return outcomes


def _without_record(outcome: GameOutcome) -> GameOutcome:
    return replace(outcome, record=None)
