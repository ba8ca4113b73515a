"""An action made in Python with a field no action can hold (a card 99, a suit 4, a bid
of "3", a list of cards) is refused by ``step`` with IllegalAction naming the rule and what
is allowed, in every game and every phase, and the state is left as it was; never an
IndexError or a TypeError from deep in the rules."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tricktable.engine.actions import (
    CHANCE,
    Action,
    Bid,
    Deal,
    Direction,
    Discard,
    Exchange,
    Flip,
    Give,
    Peek,
    Play,
    Rebid,
    Renege,
    Trump,
    check_fields,
)
from tricktable.engine.errors import IllegalAction
from tricktable.engine.game import game_names, make_game, step
from tricktable.engine.state import Phase, State

NOT_NUMBERS: list[Any] = [None, "3", 1.5, True, [1]]
NOT_CARDS: list[Any] = [-1, 54, 99, 10**30, "AS", None, 1.5, True]


def malformed(seat: int) -> list[Action]:
    """Actions for ``seat`` with one field out of range or of the wrong kind."""
    out: list[Action] = []
    for c in NOT_CARDS:
        out += [Play(seat, c), Play(seat, c, True), Exchange(seat, c), Discard(seat, (c, 0)),
                Give(seat, (c, 1, 2))]
    for v in [-1, *NOT_NUMBERS]:
        out += [Bid(seat, v), Rebid(seat, v), Renege(seat, v), Trump(seat, v),
                Peek(seat, (v, 1, 2)), Flip(seat, (v,)), Bid(seat, 1, (v,))]
    out += [
        Trump(seat, 4), Trump(seat, -1), Renege(seat, 0), Bid(seat, 2, mode="sideways"),
        Bid(seat, 0, blind="yes"), Direction(seat, "low"), Play(seat, 12, "x"),
        Discard(seat, "AS"), Give(seat, [1, 2, 3]), Give(seat, None), Peek(seat, None),
        Bid(seat, 0, nils=None), Deal(CHANCE, 0, ((99,),)), Deal(CHANCE, 0, ((-1,),)),
        Deal(CHANCE, 0, None), Deal(CHANCE, "0", ()), Deal(seat, 0, ()),
        Deal(CHANCE, 0, ([1],)), Deal(CHANCE, 0, ((1.0,),)),
    ]
    return out


def test_the_issue_s_trump_4_is_refused_naming_the_suits() -> None:
    game = make_game("dummy-whist")
    state = game.new_game()
    with pytest.raises(IllegalAction) as refused:
        step(state, Trump(0, 4))
    assert refused.value.rule == "suits"
    assert "trump S, H, D or C" in refused.value.allowed
    assert "not a suit" in str(refused.value)


@pytest.mark.parametrize(("action", "rule"), [
    (Play(0, 99), "cards"), (Play(0, "AS"), "cards"), (Exchange(0, -1), "cards"),
    (Give(0, [1, 2, 3]), "cards"), (Bid(0, -1), "bids"), (Bid(0, "3"), "bids"),
    (Bid(0, 3, mode="sideways"), "bid modes"), (Bid(0, 3, (-1,)), "seats"),
    (Renege(0, 0), "tricks"), (Peek(0, (None,)), "dummy positions"),
    (Direction(0, "low"), "low"), (Deal(CHANCE, 0, ((99,),)), "cards"),
    (Play("0", 1), "seats"),
])
def test_each_field_names_its_rule_and_what_it_may_hold(action: Action, rule: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        check_fields(action)
    assert refused.value.rule == rule
    assert refused.value.allowed
    assert len(str(refused.value)) < 300


def test_the_notation_of_a_malformed_action_does_not_fail() -> None:
    for action in malformed(0):
        text = str(action)  # an error message may name it
        assert text.startswith("0: ") or text.startswith("-1: ") or "malformed" in text


def test_well_formed_actions_pass() -> None:
    for action in [Play(0, 0), Play(5, 53, True), Bid(1, 13, (1, 3), "uptown", False),
                   Bid(0, 0, blind=True), Trump(0, 3), Renege(0, 1), Peek(0, (0, 4, 7)),
                   Deal(CHANCE, 0, ((0, 1), (2, 3)), (4,))]:
        check_fields(action)


def configurations() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = [
        (n, {}) for n in game_names() if n != "3b-spades"]
    out += [("3b-spades", {"players": k}) for k in (3, 4, 5)]
    out += [("dummy-whist", {"jokers": True, "honour": True}), ("spades", {"blind_nil": True}),
            ("dummy-hand-spades", {"peek": "three-peeky"})]
    return out


def states_of_every_phase(game: Any, seed: int) -> list[State]:
    """Copies of states through two hands of a random game: one per action in the phases
    before play, a few during play."""
    rng = random.Random(seed)
    state = game.new_game()
    out = [state.copy()]
    plays = 0
    while not state.is_over and state.finished_hands < 2:
        if state.phase in (Phase.DEAL, Phase.SCORING):
            step(state, game.random_deal(state, rng))
        else:
            step(state, rng.choice(game.legal_actions(state)))
        plays = plays + 1 if state.phase is Phase.PLAY else 0
        if state.phase is not Phase.PLAY or plays % 9 == 1:
            out.append(state.copy())
    return out


@pytest.mark.parametrize(("name", "options"), configurations(),
                         ids=[f"{n}{o}" for n, o in configurations()])
def test_every_game_refuses_malformed_actions_in_every_phase(
    name: str, options: dict[str, Any]
) -> None:
    game = make_game(name, options)
    for state in states_of_every_phase(game, seed=1):
        before = state.copy()
        for seat in {state.to_act, 0, game.num_seats - 1}:
            for action in malformed(seat):
                with pytest.raises(IllegalAction) as refused:
                    step(state, action)
                assert "\n" not in str(refused.value)
        assert state.actions == before.actions and state.phase is before.phase
        assert state.hands == before.hands
