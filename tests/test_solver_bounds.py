"""The kernel never indexes an array from its end.

It is compiled with numba's wrap of negative indices turned off (``kernel._indices_as_given``:
a search takes 11% less time), which is right only while every index is an offset into
the array. Here the kernel is compiled afresh in another process with numba's bounds checks
on, which then refuse any index outside an array, a negative one included, and solves
positions of every game, all three questions, from a table small enough to fill and make
room many times, and the answers are this process's."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from tricktable.engine.cards import NO_SUIT
from tricktable.search.position import position_of
from tricktable.search.random_positions import (
    GAME_SETTINGS,
    random_bridge_position,
    random_play_state,
)
from tricktable.search.solver import Solver, side_of

CHECKED = """
import json, sys
sys.path.insert(0, {tests!r})
from test_solver_bounds import answers
print(json.dumps(answers()))
"""


def answers() -> list[int]:
    """The solver's answers on positions of every game, with a 256-entry table."""
    solver = Solver(table_bits=8)
    out = []
    rng = random.Random(38)
    for name, options in GAME_SETTINGS:
        for cards in (2, 4, 6, 8):
            state = random_play_state(name, options, rng, cards)
            pos = position_of(state)
            seat = state.to_act
            side = side_of(state, seat)
            everyone = (1 << pos.num_seats) - 1
            for counted, maximizers in ((side, side), (1 << seat, 1 << seat),
                                        (1 << seat, everyone & ~side)):
                out.append(solver.tricks(pos, counted, maximizers))
            out.extend(value for _, value in solver.move_values(pos, side))
    for strain in (0, 1, 2, 3, NO_SUIT):
        pos = random_bridge_position(rng, 9, strain)
        out.append(solver.tricks(pos, 0b0101))
    return out


def test_no_index_falls_outside_an_array(tmp_path: Path) -> None:
    environment = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path))
    script = CHECKED.format(tests=str(Path(__file__).parent))
    done = subprocess.run([sys.executable, "-c", script], env=environment,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == answers()
