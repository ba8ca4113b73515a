"""Random legal games of Dummy Hand Spades keep every invariant (see harness.py), under
every peeking variant: cards are conserved, illegal actions are refused without a trace,
each seat's observation shows only what it may know (the face-down dummy above all) and
records replay to the same scores."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness import SEEDS, check_random_game
from tricktable import Phase, State, make_game, step
from tricktable.engine.actions import Flip, Peek, Play
from tricktable.games.dummy_hand_spades import PEEK_CHOICES, DummyHandSpadesState

DUMMY = 3

OTHER_OPTIONS = [
    {},
    {"spades_broken": False, "bag_limit": 3, "bag_penalty": 50, "max_nils": 4, "target": 100},
    {"max_nils": 0, "target": 60},
    {"variant": "mirror", "target": 150},
    {"variant": "suicide", "target": 150, "max_nils": 1},
]


@pytest.mark.parametrize("peek", PEEK_CHOICES)
@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, which=st.integers(0, len(OTHER_OPTIONS) - 1))
def test_random_dummy_hand_spades_games_keep_invariants(peek: str, seed: int, which: int) -> None:
    options = {**OTHER_OPTIONS[which], "peek": peek}
    game = make_game("dummy-hand-spades", options)
    check_random_game(game, random.Random(seed), max_hands=3)


def expected_dummy_view(state: State, viewer: int) -> int:
    """What ``viewer`` may see of the dummy, worked out from the actions of the hand: all of
    it after the opening lead, before that the flipped cards and the viewer's own peeks."""
    assert state.deal is not None
    if any(isinstance(a, Play) for a in state.actions):
        return state.hands[DUMMY]
    seen = 0
    for a in state.actions:
        if isinstance(a, Flip) or (isinstance(a, Peek) and a.seat == viewer):
            for p in a.positions:
                seen |= 1 << state.deal.hands[DUMMY][p]
    return seen & state.hands[DUMMY]


@pytest.mark.parametrize("peek", PEEK_CHOICES)
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS)
def test_each_seat_sees_exactly_what_it_may_of_the_dummy(peek: str, seed: int) -> None:
    # harness.py checks that an observation hides what it must; this checks that it also
    # shows no more of the dummy than the rules let a seat see, and who controls it
    rng = random.Random(seed)
    game = make_game("dummy-hand-spades", {"peek": peek})
    state = game.new_game()
    step(state, game.random_deal(state, rng))
    while state.phase not in (Phase.SCORING, Phase.GAME_OVER):
        assert isinstance(state, DummyHandSpadesState)
        for viewer in (0, 1, 2):
            obs = game.observe(state, viewer)
            assert obs.visible[DUMMY] == expected_dummy_view(state, viewer)
            assert obs.visible[(viewer + 1) % 3] == 0 and obs.visible[(viewer + 2) % 3] == 0
            dummy_controlled = state.phase is Phase.PLAY and viewer == state.declarer
            assert (DUMMY in obs.controls) == dummy_controlled
        assert game.observe(state, DUMMY).controls == ()
        step(state, rng.choice(game.legal_actions(state)))
