"""`check` accepts exactly what `legal_actions` lists, for every game and option set.

At random states of random legal games, every action of every verb for every seat number
from -2 to 7 (plays of every card, bids of every size and kind, exchanges, gives, peeks,
renege calls, ...) is offered to `check`. It must be accepted if and only if
`legal_actions` holds it (card and seat lists compared as sets), a refusal must be an
`IllegalAction` (never a KeyError, IndexError or ValueError), and no refusal may change
the state.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from hypothesis import given, settings

from harness import SEEDS, snapshot
from tricktable import IllegalAction, Phase, State, make_game, step
from tricktable.engine.actions import (
    Action,
    Bid,
    Direction,
    Discard,
    Exchange,
    Flip,
    Give,
    Keep,
    Pass,
    Peek,
    Play,
    Rebid,
    Renege,
    Swap,
    Trump,
)
from tricktable.engine.cards import cards_of
from tricktable.engine.game import Game, choice_key

CONFIGS = [
    ("spades", {}),
    ("spades", {"blind_nil": True, "mercy": True, "target": 150}),
    ("dummy-hand-spades", {}),
    ("dummy-hand-spades", {"peek": "flip-2"}),
    ("dummy-hand-spades", {"peek": "four-peeky"}),
    ("3b-spades", {"players": 3}),
    ("3b-spades", {"players": 4}),
    ("3b-spades", {"players": 5}),
    ("dummy-whist", {}),
    ("dummy-whist", {"jokers": True, "honour": True}),
    ("double-dummy-whist", {}),
    ("paperless-spades", {}),
]
SEATS = range(-2, 8)


def candidates(game: Game, state: State, rng: random.Random) -> list[Action]:
    """Actions of every verb for one seat (0), to be moved to every seat number."""
    deck = list(cards_of(game.deck))
    hand = list(cards_of(state.hands[state.to_act])) if state.to_act >= 0 else deck[:13]
    out: list[Action] = [Pass(0), Keep(0), Swap(0), Direction(0, False), Direction(0, True)]
    out += [Trump(0, s) for s in range(4)]
    out += [Renege(0, t) for t in range(0, 16)]
    out += [Play(0, c, low) for c in deck for low in (False, True)]
    out += [Exchange(0, c) for c in deck]
    for n in range(0, 19):
        out += [Bid(0, n), Rebid(0, n), Bid(0, n, blind=True)]
        out += [Bid(0, n, mode=m) for m in ("uptown", "downtown", "notrump")]
        nil_sets = [s for k in (1, 2) for s in itertools.combinations(range(4), k)]
        out += [Bid(0, n, nils=nils) for nils in nil_sets]
    positions = range(0, 15)
    for k in (1, 2, 3, 4):
        combos = list(itertools.combinations(positions, k))
        out += [Peek(0, p) for p in rng.sample(combos, min(12, len(combos)))]
        out += [Flip(0, p) for p in rng.sample(combos, min(12, len(combos)))]
    for k in (2, 3):
        combos = list(itertools.combinations(hand, k))
        out += [Give(0, g) for g in rng.sample(combos, min(20, len(combos)))]
        out += [Discard(0, g) for g in rng.sample(combos, min(10, len(combos)))]
    out += [Give(0, (hand[0], hand[0], hand[1]))] if len(hand) > 1 else []
    # every legal action of the state too, so that the accepted side is exercised
    out += game.legal_actions(state)
    return out


def reseat(action: Action, seat: int) -> Action:
    return dataclasses.replace(action, seat=seat)


def check_state(game: Game, state: State, rng: random.Random) -> None:
    listed = {(type(a), choice_key(a)) for a in game.legal_actions(state)}
    before = snapshot(state)
    for base in candidates(game, state, rng):
        for seat in SEATS:
            action = reseat(base, seat)
            try:
                game.check(state, action)
                accepted = True
            except IllegalAction:
                accepted = False
            except Exception as error:
                pytest.fail(f"{game.name}: check({action}) raised {type(error).__name__}: {error}")
            is_listed = (type(action), choice_key(action)) in listed
            assert accepted == is_listed, (
                f"{game.name} {game.options.to_mapping()} in {state.phase.value}: "
                f"check {'accepted' if accepted else 'refused'} {action!s} "
                f"which legal_actions {'lists' if is_listed else 'does not list'}"
            )
    assert snapshot(state) == before, "a refused check changed the state"


@pytest.mark.parametrize(
    ("name", "options"), CONFIGS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CONFIGS)]
)
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS)
def test_check_accepts_exactly_the_legal_actions(
    name: str, options: dict[str, object], seed: int
) -> None:
    game = make_game(name, options)
    rng = random.Random(seed)
    state = game.new_game()
    steps = 0
    checked_phases: set[Phase] = set()
    while state.phase is not Phase.GAME_OVER and state.finished_hands < 2:
        if state.phase in (Phase.DEAL, Phase.SCORING):
            step(state, game.random_deal(state, rng))
            continue
        # every new phase, and now and then during the play
        if state.phase not in checked_phases or rng.random() < 0.08:
            checked_phases.add(state.phase)
            check_state(game, state, rng)
        step(state, rng.choice(game.legal_actions(state)))
        steps += 1


# --- the cases found by hand, each named -----------------------------------------------------


def first_state(name: str, options: dict[str, object], seed: int = 3) -> tuple[Game, State]:
    game = make_game(name, options)
    state = game.new_game()
    step(state, game.random_deal(state, random.Random(seed)))
    return game, state


@pytest.mark.parametrize(("name", "options"), CONFIGS[::2])
@pytest.mark.parametrize("text", ["5: keep", "-1: pass", "7: play AS", "4: bid 3", "-2: rebid 2"])
def test_a_seat_outside_the_table_is_refused_plainly(
    name: str, options: dict[str, object], text: str
) -> None:
    game, state = first_state(name, options)
    head, _, rest = text.partition(":")
    action = reseat(
        {"keep": Keep(0), "pass": Pass(0), "play": Play(0, 0), "bid": Bid(0, 3),
         "rebid": Rebid(0, 2)}[rest.split()[0]],
        int(head),
    )
    if 0 <= action.seat < game.num_seats:
        pytest.skip("that seat exists at this table")
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="no seat") as refusal:
        step(state, action)
    assert refusal.value.rule == "seats"
    assert snapshot(state) == before


def test_3b_rebid_with_no_window_open_is_refused() -> None:
    _game, state = first_state("3b-spades", {"players": 3})
    assert state.window == -1  # nobody has bid: no window
    before = snapshot(state)
    for seat in range(-1, 3):
        with pytest.raises(IllegalAction) as refusal:
            step(state, Rebid(seat, 4))
        assert refusal.value.rule in ("change of bid", "seats")
    assert snapshot(state) == before


def test_blind_nil_decision_refuses_an_ordinary_bid() -> None:
    game = make_game("spades", {"blind_nil": True})
    state = game.new_game()
    rng = random.Random(1)
    # play hands until a team trails by 100, so that a blind nil decision comes up
    while state.phase is not Phase.REVEAL:
        if state.phase in (Phase.DEAL, Phase.SCORING):
            step(state, game.random_deal(state, rng))
        elif state.phase is Phase.GAME_OVER:
            pytest.skip("no blind nil decision in this game")
        else:
            step(state, rng.choice(game.legal_actions(state)))
    seat = state.to_act
    before = snapshot(state)
    for n in (0, 3):
        with pytest.raises(IllegalAction, match="has not looked") as refusal:
            step(state, Bid(seat, n))
        assert refusal.value.rule == "blind nil"
        assert "bid 0 blind" in refusal.value.allowed
    assert snapshot(state) == before
