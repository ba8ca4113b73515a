"""The solver against DDS (through endplay) on random bridge-like positions: four seats,
two sides, every strain, no leading restriction (DDS knows no "spades broken")."""

from __future__ import annotations

import random

import pytest

from tricktable.engine.cards import NO_SUIT
from tricktable.search.position import Position
from tricktable.search.random_positions import pbn, random_bridge_position
from tricktable.search.solver import shared_solver

endplay_types = pytest.importorskip("endplay.types")
dds = pytest.importorskip("endplay.dds")
solve_mode = pytest.importorskip("endplay.dds.solve").SolveMode

STRAINS = (0, 1, 2, 3, NO_SUIT)  # spades, hearts, diamonds, clubs, no trump


def dds_tricks(pos: Position) -> int:
    """Tricks DDS gives the side of the seat to lead."""
    deal = endplay_types.Deal(pbn(pos.hands))
    deal.first = endplay_types.Player(pos.to_act)
    trump = pos.order.trump
    deal.trump = endplay_types.Denom(4 if trump == NO_SUIT else trump)
    solved = dds.solve_board(deal, solve_mode.OptimalOne)
    return max(score for _, score in solved)


@pytest.mark.parametrize("strain", STRAINS, ids=["S", "H", "D", "C", "NT"])
def test_solver_equals_dds(strain: int) -> None:
    """200 positions per strain (1,000 in all), 2 to 8 cards a hand."""
    rng = random.Random(1000 + strain)
    solver = shared_solver()
    for _ in range(200):
        pos = random_bridge_position(rng, rng.randint(2, 8), strain)
        side = 0b0101 if pos.to_act % 2 == 0 else 0b1010
        assert solver.tricks(pos, side) == dds_tricks(pos), pbn(pos.hands)
