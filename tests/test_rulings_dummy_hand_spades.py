"""rulings.md, Three-Player "Dummy Hand" Spades: tests for the parts of the rulings that
tests/test_dummy_hand_spades.py does not already guard (see docs/rulings-coverage.md).
Every expected score is worked out by hand in the comments."""

from __future__ import annotations

import random
from typing import Any

import pytest

from test_dummy_hand_spades import (
    DEFENDERS_TAKE_5,
    WORKED_BIDS,
    bid_all,
    new_state,
    play_hand,
    refused,
)
from tricktable import Phase, step
from tricktable.engine.actions import CHANCE, Deal, Play
from tricktable.engine.cards import parse_card, parse_cards
from tricktable.engine.game import game_names
from tricktable.games.dummy_hand_spades import PEEK_CHOICES


class DrawnCards(random.Random):
    """A stand-in random source whose draws of cards (``sample``) give chosen cards, in
    order: each draw takes the next list of ``draws`` (later draws are random)."""

    def __init__(self, *draws: str) -> None:
        super().__init__(0)
        self.draws = [parse_cards(d) for d in draws]

    def sample(self, population: Any, k: int, *, counts: Any = None) -> list[Any]:
        if not self.draws:
            return super().sample(population, k)
        top = self.draws.pop(0)
        assert len(top) == k and all(c in population for c in top)
        return top


@pytest.mark.parametrize(
    ("draws", "dealer"),
    [
        (["5C KD 9H"], 1),  # the king is high: seat 1 deals
        (["AS KS QS"], 0),  # aces are high
        (["2C 3D 4H"], 2),
        (["KS 3D KH", "2C 4S"], 2),  # 0 and 2 tie with kings and draw again: 4S beats 2C
        (["AC AS 2D", "9H 8H"], 0),  # suits are equal: the ace of clubs ties the ace of spades
    ],
)
def test_ruling_dhs_1_first_dealer_is_drawn_by_high_card_among_the_real_players(
    draws: list[str], dealer: int
) -> None:
    game, state = new_state()
    rng = DrawnCards(*draws)
    assert game.draw_first_dealer(rng) == dealer
    assert rng.draws == []  # exactly as many draws as the ties needed
    # the first deal of a game makes that draw (and the dummy's seat 3 never draws)
    deal = game.random_deal(state, DrawnCards(*draws))
    assert deal.dealer == dealer
    step(state, deal)
    assert state.dealer == dealer


def test_ruling_dhs_7_exactly_ten_bags_cost_a_hundred() -> None:
    # Seat 0 comes in with 9 bags; the worked example gives him 8 tricks on a bid of 7:
    # 71 and one more bag, which makes 10: -100 and the bag count goes back to 0.
    _, state = new_state()
    state.bags = [9, 0, 0]
    result = play_hand(state, 2, WORKED_BIDS, 0, DEFENDERS_TAKE_5, 3)
    assert result.scores == {"0": 71 - 100, "1": 50, "2": -60}
    assert result.details["bags"] == {"0": 0, "1": 0, "2": 0}


def test_ruling_dhs_8_reaching_the_target_exactly_ends_the_game() -> None:
    # The worked example scores 71 for seat 0: with a target of 71 he has reached it.
    _, state = new_state(target=71)
    play_hand(state, 2, WORKED_BIDS, 0, DEFENDERS_TAKE_5, 3)
    assert state.phase is Phase.GAME_OVER and state.winner == 0


# Dealer 2: seat 0 bids first and leads; seat 0 bids 7 and declares, so the play order is
# 0, 1, dummy, 2. Seat 1 is void in hearts and trumps the opening ace of hearts with the 2S.
BREAK_DEAL = Deal(
    CHANCE,
    2,
    (
        tuple(parse_cards("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 3S")),
        tuple(parse_cards("2S 4S 5S 6S 7S 8S 9S AD KD QD JD TD 9D")),
        tuple(parse_cards("TS JS QS KS AS 8D 7D 6D 5D 4D 3D 2D 2C")),
        tuple(parse_cards("2H AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C")),
    ),
)


def test_ruling_dhs_6_once_a_spade_is_played_on_another_suit_any_leader_may_lead_spades() -> None:
    _, state = new_state()
    step(state, BREAK_DEAL)
    bid_all(state, {0: "7", 1: "3", 2: "3"})
    assert state.to_act == 0
    refused(state, Play(0, parse_card("3S")), "spades not broken")  # 0 holds hearts too
    for text in ("0: AH", "1: 2S", "3: 2H", "2: 2C"):
        seat, card = text.split(": ")
        step(state, Play(int(seat), parse_card(card)))
    assert state.tricks[0].winner == 1 and state.trump_broken
    # seat 1 holds diamonds as well as spades, and may now lead a spade
    assert state.game.legal_plays(state) == state.hands[1]
    step(state, Play(1, parse_card("4S")))
    assert state.trick_cards == [parse_card("4S")]


def test_ruling_dhs_10_suicide_and_mirror_are_an_option_not_new_games() -> None:
    # The rulings now describe them (rule 10): option `variant` of this game, tested in
    # tests/test_dummy_hand_variants.py; no separate game and no peek choice.
    for name in game_names():
        assert "suicide" not in name and "mirror" not in name
    assert not any("suicide" in p or "mirror" in p for p in PEEK_CHOICES)
    from tricktable.games.dummy_hand_spades import VARIANTS

    assert VARIANTS == ("standard", "mirror", "suicide")
