"""Cards, decks, notation and card orders (trump, high/low, jokers, low aces)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tricktable.engine.cards import (
    BIG_JOKER,
    HEARTS,
    LITTLE_JOKER,
    NO_SUIT,
    ONE_JOKER_DECK,
    PAPERLESS_DECK,
    SPADES,
    STANDARD_DECK,
    TWO_JOKER_DECK,
    card_str,
    cards_of,
    deal_piles,
    format_set,
    parse_card,
    parse_set,
)
from tricktable.engine.errors import OptionError
from tricktable.engine.options import Options, option
from tricktable.engine.order import CardOrder


def c(text: str) -> int:
    return parse_card(text)


def test_notation_round_trips_for_every_card() -> None:
    for card in range(54):
        assert parse_card(card_str(card)) == card
        assert parse_card(card_str(card).lower()) == card
    assert parse_card("10S") == c("TS")
    assert card_str(BIG_JOKER) == "BJ" and card_str(LITTLE_JOKER) == "LJ"
    with pytest.raises(ValueError, match="not a card"):
        parse_card("1S")
    with pytest.raises(ValueError, match="twice"):
        parse_set("AS KD AS")


def test_decks_have_the_sizes_the_games_need() -> None:
    assert STANDARD_DECK.bit_count() == 52
    assert ONE_JOKER_DECK.bit_count() == 53 and ONE_JOKER_DECK >> BIG_JOKER & 1
    assert TWO_JOKER_DECK.bit_count() == 54
    assert PAPERLESS_DECK.bit_count() == 48
    assert format_set(STANDARD_DECK & ~PAPERLESS_DECK) == "3S 2S 3H 2H"


@given(st.integers(0, 2**32))
def test_seeded_deals_are_reproducible_and_use_the_whole_deck(seed: int) -> None:
    a = deal_piles(TWO_JOKER_DECK, [13, 13, 13, 15], random.Random(seed))
    b = deal_piles(TWO_JOKER_DECK, [13, 13, 13, 15], random.Random(seed))
    assert a == b
    assert sorted(x for pile in a for x in pile) == list(cards_of(TWO_JOKER_DECK))


def test_high_order_with_trump() -> None:
    spades = CardOrder(trump=SPADES)
    cards = [c("KH"), c("AH"), c("2S"), c("QH")]
    assert spades.winner(cards, HEARTS) == 2
    assert spades.winner([c("KH"), c("AH"), c("AD"), c("QH")], HEARTS) == 1


def test_low_order_ace_best_then_two() -> None:
    low = CardOrder(trump=NO_SUIT, low=True)
    assert low.winner([c("KH"), c("2H"), c("3H")], HEARTS) == 1
    assert low.winner([c("KH"), c("2H"), c("AH")], HEARTS) == 2
    assert low.winner([c("KH"), c("QH")], HEARTS) == 1


def test_jokers_top_trumps_big_above_little_and_follow_as_trumps() -> None:
    order = CardOrder(trump=HEARTS, low=True, jokers_trump=True)
    assert order.suit_of[BIG_JOKER] == HEARTS
    assert order.suit_masks[HEARTS] >> LITTLE_JOKER & 1
    assert order.winner([c("AH"), LITTLE_JOKER, BIG_JOKER, c("2H")], HEARTS) == 2
    assert order.winner([c("AS"), LITTLE_JOKER, c("AH")], SPADES) == 1


def test_no_trump_jokers_belong_to_no_suit_and_never_win() -> None:
    order = CardOrder(trump=NO_SUIT, jokers_trump=False)
    assert order.suit_of[BIG_JOKER] == NO_SUIT
    assert order.winner([c("2D"), BIG_JOKER, LITTLE_JOKER, c("3D")], 2) == 3


def test_the_cards_between_two_follow_the_order_and_its_suits() -> None:
    high = CardOrder(trump=SPADES)
    assert high.between(c("TH"), c("KH")) == parse_set("JH QH")
    assert high.between(c("KH"), c("TH")) == parse_set("JH QH")  # either way round
    assert high.between(c("JH"), c("QH")) == 0  # touching
    # low order: the ace ranks best, then the two; jokers are the top trumps
    low = CardOrder(trump=HEARTS, low=True)
    assert low.between(c("AH"), c("4H")) == parse_set("2H 3H")
    assert low.between(c("AH"), BIG_JOKER) == 1 << LITTLE_JOKER
    # a card of no suit has nothing between it and another
    assert CardOrder(trump=NO_SUIT, jokers_trump=False).between(LITTLE_JOKER, BIG_JOKER) == 0


def test_an_ace_called_low_ranks_below_the_two_but_stays_trump() -> None:
    order = CardOrder(trump=SPADES)
    # AS called low (bit 0) loses to 2S but still beats any heart
    assert order.winner([c("AS"), c("2S")], SPADES, low_aces=0b01) == 1
    assert order.winner([c("KH"), c("AS")], HEARTS, low_aces=0b10) == 1
    assert order.winner([c("AH"), c("2H")], HEARTS, low_aces=0b01) == 1


def test_options_validate_names_types_choices_and_ranges() -> None:
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Demo(Options):
        target: int = option(300, "points to win", minimum=1)
        peek: str = option("none", "peeking", choices=("none", "flip-1"))
        honour: bool = option(False, "honour mode")

    assert Demo.from_mapping({"target": "200", "peek": "flip-1", "honour": "yes"}) == Demo(
        200, "flip-1", True
    )
    assert Demo.parse_pairs(["target=250"]).target == 250
    assert Demo(target=250).to_mapping() == {"target": 250}
    for bad, msg in [({"target": 0}, "at least 1"), ({"peek": "x"}, "one of"),
                     ({"honour": "maybe"}, "true or false"), ({"nope": 1}, "unknown option")]:
        with pytest.raises(OptionError, match=msg):
            Demo.from_mapping(bad)
    assert [i.name for i in Demo.describe()] == ["target", "peek", "honour"]
    assert Demo.describe()[0].doc == "points to win"
