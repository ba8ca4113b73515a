"""Random legal games of 3B / RTR Spades keep every invariant (see harness.py), for 3, 4
and 5 players: cards conserved with the extra and dead cards set aside, illegal actions
refused without change (rebids out of turn included), observations that do not depend on
hidden cards (the extra card, the cards thrown back), totals, and replay from a record."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from harness import SEEDS, check_random_game
from tricktable import make_game

OPTION_SETS = [
    {"players": 3},
    {"players": 3, "millennium2": True, "hands": 2},
    {"players": 4},
    {"players": 4, "ace_calls": False, "hands": 2},
    {"players": 5},
    {"players": 5, "hands": 3},
]


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, which=st.integers(0, len(OPTION_SETS) - 1))
def test_random_3b_games_keep_invariants(seed: int, which: int) -> None:
    check_random_game(make_game("3b-spades", OPTION_SETS[which]), random.Random(seed), max_hands=3)
