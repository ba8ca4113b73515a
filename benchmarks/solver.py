"""The double-dummy solver against DDS (through endplay), one thread each.

The same random bridge positions (four seats, two sides, the strains in turn, a random
leader, no trick in progress) are solved by ours and by DDS at 13, 10 and 8 cards a hand;
each answer is checked equal and timed (wall clock, ``time.perf_counter``; ``--repeat``
rounds over the positions, each solved by ours then DDS, and each position's best time
kept, so that a moment's load on the machine does not decide a median of ten), and the
trick starts each searched are compared (DDS reports them as ``futureTricks.nodes``; ours
are the solver's ``trick_starts``): the size of the trees apart from the cost of a node,
which the time per trick start searched, ours over DDS's, shows. Our
transposition table is emptied before each position, as DDS starts each new deal afresh.
Then 3B positions, which DDS cannot solve: 17 cards a hand with 3 players and 13 with 4
(one seat against the others), absolute times only. The kernel is compiled (or loaded from
numba's cache) before any timing; the time that took is printed first.

The last line is ``ratio: X``, our median over DDS's median at 13 cards.

Run: ``.venv/bin/python benchmarks/solver.py [--n13 N] [--n10 N] [--n8 N] [--threeb N]
[--repeat N]``
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import sys
import time

from endplay import _dds
from endplay.types import Deal, Denom, Player

from tricktable.engine.cards import NO_SUIT
from tricktable.search.position import Position, position_of
from tricktable.search.random_positions import pbn, random_bridge_position, random_play_state
from tricktable.search.solver import Solver

STRAINS = (0, 1, 2, 3, NO_SUIT)


def dds_tricks_and_nodes(pos: Position) -> tuple[int, int]:
    """DDS's tricks for the side on lead, and the trick starts it searched (its
    ``futureTricks.nodes``), through endplay's binding of ``SolveBoard``."""
    deal = Deal(pbn(pos.hands))
    deal.first = Player(pos.to_act)
    deal.trump = Denom(4 if pos.order.trump == NO_SUIT else pos.order.trump)
    fut = _dds.futureTricks()
    _dds.SolveBoard(deal._data, -1, 1, 1, fut, 0)  # best score, one card, reuse nothing
    return fut.score[0], fut.nodes


def leader_side(pos: Position) -> int:
    return 0b0101 if pos.to_act % 2 == 0 else 0b1010


def timed(fn: object, *args: object) -> tuple[int, float]:
    start = time.perf_counter()
    value = fn(*args)  # type: ignore[operator]
    return value, (time.perf_counter() - start) * 1000


def describe(times: list[float]) -> str:
    times = sorted(times)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    return f"median {statistics.median(times):9.2f} ms   p90 {p90:9.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n13", type=int, default=10, help="positions at 13 cards a hand")
    parser.add_argument("--n10", type=int, default=20, help="positions at 10 cards a hand")
    parser.add_argument("--n8", type=int, default=40, help="positions at 8 cards a hand")
    parser.add_argument("--threeb", type=int, default=2, help="3B positions of each kind")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3,
                        help="solves of each position by each solver, the best time kept")
    args = parser.parse_args()
    if min(args.n13, args.n10, args.n8, args.repeat) < 1 or args.threeb < 0:
        parser.error("--n13, --n10, --n8 and --repeat must be at least 1, --threeb at least 0")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    _dds.SetMaxThreads(1)
    print(f"python {platform.python_version()}, {os.cpu_count()} cores (one used), "
          f"load average {os.getloadavg()[0]:.2f}")

    start = time.perf_counter()
    solver = Solver()
    warm = random_bridge_position(random.Random(0), 3, 0)
    solver.tricks(warm, leader_side(warm))
    print(f"kernel ready (compiled or loaded from cache) in {time.perf_counter() - start:.1f} s")

    rng = random.Random(args.seed)
    medians: dict[int, tuple[float, float]] = {}
    for per_hand, count in ((13, args.n13), (10, args.n10), (8, args.n8)):
        starts: list[float] = []  # ours over DDS's trick starts, per position
        start_cost: list[float] = []  # ours over DDS's time per trick start, per position
        positions = [random_bridge_position(rng, per_hand, STRAINS[i % len(STRAINS)])
                     for i in range(count)]
        ours = [math.inf] * count
        theirs = [math.inf] * count
        our_starts = [0] * count  # trick starts searched (the same every round)
        dds_starts = [0] * count
        # round after round over all the positions: DDS keeps its table for a deal solved
        # twice in a row, so the same deal never comes twice in a row (one position: once)
        for _ in range(args.repeat if count > 1 else 1):
            for i, pos in enumerate(positions):
                solver.forget()
                first = solver.trick_starts
                value, ms = timed(solver.tricks, pos, leader_side(pos))
                searched = solver.trick_starts - first
                (expected, dds_nodes), dds_ms = timed(dds_tricks_and_nodes, pos)
                if value != expected:
                    sys.exit(f"MISMATCH at {per_hand} cards: ours {value}, DDS {expected}: "
                             f"{pbn(pos.hands)} trump {pos.order.trump} leader {pos.to_act}")
                ours[i], theirs[i] = min(ours[i], ms), min(theirs[i], dds_ms)
                our_starts[i], dds_starts[i] = searched, dds_nodes
        for i in range(count):
            starts.append(our_starts[i] / max(1, dds_starts[i]))
            start_cost.append((ours[i] / max(1, our_starts[i]))
                              / (theirs[i] / max(1, dds_starts[i])))
        medians[per_hand] = (statistics.median(ours), statistics.median(theirs))
        print(f"{per_hand:2d} cards, {count} positions   ours {describe(ours)}")
        print(f"{'':22s}DDS  {describe(theirs)}")
        print(f"{'':22s}trick starts searched, ours over DDS's: median "
              f"{statistics.median(starts):.1f}, from {min(starts):.1f} to {max(starts):.1f}")
        print(f"{'':22s}time per trick start searched, ours over DDS's: median "
              f"{statistics.median(start_cost):.1f}")

    for players, per_hand in ((3, 17), (4, 13)):
        if args.threeb < 1:
            break
        times = []
        for _ in range(args.threeb):
            state = random_play_state("3b-spades", {"players": players}, rng, per_hand, False)
            pos = position_of(state)
            best = math.inf
            for _ in range(args.repeat):
                solver.forget()
                _, ms = timed(solver.tricks, pos, 1 << pos.to_act)
                best = min(best, ms)
            times.append(best)
        print(f"3B {players} players, {per_hand} cards, seat to lead alone, {args.threeb} "
              f"positions: {describe(times)}")

    ours13, dds13 = medians[13]
    print(f"ratio: {ours13 / dds13:.2f}")


if __name__ == "__main__":
    main()
