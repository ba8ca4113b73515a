"""Random legal games of Dummy Whist and Double Dummy keep every invariant (harness.py):
with and without jokers, in strict and honour mode."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from harness import SEEDS, check_random_game
from tricktable import make_game

DUMMY_WHIST_OPTIONS = [
    {},
    {"jokers": True},
    {"jokers": True, "joker_must_throw": False, "downtown_beats_uptown": True, "target": 10},
    {"honour": True},
    {"honour": True, "jokers": True, "notrump_doubles": False, "seven_doubles": False},
]

DOUBLE_DUMMY_OPTIONS = [
    {},
    {"honour": True, "target": 15},
    {"downtown_beats_uptown": True},
]


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, which=st.integers(0, len(DUMMY_WHIST_OPTIONS) - 1))
def test_random_dummy_whist_games_keep_invariants(seed: int, which: int) -> None:
    game = make_game("dummy-whist", DUMMY_WHIST_OPTIONS[which])
    check_random_game(game, random.Random(seed), max_hands=3)


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, which=st.integers(0, len(DOUBLE_DUMMY_OPTIONS) - 1))
def test_random_double_dummy_games_keep_invariants(seed: int, which: int) -> None:
    game = make_game("double-dummy-whist", DOUBLE_DUMMY_OPTIONS[which])
    check_random_game(game, random.Random(seed), max_hands=3)


def test_every_option_set_is_played_at_least_once() -> None:
    """Hypothesis may skip an index; play each option set once with a fixed seed."""
    for i, options in enumerate(DUMMY_WHIST_OPTIONS):
        check_random_game(make_game("dummy-whist", options), random.Random(i), max_hands=2)
    for i, options in enumerate(DOUBLE_DUMMY_OPTIONS):
        check_random_game(make_game("double-dummy-whist", options), random.Random(i), max_hands=2)
