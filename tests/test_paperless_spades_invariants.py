"""Random legal games of Paperless Spades keep every invariant (see harness.py).

The low limits make tied sets, and so overtime sets and the reset of the totals, common.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from harness import SEEDS, check_random_game
from tricktable import make_game

OPTION_SETS = [
    {},
    {"limit": 1, "overtime_limit": 0, "stake": 2},
    {"limit": 2, "overtime_limit": 1},
]


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, which=st.integers(0, len(OPTION_SETS) - 1))
def test_random_paperless_games_keep_invariants(seed: int, which: int) -> None:
    game = make_game("paperless-spades", OPTION_SETS[which])
    check_random_game(game, random.Random(seed), max_hands=5)
