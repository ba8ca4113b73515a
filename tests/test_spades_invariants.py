"""Random legal games of standard Spades keep every invariant (see harness.py)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from harness import SEEDS, check_random_game
from tricktable import make_game

OPTION_SETS = [
    {},
    {"nil_tricks_count": False, "spades_broken": False, "bag_limit": 5, "target": 200},
    {"blind_nil": True, "mercy": True, "target": 150},
    {"variant": "mirror", "target": 200},
    {"variant": "suicide", "target": 200, "mercy": True},
    {"variant": "whiz", "target": 200, "nil_tricks_count": False},
]


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, which=st.integers(0, len(OPTION_SETS) - 1))
def test_random_spades_games_keep_invariants(seed: int, which: int) -> None:
    check_random_game(make_game("spades", OPTION_SETS[which]), random.Random(seed), max_hands=4)
