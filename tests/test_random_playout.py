"""The batch playout (``Game.random_playout``) and ``legal_mask``: every game's hand
finished by it is a legal hand (its record replays), cards are conserved, it draws each
legal card as often as a random choice from ``legal_actions`` would, and the mask is the
legal plays' cards."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from harness import check_conservation
from tricktable import Phase, make_game, step
from tricktable.engine.actions import PLAYS_BY_SEAT, Play
from tricktable.engine.cards import cards_of
from tricktable.engine.records import record_from_state, replay, summary

GAMES = [
    ("spades", {}), ("dummy-hand-spades", {"peek": "flip-2"}), ("3b-spades", {"players": 4}),
    ("dummy-whist", {"jokers": True}), ("double-dummy-whist", {}), ("paperless-spades", {}),
]


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_playout_finishes_the_hand_legally(name: str, options: dict[str, object]) -> None:
    game = make_game(name, options)
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_game()
        step(state, game.random_deal(state, rng))
        for _ in range(rng.randrange(30)):  # somewhere into the hand
            legal = game.legal_actions(state)
            if not legal:
                break
            step(state, rng.choice(legal))
            if state.phase is Phase.PLAY:
                plays = {a.card for a in game.legal_actions(state) if isinstance(a, Play)}
                assert sum(1 << c for c in plays) == game.legal_mask(state)
        hand = state.hand_number
        game.random_playout(state, rng)
        assert state.phase in (Phase.SCORING, Phase.GAME_OVER) and state.hand_number == hand
        check_conservation(game, state)
        assert summary(replay(record_from_state(state))) == summary(state)
        assert game.legal_mask(state) == 0


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_the_listed_plays_are_the_legal_masks_cards_in_order(
    name: str, options: dict[str, object]
) -> None:
    # leads and discards are listed a byte of the mask at a time, follows of the led suit
    # by two look-ups in that suit's cards: every way lists the interned plays of exactly
    # the mask's cards, lowest card first
    game = make_game(name, options)
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_game()
        step(state, game.random_deal(state, rng))
        while legal := game.legal_actions(state):
            if state.phase is Phase.PLAY:
                seat = state.to_act
                plain = [a for a in legal if type(a) is Play and not a.ace_low]
                expected = [PLAYS_BY_SEAT[seat][c] for c in cards_of(game.legal_mask(state))]
                assert len(plain) == len(expected)
                assert all(a is b for a, b in zip(plain, expected, strict=True))
            step(state, rng.choice(legal))


def test_cards_are_drawn_uniformly_from_the_legal_ones() -> None:
    game = make_game("spades")
    rng = random.Random(4)
    state = game.new_game()
    step(state, game.random_deal(state, rng))
    while state.phase is not Phase.PLAY:
        step(state, game.legal_actions(state)[0])
    legal = [a.card for a in game.legal_actions(state)]
    first: Counter[int] = Counter()
    for seed in range(4000):
        copy = state.copy()
        before = len(copy.actions)
        game.random_playout(copy, random.Random(seed))
        first[copy.actions[before].card] += 1  # type: ignore[attr-defined]
    assert set(first) == set(legal)
    expected = 4000 / len(legal)
    assert all(abs(n - expected) < 0.25 * expected for n in first.values()), first


@pytest.mark.parametrize(
    ("name", "options"),
    [*GAMES, ("dummy-whist", {"honour": True}), ("3b-spades", {"players": 5})],
)
def test_what_is_kept_as_a_card_is_played_is_right(
        name: str, options: dict[str, object]) -> None:
    """``play_card`` works out the next seat's legal plays as it moves a card (when the
    seat follows by the base rule, and ``finish_trick`` the next leader's): they must be
    what ``legal_plays`` finds afresh, after a checked ``step`` and after a
    ``random_playout``. It keeps the trick's best card so far too (``finish_trick`` takes
    its seat unless an ace was called low): every trick's winner is the one the card
    order finds, and a copy told ``changed()`` mid-trick works the same best card out."""
    game = make_game(name, options)
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_game()
        while state.finished_hands < 2 and state.phase is not Phase.GAME_OVER:
            step(state, game.random_deal(state, rng))
            if seed % 2:
                game.random_playout(state, rng)
            while legal := game.legal_actions(state):
                if state.trick_cards and not state.low_aces and rng.random() < 0.2:
                    fresh = state.copy()
                    fresh._best_power, fresh._best_seat = -1, -1
                    fresh.changed()
                    assert (fresh._best_power, fresh._best_seat) == (
                        state._best_power, state._best_seat)
                tricks = len(state.tricks)
                step(state, rng.choice(legal))
                remembered = state._legal_plays
                if remembered:
                    assert state.phase is Phase.PLAY
                    assert remembered == game.legal_plays(state)
                if len(state.tricks) > tricks:
                    trick = state.tricks[-1]
                    best = state.order.winner(list(trick.cards), trick.led_suit, trick.low_aces)
                    assert trick.winner == trick.seats[best]

