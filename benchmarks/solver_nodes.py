"""The solver's search size on fixed sets of random bridge positions, to compare two
versions of the kernel (its move ordering, bounds, table) by the positions searched.

Each set is ``cards,positions,seed`` (bridge-like positions as ``benchmarks/solver.py``
makes them, the strains in turn); every position is solved from an empty table and its
value, nodes and time are recorded. ``--save FILE`` writes them as JSON; ``--compare FILE``
prints, per set, the geometric mean and the total of the nodes over the saved run's, and
any position whose value differs (there must be none). Nodes do not depend on the
machine's load; times are shown for reference only.

The default sets are those the last round of solver work tuned on (10 cards seed 7,
13 cards seed 99, 13 cards seed 31, 11 cards seed 5) and the benchmark's own (13 cards
seed 2026). Run it on two commits (one in a ``git worktree``) to compare them:

    .venv/bin/python benchmarks/solver_nodes.py --save /tmp/before.json   # old commit
    .venv/bin/python benchmarks/solver_nodes.py --compare /tmp/before.json  # new commit
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

from solver import STRAINS, leader_side  # the positions benchmarks/solver.py makes
from tricktable.search.random_positions import random_bridge_position
from tricktable.search.solver import Solver

DEFAULT_SETS = ("10,30,7", "13,10,99", "13,12,31", "11,20,5", "13,10,2026")


def parse_set(text: str) -> tuple[int, int, int]:
    try:
        cards, count, seed = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a set is cards,positions,seed, not {text!r}") from None
    if not 1 <= cards <= 13 or count < 1:
        raise argparse.ArgumentTypeError(f"cards must be 1-13 and positions at least 1: {text}")
    return cards, count, seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", dest="sets", type=parse_set, action="append",
                        help="cards,positions,seed (repeatable); default: the sets above")
    parser.add_argument("--save", type=Path, help="write this run's results as JSON")
    parser.add_argument("--compare", type=Path, help="compare with a run saved earlier")
    args = parser.parse_args()
    sets = args.sets or [parse_set(s) for s in DEFAULT_SETS]
    base = None
    if args.compare:
        try:
            base = json.loads(args.compare.read_text())
        except (OSError, ValueError) as exc:
            sys.exit(f"cannot read {args.compare}: {exc}")
    solver = Solver()
    results: dict[str, list[float]] = {}
    for cards, count, seed in sets:
        rng = random.Random(seed)
        keys = []
        for i in range(count):
            pos = random_bridge_position(rng, cards, STRAINS[i % len(STRAINS)])
            solver.forget()
            solver.nodes = 0
            start = time.perf_counter()
            value = solver.tricks(pos, leader_side(pos))
            key = f"{cards}-{seed}-{i}"
            results[key] = [value, solver.nodes, time.perf_counter() - start]
            keys.append(key)
        nodes = sum(results[k][1] for k in keys)
        seconds = sum(results[k][2] for k in keys)
        line = f"{cards:2d} cards, seed {seed}, {count} positions: {nodes:,} nodes, {seconds:.1f} s"
        if base is not None:
            if all(k in base for k in keys):
                wrong = [k for k in keys if base[k][0] != results[k][0]]
                geo = math.exp(sum(math.log(results[k][1] / base[k][1]) for k in keys) / count)
                total = nodes / sum(base[k][1] for k in keys)
                line += f"; nodes x{geo:.3f} (geometric mean), x{total:.3f} (total)"
                if wrong:
                    line += f"; VALUES DIFFER at {', '.join(wrong)}"
            else:
                line += "; not in the saved run"
        print(line, flush=True)
    if args.save:
        args.save.write_text(json.dumps(results))


if __name__ == "__main__":
    main()
